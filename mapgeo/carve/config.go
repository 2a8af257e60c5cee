package carve

import (
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/gmdjudge/gmd/mapgeo"
)

// Config is a parsed seed file: the projection and box of the board, the
// seeds that divide land and sea into provinces, the points that override
// the automatic choice, and the declared exceptions.
//
// The seed file is plain text, one directive a line, # to the end of the
// line a comment:
//
//	variant <name>                       the variant the geometry is for
//	include <file>                       read another seed file here (relative)
//	projection lcc <lat1> <lat2> <lat0> <lon0>   Lambert conformal conic
//	frame <lonW> <lonE> <latS> <latN>   the box: its side meridians, bottom and top parallels
//	lens <lon> <lat> <radius> <k>        magnify by up to 1+k near a point (radius in map units)
//	stretch <k>                          draw the board k times as tall as the projection does
//	warp x <lonA> <lonB> <k>             draw the meridians between lonA and lonB k times as far apart
//	warp y <latA> <latB> <k>             draw the parallels between latA and latB k times as far apart
//	width <units>                        the box's width in map units
//	pixels <n>                           the pictures' width in pixels (default 1000)
//	minisland <pixels>                   smaller unseeded islands become sea
//	tolerance <units>                    Douglas–Peucker tolerance of borders
//	<province> <lon> <lat>               a seed (land on land, sea on water)
//	water <province> <lon> <lat>         a land province's seed on water
//	impassable <Name ...> <lon> <lat>    a seed of land (or a lake) that is no province
//	deep <Name ...> <lon> <lat>          a seed of water that is no province (drawn darker)
//	unseed <province>|<Name ...>         drop the seeds read so far for it (or an impassable region)
//	label|unit|centre <province> <lon> <lat>   place a point by hand
//	coast <province>/<coast> <lon> <lat> where a fleet on a split coast stands
//	coastreach <pixels>                  how far the placer may move those points (default 30)
//	except <a> <b> army|fleet <why ...>  a declared border/adjacency exception
//	box <province> <x0> <y0> <x1> <y1>   a sea drawn as a rectangle at the board's edge
//	river <width> <lon> <lat> <lon> <lat> ...   a channel of water along a line
//
// A box is an off-board sea (Youngstown Redux's boxes, which let fleets
// sail round the world): no real water is it, so it has no seeds; it is
// the rectangle between fractions x0..x1 of the board's width and y0..y1
// of its height (0 0 the top left), which must reach an edge of the board.
// It covers whatever land or sea lies there, and the seas seeded beside it
// grow up to its sides, so it borders exactly the seas next to it.
//
// A river is water burnt into the land before the provinces are carved:
// every pixel within half of width (in the pictures' pixels) of the line
// through its points. Natural Earth's land has no rivers, and some boards
// sail them (Three Kingdoms' Yangtze, Gateway West's Missouri): seed the
// river's sea provinces on the line, and they share the channel between
// them as seas share open water. A river no province is seeded on is
// taken by the nearest sea along it, so a river that is only a border
// between land provinces is not drawn this way.
type Config struct {
	Variant string
	Proj    LCC
	Frame   [4]float64   // lonW lonE latS latN
	Lenses  [][4]float64 // lon lat radius (map units) k
	// Stretch scales the board's height (1: as projected). A board that
	// spans the globe (Cold War) is twice as wide as it is tall in any
	// cylinder, and the pictures are drawn at one width: a stretch gives
	// its many small provinces room at the price of true shapes.
	Stretch float64
	// Warps widen or narrow bands of the board, across (x, between two
	// meridians) or up and down (y, between two parallels): a world
	// board narrows its empty oceans and widens its crowded lands.
	Warps []Warp
	Width int
	// Pixels is the width of the board's pictures (zero: the default,
	// mapgeo.DefaultPixels), written to the geometry. The marks keep
	// their size in pixels, so a wider picture gives a crowded board
	// room; the placer places them at this width.
	Pixels     int
	MinIsland  int
	Tolerance  float64
	Seeds      []Seed
	Points     map[string]LonLat // "par label", "par unit", "par centre", "stp/nc"
	Exceptions []mapgeo.Exception
	// CoastReach is how far, in the pictures' pixels, the placer may move
	// a split coast's fleet from its coast line. On a narrow isthmus
	// (Cold War's Central America, Korea) the placer's pull towards the
	// middle of the province brings the point nearer the other coast's
	// sea; a board whose coast points are set with care keeps them there.
	CoastReach float64
	Boxes      []Box
	Rivers     []River
}

