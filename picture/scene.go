package picture

import (
	"image/color"
	"math"
)

// A scene is the picture as a list of shapes in drawing order, in map
// units; the SVG and PNG backends both write it, so the two pictures show
// the same thing.
type scene struct {
	w, h    float64 // the whole picture, legend included, in map units
	s       float64 // map units per output pixel
	px      int     // the width in pixels it is drawn at (0: outputWidth)
	title   string
	desc    string
	elems   []elem
	cache   *rasterCache // the board's shapes, once rasterised; nil: none
	statics int          // how many shapes are static (elem.static)
	// quarters rounds edge coverage to quarters (coverQuarters) rather
	// than halves: a replay's frames, which are drawn narrower than
	// their board to fit a mail, with lines thinner than a pixel. All
	// of a replay's frames round alike, so that its weight follows its
	// width as ReplayParts expects.
	quarters bool
}

// pixels is the width in pixels sc is drawn at: its board's picture
// width, or the width a replay scaled it to.
func (sc *scene) pixels() int {
	if sc.px > 0 {
		return sc.px
	}
	return outputWidth
}

type elemKind uint8

const (
	kPath   elemKind = iota + 1 // rings: polygons (closed) or a polyline
	kCircle                     // c, r
	kText                       // text at c
)

// fill is how a closed shape is filled: a colour, and optionally a
// pattern drawn in ink over it. A zero fill (alpha 0) draws nothing.
type fill struct {
	c       color.NRGBA
	pattern int
	ink     color.NRGBA
}

// elem is one shape. class names what it is, for the SVG's readers and
// tests ("unit army", "order move failed"); title, when set, is the text
// a screen reader or a mouse hover gives.
type elem struct {
	kind   elemKind
	group  string // the SVG group (layer) it belongs to
	class  string
	title  string
	rings  [][]pt
	closed bool
	c      pt
	r      float64
	text   string
	size   float64 // font size in map units
	anchor byte    // 'm' centred on c, 's' starting at c
	bold   bool
	fill   fill
	stroke color.NRGBA // alpha 0: no stroke
	width  float64
	dash   []float64   // on, off lengths in map units; nil: solid
	halo   color.NRGBA // text: an outline that keeps it legible on any ground
	haloW  float64
	// static numbers, from 1, the shapes that are the same in every
	// picture of a board but for their colours (the board and its
	// labels), so that the rasteriser can keep what it made of them.
	static int
}

// add appends e to the scene in group.
func (sc *scene) add(group string, e elem) {
	e.group = group
	sc.elems = append(sc.elems, e)
}

// circleRing approximates a circle by a polygon for the rasteriser, with
// enough sides that it looks round at radius r pixels.
func circleRing(c pt, r, pxR float64) []pt {
	n := int(math.Max(12, math.Min(64, pxR*2.5)))
	ring := make([]pt, n)
	for i := range ring {
		a := 2 * math.Pi * float64(i) / float64(n)
		ring[i] = pt{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)}
	}
	return ring
}
