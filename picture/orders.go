package picture

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/judge"
)

// orderFailed reports whether the order of r did not do what it asked,
// and names its outcome.
func orderFailed(r *judge.OrderResult) (bool, judge.Outcome) {
	oc := r.Outcome
	if r.Dislodged {
		oc = r.Failed
		if oc == 0 {
			oc = judge.Succeeds
		}
	}
	switch oc {
	case judge.Bounced, judge.Cut, judge.Void, judge.NoConvoy, judge.Disrupted, judge.NoSupport:
		return true, oc
	}
	// A unit dislodged while holding or convoying did not do what it was
	// ordered to: the army it carried went nowhere by it.
	return r.Dislodged && (r.Order.Kind == judge.Hold || r.Order.Kind == judge.Convoy), oc
}

// orders draws the orders of the resolution: moves first, since supports
// and convoys point at the moves' paths.
func (d *drawer) orders() {
	for i := range d.results {
		if r := &d.results[i]; r.Order.Kind == judge.Move {
			d.move(r)
		}
	}
	// The moves' outcome marks once every move is drawn, so that each
	// keeps clear of every head (later: a move drawn after a ✗ put its
	// head under it, and read as a support).
	for _, mark := range d.later {
		mark()
	}
	d.later = nil
	for i := range d.results {
		r := &d.results[i]
		switch r.Order.Kind {
		case judge.Move:
		case judge.Hold:
			d.hold(r)
		case judge.SupportHold, judge.SupportMove, judge.Convoy:
			d.support(r)
		case judge.Disband, judge.Remove:
			d.removal(r)
		case judge.Build:
			d.buildOrder(r)
		case judge.Construct:
			if d.valid(r.Order.Unit) {
				failed, oc := orderFailed(r)
				d.construction(d.m.Province(r.Order.Unit), r.Order.Power, failed, d.orderTitle(r, oc))
			}
		}
	}
}

func (d *drawer) orderTitle(r *judge.OrderResult, oc judge.Outcome) string {
	t := r.Order.CanonicalWithPower(d.m)
	if r.Dislodged {
		return t + " (" + oc.String() + ", dislodged)"
	}
	return t + " (" + r.Outcome.String() + ")"
}

func (d *drawer) orderPower(o *judge.Order) judge.Power {
	if o.Power != judge.NoPower {
		return o.Power
	}
	if u, ok := d.pos.UnitAt(o.Unit); ok {
		return u.Power
	}
	return judge.NoPower
}

// from is where an ordered unit is drawn: on its province, or, in a
// retreat phase, offset where the dislodged unit waits.
func (d *drawer) from(l judge.Loc) pt {
	p := d.m.Province(l)
	if d.pos.Phase.Type == judge.Retreat {
		for _, du := range d.pos.Dislodged {
			if d.m.Province(du.Loc) == p {
				return d.waitingAt(du.Loc)
			}
		}
	}
	return d.unitAt[p]
}

// move draws a move (or retreat) arrow, along its convoy route if any.
func (d *drawer) move(r *judge.OrderResult) {
	o := &r.Order
	if !d.valid(o.Unit) || !d.valid(o.Target) {
		return
	}
	path := []pt{d.from(o.Unit)}
	route := o.Route
	if len(route) == 0 {
		route = r.Route
	}
	for _, l := range route {
		if d.valid(l) {
			path = append(path, d.b.at[l])
		}
	}
	end := d.b.at[o.Target]
	const moveW = 3.2      // the line's width in pixels
	var lead []pt          // a move off one side of the picture that comes back at the other
	startGap := d.u * 1.05 // off the unit's symbol
	switch {
	case len(path) == 1 && d.b.acrossCut(path[0], end):
		// Each piece long enough for its shaft and head, besides the
		// unit it leaves or the room kept at its target (and the
		// target's name, which may shorten it by a head).
		want := (minShaft + 2*arrowHeadLen*moveW) * d.px
		lead, path = d.b.cutPieces(path[0], end, want+1.05*d.u, want+1.15*d.u)
		lead = trimStart(lead, startGap)
		path, startGap = path[:1], 0
	case len(path) == 1 && d.b.wraps(path[0], end):
		dir := d.b.wrapDir(path[0], end)
		l := d.u + 1.5*stubLen*d.px // stubLen is in pixels
		lead = trimStart([]pt{path[0], path[0].add(dir.mul(l))}, d.u*1.05)
		path = []pt{end.sub(dir.mul(l))}
	}
	path = append(path, end)
	var leads [][]pt // the pieces of a convoyed way before it crosses the cut
	if pieces := d.b.roundPieces(path); len(path) > 2 && len(pieces) > 1 {
		leads, path = pieces[:len(pieces)-1], pieces[len(pieces)-1]
		leads[0], startGap = trimStart(leads[0], startGap), 0
	}
	if lead != nil {
		leads = [][]pt{lead}
	}
	failed, oc := orderFailed(r)
	// The drawn path starts at the unit's edge and ends short of the
	// target's point, at the edge of a unit that stands or would stand
	// there (a stand-off is marked there too), and outside the target's
	// label, so that the head covers neither.
	tp := d.m.Province(o.Target)
	short := d.u * 0.85 // an empty target: room for a stand-off mark
	if _, ok := d.pos.UnitAt(tp); ok && d.pos.Phase.Type == judge.Movement {
		short = d.u * 1.15
	}
	lb := d.labelBox(tp).grow(d.px)
	others := d.otherCentres(tp)
	keep := others
	// A retreat leaves behind the unit that took its province: a line
	// over that unit reads as its move (a retreat from the English
	// Channel on 1908 curved across the fleet that took it).
	occ, held := pt{}, false
	if _, ok := d.pos.UnitAt(d.m.Province(o.Unit)); ok && d.pos.Phase.Type == judge.Retreat {
		occ, held = d.unitAt[d.m.Province(o.Unit)], true
		keep = append(slices.Clip(others), boxAround(occ, 0, 0))
	}
	// trim cuts a way as drawn and says whether it will do, at a level
	// of demand: at 0 its head ends inside the target clear of the
	// border and a retreat's line leaves the occupant behind; at 1 the
	// line leaves the occupant only; at 2 neither is asked, where no way
	// and no bow does better (a short move between units that stand
	// close together, into a small province).
	trimAt := func(level int) func(w []pt) ([]pt, bool) {
		return func(w []pt) ([]pt, bool) {
			// Cut short of the target's point and then of its name, a
			// tip could stop on the border or beyond it (Hojo's retreat
			// into Shimosa on Sengoku, on the border under the name),
			// where it pointed at two provinces: less short then, as
			// far as the target's point.
			var p []pt
			for _, s := range []float64{short, short / 2, 0} {
				p = clearOfLabel(trimEnd(trimStart(w, startGap), s), lb, 2*d.px, moveW*d.px)
				if level > 0 || d.tipInside(p, tp, end) {
					break
				}
			}
			// Else the way must bow further: the head under the
			// target's name, or on another province's centre marker,
			// where it seemed to point at that province (Venice's, by a
			// move from Rome to Tuscany).
			ok := !headUnder(p, lb, moveW*d.px) && !headOnAny(p, others, moveW*d.px)
			if level == 0 {
				ok = ok && d.tipInside(p, tp, end)
			}
			if level <= 1 && held {
				ok = ok && !d.passesOver(p, occ, moveW*d.px)
			}
			return p, ok
		}
	}
	fitAll := func(ways [][]pt, outside func([]pt) float64) []pt {
		// The first level that finds a line over the two provinces;
		// else the line that leaves them least, of the levels that find
		// one at all, a retreat's that leaves its occupant before any
		// that does not; else the last level's.
		var best, last []pt
		least := math.Inf(1)
		for level := range 3 {
			p, ok, out := d.fit(ways, trimAt(level), arrowHeadLen*moveW*0.8, outside)
			if ok && out <= overSlack*d.px && (best == nil || !held || level < 2) {
				return p
			}
			if ok && out < least && (best == nil || !held || level < 2) {
				best, least = p, out
			}
			last = p
		}
		if best != nil {
			return best
		}
		return last
	}
	if len(path) == 2 && len(leads) == 0 && !d.b.schematic {
		// Over the two provinces it joins, not across a third.
		path = d.b.overFit(path[0], end, d.m.Province(o.Unit), tp, short, boxesSum(keep), fitAll)
	} else {
		path = fitAll([][]pt{path}, nil)
	}
	if back, ok := d.moved[tp]; ok && len(back) > 1 && len(path) > 1 && d.movesTo(tp, o.Unit) && sameTrack(back, path, 2*moveW*d.px) {
		// The move the other way, drawn already on the same track (two
		// units trying to swap): this one runs beside it, so that both
		// lines and both heads show (Con-Mos and Mos-Con on Pure were
		// one line, dashes over dashes).
		path = besideTrack(path, 3.6*moveW*d.px)
	}
	d.moved[d.m.Province(o.Unit)] = path
	class := "order move"
	if d.pos.Phase.Type == judge.Retreat {
		class = "order retreat"
	}
	if len(route) > 0 {
		class += " convoyed"
	}
	if pc, ok := d.spoiledNow(tp); ok && pc.SpoiledBy == d.orderPower(o) && oc != judge.Void {
		// This order into a centre under construction spoils it (the
		// construction's marker is crossed out).
		class += " spoils"
	}
	st := d.style(d.orderPower(o))
	for _, l := range leads {
		d.arrow(l, st.Unit, moveW*d.px, failed, class+" wrap", d.orderTitle(r, oc), headArrow)
	}
	d.arrow(path, st.Unit, moveW*d.px, failed, class, d.orderTitle(r, oc), headArrow)
	own := len(d.heads)
	if len(path) > 1 {
		d.heads = append(d.heads, ringBox(arrowHead(path, moveW*d.px)))
	}
	if failed {
		d.later = append(d.later, func() {
			if oc == judge.Bounced {
				d.bounceMark(path, own)
				return
			}
			d.outcomeMark(path, oc)
		})
	}
	if strings.HasSuffix(class, " spoils") {
		d.note(d.clearSpot(path, pathLen(path)/2, 16*d.px, 6*d.px), "spoils")
	}
}

