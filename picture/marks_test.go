package picture

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestOrderMarksMissLabels checks every picture of the corpus (every
// board, three years of random orders): no bounce cross and no cut
// support's bars (with their halo) reach into a province's name or a
// centre marker where some other spot along the order's line would leave
// them all clear. On Canton the bars of a cut support from Manchuria
// stood across "Man", where the support's line begins (they sat at the
// line's middle whatever lay there), and on Cold War a bounce cross stood
// on Sweden's centre.
func TestOrderMarksMissLabels(t *testing.T) {
	seen, cramped := map[string]int{}, 0
	for _, s := range corpus(t) {
		if s.res == nil {
			continue
		}
		sc, err := sceneOf(s.pos, s.res)
		if err != nil {
			t.Fatal(err)
		}
		b := boardFor(s.pos.Map)
		d := &drawer{b: b, m: s.pos.Map, pos: s.pos, px: b.s}
		// The names, and the centre markers as drawn.
		boxes := slices.Clone(d.labelBoxes())
		var names []string
		for _, p := range s.pos.Map.Provinces() {
			names = append(names, "the label "+s.pos.Map.Locs[p].Name)
		}
		for _, e := range sc.elems {
			if strings.HasPrefix(e.class, "sc ") {
				boxes = append(boxes, boxAround(e.c, e.r, e.r))
				names = append(names, e.title)
			}
		}
		covers := func(mb box) int {
			for j, lb := range boxes {
				if mb.overlaps(lb) {
					return j
				}
			}
			return -1
		}
		// The order lines: the scene keeps its layers apart, all lines
		// before all marks, so a mark's line is the one it lies on.
		var lines [][]pt
		for _, e := range sc.elems {
			if strings.HasPrefix(e.class, "order ") && len(e.rings) == 1 {
				lines = append(lines, e.rings[0])
			}
		}
		for _, e := range sc.elems {
			kind := strings.TrimPrefix(e.class, "mark ")
			if kind != "cut" && kind != "bounce" {
				continue
			}
			seen[kind]++
			mb := boundsOf(e.rings, markClear*d.px)
			j := covers(mb)
			if j < 0 {
				continue
			}
			// Would the same mark, slid along its line, have missed
			// every name somewhere?
			c := pt{(mb.x0 + mb.x1) / 2, (mb.y0 + mb.y1) / 2}
			line := nearestLine(lines, c)
			room := false
			for l := 0.0; l <= pathLen(line) && !room; l += d.px {
				at := pointAt(line, l)
				room = covers(boxAround(at, (mb.x1-mb.x0)/2, (mb.y1-mb.y0)/2)) < 0
			}
			if !room {
				cramped++
				continue
			}
			t.Errorf("%s: a %s mark reaches into %s, with room along its line", s.name, kind, names[j])
		}
	}
	t.Logf("%d cut and %d bounce marks, %d on a line with no room clear of names and centres", seen["cut"], seen["bounce"], cramped)
	// The corpus's random orders cut supports and bounce moves on every
	// board; a count this low would mean the test looks at nothing.
	if seen["cut"] < 10 || seen["bounce"] < 100 {
		t.Errorf("%d cut and %d bounce marks looked at", seen["cut"], seen["bounce"])
	}
}

// boundsOf is the box round every point of rings, grown by m each way.
func boundsOf(rings [][]pt, m float64) box {
	bx := box{1e18, 1e18, -1e18, -1e18}
	for _, r := range rings {
		for _, p := range r {
			bx = box{min(bx.x0, p.X), min(bx.y0, p.Y), max(bx.x1, p.X), max(bx.y1, p.Y)}
		}
	}
	return box{bx.x0 - m, bx.y0 - m, bx.x1 + m, bx.y1 + m}
}

// nearestLine returns the line among lines that passes nearest c.
func nearestLine(lines [][]pt, c pt) []pt {
	var best []pt
	bd := math.Inf(1)
	for _, l := range lines {
		for s := 0.0; s <= pathLen(l); s += 0.5 {
			if q := pointAt(l, s).sub(c); math.Hypot(q.X, q.Y) < bd {
				bd, best = math.Hypot(q.X, q.Y), l
			}
		}
	}
	return best
}
