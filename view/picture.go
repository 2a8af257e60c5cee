package view

import (
	"io"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// Drawer draws the board of pos as a PNG image: with the orders of the
// phase and their outcomes when res (judge.Adjudicate of pos) is not nil,
// the position alone otherwise. It is the one type of the pictures the
// mails carry (engine.MapRenderer) and the web pages show (web.Config.Draw);
// cmd/gmd gives package picture's PNG, so that neither gm nor view
// imports picture.
type Drawer func(w io.Writer, pos *judge.Position, res *judge.Resolution) error

// Animator draws a whole game as an animated GIF from its record and its
// phase records in turn order: each phase with its orders and outcomes,
// the board after the last, the result (picture.Replay, as gmd replay
// draws it). cmd/gmd gives it, as it gives the Drawer, so that the web
// pages and the mails show one replay without importing picture.
type Animator func(w io.Writer, g *state.Game, phases []*state.PhaseRecord) error
