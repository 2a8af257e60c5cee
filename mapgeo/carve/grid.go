package carve

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gmdjudge/gmd/mapgeo"
)

// Grid is the board as pixels, one map unit each: which region every pixel
// belongs to.
type Grid struct {
	W, H  int
	Land  []bool  // after small islands were sunk and lakes filled
	Label []int32 // index into Names, per pixel
	// Names are the regions: province ids first (sorted), then impassable
	// regions by name, then unnamed islands ("").
	Names      []string
	Impassable []bool // per region
	Sea        []bool // per region: water (sea provinces and deep impassable water)
	// First is the pixel of each region's first seed, or -1: the piece of
	// the region that holds it is where its points go.
	First []int
	// Dist is each pixel's chamfer distance (5 per pixel) to the nearest
	// pixel of another region or the box's edge.
	Dist []int32
}

// frame is the projected box and its scale to map units.
type frame struct {
	x0, y0, s float64 // map x = (X - x0)*s, map y = (y0 - Y)*s*sy
	sy        float64 // the seed file's stretch
	wx, wy    warp    // the seed file's warps, of projected x and y
	w, h      int
	lenses    []lens // in map units
	// globe is set for a board whose frame spans most of the globe's
	// longitudes (Cold War, World): only there does the cut, the meridian opposite
	// the central one, fall inside the picture.
	globe bool
}

// lens magnifies the board around a point, as the printed boards enlarge
// Britain and the Low Countries so that their small provinces have room:
// a point at distance r from the middle moves out to r·(1 + k·exp(−r²/R²)).
// For k below 2.2 that stays one-to-one, and far from the middle it fades
// to nothing, so the box's edges stay put.
type lens struct {
	x, y, r, k float64
}

func (l lens) apply(x, y float64) (float64, float64) {
	dx, dy := x-l.x, y-l.y
	f := 1 + l.k*math.Exp(-(dx*dx+dy*dy)/(l.r*l.r))
	return l.x + dx*f, l.y + dy*f
}

// warp maps a projected coordinate to a warped one, piecewise linearly:
// v is the slope up to at[0], between at[i-1] and at[i] it is k[i], and
// past the last point 1 again. The empty warp is the identity.
type warp struct {
	at, k []float64
}

// newWarp makes the warp of the bands [a, b) with factor k, in projected
// units; where bands overlap, their factors multiply.
func newWarp(bands [][3]float64) warp {
	var w warp
	for _, b := range bands {
		w.at = append(w.at, b[0], b[1])
	}
	slices.Sort(w.at)
	w.at = slices.Compact(w.at)
	w.k = make([]float64, len(w.at))
	for i := 1; i < len(w.at); i++ {
		mid := (w.at[i-1] + w.at[i]) / 2
		w.k[i] = 1
		for _, b := range bands {
			if b[0] <= mid && mid < b[1] {
				w.k[i] *= b[2]
			}
		}
	}
	return w
}

// of returns the warped coordinate of v.
func (w warp) of(v float64) float64 {
	if len(w.at) == 0 || v <= w.at[0] {
		return v
	}
	out := w.at[0]
	for i := 1; i < len(w.at); i++ {
		if v <= w.at[i] {
			return out + (v-w.at[i-1])*w.k[i]
		}
		out += (w.at[i] - w.at[i-1]) * w.k[i]
	}
	return out + v - w.at[len(w.at)-1]
}

