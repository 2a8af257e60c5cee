package judge

import "sort"

// adjudicateAdjustment rules on a Winter phase. Each power builds up to
// the number of centres it owns beyond its units, in the vacant owned
// centres the build rule allows (Rules.BuildsOn: its home centres unless
// the map or the game says otherwise), or removes units down to its
// centres. Where the map allows it,
// a power may use one of its builds to start a new supply centre instead
// (Construct). Orders are taken one by one in the order given (DATC 6.I.1,
// 6.J.1): an order beyond the count is void. Removals a power did not
// order are made for it by the rule set's civil-disorder rule.
func adjudicateAdjustment(pos *Position, orders []Order, rules Rules) *Resolution {
	m := pos.Map
	res := &Resolution{Phase: pos.Phase}
	next := pos.Clone()
	next.Dislodged, next.Bounced, next.EndedConstructions = nil, nil, nil
	centers, units := pos.CenterCount(), pos.UnitCount()
	np := len(m.Powers)
	done := make([]int, np) // builds (with waives) or removals made so far
	for i := range orders {
		o := orders[i]
		r := OrderResult{Order: o}
		r.Outcome, r.Reason = adjustOne(next, &r.Order, centers, units, done, rules.BuildsOn(m))
		res.Results = append(res.Results, r)
	}
	for p := 0; p < np; p++ {
		need := units[p] - centers[p] - done[p]
		if units[p] <= centers[p] || need <= 0 {
			continue
		}
		for _, u := range disorderRemovals(next, Power(p), need, rules) {
			next.Units[m.Province(u.Loc)] = Unit{Loc: NoLoc}
			res.Results = append(res.Results, OrderResult{
				Order:   Order{Kind: Remove, Power: u.Power, Type: u.Type, Unit: u.Loc},
				Outcome: Removed, Default: true})
		}
	}
	res.Next = next
	next.Phase = Phase{Spring, pos.Phase.Year + 1, Movement}
	return res
}

// adjustOne applies one adjustment order to next and returns its outcome
// and, when void, why.
func adjustOne(next *Position, o *Order, centers, units, done []int, rule BuildRule) (Outcome, string) {
	m := next.Map
	if int(o.Unit) >= len(m.Locs) && o.Kind != Waive {
		return Void, "no such place"
	}
	// A construction is not about a unit: whoever stands in the province
	// says nothing about who ordered it.
	if o.Power == NoPower && o.Kind != Waive && o.Kind != Construct {
		if u, ok := next.UnitAt(o.Unit); ok {
			o.Power = u.Power
		}
	}
	if int(o.Power) >= len(m.Powers) {
		return Void, "the order does not say which power gives it"
	}
	p := o.Power
	if o.Kind == Build && o.Bare && units[p] > centers[p] {
		o.Kind, o.Bare = Remove, false
	}
	switch o.Kind {
	case Construct:
		return construct(next, o, centers[p]-units[p]-done[p], done)
	case Build, Waive:
		if centers[p]-units[p]-done[p] <= 0 {
			if centers[p] > units[p] {
				return Void, m.Powers[p].Name + " has no more builds"
			}
			return Void, m.Powers[p].Name + " has no builds"
		}
		if o.Kind == Waive {
			done[p]++
			return Waived, ""
		}
		prov := m.Province(o.Unit)
		li := &m.Locs[prov]
		switch {
		case o.Type == NoUnit:
			return Void, "a build needs a unit type (A or F)"
		case rule == BuildHome && (!next.IsCenter(prov) || li.Home != p):
			return Void, li.FullName + " is not a home supply centre of " + m.Powers[p].Name
		case !next.IsCenter(prov):
			return Void, li.FullName + " is not a supply centre"
		case next.Centers[prov] != p:
			return Void, m.Powers[p].Name + " does not own " + li.FullName
		case rule == BuildCaptured && li.Home == NoPower:
			return Void, li.FullName + " is no power's home supply centre"
		case !next.mayBuildIn(p, prov, rule):
			return Void, m.Powers[p].Name + " holds none of its home centres, and may build only while it holds one"
		case next.Units[prov].Type != NoUnit:
			return Void, li.FullName + " is not empty"
		}
		loc := o.Unit
		if o.Type == Army {
			loc = prov
		}
		if !m.CanHold(o.Type, loc) {
			switch {
			case o.Type == Army:
				return Void, "an army cannot be built in " + li.FullName
			case li.Kind == Land:
				return Void, "a fleet cannot be built in " + li.FullName + ", which is inland"
			default:
				return Void, "a fleet built in " + li.FullName + " needs a coast (" + coastList(m, prov) + ")"
			}
		}
		o.Unit = loc
		next.Units[prov] = Unit{Type: o.Type, Power: p, Loc: loc}
		done[p]++
		return Built, ""
	case Remove:
		if units[p]-centers[p]-done[p] <= 0 {
			return Void, m.Powers[p].Name + " has no more units to remove"
		}
		u, ok := next.UnitAt(o.Unit)
		switch {
		case !ok:
			return Void, "there is no unit in " + m.FullName(m.Province(o.Unit))
		case u.Power != p:
			return Void, m.Powers[p].Name + " does not own the " + unitWord(u.Type) + " in " + m.FullName(u.Loc)
		case o.Type != NoUnit && o.Type != u.Type:
			return Void, "the unit in " + m.FullName(u.Loc) + " is " + article(u.Type) + ", not " + article(o.Type)
		}
		o.Unit, o.Type = u.Loc, u.Type
		next.Units[m.Province(u.Loc)] = Unit{Loc: NoLoc}
		done[p]++
		return Removed, ""
	}
	return Void, o.Kind.String() + " orders belong to other phases"
}

