package picture

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
)

// dislodgedOutside says what of a dislodged unit drawn at c lies outside
// province p: "" when its body (a unit's disc) is inside, else where.
func dislodgedOutside(d *drawer, p judge.Loc, c pt) string {
	b := d.b
	b.over.once.Do(b.prepareOver)
	if !b.inProvince(p, c) {
		return "its centre is outside"
	}
	out := 0
	for k := range 8 {
		a := float64(k) * math.Pi / 4
		if !b.inProvince(p, c.add(pt{math.Cos(a), math.Sin(a)}.mul(0.8*d.u))) {
			out++
		}
	}
	if out > 4 {
		return fmt.Sprintf("%d of 8 points of its body are outside", out)
	}
	return ""
}

// TestDislodgedInsideTheirProvince checks where a dislodged unit is
// drawn in a retreat picture, beside the unit that took its province
// (drawer.waitingAt): its centre inside its own province, and no more
// than half its body outside (a province narrower than a unit, where the
// unit that took it stands too, may leave no more room: Hat Yai's strip
// on Twenty Twenty). A unit drawn over a neighbour reads as that neighbour's (a
// French fleet dislodged from the English Channel drawn on London's
// coast; an army dislodged from Tyrolia drawn on Switzerland). It walks
// every place of every drawn board, a unit dislodged there with the
// attacker standing in the province and ordered to retreat to each
// neighbour, and every retreat phase of the random corpus and of the
// played games, where other units, stand-offs and names crowd it.
func TestDislodgedInsideTheirProvince(t *testing.T) {
	var bad []string
	cases := 0
	check := func(what string, pos *judge.Position, res *judge.Resolution) {
		m := pos.Map
		b := boardFor(m)
		if b.schematic {
			return
		}
		d := newDrawer(b, pos, res)
		for _, du := range pos.Dislodged {
			cases++
			p := m.Province(du.Loc)
			if why := dislodgedOutside(d, p, d.waitingAt(du.Loc)); why != "" {
				bad = append(bad, fmt.Sprintf("%s: %s %s dislodged from %s: %s", what, m.PowerName(du.Power), du.Type, m.LocName(du.Loc), why))
			}
		}
	}
	for name, m := range geometryBoards(t) {
		if racetest.Enabled && name != "1898" && name != "world" {
			continue // a spread under -race (package racetest): two boards
		}
		ph := judge.Phase{Season: judge.Fall, Year: m.StartYear, Type: judge.Retreat}
		var nb []judge.Loc
		for l := range m.Locs {
			at := judge.Loc(l)
			for _, typ := range []judge.UnitType{judge.Army, judge.Fleet} {
				if !m.CanHold(typ, at) {
					continue
				}
				p := m.Province(at)
				occ := judge.Unit{Type: judge.Army, Power: 1, Loc: p}
				if !m.CanHold(judge.Army, p) {
					occ = judge.Unit{Type: judge.Fleet, Power: 1, Loc: at}
				}
				for _, to := range append(m.Neighbours(nb[:0], typ, at), judge.NoLoc) {
					pos := judge.NewPosition(m, ph)
					if err := pos.Place(occ); err != nil {
						t.Fatal(err)
					}
					pos.Dislodged = []judge.DislodgedUnit{{Unit: judge.Unit{Type: typ, Power: 0, Loc: at}, AttackerFrom: judge.NoLoc}}
					res := &judge.Resolution{Phase: ph}
					if to != judge.NoLoc {
						res.Results = []judge.OrderResult{{Order: judge.Order{Kind: judge.Move, Power: 0, Type: typ, Unit: at, Target: to}, Outcome: judge.Succeeds}}
					}
					check(name, pos, res)
				}
			}
		}
	}
	for _, s := range append(corpus(t), playedRetreats(t)...) {
		if s.pos.Phase.Type == judge.Retreat {
			check(s.name, s.pos, s.res)
		}
	}
	t.Logf("%d dislodged units drawn", cases)
	if len(bad) > 0 {
		t.Errorf("%d of %d dislodged units drawn outside their province:\n%s", len(bad), cases, strings.Join(bad[:min(len(bad), 40)], "\n"))
	}
}
