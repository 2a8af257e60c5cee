package gm

import (
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// position decodes the game's current position.
func (m *Master) position(g *state.Game) (*judge.Position, judge.Rules, error) {
	panic("TODO(G1)")
}

// recipients lists every address that gets a game's results: players,
// observers and the master.
func (m *Master) recipients(g *state.Game) []string {
	panic("TODO(G1)")
}

// startGame assigns the powers of a full forming game, sets up the first
// position, starts the clock and sends the game-start mails.
func (m *Master) startGame(tx *state.Tx, g *state.Game, now time.Time) error {
	panic("TODO(G1)")
}
