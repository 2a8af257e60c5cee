package session

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/state"
)

// The benchmarks of the bounds on one mail's cost (cost.go, bcrypt.go),
// with the defaults of a judge.conf that sets none. Each reports the
// bytes of mail the judge queued per incoming mail (out-B/op) beside
// time and memory.

// benchMail hands the same mail to h's master b.N times, each with a new
// Message-ID, and reports the bytes queued per mail.
func benchMail(b *testing.B, h *harness, from, body string) {
	b.Helper()
	before := h.lastID()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		in := &Mail{From: from, Subject: "bench", Body: body, MessageID: fmt.Sprintf("<bench.%d@example.net>", i)}
		if err := h.m.Handle(in, h.now); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	out := 0
	for _, m := range h.since(before) {
		out += len(m.Body) * len(m.To)
	}
	b.ReportMetric(float64(out)/float64(b.N), "out-B/op")
}

// BenchmarkHundredHelps is a mail of 100 HELP lines, 500 bytes, from a
// forged address.
func BenchmarkHundredHelps(b *testing.B) {
	h := withDefaultLimits(newHarness(b))
	benchMail(b, h, "victim@example.net", strings.Repeat("HELP\n", 100))
}

// BenchmarkHundredLists is a mail of 100 LIST lines on a judge of 2,000
// games.
func BenchmarkHundredLists(b *testing.B) {
	h := withDefaultLimits(newHarness(b))
	putFormingGames(b, h, 2000)
	benchMail(b, h, "victim@example.net", strings.Repeat("LIST\n", 100))
}

// BenchmarkOrdersAfterLargePress is an order mail for a game whose phase
// holds 60 press messages of 950 KB (as a judge before the limits on
// press could have stored them), against the same game without press.
// Press kept in the game record made every such mail cost 2.0 s and 380
// MB; kept apart, the mail does not read it.
func BenchmarkOrdersAfterLargePress(b *testing.B) {
	for _, n := range []int{0, 60} {
		b.Run(fmt.Sprintf("press=%d", n), func(b *testing.B) {
			h := withDefaultLimits(newHarness(b))
			h.startStandard("dt")
			text := strings.Repeat("Do not trust anybody. ", 950<<10/22)
			for range n {
				err := h.m.DB().Update(func(tx *state.Tx) error {
					return tx.AddPress("dt", 0, &state.Press{Phase: "S1901M", From: "Observer", To: []string{"Master"}, Text: text, Sent: h.now})
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			benchMail(b, h, "france@example.org", "SIGNON Fdt pw-f\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n")
		})
	}
}

// BenchmarkHundredPasswords is OBSERVE and 99 SET PASSWORD, at bcrypt's
// default cost as a judge runs it: two hashes, the rest refused.
func BenchmarkHundredPasswords(b *testing.B) {
	h := withDefaultLimits(newHarness(b))
	h.startStandard("dt")
	h.m.cfg.PasswordCost = bcrypt.DefaultCost
	var body strings.Builder
	body.WriteString("OBSERVE dt first\n")
	for i := range 99 {
		fmt.Fprintf(&body, "SET PASSWORD pw%d\n", i)
	}
	for i := 0; b.Loop(); i++ {
		// A new observer each time, so that OBSERVE hashes too.
		in := &Mail{From: fmt.Sprintf("w%d@example.net", i), Subject: "bench", Body: body.String(), MessageID: fmt.Sprintf("<pw.%d@example.net>", i)}
		if err := h.m.Handle(in, h.now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWorstMail is the costliest mail found for the bounds: a
// sign-on whose password is not cached (one bcrypt check) and a new
// password (one hash) at bcrypt's default cost, four LISTs of 2,000
// games, a broadcast of the largest press a mail may carry, and 500
// lines of orders that name no place (each a search for a name to
// suggest). locked is the same mail without the bcrypt work, which runs
// with no lock held: the time it holds the database's write lock.
func BenchmarkWorstMail(b *testing.B) {
	for _, bcryptWork := range []bool{true, false} {
		name := "all"
		if !bcryptWork {
			name = "locked"
		}
		b.Run(name, func(b *testing.B) {
			h := withDefaultLimits(newHarness(b))
			h.startStandard("dt")
			putFormingGames(b, h, 2000)
			h.m.cfg.PasswordCost = bcrypt.DefaultCost
			h.m.cfg.MaxPressPerPhase = 0 // the same sender, mail after mail
			body := "SIGNON Fdt pw-f\n"
			if bcryptWork {
				body += "SET PASSWORD pw-f\n"
			}
			body += strings.Repeat("LIST\n", 4) +
				"BROADCAST\n" + strings.Repeat("x", int(h.m.cfg.MaxPressPerMail)-1) + "\nENDPRESS\n" +
				strings.Repeat("A Xyzzy - Plugh\n", 500)
			for i := 0; b.Loop(); i++ {
				if bcryptWork {
					h.m.verified.Clear()
				}
				in := &Mail{From: "france@example.org", Subject: "bench", Body: body, MessageID: fmt.Sprintf("<worst.%d@example.net>", i)}
				if err := h.m.Handle(in, h.now); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// putFormingGames stores n forming games, g0000 on, for LIST to read.
func putFormingGames(b *testing.B, h *harness, n int) {
	b.Helper()
	err := h.m.DB().Update(func(tx *state.Tx) error {
		for i := range n {
			g := &state.Game{Name: fmt.Sprintf("g%04d", i), Variant: "standard", Status: state.Forming, Created: h.now}
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLockedGuess is a guess at a game whose sign-ons the guard has
// locked (20 wrong passwords within the hour), from a new address each
// time, at bcrypt's default cost: what each guess past the limit costs
// the judge, with no password checked.
func BenchmarkLockedGuess(b *testing.B) {
	h := withDefaultLimits(newHarness(b))
	h.startStandard("dt")
	h.m.cfg.PasswordCost = bcrypt.DefaultCost
	for i := range gameFailures {
		h.mail(fmt.Sprintf("bot%d@example.net", i), "guess", "SIGNON Fdt guess")
	}
	checks := 0
	compare := bcryptCompare
	b.Cleanup(func() { bcryptCompare = compare })
	bcryptCompare = func(h, pw []byte) error { checks++; return compare(h, pw) }
	benchMail(b, h, "guesser@example.net", "SIGNON Fdt guess")
	if checks != 0 {
		b.Fatalf("%d passwords checked during the lockout", checks)
	}
}
