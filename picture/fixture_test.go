package picture

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/mapgeo"
	"github.com/gmdjudge/gmd/parser"
)

// Squares of the fixture geometry: province i of a map is the square at
// column i%gridCols, row i/gridCols, squareSize map units wide.
const (
	gridCols   = 10
	squareSize = 200
)

// gridGeometry is a hand-made geometry for any map: every province a
// square in a grid, with an impassable square after the last one. It
// stands in for real geometry, to test drawing from geometry.
func gridGeometry(m *judge.Map) *mapgeo.Geometry {
	g := &mapgeo.Geometry{Variant: m.Name, Width: gridCols * squareSize, Provinces: map[string]mapgeo.Province{}}
	provs := m.Provinces()
	for i, p := range provs {
		x, y := (i%gridCols)*squareSize, (i/gridCols)*squareSize
		gp := mapgeo.Province{
			Rings:  [][]int{square(x, y, squareSize)},
			Label:  mapgeo.Point{x + 100, y + 160},
			Unit:   mapgeo.Point{x + 100, y + 95},
			Centre: mapgeo.Point{x + 160, y + 40},
		}
		if len(m.Locs[p].Coasts) > 0 {
			gp.Coasts = map[string]mapgeo.Point{}
			for j, c := range m.Locs[p].Coasts {
				name := m.Locs[c].Name
				gp.Coasts[name[strings.IndexByte(name, '/')+1:]] = mapgeo.Point{x + 40 + 120*j, y + 40}
			}
		}
		g.Provinces[m.Locs[p].Name] = gp
	}
	n := len(provs)
	g.Impassable = []mapgeo.Region{{Name: "Switzerland", Rings: [][]int{square((n%gridCols)*squareSize, (n/gridCols)*squareSize, squareSize)}}}
	g.Height = (n/gridCols + 1) * squareSize
	return g
}

// square is a clockwise (on screen) square ring.
func square(x, y, s int) []int { return []int{x, y, x + s, y, x + s, y + s, x, y + s} }

// gridSquare returns the top left corner of province p's square.
func gridSquare(m *judge.Map, p judge.Loc) (int, int) {
	for i, q := range m.Provinces() {
		if q == p {
			return (i % gridCols) * squareSize, (i / gridCols) * squareSize
		}
	}
	panic("no province")
}

// onGrid builds the scene of pos with res on the fixture geometry.
func onGrid(t testing.TB, pos *judge.Position, res *judge.Resolution) *scene {
	t.Helper()
	b, err := geoBoard(pos.Map, gridGeometry(pos.Map))
	if err != nil {
		t.Fatal(err)
	}
	return build(b, pos, res)
}

// game is a position under construction for tests.
type game struct {
	t   testing.TB
	pos *judge.Position
}

// newGame places units ("England F lon", "Russia F stp/sc") on an empty
// position of the variant at the phase, with every centre owned as at the
// start.
func newGame(t testing.TB, variant, phase string, units ...string) *game {
	t.Helper()
	m, err := variants.Load(variant)
	if err != nil {
		t.Fatal(err)
	}
	return newGameOn(t, m, phase, units...)
}

// newGameOn is newGame on a map already loaded.
func newGameOn(t testing.TB, m *judge.Map, phase string, units ...string) *game {
	t.Helper()
	ph, err := judge.ParsePhase(phase)
	if err != nil {
		t.Fatal(err)
	}
	g := &game{t: t, pos: judge.NewPosition(m, ph)}
	copy(g.pos.Centers, m.StartCenters)
	for _, s := range units {
		w := strings.Fields(s)
		typ := judge.Army
		if w[1] == "F" {
			typ = judge.Fleet
		}
		if err := g.pos.Place(judge.Unit{Type: typ, Power: g.power(w[0]), Loc: g.loc(w[2])}); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return g
}

func (g *game) loc(name string) judge.Loc {
	g.t.Helper()
	l, ok := g.pos.Map.Lookup(name)
	if !ok {
		g.t.Fatalf("no place %q", name)
	}
	return l
}

func (g *game) power(name string) judge.Power {
	g.t.Helper()
	if name == judge.Neutral {
		return judge.NoPower // a neutral unit
	}
	p, ok := g.pos.Map.PowerByName(name)
	if !ok {
		g.t.Fatalf("no power %q", name)
	}
	return p
}

// own gives the centres to the power.
func (g *game) own(power string, centres ...string) *game {
	for _, c := range centres {
		g.pos.Centers[g.loc(c)] = g.power(power)
	}
	return g
}

// play adjudicates orders on the current position and returns it with its
// resolution, moving the game on to the next position.
func (g *game) play(orders string) (*judge.Position, *judge.Resolution) {
	g.t.Helper()
	parsed, errs := parser.ParseOrders(orders, parser.Options{Map: g.pos.Map, Phase: g.pos.Phase.Type, Power: judge.NoPower})
	if len(errs) > 0 {
		g.t.Fatalf("%s: %v", orders, errs)
	}
	var os []judge.Order
	for _, o := range parsed {
		os = append(os, o.Order)
	}
	pos := g.pos
	res := judge.Adjudicate(pos, os, judge.DefaultRules)
	g.pos = res.Next
	return pos, res
}
