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

// ownGeometry are the boards drawn from geometry of their own.
var ownGeometry = []string{
	"standard",
	"34-35-36",
	"north-sea-wars",
	"hundred",
	"ancient-mediterranean",
	"asia",
	"american-empire",
	"vietnam-war",
	"1908-fall-of-europe",
	"canton",
	"cold-war",
	"unconstitutional",
	"modern",
	"milan",
	"sengoku",
	"empires-and-coalitions",
	"europe-1939",
	"western-world-901",
	"loeb9",
	"africa",
	"three-kingdoms",
	"gateway-west",
	"colonial",
	"youngstown-redux",
	"aberration",
	"world",
	"twenty-twenty",
}

// TestForVariants checks which maps have geometry: those of ownGeometry
// their own, the maps built on standard the standard one (the very same,
// parsed once), and the rest none.
func TestForVariants(t *testing.T) {
	std, ok := For(variants.Standard())
	if !ok {
		t.Fatal("standard has no geometry")
	}
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := For(m)
		switch {
		case slices.Contains(ownGeometry, name):
			if !ok || g.Variant != name {
				t.Errorf("%s: geometry %v, %v; want its own", name, ok, g)
			}
		case m.Base == "standard":
			if g != std {
				t.Errorf("%s (base standard): got %p, want the standard geometry %p", name, g, std)
			}
		default:
			if ok {
				t.Errorf("%s: unexpected geometry of %s", name, g.Variant)
			}
		}
	}
}

// TestConsistency checks every map that is drawn from geometry against
// its adjacency graph (see check).
func TestConsistency(t *testing.T) {
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := For(m)
		if !ok {
			continue
		}
		for _, e := range check(m, g) {
			t.Errorf("%s: %s", name, e)
		}
	}
}

// TestCheckFindsFaults makes sure the check can fail: it breaks the
// standard geometry in several ways and expects each fault named.
func TestCheckFindsFaults(t *testing.T) {
	m := variants.Standard()
	std, _ := For(m)
	clone := func() *Geometry {
		g := *std
		g.Provinces = map[string]Province{}
		for k, v := range std.Provinces {
			g.Provinces[k] = v
		}
		g.Exceptions = slices.Clone(std.Exceptions)
		return &g
	}
	cases := []struct {
		name   string
		break_ func(g *Geometry)
		want   string
	}{
		{"missing province", func(g *Geometry) { delete(g.Provinces, "par") }, "par is not drawn"},
		{"extra province", func(g *Geometry) { g.Provinces["xyz"] = g.Provinces["par"] }, "xyz is no province"},
		{"label outside", func(g *Geometry) {
			p := g.Provinces["par"]
			p.Label = g.Provinces["mos"].Unit
			g.Provinces["par"] = p
		}, "par: label"},
		{"stale exception", func(g *Geometry) {
			g.Exceptions = append(g.Exceptions, Exception{A: "par", B: "bur", Kind: "army", Why: "none"})
		}, "exception bur-par army is not needed"},
		{"lost border", func(g *Geometry) {
			// Par drawn as a far-away square shares no border.
			p := g.Provinces["par"]
			p.Rings = [][]int{{0, 0, 5, 0, 5, 5, 0, 5}}
			p.Label, p.Unit, p.Centre = Point{2, 2}, Point{2, 2}, Point{2, 2}
			g.Provinces["par"] = p
		}, "bre-par army: adjacent but no border"},
		{"coast on wrong shore", func(g *Geometry) {
			p := g.Provinces["spa"]
			p.Coasts = map[string]Point{"nc": p.Coasts["sc"], "sc": p.Coasts["sc"]}
			g.Provinces["spa"] = p
		}, "spa/nc"},
	}
	for _, c := range cases {
		g := clone()
		c.break_(g)
		errs := strings.Join(check(m, g), "\n")
		if !strings.Contains(errs, c.want) {
			t.Errorf("%s: want an error with %q, got:\n%s", c.name, c.want, errs)
		}
	}
}

type seg [4]int // x0 y0 x1 y1, the smaller end first

func mkseg(x0, y0, x1, y1 int) seg {
	if x1 < x0 || (x1 == x0 && y1 < y0) {
		x0, y0, x1, y1 = x1, y1, x0, y0
	}
	return seg{x0, y0, x1, y1}
}

