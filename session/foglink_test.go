package session

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
	"golang.org/x/crypto/bcrypt"
)

// The private links of a fogged game by mail: each holder's link comes
// in its sign-on reply and its results mails, and in no other mail.

const linkBase = "https://judge.example.org"

// newWebHarness is newHarness for a judge with web pages at linkBase.
func newWebHarness(t *testing.T) *harness {
	db, err := state.Open(filepath.Join(t.TempDir(), "gmd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	m := New(db, engine.Config{Config: config.Config{JudgeName: "GMD", JudgeAddr: testJudge, PasswordCost: bcrypt.MinCost,
		HTTP: &config.HTTP{BaseURL: linkBase}}})
	return &harness{t: t, m: m, now: testStart}
}

// TestFogLinksMailed: in a fogged game, each power's sign-on reply and
// results mails carry its own link, the master's sign-on and an
// approved observer's theirs; no mail holds a token but to its holder,
// a waiting observer gets none, and a game without fog mails no link.
func TestFogLinksMailed(t *testing.T) {
	h := newWebHarness(t)
	seats := h.startAnyVariant(fogGame, "standard", "SET FOG")
	h.observe(fogApproved, fogGame, "pw-a", "")
	h.observe(fogObserver, fogGame, "pw-o", "")
	h.mail(testMaster, "approve", "SIGNON M"+fogGame+" "+testMasterPass+"\nAPPROVE "+fogApproved)
	from := h.lastID()
	g := h.game(fogGame)
	mp, err := engine.GameMap(g)
	if err != nil {
		t.Fatal(err)
	}
	letter := func(name string) string {
		p, _ := mp.PowerByName(name)
		return string(mp.Powers[p].Letter)
	}
	holders := map[string]string{} // token: the address it may go to
	for name, s := range seats {
		tok := view.PowerLink(g, name)
		holders[tok] = s.Addr
		r := replyTo(t, h.mail(s.Addr, "signon", "SIGNON "+letter(name)+fogGame+" "+s.Pass), s.Addr)
		mustContain(t, r.Body, linkBase+"/games/"+fogGame+"/as/"+tok+"/S1901M")
		if name == "France" {
			t.Logf("France's sign-on:\n%s", r.Body)
		}
	}
	holders[view.MasterLink(g)] = testMaster
	holders[view.ObserverLink(g, fogApproved)] = fogApproved
	mustContain(t, replyTo(t, h.mail(testMaster, "m", "SIGNON M"+fogGame+" "+testMasterPass), testMaster).Body, view.MasterLink(g))
	mustContain(t, replyTo(t, h.mail(fogApproved, "o", "SIGNON O"+fogGame+" pw-a"), fogApproved).Body, view.ObserverLink(g, fogApproved))
	r := replyTo(t, h.mail(fogObserver, "o", "SIGNON O"+fogGame+" pw-o"), fogObserver)
	mustNotContain(t, r.Body, "/as/")
	h.processNow(fogGame)
	h.processNow(fogGame)
	linked := 0
	for _, m := range h.since(from) {
		for tok, addr := range holders {
			if !strings.Contains(m.Body, tok) {
				continue
			}
			if len(m.To) != 1 || m.To[0] != addr {
				t.Errorf("the mail %q to %v holds the token of %s", m.Subject, m.To, addr)
			}
			if strings.HasSuffix(m.Subject, " Results") {
				if linked++; linked == 1 {
					t.Logf("a power's results mail:\n%s", m.Body)
				}
			}
		}
		if strings.Contains(m.Subject+strings.Join(m.To, ","), "/as/") {
			t.Errorf("a token in the header of %q", m.Subject)
		}
	}
	if linked != 2*len(seats) {
		t.Errorf("%d results mails carry a link, want %d (each power's, two phases)", linked, 2*len(seats))
	}

	plain := newWebHarness(t)
	seats = plain.startAnyVariant(fogGame, "standard", "")
	s := seats["France"]
	mustNotContain(t, replyTo(t, plain.mail(s.Addr, "signon", "SIGNON F"+fogGame+" "+s.Pass), s.Addr).Body, "/as/")
}