// hold draws a ring round a unit ordered to hold.
func (d *drawer) hold(r *judge.OrderResult) {
	o := &r.Order
	if !d.valid(o.Unit) {
		return
	}
	if _, ok := d.pos.UnitAt(o.Unit); !ok {
		return
	}
	failed, oc := orderFailed(r)
	st := d.style(d.orderPower(o))
	c := d.from(o.Unit)
	class := "order hold"
	var dash []float64
	if failed {
		class += " failed"
		dash = []float64{4 * d.px, 3 * d.px}
	}
	if r.Default {
		class += " default"
	}
	rr := d.u * 1.5
	if o.Type == judge.Fleet || d.unitType(o.Unit) == judge.Fleet {
		rr = d.u * 1.85
	}
	d.add(gOrders, elem{kind: kCircle, class: "order-outline", c: c, r: rr, stroke: colInk, width: 4.6 * d.px, dash: dash})
	d.add(gOrders, elem{kind: kCircle, class: class, title: d.orderTitle(r, oc), c: c, r: rr, stroke: st.Unit, width: 2.6 * d.px, dash: dash})
	if failed && oc != judge.Succeeds && oc != judge.Dislodged {
		d.note(c.add(pt{0, -rr - 6*d.px}), oc.String())
	}
}

func (d *drawer) unitType(l judge.Loc) judge.UnitType {
	u, _ := d.pos.UnitAt(l)
	return u.Type
}

