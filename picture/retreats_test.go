package picture

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// drawnLine is the first line of scene sc whose class starts with
// class: its shaft's points, then its head's (an arrow's tip first).
func drawnLine(sc *scene, class string) []pt {
	for i, e := range sc.elems {
		if strings.HasPrefix(e.class, class) && e.kind == kPath && !e.closed && !strings.Contains(e.class, "wrap") {
			line := slices.Clone(e.rings[0])
			if i+1 < len(sc.elems) && sc.elems[i+1].class == "order-head" {
				line = append(line, sc.elems[i+1].rings[0]...)
			}
			return line
		}
	}
	return nil
}

// borderGap is how far point v lies inside province p of board b: its
// distance to the nearest edge of p's shape, negative outside.
func borderGap(b *board, p judge.Loc, v pt) float64 {
	gap := math.Inf(1)
	for _, r := range b.rings[p] {
		gap = min(gap, polyGap(append(slices.Clip(r), r[0]), v))
	}
	if !inRings(b.rings[p], v) {
		return -gap
	}
	return gap
}

// TestHeadsInsideTarget draws every move and every retreat of every
// unit type from every place of every board drawn on real geography, to
// every place it may reach (as TestEveryArrowVisible does, whose lines
// these are), and checks that the head's tip ends inside the target
// province, headInside pixels or more from its border (no further in
// than the target's own point, which a few boards place nearer the
// coast): Hojo's retreat into Shimosa on Sengoku stopped on the border,
// cut short of the target's name, and pointed at two provinces.
func TestHeadsInsideTarget(t *testing.T) {
	n := 0
	for name, m := range geometryBoards(t) {
		if racetest.Enabled && !slices.Contains(racetest.Spread(variants.Names(), 6, "sengoku"), name) {
			continue // every sixth under -race (package racetest)
		}
		b := boardFor(m)
		var bad []string
		worst, worstWhat := math.Inf(1), ""
		for _, c := range everyArrow(m) {
			if c.kind == "support" {
				continue
			}
			if (m.Wraps || b.globe) && math.Abs(b.at[c.to].X-b.at[c.from].X) > b.w/2 {
				continue // across the cut of a board drawn round the globe: stubs (TestEveryArrowVisible)
			}
			sc, _ := drawArrow(b, c)
			line := drawnLine(sc, "order ")
			what := fmt.Sprintf("%s %s %s-%s", c.kind, c.typ, m.LocName(c.from), m.LocName(c.to))
			if len(line) < 5 {
				bad = append(bad, what+": not drawn")
				continue
			}
			n++
			tip := line[len(line)-3]
			q := m.Province(c.to)
			gap := borderGap(b, q, tip) / b.s
			need := float64(headInside)
			if at := b.at[c.to]; inRings(b.rings[q], at) {
				need = min(need, 0.99*borderGap(b, q, at)/b.s)
			} else {
				need = 0
			}
			if gap-need < worst {
				worst, worstWhat = gap-need, what
			}
			if gap < need-0.05 {
				bad = append(bad, fmt.Sprintf("%s: the head's tip is %.1f px inside its target, want %.1f", what, gap, need))
			}
		}
		t.Logf("%s: the tip nearest its target's border %.1f px nearer than asked (%s)", name, -worst, worstWhat)
		slices.Sort(bad)
		if len(bad) > 0 {
			t.Logf("%s: %d heads end on or near their target's border:\n%s", name, len(bad), strings.Join(bad, "\n"))
		}
		if len(bad) > stillOnBorder[name] {
			t.Errorf("%s: %d heads end on or near their target's border, at most %d may (stillOnBorder)", name, len(bad), stillOnBorder[name])
		}
	}
	if n < racetest.Share(10000, 6) {
		t.Errorf("%d moves and retreats: the test looks at too little", n)
	}
	t.Logf("%d moves and retreats", n)
}

// stillOnBorder is, per board, how many moves and retreats still end
// their head nearer the target's border than TestHeadsInsideTarget
// asks (over 1,300 did before a head was held inside): short moves into
// small provinces whose every way and bow that ends inside either runs
// under the target's name or leaves the two provinces, where staying
// over them wins (drawer.move's trimAt levels). Lower a number when a
// change draws fewer.
var stillOnBorder = map[string]int{
	"1898":                   10,
	"1908-fall-of-europe":    6,
	"34-35-36":               5,
	"aberration":             12,
	"africa":                 2,
	"american-empire":        10,
	"ancient-mediterranean":  8,
	"asia":                   4,
	"canton":                 14,
	"cold-war":               13,
	"colonial":               2,
	"empires-and-coalitions": 5,
	"europe-1939":            9,
	"gateway-west":           1,
	"loeb9":                  5,
	"milan":                  11,
	"modern":                 20,
	"north-sea-wars":         2,
	"sengoku":                8,
	"three-kingdoms":         1,
	"twenty-twenty":          18,
	"unconstitutional":       11,
	"western-world-901":      31,
	"world":                  20,
	"youngstown-redux":       18,
}