// construct applies a supply-centre construction (the "34, 35, 36"
// variant) to next, for a power with spare builds left, and returns its
// outcome. The reasons for a void one name the rule of the variant that
// forbids it, for players who look the rule up.
func construct(next *Position, o *Order, spare int, done []int) (Outcome, string) {
	m := next.Map
	p := o.Power
	if !m.Construction {
		return Void, "supply centre construction is not allowed in this variant"
	}
	prov := m.Province(o.Unit)
	li := &m.Locs[prov]
	name := m.Powers[p].Name
	switch {
	case spare <= 0:
		return Void, "rule 4a: " + name + " has no build to spare"
	case li.Home != p:
		return Void, "rule 4b: " + li.FullName + " is not in " + name + "'s home country"
	case next.IsCenter(prov):
		return Void, "rule 4c: " + li.FullName + " is already a supply centre"
	case next.PendingAt(prov) >= 0:
		return Void, "rule 4c: " + li.FullName + " is already a supply centre under construction"
	}
	for _, pc := range next.PendingCenters {
		if pc.Power == p && pc.Ordered.Year == next.Phase.Year {
			return Void, "rule 8: " + name + " already builds a supply centre this year, in " + m.Locs[pc.Loc].FullName
		}
	}
	o.Unit, o.Type = prov, NoUnit
	next.PendingCenters = append(next.PendingCenters, PendingCenter{Power: p, Loc: prov, Ordered: next.Phase})
	done[p]++
	return Built, ""
}

// disorderRemovals chooses n units of power p to remove for a power that
// did not order enough removals: the farthest from the power's centres
// first (owned centres under DATC 3.0, home centres under 2.4), fleets
// before armies at equal distance, then by province name.
func disorderRemovals(pos *Position, p Power, n int, rules Rules) []Unit {
	m := pos.Map
	var goal []bool = make([]bool, len(m.Locs))
	for _, c := range pos.CenterList() {
		if rules.CivilDisorder == DistanceToOwned && pos.Centers[c] == p ||
			rules.CivilDisorder != DistanceToOwned && m.Locs[c].Home == p {
			goal[c] = true
		}
	}
	type cand struct {
		u    Unit
		dist int
	}
	var cs []cand
	for _, u := range pos.Units {
		if u.Type != NoUnit && u.Power == p {
			cs = append(cs, cand{u, distance(m, u, goal, rules)})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.dist != b.dist {
			return a.dist > b.dist
		}
		if a.u.Type != b.u.Type {
			return a.u.Type == Fleet
		}
		return m.FullName(m.Province(a.u.Loc)) < m.FullName(m.Province(b.u.Loc))
	})
	if n > len(cs) {
		n = len(cs)
	}
	out := make([]Unit, n)
	for i := range out {
		out[i] = cs[i].u
	}
	return out
}

// distance counts the moves from u to the nearest goal province. Under
// DATC 3.0 every unit may cross land and sea for the count; under 2.4 a
// fleet counts fleet moves only, while an army may cross sea (as if
// convoyed). Unreachable goals count as very far.
func distance(m *Map, u Unit, goal []bool, rules Rules) int {
	const far = 1 << 20
	fleetOnly := u.Type == Fleet && rules.CivilDisorder != DistanceToOwned
	start := u.Loc
	if !fleetOnly {
		start = m.Province(start)
	}
	dist := make([]int, len(m.Locs))
	for i := range dist {
		dist[i] = -1
	}
	dist[start] = 0
	queue := []Loc{start}
	var buf []Loc
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		if goal[m.Province(l)] {
			return dist[l]
		}
		buf = buf[:0]
		if fleetOnly {
			buf = m.Neighbours(buf, Fleet, l)
		} else {
			buf = m.Neighbours(buf, Army, l)
			for _, c := range append([]Loc{l}, m.Locs[l].Coasts...) {
				for _, f := range m.Neighbours(nil, Fleet, c) {
					buf = append(buf, m.Province(f))
				}
			}
		}
		for _, nb := range buf {
			if dist[nb] < 0 {
				dist[nb] = dist[l] + 1
				queue = append(queue, nb)
			}
		}
	}
	return far
}