// River is one river directive (see Config).
type River struct {
	Width  float64 // in the pictures' pixels
	Points []LonLat
	Where  string // file:line, for messages
}

// Box is an off-board sea drawn as a rectangle (see Config).
type Box struct {
	Name  string
	Rect  [4]float64 // x0 y0 x1 y1, fractions of the board's width and height
	Where string     // file:line, for messages
}

// Warp is one warp directive: between From and To (degrees of longitude
// for Axis 'x', of latitude for 'y') the board is drawn K times as wide
// (or tall) as the projection draws it; bands that overlap multiply.
type Warp struct {
	Axis     byte
	From, To float64
	K        float64
}

// Seed is one seed point. Province seeds on land claim land, on water
// (Water) claim water; impassable seeds claim land for a region that is
// no province, or water when Water is set too (the water a published map
// closes to every unit, as North Sea Wars closes the sea west of Britain).
type Seed struct {
	Name       string
	At         LonLat
	Water      bool
	Impassable bool
	Where      string // file:line, for messages
}

// ParseConfig reads the seed file name with read (which also reads the
// files it includes, by paths relative to it).
func ParseConfig(name string, read func(string) ([]byte, error)) (*Config, error) {
	c := &Config{Width: 2000, MinIsland: 300, Tolerance: 1, Stretch: 1, CoastReach: 30, Points: map[string]LonLat{}}
	if err := c.parse(name, read, 0); err != nil {
		return nil, err
	}
	if c.Variant == "" {
		return nil, fmt.Errorf("%s: no variant line", name)
	}
	if c.Proj.n == 0 {
		return nil, fmt.Errorf("%s: no projection line", name)
	}
	if c.Frame == [4]float64{} {
		return nil, fmt.Errorf("%s: no frame line", name)
	}
	return c, nil
}

