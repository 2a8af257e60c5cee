package judge

// adjudicateRetreat rules on a retreat phase: each dislodged unit retreats
// to a free place next to it, or disbands; two retreats to one place both
// disband, and so does a unit without a valid order.
func adjudicateRetreat(pos *Position, orders []Order, rules Rules) *Resolution {
	m := pos.Map
	res := &Resolution{Phase: pos.Phase}
	next := pos.Clone()
	next.Dislodged, next.Bounced, next.EndedConstructions = nil, nil, nil
	n := len(pos.Dislodged)
	chosen := make([]int, n)
	for i := range chosen {
		chosen[i] = -1
	}
	for i := range orders {
		o := &orders[i]
		d := -1
		if int(o.Unit) < len(m.Locs) {
			for j := range pos.Dislodged {
				if m.Province(pos.Dislodged[j].Loc) == m.Province(o.Unit) {
					d = j
				}
			}
		}
		switch {
		case o.Kind == Construct:
			// Not an order for a unit: it must not take the place of the
			// order of a unit that happens to stand there.
			res.Results = append(res.Results, OrderResult{Order: *o, Outcome: Void,
				Reason: o.Kind.String() + " orders belong to other phases"})
		case d < 0:
			res.Results = append(res.Results, OrderResult{Order: *o, Outcome: Void,
				Reason: "there is no dislodged unit in " + m.FullName(o.Unit)})
		case o.Power != NoPower && o.Power != pos.Dislodged[d].Power:
			res.Results = append(res.Results, OrderResult{Order: *o, Outcome: Void,
				Reason: m.PowerName(o.Power) + " does not own the " + unitWord(pos.Dislodged[d].Type) + " in " + m.FullName(o.Unit)})
		default:
			chosen[d] = i
		}
	}
	results := make([]OrderResult, n)
	target := make([]Loc, n)
	for j, d := range pos.Dislodged {
		target[j] = NoLoc
		r := &results[j]
		if chosen[j] < 0 {
			r.Order = Order{Kind: Disband, Power: d.Power, Type: d.Type, Unit: d.Loc}
			r.Outcome, r.Default = Disbanded, true
			continue
		}
		r.Order = orders[chosen[j]]
		r.Order.Power = d.Power
		o := &r.Order
		written := o.Type
		o.Unit, o.Type = d.Loc, d.Type
		switch {
		case written != NoUnit && written != d.Type:
			r.Outcome, r.Reason = Void, "the unit in "+m.FullName(d.Loc)+" is "+article(d.Type)+", not "+article(written)
		case o.Kind == Disband:
			r.Outcome = Disbanded
		case o.Kind != Move:
			r.Outcome, r.Reason = Void, "a dislodged unit can only retreat or disband"
		case len(o.Route) > 0 || o.ViaConvoy:
			r.Outcome, r.Reason = Void, "a retreat cannot be convoyed"
		default:
			to, why := retreatTarget(m, pos, d, o.Target)
			if why != "" {
				r.Outcome, r.Reason = Void, why
			} else {
				o.Target, target[j] = to, to
			}
		}
	}
	for j := range results {
		if target[j] == NoLoc {
			continue
		}
		clash := false
		for k := range results {
			if k != j && target[k] != NoLoc && m.Province(target[k]) == m.Province(target[j]) {
				clash = true
			}
		}
		if clash {
			results[j].Outcome = Bounced
			continue
		}
		results[j].Outcome = Succeeds
		u := pos.Dislodged[j].Unit
		u.Loc = target[j]
		next.Units[m.Province(target[j])] = u
	}
	res.Results = append(results, res.Results...)
	res.Next = next
	if len(next.PendingCenters) > 0 {
		spoilByRetreats(next, pos, target)
	}
	endSeason(res, next, pos.Phase, rules)
	return res
}

// spoilByRetreats marks the centres under construction in next that a
// dislodged unit of another power was ordered to retreat into ("34, 35,
// 36" rule 5): every legal retreat order counts, whether it succeeded or
// bounced. target holds each dislodged unit's legal destination, or NoLoc.
// When several units retreat there, the one first in map order is
// recorded, as for moves.
func spoilByRetreats(next, pos *Position, target []Loc) {
	m := pos.Map
	for i := range next.PendingCenters {
		pc := &next.PendingCenters[i]
		if pc.Spoiled {
			continue
		}
		by := -1
		for j, d := range pos.Dislodged {
			if target[j] != NoLoc && m.Province(target[j]) == pc.Loc && d.Power != pc.Power &&
				(by < 0 || m.Province(d.Loc) < m.Province(pos.Dislodged[by].Loc)) {
				by = j
			}
		}
		if by >= 0 {
			pc.Spoiled, pc.SpoiledBy, pc.SpoiledIn = true, pos.Dislodged[by].Power, pos.Phase
		}
	}
}

// retreatTarget checks a retreat of d to `to` and returns the exact place,
// choosing the coast when only one is open.
func retreatTarget(m *Map, pos *Position, d DislodgedUnit, to Loc) (Loc, string) {
	if int(to) >= len(m.Locs) {
		return NoLoc, "no such place"
	}
	if d.Type == Army {
		// An army ignores a coast written in its order (DATC 4.B.6).
		to = m.Province(to)
	}
	opts := retreatOptions(m, pos.Units, d, pos.Bounced, pos.Phase.Season, nil)
	p := m.Province(to)
	var found []Loc
	for _, l := range opts {
		if l == to || to == p && m.Province(l) == p {
			found = append(found, l)
		}
	}
	switch len(found) {
	case 1:
		return found[0], ""
	case 0:
		return NoLoc, "the " + unitWord(d.Type) + " in " + m.FullName(d.Loc) + " can't retreat to " + m.FullName(to)
	}
	return NoLoc, "the fleet in " + m.FullName(d.Loc) + " can retreat to both coasts of " + m.FullName(p) + ": say which"
}

// RetreatOptions lists the places the dislodged unit d of the retreat
// position pos may retreat to, exact coasts for a fleet: the places a
// retreat order naming them makes legal.
func (pos *Position) RetreatOptions(d DislodgedUnit) []Loc {
	return retreatOptions(pos.Map, pos.Units, d, pos.Bounced, pos.Phase.Season, nil)
}
