package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// The attacks on the fog of war through OBSERVE: anyone may observe a
// game, a player too, from a second address, so an observer of a fogged
// game waits for the master's approval (APPROVE address) and gets
// nothing of the game until then; once approved, everything, as the
// master does, until EJECT.

// frenchEyes is France's second address, observing France's own game.
const frenchEyes = "france-again@example.org"

// boardWords are words that only a mail showing the board holds, on the
// standard board's first year.
var boardWords = []string{"Movement results", "Units in", "Supply centres after each Fall", "Kiel", "Munich", "Burgundy", "Ruhr"}

// notToExcept fails t for any mail of mails to addr but the replies to
// its own mails.
func notToExcept(t *testing.T, mails []*state.OutMail, addr, when string) {
	t.Helper()
	for _, m := range mailsTo(mails, addr) {
		if !strings.HasPrefix(m.Subject, "Re: ") {
			t.Errorf("%s: %s, waiting for approval, got %q, maps %v:\n%s", when, addr, m.Subject, m.Maps, m.Body)
		}
	}
}

// TestFogObserverWaitsTellsNothing: France's player observes its own
// fogged game from a second address. The master is told it waits; until
// it approves, no mail the judge sends reaches the address (results,
// maps, broadcasts, a reminder), and its own HISTORY, LIST and SUMMARY,
// signed on as the observer, show nothing of the board. Once approved,
// the whole results come to it, as HISTORY and LIST are whole.
func TestFogObserverWaitsTellsNothing(t *testing.T) {
	h, france, germany := fogAttack(t)
	fr, ge := h.seatAddr(fogGame, "France"), h.seatAddr(fogGame, "Germany")
	from := h.lastID()
	got := h.observe(frenchEyes, fogGame, "pw-f2", "")
	mustContain(t, replyTo(t, got, frenchEyes).Body, "once its master approves you")
	told := mailsTo(got, testMaster)
	if len(told) != 1 || !strings.HasSuffix(told[0].Subject, "Observer Waits") {
		t.Fatalf("the master was told %d mails of the observer: %v", len(told), told)
	}
	mustContain(t, told[0].Body, "APPROVE "+frenchEyes)
	t.Logf("to the master:\n%s", told[0].Body)
	mustContain(t, replyTo(t, h.mail(testMaster, "list", "SIGNON M"+fogGame+" "+testMasterPass+"\nAPPROVE"), testMaster).Body,
		frenchEyes+" (to observe)", fogObserver+" (to observe)")

	h.mail(ge, "orders", germany+"\nA Mun - Ruh\nA Ber - Kie\nF Kie - Den\nBROADCAST\nGermany greets everyone.\nENDPRESS")
	h.mail(fr, "orders", france+"\nA Par - Bur\nA Mar - Spa\nF Bre - Mao")
	h.mail(testMaster, "press", "SIGNON M"+fogGame+" "+testMasterPass+"\nBROADCAST\nFrom the master.\nENDPRESS")
	h.processNow(fogGame)
	h.processNow(fogGame)
	ask := "\nHISTORY " + fogGame + "\nHISTORY " + fogGame + " S1901M\nLIST " + fogGame + "\nSUMMARY " + fogGame
	r := replyTo(t, h.mail(frenchEyes, "ask", "SIGNON O"+fogGame+" pw-f2"+ask), frenchEyes)
	mustContain(t, r.Body, "until its master approves you", "fog of war")
	mustNotContain(t, r.Body, boardWords...)
	if len(r.Maps) > 0 {
		t.Errorf("the waiting observer's HISTORY has maps %v", r.Maps)
	}
	mails := h.since(from)
	notToExcept(t, mails, frenchEyes, "before approval")
	if n := len(mailsTo(mails, fogObserver)); n > 0 {
		t.Errorf("the other waiting observer got %d mails", n)
	}

	// The master approves the address: the whole board from then on.
	from = h.lastID()
	got = h.mail(testMaster, "approve", "SIGNON M"+fogGame+" "+testMasterPass+"\nAPPROVE "+frenchEyes)
	mustContain(t, replyTo(t, got, testMaster).Body, frenchEyes+" now observes game '"+fogGame+"', and sees the whole board")
	told = mailsTo(got, frenchEyes)
	if len(told) != 1 || !strings.HasSuffix(told[0].Subject, "Observer Approved") {
		t.Fatalf("the observer was told %d mails of its approval", len(told))
	}
	t.Logf("to the observer:\n%s", told[0].Body)
	h.processNow(fogGame)
	recs := h.phases(fogGame)
	whole := strings.TrimRight(recs[len(recs)-1].Results, "\n")
	res := 0
	for _, m := range mailsTo(h.since(from), frenchEyes) {
		if strings.HasSuffix(m.Subject, " Results") {
			res++
			mustContain(t, m.Body, whole)
			for _, ref := range m.Maps {
				if ref.Viewer != "" {
					t.Errorf("the approved observer's map %s is %s's view", ref.Name(), ref.Viewer)
				}
			}
		}
	}
	if res != 1 {
		t.Errorf("the approved observer got %d results mails, want 1", res)
	}
	r = replyTo(t, h.mail(frenchEyes, "ask", "SIGNON O"+fogGame+" pw-f2"+ask), frenchEyes)
	mustContain(t, r.Body, strings.TrimRight(recs[0].Results, "\n"), "Units in", "Supply centres after each Fall")
	// The other observer still waits.
	r = replyTo(t, h.mail(fogObserver, "ask", "SIGNON O"+fogGame+" pw-o"+ask), fogObserver)
	mustNotContain(t, r.Body, boardWords...)
}

