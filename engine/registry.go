package engine

import (
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// The seat log (issue 23): what each seat's holder did that counts for
// their reliability, written where the game master does it and logs it
// (events.go), in the same transaction, so that the figures are made
// from what the judge recorded and nothing else (package players has
// the formula; state.Tx.RebuildTallies makes them again from the log).
//
// What counts as what:
//   - a phase is on time for a playing seat that had given orders when
//     its deadline passed (the first late notice), or when the phase was
//     processed without any late notice; late for a playing seat the
//     first late notice named (once a phase, however many notices);
//   - civil disorder and abandonment are charged to whoever held the
//     seat when its grace ran out, a resignation or an ejection to
//     whoever gave it up or lost it;
//   - a takeover starts the newcomer's own record of the seat: they are
//     charged with nothing that happened at it before them. A player
//     coming back to their own seat is not a takeover;
//   - the end of a game counts as finished for every seat still playing
//     or eliminated then.
//
// In a gunboat game the events wait apart until the game ends (state),
// so that no figure moves while it is played.

// LogSeat records kind for the seat p of g.
func LogSeat(tx *state.Tx, g *state.Game, p *state.Player, kind state.SeatKind, phase string, now time.Time) error {
	if p.Addr == "" || p.Power == "" {
		return nil
	}
	return tx.AddSeatEvent(&state.SeatEvent{
		Addr: strings.ToLower(p.Addr), Game: g.Name, Power: p.Power, Phase: phase,
		Kind: kind, At: now.UTC(), Gunboat: g.Settings.Gunboat,
	})
}

// logPhase records phase, the one played at Turn+1 == turn, once: late
// for the playing seats in late, on time for every other playing seat
// that has given orders. A phase played again after a ROLLBACK is not
// counted again.
func (m *Engine) logPhase(tx *state.Tx, g *state.Game, phase string, turn int, late []int, now time.Time) error {
	if turn <= g.SeatLogged {
		return nil
	}
	g.SeatLogged = turn
	for i := range g.Players {
		p := &g.Players[i]
		kind := state.SeatOnTime
		switch {
		case p.Status != state.Playing:
			continue
		case slices.Contains(late, i):
			kind = state.SeatLate
		case len(g.Orders[p.Power]) == 0:
			continue
		}
		if err := LogSeat(tx, g, p, kind, phase, now); err != nil {
			return err
		}
	}
	return nil
}

// logFinished records the end of g for every seat still held, once
// (a game a ROLLBACK brought back may end again), and lets out the
// events of a gunboat game.
func (m *Engine) logFinished(tx *state.Tx, g *state.Game, now time.Time) error {
	phase := m.PhaseOf(g)
	for i := range g.Players {
		p := &g.Players[i]
		if g.EndLogged || p.Status != state.Playing && p.Status != state.Eliminated {
			continue
		}
		if err := LogSeat(tx, g, p, state.SeatFinished, phase, now); err != nil {
			return err
		}
	}
	g.EndLogged = true
	return tx.ReleaseSeatEvents(g.Name)
}
