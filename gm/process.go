package gm

import (
	"time"

	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// processPhase adjudicates the game's current phase with the pending
// orders, records it in the history, moves the game on and queues the
// results to everyone; the game ends here on a victory.
func (m *Master) processPhase(tx *state.Tx, g *state.Game, now time.Time) error {
	panic("TODO(G2)")
}

// startClock sets the deadline of the game's current phase, counted from
// now, and when Tick must next look at it.
func (m *Master) startClock(g *state.Game, now time.Time) {
	panic("TODO(G2)")
}

// ordersChanged is called after any change to a game's orders or WAIT
// flags: it brings the wake time forward when early processing is due.
func (m *Master) ordersChanged(g *state.Game, now time.Time) {
	panic("TODO(G2)")
}

// takeover gives the abandoned seat at g.Players[i] to the session's
// sender, and recomputes the deadline.
func (s *session) takeover(i int, passHash []byte) error {
	panic("TODO(G2)")
}

// checkDraw ends the game in a draw when every surviving power voted for
// one.
func (m *Master) checkDraw(tx *state.Tx, g *state.Game, now time.Time) error {
	panic("TODO(G2)")
}

// Master commands that belong to the game's clock and history.
func (s *session) cmdProcess(c *parser.Command) error   { panic("TODO(G2)") }
func (s *session) cmdPredict(c *parser.Command) error   { panic("TODO(G2)") }
func (s *session) cmdRollback(c *parser.Command) error  { panic("TODO(G2)") }
func (s *session) cmdPause(c *parser.Command) error     { panic("TODO(G2)") }
func (s *session) cmdResume(c *parser.Command) error    { panic("TODO(G2)") }
func (s *session) cmdTerminate(c *parser.Command) error { panic("TODO(G2)") }
func (s *session) cmdEject(c *parser.Command) error     { panic("TODO(G2)") }

// cmdSetClock handles the master's SET DEADLINE, SET GRACE and SET
// MOVEMENT/RETREAT/ADJUSTMENT lengths.
func (s *session) cmdSetClock(c *parser.Command) error { panic("TODO(G2)") }

// Tick runs the deadlines of every game due at now: reminders, early and
// deadline processing, late notices, grace, civil disorder.
func (m *Master) Tick(now time.Time) error {
	panic("TODO(G2)")
}
