package picture

import (
	"fmt"
	"image/color"
	"math"
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
	return r.Dislodged && r.Order.Kind == judge.Hold, oc
}

// orders draws the orders of the resolution: moves first, since supports
// and convoys point at the moves' paths.
func (d *drawer) orders() {
	for i := range d.results {
		if r := &d.results[i]; r.Order.Kind == judge.Move {
			d.move(r)
		}
	}
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
				return d.dislodgedAt(du.Loc)
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
	var lead []pt // a move off one side of a schematic that comes back at the other
	if len(path) == 1 && d.b.wraps(path[0], end) {
		dir := d.b.wrapDir(path[0], end)
		l := d.u + 1.5*stubLen
		lead = trimStart([]pt{path[0], path[0].add(dir.mul(l))}, d.u*1.05)
		path = []pt{end.sub(dir.mul(l))}
	}
	path = append(path, end)
	failed, oc := orderFailed(r)
	// The drawn path starts at the unit's edge and ends short of the
	// target's point, at the edge of a unit that stands or would stand
	// there (a stand-off is marked there too), and outside the target's
	// label, so that the head covers neither.
	path = trimStart(path, d.u*1.05)
	tp := d.m.Province(o.Target)
	short := d.u * 0.85 // an empty target: room for a stand-off mark
	if _, ok := d.pos.UnitAt(tp); ok && d.pos.Phase.Type == judge.Movement {
		short = d.u * 1.15
	}
	path = trimEnd(path, short)
	const moveW = 3.2 // the line's width in pixels
	path = clearOfLabel(path, d.labelBox(tp).grow(d.px), 2*d.px, moveW*d.px)
	d.moved[d.m.Province(o.Unit)] = path
	class := "order move"
	if d.pos.Phase.Type == judge.Retreat {
		class = "order retreat"
	}
	if len(route) > 0 {
		class += " convoyed"
	}
	st := d.style(d.orderPower(o))
	if lead != nil {
		d.arrow(lead, st.Unit, moveW*d.px, failed, class+" wrap", d.orderTitle(r, oc), headArrow)
	}
	d.arrow(path, st.Unit, moveW*d.px, failed, class, d.orderTitle(r, oc), headArrow)
	if failed {
		d.outcomeMark(path, oc)
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
			end = midpoint(p)
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
	path := trimStart([]pt{start, end}, d.u*1.05)
	if o.Kind == judge.SupportHold {
		path = trimEnd(path, d.u*1.3)
	}
	if len(path) < 2 {
		return
	}
	d.arrow(path, st.Unit, 2*d.px, failed, class, title, head)
	if failed {
		d.outcomeMark(path, oc)
	}
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
func nearPath(p []pt, c pt, r float64) bool {
	for i := 1; i < len(p); i++ {
		a, b := p[i-1], p[i]
		ab := b.sub(a)
		t := 0.0
		if l2 := ab.X*ab.X + ab.Y*ab.Y; l2 > 0 {
			t = math.Max(0, math.Min(1, (c.sub(a).X*ab.X+c.sub(a).Y*ab.Y)/l2))
		}
		if a.add(ab.mul(t)).sub(c).len() < r {
			return true
		}
	}
	return false
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
	l := d.u * 1.1
	lines := crossLines(c, l)
	class := "order " + o.Kind.String()
	if r.Default {
		class += " default"
	}
	d.add(gMarks, elem{kind: kPath, class: "mark-halo", rings: lines, stroke: colWhite, width: 6 * d.px})
	d.add(gMarks, elem{kind: kPath, class: class, title: d.orderTitle(r, oc), rings: lines, stroke: colFail, width: 3.2 * d.px})
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
	b := d.badgeSpot(c, d.m.Province(o.Unit), 6.5*d.px)
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
		d.cross(d.clearSpot(path, 9*d.px, 6.5*d.px, 6.5*d.px), 5*d.px, "bounce")
	case judge.Cut:
		m := midpoint(path)
		dir := path[len(path)-1].sub(path[0]).unit()
		n := pt{-dir.Y, dir.X}.mul(8 * d.px)
		t := dir.mul(2.5 * d.px)
		lines := [][]pt{{m.sub(n).sub(t), m.add(n).sub(t)}, {m.sub(n).add(t), m.add(n).add(t)}}
		d.add(gMarks, elem{kind: kPath, class: "mark-halo", rings: lines, stroke: colWhite, width: 4.5 * d.px})
		d.add(gMarks, elem{kind: kPath, class: "mark cut", title: "cut", rings: lines, stroke: colFail, width: 2.2 * d.px})
	case judge.Dislodged, judge.Succeeds:
	default:
		w := 0.31 * 10 * d.px * float64(len(oc.String()))
		d.note(d.clearSpot(path, pathLen(path)/2, w, 6*d.px), oc.String())
	}
}

// The ends of order lines.
const (
	headArrow = iota
	headDot
	headDiamond
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
	d.add(gOrders, elem{kind: kPath, class: "order-head", rings: [][]pt{headRing}, closed: true, fill: fill{c: c}, stroke: colInk, width: ow})
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

func midpoint(p []pt) pt { return pointAt(p, pathLen(p)/2) }

// pointBack returns the point at distance s before the end of p.
func pointBack(p []pt, s float64) pt { return pointAt(p, math.Max(0, pathLen(p)-s)) }

// trimStart drops the first l units of p (keeping at least a short stub).
func trimStart(p []pt, l float64) []pt {
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

// trimEnd drops the last l units of p.
func trimEnd(p []pt, l float64) []pt {
	r := make([]pt, len(p))
	for i := range p {
		r[len(p)-1-i] = p[i]
	}
	r = trimStart(r, l)
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
	const perRow = 7
	rows := (len(d.m.Powers) + perRow - 1) / perRow
	h := (34 + 22*float64(rows) + 26) * px
	if d.b.schematic {
		h += 20 * px // a second key line, for the edges
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
	colW := (d.b.w - 24*px) / perRow
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
	d.key(y)
	if d.b.schematic {
		d.edgeKey(y + 20*px)
	}
	d.group = ""
}

// key explains the symbols in one line at height y.
func (d *drawer) key(y float64) {
	px := d.px
	x := 12 * px
	text := func(s string) { x = d.keyText(x, y, s) }
	grey := rgb(0x80, 0x80, 0x80)
	d.add(gLegend, elem{kind: kCircle, class: "key-army", c: pt{x + 7*px, y}, r: 7 * px, fill: fill{c: grey}, stroke: colInk, width: 1 * px})
	x += 18 * px
	text("army")
	d.add(gLegend, elem{kind: kPath, class: "key-fleet", closed: true, rings: [][]pt{{{x, y - 5*px}, {x + 18*px, y - 5*px}, {x + 13*px, y + 5*px}, {x + 5*px, y + 5*px}}},
		fill: fill{c: grey}, stroke: colInk, width: 1 * px})
	x += 24 * px
	text("fleet")
	d.arrow([]pt{{x, y}, {x + 34*px, y}}, grey, 3*px, false, "key-move", "", headArrow)
	x += 40 * px
	text("move")
	d.arrow([]pt{{x, y}, {x + 30*px, y}}, grey, 2*px, false, "key-support", "", headDot)
	x += 38 * px
	text("support")
	c := pt{x + 14*px, y}
	d.add(gLegend, elem{kind: kPath, class: "key-convoy", closed: true, rings: [][]pt{{c.add(pt{-13 * px, 0}), c.add(pt{0, -9 * px}), c.add(pt{13 * px, 0}), c.add(pt{0, 9 * px})}},
		stroke: grey, width: 2.4 * px})
	d.add(gLegend, elem{kind: kPath, class: "key-convoy", closed: true, rings: [][]pt{{c.add(pt{-6 * px, -3.5 * px}), c.add(pt{6 * px, -3.5 * px}), c.add(pt{4 * px, 3.5 * px}), c.add(pt{-4 * px, 3.5 * px})}},
		fill: fill{c: grey}, stroke: colInk, width: 1 * px})
	x += 34 * px
	text("convoy")
	d.arrow([]pt{{x, y}, {x + 34*px, y}}, grey, 3*px, true, "key-failed", "", headArrow)
	x += 40 * px
	text("failed")
	d.cross(pt{x + 5*px, y}, 5*px, "key-bounce")
	x += 16 * px
	text("bounce")
	d.add(gLegend, elem{kind: kCircle, class: "key-standoff", c: pt{x + 7*px, y}, r: 7 * px, fill: fill{c: colWhite}, stroke: colInk, width: 1.5 * px})
	d.add(gLegend, elem{kind: kPath, class: "key-standoff", rings: crossLines(pt{x + 7*px, y}, 4*px), stroke: colInk, width: 1.8 * px})
	x += 20 * px
	text("stand-off")
	d.add(gLegend, elem{kind: kCircle, class: "key-dislodged", c: pt{x + 8*px, y}, r: 8 * px, stroke: colFail, width: 2 * px, dash: []float64{3 * px, 2 * px}})
	x += 22 * px
	text("dislodged")
}

// edgeKey explains the schematic's lines and shapes.
func (d *drawer) edgeKey(y float64) {
	px := d.px
	x := 12 * px
	for _, st := range edgeStyles {
		d.add(gLegend, elem{kind: kPath, class: "key-edge-" + st.kind, rings: [][]pt{{{x, y}, {x + 34*px, y}}},
			stroke: st.c, width: st.width * px, dash: scaled(st.dash, px)})
		x = d.keyText(x+40*px, y, st.says)
	}
	d.add(gLegend, elem{kind: kCircle, class: "key-land", c: pt{x + 8*px, y}, r: 8 * px, fill: fill{c: colLand}, stroke: colBorder, width: 1.2 * px})
	d.keyText(x+22*px, y, "land")
	x += 66 * px
	d.add(gLegend, elem{kind: kPath, class: "key-sea", closed: true, rings: [][]pt{rect(x, y-7*px, 14*px, 14*px)}, fill: fill{c: colSea}, stroke: colBorder, width: 1.2 * px})
	d.keyText(x+22*px, y, "sea")
}

// keyText writes a word of the key starting at x, on the line at height
// y, and returns where the next item of the line starts.
func (d *drawer) keyText(x, y float64, s string) float64 {
	px := d.px
	d.add(gLegend, elem{kind: kText, class: "key", c: pt{x, y + 4*px}, text: s, size: 11 * px, anchor: 's', fill: fill{c: colInk}})
	return x + (float64(len(s))*6.3+16)*px
}
