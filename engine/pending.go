package engine

import (
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// Complete reports whether power has complete orders for the phase of pos,
// or nothing to do in it: in a movement phase every unit has an order, in
// a retreat phase every dislodged unit; in an adjustment phase the builds
// made or waived cover the builds due (as far as there are free home
// centres to build in) and the removals cover the removals due.
func (m *Engine) Complete(g *state.Game, pos *judge.Position, power string) bool {
	p, ok := PowerOf(pos.Map, power)
	if !ok {
		return true
	}
	orders := StoredOrders(pos, p, g.Orders[pos.Map.Powers[p].Name])
	switch pos.Phase.Type {
	case judge.Movement:
		// A unit handed to another power (PROXY) is ordered by it.
		missing, _ := HandedAway(g, pos.Map, Unordered(pos, p, orders))
		return len(missing) == 0
	case judge.Retreat:
		return len(Unordered(pos, p, orders)) == 0
	case judge.Adjustment:
		builds, removals := AdjustmentsLeft(pos, p, orders, BuildsIn(g, pos.Map))
		return builds == 0 && removals == 0
	}
	return true
}

// PendingOrders returns every power's pending orders as judge orders, the
// powers in map order and each power's orders in the order they were
// accepted (which matters for adjustments).
func (m *Engine) PendingOrders(g *state.Game, pos *judge.Position) []judge.Order {
	var out []judge.Order
	for k, info := range pos.Map.Powers {
		out = append(out, StoredOrders(pos, judge.Power(k), g.Orders[info.Name])...)
	}
	return Proxied(g, pos, out)
}

// StoredOrders reads back a power's pending orders, stored as canonical
// lines. The lines were written by gmd from orders the adjudicator
// accepted, so a line that does not parse can only be damage, and is
// dropped rather than allowed to stop the game.
func StoredOrders(pos *judge.Position, p judge.Power, lines []string) []judge.Order {
	if len(lines) == 0 {
		return nil
	}
	parsed, _ := parser.ParseOrders(strings.Join(lines, "\n"), parser.Options{Map: pos.Map, Phase: pos.Phase.Type, Power: p})
	out := make([]judge.Order, 0, len(parsed))
	for _, po := range parsed {
		po.Order.Power = p
		out = append(out, po.Order)
	}
	return out
}

// SameUnit reports whether a and b are in one province (or both nowhere).
func SameUnit(mp *judge.Map, a, b judge.Loc) bool {
	if int(a) >= len(mp.Locs) || int(b) >= len(mp.Locs) {
		return a == b
	}
	return mp.Province(a) == mp.Province(b)
}

// Unordered returns the units of p that still need an order: in a
// movement phase its units, in a retreat phase its dislodged units, each
// without an order for its province; in map order. A unit in a province
// closed in the phase's season (Loeb9's Arctic in the Fall) may only hold,
// and needs no order, as on njudge.
func Unordered(pos *judge.Position, p judge.Power, orders []judge.Order) []judge.Unit {
	mp := pos.Map
	has := func(l judge.Loc) bool {
		return slices.ContainsFunc(orders, func(o judge.Order) bool {
			return int(o.Unit) < len(mp.Locs) && mp.Province(o.Unit) == mp.Province(l)
		})
	}
	var out []judge.Unit
	switch pos.Phase.Type {
	case judge.Movement:
		for _, u := range pos.Units {
			if u.Type != judge.NoUnit && u.Power == p && !has(u.Loc) && mp.Locs[mp.Province(u.Loc)].ClosedIn != pos.Phase.Season {
				out = append(out, u)
			}
		}
	case judge.Retreat:
		for _, d := range pos.Dislodged {
			if d.Power == p && !has(d.Loc) {
				out = append(out, d.Unit)
			}
		}
	}
	return out
}

// AdjustmentsLeft returns how many builds p may still make (or waive) in
// the adjustment phase of pos, counting only builds it can use: one per
// free centre the build rule lets it build in, and, where the variant allows it, one for a
// supply-centre construction it has not ordered yet; and how many removals
// p still owes.
func AdjustmentsLeft(pos *judge.Position, p judge.Power, orders []judge.Order, rule judge.BuildRule) (builds, removals int) {
	due := AdjustmentsDue(pos, p)
	made, removed, built, constructed := 0, 0, 0, 0
	for _, o := range orders {
		switch o.Kind {
		case judge.Build:
			made++
			built++
		case judge.Waive:
			made++
		case judge.Construct:
			made++
			constructed++
		case judge.Remove:
			removed++
		}
	}
	if due > 0 {
		usable := len(pos.BuildSites(p, rule)) - built
		if constructed == 0 && len(pos.ConstructionSites(p)) > 0 {
			usable++ // "34, 35, 36": one centre a year (rule 8)
		}
		builds = max(0, min(due-made, usable))
	}
	if due < 0 {
		removals = max(0, -due-removed)
	}
	return builds, removals
}

// AdjustmentsDue returns p's centres minus its units: builds due when
// positive, removals due when negative.
func AdjustmentsDue(pos *judge.Position, p judge.Power) int {
	return pos.CenterCount()[p] - pos.UnitCount()[p]
}
