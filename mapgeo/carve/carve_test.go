package carve

import (
	"bytes"
	"fmt"
	"github.com/gmdjudge/gmd/internal/racetest"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/mapgeo"
)

// tinyConfig is a board of two land provinces and a sea on a small square
// continent, with a lake, an island and an islet.
const tinyConfig = `variant tiny
projection lcc 40 50 45 10
frame 5 15 40 50
width 200
minisland 20
tolerance 1
a 8 45     # west
a 8 47
b 12 45    # east
s 6 41     # the sea
except a b army declared to be found again in the output
`

var tinyKinds = Kinds{"a": {}, "b": {}, "s": {Sea: true}}

func square(lon0, lat0, lon1, lat1 float64) []LonLat {
	return []LonLat{{lon0, lat0}, {lon1, lat0}, {lon1, lat1}, {lon0, lat1}}
}

func tinyLand() [][]LonLat {
	return [][]LonLat{
		square(7, 42, 13, 48),          // the continent
		square(9.5, 44.5, 10.5, 45.5),  // a lake in it (even-odd hole)
		square(13.8, 41, 14.6, 41.8),   // an island: no seed, big enough to stay
		square(6.1, 47.1, 6.15, 47.15), // an islet: sinks
	}
}

func tinyBuild(t *testing.T) ([]byte, *Grid) {
	t.Helper()
	c, err := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(tinyConfig), nil })
	if err != nil {
		t.Fatal(err)
	}
	geo, g, err := Build(c, tinyKinds, tinyLand(), "test")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Encode(geo)
	if err != nil {
		t.Fatal(err)
	}
	return b, g
}

// TestBuildDeterministic builds the tiny board twice and expects the same
// bytes, and checks what the carving did with it.
func TestBuildDeterministic(t *testing.T) {
	first, g := tinyBuild(t)
	second, _ := tinyBuild(t)
	if !bytes.Equal(first, second) {
		t.Fatal("two builds of the same input differ")
	}
	c, _ := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(tinyConfig), nil })
	fr := newFrame(c)
	pixel := func(lon, lat float64) int {
		x, y := fr.at(c.Proj, LonLat{lon, lat})
		return int(y)*g.W + int(x)
	}
	name := func(lon, lat float64) string { return g.Names[g.Label[pixel(lon, lat)]] }
	for _, tc := range []struct {
		lon, lat float64
		want     string
	}{{8, 44, "a"}, {12, 47, "b"}, {6.12, 47.12, "s"}, {14.2, 41.4, ""}, {14, 49, "s"}} {
		if got := name(tc.lon, tc.lat); got != tc.want {
			t.Errorf("(%v, %v) is %q, want %q", tc.lon, tc.lat, got, tc.want)
		}
	}
	if n := name(10, 45); !g.Land[pixel(10, 45)] || (n != "a" && n != "b") {
		t.Errorf("the lake was not filled with a province: %q", n)
	}
	for _, want := range []string{`"a":{"rings"`, `"b":{"rings"`, `"s":{"rings"`, `{"a":"a","b":"b","kind":"army"`, `"impassable":[` + "\n" + `{"rings"`} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("output lacks %s:\n%s", want, first)
		}
	}
}

// TestDeepWater carves the tiny board with the sea's south-east corner
// declared deep (water that is no province): the corner is a region of
// its own, drawn as water, and the sea keeps the rest; a name seeded on
// both land and water is refused.
func TestDeepWater(t *testing.T) {
	cfg := tinyConfig + "deep Deep Water 14.5 40.5\n"
	c, err := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(cfg), nil })
	if err != nil {
		t.Fatal(err)
	}
	geo, g, err := Build(c, tinyKinds, tinyLand(), "test")
	if err != nil {
		t.Fatal(err)
	}
	name := regionAt(c, g)
	if n := name(14.6, 40.3); n != "Deep Water" {
		t.Errorf("the deep corner is %q, want Deep Water", n)
	}
	if n := name(6, 41); n != "s" {
		t.Errorf("the sea's seed is %q, want s", n)
	}
	found := false
	for _, r := range geo.Impassable {
		if r.Name == "Deep Water" {
			found = true
			if !r.Water {
				t.Error("Deep Water is not marked as water")
			}
		} else if r.Water {
			t.Errorf("%q is marked as water", r.Name)
		}
	}
	if !found {
		t.Error("Deep Water is not drawn")
	}
	mixed := cfg + "impassable Deep Water 10 47\n"
	c, err = ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(mixed), nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Build(c, tinyKinds, tinyLand(), "test"); err == nil || !strings.Contains(err.Error(), "land and on water") {
		t.Errorf("a name on land and water: err %v", err)
	}
}