func newFrame(c *Config) frame {
	p := c.Proj
	// Bands across are measured along the central parallel, bands up and
	// down along the central meridian: on Cold War's near-cylinder these
	// are the bands between meridians and between parallels.
	var bx, by [][3]float64
	lat0 := p.lat0
	for _, w := range c.Warps {
		if w.Axis == 'x' {
			a, _ := p.Project(LonLat{w.From, lat0})
			b, _ := p.Project(LonLat{w.To, lat0})
			bx = append(bx, [3]float64{min(a, b), max(a, b), w.K})
		} else {
			_, a := p.Project(LonLat{p.lon0, w.From})
			_, b := p.Project(LonLat{p.lon0, w.To})
			// y is measured downwards after the warp; warp the negated
			// projected y, which grows southwards too.
			by = append(by, [3]float64{min(-a, -b), max(-a, -b), w.K})
		}
	}
	wx, wy := newWarp(bx), newWarp(by)
	pxw, _ := p.Project(LonLat{c.Frame[0], c.Frame[2]})
	pxe, _ := p.Project(LonLat{c.Frame[1], c.Frame[2]})
	_, pys := p.Project(LonLat{p.lon0, c.Frame[2]})
	_, pyn := p.Project(LonLat{p.lon0, c.Frame[3]})
	xw, xe := wx.of(pxw), wx.of(pxe)
	yn, ys := wy.of(-pyn), wy.of(-pys)
	s := float64(c.Width) / (xe - xw)
	sy := c.Stretch
	if sy == 0 {
		sy = 1 // a Config built without ParseConfig: no stretch
	}
	f := frame{x0: xw, y0: yn, s: s, sy: sy, wx: wx, wy: wy, w: c.Width, h: int(math.Ceil((ys - yn) * s * sy)), globe: c.Frame[1]-c.Frame[0] >= 270}
	for _, l := range c.Lenses {
		x, y := f.flat(p, LonLat{l[0], l[1]})
		f.lenses = append(f.lenses, lens{x, y, l[2], l[3]})
	}
	return f
}

// flat returns the map position of ll before the lenses.
func (f frame) flat(p LCC, ll LonLat) (float64, float64) {
	return f.flatTurned(p, p.turn(ll[0]), ll[1])
}

// flatTurned is flat for the point dl degrees east of the central meridian.
func (f frame) flatTurned(p LCC, dl, lat float64) (float64, float64) {
	x, y := p.projectTurned(dl, lat)
	return (f.wx.of(x) - f.x0) * f.s, (f.wy.of(-y) - f.y0) * f.s * f.sy
}

func (f frame) at(p LCC, ll LonLat) (float64, float64) {
	return f.atTurned(p, p.turn(ll[0]), ll[1])
}

// atTurned is at for the point dl degrees east of the central meridian.
func (f frame) atTurned(p LCC, dl, lat float64) (float64, float64) {
	x, y := f.flatTurned(p, dl, lat)
	for _, l := range f.lenses {
		x, y = l.apply(x, y)
	}
	return x, y
}

// rasterise fills the land mask from the rings by the even-odd rule,
// sampling each pixel at its centre.
func rasterise(fr frame, p LCC, rings [][]LonLat) []bool {
	rows := make([][]float64, fr.h)
	for _, r := range rings {
		across := p.acrossCut(r)
		var pts [][2]float64
		if fr.globe && across {
			// A ring round the pole (Antarctica) is closed along the
			// board's bottom edge and filled. A board cut through the
			// Bering Sea also leaves a few islets astride the cut (St
			// Lawrence, Umnak); they have no side to be drawn on and
			// sink, as islets do.
			turns, lats, ok := p.roundPole(r)
			if !ok {
				continue
			}
			for i := range turns {
				x, y := fr.atTurned(p, turns[i], lats[i])
				pts = append(pts, [2]float64{x, y})
			}
			rows = fill(fr, pts, rows)
			continue
		}
		// On a regional board the cut lies outside the picture, and a
		// ring across it (Eurasia, which reaches over Chukotka; North
		// America, when a board of Eurasia is centred on Asia) is
		// followed round without the jump at the cut, so that it lies
		// whole beyond the cut and adds no chord across the picture.
		turns, unwrapped := []float64(nil), false
		if across {
			turns, unwrapped = p.unwrap(r)
		}
		pts = make([][2]float64, len(r))
		for i, ll := range r {
			x, y := fr.at(p, ll)
			if unwrapped {
				x, y = fr.atTurned(p, turns[i], ll[1])
			}
			pts[i] = [2]float64{x, y}
		}
		rows = fill(fr, pts, rows)
	}
	land := make([]bool, fr.w*fr.h)
	for row, xs := range rows {
		sort.Float64s(xs)
		for i := 0; i+1 < len(xs); i += 2 {
			c0 := int(math.Max(0, math.Ceil(xs[i]-0.5)))
			c1 := int(math.Min(float64(fr.w-1), math.Ceil(xs[i+1]-0.5)-1))
			for col := c0; col <= c1; col++ {
				land[row*fr.w+col] = true
			}
		}
	}
	return land
}