// check compares geometry g with map m and returns every disagreement:
//   - each province of m is drawn once, and nothing else but impassable
//     regions; split coasts have points, and only they;
//   - rings have at least three points, lie in the box, and have no
//     zero-length segment;
//   - borders are the segments found in the rings of two regions; two
//     land or coastal provinces share one if and only if an army may move
//     between them; two seas if and only if a fleet may; a sea and a
//     coastal province if and only if a fleet may move between the sea
//     and the province or one of its coasts; coastal provinces that a
//     fleet moves between share one; a sea never borders inland land;
//   - every disagreement above that the file declares as an exception is
//     forgiven, and an exception that forgives nothing is an error;
//   - the label, unit, centre and coast points lie inside their province,
//     and each coast point is nearer the seas of its coast than to the
//     seas that only the province's other coasts touch;
//   - points of two provinces are at least minApartPx from each other, so
//     that what is drawn at them does not collide.
func check(m *judge.Map, g *Geometry) []string {
	var errs []string
	errf := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }

	loc := map[string]judge.Loc{}
	for _, p := range m.Provinces() {
		loc[m.Locs[p].Name] = p
		if _, ok := g.Provinces[m.Locs[p].Name]; !ok {
			errf("%s is not drawn", m.Locs[p].Name)
		}
	}
	names := make([]string, 0, len(g.Provinces))
	for n := range g.Provinces {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		p, ok := loc[n]
		if !ok {
			errf("%s is no province of %s", n, m.Name)
			continue
		}
		var want []string
		for _, c := range m.Locs[p].Coasts {
			want = append(want, m.CoastName(c))
		}
		var got []string
		for c := range g.Provinces[n].Coasts {
			got = append(got, c)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			errf("%s: coast points %v, want %v", n, got, want)
		}
	}

	// Rings, and the regions each segment belongs to.
	owners := map[seg][]string{}
	ringsOK := func(what string, rings [][]int) {
		if len(rings) == 0 {
			errf("%s has no rings", what)
		}
		for _, r := range rings {
			if len(r) < 6 || len(r)%2 != 0 {
				errf("%s: a ring of %d numbers", what, len(r))
				continue
			}
			seen := map[seg]bool{}
			for i := 0; i < len(r); i += 2 {
				x0, y0 := r[i], r[i+1]
				x1, y1 := r[(i+2)%len(r)], r[(i+3)%len(r)]
				if x0 < 0 || y0 < 0 || x0 > g.Width || y0 > g.Height {
					errf("%s: point (%d, %d) outside the box", what, x0, y0)
				}
				if x0 == x1 && y0 == y1 {
					errf("%s: zero-length segment at (%d, %d)", what, x0, y0)
					continue
				}
				s := mkseg(x0, y0, x1, y1)
				if !seen[s] && !slices.Contains(owners[s], what) {
					owners[s] = append(owners[s], what)
				}
				seen[s] = true
			}
		}
	}
	for _, n := range names {
		ringsOK(n, g.Provinces[n].Rings)
	}
	for i, r := range g.Impassable {
		ringsOK(fmt.Sprintf("impassable %d %s", i, r.Name), r.Rings)
	}
	border := map[[2]string]bool{}
	for _, o := range owners {
		for i := range o {
			for j := i + 1; j < len(o); j++ {
				a, b := o[i], o[j]
				if b < a {
					a, b = b, a
				}
				border[[2]string{a, b}] = true
			}
		}
	}

	// Borders against adjacency.
	type key struct{ a, b, kind string }
	declared := map[key]bool{}
	used := map[key]bool{}
	for _, x := range g.Exceptions {
		a, b := x.A, x.B
		if b < a {
			a, b = b, a
		}
		declared[key{a, b, x.Kind}] = true
	}
	mismatch := func(a, b, kind, what string) {
		k := key{a, b, kind}
		if declared[k] {
			used[k] = true
			return
		}
		errf("%s-%s %s: %s", a, b, kind, what)
	}
	for i, a := range names {
		pa, ok := loc[a]
		if !ok {
			continue
		}
		for _, b := range names[i+1:] {
			pb, ok := loc[b]
			if !ok {
				continue
			}
			if m.Locs[pa].Impassable || m.Locs[pb].Impassable {
				// No unit enters it (Loeb9's Switzerland): its borders
				// are geography, with no move across them to agree with.
				continue
			}
			ka, kb := m.Locs[pa].Kind, m.Locs[pb].Kind
			has := border[[2]string{a, b}]
			switch {
			case ka != judge.Sea && kb != judge.Sea:
				if adj := m.ArmyAdjacent(pa, pb); adj != has {
					mismatch(a, b, "army", what(adj))
				}
				if ka == judge.Coast && kb == judge.Coast && !has && m.ShareShore(pa, pb) {
					mismatch(a, b, "fleet", what(true))
				}
			case ka == judge.Sea && kb == judge.Sea:
				if adj := m.FleetAdjacent(pa, pb); adj != has {
					mismatch(a, b, "fleet", what(adj))
				}
			default:
				if adj := m.ShareShore(pa, pb); adj != has {
					mismatch(a, b, "fleet", what(adj))
				}
			}
		}
	}
	for _, x := range g.Exceptions {
		a, b := x.A, x.B
		if b < a {
			a, b = b, a
		}
		if !used[key{a, b, x.Kind}] {
			errf("exception %s-%s %s is not needed: border and adjacency agree", a, b, x.Kind)
		}
	}

	// Points.
	type named struct {
		prov string
		at   Point
	}
	var all []named
	for _, n := range names {
		p := g.Provinces[n]
		all = append(all, named{n, p.Unit}, named{n, p.Label}, named{n, p.Centre})
		for _, c := range p.Coasts {
			all = append(all, named{n, c})
		}
	}
	apart := minApartPx * float64(g.Width) / float64(g.PictureWidth())
	for i, a := range all {
		for _, b := range all[i+1:] {
			if a.prov != b.prov && math.Hypot(float64(a.at[0]-b.at[0]), float64(a.at[1]-b.at[1])) < apart {
				errf("points %v of %s and %v of %s are too close", a.at, a.prov, b.at, b.prov)
			}
		}
	}
	for _, n := range names {
		p := g.Provinces[n]
		for _, pt := range []struct {
			what string
			at   Point
		}{{"label", p.Label}, {"unit", p.Unit}, {"centre", p.Centre}} {
			if !Inside(p.Rings, pt.at) {
				errf("%s: %s point %v is outside the province", n, pt.what, pt.at)
			}
		}
		pl, ok := loc[n]
		if !ok {
			continue
		}
		for _, c := range m.Locs[pl].Coasts {
			co := m.Locs[c].Name[len(n)+1:]
			at, ok := p.Coasts[co]
			if !ok {
				continue
			}
			if !Inside(p.Rings, at) {
				errf("%s: coast point %v is outside the province", m.Locs[c].Name, at)
			}
			own, other := coastSeas(m, pl, c)
			dOwn, dOther := math.Inf(1), math.Inf(1)
			for _, s := range own {
				dOwn = math.Min(dOwn, distance(g.Provinces[s].Rings, at))
			}
			for _, s := range other {
				dOther = math.Min(dOther, distance(g.Provinces[s].Rings, at))
			}
			if !(dOwn < dOther) {
				errf("%s: coast point %v is %.0f from its seas %v and %.0f from the other coasts' %v",
					m.Locs[c].Name, at, dOwn, own, dOther, other)
			}
		}
	}
	return errs
}

