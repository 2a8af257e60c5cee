package picture

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// arrowCase is one order drawn alone on an empty board: a unit at from,
// ordered kind to to.
type arrowCase struct {
	from, to judge.Loc
	typ      judge.UnitType
	kind     string // "move", "retreat", "support"
}

// everyArrow lists every move of every unit type between two places of
// m (every adjacency), as a move, as a retreat, and as a support of a
// unit holding there.
func everyArrow(m *judge.Map) []arrowCase {
	var out []arrowCase
	var nb []judge.Loc
	for l := range m.Locs {
		from := judge.Loc(l)
		for _, typ := range []judge.UnitType{judge.Army, judge.Fleet} {
			if !m.CanHold(typ, from) {
				continue
			}
			nb = m.Neighbours(nb[:0], typ, from)
			for _, to := range nb {
				if !m.CanHold(typ, to) {
					continue
				}
				for _, kind := range []string{"move", "retreat", "support"} {
					out = append(out, arrowCase{from, to, typ, kind})
				}
			}
		}
	}
	return out
}

// drawArrow draws the order of one arrowCase (the order only, not the
// board around it) and returns the scene, and where the line should
// end: the target's point, or the supported unit.
func drawArrow(b *board, c arrowCase) (*scene, pt) {
	m := b.m
	ph := judge.Phase{Season: judge.Spring, Year: m.StartYear, Type: judge.Movement}
	if c.kind == "retreat" {
		ph.Type = judge.Retreat
	}
	pos := judge.NewPosition(m, ph)
	u := judge.Unit{Type: c.typ, Power: 0, Loc: c.from}
	o := judge.Order{Kind: judge.Move, Power: 0, Type: c.typ, Unit: c.from, Target: c.to}
	switch c.kind {
	case "retreat":
		pos.Dislodged = []judge.DislodgedUnit{{Unit: u, AttackerFrom: judge.NoLoc}}
	case "support":
		if err := pos.Place(u); err != nil {
			panic(err)
		}
		// The supported unit holds at the target: an army where an army
		// may stand, else a fleet.
		v := judge.Unit{Type: judge.Army, Power: 1, Loc: m.Province(c.to)}
		if !m.CanHold(judge.Army, v.Loc) {
			v = judge.Unit{Type: judge.Fleet, Power: 1, Loc: c.to}
		}
		if err := pos.Place(v); err != nil {
			panic(err)
		}
		o = judge.Order{Kind: judge.SupportHold, Power: 0, Type: c.typ, Unit: c.from, Target: v.Loc}
	default:
		if err := pos.Place(u); err != nil {
			panic(err)
		}
	}
	res := &judge.Resolution{Phase: ph, Results: []judge.OrderResult{{Order: o, Outcome: judge.Succeeds}}}
	d := newDrawer(b, pos, res)
	d.orders()
	if c.kind == "support" {
		return d.sc, d.unitAt[m.Province(c.to)]
	}
	return d.sc, b.at[c.to]
}

