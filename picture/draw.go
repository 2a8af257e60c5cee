package picture

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/internal/length"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/report"
)

// The layers of the picture, bottom to top; each is a group in the SVG.
const (
	gBoard   = "board"
	gCentres = "centres"
	gLabels  = "labels"
	gOrders  = "orders"
	gUnits   = "units"
	gMarks   = "outcomes"
	gLegend  = "legend"
)

// drawer builds the scene of one position.
type drawer struct {
	b   *board
	m   *judge.Map
	pos *judge.Position
	res *judge.Resolution
	sc  *scene
	ps  []powerStyle
	px  float64 // map units per pixel
	u   float64 // unit radius

	unitAt   []pt               // per province: where its unit is drawn
	moved    map[judge.Loc][]pt // per province: the drawn path of its unit's move
	results  []judge.OrderResult
	dislodge []bool // per province: its unit is dislodged (movement results)
	lboxes   []box  // the labels' boxes, once computed (labelBoxes)
	struck   []pt   // where units are struck out (removalMark), for reletter
	cboxes   []box  // the labels' and centre markers' boxes (keepClear)
	heads    []box  // the boxes of the moves' arrow heads drawn so far
	placed   []box  // the marks' boxes that later marks keep off (avoid)
	later    []func()

	// group, when set, puts every shape added in that group, whatever
	// layer it names: the legend's key borrows the order and mark shapes.
	group string

	// statics, while set, numbers the shapes added (elem.static): the
	// board and its labels, which are the same shapes, in the same
	// order, in every picture of a board.
	statics  bool
	nstatics int
}

// layers orders the groups from bottom to top.
// Centre markers and labels lie above the order lines, so that a line that
// crosses one goes under it and both read; units and marks lie above
// them, and the board's points (and the marks' places) keep labels clear
// of both (see room.go).
var layers = map[string]int{gBoard: 0, gOrders: 1, gCentres: 2, gLabels: 3, gUnits: 4, gMarks: 5, gLegend: 6}

// add appends a shape to the scene in its layer.
func (d *drawer) add(group string, e elem) {
	if d.group != "" {
		group = d.group
	}
	if d.statics {
		d.nstatics++
		e.static = d.nstatics
	}
	d.sc.add(group, e)
}

// build makes the scene of pos on board b, with the orders of res.
func build(b *board, pos *judge.Position, res *judge.Resolution) *scene {
	d := newDrawer(b, pos, res)
	d.statics = true
	d.board()
	d.labels()
	d.statics = false
	d.sc.statics = d.nstatics
	d.centres()
	d.standoffs()
	d.orders()
	d.units()
	d.reletter()
	d.legend()
	// Shapes are made in the order that suits the drawing (moves before
	// the supports that point at them) and drawn layer by layer.
	slices.SortStableFunc(d.sc.elems, func(a, b elem) int { return layers[a.group] - layers[b.group] })
	d.sc.title, d.sc.desc = d.titleText(), d.descText()
	return d.sc
}

// newDrawer is a drawer for pos on board b, with the orders of res, and
// an empty scene.
func newDrawer(b *board, pos *judge.Position, res *judge.Resolution) *drawer {
	m := pos.Map
	d := &drawer{b: b, m: m, pos: pos, res: res, ps: b.styles(), px: b.s,
		sc: &scene{w: b.w, s: b.s, px: b.px, cache: &b.raster}, moved: map[judge.Loc][]pt{}}
	d.u = 10 * b.s
	if b.schematic {
		d.u = math.Min(10, b.nodeR*0.8)
	}
	if res != nil {
		d.results = res.Results
	}
	d.dislodge = make([]bool, m.NumLocs())
	for _, r := range d.results {
		if r.Dislodged && d.valid(r.Order.Unit) {
			d.dislodge[m.Province(r.Order.Unit)] = true
		}
	}
	d.unitAt = make([]pt, m.NumLocs())
	for _, p := range m.Provinces() {
		l := p
		if u, ok := pos.UnitAt(p); ok {
			l = u.Loc
		}
		at := b.at[l]
		if d.dislodge[p] {
			at = d.dislodgedAt(l)
		}
		d.unitAt[p] = at
	}
	return d
}

func (d *drawer) valid(l judge.Loc) bool { return int(l) < d.m.NumLocs() }

func (d *drawer) style(p judge.Power) powerStyle {
	if int(p) < len(d.ps) {
		return d.ps[p]
	}
	return powerStyle{Unit: colNoPower, Tint: colLand, Home: colLand, Text: colInk, Letter: "?"}
}

