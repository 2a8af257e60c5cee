package view

import (
	"io"

	"github.com/gmdjudge/gmd/judge"
)

// Drawer draws the board of pos as a PNG image: with the orders of the
// phase and their outcomes when res (judge.Adjudicate of pos) is not nil,
// the position alone otherwise. It is the one type of the pictures the
// mails carry (engine.MapRenderer) and the web pages show (web.Config.Draw);
// cmd/gmd gives package picture's PNG, so that neither gm nor view
// imports picture.
type Drawer func(w io.Writer, pos *judge.Position, res *judge.Resolution) error
