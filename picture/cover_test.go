package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestThinLinesUnbroken: the thinnest line a picture draws (a border,
// 0.8 pixels at the board's own size) leaves ink in every column it
// crosses, at every slope and offset, with coverage rounded to halves;
// and so does the same line in a replay's frame drawn narrower than its
// board (a 1600-pixel board's border at MinReplayWidth is 0.3 pixels),
// which replayAnim rounds to quarters (scene.quarters): halves there
// break it into dots, which the test sees too. A board's outlines, which
// a PNG draws in whole pixels (coverOutline), leave ink in every column
// too.
func TestThinLinesUnbroken(t *testing.T) {
	const w, h = 1600, 400
	sc := &scene{w: w, h: h, s: 1, px: w}
	sc.add(gBoard, elem{kind: kPath, rings: [][]pt{rect(0, 0, w, h)}, closed: true, fill: fill{c: colSea}})
	// Lines across the board, from flat to climbing 15 pixels, each at
	// its own offset from the pixel grid.
	var lines [][2]pt
	for i := range 24 {
		y := 8 + 16*float64(i) + float64(i)/24
		a, b := pt{4, y}, pt{w - 4, y + float64(i%6)*6 - 15}
		lines = append(lines, [2]pt{a, b})
		sc.add(gBoard, elem{kind: kPath, rings: [][]pt{{a, b}}, stroke: colBorder, width: 0.8})
	}
	// The same lines as a board's outlines (closed rings), which a PNG
	// at its own size rounds to whole pixels (coverOutline).
	outlines := &scene{w: w, h: h, s: 1, px: w}
	outlines.add(gBoard, sc.elems[0])
	for _, l := range lines {
		outlines.add(gBoard, elem{kind: kPath, rings: [][]pt{{l[0], l[1]}}, closed: true, stroke: colBorder, width: 0.8})
	}
	frame := scaledScene(sc, MinReplayWidth)
	frame.quarters = true
	halves := scaledScene(sc, MinReplayWidth)
	for _, c := range []struct {
		sc     *scene
		name   string
		broken bool
	}{
		{sc, "own size", false},
		{outlines, "outlines at own size", false},
		{frame, fmt.Sprintf("a replay %d pixels wide", MinReplayWidth), false},
		{halves, fmt.Sprintf("%d pixels wide in halves", MinReplayWidth), true},
	} {
		img, err := rasterise(c.sc)
		if err != nil {
			t.Fatal(err)
		}
		k := float64(img.Rect.Dx()) / w // pixels per map unit
		broken := 0
		for i, l := range lines {
			if f := gap(img, l[0].mul(k), l[1].mul(k)); f != "" {
				broken++
				if !c.broken {
					t.Errorf("%s, line %d: %s", c.name, i, f)
				}
			}
		}
		if c.broken && broken == 0 {
			t.Errorf("%s: no line broken; the test's lines are too thick to show what quarters are for", c.name)
		}
	}
}

// gap says where a line from a to b (in pixels) left a column it crosses
// without ink (a row, if it is steep), or "".
func gap(img *image.RGBA, a, b pt) string {
	ground := img.RGBAAt(0, 0)
	// u runs along the line, v across it: x and y, or y and x.
	steep := math.Abs(b.Y-a.Y) > math.Abs(b.X-a.X)
	at, along, across := img.RGBAAt, "x", "y"
	if steep {
		a, b = pt{a.Y, a.X}, pt{b.Y, b.X}
		at = func(u, v int) color.RGBA { return img.RGBAAt(v, u) }
		along, across = "y", "x"
	}
	if a.X > b.X {
		a, b = b, a
	}
	for u := int(a.X) + 2; u < int(b.X)-2; u++ {
		v := a.Y + (b.Y-a.Y)*(float64(u)+0.5-a.X)/(b.X-a.X)
		ink := false
		for vv := int(v) - 2; vv <= int(v)+2; vv++ {
			if at(u, vv) != ground {
				ink = true
			}
		}
		if !ink {
			return fmt.Sprintf("no ink at %s %d near %s %.1f", along, u, across, v)
		}
	}
	return ""
}

// TestCacheKeepsEachRounding: a replay's frame (quarters) drawn from a
// board whose PNG (halves) was drawn first shows the pixels it shows
// drawn from scratch, and so does a PNG after a replay: the kept masks
// are rounded, and the cache keeps one set per rounding.
func TestCacheKeepsEachRounding(t *testing.T) {
	racetest.Sequential(t) // one picture drawn on one goroutine: the plain pass runs it
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	pos := judge.StartPosition(m)
	b := boardFor(m)
	draw := func(quarters bool, c *rasterCache) []uint8 {
		sc := build(b, pos, nil)
		sc.quarters, sc.cache = quarters, c
		img, err := rasterise(sc)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Clone(img.Pix)
	}
	for _, first := range []bool{false, true} {
		c := &rasterCache{}
		draw(first, c)
		for _, q := range []bool{!first, first} {
			if !bytes.Equal(draw(q, c), draw(q, nil)) {
				t.Errorf("quarters %v drawn from the masks kept after quarters %v: other pixels than from scratch", q, first)
			}
		}
		if c.get(false) == nil || c.get(true) == nil {
			t.Errorf("after quarters %v then both: a rounding's masks not kept", first)
		}
	}
}

// TestMarkLinesUnbroken: a mark's line 0.8 pixels wide (a fleet's white
// edge, the thinnest line a mark draws), at every slope and offset from
// the pixel grid, leaves ink in every row or column it crosses (every
// column of a flat line, every row of a steep one) in a PNG at its own
// size, whose marks keep half-covered pixels only in rows of them
// (rowHalves); and the same lines drawn as the board's, which keep every
// half-covered pixel, are other pixels, or rowHalves rounded nothing and
// the test shows nothing.
func TestMarkLinesUnbroken(t *testing.T) {
	const w, h = 1200, 1200
	draw := func(group string) (*image.RGBA, [][2]pt) {
		sc := &scene{w: w, h: h, s: 1, px: w}
		sc.add(gBoard, elem{kind: kPath, rings: [][]pt{rect(0, 0, w, h)}, closed: true, fill: fill{c: colSea}})
		var lines [][2]pt
		for i := range 72 {
			// A line 160 pixels long every 2.5 degrees, on a grid of
			// 8 by 9 cells 130 pixels apart, each off the pixel grid
			// by its own fraction.
			a := math.Pi * float64(i) / 72
			c := pt{80 + 130*float64(i%8) + float64(i)/72, 80 + 130*float64(i/8) + float64(i%5)/5}
			d := pt{math.Cos(a), math.Sin(a)}.mul(60)
			l := [2]pt{c.sub(d), c.add(d)}
			lines = append(lines, l)
			sc.add(group, elem{kind: kPath, rings: [][]pt{{l[0], l[1]}}, stroke: colBorder, width: 0.8})
		}
		img, err := rasterise(sc)
		if err != nil {
			t.Fatal(err)
		}
		return img, lines
	}
	marks, lines := draw(gOrders)
	for i, l := range lines {
		if f := gap(marks, l[0], l[1]); f != "" {
			t.Errorf("line %d, %.1f degrees: %s", i, 180*float64(i)/72, f)
		}
	}
	if board, _ := draw(gBoard); bytes.Equal(board.Pix, marks.Pix) {
		t.Error("the marks' lines are the board's pixels: rowHalves rounded none of their half-covered pixels")
	}
}