// minApartPx is the least distance, in the pictures' pixels, between
// points of two provinces: 25 map units on a board 2000 units wide drawn
// 1000 pixels wide.
const minApartPx = 12.5

func what(adjacent bool) string {
	if adjacent {
		return "adjacent but no border"
	}
	return "border but not adjacent"
}

// coastSeas returns the seas a fleet on coast c of province p moves to,
// and the seas that only p's other coasts touch. A coast on no sea (a
// river, as Mekong's in Vietnam War, or a strait drawn as land, as
// Jutland's east coast in North Sea Wars) is judged by the provinces its
// fleet moves to instead, and so are the other coasts then.
func coastSeas(m *judge.Map, p, c judge.Loc) (own, other []string) {
	find := func(l judge.Loc, anyShore bool) []string {
		var out []string
		for _, q := range m.Provinces() {
			if (anyShore || m.Locs[q].Kind == judge.Sea) && q != p && (m.FleetAdjacent(l, q) || m.FleetAdjacent(q, l)) {
				out = append(out, m.Locs[q].Name)
			}
		}
		return out
	}
	seas := func(l judge.Loc) []string { return find(l, false) }
	if len(seas(c)) == 0 {
		seas = func(l judge.Loc) []string { return find(l, true) }
	}
	own = seas(c)
	for _, d := range m.Locs[p].Coasts {
		if d == c {
			continue
		}
		for _, s := range seas(d) {
			if !slices.Contains(own, s) && !slices.Contains(other, s) {
				other = append(other, s)
			}
		}
	}
	return own, other
}