// fill adds to rows, per pixel row, the x of every crossing of the closed
// polygon pts with the row's centre line, for the even-odd fill.
func fill(fr frame, pts [][2]float64, rows [][]float64) [][]float64 {
	for i := range pts {
		a, b := pts[i], pts[(i+1)%len(pts)]
		if a[1] == b[1] {
			continue
		}
		lo, hi := math.Min(a[1], b[1]), math.Max(a[1], b[1])
		r0 := int(math.Max(0, math.Ceil(lo-0.5)))
		r1 := int(math.Min(float64(fr.h-1), math.Ceil(hi-0.5)-1))
		for row := r0; row <= r1; row++ {
			yc := float64(row) + 0.5
			x := a[0] + (yc-a[1])*(b[0]-a[0])/(b[1]-a[1])
			rows[row] = append(rows[row], x)
		}
	}
	return rows
}

// nearFrame keeps the rings with a point within 30° of the frame. The
// others cannot reach the board, but one that crosses the cone's cut (the
// meridian opposite the central one, which runs through the Americas when
// the board is in Asia) projects with a chord across the whole plane, and
// the even-odd fill would turn a band of the board inside out.
func nearFrame(c *Config, rings [][]LonLat) [][]LonLat {
	const margin = 30
	lon0 := c.Proj.lon0
	rel := func(lon float64) float64 { return math.Remainder(lon-lon0, 360) }
	w, e := rel(c.Frame[0])-margin, rel(c.Frame[1])+margin
	var out [][]LonLat
	for _, r := range rings {
		for _, ll := range r {
			if l := rel(ll[0]); l >= w && l <= e && ll[1] >= c.Frame[2]-margin && ll[1] <= c.Frame[3]+margin {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// components labels the 4-connected components of pixels whose mask value
// is want, numbering them in scan order; other pixels get -1.
func components(w, h int, mask []bool, want bool) ([]int32, int) {
	comp := make([]int32, w*h)
	for i := range comp {
		comp[i] = -1
	}
	n := 0
	var stack []int
	for i := range comp {
		if mask[i] != want || comp[i] >= 0 {
			continue
		}
		comp[i] = int32(n)
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := q%w, q/w
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d[0], y+d[1]
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				j := ny*w + nx
				if mask[j] == want && comp[j] < 0 {
					comp[j] = int32(n)
					stack = append(stack, j)
				}
			}
		}
		n++
	}
	return comp, n
}

// grow spreads labels from the seeded pixels over the pixels that pass,
// each pixel taking the label of the seed nearest to it along a path
// through passing pixels (chamfer distance, 5 straight, 7 diagonal). Ties
// go to the seed listed first, so the result depends on nothing but the
// input. It returns the distances; unreached pixels keep label -1.
func grow(w, h int, label []int32, pass func(int) bool, seeds []int) []int32 {
	const inf = math.MaxInt32
	dist := make([]int32, w*h)
	for i := range dist {
		dist[i] = inf
	}
	var buckets [8][]int32 // Dial's algorithm: edge weights are at most 7
	for _, s := range seeds {
		if dist[s] == 0 {
			continue
		}
		dist[s] = 0
		buckets[0] = append(buckets[0], int32(s))
	}
	pending := len(buckets[0])
	steps := [8][3]int{{1, 0, 5}, {-1, 0, 5}, {0, 1, 5}, {0, -1, 5}, {1, 1, 7}, {-1, 1, 7}, {1, -1, 7}, {-1, -1, 7}}
	for d := int32(0); pending > 0; d++ {
		b := &buckets[d%8]
		for k := 0; k < len(*b); k++ {
			q := int((*b)[k])
			pending--
			if dist[q] != d {
				continue
			}
			x, y := q%w, q/w
			for _, st := range steps {
				nx, ny := x+st[0], y+st[1]
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				j := ny*w + nx
				if !pass(j) {
					continue
				}
				if st[2] == 7 && (!pass(y*w+nx) || !pass(ny*w+x)) {
					continue // no cutting across a corner of what does not pass
				}
				nd := d + int32(st[2])
				if nd < dist[j] {
					dist[j] = nd
					label[j] = label[q]
					buckets[nd%8] = append(buckets[nd%8], int32(j))
					pending++
				}
			}
		}
		*b = (*b)[:0]
	}
	return dist
}

// Kinds tells the carver what the map's provinces are: for each province
// id, whether it is a sea, and its split coasts.
type Kinds map[string]ProvinceKind

// ProvinceKind is what the carver needs to know of one province.
type ProvinceKind struct {
	Sea       bool
	Shore     bool     // land a fleet may stand on
	Centre    bool     // a supply centre: its marker needs room
	Construct bool     // a centre may be raised here (34-35-36): a larger marker
	Coasts    []string // split coasts ("nc", "sc"), or none
	// Impassable is a province no unit enters (Loeb9's Switzerland): it
	// is drawn with its name only, so only its label needs room.
	Impassable bool
}

// label builds the grid from the land rings and the seeds.
func label(c *Config, kinds Kinds, rings [][]LonLat) (*Grid, frame, error) {
	fr := newFrame(c)
	w, h := fr.w, fr.h
	land := rasterise(fr, c.Proj, nearFrame(c, rings))
	burnRivers(land, fr, c)

	// Regions: provinces, then impassable names.
	var provs, imps []string
	for n := range kinds {
		provs = append(provs, n)
	}
	slices.Sort(provs)
	deep := map[string]bool{} // impassable names by whether their seeds are on water
	var errs []string
	for _, s := range c.Seeds {
		if !s.Impassable {
			continue
		}
		if d, ok := deep[s.Name]; ok && d != s.Water {
			errs = append(errs, fmt.Sprintf("%s: %s has seeds on land and on water", s.Where, s.Name))
		}
		deep[s.Name] = s.Water
		if !slices.Contains(imps, s.Name) {
			imps = append(imps, s.Name)
		}
	}
	slices.Sort(imps)
	g := &Grid{W: w, H: h}
	g.Names = append(append(g.Names, provs...), imps...)
	index := map[string]int32{}
	for i, n := range g.Names {
		index[n] = int32(i)
		g.Impassable = append(g.Impassable, i >= len(provs))
		g.Sea = append(g.Sea, (i < len(provs) && kinds[n].Sea) || (i >= len(provs) && deep[n]))
	}

	// Seed pixels, checked against the mask.
	type seedPx struct {
		px     int
		region int32
		water  bool
		where  string
	}
	var seeds []seedPx
	var lakes []Seed
	for _, s := range c.Seeds {
		r, ok := index[s.Name]
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: %s is no province of %s", s.Where, s.Name, c.Variant))
			continue
		}
		x, y := fr.at(c.Proj, s.At)
		if x < 0 || y < 0 || x >= float64(w) || y >= float64(h) {
			errs = append(errs, fmt.Sprintf("%s: seed of %s is outside the box", s.Where, s.Name))
			continue
		}
		px := int(y)*w + int(x)
		water := g.Sea[r] || s.Water
		if s.Impassable && !s.Water && !land[px] {
			// A lake the board draws as no province's (the Caspian, the
			// Great Lakes): unseeded water fills below, and is checked
			// then.
			lakes = append(lakes, s)
			seeds = append(seeds, seedPx{px, r, false, s.Where})
			continue
		}
		if land[px] == water {
			what := "land"
			if water {
				what = "water"
			}
			errs = append(errs, fmt.Sprintf("%s: seed of %s is not on %s (%d, %d)", s.Where, s.Name, what, int(x), int(y)))
			continue
		}
		seeds = append(seeds, seedPx{px, r, water, s.Where})
	}
	if len(errs) > 0 {
		return nil, fr, errors.New(strings.Join(errs, "\n"))
	}

	// Unseeded small islands sink; unseeded water (lakes) fills.
	comp, n := components(w, h, land, true)
	seeded := make([]bool, n)
	size := make([]int, n)
	for _, s := range seeds {
		if !s.water && comp[s.px] >= 0 {
			seeded[comp[s.px]] = true
		}
	}
	for _, k := range comp {
		if k >= 0 {
			size[k]++
		}
	}
	for i, k := range comp {
		if k >= 0 && !seeded[k] && size[k] < c.MinIsland {
			land[i] = false
		}
	}
	comp, n = components(w, h, land, false)
	seeded = make([]bool, n)
	for _, s := range seeds {
		if s.water {
			seeded[comp[s.px]] = true
		}
	}
	for i, k := range comp {
		if k >= 0 && !seeded[k] {
			land[i] = true
		}
	}
	for _, s := range lakes {
		if x, y := fr.at(c.Proj, s.At); !land[int(y)*w+int(x)] {
			errs = append(errs, fmt.Sprintf("%s: seed of %s is on the sea, not on land or a lake", s.Where, s.Name))
		}
	}
	if len(errs) > 0 {
		return nil, fr, errors.New(strings.Join(errs, "\n"))
	}

	lbl := make([]int32, w*h)
	for i := range lbl {
		lbl[i] = -1
	}
	g.First = make([]int, len(g.Names))
	for i := range g.First {
		g.First[i] = -1
	}
	boxed, err := placeBoxes(c, g, index, land, lbl)
	if err != nil {
		return nil, fr, err
	}
	for _, s := range seeds {
		if boxed[s.px] {
			return nil, fr, fmt.Errorf("%s: seed of %s is inside box %s", s.where, g.Names[s.region], g.Names[lbl[s.px]])
		}
	}
	var landSeeds, waterSeeds []int
	for _, s := range seeds {
		if g.First[s.region] < 0 {
			g.First[s.region] = s.px
		}
		if lbl[s.px] >= 0 {
			continue // two seeds on one pixel: the first listed wins
		}
		lbl[s.px] = s.region
		if s.water {
			waterSeeds = append(waterSeeds, s.px)
		} else {
			landSeeds = append(landSeeds, s.px)
		}
	}
	grow(w, h, lbl, func(i int) bool { return land[i] }, landSeeds)
	grow(w, h, lbl, func(i int) bool { return !land[i] && !boxed[i] }, waterSeeds)

	// Land that no seed reached is an unnamed impassable island.
	unreached := make([]bool, w*h)
	for i := range lbl {
		unreached[i] = lbl[i] < 0
	}
	comp, n = components(w, h, unreached, true)
	base := int32(len(g.Names))
	for k := 0; k < n; k++ {
		g.First = append(g.First, -1)
		g.Names = append(g.Names, "")
		g.Impassable = append(g.Impassable, true)
		g.Sea = append(g.Sea, false)
	}
	for i, k := range comp {
		if k >= 0 {
			lbl[i] = base + k
		}
	}
	g.Land, g.Label = land, lbl

	// Distance of every pixel to its region's edge.
	var edge []int
	for i := range lbl {
		x, y := i%w, i/w
		if x == 0 || y == 0 || x == w-1 || y == h-1 ||
			lbl[i-1] != lbl[i] || lbl[i+1] != lbl[i] || lbl[i-w] != lbl[i] || lbl[i+w] != lbl[i] {
			edge = append(edge, i)
		}
	}
	// A pixel's nearest edge pixel is one of its own region's: the way to
	// any other region crosses its own edge first.
	scratch := make([]int32, w*h)
	g.Dist = grow(w, h, scratch, func(int) bool { return true }, edge)
	return g, fr, nil
}

// placeBoxes labels the pixels of each box of c (see Config) with its
// province, as water, and returns which pixels the boxes cover: the seas
// then grow around them, never into them. A box must be a sea with no
// seeds, and boxes must not overlap.
func placeBoxes(c *Config, g *Grid, index map[string]int32, land []bool, lbl []int32) ([]bool, error) {
	w, h := g.W, g.H
	boxed := make([]bool, w*h)
	var errs []string
	for _, b := range c.Boxes {
		r, ok := index[b.Name]
		if !ok || g.Impassable[r] || !g.Sea[r] {
			errs = append(errs, fmt.Sprintf("%s: box %s is no sea of %s", b.Where, b.Name, c.Variant))
			continue
		}
		if g.First[r] >= 0 {
			errs = append(errs, fmt.Sprintf("%s: %s is boxed twice", b.Where, b.Name))
			continue
		}
		for _, s := range c.Seeds {
			if s.Name == b.Name {
				errs = append(errs, fmt.Sprintf("%s: box %s has a seed too (%s)", b.Where, b.Name, s.Where))
			}
		}
		x0, x1 := int(math.Round(b.Rect[0]*float64(w))), int(math.Round(b.Rect[2]*float64(w)))
		y0, y1 := int(math.Round(b.Rect[1]*float64(h))), int(math.Round(b.Rect[3]*float64(h)))
		if x1-x0 < 2 || y1-y0 < 2 {
			errs = append(errs, fmt.Sprintf("%s: box %s is too small", b.Where, b.Name))
			continue
		}
	cells:
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				i := y*w + x
				if boxed[i] {
					errs = append(errs, fmt.Sprintf("%s: box %s overlaps box %s", b.Where, b.Name, g.Names[lbl[i]]))
					break cells
				}
				boxed[i], land[i], lbl[i] = true, false, r
			}
		}
		g.First[r] = (y0+y1)/2*w + (x0+x1)/2
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	return boxed, nil
}