// support draws a support or convoy: a thinner line from the unit to the
// middle of the move it helps (or to the unit it holds up), ending in a
// dot for a support and a diamond for a convoy.
func (d *drawer) support(r *judge.OrderResult) {
	o := &r.Order
	if !d.valid(o.Unit) || !d.valid(o.Target) {
		return
	}
	start := d.from(o.Unit)
	tp := d.m.Province(o.Target)
	var end pt
	head := headDot
	kind := "support-move"
	switch o.Kind {
	case judge.SupportHold:
		kind = "support-hold"
		end = d.unitAt[tp]
		if _, ok := d.pos.UnitAt(tp); !ok {
			end = d.b.at[tp]
		}
	default:
		if o.Kind == judge.Convoy {
			head, kind = headDiamond, "convoy"
		}
		if !d.valid(o.Dest) {
			return
		}
		if p, ok := d.moved[tp]; ok && d.movesTo(tp, o.Dest) {
			// On the move's line, at its middle or the nearest point
			// of it where the dot covers no name and no centre marker
			// (it sat on West Germany's on Cold War, and read as an
			// order to West Germany).
			r := (2.2*2 + 1.5) * d.px // the dot's radius (arrow's headDot, a 2 px line) and its outline
			var clear bool
			if end, clear = spotClearOf(p, pathLen(p)/2, r, r, d.px, d.keepClear()); !clear {
				// Nowhere clear of both: clear of the centre markers,
				// which a dot on one would seem to point at.
				var centres []box
				for _, c := range d.pos.CenterList() {
					centres = append(centres, boxAround(d.centreAt(c), centreR*d.px, centreR*d.px))
				}
				end, _ = spotClearOf(p, pathLen(p)/2, r, r, d.px, centres)
			}
		} else {
			end = d.unitAt[tp].lerp(d.b.at[o.Dest], 0.5)
		}
	}
	failed, oc := orderFailed(r)
	st := d.style(d.orderPower(o))
	class, title := "order "+kind, d.orderTitle(r, oc)
	if o.Kind == judge.Convoy {
		// The fleet often lies on the army's path, where a line to the
		// path would have no length: the diamond round the fleet says it.
		d.convoyMark(start, st.Unit, failed, class, title)
		if p, ok := d.moved[tp]; ok && nearPath(p, start, 2*d.u) {
			if failed && oc != judge.Dislodged && oc != judge.Succeeds {
				d.note(start.add(pt{0, -2.2*d.u - 6*d.px}), oc.String())
			}
			return
		}
		class, title = "convoy-line", ""
	}
	endGap := 0.0
	if o.Kind == judge.SupportHold {
		endGap = d.u * 1.3
	}
	startGap := d.u * 1.05
	if d.b.acrossCut(start, end) {
		// The short way round, off one side and in at the other (see
		// globe.go), each piece long enough to see.
		want := (minShaft + 4) * d.px
		lead, in := d.b.cutPieces(start, end, want+startGap, want+endGap)
		d.arrow(trimStart(lead, startGap), st.Unit, 2*d.px, failed, class+" wrap", title, headNone)
		start, startGap = in[0], 0
	}
	path, _, _ := d.fit([][]pt{{start, end}}, func(p []pt) ([]pt, bool) { return trimEnd(trimStart(p, startGap), endGap), true }, 0, nil)
	if len(path) < 2 {
		return
	}
	d.arrow(path, st.Unit, 2*d.px, failed, class, title, head)
	if failed {
		d.outcomeMark(path, oc)
	}
}

// minShaft is the shortest line, in pixels of the mailed picture, that
// an order is drawn with (its head apart): a shorter one reads as a blot
// on the unit, and two neighbours' units can stand closer than that.
const minShaft = 24

// fit returns the line of an order along the first of ways (the ways
// it may take, best first) that will do, as drawn: cut by trim (off the
// unit's symbol, short of the target; trim says too whether the result
// will do, its head clear of the target's name) and leaving at least
// minShaft pixels of line besides a head headPx long. Where none will,
// the first way, if straight, is bowed out to one side or the other, a
// little more at each try, until it is long enough and its head clear
// of every label: a move between units that stand close together is a
// visible arc, not an arrow head stuck on a unit. outside, if set,
// measures how much of a bow leaves the provinces the order joins: the
// least bow that stays over them (within overSlack) is taken, or else
// the one that leaves them least. It says too whether the line will do
// (not where neither a way nor a bow would, and the first way is drawn
// as trimmed anyway: a convoy's route, always), and how much of it, in
// map units, leaves the provinces (none where fit is not told how to
// measure).
func (d *drawer) fit(ways [][]pt, trim func([]pt) ([]pt, bool), headPx float64, outside func([]pt) float64) ([]pt, bool, float64) {
	want := (minShaft + headPx) * d.px
	for _, w := range ways {
		if p, ok := trim(w); ok && pathLen(p) >= want {
			out := 0.0
			if outside != nil {
				out = outside(w)
			}
			return p, true, out
		}
	}
	drawn, _ := trim(ways[0])
	if len(ways[0]) != 2 && len(ways) == 1 {
		return drawn, false, math.Inf(1) // a convoy's route
	}
	a, b := ways[0][0], ways[0][len(ways[0])-1]
	n := pt{-(b.Y - a.Y), b.X - a.X}.unit()
	var fallback []pt // the bow that will do and leaves the provinces least
	least := math.Inf(1)
	slides := []float64{0}
	if outside != nil {
		// Leaning toward one end or the other, a bow may find room over
		// the two provinces that the even one does not.
		slides = []float64{0, -0.3, 0.3, -0.6, 0.6}
	}
	for h := 4 * d.px; h <= 200*d.px; h += 4 * d.px {
		for _, side := range []float64{1, -1} {
			for _, slide := range slides {
				// A quadratic Bézier whose middle lies h off the chord, on
				// the left first, then on the right.
				c := a.lerp(b, 0.5+slide/2).add(n.mul(2 * h * side))
				const steps = 24
				curve := make([]pt, steps+1)
				for i := range curve {
					t := float64(i) / steps
					curve[i] = a.mul((1 - t) * (1 - t)).add(c.mul(2 * t * (1 - t))).add(b.mul(t * t))
				}
				p, ok := trim(curve)
				if ok && pathLen(p) >= want && (headPx == 0 || !d.headOnLabel(p, headPx/arrowHeadLen/0.8*d.px)) {
					if outside == nil {
						return p, true, 0
					}
					if out := outside(curve); out <= overSlack*d.px {
						return p, true, out
					} else if out < least {
						fallback, least = p, out
					}
				}
			}
		}
	}
	if fallback != nil {
		return fallback, true, least
	}
	return drawn, false, math.Inf(1) // no bow does: the straight line, as trimmed
}

// headInside is how far inside its target province, in pixels, a
// move's head must end: a tip on the border points at both provinces.
// Where the target's own point lies nearer its border (a fleet's point
// off a narrow coast), as far in as that point.
const headInside = 3

// tipInside reports whether path ends inside province q, as far from
// its border as headInside pixels or, if nearer, the target's point at
// does. Schematic boards have no borders.
func (d *drawer) tipInside(path []pt, q judge.Loc, at pt) bool {
	b := d.b
	if b.schematic || len(path) < 2 || int(q) >= len(b.rings) || len(b.rings[q]) == 0 {
		return true
	}
	b.over.once.Do(b.prepareOver)
	tip := path[len(path)-1]
	if !b.inProvince(q, tip) {
		return false
	}
	need := headInside * d.px
	if b.inProvince(q, at) {
		need = b.borderDist(q, at, need)
	} else {
		need = 0
	}
	return b.borderDist(q, tip, need) >= need*0.99
}

// passesOver reports whether a move's line along path, w wide, with
// its head, comes within occupantGap unit radii of a unit drawn at c.
func (d *drawer) passesOver(path []pt, c pt, w float64) bool {
	if len(path) < 2 {
		return false
	}
	return polyGap(append(slices.Clip(path), arrowHead(path, w)...), c) < occupantGap*d.u
}

// occupantGap is how near, in units' radii, a retreat's line may pass
// the unit that took its province: clear of an army's disc and most of
// a fleet's hull, with the line's own width.
const occupantGap = 1.5