// TestFogForgedApprove: APPROVE needs the master's password; a mail
// forged from the master's address without it, or with wrong ones,
// approves nothing, and the wrong passwords lock the master's sign-on
// as any (checkSeat): the right one in a forged mail is then not even
// checked. The observer stays waiting and gets nothing.
func TestFogForgedApprove(t *testing.T) {
	h, _, _ := fogAttack(t)
	h.observe(frenchEyes, fogGame, "pw-f2", "")
	r := replyTo(t, h.mail(testMaster, "forged", "APPROVE "+frenchEyes), testMaster)
	mustContain(t, r.Body, "Sign on first")
	for i := range senderFailures {
		r = replyTo(t, h.mail(testMaster, "forged", fmt.Sprintf("SIGNON M%s guess%d\nAPPROVE %s", fogGame, i, frenchEyes)), testMaster)
		mustContain(t, r.Body, "Wrong password")
	}
	r = replyTo(t, h.mail(testMaster, "forged", "SIGNON M"+fogGame+" "+testMasterPass+"\nAPPROVE "+frenchEyes), testMaster)
	mustContain(t, r.Body, "Too many wrong passwords")
	mustNotContain(t, r.Body, "now observes")
	g := h.game(fogGame)
	for _, o := range g.Observers {
		if o.Approved {
			t.Errorf("%s was approved by a forged mail", o.Addr)
		}
	}
	from := h.lastID()
	h.processNow(fogGame)
	notToExcept(t, h.since(from), frenchEyes, "after the forged approvals")
}

// TestFogEjectedObserver: an approved observer that the master EJECTs
// gets nothing more of the game, and may not observe it again.
func TestFogEjectedObserver(t *testing.T) {
	h, _, _ := fogAttack(t)
	master := "SIGNON M" + fogGame + " " + testMasterPass
	h.observe(frenchEyes, fogGame, "pw-f2", "")
	h.mail(testMaster, "approve", master+"\nAPPROVE "+frenchEyes)
	from := h.lastID()
	h.processNow(fogGame)
	if len(mailsTo(h.since(from), frenchEyes)) == 0 {
		t.Fatal("the approved observer got no results")
	}
	h.mail(testMaster, "eject", master+"\nEJECT "+frenchEyes)
	from = h.lastID()
	h.processNow(fogGame)
	if got := mailsTo(h.since(from), frenchEyes); len(got) > 0 {
		t.Errorf("the ejected observer got %q", got[0].Subject)
	}
	r := replyTo(t, h.mail(frenchEyes, "again", "OBSERVE "+fogGame+" pw-f2"+"\nHISTORY "+fogGame), frenchEyes)
	mustContain(t, r.Body, "has removed this address")
	mustNotContain(t, r.Body, boardWords...)
}

// TestApproveObserverNoFog: without fog an observer waits for nobody,
// and APPROVE has no observer to approve.
func TestApproveObserverNoFog(t *testing.T) {
	h := newHarness(t)
	h.startAnyVariant(fogGame, "standard", "")
	got := h.observe(frenchEyes, fogGame, "pw-f2", "")
	mustContain(t, replyTo(t, got, frenchEyes).Body, "you will receive its results and broadcasts")
	if n := len(mailsTo(got, testMaster)); n > 0 {
		t.Errorf("the master was mailed %d times of an observer without fog", n)
	}
	r := replyTo(t, h.mail(testMaster, "approve", "SIGNON M"+fogGame+" "+testMasterPass+"\nAPPROVE "+frenchEyes), testMaster)
	mustNotContain(t, r.Body, "now observes")
	from := h.lastID()
	h.processNow(fogGame)
	if len(mailsTo(h.since(from), frenchEyes)) == 0 {
		t.Error("the observer of a game without fog got no results")
	}
}