// distance returns the distance from pt to the nearest ring segment.
func distance(rings [][]int, pt Point) float64 {
	best := math.Inf(1)
	px, py := float64(pt[0]), float64(pt[1])
	for _, r := range rings {
		n := len(r) / 2
		for i := 0; i < n; i++ {
			x0, y0 := float64(r[2*i]), float64(r[2*i+1])
			j := (i + 1) % n
			x1, y1 := float64(r[2*j]), float64(r[2*j+1])
			dx, dy := x1-x0, y1-y0
			t := 0.0
			if l := dx*dx + dy*dy; l > 0 {
				t = math.Max(0, math.Min(1, ((px-x0)*dx+(py-y0)*dy)/l))
			}
			best = math.Min(best, math.Hypot(px-x0-t*dx, py-y0-t*dy))
		}
	}
	return best
}

// TestCoverage fills every region's rings by the even-odd rule and
// expects each pixel of the box to be covered by exactly one region: no
// gaps between neighbours and no overlaps, which shared borders promise
// and simplification could break.
func TestCoverage(t *testing.T) {
	for _, name := range []string{"standard", "34-35-36"} {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := For(m)
		if !ok {
			t.Fatalf("%s has no geometry", name)
		}
		count := make([]uint8, g.Width*g.Height)
		add := func(rings [][]int) {
			fill(g.Width, g.Height, rings, func(i int) { count[i]++ })
		}
		for _, p := range g.Provinces {
			add(p.Rings)
		}
		for _, r := range g.Impassable {
			add(r.Rings)
		}
		bad := 0
		for i, c := range count {
			if c != 1 {
				if bad < 5 {
					t.Errorf("%s: pixel (%d, %d) is covered %d times", name, i%g.Width, i/g.Width, c)
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d pixels covered other than once", name, bad)
		}
	}
}

// fill calls set for each pixel of a w × h box whose centre is inside the
// rings, by the even-odd rule.
func fill(w, h int, rings [][]int, set func(int)) {
	rows := make([][]float64, h)
	for _, r := range rings {
		n := len(r) / 2
		for i := 0; i < n; i++ {
			x0, y0 := float64(r[2*i]), float64(r[2*i+1])
			j := (i + 1) % n
			x1, y1 := float64(r[2*j]), float64(r[2*j+1])
			if y0 == y1 {
				continue
			}
			lo, hi := math.Min(y0, y1), math.Max(y0, y1)
			for row := int(math.Ceil(lo - 0.5)); float64(row)+0.5 < hi && row < h; row++ {
				if row < 0 {
					continue
				}
				yc := float64(row) + 0.5
				rows[row] = append(rows[row], x0+(yc-y0)*(x1-x0)/(y1-y0))
			}
		}
	}
	for row, xs := range rows {
		slices.Sort(xs)
		for i := 0; i+1 < len(xs); i += 2 {
			for col := max(0, int(math.Ceil(xs[i]-0.5))); float64(col)+0.5 < xs[i+1] && col < w; col++ {
				set(row*w + col)
			}
		}
	}
}

// BenchmarkParse measures reading the standard geometry, which For does
// once per process.
func BenchmarkParse(b *testing.B) {
	src, ok := variants.GeoJSON("standard")
	if !ok {
		b.Fatal("no standard geometry")
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