func (c *Config) parse(name string, read func(string) ([]byte, error), depth int) error {
	if depth > 8 {
		return fmt.Errorf("%s: includes nest too deep", name)
	}
	src, err := read(name)
	if err != nil {
		return err
	}
	for i, line := range strings.Split(string(src), "\n") {
		where := fmt.Sprintf("%s:%d", name, i+1)
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		nums := func(from, n int) ([]float64, error) {
			if len(f) != from+n {
				return nil, fmt.Errorf("%s: %s wants %d numbers", where, f[0], n)
			}
			out := make([]float64, n)
			for j := range out {
				v, err := strconv.ParseFloat(f[from+j], 64)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", where, err)
				}
				out[j] = v
			}
			return out, nil
		}
		// lonlat parses the last two fields, after at least one name field.
		lonlat := func(min int) (LonLat, error) {
			if len(f) < min+2 {
				return LonLat{}, fmt.Errorf("%s: %s wants a name and lon lat", where, f[0])
			}
			v, err := nums(len(f)-2, 2)
			if err != nil {
				return LonLat{}, err
			}
			return LonLat{v[0], v[1]}, nil
		}
		switch f[0] {
		case "variant":
			if len(f) != 2 {
				return fmt.Errorf("%s: variant <name>", where)
			}
			c.Variant = f[1]
		case "include":
			if len(f) != 2 {
				return fmt.Errorf("%s: include <file>", where)
			}
			if err := c.parse(path.Join(path.Dir(name), f[1]), read, depth+1); err != nil {
				return err
			}
		case "projection":
			if len(f) < 2 || f[1] != "lcc" {
				return fmt.Errorf("%s: projection lcc <lat1> <lat2> <lat0> <lon0>", where)
			}
			v, err := nums(2, 4)
			if err != nil {
				return err
			}
			c.Proj = NewLCC(v[0], v[1], v[2], v[3])
		case "frame":
			v, err := nums(1, 4)
			if err != nil {
				return err
			}
			copy(c.Frame[:], v)
		case "lens":
			v, err := nums(1, 4)
			if err != nil {
				return err
			}
			if v[2] <= 0 || v[3] < 0 || v[3] >= 2.2 {
				return fmt.Errorf("%s: lens wants a positive radius and 0 <= k < 2.2", where)
			}
			c.Lenses = append(c.Lenses, [4]float64{v[0], v[1], v[2], v[3]})
		case "coastreach":
			v, err := nums(1, 1)
			if err != nil {
				return err
			}
			if v[0] < 1 || v[0] > 100 {
				return fmt.Errorf("%s: coastreach wants pixels from 1 to 100", where)
			}
			c.CoastReach = v[0]
		case "stretch":
			v, err := nums(1, 1)
			if err != nil {
				return err
			}
			if v[0] < 0.5 || v[0] > 2 {
				return fmt.Errorf("%s: stretch wants a number from 0.5 to 2", where)
			}
			c.Stretch = v[0]
		case "warp":
			if len(f) < 2 || (f[1] != "x" && f[1] != "y") {
				return fmt.Errorf("%s: warp x|y <from> <to> <k>", where)
			}
			v, err := nums(2, 3)
			if err != nil {
				return err
			}
			if v[0] >= v[1] || v[2] < 0.2 || v[2] > 5 {
				return fmt.Errorf("%s: warp wants from < to and k from 0.2 to 5", where)
			}
			c.Warps = append(c.Warps, Warp{Axis: f[1][0], From: v[0], To: v[1], K: v[2]})
		case "pixels":
			v, err := nums(1, 1)
			if err != nil {
				return err
			}
			if v[0] < 500 || v[0] > 4000 || v[0] != math.Trunc(v[0]) {
				return fmt.Errorf("%s: pixels wants a whole number from 500 to 4000", where)
			}
			c.Pixels = int(v[0])
		case "width", "minisland":
			v, err := nums(1, 1)
			if err != nil {
				return err
			}
			if v[0] < 1 || v[0] != math.Trunc(v[0]) {
				return fmt.Errorf("%s: %s wants a positive whole number", where, f[0])
			}
			if f[0] == "width" {
				c.Width = int(v[0])
			} else {
				c.MinIsland = int(v[0])
			}
		case "tolerance":
			v, err := nums(1, 1)
			if err != nil {
				return err
			}
			c.Tolerance = v[0]
		case "water":
			if len(f) != 4 {
				return fmt.Errorf("%s: water <province> <lon> <lat>", where)
			}
			at, err := lonlat(1)
			if err != nil {
				return err
			}
			c.Seeds = append(c.Seeds, Seed{Name: f[1], At: at, Water: true, Where: where})
		case "impassable", "deep":
			at, err := lonlat(2)
			if err != nil {
				return err
			}
			c.Seeds = append(c.Seeds, Seed{Name: strings.Join(f[1:len(f)-2], " "), At: at, Impassable: true, Water: f[0] == "deep", Where: where})
		case "river":
			if len(f) < 6 || len(f)%2 != 0 {
				return fmt.Errorf("%s: river <width> then two or more points, each <lon> <lat>", where)
			}
			v, err := nums(1, len(f)-1)
			if err != nil {
				return err
			}
			if v[0] <= 0 {
				return fmt.Errorf("%s: a river's width is a positive number of pixels", where)
			}
			r := River{Width: v[0], Where: where}
			for j := 1; j+1 < len(v); j += 2 {
				r.Points = append(r.Points, LonLat{v[j], v[j+1]})
			}
			c.Rivers = append(c.Rivers, r)
		case "unseed":
			if len(f) < 2 {
				return fmt.Errorf("%s: unseed <province> or unseed <Name ...>", where)
			}
			// A board that includes another may make a province of what
			// the other leaves impassable (Loeb9's Iceland and Ireland):
			// the name of an impassable region drops its seeds too.
			name := strings.Join(f[1:], " ")
			kept := c.Seeds[:0]
			for _, s := range c.Seeds {
				if s.Name != name {
					kept = append(kept, s)
				}
			}
			c.Seeds = kept
		case "label", "unit", "centre":
			if len(f) != 4 {
				return fmt.Errorf("%s: %s <province> <lon> <lat>", where, f[0])
			}
			at, err := lonlat(1)
			if err != nil {
				return err
			}
			c.Points[f[1]+" "+f[0]] = at
		case "coast":
			if len(f) != 4 || !strings.Contains(f[1], "/") {
				return fmt.Errorf("%s: coast <province>/<coast> <lon> <lat>", where)
			}
			at, err := lonlat(1)
			if err != nil {
				return err
			}
			c.Points[f[1]] = at
		case "box":
			if len(f) != 6 {
				return fmt.Errorf("%s: box <province> <x0> <y0> <x1> <y1>", where)
			}
			v, err := nums(2, 4)
			if err != nil {
				return err
			}
			if !(0 <= v[0] && v[0] < v[2] && v[2] <= 1 && 0 <= v[1] && v[1] < v[3] && v[3] <= 1) {
				return fmt.Errorf("%s: box wants 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1", where)
			}
			if v[0] > 0 && v[1] > 0 && v[2] < 1 && v[3] < 1 {
				return fmt.Errorf("%s: box %s does not reach the board's edge", where, f[1])
			}
			c.Boxes = append(c.Boxes, Box{Name: f[1], Rect: [4]float64{v[0], v[1], v[2], v[3]}, Where: where})
		case "except":
			if len(f) < 5 || (f[3] != "army" && f[3] != "fleet") {
				return fmt.Errorf("%s: except <a> <b> army|fleet <why>", where)
			}
			c.Exceptions = append(c.Exceptions, mapgeo.Exception{A: f[1], B: f[2], Kind: f[3], Why: strings.Join(f[4:], " ")})
		default:
			if len(f) != 3 {
				return fmt.Errorf("%s: unknown directive %q", where, f[0])
			}
			at, err := lonlat(1)
			if err != nil {
				return err
			}
			c.Seeds = append(c.Seeds, Seed{Name: f[0], At: at, Where: where})
		}
	}
	return nil
}