// burnRivers makes water of every pixel of land within half a river's
// width of its line (see Config).
func burnRivers(land []bool, fr frame, c *Config) {
	pixels := c.Pixels
	if pixels == 0 {
		pixels = mapgeo.DefaultPixels
	}
	for _, r := range c.Rivers {
		half := r.Width / 2 * float64(fr.w) / float64(pixels)
		var line [][2]float64
		for _, p := range r.Points {
			x, y := fr.at(c.Proj, p)
			line = append(line, [2]float64{x, y})
		}
		for k := 0; k+1 < len(line); k++ {
			a, b := line[k], line[k+1]
			x0, x1 := int(math.Floor(min(a[0], b[0])-half)), int(math.Ceil(max(a[0], b[0])+half))
			y0, y1 := int(math.Floor(min(a[1], b[1])-half)), int(math.Ceil(max(a[1], b[1])+half))
			for y := max(y0, 0); y <= min(y1, fr.h-1); y++ {
				for x := max(x0, 0); x <= min(x1, fr.w-1); x++ {
					if segmentDist([2]float64{float64(x) + 0.5, float64(y) + 0.5}, a, b) <= half {
						land[y*fr.w+x] = false
					}
				}
			}
		}
	}
}

// segmentDist is the distance from p to the segment from a to b.
func segmentDist(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((p[0]-a[0])*dx+(p[1]-a[1])*dy)/l))
	}
	return math.Hypot(p[0]-a[0]-t*dx, p[1]-a[1]-t*dy)
}
