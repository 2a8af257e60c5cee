package engine

import (
	"slices"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// CanonicalLines writes orders as the lines stored in Game.Orders.
func CanonicalLines(mp *judge.Map, orders []judge.Order) []string {
	out := make([]string, len(orders))
	for i := range orders {
		out[i] = orders[i].Canonical(mp)
	}
	return out
}

// KeepWritten records in g.Written the texts as written of power's
// pending orders, lines, just stored: a line keeps the text this mail
// gave it (texts), or else the one it had; a line without either (stored
// by an older gmd) has none, and the lines no longer kept lose theirs, so
// that Written never holds the text of an order that was replaced.
func KeepWritten(g *state.Game, power string, lines []string, texts map[string]string) {
	old := g.Written[power]
	w := make(map[string]string, len(lines))
	for _, l := range lines {
		if t, ok := texts[l]; ok {
			w[l] = t
		} else if t, ok := old[l]; ok {
			w[l] = t
		}
	}
	if len(w) == 0 {
		delete(g.Written, power)
		return
	}
	if g.Written == nil {
		g.Written = map[string]map[string]string{}
	}
	g.Written[power] = w
}

// TryOrder adds o to a power's orders cur and checks it by adjudicating
// the result: an order the adjudicator finds void is refused, with its
// reason, and cur is returned unchanged. An accepted order is stored as
// the adjudicator read it (with the unit's type and coast), replacing the
// earlier order for the same unit; in an adjustment phase a build or
// removal beyond the number due pushes out the earliest one, as on the
// classic judges, and a supply-centre construction replaces the power's
// earlier one (there can be one a year).
func TryOrder(pos *judge.Position, rules judge.Rules, cur []judge.Order, o judge.Order) ([]judge.Order, string) {
	mp := pos.Map
	sameProvince := func(x judge.Order) bool {
		return x.Kind != judge.Waive && int(x.Unit) < len(mp.Locs) && int(o.Unit) < len(mp.Locs) &&
			mp.Province(x.Unit) == mp.Province(o.Unit)
	}
	trial := make([]judge.Order, 0, len(cur)+1)
	if pos.Phase.Type == judge.Adjustment {
		due := AdjustmentsDue(pos, o.Power)
		if o.Bare {
			if due < 0 {
				o.Kind = judge.Remove
			}
			o.Bare = false
		}
		if o.Kind != judge.Waive {
			trial = append(trial, slices.DeleteFunc(slices.Clone(cur), sameProvince)...)
		} else {
			trial = append(trial, cur...)
		}
		if o.Kind == judge.Construct {
			trial = slices.DeleteFunc(trial, func(x judge.Order) bool { return x.Kind == judge.Construct })
		}
		isBuild := func(x judge.Order) bool {
			return x.Kind == judge.Build || x.Kind == judge.Waive || x.Kind == judge.Construct
		}
		isRemove := func(x judge.Order) bool { return x.Kind == judge.Remove }
		switch {
		case isBuild(o) && due > 0 && Count(trial, isBuild) >= due:
			trial = slices.Delete(trial, slices.IndexFunc(trial, isBuild), slices.IndexFunc(trial, isBuild)+1)
		case isRemove(o) && due < 0 && Count(trial, isRemove) >= -due:
			trial = slices.Delete(trial, slices.IndexFunc(trial, isRemove), slices.IndexFunc(trial, isRemove)+1)
		}
	} else {
		trial = append(trial, slices.DeleteFunc(slices.Clone(cur), sameProvince)...)
	}
	at := len(trial)
	trial = append(trial, o)
	res := judge.Adjudicate(pos, trial, rules)
	var r *judge.OrderResult
	if pos.Phase.Type == judge.Adjustment {
		// Adjustment rulings come in the order of the orders.
		if at < len(res.Results) {
			r = &res.Results[at]
		}
	} else {
		for i := range res.Results {
			x := &res.Results[i]
			if !x.Default && SameUnit(mp, x.Order.Unit, o.Unit) {
				r = x
			}
		}
	}
	switch {
	case r == nil:
		return cur, "the order could not be checked"
	case r.Outcome == judge.Void:
		return cur, r.Reason
	}
	trial[at] = r.Order
	trial[at].Power = o.Power
	trial[at].Bare = false
	return trial, ""
}

// Count returns how many orders satisfy f.
func Count(orders []judge.Order, f func(judge.Order) bool) int {
	n := 0
	for _, o := range orders {
		if f(o) {
			n++
		}
	}
	return n
}
