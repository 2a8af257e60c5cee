package carve

import (
	"maps"
	"math"
	"slices"

	"github.com/gmdjudge/gmd/mapgeo"
)

// The placement of a board's marks. Each province has a label, a unit
// point (and one per split coast), a dislodged unit's point beside each,
// and, where a centre may be, a centre marker; the pictures draw a mark of
// a known size at each. A board reads at a glance when every mark lies
// inside its province, is nearer another mark of its province than any
// mark of another, and covers no mark of another province nor another
// kind of mark of its own. place starts from a first guess and moves one
// mark at a time to the pixel near it that costs least against those
// rules, round after round, until no move helps: a local search that
// always visits the marks in the same order, so that the result depends
// on nothing but the input.

// Mark sizes in output pixels, as package picture draws them (units of
// radius 10, labels of 10.5 px type) at any width
// (mapgeo.Geometry.PictureWidth), each with its outline and a little to
// spare; picture's TestPlacement checks the boards with the picture's own
// sizes.
const (
	pxArmy    = 11.5  // an army's disc, each side
	pxHullW   = 16.0  // a fleet's hull, each side
	pxHullTop = 9.0   // above the point
	pxHullBot = 9.5   // below it
	pxLetter  = 3.4   // half the width of a label's letter
	pxLabelW  = 2.0   // and a label's halo, each side
	pxLabelH  = 6.0   // half a label's height
	pxCentre  = 7.2   // a centre marker
	pxConstr  = 9.2   // a centre under construction (34-35-36)
	pxRing    = 17.5  // the dashed ring round a dislodged unit
	pxDisX    = -17.5 // where a dislodged unit goes by default, from its unit
	pxDisY    = -14.5
	pxGap     = 3.0 // how much nearer its own marks each mark must be
)

// Kinds of mark.
const (
	mkLabel = iota
	mkUnit
	mkDislodged
	mkCentre
)

// mark is one thing drawn at a point of a province.
type mark struct {
	region int
	kind   int
	coast  string // "" or the split coast of a unit or dislodged mark
	shape  []box  // what it covers, relative to its point
	extent box    // the box round all of shape, relative to its point
	body   []box  // what of it must lie in the province (nil: shape)
	at     [2]float64
	home   [2]float64 // the first guess, which it is pulled back to
	anchor int        // a dislodged mark's unit mark; a label's or centre's unit mark
	reach  float64    // how far from home it may go
	// ghost is the unit point of a province no unit enters: it anchors
	// the label but is never drawn, so it stays put, covers nothing and
	// is no mark to be near.
	ghost bool
}

// offset moves the boxes bs, relative to a point, to at.
func offset(bs []box, at [2]float64) []box {
	out := make([]box, len(bs))
	for i, b := range bs {
		out[i] = box{at[0] + b[0], at[1] + b[1], at[0] + b[2], at[1] + b[3]}
	}
	return out
}

// mayOverlap reports whether marks a and b may overlap: units of one
// province never stand there together (an army, a fleet on a coast), and
// a dislodged one is drawn half over its attacker on purpose.
func mayOverlap(a, b *mark) bool {
	ua := a.kind == mkUnit || a.kind == mkDislodged
	ub := b.kind == mkUnit || b.kind == mkDislodged
	if a.region == b.region && ua && ub {
		return true
	}
	// Two dislodged units of neighbours are seldom drawn at once.
	return a.kind == mkDislodged && b.kind == mkDislodged
}

// placer holds a board's marks and what costing them needs.
type placer struct {
	g     *Grid
	s     float64 // map units per output pixel
	marks []mark
	// Per pixel: the region whose piece (the pixels marks go on) holds
	// it deep enough, or -1. Pieces never share a pixel, and a slice
	// answers faster than a set per region: own is asked millions of
	// times.
	pieceOf []int32
}

func (pl *placer) px(v float64) float64 { return v * pl.s }

// minDeep is the least chamfer depth (5 a pixel) of a mark's point in its
// province, so that the traced outline keeps it inside.
const minDeep = 5 * 3