// polyGap is the distance from c to the nearest point of polyline p.
func polyGap(p []pt, c pt) float64 {
	gap := math.Inf(1)
	for i := 1; i < len(p); i++ {
		gap = min(gap, segGap(p[i-1], p[i], c))
	}
	return gap
}

// otherCentres are the boxes of the centre markers of every province
// but target.
func (d *drawer) otherCentres(target judge.Loc) []box {
	var out []box
	for _, p := range d.pos.CenterList() {
		if p != target {
			out = append(out, boxAround(d.centreAt(p), centreR*d.px, centreR*d.px))
		}
	}
	return out
}

// boxesSum is a hash (FNV-1a) of boxes: equal for equal lists.
func boxesSum(boxes []box) uint64 {
	h := uint64(14695981039346656037)
	for _, b := range boxes {
		for _, v := range [4]float64{b.x0, b.y0, b.x1, b.y1} {
			h ^= math.Float64bits(v)
			h *= 1099511628211
		}
	}
	return h
}

// headOnAny reports whether any part of the head of an arrow w wide
// along path lies in one of boxes.
func headOnAny(path []pt, boxes []box, w float64) bool {
	if len(path) < 2 {
		return false
	}
	hd := arrowHead(path, w)
	h := box{min(hd[0].X, hd[1].X, hd[2].X), min(hd[0].Y, hd[1].Y, hd[2].Y), max(hd[0].X, hd[1].X, hd[2].X), max(hd[0].Y, hd[1].Y, hd[2].Y)}
	for _, b := range boxes {
		if h.overlaps(b) && headUnder(path, b, w) {
			return true
		}
	}
	return false
}

// headOnLabel reports whether the head of an arrow w wide along path
// reaches into any province's label.
func (d *drawer) headOnLabel(path []pt, w float64) bool {
	for _, lb := range d.labelBoxes() {
		if headCovers(path, lb, w) {
			return true
		}
	}
	return false
}

// convoyMark draws a diamond round a convoying fleet at c, in its power's
// colour over a dark outline (dashed when the convoy failed): a hold is a
// ring, a convoy a diamond, as its line ends in one.
func (d *drawer) convoyMark(c pt, col color.NRGBA, failed bool, class, title string) {
	ax, ay := 2.5*d.u, 2.2*d.u // clear of the hull, which is 1.45 units wide each side
	ring := []pt{c.add(pt{-ax, 0}), c.add(pt{0, -ay}), c.add(pt{ax, 0}), c.add(pt{0, ay})}
	var dash []float64
	if failed {
		class += " failed"
		dash = []float64{4 * d.px, 3 * d.px}
	}
	d.add(gOrders, elem{kind: kPath, class: "order-outline", rings: [][]pt{ring}, closed: true, stroke: colInk, width: 4.6 * d.px, dash: dash})
	d.add(gOrders, elem{kind: kPath, class: class, title: title, rings: [][]pt{ring}, closed: true, stroke: col, width: 2.6 * d.px, dash: dash})
}

// nearPath reports whether c lies within r of polyline p.
func nearPath(p []pt, c pt, r float64) bool { return distToPath(p, c) < r }

// distToPath is the distance from c to polyline p (+Inf for a path of
// fewer than two points).
func distToPath(p []pt, c pt) float64 {
	best := math.Inf(1)
	for i := 1; i < len(p); i++ {
		a, b := p[i-1], p[i]
		ab := b.sub(a)
		t := 0.0
		if l2 := ab.X*ab.X + ab.Y*ab.Y; l2 > 0 {
			t = math.Max(0, math.Min(1, (c.sub(a).X*ab.X+c.sub(a).Y*ab.Y)/l2))
		}
		best = math.Min(best, a.add(ab.mul(t)).sub(c).len())
	}
	return best
}

// movesTo reports whether the unit of province p is ordered to move to
// dest's province.
func (d *drawer) movesTo(p, dest judge.Loc) bool {
	for i := range d.results {
		o := &d.results[i].Order
		if o.Kind == judge.Move && d.valid(o.Unit) && d.valid(o.Target) &&
			d.m.Province(o.Unit) == p && d.m.Province(o.Target) == d.m.Province(dest) {
			return true
		}
	}
	return false
}

// removal crosses out a unit that is disbanded or removed.
func (d *drawer) removal(r *judge.OrderResult) {
	o := &r.Order
	if !d.valid(o.Unit) {
		return
	}
	failed, oc := orderFailed(r)
	c := d.from(o.Unit)
	if failed {
		d.note(c.add(pt{0, -d.u * 1.9}), oc.String())
		return
	}
	d.removalMark(c, "order "+o.Kind.String(), r.Default, d.orderTitle(r, oc))
}

// removalMark strikes out a unit drawn at c that leaves the board (a
// removal, a disband, or a dislodged unit with no retreat): a black ×
// as wide as the unit, where a bounce is a small red one; reletter then
// writes the unit's letter over it.
func (d *drawer) removalMark(c pt, class string, byJudge bool, title string) {
	lines := crossLines(c, d.u*1.2)
	d.struck = append(d.struck, c)
	if byJudge {
		class += " default"
	}
	d.add(gMarks, elem{kind: kPath, class: "mark-halo", rings: lines, stroke: colWhite, width: 6.5 * d.px})
	d.add(gMarks, elem{kind: kPath, class: class, title: title, rings: lines, stroke: colInk, width: 3.4 * d.px})
}

// buildOrder draws the new unit of a build with a plus beside it; a build
// that failed is drawn faded and crossed.
func (d *drawer) buildOrder(r *judge.OrderResult) {
	o := &r.Order
	if !d.valid(o.Unit) || o.Type == judge.NoUnit {
		return
	}
	failed, oc := orderFailed(r)
	pw := d.orderPower(o)
	c := d.b.at[o.Unit]
	i := d.unit(judge.Unit{Type: o.Type, Power: pw, Loc: o.Unit}, c, " build")
	d.sc.elems[i].title = d.orderTitle(r, oc)
	if failed {
		d.sc.elems[i].fill.c = mix(d.sc.elems[i].fill.c, colWhite, 0.6)
		d.cross(c, d.u, oc.String())
		return
	}
	// The plus badge: the unit is new. It goes beside the unit where it
	// covers no label and not the centre marker.
	b := d.badgeSpot(c, 6.5*d.px)
	d.add(gMarks, elem{kind: kCircle, class: "build-badge", c: b, r: 5.5 * d.px, fill: fill{c: colWhite}, stroke: colInk, width: 1.2 * d.px})
	l := 3.2 * d.px
	d.add(gMarks, elem{kind: kPath, class: "build-plus", rings: plusLines(b, l), stroke: colInk, width: 1.8 * d.px})
}