// dislodgedAt is where a unit dislodged from l is drawn: the geometry's
// point for it, chosen inside the province, or else up and to the left of
// l's point, where neither the label (under the unit) nor the centre
// marker (to its right) is.
func (d *drawer) dislodgedAt(l judge.Loc) pt {
	if int(l) < len(d.b.dislodged) && d.b.dislodged[l] != (pt{}) {
		return d.b.dislodged[l]
	}
	return d.b.at[l].add(pt{-d.u * 1.75, -d.u * 1.45})
}

// waitingAt is where a unit dislodged from l is drawn in a retreat
// phase, beside the unit that took its province: at dislodgedAt, or, if
// that is too near the new occupant, as far from it as waitSep units'
// radii, the same way. The geometry's point lies half over the attacker
// (the attacker stands elsewhere in a movement picture); in a retreat
// picture that hid the occupant's letter under the dislodged unit, or
// the occupant altogether (the Italian army that took Milan on 1908,
// 6 pixels away), and its ring crossed the letter (a Norse fleet in
// Amsivaria on North Sea Wars). A unit ordered to retreat waits on the
// side of the occupant toward where it goes, so that its arrow does not
// cross the occupant.
//
// Nor may the ring stand on a stand-off's ⊗ (Empires and Coalitions drew
// Prussia's army dislodged from Berlin half under Mecklenburg's, its
// retreat's shaft hidden by it).
func (d *drawer) waitingAt(l judge.Loc) pt {
	at := d.dislodgedAt(l)
	p := d.m.Province(l)
	if _, ok := d.pos.UnitAt(p); !ok || d.b.schematic {
		return at
	}
	occ := d.unitAt[p]
	v := at.sub(occ)
	to, retreats := d.retreatTarget(l)
	offStandoffs := func(c pt) bool {
		for _, q := range d.pos.Bounced {
			if d.valid(q) && c.sub(d.standoffAt(q)).len() < 1.55*d.u+standoffR*d.px {
				return false
			}
		}
		return true
	}
	if v.len() >= waitSep*d.u && offStandoffs(at) && (!retreats || !d.crossesUnit(at, to, occ)) {
		return at
	}
	dir := v.unit()
	if v.len() < 1e-9 {
		dir = pt{-1.75, -1.45}.unit() // the default offset's way
	}
	if retreats {
		// Toward where it retreats, so that its arrow leaves the
		// occupant behind instead of crossing it (a French army
		// retreating from Siam drew its arrow over the Dutch fleet
		// that took Siam, and read as that fleet's move).
		if w := to.sub(occ); w.len() > 1e-9 {
			dir = w.unit()
		}
	}
	// The point's own way first, then turning from it a little more
	// each time, to one where the ring covers no name (it covered
	// Switzerland's, moved off Milan's army) and no centre marker (it
	// half hid Siam's, moved toward Laos), its arrow leaves the occupant
	// behind, and it stands as far from every other unit; then a little
	// further out. Where no way is clear of all of them, the one with
	// the least in its way: a ⊗ or a unit weighs most, a name or a
	// centre marker least.
	var others []pt // where every other unit stands
	for _, q := range d.m.Provinces() {
		if _, ok := d.pos.UnitAt(q); ok && q != p {
			others = append(others, d.unitAt[q])
		}
	}
	best, fewest := at, math.MaxInt
	// The last try, at sep 0, is the geometry's own point, inside the
	// province but half over the occupant.
	for _, sep := range []float64{waitSep, waitSep + 0.5, waitSep + 1, waitSep - 0.4, waitSep - 0.7, 0} {
		for _, a := range []float64{0, 22.5, -22.5, 45, -45, 67.5, -67.5, 90, -90, 112.5, -112.5, 135, -135, 157.5, -157.5, 180} {
			r := a * math.Pi / 180
			w := pt{dir.X*math.Cos(r) - dir.Y*math.Sin(r), dir.X*math.Sin(r) + dir.Y*math.Cos(r)}
			c := occ.add(w.mul(sep * d.u))
			if sep == 0 {
				if a != 0 {
					break
				}
				c = at
			}
			ring := boxAround(c, 1.55*d.u, 1.55*d.u)
			// Inside its own province above all: a unit drawn over a
			// neighbour reads as the neighbour's (a French fleet
			// dislodged from the English Channel stood on London's
			// coast). Nearer the occupant than waitSep only where
			// nothing further off is inside.
			blocked := d.b.outsideCost(p, c, d.u)
			switch {
			case sep == 0:
				blocked += 5
			case sep < waitSep:
				blocked += 4
			}
			if !offStandoffs(c) {
				blocked += 16 // its ring hid the ⊗ and the retreat's shaft
			}
			if retreats && d.crossesUnit(c, to, occ) {
				blocked += 3
			}
			for _, lb := range d.keepClear() {
				if ring.overlaps(lb) {
					blocked += 2
				}
			}
			for _, q := range d.pos.CenterList() {
				// A centre marker under the ring reads as a second
				// unit on the retreat's arrow: it weighs as much as
				// a body half outside.
				if ring.overlaps(boxAround(d.centreAt(q), centreR*d.px, centreR*d.px)) {
					blocked += 7
				}
			}
			for _, o := range others {
				if o.sub(c).len() < waitSep*d.u {
					blocked += 8
				}
			}
			if blocked == 0 {
				return c
			}
			if blocked < fewest {
				best, fewest = c, blocked
			}
		}
	}
	return best
}