// own reports whether map point at is on a pixel of region r's piece, deep
// enough that the traced outline keeps it inside.
func (pl *placer) own(r int, at [2]float64) bool {
	x, y := int(at[0]), int(at[1])
	if x < 0 || y < 0 || x >= pl.g.W || y >= pl.g.H {
		return false
	}
	i := y*pl.g.W + x
	return pl.pieceOf[i] == int32(r)
}

// share is the least part of any of the boxes bs that lies on region
// r's pixels.
func (pl *placer) share(r int, bs []box) float64 {
	const n = 8
	least := 1.0
	for _, b := range bs {
		in := 0
		for i := range n {
			for j := range n {
				x := int(b[0] + (float64(i)+0.5)*(b[2]-b[0])/n)
				y := int(b[1] + (float64(j)+0.5)*(b[3]-b[1])/n)
				if x >= 0 && y >= 0 && x < pl.g.W && y < pl.g.H && pl.g.Label[y*pl.g.W+x] == int32(r) {
					in++
				}
			}
		}
		least = math.Min(least, float64(in)/(n*n))
	}
	return least
}

// alone is the cost of mark k at at by itself: outside its province,
// mostly outside it, or away from where it would best go.
func (pl *placer) alone(k int, at [2]float64) float64 {
	m := &pl.marks[k]
	if !pl.own(m.region, at) {
		return math.Inf(1)
	}
	c := 0.0
	body := m.shape
	if m.body != nil {
		body = m.body
	}
	f := pl.share(m.region, offset(body, at))
	if f < 0.6 {
		return math.Inf(1) // the eye would give it to the neighbour
	}
	if f < 0.7 {
		c += 2e4 * (0.7 - f)
	}
	i := int(at[1])*pl.g.W + int(at[0])
	depth := math.Min(float64(pl.g.Dist[i])/5, pl.px(12))
	c -= 3 * depth
	ideal := m.home
	switch m.kind {
	case mkDislodged:
		u := pl.marks[m.anchor].at
		// Beside its attacker, any side, the default side a little
		// preferred.
		ideal = [2]float64{u[0] + pl.px(pxDisX), u[1] + pl.px(pxDisY)}
		if dist(at, u) > pl.px(40) {
			return math.Inf(1) // too far to read as the unit its attacker pushed off
		}
		c += 0.3*dist(at, ideal) + 3*math.Max(0, dist(at, u)-pl.px(30))
	case mkLabel:
		u := pl.marks[m.anchor].at
		ideal = [2]float64{u[0], u[1] + pl.px(pxArmy+pxLabelH+1)}
		c += 1 * dist(at, ideal)
	case mkCentre:
		u := pl.marks[m.anchor].at
		ideal = [2]float64{u[0] + pl.px(pxHullW+pxCentre+1), u[1] - pl.px(3)}
		c += 1 * dist(at, ideal)
	default:
		c += 1 * dist(at, ideal)
	}
	return c
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// pair is the cost of marks k and j covering each other.
func (pl *placer) pair(k int, at [2]float64, j int) float64 {
	a, b := &pl.marks[k], &pl.marks[j]
	if j == k || a.ghost || b.ghost || mayOverlap(a, b) {
		return 0
	}
	// Marks whose extents do not meet cannot cover each other: most
	// pairs end here.
	ea, eb := a.extent, b.extent
	if min(at[0]+ea[2], b.at[0]+eb[2]) <= max(at[0]+ea[0], b.at[0]+eb[0]) ||
		min(at[1]+ea[3], b.at[1]+eb[3]) <= max(at[1]+ea[1], b.at[1]+eb[1]) {
		return 0
	}
	// The boxes are moved to their points here rather than by cover,
	// which would allocate: the search calls pair millions of times.
	c := 0.0
	for _, xs := range a.shape {
		x := box{at[0] + xs[0], at[1] + xs[1], at[0] + xs[2], at[1] + xs[3]}
		for _, ys := range b.shape {
			y := box{b.at[0] + ys[0], b.at[1] + ys[1], b.at[0] + ys[2], b.at[1] + ys[3]}
			if o := x.overlap(y); o > 0 {
				c += 1e4 * (o + 1)
			}
		}
	}
	return c
}

// near returns, for mark j, its distance to the nearest other mark of its
// own province and of any other, leaving out mark skip.
func (pl *placer) near(j, skip int) (own, other float64) {
	own, other = math.Inf(1), math.Inf(1)
	at, region := pl.marks[j].at, pl.marks[j].region
	for i := range pl.marks {
		if i == j || i == skip || pl.marks[i].ghost {
			continue
		}
		// A distance is never less than either side of it (math.Hypot
		// keeps that), so a mark farther along x or y than the nearest
		// so far cannot be nearer: most marks end here, without a Hypot.
		dx, dy := math.Abs(pl.marks[i].at[0]-at[0]), math.Abs(pl.marks[i].at[1]-at[1])
		if pl.marks[i].region == region {
			if dx < own && dy < own {
				own = min(own, dist(pl.marks[i].at, at))
			}
		} else if dx < other && dy < other {
			other = min(other, dist(pl.marks[i].at, at))
		}
	}
	return own, other
}

// nearCost is what mark j costs when it is nearer another province's mark
// than its own.
func (pl *placer) nearCost(own, other float64) float64 {
	if math.IsInf(own, 1) {
		return 0 // a lone name (an impassable province's) pairs with nothing
	}
	if v := math.Min(own, pl.px(300)) + pl.px(pxGap) - other; v > 0 {
		return 2e3 * (v + 1)
	}
	return 0
}

// placeRounds bounds the local search; it settles in far fewer.
const placeRounds = 30

// place improves the marks' points, round after round.
func (pl *placer) place(rounds int) {
	n := len(pl.marks)
	for round := 0; round < rounds; round++ {
		moved := false
		for k := 0; k < n; k++ {
			if pl.improve(k) {
				moved = true
			}
		}
		if !moved {
			// Settled: shift the provinces that still break a rule.
			bad := map[int]bool{}
			for k := range pl.marks {
				if !bad[pl.marks[k].region] && pl.violation(k) > 0 {
					bad[pl.marks[k].region] = true
				}
			}
			for _, r := range slices.Sorted(maps.Keys(bad)) {
				if pl.shift(r) {
					moved = true
				}
			}
		}
		if !moved {
			return
		}
	}
}

// violation is what mark k costs by breaking the rules (not by straying
// from its ideal): 0 when it keeps them all.
func (pl *placer) violation(k int) float64 {
	m := &pl.marks[k]
	if m.ghost {
		return 0
	}
	body := m.shape
	if m.body != nil {
		body = m.body
	}
	c := 0.0
	if !pl.own(m.region, m.at) {
		return math.Inf(1)
	}
	if f := pl.share(m.region, offset(body, m.at)); f < 0.58 {
		c += 2e5 * (0.58 - f)
	}
	for j := range pl.marks {
		c += pl.pair(k, m.at, j)
	}
	return c + pl.nearCost(pl.near(k, -1))
}

// shift moves all the marks of a region together, to the offset that
// costs least: where one mark at a time is stuck (a label that cannot
// leave a dislodged unit's way without the unit moving too), the whole
// province may still move. It reports whether it moved them.
func (pl *placer) shift(region int) bool {
	var own []int
	for k := range pl.marks {
		if pl.marks[k].region == region {
			own = append(own, k)
		}
	}
	var hood []int
	for j := range pl.marks {
		for _, k := range own {
			if dist(pl.marks[j].at, pl.marks[k].at) < pl.px(110) {
				hood = append(hood, j)
				break
			}
		}
	}
	start := make([][2]float64, len(own))
	for i, k := range own {
		start[i] = pl.marks[k].at
	}
	total := func() float64 {
		c := 0.0
		for _, j := range hood {
			if pl.marks[j].region == region {
				c += pl.alone(j, pl.marks[j].at)
				for _, i := range hood {
					if pl.marks[i].region != region {
						c += pl.pair(j, pl.marks[j].at, i)
					}
				}
			}
			c += pl.nearCost(pl.near(j, -1))
		}
		return c
	}
	best, bestD := total(), [2]float64{}
	step := math.Max(3, pl.px(2))
	lim := pl.px(30)
	for dy := -lim; dy <= lim; dy += step {
		for dx := -lim; dx <= lim; dx += step {
			if dx == 0 && dy == 0 {
				continue
			}
			for i, k := range own {
				pl.marks[k].at = [2]float64{start[i][0] + dx, start[i][1] + dy}
			}
			if c := total(); c < best-1e-9 {
				best, bestD = c, [2]float64{dx, dy}
			}
		}
	}
	for i, k := range own {
		pl.marks[k].at = [2]float64{start[i][0] + bestD[0], start[i][1] + bestD[1]}
	}
	return bestD != [2]float64{}
}

// improve moves mark k to the best point near it, and reports whether it
// moved.
func (pl *placer) improve(k int) bool {
	m := &pl.marks[k]
	if m.ghost {
		return false
	}
	reach := m.reach
	// The marks that a candidate could touch or be nearest to.
	var hood []int
	for j := range pl.marks {
		if dist(pl.marks[j].at, m.at) < reach+pl.px(150) {
			hood = append(hood, j)
		}
	}
	// For each neighbour, its nearest own and other distances without k.
	type nb struct {
		j          int
		own, other float64
	}
	nbs := make([]nb, 0, len(hood))
	for _, j := range hood {
		if j == k {
			continue
		}
		own, other := pl.near(j, k)
		nbs = append(nbs, nb{j, own, other})
	}
	// cost is what mark k costs at at, or any value of at least bound
	// once it is clear that it costs that much: past alone's part every
	// term is a cost of zero or more, so a candidate that reaches bound
	// halfway cannot end below it.
	cost := func(at [2]float64, bound float64) float64 {
		c := pl.alone(k, at)
		if math.IsInf(c, 1) {
			return c
		}
		own, other := math.Inf(1), math.Inf(1)
		for _, x := range nbs {
			if c >= bound {
				return c
			}
			c += pl.pair(k, at, x.j)
			d := dist(at, pl.marks[x.j].at)
			o, t := x.own, x.other
			if pl.marks[x.j].region == m.region {
				own = min(own, d)
				o = min(o, d)
			} else {
				other = min(other, d)
				t = min(t, d)
			}
			c += pl.nearCost(o, t)
		}
		c += pl.nearCost(own, other)
		// Marks that anchor on k (a unit's label, centre, dislodged self)
		// keep their own cost in view: moving the unit moves their ideal.
		return c
	}
	best, bestAt := cost(m.at, math.Inf(1)), m.at
	try := func(at [2]float64) {
		if at != m.at && dist(at, m.home) <= reach {
			if c := cost(at, best-1e-9); c < best-1e-9 {
				best, bestAt = c, at
			}
		}
	}
	// A coarse sweep of the reach, then a fine one round the best.
	step := math.Max(3, pl.px(3))
	for dy := -reach; dy <= reach; dy += step {
		for dx := -reach; dx <= reach; dx += step {
			try([2]float64{math.Round(m.home[0] + dx), math.Round(m.home[1] + dy)})
		}
	}
	c := bestAt
	for dy := -step; dy <= step; dy++ {
		for dx := -step; dx <= step; dx++ {
			try([2]float64{c[0] + dx, c[1] + dy})
		}
	}
	if bestAt == m.at {
		return false
	}
	m.at = bestAt
	return true
}

// newPlacer makes the marks of every drawn province from its first-guess
// points in geo: label, unit, coasts, dislodged units, centre. A split
// coast's fleet moves at most coastReach pixels from its first guess.
func newPlacer(g *Grid, geo *mapgeo.Geometry, drawn []int, pieces [][]int, kinds Kinds, coastReach float64) *placer {
	pl := &placer{g: g, s: float64(g.W) / float64(geo.PictureWidth()), pieceOf: make([]int32, g.W*g.H)}
	for i := range pl.pieceOf {
		pl.pieceOf[i] = -1
	}
	s := pl.s
	for _, r := range drawn {
		for _, i := range pieces[r] {
			if g.Dist[i] >= minDeep {
				pl.pieceOf[i] = int32(r)
			}
		}
	}
	pt := func(p mapgeo.Point) [2]float64 { return [2]float64{float64(p[0]), float64(p[1])} }
	armyBox := boxAt(0, 0, pxArmy*s, pxArmy*s)
	hullBox := box{-pxHullW * s, -pxHullTop * s, pxHullW * s, pxHullBot * s}
	ringBox := boxAt(0, 0, pxRing*s, pxRing*s)
	reach := 70 * s
	for _, r := range drawn {
		name := g.Names[r]
		p := geo.Provinces[name]
		k := kinds[name]
		add := func(m mark) int {
			m.region, m.home = r, m.at
			if m.reach == 0 {
				m.reach = reach
			}
			m.extent = m.shape[0]
			for _, b := range m.shape[1:] {
				m.extent = box{min(m.extent[0], b[0]), min(m.extent[1], b[1]), max(m.extent[2], b[2]), max(m.extent[3], b[3])}
			}
			pl.marks = append(pl.marks, m)
			return len(pl.marks) - 1
		}
		// Every unit point keeps room for either unit, an army's disc and
		// a fleet's hull: picture's TestGeometryRoom reckons so.
		shape := []box{armyBox, hullBox}
		if k.Impassable {
			u := add(mark{kind: mkUnit, shape: shape, at: pt(p.Unit), ghost: true})
			hw := pxLetter*float64(len(name)) + pxLabelW
			add(mark{kind: mkLabel, shape: []box{boxAt(0, 0, hw*s, pxLabelH*s)}, at: pt(p.Label), anchor: u})
			continue
		}
		u := add(mark{kind: mkUnit, shape: shape, at: pt(p.Unit)})
		add(mark{kind: mkDislodged, shape: []box{ringBox}, body: shape, at: pt(p.Unit), anchor: u})
		for _, co := range slices.Sorted(maps.Keys(p.Coasts)) {
			c := add(mark{kind: mkUnit, coast: co, shape: shape, at: pt(p.Coasts[co]), reach: coastReach * s})
			add(mark{kind: mkDislodged, coast: co, shape: []box{ringBox}, body: []box{hullBox}, at: pt(p.Coasts[co]), anchor: c})
		}
		hw := pxLetter*float64(len(name)) + pxLabelW
		add(mark{kind: mkLabel, shape: []box{boxAt(0, 0, hw*s, pxLabelH*s)}, at: pt(p.Label), anchor: u})
		if k.Centre || k.Construct {
			cr := pxCentre
			if k.Construct {
				cr = pxConstr
			}
			add(mark{kind: mkCentre, shape: []box{boxAt(0, 0, cr*s, cr*s)}, at: pt(p.Centre), anchor: u})
		}
	}
	// A first guess too near the border starts from the nearest pixel
	// deep enough instead.
	for i := range pl.marks {
		m := &pl.marks[i]
		if pl.own(m.region, m.at) {
			continue
		}
		best := math.Inf(1)
		for _, q := range pieces[m.region] {
			at := [2]float64{float64(q % g.W), float64(q / g.W)}
			if d := dist(at, m.at); d < best && pl.pieceOf[q] == int32(m.region) {
				best, m.home = d, at
			}
		}
		m.at = m.home
	}
	// A dislodged mark starts where the picture would put it by default,
	// if that is in its province.
	for i := range pl.marks {
		m := &pl.marks[i]
		if m.kind != mkDislodged {
			continue
		}
		u := pl.marks[m.anchor].at
		if d := [2]float64{math.Round(u[0] + pxDisX*s), math.Round(u[1] + pxDisY*s)}; pl.own(m.region, d) {
			m.at = d
		}
		m.home = u
	}
	return pl
}

// store writes the marks' points back into geo.
func (pl *placer) store(geo *mapgeo.Geometry) {
	for _, m := range pl.marks {
		name := pl.g.Names[m.region]
		p := geo.Provinces[name]
		at := mapgeo.Point{int(m.at[0]), int(m.at[1])}
		switch {
		case m.kind == mkLabel:
			p.Label = at
		case m.kind == mkCentre:
			p.Centre = at
		case m.kind == mkUnit && m.coast == "":
			p.Unit = at
		case m.kind == mkUnit:
			p.Coasts[m.coast] = at
		case m.kind == mkDislodged && m.coast == "":
			p.Dislodged = at
		default:
			if p.DislodgedCoasts == nil {
				p.DislodgedCoasts = map[string]mapgeo.Point{}
			}
			p.DislodgedCoasts[m.coast] = at
		}
		geo.Provinces[name] = p
	}
}