// outcomeMark marks why an order failed: a cross at the head of a move
// that bounced, a bar across a support that was cut, and a word for the
// rest.
func (d *drawer) outcomeMark(path []pt, oc judge.Outcome) {
	switch oc {
	case judge.Bounced:
		l, hw := 5*d.px, (5+markClear)*d.px
		at := d.clearSpot(path, 9*d.px, hw, hw)
		d.avoid(boxAround(at, hw, hw))
		d.cross(at, l, "bounce")
	case judge.Cut:
		dir := path[len(path)-1].sub(path[0]).unit()
		n := pt{-dir.Y, dir.X}.mul(8 * d.px)
		t := dir.mul(2.5 * d.px)
		// At the line's middle, or the nearest spot along it where the
		// bars cover no name: a support often starts beside its own
		// province's name.
		hw, hh := math.Abs(n.X)+math.Abs(t.X)+markClear*d.px, math.Abs(n.Y)+math.Abs(t.Y)+markClear*d.px
		m := d.clearSpot(path, pathLen(path)/2, hw, hh)
		d.avoid(boxAround(m, hw, hh))
		lines := [][]pt{{m.sub(n).sub(t), m.add(n).sub(t)}, {m.sub(n).add(t), m.add(n).add(t)}}
		d.add(gMarks, elem{kind: kPath, class: "mark-halo", rings: lines, stroke: colWhite, width: 4.5 * d.px})
		d.add(gMarks, elem{kind: kPath, class: "mark cut", title: "cut", rings: lines, stroke: colFail, width: 2.2 * d.px})
	case judge.Dislodged, judge.Succeeds:
	default:
		w := 0.31 * 10 * d.px * float64(len(oc.String()))
		d.note(d.clearSpot(path, pathLen(path)/2, w, 6*d.px), oc.String())
	}
}

// sameTrack reports whether path b runs within w of path a reversed
// along most of its length: the middle of each lies on the other.
func sameTrack(a, b []pt, w float64) bool {
	for _, f := range []float64{0.3, 0.5, 0.7} {
		if !nearPath(a, pointAt(b, f*pathLen(b)), w) || !nearPath(b, pointAt(a, f*pathLen(a)), w) {
			return false
		}
	}
	return true
}

// besideTrack returns path moved off its track by off to its right, its
// ends by half as much (they stay at the units).
func besideTrack(path []pt, off float64) []pt {
	if len(path) == 2 {
		// A straight line bends at its middle, moved the whole way.
		path = []pt{path[0], path[0].lerp(path[1], 0.5), path[1]}
	}
	out := make([]pt, len(path))
	last := len(path) - 1
	for i, p := range path {
		var dir pt
		switch i {
		case 0:
			dir = path[1].sub(p)
		case last:
			dir = p.sub(path[i-1])
		default:
			dir = path[i+1].sub(path[i-1])
		}
		n := pt{-dir.Y, dir.X}.unit()
		k := off
		if i == 0 || i == last {
			k = off / 2
		}
		out[i] = p.add(n.mul(k))
	}
	return out
}

// bounceMark draws a bounced move's ✗ on its line near its head, clear
// of names and centre markers, of every unit (a ✗ on the unit that moved
// read as its removal: Milan's army that failed to take Tyrolia) and of
// every other move's head (under a ✗ a successful move's head was lost,
// and the move read as a support: Europe 1939's A Pic-Bur). own is the
// index of the move's own head in d.heads, which the ✗ may touch.
func (d *drawer) bounceMark(path []pt, own int) {
	l, hw := 5*d.px, (5+markClear)*d.px
	var marks []box // the units and the other heads
	for i, h := range d.heads {
		if i != own {
			marks = append(marks, h)
		}
	}
	for _, p := range d.m.Provinces() {
		if _, ok := d.pos.UnitAt(p); ok {
			marks = append(marks, boxAround(d.unitAt[p], d.u, d.u))
		}
	}
	// Clear of everything; else of the units, heads and marks, over a
	// name if need be; else of the names, as before there were both.
	at, clear := spotClearOf(path, 9*d.px, hw, hw, d.px, slices.Concat(d.keepClear(), marks))
	if !clear {
		if at, clear = spotClearOf(path, 9*d.px, hw, hw, d.px, slices.Concat(marks, d.placed)); !clear {
			at = d.clearSpot(path, 9*d.px, hw, hw)
		}
	}
	d.avoid(boxAround(at, hw, hw))
	d.cross(at, l, "bounce")
}

// ringBox is the box round ring's points.
func ringBox(ring []pt) box {
	b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range ring {
		b = box{min(b.x0, p.X), min(b.y0, p.Y), max(b.x1, p.X), max(b.y1, p.Y)}
	}
	return b
}

// The ends of order lines.
const (
	headArrow = iota
	headDot
	headDiamond
	headNone // a piece of a line that goes on across the cut (globe.go)
)

// arrow draws an order's line in the power's colour over a dark outline,
// with its head; a failed order is dashed.
func (d *drawer) arrow(path []pt, c color.NRGBA, w float64, failed bool, class, title string, head int) {
	if len(path) < 2 {
		return
	}
	var dash []float64
	if failed {
		class += " failed"
		dash = []float64{7 * d.px, 4 * d.px}
	}
	tip := path[len(path)-1]
	dir := tip.sub(path[len(path)-2]).unit()
	nrm := pt{-dir.Y, dir.X}
	var headRing []pt
	shaft := path
	switch head {
	case headArrow:
		shaft = trimEnd(path, arrowHeadLen*w*0.8)
		headRing = arrowHead(path, w)
	case headDot:
		headRing = circleRing(tip, 2.2*w, 2.2*w/d.px)
	case headDiamond:
		l := 3 * w
		headRing = []pt{tip.add(dir.mul(l)), tip.add(nrm.mul(l * 0.7)), tip.sub(dir.mul(l)), tip.sub(nrm.mul(l * 0.7))}
	}
	ow := 1.1 * d.px
	d.add(gOrders, elem{kind: kPath, class: "order-outline", rings: [][]pt{shaft}, stroke: colInk, width: w + 2*ow, dash: dash})
	d.add(gOrders, elem{kind: kPath, class: class, title: title, rings: [][]pt{shaft}, stroke: c, width: w, dash: dash})
	if headRing != nil {
		d.add(gOrders, elem{kind: kPath, class: "order-head", rings: [][]pt{headRing}, closed: true, fill: fill{c: c}, stroke: colInk, width: ow})
	}
}

// arrowHeadLen and arrowHeadW are an arrow head's length and width, in
// widths of its line.
const (
	arrowHeadLen = 4.2
	arrowHeadW   = 4.0
)