// outsideCost weighs how much of a unit of radius u drawn at c lies
// outside province p, for waitingAt: 20 when its centre does (no name,
// unit or marker costs as much), 14 when more than half of eight points
// round its edge do, 6 when three or four do, 3 when one or two do (so
// that a spot wholly inside is taken where there is one), else 0: a body
// more than half outside weighs more than standing half over the
// occupant or on a centre marker. A schematic board's provinces have no
// shape: nothing lies outside them.
func (b *board) outsideCost(p judge.Loc, c pt, u float64) int {
	if b.schematic || len(b.rings[p]) == 0 {
		return 0
	}
	b.over.once.Do(b.prepareOver)
	if !b.inProvince(p, c) {
		return 20
	}
	out := 0
	for k := range 8 {
		a := float64(k) * math.Pi / 4
		if !b.inProvince(p, c.add(pt{math.Cos(a), math.Sin(a)}.mul(0.8*u))) {
			out++
		}
	}
	switch {
	case out > 4:
		return 14
	case out > 2:
		return 6
	case out > 0:
		return 3
	}
	return 0
}

// retreatTarget is where the unit dislodged from l is ordered to
// retreat, if the picture's orders move it.
func (d *drawer) retreatTarget(l judge.Loc) (pt, bool) {
	if d.pos.Phase.Type != judge.Retreat {
		return pt{}, false
	}
	p := d.m.Province(l)
	for i := range d.results {
		o := &d.results[i].Order
		if o.Kind == judge.Move && d.valid(o.Unit) && d.valid(o.Target) && d.m.Province(o.Unit) == p {
			return d.b.at[o.Target], true
		}
	}
	return pt{}, false
}

// crossesUnit reports whether the line from a to b passes over the unit
// drawn at u, or grazes it: a fleet's corners reach 1.4 radii out.
func (d *drawer) crossesUnit(a, b, u pt) bool {
	ab, au := b.sub(a), u.sub(a)
	t := 0.0
	if n := ab.X*ab.X + ab.Y*ab.Y; n > 0 {
		t = max(0, min(1, (au.X*ab.X+au.Y*ab.Y)/n))
	}
	return a.lerp(b, t).sub(u).len() < 1.6*d.u
}

// waitSep is how far apart, in units' radii, a dislodged unit and the
// one that took its province are drawn: its ring (1.55 radii) clears the
// occupant's letter.
const waitSep = 2.3

// provinceFill is the colour of province p: its centre's owner, a light
// tint of its home power for a home province that is no centre, the sea,
// neutral land, or the grey of land no unit may enter.
func (d *drawer) provinceFill(p judge.Loc) fill {
	info := &d.m.Locs[p]
	if d.closedNow(p) {
		// Closed this season (Loeb9's frozen Arctic): drawn as the water
		// or land no unit enters, so that a player sees it before
		// ordering a unit there.
		if info.Kind == judge.Sea {
			return fill{c: colDeep}
		}
		return fill{c: colImpassable}
	}
	if info.Kind == judge.Sea {
		return fill{c: colSea}
	}
	if info.Impassable {
		return fill{c: colImpassable}
	}
	if d.pos.IsCenter(p) {
		if o := d.pos.Centers[p]; o != judge.NoPower && int(o) < len(d.ps) {
			st := d.ps[o]
			return fill{c: st.Tint, pattern: st.Pattern, ink: st.Unit}
		}
		return fill{c: colLand}
	}
	if h := info.Home; h != judge.NoPower && int(h) < len(d.ps) {
		return fill{c: d.ps[h].Home}
	}
	return fill{c: colLand}
}

