package engine

import (
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// ProxyHolder returns the power that the unit in l's province was handed
// to for this phase (PROXY), or "" if none.
func ProxyHolder(g *state.Game, mp *judge.Map, l judge.Loc) string {
	if len(g.Proxies) == 0 || int(l) >= len(mp.Locs) {
		return ""
	}
	return g.Proxies[mp.LocName(mp.Province(l))]
}

// Proxied gives each order a power stored for a unit handed to it (its
// Orders hold the order, read with its own Power) the power of the unit,
// whose order it is for the adjudicator; an order for another power's
// unit that was not handed keeps its power, and is ruled void.
func Proxied(g *state.Game, pos *judge.Position, orders []judge.Order) []judge.Order {
	if len(g.Proxies) == 0 {
		return orders
	}
	mp := pos.Map
	for i := range orders {
		o := &orders[i]
		u, ok := pos.UnitAt(o.Unit)
		if !ok || u.Power == o.Power || int(o.Power) >= len(mp.Powers) {
			continue
		}
		if ProxyHolder(g, mp, o.Unit) == mp.Powers[o.Power].Name {
			o.Power = u.Power
		}
	}
	return orders
}

// HandedAway returns the units of units that their power handed to
// another for this phase: they need no order from it.
func HandedAway(g *state.Game, mp *judge.Map, units []judge.Unit) (kept, handed []judge.Unit) {
	for _, u := range units {
		if ProxyHolder(g, mp, u.Loc) != "" {
			handed = append(handed, u)
		} else {
			kept = append(kept, u)
		}
	}
	return kept, handed
}