// arrowHead is the triangle at the end of path, for a line w wide: its
// tip, then its two barbs.
func arrowHead(path []pt, w float64) []pt {
	tip := path[len(path)-1]
	dir := tip.sub(path[len(path)-2]).unit()
	nrm := pt{-dir.Y, dir.X}
	base := tip.sub(dir.mul(arrowHeadLen * w))
	return []pt{tip, base.add(nrm.mul(arrowHeadW * w / 2)), base.sub(nrm.mul(arrowHeadW * w / 2))}
}

// pathLen is the length of a polyline.
func pathLen(p []pt) float64 {
	var l float64
	for i := 1; i < len(p); i++ {
		l += p[i].sub(p[i-1]).len()
	}
	return l
}

// pointAt returns the point at distance s along p.
func pointAt(p []pt, s float64) pt {
	for i := 1; i < len(p); i++ {
		seg := p[i].sub(p[i-1]).len()
		if s <= seg && seg > 0 {
			return p[i-1].lerp(p[i], s/seg)
		}
		s -= seg
	}
	return p[len(p)-1]
}

// pointBack returns the point at distance s before the end of p.
func pointBack(p []pt, s float64) pt { return pointAt(p, math.Max(0, pathLen(p)-s)) }

// trimStart drops the part of p within l units of its start (keeping at
// least a short stub): as the crow flies, not along p, so that a curve
// leaves the unit's symbol as a straight line does.
func trimStart(p []pt, l float64) []pt {
	total := pathLen(p)
	l = math.Min(l, total*0.4)
	o := p[0]
	for i := 1; i < len(p); i++ {
		if p[i].sub(o).len() < l {
			continue
		}
		// The segment's first point lies within l of o and its last
		// beyond: where it crosses, by halving.
		a, b := p[i-1], p[i]
		lo, hi := 0.0, 1.0
		for range 30 {
			if mid := (lo + hi) / 2; a.lerp(b, mid).sub(o).len() < l {
				lo = mid
			} else {
				hi = mid
			}
		}
		return append([]pt{a.lerp(b, hi)}, p[i:]...)
	}
	return p[len(p)-1:]
}

// trimAlong drops the first l units along p (keeping at least a short
// stub).
func trimAlong(p []pt, l float64) []pt {
	total := pathLen(p)
	l = math.Min(l, total*0.4)
	for len(p) >= 2 {
		seg := p[1].sub(p[0]).len()
		if l < seg {
			out := append([]pt{p[0].lerp(p[1], l/seg)}, p[1:]...)
			return out
		}
		l -= seg
		p = p[1:]
	}
	return p
}

// trimEnd drops the last l units along p.
func trimEnd(p []pt, l float64) []pt {
	r := make([]pt, len(p))
	for i := range p {
		r[len(p)-1-i] = p[i]
	}
	r = trimAlong(r, l)
	out := make([]pt, len(r))
	for i := range r {
		out[len(r)-1-i] = r[i]
	}
	return out
}

// legend draws the band under the map: the phase, then each power's
// colour, letter, name and centre count, and what the symbols mean.
func (d *drawer) legend() {
	px := d.px
	top := d.b.h
	perRow := legendColumns(d.m, d.b.w/px-24)
	rows := (len(d.m.Powers) + perRow - 1) / perRow
	keys := d.keyLines(d.usedMarks())
	h := (34 + 22*float64(rows) + 6 + 20*float64(len(keys))) * px
	if d.b.schematic {
		h += 20 * px // a key line for the edges
	}
	d.sc.h = top + h
	sc := d.sc
	d.add(gLegend, elem{kind: kPath, class: "legend-ground", rings: [][]pt{rect(0, top, d.b.w, h)}, closed: true,
		fill: fill{c: colLegend}, stroke: colBorder, width: 1 * px})
	title := d.titleText()
	d.add(gLegend, elem{kind: kText, class: "phase", c: pt{12 * px, top + 23*px}, text: title, size: 17 * px, anchor: 's', bold: true, fill: fill{c: colInk}})
	sub := d.m.Title
	var waived []string
	for i := range d.results {
		if r := &d.results[i]; r.Order.Kind == judge.Waive {
			waived = append(waived, d.m.PowerName(d.orderPower(&r.Order)))
		}
	}
	if len(waived) > 0 {
		sub += " · waived: " + strings.Join(waived, ", ")
	}
	d.add(gLegend, elem{kind: kText, class: "variant", c: pt{(12 + 10.5*float64(len(title))) * px, top + 23*px}, text: sub, size: 13 * px, anchor: 's', fill: fill{c: colInk}})
	if len(waived) > 0 {
		sc.elems[len(sc.elems)-1].class += " waive"
	}
	counts := d.centreCounts()
	colW := (d.b.w - 24*px) / float64(perRow)
	for i := range d.m.Powers {
		st := d.ps[i]
		x := 12*px + float64(i%perRow)*colW
		y := top + 34*px + float64(i/perRow)*22*px + 9*px
		d.add(gLegend, elem{kind: kPath, class: "swatch power-" + st.Letter, rings: [][]pt{rect(x, y-8*px, 16*px, 16*px)}, closed: true,
			fill: fill{c: st.Tint, pattern: st.Pattern, ink: st.Unit}, stroke: colInk, width: 1 * px})
		d.add(gLegend, elem{kind: kCircle, class: "swatch-unit", c: pt{x + 27*px, y}, r: 8 * px, fill: fill{c: st.Unit}, stroke: colInk, width: 1 * px})
		d.add(gLegend, elem{kind: kText, class: "swatch-letter", c: pt{x + 27*px, y}, text: st.Letter, size: 10.5 * px, anchor: 'm', bold: true, fill: fill{c: st.Text}})
		d.add(gLegend, elem{kind: kText, class: "power", c: pt{x + 40*px, y + 4.5*px}, text: fmt.Sprintf("%s %d", d.m.Powers[i].Name, counts[i]),
			size: 12.5 * px, anchor: 's', fill: fill{c: colInk}})
	}
	d.group = gLegend
	y := top + 34*px + 22*float64(rows)*px + 13*px
	for _, line := range keys {
		x := 12 * px
		for _, k := range line {
			k.draw(d, x, y)
			x = d.keyText(x+k.w*px, y, k.says)
		}
		y += 20 * px
	}
	if d.b.schematic {
		d.edgeKey(y)
	}
	d.group = ""
}

// A keyEntry explains one kind of mark in the legend: its symbol, w
// pixels wide, drawn at x (its left) and y (its middle), and what it
// says. Each has a class "key-"+id, and the legend shows an entry
// exactly when the picture holds its mark (usedMarks).
type keyEntry struct {
	id   string
	w    float64
	says string
	draw func(d *drawer, x, y float64)
}