// closedNow reports whether province p is closed in the season of the
// phase drawn (LocInfo.ClosedIn: no unit may move, retreat or be
// supported into it). Adjustments are in Winter, which no map closes.
func (d *drawer) closedNow(p judge.Loc) bool {
	c := d.m.Locs[p].ClosedIn
	return c != 0 && c == d.pos.Phase.Season
}

// closedClass is the class suffix and the title of province p's shape:
// " closed" and ", closed in the Fall" while it is closed, for the
// legend (usedMarks) and for a reader of the SVG.
func (d *drawer) closedClass(p judge.Loc) (class, title string) {
	info := &d.m.Locs[p]
	if !d.closedNow(p) {
		return "", info.FullName
	}
	return " closed", info.FullName + ", closed in the " + info.ClosedIn.String()
}

func (d *drawer) board() {
	b, m := d.b, d.m
	if !b.schematic {
		d.add(gBoard, elem{kind: kPath, class: "sea-ground", rings: [][]pt{rect(0, 0, b.w, b.h)}, closed: true, fill: fill{c: colSea}})
		for _, p := range m.Provinces() {
			info := &m.Locs[p]
			f := d.provinceFill(p)
			if info.Kind == judge.Sea && info.ClosedIn == 0 {
				// The sea ground shows through: one fill less to rasterise.
				// A sea closed in some season keeps its fill in every
				// season, so that the board's cached shapes (rasterCache)
				// hold it whichever phase drew them first.
				f = fill{}
			}
			class, title := d.closedClass(p)
			d.add(gBoard, elem{kind: kPath, class: "province " + info.Kind.String() + class, title: title,
				rings: b.rings[p], closed: true, fill: f, stroke: colBorder, width: 0.8 * d.px})
		}
		for i, r := range b.impassable {
			c := colImpassable
			if b.deep[i] {
				c = colDeep
			}
			d.add(gBoard, elem{kind: kPath, class: "impassable", rings: r, closed: true,
				fill: fill{c: c}, stroke: colBorder, width: 0.8 * d.px})
		}
		for _, p := range m.Provinces() {
			for _, c := range m.Locs[p].Coasts {
				d.coastMark(c)
			}
		}
		return
	}
	d.add(gBoard, elem{kind: kPath, class: "paper", rings: [][]pt{rect(0, 0, b.w, b.h)}, closed: true, fill: fill{c: colPaper}})
	for _, e := range b.edges {
		st := edgeStyles[e.style()]
		el := elem{kind: kPath, class: "edge " + st.kind, rings: [][]pt{{b.at[e.a], b.at[e.b]}},
			stroke: st.c, width: st.width * d.px, dash: scaled(st.dash, d.px)}
		if !b.wraps(b.at[e.a], b.at[e.b]) {
			d.add(gBoard, el)
			continue
		}
		// An edge across the whole board (a board cut across an ocean):
		// a stub off each end towards the side it leaves by, named after
		// the province at its other end.
		el.class += " wrap"
		for _, end := range [2][2]judge.Loc{{e.a, e.b}, {e.b, e.a}} {
			from, to := b.at[end[0]], b.at[end[1]]
			dir := b.wrapDir(from, to)
			st := el
			st.rings = [][]pt{{from.add(dir.mul(b.nodeR)), from.add(dir.mul(b.nodeR + stubLen))}}
			st.title = m.Locs[end[0]].FullName + " – " + m.Locs[end[1]].FullName
			d.add(gBoard, st)
			d.add(gLabels, elem{kind: kText, class: "wrap-label", c: b.inside(from.add(dir.mul(b.nodeR+stubLen+13)), 16), text: title(m.Locs[end[1]].Name),
				size: 9.5, anchor: 'm', fill: fill{c: el.stroke}, halo: colPaper, haloW: 2.5})
		}
	}
	for _, p := range m.Provinces() {
		info := &m.Locs[p]
		for _, c := range info.Coasts {
			d.add(gBoard, elem{kind: kPath, class: "coast-link", rings: [][]pt{{b.at[p], b.at[c]}}, stroke: colFleetEdge, width: 1.2})
		}
		f := d.provinceFill(p)
		class, title := d.closedClass(p)
		el := elem{kind: kPath, class: "province " + info.Kind.String() + class, title: title, closed: true,
			fill: f, stroke: colBorder, width: 1.2}
		if info.Impassable {
			el.class += " impassable"
			el.title += ", impassable"
		}
		if info.Kind == judge.Sea {
			// Seas are squares and land is round, so the two differ by shape too.
			r := b.nodeR * 0.9
			el.rings = [][]pt{rect(b.at[p].X-r, b.at[p].Y-r, 2*r, 2*r)}
		} else {
			el.rings = [][]pt{circleRing(b.at[p], b.nodeR, b.nodeR)}
		}
		d.add(gBoard, el)
		for _, c := range info.Coasts {
			d.coastMark(c)
		}
	}
}

