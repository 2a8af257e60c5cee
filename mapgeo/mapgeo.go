// Package mapgeo holds the drawn shape of a variant's board: the outline
// of every province, and the points where its label, units, supply-centre
// marker and coasts are drawn. The shapes are the project's own, made
// once by tools/mapgen from public-domain coastlines and committed as
// data (judge/variants/<variant>.geo.json), so that no build or test
// needs the network.
//
// The file format is JSON:
//
//	{"variant": "standard", "width": 2000, "height": 1600,
//	 "source": "how and from what the file was made",
//	 "pixels": 1800,   (optional: the pictures' width, Geometry.Pixels)
//	 "provinces": {"par": {"rings": [[x0, y0, x1, y1, ...], ...],
//	                       "label": [x, y], "unit": [x, y], "centre": [x, y],
//	                       "coasts": {"nc": [x, y]}, "dislodged": [x, y],
//	                       "dislodged_coasts": {"nc": [x, y]}}, ...},
//	 "impassable": [{"name": "Switzerland", "rings": [[...]]}],
//	 "exceptions": [{"a": "den", "b": "swe", "kind": "army", "why": "..."}]}
//
// Coordinates are integers in map units, x to the right and y down, inside
// the box width × height. A ring is a closed polygon written as a flat
// list of x, y pairs, without repeating the first point. Outer rings run
// clockwise on screen and holes the other way, so that both the nonzero
// and the even-odd fill rules draw them. Two regions that touch share the
// very same vertices along their common border: a border is a segment
// found in the rings of both, which is how the consistency check finds
// them. Impassable regions are land that is no province (Switzerland, and
// islands the game leaves out), or water that is none (Water set). Exceptions declare each pair whose border
// and adjacency disagree on purpose (straits, canals, Denmark–Sweden).
package mapgeo

// Point is a position in map units.
type Point [2]int

// Province is the drawn shape of one province of a map.
type Province struct {
	// Rings are the province's polygons: outer rings and holes, each a
	// flat x, y list (see the package comment).
	Rings [][]int `json:"rings"`
	// Label is where the province's abbreviation is written.
	Label Point `json:"label"`
	// Unit is where a unit in the province is drawn (for a province with
	// split coasts, an army; fleets stand at Coasts).
	Unit Point `json:"unit"`
	// Centre is where the supply-centre marker is drawn, for provinces that
	// are or may become a centre.
	Centre Point `json:"centre"`
	// Coasts maps a split coast's name ("nc") to where a fleet on it is drawn.
	Coasts map[string]Point `json:"coasts,omitempty"`
	// Dislodged is where a unit dislodged from the unit point is drawn,
	// beside the unit that dislodged it and still inside the province;
	// DislodgedCoasts the same for a fleet dislodged from a split coast.
	// Zero, or missing: the picture's own offset from the unit point.
	Dislodged       Point            `json:"dislodged,omitzero"`
	DislodgedCoasts map[string]Point `json:"dislodged_coasts,omitempty"`
}

// Region is a drawn area that is no province.
type Region struct {
	Name  string  `json:"name,omitempty"`
	Rings [][]int `json:"rings"`
	// Water marks water that no unit enters (a sea the published map
	// closes), drawn as water, not as land.
	Water bool `json:"water,omitempty"`
}

// Exception declares a pair of provinces whose shared border and
// adjacency disagree by design: adjacent without a border (a strait), or
// bordering without adjacency.
type Exception struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Kind string `json:"kind"` // "army" or "fleet": which adjacency the exception is about
	Why  string `json:"why"`
}

// Geometry is the drawn board of one variant.
type Geometry struct {
	Variant string `json:"variant"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Source  string `json:"source"`
	// Pixels is how many pixels wide the pictures of the board are
	// drawn (zero, or missing: DefaultPixels). Every mark of a picture
	// has a fixed size in pixels, so a board crowded at the usual width
	// (Youngstown Redux's Europe) is drawn wider, its marks no larger.
	Pixels     int                 `json:"pixels,omitempty"`
	Provinces  map[string]Province `json:"provinces"`
	Impassable []Region            `json:"impassable,omitempty"`
	Exceptions []Exception         `json:"exceptions,omitempty"`
}

// DefaultPixels is the width in pixels of a board's pictures unless its
// geometry says otherwise (Geometry.Pixels): every schematic's, and every
// drawn board's but the most crowded.
const DefaultPixels = 1000

// PictureWidth is the width in pixels of the board's pictures.
func (g *Geometry) PictureWidth() int {
	if g.Pixels > 0 {
		return g.Pixels
	}
	return DefaultPixels
}

// Inside reports whether pt lies inside the rings by the even-odd rule,
// as the pictures fill them.
func Inside(rings [][]int, pt Point) bool {
	px, py := float64(pt[0]), float64(pt[1])
	in := false
	for _, r := range rings {
		n := len(r) / 2
		for i := 0; i < n; i++ {
			x0, y0 := float64(r[2*i]), float64(r[2*i+1])
			j := (i + 1) % n
			x1, y1 := float64(r[2*j]), float64(r[2*j+1])
			if (y0 > py) != (y1 > py) && px < x0+(py-y0)*(x1-x0)/(y1-y0) {
				in = !in
			}
		}
	}
	return in
}
