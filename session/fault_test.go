package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/internal/diskfault"
	"github.com/gmdjudge/gmd/state"
)

// A mail that arrives while the database cannot be written (a full disk,
// a file system remounted read-only) is refused with an error and leaves
// no trace: not in the ledger, not in the game, no reply. The poller
// keeps it new and offers it again; once the database can be written,
// the same mail is applied once, and offering it again changes nothing.
func TestHandleWriteFault(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	before := h.outbox()
	in := &Mail{
		From: "france@example.org", Subject: "orders", MessageID: "<fault.1@example.org>",
		Body:   "SIGNON Fdt pw-f\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n",
		Ledger: []string{"imap/judge/INBOX/1/42"},
	}
	unapplied := func(when string) {
		t.Helper()
		if got := h.outbox(); len(got) != len(before) {
			t.Errorf("%s: outbox holds %d mails, had %d", when, len(got), len(before))
		}
		if g := h.game("dt"); len(g.Orders["France"]) != 0 {
			t.Errorf("%s: France's orders %q", when, g.Orders["France"])
		}
		err := h.m.DB().View(func(tx *state.Tx) error {
			for _, k := range append([]string{in.LedgerKey()}, in.Ledger...) {
				if seen, err := tx.Seen(k); err != nil || seen {
					t.Errorf("%s: ledger key %s recorded (%v)", when, k, err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	fault := diskfault.BreakTest(t, h.m.DB().Path())
	for try := range 3 { // the poller offers it again at each poll
		if err := h.m.Handle(in, h.now); err == nil {
			t.Fatalf("try %d: Handle succeeded on a database that cannot be written", try)
		}
	}
	unapplied("while the database cannot be written")

	if err := fault.Mend(); err != nil {
		t.Fatal(err)
	}
	for try := range 2 { // a crash after the commit, before \Seen, offers it again
		if err := h.m.Handle(in, h.now); err != nil {
			t.Fatalf("try %d after the fault: %v", try, err)
		}
	}
	got := h.since(before[len(before)-1].ID)
	r := onlyTo(t, got, "france@example.org")
	mustContain(t, r.Body, "Army Paris -> Burgundy")
	if len(got) != 1 {
		t.Errorf("%d mails queued, want the one reply: %q", len(got), clockSubjects(got))
	}
	if g := h.game("dt"); len(g.Orders["France"]) != 3 {
		t.Errorf("France's orders %q, want 3", g.Orders["France"])
	}
}

// A game due while the database cannot be written is not processed, and
// Tick says which; the next Tick after the fault processes it once.
func TestTickWriteFault(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders = clockOpening() })
	e.newGame("ab", clockT0, func(g *state.Game) { g.Orders = clockOpening() })
	now := clockT0.Add(time.Hour)
	e.edit("dt", now, func(*state.Game) {})
	e.edit("ab", now, func(*state.Game) {})

	fault := diskfault.BreakTest(t, e.db.Path())
	err := e.m.Tick(now)
	if err == nil || !strings.Contains(err.Error(), "game dt:") || !strings.Contains(err.Error(), "game ab:") {
		t.Fatalf("Tick on a database that cannot be written = %v, want an error naming both games", err)
	}
	for _, name := range []string{"dt", "ab"} {
		if g := e.game(name); g.Turn != 0 || !g.Wake.Equal(now) || len(e.phases(name)) != 0 {
			t.Errorf("game %s after a failed Tick: turn %d, wake %v, %d phases", name, g.Turn, g.Wake, len(e.phases(name)))
		}
	}
	err = e.db.View(func(tx *state.Tx) error {
		out, err := tx.Outbox(0)
		if len(out) != 0 {
			t.Errorf("a failed Tick queued %q", clockSubjects(out))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	if err := fault.Mend(); err != nil {
		t.Fatal(err)
	}
	e.tick(now.Add(time.Minute))
	e.tick(now.Add(2 * time.Minute))
	got := e.mails()
	for _, name := range []string{"dt", "ab"} {
		if g := e.game(name); g.Turn != 1 || len(e.phases(name)) != 1 {
			t.Errorf("game %s after the fault: turn %d, %d phases; want 1 and 1", name, g.Turn, len(e.phases(name)))
		}
		if n := len(clockAbout(got, "GMD:"+name+" - S1901M Results")); n != 1 {
			t.Errorf("game %s: %d results mails, want 1", name, n)
		}
	}
	if len(got) != 2 {
		t.Errorf("mails after the fault: %q, want the two results", clockSubjects(got))
	}
}

// Tick handles the due games in batches, one transaction each; a game
// that fails in a batch is done on its own, so it holds up no other game
// of its batch, and no game is processed twice for it.
func TestTickBatches(t *testing.T) {
	e := newClockEnv(t)
	const n = engine.TickBatch + 7
	var names []string
	for i := range n {
		name := fmt.Sprintf("g%03d", i)
		names = append(names, name)
		e.newGame(name, clockT0, func(g *state.Game) { g.Orders = clockOpening() })
	}
	now := clockT0.Add(time.Hour)
	for _, name := range names {
		e.edit(name, now, func(*state.Game) {})
	}
	bad := names[engine.TickBatch+3] // in the second batch: Due lists the games by wake time, then name
	g := e.game(bad)
	g.Position = []byte(`{"phase":"S1901M","units":[{"power":"Nobody"}]}`)
	e.put(g)

	err := e.m.Tick(now)
	if err == nil || err.Error() != "game "+bad+": "+errorText(t, e, bad) {
		t.Fatalf("Tick: %v, want the error of game %s only", err, bad)
	}
	got := e.mails()
	for _, name := range names {
		results := len(clockAbout(got, "GMD:"+name+" - S1901M Results"))
		turn := e.game(name).Turn
		switch {
		case name == bad && (turn != 0 || results != 0):
			t.Errorf("broken game %s: turn %d, %d results", name, turn, results)
		case name != bad && (turn != 1 || results != 1):
			t.Errorf("game %s: turn %d, %d results; want 1 and 1", name, turn, results)
		}
	}
	if len(got) != n-1 {
		t.Errorf("%d mails queued, want %d results", len(got), n-1)
	}
}

// errorText is the error the game name meets when processed on its own.
func errorText(t *testing.T, e *clockEnv, name string) string {
	t.Helper()
	_, _, err := e.m.Position(e.game(name))
	if err == nil {
		t.Fatalf("game %s has a good position", name)
	}
	return err.Error()
}