// TestEveryArrowVisible draws every possible move, retreat and support
// of every board alone, and checks its line: at least minShaft pixels
// long at the mailed size, starting outside the unit's symbol and ending
// near enough the target to point at it.
func TestEveryArrowVisible(t *testing.T) {
	for _, name := range racetest.Spread(variants.Names(), 6) { // about one in six under -race (package racetest)
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		b := boardFor(m)
		cases := everyArrow(m)
		var short []string
		worst := math.Inf(1)
		for _, c := range cases {
			sc, target := drawArrow(b, c)
			var line *elem
			for i := range sc.elems {
				e := &sc.elems[i]
				if strings.HasPrefix(e.class, "order ") && e.kind == kPath && !e.closed {
					line = e
					break
				}
			}
			what := fmt.Sprintf("%s %s %s-%s", c.kind, c.typ, m.LocName(c.from), m.LocName(c.to))
			if line == nil {
				short = append(short, what+": no line")
				continue
			}
			shaft := line.rings[len(line.rings)-1]
			px := pathLen(shaft) / b.s
			worst = math.Min(worst, px)
			if px < minShaft {
				short = append(short, fmt.Sprintf("%s: %.1f px", what, px))
				continue
			}
			// The line starts off the unit: at least a unit's radius
			// from where the unit is drawn.
			d := &drawer{b: b, m: m, u: 10 * b.s}
			if b.schematic {
				d.u = math.Min(10, b.nodeR*0.8)
			}
			origin := b.at[c.from]
			if c.kind == "retreat" {
				origin = d.dislodgedAt(c.from)
			}
			if gap := shaft[0].sub(origin).len(); gap < d.u*0.95 {
				short = append(short, fmt.Sprintf("%s: starts %.1f px from the unit's centre", what, gap/b.s))
			}
			// It ends at the target: within a unit's room and an arrow
			// head of the target's point (further off only where it
			// keeps clear of the target's label).
			if strings.Contains(line.class, "wrap") {
				continue // a piece off the side of a board round the globe: TestWrap and TestMovesShortWayRoundTheGlobe check those
			}
			tip := shaft[len(shaft)-1]
			for i := range sc.elems {
				if e := &sc.elems[i]; e.class == "order-head" && c.kind != "support" {
					tip = e.rings[0][0] // an arrow head's tip
					break
				}
			}
			reach := d.u*1.3 + 2*b.s
			d.pos = judge.NewPosition(m, judge.Phase{})
			// A head kept wholly off the name (headUnder) may stop up to
			// half its width further off than one whose corners only are.
			lb := d.labelBox(m.Province(c.to)).grow((arrowHeadLen+arrowHeadW/2)*3.2*b.s + 4*b.s)
			inside := !b.schematic && inRings(b.rings[m.Province(c.to)], tip)
			if far := tip.sub(target).len(); far > reach && !lb.contains(tip) && !inside {
				short = append(short, fmt.Sprintf("%s: ends %.1f px from the target, want %.1f", what, far/b.s, reach/b.s))
			}
		}
		if len(short) > 0 {
			t.Errorf("%s: %d of %d lines fail (shortest %.1f px):\n%s", name, len(short), len(cases), worst, strings.Join(short[:min(len(short), 15)], "\n"))
		}
	}
}

// TestMoveHeadsClearOfTargetName draws every possible move of every board
// alone and checks that no part of its arrow head lies under the
// target's name: the head is sampled all over, not only at its corners.
// On the standard board A Gre-Ser ran up through "Ser", the head's tip
// beyond the name and the rest of it under it, so that the move seemed to
// end nowhere.
func TestMoveHeadsClearOfTargetName(t *testing.T) {
	for _, name := range racetest.Spread(variants.Names(), 6) { // about one in six under -race (package racetest)
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		b := boardFor(m)
		var bad []string
		for _, c := range everyArrow(m) {
			if c.kind != "move" {
				continue
			}
			sc, _ := drawArrow(b, c)
			d := &drawer{b: b, m: m, px: b.s, pos: judge.NewPosition(m, judge.Phase{})}
			lb := d.labelBox(m.Province(c.to))
			for _, e := range sc.elems {
				if e.class != "order-head" || len(e.rings) == 0 || len(e.rings[0]) < 3 {
					continue
				}
				a, p, q := e.rings[0][0], e.rings[0][1], e.rings[0][2]
				covered := false
				for i := 0; i <= 10 && !covered; i++ {
					for j := 0; i+j <= 10; j++ {
						s, u := float64(i)/10, float64(j)/10
						if lb.contains(a.add(p.sub(a).mul(s)).add(q.sub(a).mul(u))) {
							covered = true
							break
						}
					}
				}
				if covered {
					bad = append(bad, fmt.Sprintf("%s %s-%s", c.typ, m.LocName(c.from), m.LocName(c.to)))
				}
				break
			}
		}
		if len(bad) > 0 {
			t.Errorf("%s: %d moves' heads lie partly under the target's name: %s", name, len(bad), strings.Join(bad[:min(len(bad), 10)], ", "))
		}
	}
}