// coastMark draws the place of a split coast, with its name.
func (d *drawer) coastMark(c judge.Loc) {
	at := d.b.at[c]
	d.add(gBoard, elem{kind: kCircle, class: "coast", title: d.m.Locs[c].FullName, c: at, r: 2.5 * d.px,
		fill: fill{c: colFleetEdge}, stroke: colWhite, width: 0.8 * d.px})
	d.add(gLabels, elem{kind: kText, class: "coast-label", c: at.add(pt{0, -5 * d.px}), text: d.m.CoastName(c),
		size: 8.5 * d.px, anchor: 'm', fill: fill{c: colFleetEdge}, halo: colWhite, haloW: 2 * d.px})
}

func rect(x, y, w, h float64) []pt { return []pt{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}} }

// crossLines are the two strokes of an × at c, l each way from it.
func crossLines(c pt, l float64) [][]pt {
	return [][]pt{{c.add(pt{-l, -l}), c.add(pt{l, l})}, {c.add(pt{-l, l}), c.add(pt{l, -l})}}
}

// plusLines are the two strokes of a + at c, l each way from it.
func plusLines(c pt, l float64) [][]pt {
	return [][]pt{{c.add(pt{-l, 0}), c.add(pt{l, 0})}, {c.add(pt{0, -l}), c.add(pt{0, l})}}
}

// scaled returns the lengths of a dash pattern times k.
func scaled(dash []float64, k float64) []float64 {
	if dash == nil {
		return nil
	}
	out := make([]float64, len(dash))
	for i, v := range dash {
		out[i] = v * k
	}
	return out
}

// centres draws the supply-centre markers: the owner's colour and letter
// on an owned centre (the letter says it to those who cannot tell the
// hue), a plain ring on a neutral one, and a dashed ring for one under
// construction.
func (d *drawer) centres() {
	pos, m := d.pos, d.m
	for _, p := range pos.CenterList() {
		at := d.centreAt(p)
		o := pos.Centers[p]
		title := "supply centre " + m.Locs[p].FullName
		if o != judge.NoPower && int(o) < len(d.ps) {
			st := d.ps[o]
			d.add(gCentres, elem{kind: kCircle, class: "sc owned power-" + st.Letter, title: title + ", " + m.PowerName(o),
				c: at, r: centreR * d.px, fill: fill{c: st.Unit}, stroke: colInk, width: 1 * d.px})
			d.add(gCentres, elem{kind: kText, class: "sc-letter", c: at, text: st.Letter, size: 8 * d.px, anchor: 'm', bold: true,
				fill: fill{c: st.Text}})
			continue
		}
		d.add(gCentres, elem{kind: kCircle, class: "sc neutral", title: title + ", unowned", c: at, r: 5 * d.px,
			fill: fill{c: colWhite}, stroke: colInk, width: 1.4 * d.px})
		d.add(gCentres, elem{kind: kCircle, class: "sc-dot", c: at, r: 1.8 * d.px, fill: fill{c: colInk}})
	}
	for _, pc := range pos.PendingCenters {
		if d.valid(pc.Loc) {
			if now, ok := d.spoiledNow(pc.Loc); ok {
				pc = now // spoiled by an order of the phase drawn
			}
			title := fmt.Sprintf("centre under construction by %s in %s", m.PowerName(pc.Power), m.Locs[pc.Loc].FullName)
			if pc.Spoiled {
				title += ", spoiled by " + m.PowerName(pc.SpoiledBy)
			}
			d.construction(pc.Loc, pc.Power, pc.Spoiled, title)
		}
	}
}

