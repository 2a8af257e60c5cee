package view

import (
	"errors"

	"github.com/gmdjudge/gmd/state"
)

// ReplayDrawer draws the replay of game g that an Animator draws (a
// title, every phase of recs, its history, with its orders and their
// outcomes, the board after the last, and the result), fitted to a
// mail: in at most maxParts files of at most maxBytes each, in the order
// they play. It fails with an error that wraps ErrReplayTooBig when the
// replay does not fit. It is the type of the replays the mails carry
// (engine.MapRenderer); cmd/gmd gives one built on package picture's
// ReplayParts, so that neither engine nor view imports picture.
type ReplayDrawer func(g *state.Game, recs []*state.PhaseRecord, maxBytes, maxParts int) ([][]byte, error)

// ErrReplayTooBig says that a game's replay does not fit the files a
// mail may carry, however it is drawn.
var ErrReplayTooBig = errors.New("the replay is larger than this judge mails")
