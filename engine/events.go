package engine

import (
	"time"

	"github.com/gmdjudge/gmd/state"
)

// The game events that go to Config.Log, one message each, so that an
// operator can grep for them.
const (
	eventProcessed = "phase processed" // next, turn
	eventLate      = "player late"     // power, late (times late in all)
	eventDisorder  = "seat in civil disorder"
	EventAbandoned = "seat abandoned" // power, why: late, resigned, ejected
	EventTakeover  = "seat taken over"
	eventEnded     = "game ended" // result
)

// Event logs msg about g once tx is committed, never for a transaction
// rolled back (a Tick batch that failed is done again game by game, and
// must not log twice), with the game's name and phase first and attrs
// (key, value pairs) after them.
func (m *Engine) Event(tx *state.Tx, g *state.Game, phase, msg string, attrs ...any) {
	args := append([]any{"game", g.Name, "phase", phase}, attrs...)
	tx.OnCommit(func() { m.cfg.Log.Info(msg, args...) })
}

// noteLate counts the phase against the players of the late seats and
// logs each, and records in the seat log the phase late for them and on
// time for the players who had given orders.
func (m *Engine) noteLate(tx *state.Tx, g *state.Game, seats []int, now time.Time) error {
	countLate(g, seats)
	phase := m.PhaseOf(g)
	for _, i := range seats {
		if p := &g.Players[i]; p.Status == state.Playing {
			m.Event(tx, g, phase, eventLate, "power", p.Power, "late", p.Late)
		}
	}
	return m.logPhase(tx, g, phase, g.Turn+1, seats, now)
}