// LCC is a spherical Lambert conformal conic projection: it keeps shapes
// true, which is what a board needs, and bends the parallels the way the
// familiar maps of Europe do.
type LCC struct {
	n, f, rho0, lon0 float64
	lat0             float64
}

// NewLCC returns the projection with standard parallels lat1 and lat2,
// origin latitude lat0 and central meridian lon0, all in degrees.
func NewLCC(lat1, lat2, lat0, lon0 float64) LCC {
	r := math.Pi / 180
	p1, p2 := lat1*r, lat2*r
	t := func(p float64) float64 { return math.Tan(math.Pi/4 + p/2) }
	var n float64
	if lat1 == lat2 {
		n = math.Sin(p1)
	} else {
		n = math.Log(math.Cos(p1)/math.Cos(p2)) / math.Log(t(p2)/t(p1))
	}
	f := math.Cos(p1) * math.Pow(t(p1), n) / n
	return LCC{n: n, f: f, rho0: f / math.Pow(t(lat0*r), n), lon0: lon0, lat0: lat0}
}

// Project returns the position of ll on the plane, x east and y north, in
// earth radii.
func (p LCC) Project(ll LonLat) (x, y float64) {
	return p.projectTurned(p.turn(ll[0]), ll[1])
}

// projectTurned projects the point dl degrees east of the central
// meridian, at latitude lat; dl may lie beyond ±180° (see unwrap).
func (p LCC) projectTurned(dl, lat float64) (x, y float64) {
	r := math.Pi / 180
	lat = math.Max(-89.5, math.Min(89.5, lat))
	rho := p.f / math.Pow(math.Tan(math.Pi/4+lat*r/2), p.n)
	th := p.n * dl * r
	return rho * math.Sin(th), p.rho0 - rho*math.Cos(th)
}