// spoiledNow returns the construction in province p that an order of
// the phase drawn spoils (34-35-36 rule 5), as the phase leaves it.
func (d *drawer) spoiledNow(p judge.Loc) (judge.PendingCenter, bool) {
	if d.res == nil {
		return judge.PendingCenter{}, false
	}
	var after []judge.PendingCenter
	if d.res.Next != nil {
		after = d.res.Next.PendingCenters
	}
	for _, pc := range append(after, d.res.Constructions...) {
		if pc.Loc == p && pc.Spoiled && pc.SpoiledIn == d.pos.Phase {
			return pc, true
		}
	}
	return judge.PendingCenter{}, false
}

// construction marks a centre being raised: a dashed ring in the builder's
// colour around a plus.
func (d *drawer) construction(p judge.Loc, pw judge.Power, failed bool, title string) {
	st := d.style(pw)
	at := d.markerAt(p, constructR)
	class := "construction power-" + st.Letter
	if failed {
		class += " failed"
	}
	d.add(gCentres, elem{kind: kCircle, class: class, title: title, c: at, r: (constructR - 1.2) * d.px, fill: fill{c: colWhite},
		stroke: st.Unit, width: 2.4 * d.px, dash: []float64{3 * d.px, 2 * d.px}})
	l := 4 * d.px
	d.add(gCentres, elem{kind: kPath, class: "construction-plus", rings: plusLines(at, l), stroke: colInk, width: 1.6 * d.px})
	if failed {
		d.cross(at, 6*d.px, "spoiled")
	}
}

// labels writes the province abbreviations.
func (d *drawer) labels() {
	for _, p := range d.m.Provinces() {
		d.add(gLabels, elem{kind: kText, class: "label", c: d.labelAt(p), text: title(d.m.Locs[p].Name), size: labelSize * d.px, anchor: 'm', bold: true,
			fill: fill{c: colInk}, halo: colWhite, haloW: labelHalo * d.px})
	}
}

// labelAt is where province p's name is written: the board's label
// point, which is clear of the units drawn at its unit points.
func (d *drawer) labelAt(p judge.Loc) pt { return d.b.label[p] }

// centreAt is where province p's supply-centre marker goes.
func (d *drawer) centreAt(p judge.Loc) pt { return d.markerAt(p, centreR) }

// markerAt is where a marker of radius r (pixels) goes in province p: at
// the board's centre point, unless a unit there would cover it (a
// province whose point was placed with room for a smaller marker, or none:
// 34-35-36 raises centres where there were none); then beside the unit.
func (d *drawer) markerAt(p judge.Loc, r float64) pt {
	at := d.b.centre[p]
	if _, ok := d.pos.UnitAt(p); ok && !d.b.schematic {
		u := d.unitAt[p]
		if d.underUnit(boxAround(at, r*d.px, r*d.px), u) {
			return u.add(pt{1.45*d.u + (r+1)*d.px, -0.4 * d.u})
		}
	}
	return at
}

// standoffs marks the provinces left empty by a stand-off: those of the
// movement being resolved, or, in a retreat phase, of the one just played.
func (d *drawer) standoffs() {
	var bounced []judge.Loc
	switch {
	case d.res != nil && d.res.Next != nil && d.pos.Phase.Type == judge.Movement:
		bounced = d.res.Next.Bounced
		if d.res.Next.Phase.Type != judge.Retreat {
			// The judge keeps stand-offs only for a retreat phase that
			// follows; otherwise they are the provinces a move bounced
			// from that stay empty.
			bounced = d.bouncedEmpty()
		}
	case d.pos.Phase.Type == judge.Retreat:
		bounced = d.pos.Bounced
	}
	for _, p := range bounced {
		if !d.valid(p) {
			continue
		}
		p = d.m.Province(p)
		at := d.standoffAt(p)
		d.avoid(boxAround(at, standoffR*d.px, standoffR*d.px))
		d.add(gMarks, elem{kind: kCircle, class: "standoff", title: "stand-off in " + d.m.Locs[p].FullName, c: at, r: standoffR * d.px,
			fill: fill{c: colWhite}, stroke: colInk, width: 1.6 * d.px})
		l := 4.5 * d.px
		d.add(gMarks, elem{kind: kPath, class: "standoff-cross", rings: crossLines(at, l), stroke: colInk, width: 2 * d.px})
	}
}

// standoffR is the radius in pixels of a stand-off's ⊗.
const standoffR = 8

