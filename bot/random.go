package bot

import (
	"math/rand/v2"

	"github.com/gmdjudge/gmd/judge"
)

// Random plays a random legal order for every unit.
type Random struct {
	rng   *rand.Rand
	rules judge.Rules
}

// Name implements Player.
func (*Random) Name() string { return "random" }

// Orders implements Player.
func (r *Random) Orders(pos *judge.Position, power judge.Power) []judge.Order {
	switch pos.Phase.Type {
	case judge.Retreat:
		return retreats(pos, power, func(opts []judge.Loc) int { return r.rng.IntN(len(opts)+1) - 1 })
	case judge.Adjustment:
		return r.adjust(pos, power)
	}
	m := pos.Map
	g := graphOf(m)
	var out []judge.Order
	for _, u := range units(pos, power) {
		o := judge.Order{Kind: judge.Hold, Power: power, Type: u.Type, Unit: u.Loc}
		mv := movesIn(g, pos, u)
		switch k := r.rng.IntN(10); {
		case k < 5 && len(mv) > 0:
			o.Kind, o.Target = judge.Move, mv[r.rng.IntN(len(mv))]
		case k < 8:
			// Support a unit next to us, holding or moving into a place we reach.
			var near []judge.Unit
			for _, t := range g.near[u.Type][m.Province(u.Loc)] {
				if v := pos.Units[t]; v.Type != judge.NoUnit && reachesIn(pos, u, t) {
					near = append(near, v)
				}
			}
			if len(near) == 0 {
				break
			}
			v := near[r.rng.IntN(len(near))]
			var dests []judge.Loc
			for _, d := range movesIn(g, pos, v) {
				if reachesIn(pos, u, m.Province(d)) {
					dests = append(dests, m.Province(d))
				}
			}
			if len(dests) > 0 && r.rng.IntN(2) == 0 {
				o.Kind, o.Target, o.TargetType, o.Dest = judge.SupportMove, v.Loc, v.Type, dests[r.rng.IntN(len(dests))]
			} else {
				o.Kind, o.Target, o.TargetType = judge.SupportHold, m.Province(v.Loc), v.Type
			}
		}
		out = append(out, o)
	}
	return out
}

// adjust builds in random sites or removes random units.
func (r *Random) adjust(pos *judge.Position, power judge.Power) []judge.Order {
	n := buildCount(pos, power)
	var out []judge.Order
	if n < 0 {
		us := units(pos, power)
		r.rng.Shuffle(len(us), func(i, j int) { us[i], us[j] = us[j], us[i] })
		for _, u := range us[:-n] {
			out = append(out, removeOrder(u))
		}
		return out
	}
	opts := buildable(pos, power, r.rules)
	r.rng.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
	return builds(pos.Map, opts, n)
}

// builds takes up to n units from opts, in order, one a province.
func builds(m *judge.Map, opts []judge.Unit, n int) []judge.Order {
	var out []judge.Order
	var used []judge.Loc
	for _, u := range opts {
		if len(out) == n {
			break
		}
		if p := m.Province(u.Loc); !contains(used, p) {
			used = append(used, p)
			out = append(out, buildOrder(u))
		}
	}
	return out
}

// retreats writes a retreat or a disband for each of power's dislodged
// units: choose picks an index into the unit's options, or -1 to
// disband. Two of power's units never retreat to one place.
func retreats(pos *judge.Position, power judge.Power, choose func(opts []judge.Loc) int) []judge.Order {
	m := pos.Map
	var out []judge.Order
	var taken []judge.Loc
	for _, d := range pos.Dislodged {
		if d.Power != power {
			continue
		}
		o := judge.Order{Kind: judge.Disband, Power: power, Type: d.Type, Unit: d.Loc}
		var opts []judge.Loc
		for _, l := range pos.RetreatOptions(d) {
			if !contains(taken, m.Province(l)) {
				opts = append(opts, l)
			}
		}
		if len(opts) > 0 {
			if i := choose(opts); i >= 0 {
				o.Kind, o.Target = judge.Move, opts[i]
				taken = append(taken, m.Province(opts[i]))
			}
		}
		out = append(out, o)
	}
	return out
}