var keyGrey = rgb(0x80, 0x80, 0x80)

// keyEntries are every entry the legend may show, in its order.
var keyEntries = []keyEntry{
	{"army", 18, "army", func(d *drawer, x, y float64) {
		d.add(gLegend, elem{kind: kCircle, class: "key-army", c: pt{x + 7*d.px, y}, r: 7 * d.px, fill: fill{c: keyGrey}, stroke: colInk, width: 1 * d.px})
	}},
	{"fleet", 24, "fleet", func(d *drawer, x, y float64) {
		px := d.px
		d.add(gLegend, elem{kind: kPath, class: "key-fleet", closed: true, rings: [][]pt{{{x, y - 5*px}, {x + 18*px, y - 5*px}, {x + 13*px, y + 5*px}, {x + 5*px, y + 5*px}}},
			fill: fill{c: keyGrey}, stroke: colInk, width: 1 * px})
	}},
	{"neutral-unit", 18, "neutral unit", func(d *drawer, x, y float64) {
		d.add(gLegend, elem{kind: kCircle, class: "key-neutral-unit", c: pt{x + 7*d.px, y}, r: 7 * d.px, fill: fill{c: colNeutral}, stroke: colInk, width: 1 * d.px})
	}},
	{"move", 40, "move", func(d *drawer, x, y float64) {
		d.arrow([]pt{{x, y}, {x + 34*d.px, y}}, keyGrey, 3*d.px, false, "key-move", "", headArrow)
	}},
	{"hold", 22, "hold", func(d *drawer, x, y float64) {
		d.add(gLegend, elem{kind: kCircle, class: "key-hold", c: pt{x + 8*d.px, y}, r: 7 * d.px, stroke: keyGrey, width: 2.4 * d.px})
	}},
	{"support", 38, "support", func(d *drawer, x, y float64) {
		d.arrow([]pt{{x, y}, {x + 30*d.px, y}}, keyGrey, 2*d.px, false, "key-support", "", headDot)
	}},
	{"convoy", 34, "convoy", func(d *drawer, x, y float64) {
		px := d.px
		c := pt{x + 14*px, y}
		d.add(gLegend, elem{kind: kPath, class: "key-convoy", closed: true, rings: [][]pt{{c.add(pt{-13 * px, 0}), c.add(pt{0, -9 * px}), c.add(pt{13 * px, 0}), c.add(pt{0, 9 * px})}},
			stroke: keyGrey, width: 2.4 * px})
		d.add(gLegend, elem{kind: kPath, class: "key-convoy", closed: true, rings: [][]pt{{c.add(pt{-6 * px, -3.5 * px}), c.add(pt{6 * px, -3.5 * px}), c.add(pt{4 * px, 3.5 * px}), c.add(pt{-4 * px, 3.5 * px})}},
			fill: fill{c: keyGrey}, stroke: colInk, width: 1 * px})
	}},
	{"failed", 40, "failed", func(d *drawer, x, y float64) {
		d.arrow([]pt{{x, y}, {x + 34*d.px, y}}, keyGrey, 3*d.px, true, "key-failed", "", headArrow)
	}},
	{"bounce", 16, "bounce", func(d *drawer, x, y float64) { d.cross(pt{x + 5*d.px, y}, 5*d.px, "key-bounce") }},
	{"cut", 16, "cut support", func(d *drawer, x, y float64) {
		px := d.px
		lines := [][]pt{{{x + 2*px, y - 7*px}, {x + 2*px, y + 7*px}}, {{x + 7*px, y - 7*px}, {x + 7*px, y + 7*px}}}
		d.add(gLegend, elem{kind: kPath, class: "key-cut", rings: lines, stroke: colFail, width: 2.2 * px})
	}},
	{"standoff", 20, "stand-off", func(d *drawer, x, y float64) {
		px := d.px
		d.add(gLegend, elem{kind: kCircle, class: "key-standoff", c: pt{x + 7*px, y}, r: 7 * px, fill: fill{c: colWhite}, stroke: colInk, width: 1.5 * px})
		d.add(gLegend, elem{kind: kPath, class: "key-standoff", rings: crossLines(pt{x + 7*px, y}, 4*px), stroke: colInk, width: 1.8 * px})
	}},
	{"dislodged", 22, "dislodged", func(d *drawer, x, y float64) {
		d.add(gLegend, elem{kind: kCircle, class: "key-dislodged", c: pt{x + 8*d.px, y}, r: 8 * d.px, stroke: colFail, width: 2 * d.px, dash: []float64{3 * d.px, 2 * d.px}})
	}},
	{"attacker", 34, "attacked from", func(d *drawer, x, y float64) {
		px := d.px
		d.add(gLegend, elem{kind: kPath, class: "key-attacker", rings: [][]pt{{{x + 4*px, y}, {x + 28*px, y}}}, stroke: colFail, width: 1.5 * px, dash: []float64{2 * px, 2 * px}})
		d.add(gLegend, elem{kind: kCircle, class: "key-attacker", c: pt{x + 4*px, y}, r: 4 * px, fill: fill{c: colWhite}, stroke: colFail, width: 1.8 * px})
	}},
	{"destroyed", 22, "destroyed (no retreat)", func(d *drawer, x, y float64) {
		d.add(gLegend, elem{kind: kCircle, class: "key-destroyed", c: pt{x + 8*d.px, y}, r: 8 * d.px, stroke: colFail, width: 2 * d.px, dash: []float64{3 * d.px, 2 * d.px}})
		d.add(gLegend, elem{kind: kPath, class: "key-destroyed", rings: crossLines(pt{x + 8*d.px, y}, 7*d.px), stroke: colInk, width: 3 * d.px})
	}},
	{"remove", 20, "removed or disbanded", func(d *drawer, x, y float64) {
		d.add(gLegend, elem{kind: kPath, class: "key-remove", rings: crossLines(pt{x + 7*d.px, y}, 7*d.px), stroke: colInk, width: 3 * d.px})
	}},
	{"build", 18, "built", func(d *drawer, x, y float64) {
		c := pt{x + 6*d.px, y}
		d.add(gLegend, elem{kind: kCircle, class: "key-build", c: c, r: 5.5 * d.px, fill: fill{c: colWhite}, stroke: colInk, width: 1.2 * d.px})
		d.add(gLegend, elem{kind: kPath, class: "key-build", rings: plusLines(c, 3.2*d.px), stroke: colInk, width: 1.8 * d.px})
	}},
	{"construction", 22, "centre being built", func(d *drawer, x, y float64) {
		c := pt{x + 8*d.px, y}
		d.add(gLegend, elem{kind: kCircle, class: "key-construction", c: c, r: (constructR - 1.2) * d.px, fill: fill{c: colWhite},
			stroke: keyGrey, width: 2.4 * d.px, dash: []float64{3 * d.px, 2 * d.px}})
		d.add(gLegend, elem{kind: kPath, class: "key-construction", rings: plusLines(c, 4*d.px), stroke: colInk, width: 1.6 * d.px})
	}},
	{"spoiled", 16, "spoiled", func(d *drawer, x, y float64) { d.cross(pt{x + 6*d.px, y}, 6*d.px, "key-spoiled") }},
	{"owned", 18, "centre", func(d *drawer, x, y float64) {
		d.add(gLegend, elem{kind: kCircle, class: "key-owned", c: pt{x + 7*d.px, y}, r: centreR * d.px, fill: fill{c: keyGrey}, stroke: colInk, width: 1 * d.px})
	}},
	{"closed", 18, "closed this season", func(d *drawer, x, y float64) {
		px := d.px
		d.add(gLegend, elem{kind: kPath, class: "key-closed", closed: true, rings: [][]pt{rect(x, y-6*px, 14*px, 12*px)},
			fill: fill{c: colDeep}, stroke: colBorder, width: 1 * px})
	}},
	{"neutral", 16, "neutral centre", func(d *drawer, x, y float64) {
		c := pt{x + 6*d.px, y}
		d.add(gLegend, elem{kind: kCircle, class: "key-neutral", c: c, r: 5 * d.px, fill: fill{c: colWhite}, stroke: colInk, width: 1.4 * d.px})
		d.add(gLegend, elem{kind: kCircle, class: "key-neutral", c: c, r: 1.8 * d.px, fill: fill{c: colInk}})
	}},
}