// standoffAt is where the ⊗ of a stand-off in province p is drawn: on
// its unit's place, or beside the unit that held there.
func (d *drawer) standoffAt(p judge.Loc) pt {
	p = d.m.Province(p)
	at := d.b.at[p]
	if _, ok := d.pos.UnitAt(p); ok && d.pos.Phase.Type == judge.Movement {
		at = at.add(pt{-d.u * 1.6, 0}) // a unit held there: beside it
	}
	return at
}

// bouncedEmpty lists the provinces, in map order, that a move bounced
// from and that are empty in the next position.
func (d *drawer) bouncedEmpty() []judge.Loc {
	var out []judge.Loc
	for _, p := range d.m.Provinces() {
		if _, ok := d.res.Next.UnitAt(p); ok {
			continue
		}
		for i := range d.results {
			r := &d.results[i]
			_, oc := orderFailed(r)
			if r.Order.Kind == judge.Move && oc == judge.Bounced && d.valid(r.Order.Target) && d.m.Province(r.Order.Target) == p {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// units draws every unit on the board, then the dislodged ones.
func (d *drawer) units() {
	pos, m := d.pos, d.m
	for _, p := range m.Provinces() {
		u, ok := pos.UnitAt(p)
		if !ok {
			continue
		}
		e := d.unit(u, d.unitAt[p], "")
		if d.dislodge[p] {
			d.sc.elems[e].class += " dislodged"
			d.sc.elems[e].title += ", dislodged"
			d.dislodgedRing(d.unitAt[p])
			if d.destroyed(u) {
				// No retreat: it leaves the board now, struck out as a
				// removal is, where one that may retreat is only ringed.
				d.sc.elems[e].class += " destroyed"
				d.sc.elems[e].title += ", destroyed: no retreat"
				d.removalMark(d.unitAt[p], "destroyed", false, d.sc.elems[e].title)
			}
		}
	}
	for _, du := range pos.Dislodged {
		if !d.valid(du.Loc) {
			continue
		}
		at := d.waitingAt(du.Loc)
		if d.valid(du.AttackerFrom) {
			// The attacker's origin: a thin line from there, ending in a ring.
			from := d.b.at[d.m.Province(du.AttackerFrom)]
			d.add(gOrders, elem{kind: kPath, class: "attacker", title: "attacked from " + m.Locs[du.AttackerFrom].FullName,
				rings: [][]pt{{from, at}}, stroke: colFail, width: 1.5 * d.px, dash: []float64{2 * d.px, 2 * d.px}})
			d.add(gOrders, elem{kind: kCircle, class: "attacker-origin", c: from, r: 4 * d.px, fill: fill{c: colWhite}, stroke: colFail, width: 1.8 * d.px})
		}
		d.unit(du.Unit, at, " dislodged")
		d.dislodgedRing(at)
	}
}

// reletter writes the letter of every unit struck out (removalMark) again
// above its ×, haloed in the unit's colour: the × crosses where the
// letter stands, and a unit on its own power's land, struck out, showed
// no one's letter and hardly its colour (a Burgundian army destroyed in
// Calais, on Hundred). It runs after units, whose letters it copies.
func (d *drawer) reletter() {
	for _, c := range d.struck {
		// The nearest letter: a retreat's disbanded unit stands beside
		// its attacker.
		best, bd := -1, d.u*0.6
		for i, e := range d.sc.elems {
			if l := e.c.sub(c).len(); e.class == "unit-letter" && i > 0 && l <= bd {
				best, bd = i, l
			}
		}
		if best < 0 {
			continue // a neutral unit: its grey says it is no power's
		}
		e := d.sc.elems[best]
		e.group, e.class = gMarks, "struck-letter"
		e.halo, e.haloW = d.sc.elems[best-1].fill.c, 3*d.px
		d.sc.elems = append(d.sc.elems, e)
	}
}

// destroyed reports whether u, dislodged in the movement drawn, has no
// retreat and leaves the board.
func (d *drawer) destroyed(u judge.Unit) bool {
	if d.res == nil {
		return false
	}
	for _, x := range d.res.Destroyed {
		if x.Loc == u.Loc && x.Power == u.Power {
			return true
		}
	}
	return false
}

// dislodgedRing rings a dislodged unit drawn at c, dashed in red.
func (d *drawer) dislodgedRing(c pt) {
	d.add(gUnits, elem{kind: kCircle, class: "dislodged-ring", c: c, r: d.u * 1.55, stroke: colFail,
		width: 2 * d.px, dash: []float64{3 * d.px, 2 * d.px}})
}

// unit draws one unit symbol (a disc for an army, a hull for a fleet) in
// its power's colour with the power's letter, and returns its index.
func (d *drawer) unit(u judge.Unit, at pt, extra string) int {
	st := d.style(u.Power)
	title := d.m.PowerName(u.Power) + " " + strings.ToLower(u.Type.Word()) + " in " + d.m.FullName(u.Loc)
	class := "unit " + strings.ToLower(u.Type.Word()) + " power-" + st.Letter + extra
	if u.Neutral() {
		st = powerStyle{Unit: colNeutral, Text: colInk}
		title = judge.Neutral + " " + strings.ToLower(u.Type.Word()) + " in " + d.m.FullName(u.Loc)
		class = "unit " + strings.ToLower(u.Type.Word()) + " neutral" + extra
	}
	e := elem{kind: kPath, class: class, title: title, closed: true, fill: fill{c: st.Unit}, stroke: colInk, width: 1.4 * d.px}
	textAt := at
	if u.Type == judge.Fleet {
		e.rings = [][]pt{d.hull(at)}
		textAt = at.add(pt{0, 0.05 * d.u})
	} else {
		e.kind, e.c, e.r = kCircle, at, d.u
	}
	d.add(gUnits, e)
	i := len(d.sc.elems) - 1
	if st.Letter == "" {
		return i // a neutral unit: its grey says it is no power's
	}
	d.add(gUnits, elem{kind: kText, class: "unit-letter", c: textAt, text: st.Letter, size: d.u * 1.3, anchor: 'm', bold: true,
		fill: fill{c: st.Text}})
	return i
}

// hull is the outline of a fleet: a ship's hull, wide at the deck.
func (d *drawer) hull(at pt) []pt {
	u := d.u
	return []pt{at.add(pt{-1.45 * u, -0.75 * u}), at.add(pt{1.45 * u, -0.75 * u}), at.add(pt{0.95 * u, 0.8 * u}), at.add(pt{-0.95 * u, 0.8 * u})}
}

// cross draws a red × at c, haloed in white, for a failed order.
func (d *drawer) cross(c pt, l float64, title string) {
	lines := crossLines(c, l)
	d.add(gMarks, elem{kind: kPath, class: "mark-halo", rings: lines, stroke: colWhite, width: 5 * d.px})
	d.add(gMarks, elem{kind: kPath, class: "mark " + title, title: title, rings: lines, stroke: colFail, width: 2.6 * d.px})
}

// note writes a short outcome ("void") in red at c.
func (d *drawer) note(c pt, text string) {
	d.add(gMarks, elem{kind: kText, class: "mark " + strings.ReplaceAll(text, " ", "-"), title: text, c: c, text: text, size: 10 * d.px, anchor: 'm', bold: true,
		fill: fill{c: colFail}, halo: colWhite, haloW: 2.5 * d.px})
}

// titleText is the picture's heading: the phase's title (report.PhaseTitle).
func (d *drawer) titleText() string {
	return report.PhaseTitle(d.pos.Phase)
}

// descText describes the picture in words for those who cannot see it:
// each power's centres and units.
func (d *drawer) descText() string {
	var b strings.Builder
	b.WriteString(d.m.Title)
	b.WriteString(", ")
	b.WriteString(d.titleText())
	b.WriteString(".")
	counts := d.centreCounts()
	for i := range d.m.Powers {
		pw := judge.Power(i)
		var units []string
		for _, p := range d.m.Provinces() {
			if u, ok := d.pos.UnitAt(p); ok && u.Power == pw {
				units = append(units, u.Type.String()+" "+d.m.LocName(u.Loc))
			}
		}
		fmt.Fprintf(&b, " %s (%c): %s", d.m.Powers[i].Name, d.m.Powers[i].Letter, length.Count(counts[i], "centre"))
		if len(units) > 0 {
			b.WriteString(", units ")
			b.WriteString(strings.Join(units, ", "))
		}
		b.WriteString(".")
	}
	if n := len(d.results); n > 0 {
		b.WriteString(" " + length.Count(n, "order") + " drawn.")
	}
	return b.String()
}

func (d *drawer) centreCounts() []int {
	counts := make([]int, len(d.m.Powers))
	for _, p := range d.pos.CenterList() {
		if o := d.pos.Centers[p]; int(o) < len(counts) {
			counts[o]++
		}
	}
	return counts
}
