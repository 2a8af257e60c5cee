package picture

import (
	"bytes"
	"fmt"
	"image"
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
// without ink, or "".
func gap(img *image.RGBA, a, b pt) string {
	ground := img.RGBAAt(0, 0)
	for x := int(a.X) + 2; x < int(b.X)-2; x++ {
		y := a.Y + (b.Y-a.Y)*(float64(x)+0.5-a.X)/(b.X-a.X)
		ink := false
		for yy := int(y) - 2; yy <= int(y)+2; yy++ {
			if img.RGBAAt(x, yy) != ground {
				ink = true
			}
		}
		if !ink {
			return fmt.Sprintf("no ink at x %d near y %.1f", x, y)
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
