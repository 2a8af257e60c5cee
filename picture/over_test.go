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
	"github.com/gmdjudge/gmd/mapgeo"
)

// maxOutsidePx is how much of a move's drawn shaft, in pixels of the
// mailed picture, may run outside the two provinces it joins: a line
// that cuts a border's corner by a few pixels still reads as going
// from one to the other; one over a third province reads as a move
// through it.
const maxOutsidePx = 4

// outsidePx measures, in pixels, how much of the polyline shaft lies
// outside both province p and province q of board b, sampled every
// half pixel.
func outsidePx(b *board, shaft []pt, p, q judge.Loc) float64 {
	b.over.once.Do(b.prepareOver)
	return b.outside(shaft, p, q, 0.5*b.s, math.Inf(1)) / b.s
}

// stillOutside is, per board, how many moves and retreats still run
// more than maxOutsidePx outside their two provinces: the test logs each
// one, and fails when a board has more. They are of two kinds. Short
// moves between units that stand close together (Belgium–Holland,
// Piedmont–Tuscany), bowed so that their line is long enough to see
// (drawer.fit): no bow of that length fits inside the two. And moves
// whose two places the two provinces do not join: a province drawn in
// pieces, or an arctic sea that meets the other only across the cut of
// a board drawn round the globe (the Arctic and the Bering Sea on Cold
// War). Lower a number when a change draws fewer.
// ("1898" is the standard board's geometry: geometryBoards names each
// geometry after the first variant, by name, drawn on it.)
var stillOutside = map[string]int{
	"1898":                   40,
	"1908-fall-of-europe":    49,
	"34-35-36":               18,
	"aberration":             30,
	"africa":                 12,
	"american-empire":        50,
	"ancient-mediterranean":  66,
	"asia":                   14,
	"canton":                 36,
	"cold-war":               69,
	"colonial":               32,
	"empires-and-coalitions": 42,
	"europe-1939":            24,
	"gateway-west":           4,
	"loeb9":                  14,
	"milan":                  28,
	"modern":                 52,
	"sengoku":                31,
	"three-kingdoms":         7,
	"twenty-twenty":          92,
	"unconstitutional":       49,
	"vietnam-war":            7,
	"western-world-901":      86,
	"world":                  104,
	"youngstown-redux":       80,
}

// TestMovesStayOverTheirProvinces draws every possible move and retreat
// of every unit type, from and to every coast, on every board drawn on
// real geography, and measures how much of its drawn shaft runs outside
// the union of the province it leaves and the one it enters: a line
// from the Western Mediterranean to the Mid-Atlantic drawn straight
// across Spain reads as a move through Spain. No shaft may leave them
// for more than maxOutsidePx. A move across the cut of a board drawn
// round the globe (Alaska to the Bering Sea) is drawn as two pieces off
// the picture's sides, not over the board: TestMovesShortWayRoundTheGlobe
// checks those.
func TestMovesStayOverTheirProvinces(t *testing.T) {
	for name, m := range geometryBoards(t) {
		if racetest.Enabled && !slices.Contains(racetest.Spread(variants.Names(), 6, "standard"), name) {
			continue // about one in six under -race (package racetest)
		}
		b := boardFor(m)
		if b.schematic {
			t.Errorf("%s has geometry but is drawn as a schematic", name)
			continue
		}
		// Neighbours the geometry declares to share no border (a
		// strait) have no line over the two alone.
		g, _ := mapgeo.For(m)
		strait := map[[2]judge.Loc]bool{}
		for _, e := range g.Exceptions {
			p, okA := m.Lookup(e.A)
			q, okB := m.Lookup(e.B)
			if okA && okB {
				strait[[2]judge.Loc{m.Province(p), m.Province(q)}] = true
				strait[[2]judge.Loc{m.Province(q), m.Province(p)}] = true
			}
		}
		var bad []string
		worst, worstWhat, n, straits, cut := 0.0, "", 0, 0, 0
		for _, c := range everyArrow(m) {
			if c.kind == "support" {
				continue
			}
			if strait[[2]judge.Loc{m.Province(c.from), m.Province(c.to)}] {
				straits++
				continue
			}
			if (m.Wraps || b.globe) && math.Abs(b.at[c.to].X-b.at[c.from].X) > b.w/2 {
				// Across the cut of a board drawn round the globe: a piece
				// off one side and one in at the other, which
				// TestMovesShortWayRoundTheGlobe checks.
				cut++
				continue
			}
			sc, _ := drawArrow(b, c)
			var line *elem
			wrapped := false
			for i := range sc.elems {
				e := &sc.elems[i]
				if strings.Contains(e.class, "wrap") {
					wrapped = true
				}
				if line == nil && strings.HasPrefix(e.class, "order ") && e.kind == kPath && !e.closed {
					line = e
				}
			}
			what := fmt.Sprintf("%s %s %s-%s", c.kind, c.typ, m.LocName(c.from), m.LocName(c.to))
			if wrapped {
				continue
			}
			if line == nil {
				bad = append(bad, what+": no line")
				continue
			}
			n++
			out := outsidePx(b, line.rings[len(line.rings)-1], m.Province(c.from), m.Province(c.to))
			if out > worst {
				worst, worstWhat = out, what
			}
			if out > maxOutsidePx {
				bad = append(bad, fmt.Sprintf("%s: %.1f px outside", what, out))
			}
		}
		t.Logf("%s: %d moves and retreats, worst %.1f px outside (%s); %d across a strait, %d across the cut", name, n, worst, worstWhat, straits, cut)
		if n == 0 {
			t.Errorf("%s: no move drawn", name)
		}
		slices.Sort(bad)
		if len(bad) > 0 {
			t.Logf("%s: %d of %d shafts run more than %d px outside their two provinces:\n%s",
				name, len(bad), n, maxOutsidePx, strings.Join(bad, "\n"))
		}
		if len(bad) > stillOutside[name] {
			t.Errorf("%s: %d shafts run more than %d px outside their two provinces, at most %d may (stillOutside)",
				name, len(bad), maxOutsidePx, stillOutside[name])
		}
	}
}
