package mapgeo

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// step is the spacing, in map units, of the rows and columns at which
// the cover of the box is sampled.
const step = 3

// ringArea is the area a ring encloses, whatever its direction.
func ringArea(r []int) float64 {
	n := len(r) / 2
	var s float64
	for i := range n {
		j := (i + 1) % n
		s += float64(r[2*i])*float64(r[2*j+1]) - float64(r[2*j])*float64(r[2*i+1])
	}
	return math.Abs(s) / 2
}

// cover counts, at every sample point of the box, the regions (provinces
// and impassable regions) whose rings hold it, by the even-odd rule the
// pictures fill with.
func cover(g *Geometry) [][]int8 {
	rows := make([][]int8, g.Height/step)
	var all [][][]int
	for _, p := range g.Provinces {
		all = append(all, p.Rings)
	}
	for _, r := range g.Impassable {
		all = append(all, r.Rings)
	}
	for i := range rows {
		rows[i] = make([]int8, g.Width/step)
		y := float64(i*step) + 0.5
		for _, rings := range all {
			var xs []float64
			for _, r := range rings {
				n := len(r) / 2
				for k := range n {
					x0, y0 := float64(r[2*k]), float64(r[2*k+1])
					j := (k + 1) % n
					x1, y1 := float64(r[2*j]), float64(r[2*j+1])
					if (y0 > y) != (y1 > y) {
						xs = append(xs, x0+(y-y0)*(x1-x0)/(y1-y0))
					}
				}
			}
			slices.Sort(xs)
			for k := 0; k+1 < len(xs); k += 2 {
				for c := range rows[i] {
					if x := float64(c*step) + 0.5; x > xs[k] && x < xs[k+1] {
						rows[i][c]++
					}
				}
			}
		}
	}
	return rows
}

// unnamedLand lists every piece of g that a player could not name: any
// part of the box in no region at all (drawn as bare background, it reads
// as land of no province) or in two, and each land province of m whose
// label lies outside its largest ring (its name is then written on an
// islet, and its body reads as no province's). Impassable regions are
// drawn as such, named or not (the islets the generator sinks).
func unnamedLand(m *judge.Map, g *Geometry) []string {
	var errs []string
	gaps, twice := 0, 0
	var gapAt, twiceAt [2]int
	rows := cover(g)
	// empty reports whether the sample at i, c and its eight neighbours
	// are in no region: a patch of bare background wider than the
	// slivers that rounding leaves along a border.
	empty := func(i, c int) bool {
		for di := -1; di <= 1; di++ {
			for dc := -1; dc <= 1; dc++ {
				if i+di < 0 || i+di >= len(rows) || c+dc < 0 || c+dc >= len(rows[i]) || rows[i+di][c+dc] != 0 {
					return false
				}
			}
		}
		return true
	}
	for i, row := range rows {
		for c, n := range row {
			switch {
			case empty(i, c):
				if gaps == 0 {
					gapAt = [2]int{c * step, i * step}
				}
				gaps++
			case n > 1 && rows[i][max(c-1, 0)] > 1 && rows[i][min(c+1, len(row)-1)] > 1:
				if twice == 0 {
					twiceAt = [2]int{c * step, i * step}
				}
				twice++
			}
		}
	}
	if gaps > 0 {
		errs = append(errs, fmt.Sprintf("%d sample points in no region, the first at %v", gaps, gapAt))
	}
	if twice > 0 {
		errs = append(errs, fmt.Sprintf("%d sample points in two regions, the first at %v", twice, twiceAt))
	}
	names := make([]string, 0, len(g.Provinces))
	for n := range g.Provinces {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		p := g.Provinces[n]
		loc, ok := m.Lookup(n)
		if !ok || m.Locs[loc].Kind == judge.Sea || len(p.Rings) == 0 {
			continue
		}
		big := slices.MaxFunc(p.Rings, func(a, b []int) int { return int(ringArea(a) - ringArea(b)) })
		if !Inside([][]int{big}, p.Label) {
			errs = append(errs, fmt.Sprintf("%s: label at %v is not on its largest piece of land", n, p.Label))
		}
	}
	return errs
}

// knownUnnamedLand are the faults of unnamedLand not yet mended, each an
// open defect of its board: listed so that any other fault fails the
// test, and so does a listed one once it is gone. Ancient Mediterranean's
// Sarmatia is cut into four pieces, and its name is written on the third
// largest, at the top edge of the board: the largest, four times as big,
// carries no name (the board is another branch's; reported, not mended
// here).
var knownUnnamedLand = map[string][]string{
	"ancient-mediterranean": {"sam: label at [1525 15] is not on its largest piece of land"},
}

// TestLandRegionsNamed checks, on every drawn board, that each stretch of
// land is a province with its name on it or an impassable region with a
// name of its own (Switzerland, Sainyabuli): a player can name every
// piece of land he sees.
func TestLandRegionsNamed(t *testing.T) {
	boards := 0
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := For(m)
		if !ok || g.Variant != name {
			continue
		}
		boards++
		known := knownUnnamedLand[name]
		found := map[string]bool{}
		for _, e := range unnamedLand(m, g) {
			found[e] = true
			if !slices.Contains(known, e) {
				t.Errorf("%s: %s", name, e)
			}
		}
		for _, e := range known {
			if !found[e] {
				t.Errorf("%s: the known fault %q is gone: take it out of knownUnnamedLand", name, e)
			}
		}
	}
	if boards < len(ownGeometry) {
		t.Errorf("checked %d boards, want the %d of ownGeometry", boards, len(ownGeometry))
	}
}

// TestUnnamedLandFound makes sure the check can fail: a stretch of land
// without a name, and a name written off its province's body, are both
// reported.
func TestUnnamedLandFound(t *testing.T) {
	m, err := variants.Load("vietnam-war")
	if err != nil {
		t.Fatal(err)
	}
	std, _ := For(m)
	g := *std
	g.Provinces = map[string]Province{}
	for k, v := range std.Provinces {
		g.Provinces[k] = v
	}
	// Loei's body drawn twice, as a nameless region too, and its name
	// left on a small piece of its own far away; Bangkok not drawn at
	// all, a gap of bare background.
	loe := g.Provinces["loe"]
	g.Impassable = append(slices.Clone(std.Impassable), Region{Rings: loe.Rings})
	delete(g.Provinces, "ban")
	loe.Rings = append(slices.Clone(loe.Rings), []int{0, 0, 10, 0, 10, 10, 0, 10})
	loe.Label = Point{5, 5}
	g.Provinces["loe"] = loe
	errs := strings.Join(unnamedLand(m, &g), "\n")
	for _, want := range []string{"sample points in two regions", "loe: label at [5 5] is not on its largest piece of land", "sample points in no region"} {
		if !strings.Contains(errs, want) {
			t.Errorf("want an error with %q, got:\n%s", want, errs)
		}
	}
}
