// Package picture draws a position of a game, with the orders of its phase
// and their outcomes, as SVG and as PNG.
//
// The board is drawn from the variant's geometry (package mapgeo) when the
// project has one, and otherwise as a schematic: a node per province, at
// the place lines of the map file or, for a map without them, at a layout
// computed from the adjacency graph, so that no variant is without a
// picture. Either way one scene (shapes, lines and text in map units) is
// built, and two backends write it: SVG as text, and PNG rasterised in
// pure Go with golang.org/x/image/vector and the Go fonts.
package picture

import (
	"errors"
	"io"

	"github.com/gmdjudge/gmd/judge"
)

// SVG writes the picture of pos; res, when not nil, is the adjudication of the phase that
// starts at pos (judge.Adjudicate(pos, orders, rules)), and its orders are drawn with their outcomes.
func SVG(w io.Writer, pos *judge.Position, res *judge.Resolution) error {
	sc, err := sceneOf(pos, res)
	if err != nil {
		return err
	}
	return writeSVG(w, sc)
}

// PNG writes the same picture as SVG, rasterised at its board's width in
// pixels (1000 unless the board's geometry sets another), of at most MaxPNGBytes; a picture too busy to fit is an
// error, and nothing is written.
func PNG(w io.Writer, pos *judge.Position, res *judge.Resolution) error {
	sc, err := sceneOf(pos, res)
	if err != nil {
		return err
	}
	return writePNG(w, sc)
}

func sceneOf(pos *judge.Position, res *judge.Resolution) (*scene, error) {
	if pos == nil || pos.Map == nil {
		return nil, errors.New("picture: no position")
	}
	m := pos.Map
	if len(pos.Units) != m.NumLocs() || len(pos.Centers) != m.NumLocs() {
		return nil, errors.New("picture: the position does not fit its map")
	}
	return build(boardFor(m), pos, res), nil
}
