package session

import (
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/players"
	"github.com/gmdjudge/gmd/state"
)

// holds are orders that hold every unit of the standard start: with
// them nothing moves and no year has adjustments, so each phase is a
// movement phase with the same orders.
var holds = map[string]string{
	"A": "A Vie H\nA Bud H\nF Tri H",
	"E": "F Lon H\nF Edi H\nA Lvp H",
	"F": "F Bre H\nA Par H\nA Mar H",
	"G": "F Kie H\nA Ber H\nA Mun H",
	"I": "F Nap H\nA Rom H\nA Ven H",
	"R": "F Stp/sc H\nA Mos H\nA War H\nF Sev H",
	"T": "F Ank H\nA Con H\nA Smy H",
}

// seatLogs returns the running tally and the seat log of addr.
func (h *harness) seatLog(addr string) (state.Tally, []*state.SeatEvent) {
	h.t.Helper()
	var t state.Tally
	var evs []*state.SeatEvent
	err := h.m.DB().View(func(tx *state.Tx) error {
		var err error
		if t, err = tx.Tally(addr); err != nil {
			return err
		}
		evs, err = tx.SeatEvents(addr)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return t, evs
}

// TestReliabilityFromPlay plays a game by mail and by the clock, with a
// late player, a resignation, a takeover, an abandonment and the end,
// and checks each player's figures: as the judge kept them phase by
// phase, as replayed from the seat log from nothing, and as this test
// counts them.
func TestReliabilityFromPlay(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startStandard("rel")
	const newcomer = "new.italy@example.net"
	// Complete orders make the game due at once; the clock processes it.
	send := func(letters string) {
		for _, l := range letters {
			h.orders("rel", string(l), holds[string(l)])
		}
		h.tick()
	}
	pastDeadline := func() {
		h.now = h.game("rel").Deadline
		h.tick()
	}
	turn := func() int { return h.game("rel").Turn }

	// S1901M: France is late (named at the deadline), then sends its
	// orders in the grace; the others were on time.
	send("AEGIRT")
	pastDeadline()
	send("F")
	if turn() != 1 {
		t.Fatalf("S1901M not processed: turn %d", turn())
	}
	// F1901M: everyone on time, processed early.
	send("AEFGIRT")
	if turn() != 2 {
		t.Fatalf("F1901M not processed: turn %d", turn())
	}
	// S1902M: Italy resigns; the others are in by the deadline, which
	// finds Italy's seat empty (no one to charge); a newcomer takes it
	// over and orders, and is not charged with its past.
	h.orders("rel", "I", "RESIGN")
	send("AEFGRT")
	pastDeadline()
	first := replyTo(t, h.mail(newcomer, "take", "SIGNON Irel np"), newcomer).Body
	h.mail(newcomer, "take", "CONFIRM "+codeIn(t, first)+"\nSIGNON Irel np\n"+holds["I"])
	h.tick()
	if turn() != 3 {
		t.Fatalf("S1902M not processed after the takeover: turn %d", turn())
	}
	// F1902M: Turkey sends nothing; the grace runs out and its seat is
	// abandoned (no NMR); then the master ends the game.
	send("AEFGR")
	h.mail(newcomer, "o", "SIGNON Irel np\n"+holds["I"])
	h.tick()
	pastDeadline()
	h.now = h.now.Add(49 * 3600e9)
	h.tick()
	if st := h.game("rel").Players[engine.PlayerByPower(h.game("rel"), "Turkey")].Status; st != state.Abandoned {
		t.Fatalf("Turkey is %s after the grace, want abandoned", st)
	}
	h.mail(testMaster, "end", "SIGNON Mrel "+testMasterPass+"\nTERMINATE")
	if g := h.game("rel"); g.Status != state.Finished {
		t.Fatalf("game not terminated: %s", g.Status)
	}

	want := map[string]state.Tally{
		"austria@example.org": {Games: 1, Finished: 1, OnTime: 4},
		"england@example.org": {Games: 1, Finished: 1, OnTime: 4},
		"france@example.org":  {Games: 1, Finished: 1, OnTime: 3, Late: 1},
		"germany@example.org": {Games: 1, Finished: 1, OnTime: 4},
		"italy@example.org":   {Games: 1, OnTime: 2, Resigned: 1},
		"russia@example.org":  {Games: 1, Finished: 1, OnTime: 4},
		"turkey@example.org":  {Games: 1, OnTime: 3, Late: 1, Abandoned: 1},
		newcomer:              {Games: 1, Finished: 1, OnTime: 1},
	}
	for addr, w := range want {
		running, log := h.seatLog(addr)
		if running != w {
			t.Errorf("%s: running tally %+v, want %+v", addr, running, w)
		}
		if replay := players.Replay(log); replay.Tally != running {
			t.Errorf("%s: replayed %+v, running %+v", addr, replay.Tally, running)
		}
		for _, ev := range log {
			if ev.Game != "rel" || ev.Power == "" || ev.At.IsZero() {
				t.Errorf("%s: seat event %+v", addr, ev)
			}
		}
	}
	// Turkey: 3 on time, 1 late, abandoned: 9 - 1 - 50.
	if f := players.Replay(func() []*state.SeatEvent { _, l := h.seatLog("turkey@example.org"); return l }()); f.Dedication != -42 {
		t.Errorf("Turkey's dedication %d, want -42", f.Dedication)
	}
	// And the whole database agrees: nothing to rebuild, gmd check clean.
	err := h.m.DB().Update(func(tx *state.Tx) error {
		changed, err := tx.RebuildTallies()
		if len(changed) != 0 {
			t.Errorf("RebuildTallies changed %v", changed)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.m.DB().Check(); err != nil {
		t.Error(err)
	}
}

// In a gunboat game no figure moves while it is played: the seat log
// holds its events apart, and lets them into the players' logs when it
// ends. Civil disorder (an NMR game) is charged to the seat's player.
func TestGunboatFiguresWaitForTheEnd(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.create("gbr")
	g := h.game("gbr")
	g.Settings.Gunboat, g.Settings.NMR = true, true
	h.putGame(g)
	joinAll(h, "gbr")
	for _, l := range "AEGIRT" {
		h.orders("gbr", string(l), holds[string(l)])
	}
	h.now = h.game("gbr").Deadline
	h.tick()
	h.now = h.now.Add(49 * 3600e9)
	h.tick()
	if g := h.game("gbr"); g.Turn != 1 || g.Players[engine.PlayerByPower(g, "France")].Status != state.Disorder {
		t.Fatalf("after the grace: turn %d, France %s", g.Turn, g.Players[engine.PlayerByPower(g, "France")].Status)
	}
	for _, s := range standardSeats {
		if tally, log := h.seatLog(s.Addr); tally != (state.Tally{}) || len(log) != 0 {
			t.Errorf("%s while the gunboat game is played: tally %+v, %d events", s.Addr, tally, len(log))
		}
	}
	h.mail(testMaster, "end", "SIGNON Mgbr "+testMasterPass+"\nTERMINATE")
	for _, s := range standardSeats {
		w := state.Tally{Games: 1, Finished: 1, OnTime: 1}
		if s.Letter == "F" {
			w = state.Tally{Games: 1, Late: 1, Disorder: 1}
		}
		tally, log := h.seatLog(s.Addr)
		if tally != w || players.Replay(log).Tally != tally {
			t.Errorf("%s once the game ended: tally %+v, replayed %+v; want %+v", s.Addr, tally, players.Replay(log).Tally, w)
		}
		for _, ev := range log {
			if !ev.Gunboat {
				t.Errorf("%s: a gunboat game's event not marked: %+v", s.Addr, ev)
			}
		}
	}
}

// A game that ends, is rolled back and ends again counts each phase and
// its end once for each seat.
func TestRollbackCountsOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startStandard("rb")
	playAll := func() {
		for _, l := range "AEFGIRT" {
			h.orders("rb", string(l), holds[string(l)])
		}
		h.tick()
	}
	master := func(cmd string) string {
		return replyTo(t, h.mail(testMaster, "m", "SIGNON Mrb "+testMasterPass+"\n"+cmd), testMaster).Body
	}
	playAll()
	mustContain(t, master("TERMINATE"), "terminated")
	mustContain(t, master("ROLLBACK S1901M"), "rolled back")
	if g := h.game("rb"); g.Status != state.Active || g.Turn != 0 {
		t.Fatalf("after the rollback: %s, turn %d", g.Status, g.Turn)
	}
	playAll()
	master("TERMINATE")
	for _, s := range standardSeats {
		tally, log := h.seatLog(s.Addr)
		if want := (state.Tally{Games: 1, Finished: 1, OnTime: 1}); tally != want || players.Replay(log).Tally != tally {
			t.Errorf("%s: %+v, want %+v", s.Addr, tally, want)
		}
	}
}
