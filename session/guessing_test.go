package session

import (
	"fmt"
	"github.com/gmdjudge/gmd/internal/racetest"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// guess is one mail of a password guesser: its sender and text.
type guess struct{ from, body string }

// guessPaths are every way a mail can have a password checked, each as a
// guesser writes it, n numbering the guesses (so that each mail differs
// and the guesser can vary From and seat). In the game "dt" of
// guessingGame: the seven powers (Italy's seat abandoned, Russia's in
// civil disorder), the master and an observer; in the forming game
// "fg", a player who joined.
var guessPaths = []struct {
	name, game string
	mail       func(n int) guess
}{
	{"SIGNON P from the seat's own address, every seat in turn", "dt", func(n int) guess {
		s := standardSeats[n%len(standardSeats)]
		return guess{s.Addr, fmt.Sprintf("SIGNON %sdt guess%d", s.Letter, n)}
	}},
	{"SIGNON P from a new address each time", "dt", func(n int) guess {
		return guess{fmt.Sprintf("bot%d@example.net", n), fmt.Sprintf("SIGNON Fdt guess%d", n)}
	}},
	{"SIGN ON, LOGIN and HELLO from one address", "dt", func(n int) guess {
		return guess{"guesser@example.net", fmt.Sprintf("%s Edt guess%d", []string{"SIGN ON", "LOGIN", "HELLO"}[n%3], n)}
	}},
	{"SIGNON M from the master's address", "dt", func(n int) guess {
		return guess{testMaster, fmt.Sprintf("SIGNON Mdt guess%d", n)}
	}},
	{"SIGNON M from a new address each time", "dt", func(n int) guess {
		return guess{fmt.Sprintf("bot%d@example.net", n), fmt.Sprintf("SIGNON Mdt guess%d", n)}
	}},
	{"welcome back: SIGNON P to an abandoned seat from its address", "dt", func(n int) guess {
		return guess{"italy@example.org", fmt.Sprintf("SIGNON Idt guess%d", n)}
	}},
	{"welcome back: SIGNON P to a seat in civil disorder from its address", "dt", func(n int) guess {
		return guess{"russia@example.org", fmt.Sprintf("SIGNON Rdt guess%d", n)}
	}},
	{"OBSERVE, WATCH and SIGNON O from the observer's address", "dt", func(n int) guess {
		return guess{"watcher@example.org", fmt.Sprintf("%s guess%d", []string{"OBSERVE dt", "WATCH dt", "SIGNON Odt"}[n%3], n)}
	}},
	{"a made-up unlock code with SIGNON from the seat's address", "dt", func(n int) guess {
		return guess{"france@example.org", fmt.Sprintf("CONFIRM ABCDEFGH%02d\nSIGNON Fdt guess%d", n%100, n)}
	}},
	{"SIGNON ? to a forming game from a joined player's address", "fg", func(n int) guess {
		return guess{"alice@example.org", fmt.Sprintf("SIGNON ?fg guess%d", n)}
	}},
	{"SIGNON ? to a forming game, joined address and strangers", "fg", func(n int) guess {
		if n%2 == 0 {
			return guess{"alice@example.org", fmt.Sprintf("SIGNON ?fg guess%d", n)}
		}
		return guess{fmt.Sprintf("bot%d@example.net", n), fmt.Sprintf("SIGNON Mfg guess%d", n)}
	}},
}

// guessingGame returns a harness with the games of guessPaths.
func guessingGame(t *testing.T) *harness {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("watcher@example.org", "dt", "pw-o", "")
	mustContain(t, replyTo(t, h.orders("dt", "I", "RESIGN"), "italy@example.org").Body, "You have resigned Italy")
	g := h.game("dt")
	g.Players[engine.PlayerByPower(g, "Russia")].Status = state.Disorder
	h.putGame(g)
	h.create("fg")
	h.join("alice@example.org", "fg", "pw-alice", "", "")
	return h
}

// guess hands the master one guess, and moves the clock a minute on.
// (Not harness.mail, which reads the whole outbox after each mail.)
func (h *harness) guess(g guess) {
	h.t.Helper()
	h.seq++
	err := h.m.Handle(&Mail{From: g.from, Subject: "guess", Body: g.body, MessageID: fmt.Sprintf("<guess.%d@example.net>", h.seq)}, h.now)
	if err != nil {
		h.t.Fatal(err)
	}
	h.advance(time.Minute)
}

// countChecks counts the passwords bcrypt checks from now on.
func countChecks(t *testing.T) *int {
	n := new(int)
	compare := bcryptCompare
	t.Cleanup(func() { bcryptCompare = compare })
	bcryptCompare = func(h, pw []byte) error {
		*n++
		return compare(h, pw)
	}
	return n
}

// TestGuessingLimitEveryPath is the attack of issue 18 (item 1): the
// welcome-back path checked passwords without limit (300 guesses in
// 44 s), and forging each seat's own address got 180 checks in 49
// minutes against one game. Each path that checks a password is driven
// with a wrong guess a minute for four hours at the fake clock, varying
// From and seat as the path allows; bcrypt's checks are counted each
// hour, and each hour has exactly gameFailures, the figure
// docs/security.md gives. The right password, sent in the same minutes
// by the seat's own address without its code, is not checked either.
func TestGuessingLimitEveryPath(t *testing.T) {
	racetest.Sequential(t)
	const hours = 3
	var dt []func(int) guess
	for _, p := range guessPaths {
		if p.game == "dt" {
			dt = append(dt, p.mail)
		}
	}
	paths := append(guessPaths, struct {
		name, game string
		mail       func(n int) guess
	}{"every path of a game in turn, from owners and strangers", "dt", func(n int) guess {
		return dt[n%len(dt)](n / len(dt))
	}})
	for _, path := range paths {
		t.Run(path.name, func(t *testing.T) {
			h := guessingGame(t)
			checks := countChecks(t)
			for hour := range hours {
				before := *checks
				for minute := range 60 {
					g := path.mail(hour*60 + minute)
					h.guess(g)
				}
				if got := *checks - before; got != gameFailures {
					t.Errorf("hour %d: %d passwords checked, want %d", hour, got, gameFailures)
				}
			}
			if g := h.game(path.game); len(g.FailedSignons) > maxFailures {
				t.Errorf("%d failures kept", len(g.FailedSignons))
			}
		})
	}
}

// TestGuessingLimitPerAddress: one address guessing a password a minute
// has exactly senderFailures checked in each quarter of an hour, the
// other figure docs/security.md gives.
func TestGuessingLimitPerAddress(t *testing.T) {
	racetest.Sequential(t) // one mail after another, on one goroutine: the plain pass runs it
	h := guessingGame(t)
	checks := countChecks(t)
	for quarter := range 4 {
		before := *checks
		for minute := range 15 {
			h.guess(guess{"guesser@example.net", fmt.Sprintf("SIGNON Fdt guess%d.%d", quarter, minute)})
		}
		if got := *checks - before; got != senderFailures {
			t.Errorf("quarter %d: %d passwords checked, want %d", quarter, got, senderFailures)
		}
	}
}
