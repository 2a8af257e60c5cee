package session

import (
	"fmt"
	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/internal/racetest"
	"testing"
	"time"
)

// signon sends one SIGNON from addr as the seat who ("Fdt", "Mdt") and
// returns the reply.
func (h *harness) signon(addr, who, pw string) string {
	h.t.Helper()
	return replyTo(h.t, h.mail(addr, "orders", "SIGNON "+who+" "+pw+"\nSUMMARY dt"), addr).Body
}

func TestSignonLockoutPerSender(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	// France signs on once: the right password is now in the master's
	// cache, which a lockout must not bypass either.
	mustContain(t, h.signon("france@example.org", "Fdt", "pw-f"), "Signed on as France")

	const guesser = "guesser@example.net"
	for i := range senderFailures {
		r := h.signon(guesser, "Fdt", fmt.Sprintf("guess-%d", i))
		mustContain(t, r, "Wrong password for game 'dt'. Nothing else in this mail was done.")
		if i < senderFailures-1 {
			mustNotContain(t, r, "locked")
		} else {
			// The fifth within 15 minutes, at 12:04: locked until the
			// first, at 12:00, is 15 minutes old.
			mustContain(t, r, "Too many wrong passwords for game 'dt' from you: sign-ons are locked until 12:15 UTC.")
		}
		mustNotContain(t, r, "> SUMMARY")
		h.advance(time.Minute)
	}
	// Locked: even the right password is refused, without being looked
	// at, and the refusal counts as no further failure.
	before := len(h.game("dt").FailedSignons)
	for _, pw := range []string{"pw-f", "wrong"} {
		r := h.signon(guesser, "Fdt", pw)
		mustContain(t, r, "Error (line 1): Too many wrong passwords for game 'dt' from you: sign-ons are locked until 12:15 UTC. Nothing else in this mail was done.")
		mustNotContain(t, r, "Signed on", "Wrong password")
	}
	if n := len(h.game("dt").FailedSignons); n != before {
		t.Errorf("%d failures recorded during the lockout, %d before", n, before)
	}
	// The lockout covers every seat of the game; other senders are not
	// locked.
	mustContain(t, h.signon(guesser, "Edt", "pw-e"), "Too many wrong passwords")
	mustContain(t, h.signon("france@example.org", "Fdt", "pw-f"), "Signed on as France")
	mustContain(t, h.signon("friend@example.net", "Fdt", "pw-f"), "Signed on as France")

	// The lockout is in the database: a master of its own, as gmd
	// process has for each mail, sees it.
	h.m = New(h.m.DB(), *h.m.cfg)
	mustContain(t, h.signon(guesser, "Fdt", "pw-f"), "locked until 12:15 UTC")

	// At 12:15 it is over, and the right password forgets the mistakes.
	h.now = testStart.Add(15 * time.Minute)
	mustContain(t, h.signon(guesser, "Fdt", "pw-f"), "Signed on as France")
	g := h.game("dt")
	for _, f := range g.FailedSignons {
		if f.Addr == guesser {
			t.Errorf("failure kept after a right password: %+v", f)
		}
	}
}

func TestSignonFailuresExpire(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	const guesser = "typo@example.net"
	// Four mistakes, a pause past the 15 minutes, four more: never five
	// within 15 minutes, never a lockout.
	for round := 0; round < 2; round++ {
		for range senderFailures - 1 {
			mustNotContain(t, h.signon(guesser, "Fdt", "typo"), "locked")
			h.advance(time.Minute)
		}
		h.advance(senderWindow)
	}
	// An hour on, all are forgotten.
	h.advance(gameWindow)
	h.signon(guesser, "Fdt", "typo")
	if n := len(h.game("dt").FailedSignons); n != 1 {
		t.Errorf("%d failures kept, want the last one only", n)
	}
}

