package view

import (
	"slices"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// Fog of war (SET FOG; vDiplomacy's Fog of War, njudge's Blind): while
// the game runs, each power sees only the provinces its units and
// centres touch. This file is the one place that decides what a power
// sees; the results mails, their pictures, HISTORY, LIST, PREVIEW, the
// checking of orders and the conditions of orders written ahead all ask
// it, so that no path can show more than another.
//
// What a power sees of a position (Sight): every province where it has a
// unit (a dislodged one awaiting its retreat included) or owns a supply
// centre, and every province next to one of those, next meaning one
// move of an army or of a fleet from the province or any of its coasts
// (vDiplomacy's "adjacent to your units and supply centres").
//
// Of a phase played from pos (Fog): the units that stood in a province it
// saw when the phase began; the orders and rulings of its own units, and
// of another power's unit only when every province the order names was
// in sight (an order half in the dark is not shown at all, so that it
// names no unseen unit); the dislodged units seen, with the retreats of
// another power's unit only where the power sees; the builds and
// removals in provinces seen; and the board after the phase as Sight of
// the new position shows it. A centre out of sight is shown unowned, so
// the centre counts of other powers are those of the centres seen.

// Fogged reports whether g is played under fog of war now: SET FOG, and
// the game not over. Everything is revealed when it ends.
func Fogged(g *state.Game) bool { return g.Settings.Fog && g.Status != state.Finished }

// Sight returns which provinces power p sees in pos, one entry per Loc of
// the map; only base provinces are set.
func Sight(pos *judge.Position, p judge.Power) []bool {
	m := pos.Map
	seen := make([]bool, m.NumLocs())
	if int(p) >= len(m.Powers) {
		// No power's viewer sees nothing: NoPower is also the owner of
		// every unowned centre and of the neutral units
		// (judge.Unit.Neutral), whose sight it must not be given.
		return seen
	}
	var from []judge.Loc
	for _, u := range pos.Units {
		if u.Type != judge.NoUnit && u.Power == p {
			from = append(from, m.Province(u.Loc))
		}
	}
	for _, d := range pos.Dislodged {
		if d.Power == p {
			from = append(from, m.Province(d.Loc))
		}
	}
	for _, c := range pos.CenterList() {
		if int(c) < len(pos.Centers) && pos.Centers[c] == p {
			from = append(from, m.Province(c))
		}
	}
	var buf []judge.Loc
	for _, prov := range from {
		if int(prov) >= len(seen) {
			continue
		}
		seen[prov] = true
		buf = m.Neighbours(buf[:0], judge.Army, prov)
		buf = m.Neighbours(buf, judge.Fleet, prov)
		for _, c := range m.Locs[prov].Coasts {
			buf = m.Neighbours(buf, judge.Fleet, c)
		}
		for _, n := range buf {
			if q := m.Province(n); int(q) < len(seen) {
				seen[q] = true
			}
		}
	}
	return seen
}

// FogPosition returns pos as power p sees it: the units, dislodged units
// and centre owners of the provinces Sight shows, nothing elsewhere. pos
// is not changed.
func FogPosition(pos *judge.Position, p judge.Power) *judge.Position {
	return fogPosition(pos, Sight(pos, p))
}

// fogPosition returns pos with only the provinces seen.
func fogPosition(pos *judge.Position, seen []bool) *judge.Position {
	m := pos.Map
	out := pos.Clone()
	in := func(l judge.Loc) bool {
		q := m.Province(l)
		return int(q) < len(seen) && seen[q]
	}
	for i := range out.Units {
		if out.Units[i].Type != judge.NoUnit && !in(judge.Loc(i)) {
			out.Units[i] = judge.Unit{Loc: judge.NoLoc}
		}
	}
	for i := range out.Centers {
		if out.Centers[i] != judge.NoPower && !in(judge.Loc(i)) {
			out.Centers[i] = judge.NoPower
		}
	}
	out.Dislodged = slices.DeleteFunc(out.Dislodged, func(d judge.DislodgedUnit) bool { return !in(d.Loc) })
	for i := range out.Dislodged {
		if d := &out.Dislodged[i]; d.AttackerFrom != judge.NoLoc && !in(d.AttackerFrom) {
			// Where the attack came from is the attacker's secret.
			d.AttackerFrom = judge.NoLoc
		}
	}
	out.Bounced = slices.DeleteFunc(out.Bounced, func(l judge.Loc) bool { return !in(l) })
	unseen := func(pc judge.PendingCenter) bool { return !in(pc.Loc) }
	out.PendingCenters = slices.DeleteFunc(out.PendingCenters, unseen)
	out.EndedConstructions = slices.DeleteFunc(out.EndedConstructions, unseen)
	return out
}

// Fog returns the phase played from pos and ruled on in res as power p
// sees it: the position and the rulings it may know of, and the next
// position (res.Next) as it sees that one. res may be nil (a position
// without orders). Neither pos nor res is changed. Every path that shows
// a fogged game to a power goes through here.
func Fog(pos *judge.Position, res *judge.Resolution, p judge.Power) (*judge.Position, *judge.Resolution) {
	seen := Sight(pos, p)
	fpos := fogPosition(pos, seen)
	if res == nil {
		return fpos, nil
	}
	m := pos.Map
	in := func(l judge.Loc) bool {
		q := m.Province(l)
		return int(q) < len(seen) && seen[q]
	}
	out := *res
	out.Results = nil
	for i := range res.Results {
		r := res.Results[i]
		// No power owns nothing: the neutral units' holds are NoPower's.
		mine := int(p) < len(m.Powers) && orderPower(pos, &r.Order) == p
		if !mine && !orderSeen(&r.Order, in) {
			continue
		}
		if len(r.Route) > 0 && !allSeen(r.Route, in) {
			// The fleets that carried an army through the dark.
			r.Route = nil
		}
		out.Results = append(out.Results, r)
	}
	out.Retreats = nil
	for _, ro := range res.Retreats {
		if !in(ro.Unit.Loc) {
			continue
		}
		if ro.Unit.AttackerFrom != judge.NoLoc && !in(ro.Unit.AttackerFrom) {
			ro.Unit.AttackerFrom = judge.NoLoc
		}
		if ro.Unit.Power != p {
			ro.To = slices.DeleteFunc(slices.Clone(ro.To), func(l judge.Loc) bool { return !in(l) })
		}
		out.Retreats = append(out.Retreats, ro)
	}
	out.Destroyed = slices.DeleteFunc(slices.Clone(res.Destroyed), func(u judge.Unit) bool { return !in(u.Loc) })
	out.Constructions = slices.DeleteFunc(slices.Clone(res.Constructions), func(pc judge.PendingCenter) bool { return !in(pc.Loc) })
	if res.Next != nil {
		out.Next = FogPosition(res.Next, p)
	}
	return fpos, &out
}

// orderPower returns whose order o is: its power, or that of the unit it
// orders in pos (a dislodged one in a retreat phase).
func orderPower(pos *judge.Position, o *judge.Order) judge.Power {
	if o.Power != judge.NoPower {
		return o.Power
	}
	if _, u, ok := pos.ResolveOrder(o); ok {
		return u.Power
	}
	return judge.NoPower
}

// orderSeen reports whether every province order o names is in sight:
// the unit's, and the target, destination and route of the kinds that
// have them. A waive names no province, and is another power's secret.
func orderSeen(o *judge.Order, in func(judge.Loc) bool) bool {
	switch o.Kind {
	case judge.Waive:
		return false
	case judge.Move:
		return in(o.Unit) && in(o.Target) && allSeen(o.Route, in)
	case judge.SupportHold:
		return in(o.Unit) && in(o.Target)
	case judge.SupportMove, judge.Convoy:
		return in(o.Unit) && in(o.Target) && in(o.Dest)
	}
	return in(o.Unit)
}

// allSeen reports whether every place of ls is in sight.
func allSeen(ls []judge.Loc, in func(judge.Loc) bool) bool {
	return !slices.ContainsFunc(ls, func(l judge.Loc) bool { return !in(l) })
}

// FogViewer returns what the results text of a phase must still hold
// back for power p (report.Viewer), next being the position the phase
// left (res.Next; nil for none).
func FogViewer(next *judge.Position, p judge.Power) *report.Viewer {
	v := &report.Viewer{Power: p}
	if next != nil {
		v.Seen = Sight(next, p)
	}
	return v
}