// TestNearFrame checks that rings far from the board are left out, the
// ones whose chords across the cone's cut could fill a band of it (a
// board in Asia cuts the cone through the Americas), and that rings near
// it are kept, wherever their longitudes are written.
func TestNearFrame(t *testing.T) {
	c := &Config{Proj: NewLCC(10, 20, 15, 105), Frame: [4]float64{97, 113, 7, 23}}
	near := square(100, 10, 101, 11)
	wrapped := square(-259, 10, -258, 11) // 101° E written west of the antimeridian
	americas := square(-80, -50, -70, 60) // across the cut at 75° W
	got := nearFrame(c, [][]LonLat{near, americas, wrapped})
	if len(got) != 2 || got[0][0] != near[0] || got[1][0] != wrapped[0] {
		t.Errorf("kept %v, want the near ring and the wrapped one", got)
	}
	// Over the whole raster: the Americas add nothing to the mask.
	c.Width = 200
	fr := newFrame(c)
	with := rasterise(fr, c.Proj, nearFrame(c, [][]LonLat{near, americas}))
	without := rasterise(fr, c.Proj, [][]LonLat{near})
	if !slices.Equal(with, without) {
		t.Error("a far ring changed the land mask")
	}
}

// TestTraceSharesVertices traces a small grid with a pinch (two pixels of
// one region touching at a corner) and an enclosed region, and checks
// that every border segment is in the rings of exactly the two regions
// beside it, that rings close, and that outer rings run clockwise.
func TestTraceSharesVertices(t *testing.T) {
	rows := []string{
		"aaaabbbb",
		"aacabbbb",
		"aaaacbbb",
		"dddcbbbb",
		"ddddbbbb",
	}
	w, h := len(rows[0]), len(rows)
	lbl := make([]int32, w*h)
	for y, r := range rows {
		for x := range r {
			lbl[y*w+x] = int32(r[x] - 'a')
		}
	}
	rings, err := trace(w, h, lbl, 4, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	owners := map[[4]int]string{}
	for r, rs := range rings {
		if len(rs) == 0 {
			t.Errorf("region %c has no ring", 'a'+r)
		}
		outer := 0 // the area of the largest ring: an outer one
		for _, ring := range rs {
			area := 0
			n := len(ring) / 2
			for i := 0; i < n; i++ {
				x0, y0, x1, y1 := ring[2*i], ring[2*i+1], ring[2*((i+1)%n)], ring[2*((i+1)%n)+1]
				area += x0*y1 - x1*y0
				k := [4]int{x0, y0, x1, y1}
				if x1 < x0 || (x1 == x0 && y1 < y0) {
					k = [4]int{x1, y1, x0, y0}
				}
				owners[k] += string(rune('a' + r))
			}
			if abs(area) > abs(outer) {
				outer = area
			}
		}
		if outer <= 0 {
			t.Errorf("region %c's outer ring runs anticlockwise on screen", 'a'+r)
		}
	}
	var borders []string
	for k, o := range owners {
		if len(o) > 2 {
			t.Errorf("segment %v is in %d rings", k, len(o))
		}
		if len(o) == 2 {
			borders = append(borders, o)
		}
	}
	joined := strings.Join(borders, " ")
	for _, pair := range []string{"ab", "ac", "ad", "bc", "cd", "bd"} {
		rev := string([]byte{pair[1], pair[0]})
		if !strings.Contains(joined, pair) && !strings.Contains(joined, rev) {
			t.Errorf("no border %s among %s", pair, joined)
		}
	}
}

// TestLandRings decodes a small quantised TopoJSON with a reversed arc.
func TestLandRings(t *testing.T) {
	src := `{"type":"Topology","transform":{"scale":[0.5,0.25],"translate":[10,40]},
	"objects":{"land":{"type":"GeometryCollection","geometries":[
	  {"type":"MultiPolygon","arcs":[[[0,-2]]]}]}},
	"arcs":[[[0,0],[4,0],[0,4]],[[0,0],[0,4],[4,0]]]}`
	rings, err := LandRings([]byte(src), "land")
	if err != nil {
		t.Fatal(err)
	}
	// Arc 0: (10,40) (12,40) (12,41); arc 1 reversed: (12,41) (10,41) (10,40).
	got := fmt.Sprint(rings)
	want := "[[[10 40] [12 40] [12 41] [10 41] [10 40]]]"
	if got != want {
		t.Errorf("rings %s, want %s", got, want)
	}
	if _, err := LandRings([]byte(src), "countries"); err == nil {
		t.Error("a missing object gave no error")
	}
}

// TestParseConfigErrors checks that mistakes in seed files are reported
// with their line.
func TestParseConfigErrors(t *testing.T) {
	for _, bad := range []string{
		"variant x\nprojection lcc 40 50 45 10\nframe 0 1 2 3\nwat 1\n",
		"variant x\nprojection lcc 40 50 45 10\nframe 0 1 2 3\ncoast spa 1 2\n",
		"variant x\nprojection lcc 40 50 45 10\nframe 0 1 2 3\nexcept a b road why\n",
		"variant x\nframe 0 1 2 3\n",
	} {
		_, err := ParseConfig("bad.seeds", func(string) ([]byte, error) { return []byte(bad), nil })
		if err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
	_, err := ParseConfig("missing.seeds", os.ReadFile)
	if err == nil {
		t.Error("no error for a missing file")
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TestLensOneToOne checks that a lens at its strongest allowed k still
// keeps points in order along a ray (so no province folds over another),
// that it moves the middle's neighbourhood out, and that the seed file
// refuses a stronger one.
func TestLensOneToOne(t *testing.T) {
	l := lens{x: 100, y: 100, r: 50, k: 2.19}
	prev := -1.0
	for d := 0.0; d <= 400; d += 0.5 {
		x, _ := l.apply(100+d, 100)
		if x-100 <= prev {
			t.Fatalf("at distance %v the lens folds: %v after %v", d, x-100, prev)
		}
		prev = x - 100
	}
	if x, _ := l.apply(110, 100); x < 130 {
		t.Errorf("a point 10 from the middle moved only to %v", x-100)
	}
	if x, y := l.apply(600, 100); math.Abs(x-600) > 1e-6 || y != 100 {
		t.Errorf("a far point moved to (%v, %v)", x, y)
	}
	bad := "variant x\nprojection lcc 40 50 45 10\nframe 0 1 2 3\nlens 0 50 100 2.5\n"
	if _, err := ParseConfig("bad.seeds", func(string) ([]byte, error) { return []byte(bad), nil }); err == nil {
		t.Error("a folding lens was accepted")
	}
}

// TestDeepSeedOnLand checks that a deep-water seed standing on land is
// refused, as an impassable one on water is.
func TestDeepSeedOnLand(t *testing.T) {
	bad := tinyConfig + "deep Ocean 8 45\n"
	c, err := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(bad), nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Build(c, tinyKinds, tinyLand(), "test"); err == nil || !strings.Contains(err.Error(), "not on water") {
		t.Errorf("deep seed on land: error %v, want one saying it is not on water", err)
	}
}

// TestRasteriseDropsRingsAcrossTheCut builds a board that spans the globe,
// cut at 170° W as Cold War's is in the Bering Sea: an island astride the
// cut would be drawn as a band across the whole picture; it sinks, while
// an island beside the cut and a ring that Natural Earth closes at 180°
// stay land on their own side.
func TestRasteriseDropsRingsAcrossTheCut(t *testing.T) {
	c, err := ParseConfig("world.seeds", func(string) ([]byte, error) {
		return []byte("variant w\nprojection lcc 1 1 0 10\nframe -170 190 -30 30\nwidth 360\n"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fr := newFrame(c)
	land := rasterise(fr, c.Proj, [][]LonLat{
		square(-172, -5, -168, 5),  // astride the cut
		square(-165, 10, -160, 15), // west of it: the left edge
		square(175, 10, 180, 15),   // east of it, closed at 180°
	})
	at := func(lon, lat float64) bool {
		x, y := fr.at(c.Proj, LonLat{lon, lat})
		return land[int(y)*fr.w+int(x)]
	}
	if !at(-162.5, 12.5) || !at(177.5, 12.5) {
		t.Error("an island beside the cut was lost")
	}
	for x := range fr.w {
		if land[(fr.h/2)*fr.w+x] {
			t.Fatalf("the ring astride the cut left land at x=%d on the equator", x)
		}
	}
	if !c.Proj.acrossCut(square(-172, -5, -168, 5)) || c.Proj.acrossCut(square(175, 10, 180, 15)) {
		t.Error("acrossCut misjudges a ring")
	}
}

// TestRasteriseClosesARingRoundThePole builds a board that spans the
// globe, cut at 170° W, down to 80° S, with an Antarctica whose coast goes
// round the south pole (written as Natural Earth writes it, with a dip to
// the pole at 180°, and starting anywhere): it is closed along the board's
// bottom edge and filled, so that the land lies between its coast and the
// edge on both sides of the cut and the sea north of the coast stays sea,
// and a hole in it (a lake) stays water. An islet astride the cut still
// sinks.
func TestRasteriseClosesARingRoundThePole(t *testing.T) {
	c, err := ParseConfig("world.seeds", func(string) ([]byte, error) {
		return []byte("variant w\nprojection lcc 1 1 0 10\nframe -170 190 -80 30\nwidth 360\n"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fr := newFrame(c)
	// The coast at 70° S, wavier at 60° S between 30° W and 30° E.
	var ring []LonLat
	for lon := 40.0; lon <= 180; lon += 10 {
		ring = append(ring, LonLat{lon, -70})
	}
	ring = append(ring, LonLat{180, -90}, LonLat{-180, -90})
	for lon := -180.0; lon < 40; lon += 10 {
		lat := -70.0
		if lon >= -30 && lon <= 30 {
			lat = -60
		}
		ring = append(ring, LonLat{lon, lat})
	}
	if _, _, ok := c.Proj.roundPole(ring); !ok {
		t.Fatal("roundPole did not close the ring round the pole")
	}
	if _, _, ok := c.Proj.roundPole(square(-172, -5, -168, 5)); ok {
		t.Error("roundPole closed an islet astride the cut")
	}
	land := rasterise(fr, c.Proj, [][]LonLat{ring, square(60, -78, 80, -74), square(-172, -5, -168, 5)})
	at := func(lon, lat float64) bool {
		x, y := fr.at(c.Proj, LonLat{lon, lat})
		return land[min(int(y), fr.h-1)*fr.w+int(x)]
	}
	for _, lon := range []float64{-169, -150, -90, -40, 0, 40, 100, 150, 189} {
		if !at(lon, -75) || !at(lon, -79.9) {
			t.Errorf("no land south of the coast at %v° E", lon)
		}
		if at(lon, -55) {
			t.Errorf("land north of the coast at %v° E", lon)
		}
	}
	if !at(0, -65) || at(-50, -65) {
		t.Error("the coast's bulge between 30° W and 30° E is not where it is")
	}
	if at(70, -76) {
		t.Error("the lake in the continent was filled")
	}
	for x := range fr.w {
		if _, y := fr.at(c.Proj, LonLat{0, 0}); land[int(y)*fr.w+x] {
			t.Fatalf("land at x=%d on the equator", x)
		}
	}
}

// TestImpassableLake seeds an impassable region on the tiny board's lake,
// as Cold War draws the Caspian: the lake becomes that region, not the
// provinces around it; an impassable seed on the open sea is refused.
func TestImpassableLake(t *testing.T) {
	build := func(extra string) (*Grid, error) {
		c, err := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(tinyConfig + extra), nil })
		if err != nil {
			t.Fatal(err)
		}
		_, g, err := Build(c, tinyKinds, tinyLand(), "test")
		return g, err
	}
	g, err := build("impassable The Lake 10 45\n")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(tinyConfig), nil })
	fr := newFrame(c)
	x, y := fr.at(c.Proj, LonLat{10, 45})
	if got := g.Names[g.Label[int(y)*g.W+int(x)]]; got != "The Lake" {
		t.Errorf("the lake's middle belongs to %q, want The Lake", got)
	}
	if _, err := build("impassable Atlantis 6 41.5\n"); err == nil || !strings.Contains(err.Error(), "on the sea") {
		t.Errorf("an impassable seed on the sea: %v", err)
	}
}

// TestRasteriseKeepsRingsAcrossAFarCut checks that a regional board keeps
// a ring that crosses its cut far outside the picture, as Eurasia's does
// over Chukotka for a board centred on the North Sea: only a board that
// spans the globe sinks such rings.
func TestRasteriseKeepsRingsAcrossAFarCut(t *testing.T) {
	c, err := ParseConfig("region.seeds", func(string) ([]byte, error) {
		return []byte("variant r\nprojection lcc 50 60 55 4\nframe -5 15 49 62\nwidth 400\n"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fr := newFrame(c)
	// A continent from the North Sea's shores east over the cut (at 176° W)
	// and back along the Arctic.
	continent := []LonLat{{0, 50}, {90, 50}, {179, 60}, {-170, 66}, {-178, 70}, {90, 75}, {0, 70}}
	if !c.Proj.acrossCut(continent) {
		t.Fatal("the test continent does not cross the cut")
	}
	land := rasterise(fr, c.Proj, [][]LonLat{continent})
	x, y := fr.at(c.Proj, LonLat{10, 60})
	if !land[int(y)*fr.w+int(x)] {
		t.Error("a regional board lost a continent that crosses its far cut")
	}
}

// TestBox carves the tiny board with an off-board sea boxed in its
// south-east corner, over the island there: the box is a rectangle of its
// own, drawn as one ring of four corners, bordering the sea that grows up
// to it, with its points inside; and each misuse is refused.
func TestBox(t *testing.T) {
	kinds := Kinds{"x": {Sea: true}, "y": {Sea: true}}
	for k, v := range tinyKinds {
		kinds[k] = v
	}
	build := func(extra string) (*Config, *Grid, []byte, error) {
		t.Helper()
		c, err := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(tinyConfig + extra), nil })
		if err != nil {
			return nil, nil, nil, err
		}
		geo, g, err := Build(c, kinds, tinyLand(), "test")
		if err != nil {
			return c, nil, nil, err
		}
		b, err := Encode(geo)
		if err != nil {
			t.Fatal(err)
		}
		return c, g, b, nil
	}
	const boxes = "box x 0.75 0.7 1 1\nbox y 0 0 0.2 0.25\n"
	c, g, out, err := build(boxes)
	if err != nil {
		t.Fatal(err)
	}
	name := regionAt(c, g)
	if n := name(14.2, 41.4); n != "x" {
		t.Errorf("the island under the box is %q, want x", n)
	}
	if n := name(6, 41); n != "s" {
		t.Errorf("the sea's seed is %q, want s", n)
	}
	geo, err := mapgeo.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	x0, y0 := int(math.Round(0.75*float64(g.W))), int(math.Round(0.7*float64(g.H)))
	for _, n := range []string{"x", "y"} {
		p := geo.Provinces[n]
		if len(p.Rings) != 1 {
			t.Errorf("box %s is drawn as %d rings, want one rectangle", n, len(p.Rings))
			continue
		}
		for _, pt := range [][2]int{p.Unit, p.Label} {
			if !insideRect(p.Rings[0], pt) {
				t.Errorf("box %s: point %v is outside it", n, pt)
			}
		}
	}
	// Every corner of x's ring is on the rectangle's edge (borders with
	// what it covers add points along its sides), and its four corners
	// are among them.
	r := geo.Provinces["x"].Rings[0]
	corners := 0
	for i := 0; i < len(r); i += 2 {
		x, y := r[i], r[i+1]
		if (x != x0 && x != g.W && y != y0 && y != g.H) || x < x0 || y < y0 {
			t.Errorf("box x has a point (%d, %d) off its rectangle (%d, %d)-(%d, %d)", x, y, x0, y0, g.W, g.H)
		}
		if (x == x0 || x == g.W) && (y == y0 || y == g.H) {
			corners++
		}
	}
	if corners != 4 {
		t.Errorf("box x has %d of its 4 corners: %v", corners, r)
	}
	if !sharesSegment(geo.Provinces["x"].Rings, geo.Provinces["s"].Rings) {
		t.Error("box x shares no border with the sea s beside it")
	}
	for _, bad := range []struct{ extra, want string }{
		{"box a 0.8 0.8 1 1\n", "no sea"},
		{"box x 0.8 0.8 1 1\nbox x 0 0 0.1 0.1\n", "boxed twice"},
		{"box x 0.8 0.8 1 1\nbox y 0.7 0.9 0.9 1\n", "overlaps"},
		{"box x 0.8 0.8 1 1\nx 14 40.5\n", "has a seed too"},
		{"box x 0 0.8 0.5 1\n", "inside box"}, // over the sea's seed
		{"box x 0.4 0.4 0.6 0.6\n", "edge"},
		{"box x 0.8 0.8 0.7 1\n", "x0 < x1"},
		{"box x 0.8 0.8 1\n", "box <province>"},
	} {
		if _, _, _, err := build(bad.extra); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: err %v, want one with %q", bad.extra, err, bad.want)
		}
	}
}

func insideRect(r []int, pt [2]int) bool {
	minX, minY, maxX, maxY := r[0], r[1], r[0], r[1]
	for i := 0; i < len(r); i += 2 {
		minX, maxX = min(minX, r[i]), max(maxX, r[i])
		minY, maxY = min(minY, r[i+1]), max(maxY, r[i+1])
	}
	return pt[0] > minX && pt[0] < maxX && pt[1] > minY && pt[1] < maxY
}

// sharesSegment reports whether two regions' rings have a segment in common.
func sharesSegment(a, b [][]int) bool {
	segs := map[[4]int]bool{}
	each := func(rings [][]int, f func([4]int)) {
		for _, r := range rings {
			n := len(r) / 2
			for i := 0; i < n; i++ {
				j := (i + 1) % n
				s := [4]int{r[2*i], r[2*i+1], r[2*j], r[2*j+1]}
				if s[2] < s[0] || (s[2] == s[0] && s[3] < s[1]) {
					s = [4]int{s[2], s[3], s[0], s[1]}
				}
				f(s)
			}
		}
	}
	each(a, func(s [4]int) { segs[s] = true })
	found := false
	each(b, func(s [4]int) { found = found || segs[s] })
	return found
}

// regionAt returns the name of the region at a point of grid g, carved
// from c.
func regionAt(c *Config, g *Grid) func(lon, lat float64) string {
	fr := newFrame(c)
	return func(lon, lat float64) string {
		x, y := fr.at(c.Proj, LonLat{lon, lat})
		return g.Names[g.Label[int(y)*g.W+int(x)]]
	}
}

// TestStretch checks the stretch directive: the board is k times as tall,
// every point k times as far down, its width and x unchanged; a stretch
// out of range is refused.
func TestStretch(t *testing.T) {
	read := func(extra string) (*Config, error) {
		return ParseConfig("world.seeds", func(string) ([]byte, error) {
			return []byte("variant w\nprojection lcc 1 1 0 10\nframe -170 190 -30 30\nwidth 360\n" + extra), nil
		})
	}
	plain, err := read("")
	if err != nil {
		t.Fatal(err)
	}
	tall, err := read("stretch 1.5\n")
	if err != nil {
		t.Fatal(err)
	}
	fp, ft := newFrame(plain), newFrame(tall)
	if ft.w != fp.w || math.Abs(float64(ft.h)-1.5*float64(fp.h)) > 1 {
		t.Errorf("stretched box %d×%d, want %d×%.0f", ft.w, ft.h, fp.w, 1.5*float64(fp.h))
	}
	for _, ll := range []LonLat{{0, 0}, {100, 20}, {-150, -25}} {
		xp, yp := fp.at(plain.Proj, ll)
		xt, yt := ft.at(tall.Proj, ll)
		if math.Abs(xt-xp) > 1e-9 || math.Abs(yt-1.5*yp) > 1e-9 {
			t.Errorf("%v: stretched to (%v, %v), want (%v, %v)", ll, xt, yt, xp, 1.5*yp)
		}
	}
	for _, bad := range []string{"stretch 0.2\n", "stretch 3\n", "stretch\n"} {
		if _, err := read(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// TestWarp checks the warp directive: a band across drawn twice as wide
// takes twice its share of the board, the rest keeps its proportions, a
// band up and down likewise; overlapping bands multiply; bad warps are
// refused.
func TestWarp(t *testing.T) {
	read := func(extra string) (*Config, error) {
		return ParseConfig("world.seeds", func(string) ([]byte, error) {
			return []byte("variant w\nprojection lcc 1 1 0 10\nframe -170 190 -60 60\nwidth 3600\n" + extra), nil
		})
	}
	plain, err := read("")
	if err != nil {
		t.Fatal(err)
	}
	warped, err := read("warp x 0 60 2\nwarp y -10 10 3\n")
	if err != nil {
		t.Fatal(err)
	}
	fp, fw := newFrame(plain), newFrame(warped)
	span := func(f frame, c *Config, a, b LonLat) (float64, float64) {
		xa, ya := f.at(c.Proj, a)
		xb, yb := f.at(c.Proj, b)
		return xb - xa, yb - ya
	}
	// 360° plain; with 60° doubled, 420 "degrees" share the same width:
	// 10° outside the band take 36/42 of their plain width, inside it
	// twice that. (The cone is nearly, not quite, a cylinder: 1%.)
	dxIn, _ := span(fw, warped, LonLat{10, 0}, LonLat{20, 0})
	dxOut, _ := span(fw, warped, LonLat{-100, 0}, LonLat{-90, 0})
	dxPlain, _ := span(fp, plain, LonLat{-100, 0}, LonLat{-90, 0})
	if math.Abs(dxIn/dxOut-2) > 0.02 || math.Abs(dxOut/dxPlain-36.0/42) > 0.01 {
		t.Errorf("10° inside the band %v, outside %v, plain %v: want 2:1 and 36:42", dxIn, dxOut, dxPlain)
	}
	// Up and down: the band's share triples, outside it keeps the plain
	// proportion to the width.
	_, dyIn := span(fw, warped, LonLat{0, 5}, LonLat{0, -5})
	_, dyInPlain := span(fp, plain, LonLat{0, 5}, LonLat{0, -5})
	_, dyOut := span(fw, warped, LonLat{0, 45}, LonLat{0, 35})
	_, dyOutPlain := span(fp, plain, LonLat{0, 45}, LonLat{0, 35})
	ratio := fw.s / fp.s // the board's scale changed with its width
	if math.Abs(dyIn-3*dyInPlain*ratio) > 0.5 || math.Abs(dyOut-dyOutPlain*ratio) > 0.5 {
		t.Errorf("up and down: band %v (want %v), outside %v (want %v)", dyIn, 3*dyInPlain*ratio, dyOut, dyOutPlain*ratio)
	}
	if fw.w != 3600 || fw.h <= fp.h {
		t.Errorf("warped box %d×%d, plain %d×%d: want the same width and a taller box", fw.w, fw.h, fp.w, fp.h)
	}
	// The frame's bottom-left corner and the top of its central meridian
	// stay on the box's edges.
	if x, _ := fw.at(warped.Proj, LonLat{-170, -60}); math.Abs(x) > 1e-6 {
		t.Errorf("the south-west corner went to x=%v", x)
	}
	if _, y := fw.at(warped.Proj, LonLat{10, 60}); math.Abs(y) > 1e-6 {
		t.Errorf("the top of the central meridian went to y=%v", y)
	}
	// Overlapping bands multiply.
	w := newWarp([][3]float64{{0, 10, 2}, {5, 15, 3}})
	for _, c := range [][2]float64{{-1, -1}, {0, 0}, {5, 10}, {10, 40}, {15, 55}, {20, 60}} {
		if got := w.of(c[0]); math.Abs(got-c[1]) > 1e-9 {
			t.Errorf("warp of %v = %v, want %v", c[0], got, c[1])
		}
	}
	for _, bad := range []string{"warp z 0 1 2\n", "warp x 10 0 2\n", "warp x 0 10 9\n", "warp y 0 10\n"} {
		if _, err := read(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// TestCoastReach checks the coastreach directive: a split coast's fleet
// set a few units off the coast is pulled inland by the placer (deeper
// points cost less), but with a reach of one pixel it stays where the
// seed file sets it; the default is 30 pixels; bad values are refused.
func TestCoastReach(t *testing.T) {
	racetest.Sequential(t)
	kinds := Kinds{"a": {Shore: true, Coasts: []string{"nc"}}, "b": {}, "s": {Sea: true}}
	build := func(extra string) (*Config, float64) {
		c, err := ParseConfig("tiny.seeds", func(string) ([]byte, error) {
			// 1000 units wide: a pixel of the pictures is a unit.
			return []byte(tinyConfig + "width 1000\ncoast a/nc 7.05 45\n" + extra), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		geo, _, err := Build(c, kinds, tinyLand(), "test")
		if err != nil {
			t.Fatal(err)
		}
		fr := newFrame(c)
		x, y := fr.at(c.Proj, LonLat{7.05, 45})
		got := geo.Provinces["a"].Coasts["nc"]
		return c, math.Hypot(float64(got[0])-math.Floor(x), float64(got[1])-math.Floor(y))
	}
	c, free := build("")
	if c.CoastReach != 30 {
		t.Errorf("default CoastReach %v, want 30", c.CoastReach)
	}
	c, pinned := build("coastreach 1\n")
	if c.CoastReach != 1 {
		t.Fatalf("CoastReach %v, want 1", c.CoastReach)
	}
	// A unit or two of rounding and of the start on a pixel deep enough.
	if pinned > 3 || free < pinned+4 {
		t.Errorf("the coast point moved %v units with coastreach 1, %v by default: want at most 3, and the default well further", pinned, free)
	}
	for _, bad := range []string{"coastreach 0\n", "coastreach 500\n", "coastreach\n"} {
		if _, err := ParseConfig("x.seeds", func(string) ([]byte, error) { return []byte(tinyConfig + bad), nil }); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// TestRingAcrossCut rasterises, on a board of Asia (cut at 110° W),
// rings that cross the cut: one far away (North America) adds nothing to
// the picture, where its chord across the plane used to invert whole rows
// of it; one that starts beyond the cut but lies mostly on the board
// (Eurasia, whose file starts at Chukotka) is drawn where it is.
func TestRingAcrossCut(t *testing.T) {
	c := &Config{Proj: NewLCC(1, 1, 20, 70), Frame: [4]float64{40, 100, 0, 50}, Width: 200}
	fr := newFrame(c)
	// North America, roughly: from the Atlantic west over the cut to Alaska.
	america := []LonLat{{-60, 45}, {-120, 30}, {-160, 60}, {-100, 70}}
	if !c.Proj.acrossCut(america) {
		t.Fatal("the test ring does not cross the cut")
	}
	for i, v := range rasterise(fr, c.Proj, [][]LonLat{america}) {
		if v {
			t.Fatalf("a ring beyond the cut drew land at (%d, %d)", i%fr.w, i/fr.w)
		}
	}
	// A continent over the board's middle that runs east over the cut,
	// written from its far end.
	asia := []LonLat{{-100, 45}, {50, 45}, {50, 20}, {120, 20}, {179, 30}, {-170, 40}}
	land := rasterise(fr, c.Proj, [][]LonLat{asia})
	at := func(lon, lat float64) bool {
		x, y := fr.at(c.Proj, LonLat{lon, lat})
		return land[int(y)*fr.w+int(x)]
	}
	if !at(70, 30) || at(70, 10) || at(70, 48) {
		t.Errorf("the continent across the cut is not where it is: (70, 30) %v, (70, 10) %v, (70, 48) %v", at(70, 30), at(70, 10), at(70, 48))
	}
	if _, ok := c.Proj.unwrap([]LonLat{{-180, -80}, {-60, -80}, {60, -80}, {179, -80}, {180, -90}, {-180, -90}}); ok {
		t.Error("a ring round the pole was unwrapped")
	}
}

// TestPixels checks the pixels directive: the geometry carries the width
// of its pictures (none written at the default, so that the boards drawn
// at 1000 pixels keep their bytes), and the placer sizes the marks for
// it, so that the same board drawn at a quarter of the width keeps its
// unit and label points several times as far apart in map units.
func TestPixels(t *testing.T) {
	racetest.Sequential(t)
	kinds := Kinds{"a": {Centre: true}, "b": {}, "s": {Sea: true}}
	build := func(extra string) (*mapgeo.Geometry, []byte) {
		c, err := ParseConfig("tiny.seeds", func(string) ([]byte, error) {
			return []byte(tinyConfig + "width 1000\n" + extra), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		geo, _, err := Build(c, kinds, tinyLand(), "test")
		if err != nil {
			t.Fatal(err)
		}
		b, err := Encode(geo)
		if err != nil {
			t.Fatal(err)
		}
		return geo, b
	}
	gap := func(g *mapgeo.Geometry) float64 {
		p := g.Provinces["a"]
		return math.Hypot(float64(p.Unit[0]-p.Label[0]), float64(p.Unit[1]-p.Label[1]))
	}
	plain, plainJSON := build("")
	if plain.Pixels != 0 || plain.PictureWidth() != mapgeo.DefaultPixels || bytes.Contains(plainJSON, []byte(`"pixels"`)) {
		t.Errorf("by default: Pixels %d, PictureWidth %d, written %v; want 0, %d, not written",
			plain.Pixels, plain.PictureWidth(), bytes.Contains(plainJSON, []byte(`"pixels"`)), mapgeo.DefaultPixels)
	}
	for _, c := range []struct {
		px       int
		wider    bool // the marks are larger in map units than the default's
		narrower bool
	}{{500, true, false}, {2000, false, true}} {
		geo, b := build(fmt.Sprintf("pixels %d\n", c.px))
		back, err := mapgeo.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		if geo.Pixels != c.px || back.PictureWidth() != c.px {
			t.Errorf("pixels %d: built %d, read back %d", c.px, geo.Pixels, back.PictureWidth())
		}
		t.Logf("pixels %d: unit–label %.1f units (default %.1f)", c.px, gap(geo), gap(plain))
		if c.wider && gap(geo) < 1.5*gap(plain) || c.narrower && gap(geo) > gap(plain)/1.5 {
			t.Errorf("pixels %d: unit and label %.1f units apart, %.1f at the default width: the marks were not sized for the width", c.px, gap(geo), gap(plain))
		}
	}
	for _, bad := range []string{"pixels 100\n", "pixels 1800.5\n", "pixels\n", "pixels 9000\n"} {
		if _, err := ParseConfig("x.seeds", func(string) ([]byte, error) { return []byte(tinyConfig + bad), nil }); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// TestUnseed drops a province's seeds, or an impassable region's by its
// (possibly many-word) name, and nothing else: how a board that includes
// another's seeds makes a province of what the other leaves impassable.
func TestUnseed(t *testing.T) {
	files := map[string]string{
		"base.seeds": "variant base\nprojection lcc 40 62 50 12\nframe -12 43 32.5 74\n" +
			"aaa 1 1\nwater aaa 2 2\nbbb 3 3\nimpassable Great Isle 4 4\nimpassable Other 5 5\n",
		"top.seeds": "include base.seeds\nvariant top\nunseed aaa\nunseed Great Isle\nisl 4 4\n",
	}
	c, err := ParseConfig("top.seeds", func(name string) ([]byte, error) { return []byte(files[name]), nil })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range c.Seeds {
		got = append(got, fmt.Sprintf("%s@%g,%g", s.Name, s.At[0], s.At[1]))
	}
	want := []string{"bbb@3,3", "Other@5,5", "isl@4,4"}
	if !slices.Equal(got, want) {
		t.Errorf("seeds after unseed = %v, want %v", got, want)
	}
	if c.Variant != "top" {
		t.Errorf("variant = %q, want the including file's", c.Variant)
	}
}

// TestRiver burns a river across the tiny continent: its channel is
// water, the sea seeded on it holds the channel, and the land on either
// bank is cut apart where it ran; a malformed directive is refused with
// its line.
func TestRiver(t *testing.T) {
	kinds := Kinds{"a": {}, "b": {}, "s": {Sea: true}, "r": {Sea: true}}
	// A river down the middle of the continent from its north shore to
	// its south shore, 10 px wide (20 map units at width 200 and the
	// default 1000-pixel pictures: 2 units).
	cfg := tinyConfig + "river 10 10 49 10 41\nr 10 46.5\n"
	c, err := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(cfg), nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rivers) != 1 || c.Rivers[0].Width != 10 || len(c.Rivers[0].Points) != 2 {
		t.Fatalf("parsed rivers %+v", c.Rivers)
	}
	_, g, err := Build(c, kinds, tinyLand(), "test")
	if err != nil {
		t.Fatal(err)
	}
	fr := newFrame(c)
	at := func(lon, lat float64) string {
		x, y := fr.at(c.Proj, LonLat{lon, lat})
		return g.Names[g.Label[int(y)*g.W+int(x)]]
	}
	if got := at(10, 46.5); got != "r" {
		t.Errorf("the river's seed is in %q, want r", got)
	}
	if got := at(10, 47.5); got != "r" {
		t.Errorf("the channel north of the seed is %q, want the river's", got)
	}
	if got := at(8, 45.5); got != "a" {
		t.Errorf("the west bank is %q, want a", got)
	}
	if got := at(12, 45.5); got != "b" {
		t.Errorf("the east bank is %q, want b", got)
	}
	// Without the river the same middle is land.
	c0, _ := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(tinyConfig), nil })
	_, g0, err := Build(c0, tinyKinds, tinyLand(), "test")
	if err != nil {
		t.Fatal(err)
	}
	x, y := fr.at(c.Proj, LonLat{10, 47.5})
	if n := g0.Names[g0.Label[int(y)*g0.W+int(x)]]; n == "s" {
		t.Errorf("without a river the middle is %q: the test proves nothing", n)
	}
	for _, bad := range []string{"river 10 1 2\n", "river 0 1 2 3 4\n", "river 5 1 2 3\n", "river x 1 2 3 4\n"} {
		if _, err := ParseConfig("tiny.seeds", func(string) ([]byte, error) { return []byte(tinyConfig + bad), nil }); err == nil || !strings.Contains(err.Error(), "tiny.seeds:") {
			t.Errorf("%q: error %v, want one that names the line", bad, err)
		}
	}
}
