package picture

import (
	"math"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/judge"
)

// The room that things take on the board, so that lines and marks can
// keep clear of labels, and tests can check that the geometry's points
// leave room for what is drawn at them. mapgeo/carve places the standard
// boards' points with the same sizes in mind, in map units and a little
// padded (its constants armyR, hullHalfW and the like); TestGeometryRoom
// checks the committed boards against the sizes here.

// labelSize is the font size of province labels, and labelHalo the width
// of their white outline, in pixels.
const (
	labelSize = 10.5
	labelHalo = 2.2
	centreR   = 6.2 // an owned centre marker's radius, in pixels
	// constructR is the outer radius of the larger marker of a centre
	// under construction (34-35-36), its dashed outline included.
	constructR = 8.2
)

// box is an axis-aligned rectangle in map units.
type box struct{ x0, y0, x1, y1 float64 }

func boxAround(c pt, hw, hh float64) box { return box{c.X - hw, c.Y - hh, c.X + hw, c.Y + hh} }

func (a box) overlaps(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

func (a box) contains(p pt) bool { return p.X > a.x0 && p.X < a.x1 && p.Y > a.y0 && p.Y < a.y1 }

func (a box) grow(m float64) box { return box{a.x0 - m, a.y0 - m, a.x1 + m, a.y1 + m} }

// unitBoxes are what a unit drawn at c with radius u covers, outline
// included (ow): an army's disc and, wider and flatter, a fleet's hull
// (see drawer.hull).
func unitBoxes(c pt, u, ow float64) [2]box {
	return [2]box{boxAround(c, u+ow, u+ow), {c.X - 1.45*u - ow, c.Y - 0.75*u - ow, c.X + 1.45*u + ow, c.Y + 0.8*u + ow}}
}

// underUnit reports whether b overlaps a unit drawn at c.
func (d *drawer) underUnit(b box, c pt) bool {
	ub := unitBoxes(c, d.u, 0.7*d.px)
	return b.overlaps(ub[0]) || b.overlaps(ub[1])
}

// labelBox is what province p's label covers, halo included. The width
// is reckoned at 0.62 em a letter, on the large side for the Go Bold
// font's capitals and small letters, so that no measuring is needed.
func (d *drawer) labelBox(p judge.Loc) box {
	n := float64(len(d.m.Locs[p].Name))
	size := labelSize * d.px
	hw := 0.31*size*n + labelHalo*d.px/2
	hh := 0.4*size + labelHalo*d.px/2
	return boxAround(d.labelAt(p), hw, hh)
}

// clearOfLabel shortens the end of path until the head of an arrow w wide
// drawn along it lies outside box lb, so that the head never covers the
// name it points at; it keeps at least a short stub of the path.
func clearOfLabel(path []pt, lb box, step, w float64) []pt {
	total := pathLen(path)
	for s := step; len(path) >= 2 && headUnder(path, lb, w); s += step {
		if s > total*0.6 {
			break
		}
		path = trimEnd(path, step)
	}
	return path
}

// headCovers reports whether the head of an arrow w wide along path
// reaches into box lb.
func headCovers(path []pt, lb box, w float64) bool {
	if len(path) < 2 {
		return false
	}
	for _, p := range arrowHead(path, w) {
		if lb.contains(p) {
			return true
		}
	}
	return false
}

// headUnder reports whether any part of the head of an arrow w wide along
// path lies in box lb: a grid of points across the head, not only its
// corners, which let a head run through its target's name with its tip
// beyond it (A Gre-Ser on the standard board). The target's name is held
// to it; other names to headCovers, which leaves a bowed arrow more ways.
func headUnder(path []pt, lb box, w float64) bool {
	if len(path) < 2 {
		return false
	}
	h := arrowHead(path, w)
	a, ab, ac := h[0], h[1].sub(h[0]), h[2].sub(h[0])
	for i := 0; i <= headSamples; i++ {
		for j := 0; i+j <= headSamples; j++ {
			s, u := float64(i)/headSamples, float64(j)/headSamples
			if lb.contains(a.add(ab.mul(s)).add(ac.mul(u))) {
				return true
			}
		}
	}
	return false
}

// headSamples is how many steps headUnder takes along each side of a head.
const headSamples = 8

// title is a province's abbreviation as a label writes it: "Nth".
func title(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// wrapLimit is how long, as a share of the picture's width, a schematic
// line may run across before it is drawn as two stubs off the picture's
// sides: on a board cut across an ocean (Cold War's Pacific), the
// neighbours at the two edges would otherwise be joined by a line right
// across the map.
const wrapLimit = 0.5

// stubLen is the length in pixels of a wrapped edge's stubs.
const stubLen = 26.0

// wraps reports whether a line from a to b is drawn as stubs off the
// sides on the schematic of a board round the globe (judge.Map.Wraps):
// one across half the picture. A drawn globe's lines across its cut are
// drawn whole to its sides (globe.go).
func (b *board) wraps(from, to pt) bool {
	return b.schematic && b.m.Wraps && math.Abs(to.X-from.X) > wrapLimit*b.w
}

// wrapDir is the way a wrapped line leaves from: towards the side of the
// picture nearer to it, as if the board went round.
func (b *board) wrapDir(from, to pt) pt {
	dx := to.X - from.X
	return pt{dx - math.Copysign(b.w, dx), to.Y - from.Y}.unit()
}

// inside moves c, if need be, to within m of the board's edges.
func (b *board) inside(c pt, m float64) pt {
	return pt{math.Max(m, math.Min(b.w-m, c.X)), math.Max(m, math.Min(b.h-m, c.Y))}
}

// labelBoxes returns the boxes of every province's label, computed once
// per picture.
func (d *drawer) labelBoxes() []box {
	if d.lboxes == nil {
		for _, p := range d.m.Provinces() {
			d.lboxes = append(d.lboxes, d.labelBox(p))
		}
	}
	return d.lboxes
}

// keepClear returns the boxes an outcome mark keeps off: the labels, the
// centre markers (a bounce cross at a move's head stood on the centre
// it bounced from, Sweden's on Cold War), and the marks placed before it
// (avoid): two moves bounced from Lotharingia, on Western World 901,
// crossed their crosses.
func (d *drawer) keepClear() []box {
	if d.cboxes == nil {
		d.cboxes = slices.Clone(d.labelBoxes())
		for _, p := range d.pos.CenterList() {
			d.cboxes = append(d.cboxes, boxAround(d.centreAt(p), centreR*d.px, centreR*d.px))
		}
	}
	return d.cboxes
}

// avoid adds b, a mark's box, to those later marks keep off (keepClear).
func (d *drawer) avoid(b box) {
	d.cboxes = append(d.keepClear(), b)
	d.placed = append(d.placed, b)
}

// markClear is how far, in pixels, a bounce cross or a cut support's
// bars keep from a name (whose box holds its halo already): their own
// white halo.
const markClear = 1.5

// clearSpot returns a point on path, at distance back from its end or
// else as near to that as can be (further back first, then nearer the
// end), where a mark hw by hh each side of it covers no label and no
// centre marker; if there is none, the point at back.
func (d *drawer) clearSpot(path []pt, back, hw, hh float64) pt {
	at, _ := spotClearOf(path, back, hw, hh, d.px, d.keepClear())
	return at
}

// spotClearOf is clearSpot's search, step by step, clear of boxes: the
// point, and whether it is clear.
func spotClearOf(path []pt, back, hw, hh, step float64, boxes []box) (pt, bool) {
	total := pathLen(path)
	// Only the boxes near the path can be in the way: the mark is tried
	// at every pixel of it, and a board has hundreds of names and marks.
	reach := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range path {
		reach = box{min(reach.x0, p.X-hw), min(reach.y0, p.Y-hh), max(reach.x1, p.X+hw), max(reach.y1, p.Y+hh)}
	}
	var near []box
	for _, lb := range boxes {
		if reach.overlaps(lb) {
			near = append(near, lb)
		}
	}
	free := func(s float64) bool {
		b := boxAround(pointBack(path, s), hw, hh)
		for _, lb := range near {
			if b.overlaps(lb) {
				return false
			}
		}
		return true
	}
	for s := back; s < total; s += step {
		if free(s) {
			return pointBack(path, s), true
		}
	}
	for s := back - step; s >= 0; s -= step {
		if free(s) {
			return pointBack(path, s), true
		}
	}
	return pointBack(path, back), false
}

// badgeSpot returns where a badge of radius r goes beside the unit drawn
// at c: the first of a few places round the unit's top
// that covers no label, no centre marker (a neighbour's too: Budapest's
// build badge covered Vienna's centre on Fleet Rome) and no mark placed
// before it.
func (d *drawer) badgeSpot(c pt, r float64) pt {
	u := d.u
	spots := []pt{{-1.2 * u, -1.15 * u}, {1.2 * u, -1.15 * u}, {0, -1.6 * u}, {-1.75 * u, 0}, {1.75 * u, 0}, {0, 1.6 * u}}
	for _, s := range spots {
		b := boxAround(c.add(s), r, r)
		free := true
		for _, kb := range d.keepClear() {
			free = free && !b.overlaps(kb)
		}
		if free {
			d.avoid(b)
			return c.add(s)
		}
	}
	return c.add(spots[0])
}
