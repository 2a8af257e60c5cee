package session

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/internal/diskfault"
	"github.com/gmdjudge/gmd/state"
)

// A game whose page of the database is damaged after start-up fails its
// Tick with an error that names it and says the database is damaged,
// and holds up no other game: those are processed as usual. Once the
// page is mended, the next Tick processes the game once.
func TestTickDamagedGame(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders = clockOpening() })
	e.newGame("ab", clockT0, func(g *state.Game) { g.Orders = clockOpening() })
	now := clockT0.Add(time.Hour)
	e.edit("dt", now, func(*state.Game) {})
	e.edit("ab", now, func(*state.Game) {})
	fillers(t, e.db)

	rot := diskfault.DamageTest(t, e.db.Path(), os.Getpagesize(), `"name":"dt"`)
	err := e.m.Tick(now)
	if err == nil || !errors.Is(err, state.ErrDamaged) || !strings.HasPrefix(err.Error(), "game dt: ") || strings.Contains(err.Error(), "game ab") {
		t.Fatalf("Tick with game dt damaged: %v; want an error of game dt only, wrapping ErrDamaged", err)
	}
	got := e.mails()
	if len(got) != 1 || len(clockAbout(got, "GMD:ab - S1901M Results")) != 1 {
		t.Errorf("mails with game dt damaged: %q, want the results of ab", clockSubjects(got))
	}

	if err := rot.Mend(); err != nil {
		t.Fatal(err)
	}
	e.tick(now.Add(time.Minute))
	got = e.mails()
	if len(got) != 1 || len(clockAbout(got, "GMD:dt - S1901M Results")) != 1 {
		t.Errorf("mails once mended: %q, want the results of dt", clockSubjects(got))
	}
	for _, name := range []string{"dt", "ab"} {
		if g := e.game(name); g.Turn != 1 || len(e.phases(name)) != 1 {
			t.Errorf("game %s: turn %d, %d phases; want 1 and 1", name, g.Turn, len(e.phases(name)))
		}
	}
}

// fillers adds small forming games whose names sort between ab and dt
// and after dt, so that the games bucket has several leaf pages and the
// page of dt holds no other game a test uses. (bbolt puts at least two
// records in a page.)
func fillers(t *testing.T, db *state.DB) {
	t.Helper()
	err := db.Update(func(tx *state.Tx) error {
		for i := range 20 {
			for _, prefix := range []string{"c", "e"} {
				g := &state.Game{Name: fmt.Sprintf("%s%02d", prefix, i), Variant: "standard", Status: state.Forming}
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A mail for a game on a damaged page fails with an error wrapping
// state.ErrDamaged and leaves no trace, so that the poller keeps it for
// later; mails that do not need that page are handled meanwhile. Once
// the page is mended, the mail is applied once.
func TestHandleDamagedGame(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.startStandard("ab")
	fillers(t, h.m.DB())
	addr, signon := seatOf("F")
	in := &Mail{
		From: addr, Subject: "orders", MessageID: "<damaged.1@example.org>",
		Body:   fmt.Sprintf(signon, "dt") + "\nA Par - Bur\n",
		Ledger: []string{"imap/judge/INBOX/1/77"},
	}
	before := h.lastID()

	rot := diskfault.DamageTest(t, h.m.DB().Path(), os.Getpagesize(), `"name":"dt"`)
	for try := range 2 {
		if err := h.m.Handle(in, h.now); !errors.Is(err, state.ErrDamaged) {
			t.Fatalf("try %d: Handle of a mail for the damaged game: %v, want an error wrapping ErrDamaged", try, err)
		}
	}
	err := h.m.DB().View(func(tx *state.Tx) error {
		for _, k := range append([]string{in.LedgerKey()}, in.Ledger...) {
			if seen, err := tx.Seen(k); err != nil || seen {
				t.Errorf("ledger key %s recorded (%v)", k, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.since(before); len(got) != 0 {
		t.Errorf("mails queued for the failed mail: %q", clockSubjects(got))
	}
	// Meanwhile: orders for the other game, and a HELP.
	onlyTo(t, h.orders("ab", "F", "A Par - Bur"), addr)
	onlyTo(t, h.mail("someone@example.org", "help", "HELP"), "someone@example.org")

	if err := rot.Mend(); err != nil {
		t.Fatal(err)
	}
	before = h.lastID()
	for range 2 { // offered again after a crash before \Seen: applied once
		if err := h.m.Handle(in, h.now); err != nil {
			t.Fatal(err)
		}
	}
	mustContain(t, onlyTo(t, h.since(before), addr).Body, "Army Paris -> Burgundy")
	if g := h.game("dt"); len(g.Orders["France"]) != 1 {
		t.Errorf("France's orders in dt: %q", g.Orders["France"])
	}
}

// A panic in a game's clock, a bug, is that game's error: Tick's
// transactions recover it.
func TestTickUpdateRecovers(t *testing.T) {
	e := newClockEnv(t)
	err := e.m.Update(func(*state.Tx) error { panic("a bug") })
	if err == nil || !strings.HasPrefix(err.Error(), "panic: a bug\n") {
		t.Errorf("update of a panicking function: %v", err)
	}
	e.tick(clockT0) // the database goes on working
}