// turn returns lon's angle east of the central meridian, in (−180, 180]
// degrees up to rounding. It keeps the cut of the cone on the far side of
// the globe, so that a ring that Natural Earth closes at ±180° stays one
// closed curve.
func (p LCC) turn(lon float64) float64 {
	dl := lon - p.lon0
	for dl < -180 {
		dl += 360
	}
	for dl > 180 {
		dl -= 360
	}
	return dl
}

// acrossCut reports whether ring r crosses the cut, the meridian opposite
// the central one: its points then fall on both side edges of a board
// that spans the globe (Cold War), joined by edges across the whole
// picture.
func (p LCC) acrossCut(r []LonLat) bool {
	for i := range r {
		if math.Abs(p.turn(r[i][0])-p.turn(r[(i+1)%len(r)][0])) > 180 {
			return true
		}
	}
	return false
}

// unwrap returns the turns (see turn) of ring r's points, followed round
// the ring without the jump at the cut: a ring across the cut then lies
// whole on one side of it, beyond ±180°, as one closed curve. It reports
// false for a ring that goes round the pole (Antarctica), which no
// unwrapping closes.
func (p LCC) unwrap(r []LonLat) ([]float64, bool) {
	out := make([]float64, len(r))
	step := func(a, b float64) float64 { return math.Remainder(p.turn(b)-p.turn(a), 360) }
	for i := range r {
		if i == 0 {
			out[i] = p.turn(r[0][0])
			continue
		}
		out[i] = out[i-1] + step(r[i-1][0], r[i][0])
	}
	closing := out[len(r)-1] + step(r[len(r)-1][0], r[0][0])
	if math.Abs(closing-out[0]) >= 1 {
		return nil, false
	}
	// The ring starts wherever its file does (Eurasia at Chukotka): turn
	// it whole so that its bulk, not its start, lies within ±180°.
	mean := 0.0
	for _, v := range out {
		mean += v / float64(len(out))
	}
	shift := 360 * math.Round(mean/360)
	for i := range out {
		out[i] -= shift
	}
	return out, true
}

// roundPole closes a ring that goes once round a pole, as Antarctica's
// does, so that a board spanning the globe can fill it: it returns the
// ring's turns (see turn) and latitudes, starting at the point just past
// the cut and followed round without the jump there, so that they run
// from one side edge of the board to the other; then the first point
// again, one turn on, and two points at the pole (beyond the board's
// bottom or top edge), below it and below the first. The chord at the
// cut, which would join the two side edges across the picture, becomes
// the board's edge, and the continent is filled from its coast to the
// edge. It reports false for any other
// ring across the cut (an islet astride it), whose unwrapped turns close.
func (p LCC) roundPole(r []LonLat) (turns, lats []float64, ok bool) {
	n := len(r)
	start := -1
	for i := range r {
		if math.Abs(p.turn(r[i][0])-p.turn(r[(i+n-1)%n][0])) > 180 {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, nil, false
	}
	turns, lats = make([]float64, 0, n+2), make([]float64, 0, n+2)
	mean := 0.0
	for k := range n {
		ll := r[(start+k)%n]
		t := p.turn(ll[0])
		if k > 0 {
			t = turns[k-1] + math.Remainder(t-p.turn(r[(start+k-1)%n][0]), 360)
		}
		turns, lats = append(turns, t), append(lats, ll[1])
		mean += ll[1] / float64(n)
	}
	closing := turns[n-1] + math.Remainder(turns[0]-p.turn(r[(start+n-1)%n][0]), 360)
	if math.Abs(math.Abs(closing-turns[0])-360) >= 1 {
		return nil, nil, false
	}
	pole := math.Copysign(90, mean)
	turns = append(turns, closing, closing, turns[0])
	lats = append(lats, lats[0], pole, pole)
	return turns, lats, true
}