func TestSignonLockoutPerGame(t *testing.T) {
	racetest.Sequential(t) // one mail after another, on one goroutine: the plain pass runs it
	h := newHarness(t)
	h.startStandard("dt")
	h.startStandard("other")
	// Twenty addresses guess the master's password of dt, one each, from
	// 12:00 to 12:57.
	for i := range gameFailures {
		r := h.signon(fmt.Sprintf("bot%d@example.net", i), "Mdt", "guess")
		mustContain(t, r, "Wrong password")
		if i < gameFailures-1 {
			mustNotContain(t, r, "locked")
		} else {
			mustContain(t, r, "Too many wrong passwords for game 'dt': its sign-ons are locked until 13:00 UTC;")
		}
		h.advance(3 * time.Minute)
	}
	// Now, at 13:00 less a second, nobody signs on without a code, even
	// with the right password, even from the seat's own address: From
	// proves nothing.
	h.now = h.now.Add(-time.Second)
	for _, who := range []struct{ addr, seat, pw string }{
		{"bot99@example.net", "Mdt", testMasterPass},
		{"newaddress@example.org", "Fdt", "pw-f"},
		{"france@example.org", "Edt", "pw-e"}, // France's address, England's seat
		{"france@example.org", "Fdt", "pw-f"},
		{testMaster, "Mdt", testMasterPass},
	} {
		r := h.signon(who.addr, who.seat, who.pw)
		mustContain(t, r, "Too many wrong passwords for game 'dt': its sign-ons are locked until 13:00 UTC; a mail from a seat's own address is answered with a code that lets it in. Nothing else")
		mustNotContain(t, r, "Signed on")
	}
	// The players and the master, from their own addresses, sign on
	// with the code their reply gave.
	for _, who := range []struct{ addr, seat, pw, want string }{
		{testMaster, "Mdt", testMasterPass, "Signed on as the master of 'dt'"},
		{"france@example.org", "Fdt", "pw-f", "Signed on as France"},
	} {
		r := h.signon(who.addr, who.seat, who.pw)
		code := codeIn(t, r)
		got := replyTo(t, h.mail(who.addr, "in", "CONFIRM "+code+"\nSIGNON "+who.seat+" "+who.pw), who.addr).Body
		mustContain(t, got, who.want)
		// Once: the same code again is refused.
		got = replyTo(t, h.mail(who.addr, "in", "CONFIRM "+code+"\nSIGNON "+who.seat+" "+who.pw), who.addr).Body
		mustContain(t, got, "locked until 13:00 UTC")
		mustNotContain(t, got, "Signed on")
	}
	// Other games are not locked.
	mustContain(t, h.signon("bot99@example.net", "Mother", testMasterPass), "Signed on as the master of 'other'")

	// The first failure, at 12:00, leaves the hour at 13:00: one more
	// password is checked.
	h.now = time.Date(2026, 1, 5, 13, 0, 0, 0, time.UTC)
	mustContain(t, h.signon("newaddress@example.org", "Fdt", "pw-f"), "Signed on as France")
}

func TestSignonLockoutObserverAndRejoin(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	h.join("alice@example.org", "dt", "pw-alice", "", "")
	h.observe("watcher@example.org", "dt", "pw-o", "")
	for i := range senderFailures {
		r := replyTo(t, h.mail("alice@example.org", "join", "SIGNON ?dt wrong"), "alice@example.org").Body
		mustContain(t, r, "Wrong password")
		if i == senderFailures-1 {
			mustContain(t, r, "sign-ons are locked until 12:15 UTC")
		}
		r = replyTo(t, h.mail("watcher@example.org", "watch", "OBSERVE dt wrong"), "watcher@example.org").Body
		mustContain(t, r, "Wrong password")
	}
	mustContain(t, replyTo(t, h.mail("alice@example.org", "join", "SIGNON ?dt pw-alice"), "alice@example.org").Body, "locked until 12:15 UTC")
	mustContain(t, replyTo(t, h.mail("watcher@example.org", "watch", "OBSERVE dt pw-o"), "watcher@example.org").Body, "locked until 12:15 UTC")
	// Joining afresh checks no password, and is not limited.
	h.join("bob@example.org", "dt", "pw-bob", "", "")
}

func TestLockTime(t *testing.T) {
	now := time.Date(2026, 1, 5, 23, 50, 30, 0, time.UTC)
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{5 * time.Minute, "23:56 UTC"}, // 23:55:30 rounded up
		{9*time.Minute + 30*time.Second, "00:00 UTC on 6 January"},
		{15 * time.Minute, "00:06 UTC on 6 January"},
		{-30 * time.Second, "23:50 UTC"},
	} {
		if got := lockTime(now.Add(tt.d), now); got != tt.want {
			t.Errorf("lock of %v from %v ends %q, want %q", tt.d, now, got, tt.want)
		}
	}
}

// TestGameLockSparesAuthenticatedOwners: where every mail's From is
// authenticated (require-sender-auth), the game's limit spares a seat's
// own address signing on to that seat, which needs no code then; it
// still holds that address for any other seat, and the address's own
// limit still holds it.
func TestGameLockSparesAuthenticatedOwners(t *testing.T) {
	h := newHarness(t)
	cfg := *h.m.cfg
	cfg.SenderAuth.Require = config.SenderAuthDKIM
	h.m = New(h.m.DB(), cfg)
	h.startStandard("dt")
	for i := range gameFailures {
		h.signon(fmt.Sprintf("bot%d@example.net", i), "Mdt", "guess")
	}
	mustContain(t, h.signon("bot99@example.net", "Fdt", "pw-f"), "its sign-ons are locked until 13:00 UTC")
	mustContain(t, h.signon("france@example.org", "Fdt", "pw-f"), "Signed on as France")
	mustContain(t, h.signon(testMaster, "Mdt", testMasterPass), "Signed on as the master of 'dt'")
	mustContain(t, h.signon("france@example.org", "Edt", "pw-e"), "its sign-ons are locked until 13:00 UTC")
	for range senderFailures {
		mustContain(t, h.signon("france@example.org", "Fdt", "typo"), "Wrong password")
	}
	r := h.signon("france@example.org", "Fdt", "pw-f")
	mustContain(t, r, "Too many wrong passwords for game 'dt' from you")
	mustNotContain(t, r, "Signed on")
}
