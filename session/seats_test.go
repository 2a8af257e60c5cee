package session

import (
	"github.com/gmdjudge/gmd/internal/racetest"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// Tests of what a forged From may not do: change a seat it did not sign
// on to with its password, keep a player out with wrong passwords, take
// over a seat or subscribe an address that never confirmed.

// TestSeatCommandsNeedTheSeatsPassword: SET PASSWORD, SET PREFERENCE and
// RESIGN act on the seat signed on to in the same mail with its
// password, never on another seat of the same address. Before, in a
// forming game, an OBSERVE under a player's forged address was enough to
// change that player's password, preferences, or to take them out.
func TestSeatCommandsNeedTheSeatsPassword(t *testing.T) {
	h := newHarness(t)
	h.create("fg")
	const alice = "alice@example.org"
	h.join(alice, "fg", "pw-alice", "F", "")

	// A forger writes as Alice and observes the game.
	for _, cmd := range []string{"SET PASSWORD mine", "SET PREFERENCE E", "RESIGN"} {
		h.mail(alice, "forged", "OBSERVE fg x\n"+cmd)
	}
	// Alice's address is also an observer's, with a password of its own
	// (a forger who knows it has only the observer's seat).
	g := h.game("fg")
	hash, err := bcrypt.GenerateFromPassword([]byte("pw-watch"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	g.Observers = append(g.Observers, state.Observer{Addr: alice, PassHash: hash})
	h.putGame(g)
	r := replyTo(t, h.mail(alice, "as observer", "OBSERVE fg pw-watch\nSET PREFERENCE E"), alice).Body
	mustContain(t, r, "Preferences are for players of a game that has not started.")
	r = replyTo(t, h.mail(alice, "as observer", "OBSERVE fg pw-watch\nSET PASSWORD mine"), alice).Body
	mustContain(t, r, "Password changed.")
	r = replyTo(t, h.mail(alice, "as observer", "OBSERVE fg mine\nRESIGN"), alice).Body
	mustContain(t, r, "You no longer observe game 'fg'.")

	g = h.game("fg")
	i := engine.PlayerByAddr(g, alice)
	if i < 0 {
		t.Fatal("Alice was taken out of the game")
	}
	if p := g.Players[i]; p.Preference != "F" {
		t.Errorf("Alice's preference is %q, want F", p.Preference)
	}
	if len(g.Observers) != 0 {
		t.Errorf("observers left: %+v", g.Observers)
	}
	mustContain(t, replyTo(t, h.mail(alice, "x", "SIGNON ?fg pw-alice"), alice).Body, "You are already in game 'fg'")
	mustContain(t, replyTo(t, h.mail(alice, "x", "SIGNON ?fg mine"), alice).Body, "Wrong password")
	// Signed on to her own seat, Alice changes it.
	r = replyTo(t, h.mail(alice, "x", "SIGNON ?fg pw-alice\nSET PREFERENCE E\nSET PASSWORD pw-new"), alice).Body
	mustContain(t, r, "Preference set: E.", "Password changed.")
	mustContain(t, replyTo(t, h.mail(alice, "x", "SIGNON ?fg pw-new\nRESIGN"), alice).Body, "You have left game 'fg'.")
}

// TestLockoutCannotKeepTheOwnerOut: a forger who sends five wrong
// passwords every quarter of an hour under France's address locks that
// address, but France, with the code the lockout's reply brings to her
// own address and her password, signs on every time, and so never goes
// late or abandoned. The lockout still holds every mail without the
// code, and the code opens no other seat.
func TestLockoutCannotKeepTheOwnerOut(t *testing.T) {
	racetest.Sequential(t)
	h := newHarness(t)
	h.startStandard("dt")
	const france = "france@example.org"
	var code string
	for range 38 {
		var last string
		for range senderFailures {
			last = replyTo(t, h.mail(france, "forged", "SIGNON Fdt guess"), france).Body
		}
		mustContain(t, last, "sign-ons are locked until")
		h.advance(time.Minute)
		// Without a code the lockout holds, the right password
		// included; the reply, which only France reads, has a code.
		r := replyTo(t, h.mail(france, "forged", "SIGNON Fdt pw-f"), france).Body
		mustContain(t, r, "sign-ons are locked until")
		mustNotContain(t, r, "Signed on")
		code = codeIn(t, r)
		// With it, France signs on and orders.
		r = replyTo(t, h.mail(france, "orders", "CONFIRM "+code+"\nSIGNON Fdt pw-f\nA Par - Bur"), france).Body
		mustContain(t, r, "Signed on as France", "France: Army Paris -> Burgundy.")
		// The code is used: sent again, the mail is locked out.
		r = replyTo(t, h.mail(france, "orders", "CONFIRM "+code+"\nSIGNON Fdt pw-f"), france).Body
		mustContain(t, r, "locked until", "The confirmation code in your mail is wrong or too old.")
		mustNotContain(t, r, "Signed on")
		// A fresh code with a wrong password: checked, and wrong.
		r = replyTo(t, h.mail(france, "orders", "CONFIRM "+codeIn(t, r)+"\nSIGNON Fdt guess"), france).Body
		mustContain(t, r, "Wrong password")
		// The next quarter of an hour, the forger starts again.
		h.advance(15 * time.Minute)
		h.tick()
	}
	if p := h.game("dt").Players[engine.PlayerByPower(h.game("dt"), "France")]; p.Status != state.Playing || p.Addr != france {
		t.Fatalf("France after the forger's day: %+v", p)
	}

	// In another game, England guesses France's password from his own
	// address: he is locked, and his code opens his own seat, not
	// France's.
	h.startStandard("e2")
	const england = "england@example.org"
	var last string
	for range senderFailures {
		last = replyTo(t, h.mail(england, "guess", "SIGNON Fe2 guess"), england).Body
	}
	ecode := codeIn(t, last)
	r := replyTo(t, h.mail(england, "guess", "CONFIRM "+ecode+"\nSIGNON Fe2 pw-f"), england).Body
	mustContain(t, r, "locked until")
	mustNotContain(t, r, "Signed on")
	r = replyTo(t, h.mail(england, "orders", "CONFIRM "+ecode+"\nSIGNON Ee2 pw-e"), england).Body
	mustContain(t, r, "Signed on as England")
	// France's last code is for France's address in dt: it opens nothing
	// else.
	r = replyTo(t, h.mail(england, "orders", "CONFIRM "+code+"\nSIGNON Ee2 pw-e"), england).Body
	mustContain(t, r, "locked until", "The confirmation code in your mail is wrong or too old.")
}

// TestTakeoverNeedsTheNewAddress: an abandoned seat goes only to an
// address that showed, with the code the judge sent it, that the
// request came from there.
func TestTakeoverNeedsTheNewAddress(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.orders("dt", "F", "RESIGN")
	const victim, forger = "victim@example.org", "forger@example.net"

	got := h.mail(victim, "forged", "SIGNON Fdt x\nA Par - Bur")
	r := onlyTo(t, got, victim)
	mustContain(t, r.Body, "France in game 'dt' is free for takeover.", "CONFIRM ", "SIGNON Fdt <your password>")
	if len(got) != 1 {
		t.Errorf("the request queued %d mails, want only the reply", len(got))
	}
	code := codeIn(t, r.Body)
	seat := func() state.Player {
		g := h.game("dt")
		return g.Players[engine.PlayerByPower(g, "France")]
	}
	if p := seat(); p.Status != state.Abandoned || p.Addr != "france@example.org" {
		t.Fatalf("France after an unconfirmed takeover: %+v", p)
	}
	// The victim's code is no good from another address, nor for
	// another seat, nor after two days.
	r = onlyTo(t, h.mail(forger, "forged", "CONFIRM "+code+"\nSIGNON Fdt x"), forger)
	mustContain(t, r.Body, "The confirmation code in your mail is wrong or too old.")
	h.orders("dt", "G", "RESIGN")
	r = onlyTo(t, h.mail(victim, "x", "CONFIRM "+code+"\nSIGNON Gdt x"), victim)
	mustContain(t, r.Body, "Germany in game 'dt' is free for takeover.", "wrong or too old")
	h.advance(49 * time.Hour)
	r = onlyTo(t, h.mail(victim, "x", "CONFIRM "+code+"\nSIGNON Fdt x"), victim)
	mustContain(t, r.Body, "wrong or too old")
	if p := seat(); p.Status != state.Abandoned {
		t.Fatalf("France after refused takeovers: %+v", p)
	}
	// A fresh code, sent back the next day, takes the seat.
	code = codeIn(t, r.Body)
	h.advance(30 * time.Hour)
	got = h.mail(victim, "x", "SIGNON Fdt mine\nCONFIRM "+strings.ToLower(code[:5]+"-"+code[5:]))
	mustContain(t, replyTo(t, got, victim).Body, "You have taken over France in game 'dt'")
	if p := seat(); p.Status != state.Playing || p.Addr != victim {
		t.Fatalf("France after the takeover: %+v", p)
	}
}

// TestObserversConfirmAndAreCapped: no mail of the game goes to an
// observer's address before it confirms; a game has at most
// MaxObservers, and those who never confirmed do not count.
func TestObserversConfirmAndAreCapped(t *testing.T) {
	h := newHarness(t)
	h.m.cfg.MaxObservers = 2
	h.startStandard("dt")
	const stranger = "stranger@example.org"
	r := onlyTo(t, h.mail(stranger, "forged", "OBSERVE dt pw\nSET PASSWORD other"), stranger).Body
	mustContain(t, r, "You are not observing game 'dt' yet.", "OBSERVE dt <your password>", "The rest of this mail was ignored.")
	if n := len(h.game("dt").Observers); n != 0 {
		t.Fatalf("%d observers before any confirmation", n)
	}
	broadcast := func() []*state.OutMail {
		return h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nBROADCAST\nhello\nENDPRESS")
	}
	if got := mailsTo(broadcast(), stranger); len(got) != 0 {
		t.Fatalf("an unconfirmed observer got %q", got[0].Subject)
	}
	// Another address cannot use the stranger's code.
	r = onlyTo(t, h.mail("other@example.org", "x", "CONFIRM "+codeIn(t, r)+"\nOBSERVE dt pw"), "other@example.org").Body
	mustContain(t, r, "wrong or too old")

	h.observe(stranger, "dt", "pw", "")
	if got := mailsTo(broadcast(), stranger); len(got) != 1 {
		t.Fatalf("a confirmed observer got %d mails of a broadcast", len(got))
	}
	h.observe("second@example.org", "dt", "pw", "")
	r = onlyTo(t, h.mail("third@example.org", "x", "OBSERVE dt pw"), "third@example.org").Body
	mustContain(t, r, "Game 'dt' has 2 observers, the most this judge allows.")
	mustNotContain(t, r, "CONFIRM ")
	if n := len(h.game("dt").Observers); n != 2 {
		t.Fatalf("%d observers, want 2", n)
	}
}

// TestGamesPerMaster: one address is master of at most
// MaxGamesPerMaster games that are not over; judge admins of any number.
func TestGamesPerMaster(t *testing.T) {
	h := newHarness(t)
	h.m.cfg.MaxGamesPerMaster = 2
	h.create("g1")
	h.create("g2")
	r := onlyTo(t, h.mail(testMaster, "x", "CREATE ?g3 pw"), testMaster).Body
	mustContain(t, r, "You are already the master of 2 games that are not over")
	if _, err := h.gameErr("g3"); err == nil {
		t.Fatal("g3 was created")
	}
	g := h.game("g1")
	g.Status = state.Finished
	h.putGame(g)
	h.create("g3")
	h.m.cfg.Admins = []string{testMaster}
	h.create("g4")
}

// gameErr reads a game, returning the error rather than failing.
func (h *harness) gameErr(name string) (*state.Game, error) {
	var g *state.Game
	err := h.m.DB().View(func(tx *state.Tx) error {
		var err error
		g, err = tx.Game(name)
		return err
	})
	return g, err
}

// TestEjectObserver: the master, or an admin signed on as the master,
// removes an observer, who is told and may not observe again.
func TestEjectObserver(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("w@example.org", "dt", "pw-w", "")
	h.observe("x@example.org", "dt", "pw-x", "")

	got := h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nEJECT W@example.org\nEJECT nobody@example.org")
	mustContain(t, replyTo(t, got, testMaster).Body, "w@example.org no longer observes 'dt'", "Nobody observes 'dt' from nobody@example.org.")
	n := onlyTo(t, got, "w@example.org")
	if n.Subject != "GMD:dt - S1901M Observer Ejected" {
		t.Errorf("notice subject %q", n.Subject)
	}
	mustContain(t, n.Body, "The master of game 'dt' has removed w@example.org from its observers.")
	r := onlyTo(t, h.mail("w@example.org", "x", "OBSERVE dt pw-w"), "w@example.org").Body
	mustContain(t, r, "The master of 'dt' has removed this address from the game.")
	mustNotContain(t, r, "CONFIRM ")

	h.m.cfg.Admins = []string{"keeper@example.org"}
	got = h.mail("keeper@example.org", "x", "SIGNON Mdt\nEJECT x@example.org")
	mustContain(t, replyTo(t, got, "keeper@example.org").Body, "x@example.org no longer observes 'dt'")
	if g := h.game("dt"); len(g.Observers) != 0 || !slices.Equal(g.Barred, []string{"w@example.org", "x@example.org"}) {
		t.Errorf("observers %+v, barred %v", g.Observers, g.Barred)
	}
	// A player may not eject anyone.
	r = onlyTo(t, h.orders("dt", "F", "EJECT england@example.org"), "france@example.org").Body
	mustContain(t, r, "Only the master of 'dt' may EJECT.")
}

// TestOneCommandTable: the game master runs every command of the
// parser's command table, and has no handler for a command the table does
// not hold (but ORDERS, the order lines); the error that lists the
// commands names every one.
func TestOneCommandTable(t *testing.T) {
	t.Parallel()
	table := parser.Commands()
	for _, c := range table {
		if _, ok := commands[c.Name]; !ok {
			t.Errorf("the parser finds %s, which the game master does not run", c.Name)
		}
		if !slices.Contains(strings.FieldsFunc(accepted, func(r rune) bool { return r == ',' || r == ';' || r == ' ' }), c.Name) {
			t.Errorf("%s missing from the list of commands in errors: %s", c.Name, accepted)
		}
	}
	for n := range commands {
		if _, ok := parser.LookupCommand(n); n != "ORDERS" && !ok {
			t.Errorf("the game master runs %s, which the parser never gives", n)
		}
	}
}

// TestConfirmAlone: a CONFIRM line that nothing needs, or without a
// code, is answered, and does nothing.
func TestConfirmAlone(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.mail("x@example.org", "x", "CONFIRM ABCDEFGHJK\nLIST dt"), "x@example.org").Body
	mustContain(t, r, "Nothing in this mail needed the confirmation code")
	r = onlyTo(t, h.mail("x@example.org", "x", "CONFIRM"), "x@example.org").Body
	mustContain(t, r, "Error (line 1): Use: CONFIRM code")
	r = onlyTo(t, h.orders("dt", "F", "CONFIRM ABCDEFGHJK"), "france@example.org").Body
	mustContain(t, r, "Signed on as France", "Nothing in this mail needed the confirmation code")
}

// TestEjectedPlayerStaysOut is the attack of issue 18 (item 2): EJECT
// kept the player's address and password, and the ejected player signed
// on again with the old password ("Welcome back") and played on. Now the
// password goes with the seat and the address is barred: neither the old
// password, nor a takeover with a code, nor observing lets it back, on
// every seat of the game; once the master ADMITs it, it comes back as
// any taker does, with a code and a new password, and the old one is
// dead.
func TestEjectedPlayerStaysOut(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	const italy = "italy@example.org"
	mustContain(t, replyTo(t, h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nEJECT Italy"), testMaster).Body,
		"Italy is ejected from 'dt'", "unless you ADMIT it")
	if p := h.game("dt").Players[engine.PlayerByPower(h.game("dt"), "Italy")]; len(p.PassHash) != 0 {
		t.Errorf("the ejected seat kept its password hash")
	}
	for _, body := range []string{
		"SIGNON Idt pw-i",         // the old password: "Welcome back" before
		"SIGNON Idt new-pw",       // a takeover, which would mail a code
		"SIGNON Idt pw-i\nORDERS", // with more after it
		"OBSERVE dt pw-i",         // watching instead
		"SIGNON Idt pw-i\nHELP",
	} {
		r := replyTo(t, h.mail(italy, "back", body), italy).Body
		mustContain(t, r, "The master of 'dt' has removed this address from the game")
		mustNotContain(t, r, "Welcome back", "Signed on", "CONFIRM ", "taken over")
	}
	if p := h.game("dt").Players[engine.PlayerByPower(h.game("dt"), "Italy")]; p.Status != state.Abandoned {
		t.Errorf("Italy is %s after the ejected player's tries", p.Status)
	}
	// Anyone else may still take the seat over.
	r := replyTo(t, h.mail("newcomer@example.net", "take", "SIGNON Idt np"), "newcomer@example.net").Body
	mustContain(t, r, "Italy in game 'dt' is free for takeover.")

	// Only the master lets it back.
	mustContain(t, replyTo(t, h.orders("dt", "F", "ADMIT italy@example.org"), "france@example.org").Body, "Only the master of 'dt' may ADMIT.")
	mustContain(t, replyTo(t, h.mail(italy, "x", "SIGNON Idt pw-i\nADMIT italy@example.org"), italy).Body, "removed this address")
	mustContain(t, replyTo(t, h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nADMIT nobody@example.org"), testMaster).Body,
		"nobody@example.org was not removed from 'dt'")
	if !barred(h.game("dt"), italy) {
		t.Fatal("the address is no longer barred")
	}

	// The master lets the address back: it takes the seat as a taker
	// does, confirming its address and giving a new password.
	mustContain(t, replyTo(t, h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nADMIT Italy@Example.org"), testMaster).Body,
		"italy@example.org may take a seat in 'dt' again")
	r = replyTo(t, h.mail(italy, "back", "SIGNON Idt pw-i"), italy).Body
	mustNotContain(t, r, "Welcome back", "Signed on")
	mustContain(t, r, "free for takeover")
	got := h.mail(italy, "back", "CONFIRM "+codeIn(t, r)+"\nSIGNON Idt new-pw")
	mustContain(t, replyTo(t, got, italy).Body, "Welcome back: you play Italy in game 'dt' again")
	mustContain(t, replyTo(t, h.mail(italy, "x", "SIGNON Idt pw-i"), italy).Body, "Wrong password")
	mustContain(t, replyTo(t, h.mail(italy, "x", "SIGNON Idt new-pw"), italy).Body, "Signed on as Italy")
}

// TestReturnKeepsDeadline is the attack of issue 18 (item 3): RESIGN
// then SIGNON gave the phase a fresh deadline each time, and three
// cycles left S1901M of a 72-hour game unprocessed 9 days in. A return
// never moves the deadline; a takeover by another address moves it once
// for the seat in the phase, so that two addresses taking the seat in
// turns cannot hold the phase open either.
func TestReturnKeepsDeadline(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	const italy = "italy@example.org"
	deadline := h.game("dt").Deadline
	if want := testStart.Add(72 * time.Hour); !deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", deadline, want)
	}
	for cycle := range 3 {
		h.advance(70 * time.Hour / 3)
		mustContain(t, replyTo(t, h.orders("dt", "I", "RESIGN"), italy).Body, "You have resigned Italy")
		mustContain(t, replyTo(t, h.mail(italy, "back", "SIGNON Idt pw-i"), italy).Body, "Welcome back")
		if got := h.game("dt").Deadline; !got.Equal(deadline) {
			t.Errorf("cycle %d, %v: the deadline moved from %v to %v", cycle, h.now, deadline, got)
		}
	}

	// Another address takes the seat over: a fresh deadline, once.
	const other = "friend@example.net"
	take := func(addr, pw string) {
		t.Helper()
		r := replyTo(t, h.mail(addr, "take", "SIGNON Idt "+pw), addr).Body
		got := h.mail(addr, "take", "CONFIRM "+codeIn(t, r)+"\nSIGNON Idt "+pw)
		mustContain(t, replyTo(t, got, addr).Body, "Italy in game 'dt'")
	}
	resign := func(addr, pw string) {
		t.Helper()
		mustContain(t, replyTo(t, h.mail(addr, "bye", "SIGNON Idt "+pw+"\nRESIGN"), addr).Body, "You have resigned Italy")
	}
	resign(italy, "pw-i")
	take(other, "pw-x")
	fresh := h.game("dt").Deadline
	if want := h.now.Add(72 * time.Hour); !fresh.Equal(want) {
		t.Errorf("after a takeover the deadline is %v, want %v", fresh, want)
	}
	for range 3 {
		h.advance(20 * time.Hour)
		resign(other, "pw-x")
		take(italy, "pw-i2")
		resign(italy, "pw-i2")
		take(other, "pw-x")
		if got := h.game("dt").Deadline; !got.Equal(fresh) {
			t.Errorf("%v: taking the seat in turns moved the deadline from %v to %v", h.now, fresh, got)
		}
	}
}

// TestConfirmCodeUsedOnce is the attack of issue 18 (item 5): an old
// confirming mail, sent again with a new Message-ID while its code was
// still good, re-subscribed an observer who had left. Every kind of code
// (observe, join, takeover, unlock, create) is driven the same way: the
// confirming mail does what it asked, the seat is given up, and the same
// mail again does nothing; the next request gets a new code, which works
// once.
func TestConfirmCodeUsedOnce(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.create("fg")
	// resend sends body, the confirming mail, again: it must not do what
	// it did; the reply offers a new code, which does it.
	resend := func(kind, from, body, code, done string) {
		t.Helper()
		h.advance(time.Hour) // the old code is still good, by the day
		r := replyTo(t, h.mail(from, "again", body), from).Body
		mustNotContain(t, r, done)
		again := codeIn(t, r)
		if again == code {
			t.Errorf("%s: the code used is offered again", kind)
		}
		mustContain(t, replyTo(t, h.mail(from, "new", "CONFIRM "+again+"\n"+body[len("CONFIRM ")+len(code)+1:]), from).Body, done)
	}

	// observe: the observer leaves, and the old mail comes again.
	const watcher = "watcher@example.org"
	code := codeIn(t, replyTo(t, h.mail(watcher, "w", "OBSERVE dt pw-o"), watcher).Body)
	body := "CONFIRM " + code + "\nOBSERVE dt pw-o"
	mustContain(t, replyTo(t, h.mail(watcher, "w", body), watcher).Body, "You are now observing game 'dt'")
	mustContain(t, replyTo(t, h.mail(watcher, "w", "OBSERVE dt pw-o\nRESIGN"), watcher).Body, "You no longer observe game 'dt'")
	resend("observe", watcher, body, code, "You are now observing")
	if n := len(h.game("dt").Observers); n != 1 {
		t.Errorf("%d observers, want the one confirmed with the new code", n)
	}

	// join: the player leaves the forming game.
	const alice = "alice@example.org"
	code = codeIn(t, replyTo(t, h.mail(alice, "j", "SIGNON ?fg pw-a"), alice).Body)
	body = "CONFIRM " + code + "\nSIGNON ?fg pw-a"
	mustContain(t, replyTo(t, h.mail(alice, "j", body), alice).Body, "You have joined game 'fg'")
	mustContain(t, replyTo(t, h.mail(alice, "j", "SIGNON ?fg pw-a\nRESIGN"), alice).Body, "You have left game 'fg'")
	resend("join", alice, body, code, "You have joined")

	// takeover: Italy resigns, a newcomer takes the seat and gives it up.
	const newcomer = "newcomer@example.net"
	mustContain(t, replyTo(t, h.orders("dt", "I", "RESIGN"), "italy@example.org").Body, "You have resigned Italy")
	code = codeIn(t, replyTo(t, h.mail(newcomer, "t", "SIGNON Idt pw-n"), newcomer).Body)
	body = "CONFIRM " + code + "\nSIGNON Idt pw-n"
	mustContain(t, replyTo(t, h.mail(newcomer, "t", body), newcomer).Body, "You have taken over Italy")
	mustContain(t, replyTo(t, h.mail(newcomer, "t", "SIGNON Idt pw-n\nRESIGN"), newcomer).Body, "You have resigned Italy")
	// (From the seat's own address, its password alone is a return: the
	// seat passes to another address, who gives it up too.)
	h.confirm("other@example.net", "t", "SIGNON Idt pw-x\nRESIGN")
	resend("takeover", newcomer, body, code, "taken over")

	// unlock: France's address is locked by forged guesses; France's
	// code lets her in once.
	const france = "france@example.org"
	var r string
	for range senderFailures {
		r = replyTo(t, h.mail(france, "forged", "SIGNON Fdt guess"), france).Body
	}
	code = codeIn(t, r)
	body = "CONFIRM " + code + "\nSIGNON Fdt pw-f"
	mustContain(t, replyTo(t, h.mail(france, "in", body), france).Body, "Signed on as France")
	r = replyTo(t, h.mail(france, "again", body), france).Body
	mustContain(t, r, "locked until")
	mustNotContain(t, r, "Signed on")
	if codeIn(t, r) == code {
		t.Errorf("unlock: the code used is offered again")
	}

	// create: the name is taken once the game exists.
	const founder = "founder@example.org"
	code = codeIn(t, replyTo(t, h.mail(founder, "c", "CREATE ?newg pw-c"), founder).Body)
	body = "CONFIRM " + code + "\nCREATE ?newg pw-c"
	mustContain(t, replyTo(t, h.mail(founder, "c", body), founder).Body, "Game 'newg' created")
	r = replyTo(t, h.mail(founder, "again", body), founder).Body
	mustContain(t, r, "A game named 'newg' already exists.")
	mustNotContain(t, r, "created")

	// Two days on, the uses are forgotten with the codes they counted,
	// at the next use.
	h.advance(72 * time.Hour)
	h.observe("second@example.org", "dt", "pw-2", "")
	if g := h.game("dt"); len(g.CodesUsed) != 1 || g.CodesUsed[0].Of != "observe second@example.org " {
		t.Errorf("uses kept after their codes ran out: %+v", g.CodesUsed)
	}
}