// usedMarks returns the ids of the key entries whose marks the picture
// drawn so far holds, read from the classes of its shapes.
func (d *drawer) usedMarks() map[string]bool {
	used := map[string]bool{}
	for i := range d.sc.elems {
		e := &d.sc.elems[i]
		if e.group == gLegend {
			continue
		}
		f := strings.Fields(e.class)
		has := func(c string) bool { return slices.Contains(f, c) }
		switch {
		case has("unit") && has("army"):
			used["army"] = true
		case has("unit") && has("fleet"):
			used["fleet"] = true
		case has("order") && (has("move") || has("retreat")):
			used["move"] = true
		case has("order") && has("hold"):
			used["hold"] = true
		case has("order") && (has("support-move") || has("support-hold")):
			used["support"] = true
		case has("order") && has("convoy"):
			used["convoy"] = true
		case has("mark") && has("bounce"):
			used["bounce"] = true
		case has("mark") && has("cut"):
			used["cut"] = true
		case has("mark") && has("spoiled"):
			used["spoiled"] = true
		case has("standoff"):
			used["standoff"] = true
		case has("dislodged-ring"):
			used["dislodged"] = true
		case has("destroyed"):
			used["destroyed"] = true
		case has("attacker"):
			used["attacker"] = true
		case has("order") && (has("remove") || has("disband")):
			used["remove"] = true
		case has("build-badge"):
			used["build"] = true
		case has("construction"):
			used["construction"] = true
		case has("sc") && has("owned"):
			used["owned"] = true
		case has("sc") && has("neutral"):
			used["neutral"] = true
		}
		if has("order") && has("failed") && !has("hold") && !has("convoy") {
			used["failed"] = true
		}
		if has("unit") && has("neutral") {
			used["neutral-unit"] = true
		}
		if has("province") && has("closed") {
			used["closed"] = true
		}
	}
	return used
}

// keyLines lays the entries of used out in lines that fit the picture's
// width.
func (d *drawer) keyLines(used map[string]bool) [][]keyEntry {
	var lines [][]keyEntry
	var line []keyEntry
	x, max := 12.0, d.b.w/d.px-12
	for _, k := range keyEntries {
		if !used[k.id] {
			continue
		}
		w := k.w + float64(len(k.says))*6.3 + 16
		if x+w > max && len(line) > 0 {
			lines, line, x = append(lines, line), nil, 12
		}
		line, x = append(line, k), x+w
	}
	if len(line) > 0 {
		lines = append(lines, line)
	}
	return lines
}

// edgeKey explains the schematic's lines and shapes: only those the
// board has, so that Pure, all land, does not show fleet moves and seas
// a player would look for in vain (schematicKinds).
func (d *drawer) edgeKey(y float64) {
	px := d.px
	x := 12 * px
	edges, land, sea := d.b.schematicKinds()
	for i, st := range edgeStyles {
		if !edges[i] {
			continue
		}
		d.add(gLegend, elem{kind: kPath, class: "key-edge-" + st.kind, rings: [][]pt{{{x, y}, {x + 34*px, y}}},
			stroke: st.c, width: st.width * px, dash: scaled(st.dash, px)})
		x = d.keyText(x+40*px, y, st.says)
	}
	if land {
		d.add(gLegend, elem{kind: kCircle, class: "key-land", c: pt{x + 8*px, y}, r: 8 * px, fill: fill{c: colLand}, stroke: colBorder, width: 1.2 * px})
		d.keyText(x+22*px, y, "land")
		x += 66 * px
	}
	if sea {
		d.add(gLegend, elem{kind: kPath, class: "key-sea", closed: true, rings: [][]pt{rect(x, y-7*px, 14*px, 14*px)}, fill: fill{c: colSea}, stroke: colBorder, width: 1.2 * px})
		d.keyText(x+22*px, y, "sea")
	}
}

// legendColumns says how many powers a row of the legend holds, at most
// seven: as many as fit the widest entry (swatch, unit, then "name 99"),
// so that long names on a board of many powers (World's "Frozen
// Antarctica") do not run into the next entry. width is in pixels.
func legendColumns(m *judge.Map, width float64) int {
	widest := 0
	for _, p := range m.Powers {
		widest = max(widest, len(p.Name)+3)
	}
	// 12.5 px type: a generous 7.2 px a character; 40 px of swatch and
	// unit before the text, 10 px of space after it.
	n := int(width / (40 + 7.2*float64(widest) + 10))
	return min(max(n, 1), 7)
}

// keyText writes a word of the key starting at x, on the line at height
// y, and returns where the next item of the line starts.
func (d *drawer) keyText(x, y float64, s string) float64 {
	px := d.px
	d.add(gLegend, elem{kind: kText, class: "key", c: pt{x, y + 4*px}, text: s, size: 11 * px, anchor: 's', fill: fill{c: colInk}})
	return x + (float64(len(s))*6.3+16)*px
}
