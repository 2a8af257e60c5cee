package judge

import "slices"

// finish turns the decisions of a movement phase into rulings, the
// dislodged units and their retreats, and the next position, into next: a
// copy of the position with no dislodged units, stand-offs or ended
// constructions.
func (s *mover) finish(res *Resolution, next *Position) {
	m, pos := s.m, s.pos
	units := pos.Units

	// Decide who was dislodged before anything moves.
	var dislodgedBy [256]Loc // indexed by province for maps of up to 256 places
	big := len(m.Locs) > len(dislodgedBy)
	var dislodgedBig []Loc
	if big {
		dislodgedBig = make([]Loc, len(m.Locs))
	}
	by := func(p Loc) *Loc {
		if big {
			return &dislodgedBig[p]
		}
		return &dislodgedBy[p]
	}
	for _, p := range s.occ {
		*by(p) = NoLoc
		if units[p].Type == NoUnit || s.kind(p) == Move && s.res[p] {
			continue
		}
		for q := s.firstAtk[p]; q != NoLoc; q = s.nextAtk[q] {
			if s.res[q] {
				*by(p) = q
			}
		}
	}
	for _, p := range s.occ {
		if s.kind(p) == Move && s.res[p] || *by(p) != NoLoc {
			next.Units[p] = Unit{Loc: NoLoc}
		}
	}
	for _, p := range s.occ {
		if s.kind(p) == Move && s.res[p] {
			u := units[p]
			u.Loc = s.ord[p].Target
			next.Units[s.dest[p]] = u
		}
	}
	// Stand-offs: provinces left empty although a unit tried to enter.
	// A move without a convoy never reached the province, and the loser of
	// a head-to-head battle, dislodged by the unit that came out of it, had
	// no effect there (DATC 6.E.1, 6.H.9): neither makes a stand-off.
	// The moves are few: each one that bounced off an empty province
	// marks it, and the list is then put in map order.
	for _, q := range s.occ {
		if s.kind(q) != Move || s.res[q] {
			continue
		}
		t := s.dest[q]
		if next.Units[t].Type != NoUnit || slices.Contains(next.Bounced, t) {
			continue
		}
		if s.path(q) && *by(q) != t && s.felt(q) {
			next.Bounced = append(next.Bounced, t)
		}
	}
	slices.Sort(next.Bounced)
	// Rulings for every unit, unless the caller wants the next position
	// only; the dislodged units either way.
	for _, p := range s.occ {
		a := *by(p)
		if !s.nextOnly {
			r := s.ruling(p, by)
			if a != NoLoc {
				r.Failed, r.Outcome, r.Dislodged = r.Outcome, Dislodged, true
			}
			res.Results = append(res.Results, r)
			if s.src[p] >= 0 {
				s.rank = append(s.rank, s.src[p])
			} else {
				s.rank = append(s.rank, 1<<30+int(p)) // defaults last, in map order
			}
		}
		if a != NoLoc {
			d := DislodgedUnit{Unit: units[p], AttackerFrom: a}
			if s.via[a] {
				d.AttackerFrom = NoLoc // a convoyed attacker leaves its origin open
			}
			var to []Loc
			if d.Power != NoPower { // a neutral unit never retreats
				to = retreatOptions(m, next.Units, d, next.Bounced, s.pos.Phase.Season, nil)
			}
			if len(to) == 0 {
				res.Destroyed = append(res.Destroyed, d.Unit)
			} else {
				res.Retreats = append(res.Retreats, RetreatOptions{Unit: d, To: to})
				next.Dislodged = append(next.Dislodged, d)
			}
		}
	}
	// Rulings in the order the orders were given: what a caller zips with
	// its input.
	if !s.nextOnly {
		s.sortResults(res.Results, s.norders)
	}
	res.Next = next
	if len(next.PendingCenters) > 0 {
		s.spoilConstructions(next)
	}
	if len(next.Dislodged) > 0 {
		next.Phase = Phase{pos.Phase.Season, pos.Phase.Year, Retreat}
		return
	}
	s.bounced, next.Bounced = next.Bounced, nil
	endSeason(res, next, pos.Phase, s.rules)
}

// sortResults puts the rulings in the order of s.rank: the place of an
// order in the input (below n), then the defaults, whose ranks rise as
// they were appended. Orders usually come in order already; otherwise the
// ranks are laid out by value, which is linear, and each ruling is moved
// once.
func (s *mover) sortResults(rs []OrderResult, n int) {
	sorted := true
	for i := 1; i < len(s.rank) && sorted; i++ {
		sorted = s.rank[i-1] <= s.rank[i]
	}
	if sorted {
		return
	}
	if cap(s.perm) < n+len(rs) {
		s.perm = make([]int, n+len(rs))
	}
	at := s.perm[:n] // at[rank]: the ruling with that rank, or -1
	for i := range at {
		at[i] = -1
	}
	perm := s.perm[n:n]
	for i, r := range s.rank {
		if r < n {
			at[r] = i
		}
	}
	for _, i := range at {
		if i >= 0 {
			perm = append(perm, i)
		}
	}
	for i, r := range s.rank {
		if r >= n {
			perm = append(perm, i)
		}
	}
	s.tmp = append(s.tmp[:0], rs...)
	for i, j := range perm {
		rs[i] = s.tmp[j]
	}
	clear(s.tmp) // the pool must not keep the caller's routes alive
}

// spoilConstructions marks the centres under construction in next that a
// unit of another power was ordered into in this phase ("34, 35, 36" rule
// 5): any legal move counts, by land or by convoy, whether it succeeded,
// bounced or found no convoy, and so do two units of one power standing
// each other off there. Void orders are no orders and count for nothing;
// neither do the builder's own units. When several units are ordered in,
// the one first in map order is recorded.
func (s *mover) spoilConstructions(next *Position) {
	for i := range next.PendingCenters {
		pc := &next.PendingCenters[i]
		if pc.Spoiled {
			continue // the first order into it is the one on record
		}
		by := NoLoc
		for q := s.firstAtk[pc.Loc]; q != NoLoc; q = s.nextAtk[q] {
			if s.pos.Units[q].Power != pc.Power && (by == NoLoc || q < by) {
				by = q
			}
		}
		if by != NoLoc {
			pc.Spoiled, pc.SpoiledBy, pc.SpoiledIn = true, s.pos.Units[by].Power, s.pos.Phase
		}
	}
}

// retreatOptions appends to dst the places the dislodged unit d may
// retreat to in season: next to it, empty, not the attacker's origin, not
// left empty by a stand-off, not closed in the season (LocInfo.ClosedIn)
// and not across a weak crossing (Map.WeakCrossing).
func retreatOptions(m *Map, units []Unit, d DislodgedUnit, bounced []Loc, season Season, dst []Loc) []Loc {
	var buf [16]Loc
	for _, l := range m.Neighbours(buf[:0], d.Type, d.Loc) {
		p := m.Province(l)
		if d.Type == Army && m.Locs[p].Kind == Sea || units[p].Type != NoUnit || p == d.AttackerFrom {
			continue
		}
		if m.Locs[p].ClosedIn == season || d.Type == Army && m.WeakCrossing(d.Loc, p) {
			continue
		}
		if d.Type == Fleet && len(m.Locs[l].Coasts) > 0 {
			continue // the base of a split province: the coasts are listed too
		}
		stood := false
		for _, b := range bounced {
			if b == p {
				stood = true
			}
		}
		if !stood {
			dst = append(dst, l)
		}
	}
	return dst
}

// endSeason moves a position on after the last movement or retreat of a
// season: to Fall after Spring; after Fall, the centres under
// construction are built or given up, centre ownership changes, and the
// game goes to adjustments, whose position keeps the constructions that
// ended (Position.EndedConstructions), or to the next Spring if nobody has
// anything to adjust.
func endSeason(res *Resolution, next *Position, from Phase, rules Rules) {
	if from.Season == Spring {
		next.Phase = Phase{Fall, from.Year, Movement}
		return
	}
	if len(next.PendingCenters) > 0 {
		completeConstructions(res, next)
	}
	for _, c := range next.CenterList() {
		if u := next.Units[c]; u.Type != NoUnit {
			next.Centers[c] = u.Power
		}
	}
	if next.Map.NeutralsRebuild {
		rebuildNeutrals(next)
	}
	res.OwnershipChanged = true
	res.Winners = winners(next, rules.VictoryIn(next))
	if needsAdjustment(next, rules.BuildsOn(next.Map)) {
		next.Phase = Phase{Winter, from.Year, Adjustment}
		// The Winter's results say what became of the constructions too.
		next.EndedConstructions = append([]PendingCenter(nil), res.Constructions...)
	} else {
		next.Phase = Phase{Spring, from.Year + 1, Movement}
	}
}

// rebuildNeutrals puts each neutral unit of the starting position back
// in its place, as a year ends, where the place is empty and, if it is a
// supply centre, owned by nobody (Map.NeutralsRebuild). It runs after the
// centres' owners are settled, so a power that took the centre keeps it
// empty, and before the Winter, where no power may build in a centre it
// does not own.
func rebuildNeutrals(next *Position) {
	m := next.Map
	for _, u := range m.StartUnits {
		p := m.Province(u.Loc)
		if u.Power != NoPower || next.Units[p].Type != NoUnit || next.IsCenter(p) && next.Centers[p] != NoPower {
			continue
		}
		next.Units[p] = Unit{Type: u.Type, Power: NoPower, Loc: u.Loc}
	}
}

// completeConstructions ends the year of every centre under construction
// in next, as the Fall ends, before ownership is settled and builds are
// counted, so that a new centre can be built on that same Winter ("34, 35,
// 36" rule 6). A construction no other power's unit was ordered into
// becomes a supply centre owned by the builder; the ownership update that
// follows gives it to whoever stands in it, as for any centre. A spoiled
// one is dropped, and the build it used is gone.
func completeConstructions(res *Resolution, next *Position) {
	for _, pc := range next.PendingCenters {
		res.Constructions = append(res.Constructions, pc)
		if !pc.Spoiled {
			next.addBuiltCenter(pc.Loc)
			next.Centers[pc.Loc] = pc.Power
		}
	}
	next.PendingCenters = nil
}

// winners lists the powers at or over the victory count need, most centres
// first; on a map whose ties continue (Map.TiesContinue), only a leader
// ahead of every other power, or none while the two leaders are tied.
// When nobody reached the count, a map with a lead rule (Map.VictoryLead)
// gives the year's winner by the lead.
func winners(pos *Position, need int) []Power {
	var w []Power
	var buf [32]int
	n := pos.centerCountInto(buf[:0])
	for p, c := range n {
		if c >= need {
			w = append(w, Power(p))
		}
	}
	for i := 1; i < len(w); i++ {
		for j := i; j > 0 && n[w[j]] > n[w[j-1]]; j-- {
			w[j], w[j-1] = w[j-1], w[j]
		}
	}
	if pos.Map.TiesContinue && len(w) > 1 {
		if n[w[0]] == n[w[1]] {
			return nil // the two leaders are tied: another year
		}
		return w[:1]
	}
	if len(w) == 0 && pos.Map.VictoryLead > 0 {
		return leadWinner(n, pos.Map.LeadNeeded(pos.Phase.Year))
	}
	return w
}

// leadWinner returns the power whose centre count n[p] is ahead of every
// other power's by at least lead (Map.VictoryLead), or nil.
func leadWinner(n []int, lead int) []Power {
	first, second := -1, 0
	for p, c := range n {
		switch {
		case first < 0 || c > n[first]:
			if first >= 0 {
				second = n[first]
			}
			first = p
		case c > second:
			second = c
		}
	}
	if first < 0 || n[first]-second < lead {
		return nil
	}
	return []Power{Power(first)}
}

// needsAdjustment reports whether any power has a removal to make, or a
// build it can use: to place a unit, or, where the map allows it, to start
// a supply centre.
func needsAdjustment(pos *Position, rule BuildRule) bool {
	m := pos.Map
	var cbuf, ubuf [32]int
	centers, units := pos.centerCountInto(cbuf[:0]), pos.unitCountInto(ubuf[:0])
	for p := range m.Powers {
		if units[p] > centers[p] {
			return true
		}
		if centers[p] > units[p] && (pos.anyBuildSite(Power(p), rule) || len(pos.ConstructionSites(Power(p))) > 0) {
			return true
		}
	}
	return false
}

// anyBuildSite reports whether BuildSites would list a place, without
// making the list: the end of every Fall asks it for every power.
func (pos *Position) anyBuildSite(p Power, rule BuildRule) bool {
	for _, c := range pos.CenterList() {
		if pos.Centers[c] == p && pos.Units[c].Type == NoUnit && pos.mayBuildIn(p, c, rule) {
			return true
		}
	}
	return false
}

// BuildSites lists the places where p may build a unit now under the
// build rule (see Rules.BuildsOn): the empty centres it owns (built ones
// included) that are its home centres (BuildHome), any of them while it
// holds a home centre (BuildOne), any of them (BuildAny), or those that
// are some power's home centres (BuildCaptured).
func (pos *Position) BuildSites(p Power, rule BuildRule) []Loc {
	var out []Loc
	for _, c := range pos.CenterList() {
		if pos.Centers[c] == p && pos.Units[c].Type == NoUnit && pos.mayBuildIn(p, c, rule) {
			out = append(out, c)
		}
	}
	return out
}

// mayBuildIn reports whether the rule lets p build in its owned centre c,
// whoever stands there.
func (pos *Position) mayBuildIn(p Power, c Loc, rule BuildRule) bool {
	switch rule {
	case BuildAny:
		return true
	case BuildOne:
		return pos.holdsHomeCentre(p)
	case BuildCaptured:
		return pos.Map.Locs[c].Home != NoPower
	}
	return pos.Map.Locs[c].Home == p
}

// holdsHomeCentre reports whether p owns at least one of its home centres.
func (pos *Position) holdsHomeCentre(p Power) bool {
	for _, c := range pos.CenterList() {
		if pos.Map.Locs[c].Home == p && pos.Centers[c] == p {
			return true
		}
	}
	return false
}

// ConstructionSites lists the provinces where p may start a supply centre
// ("34, 35, 36" rules 4b and 4c): those of its home country that are
// neither a supply centre nor one under construction. It is empty on a
// map without construction. Whether p has a build to spare, and whether it
// has already started a centre this year, is for the adjustment orders to
// say.
func (pos *Position) ConstructionSites(p Power) []Loc {
	m := pos.Map
	if !m.Construction {
		return nil
	}
	var out []Loc
	for _, l := range m.provinces {
		if m.Locs[l].Home == p && !pos.IsCenter(l) && pos.PendingAt(l) < 0 {
			out = append(out, l)
		}
	}
	return out
}

// ruling is what became of the order of the unit at p, dislodged or not:
// by tells who dislodged each unit.
func (s *mover) ruling(p Loc, by func(Loc) *Loc) OrderResult {
	m, units := s.m, s.pos.Units
	r := OrderResult{Order: s.ord[p], Default: s.src[p] < 0}
	// Rulings name the unit as it stands, with its type and coast,
	// whatever the order left out.
	r.Order.Unit, r.Order.Type = units[p].Loc, units[p].Type
	switch {
	case s.void[p]:
		r.Outcome, r.Reason = Void, s.reason[p]
	case s.kind(p) == Hold:
		r.Outcome = Succeeds
	case s.kind(p) == Move:
		if s.via[p] && len(s.ord[p].Route) == 0 {
			r.Route = s.convoyRoute(p)
		}
		switch {
		case s.res[p]:
			r.Outcome = Succeeds
		case s.via[p] && !s.path(p):
			// Disrupted only where the route was broken: a fleet that
			// convoyed the army was dislodged, or a paradox rule
			// (Szykman) broke the convoy. A chain that lacks a fleet
			// (one that held instead) is no convoy, though other
			// fleets convoyed.
			r.Outcome = NoConvoy
			if s.noPath[p] {
				r.Outcome = Disrupted
			}
			for _, f := range s.occ {
				if s.kind(f) == Convoy && s.match[f] && m.Province(s.ord[f].Target) == p && *by(f) != NoLoc {
					r.Outcome = Disrupted
					break
				}
			}
		default:
			r.Outcome = Bounced
		}
	case s.kind(p) == Convoy:
		r.Outcome = Succeeds
		if !s.match[p] {
			r.Outcome = NoConvoy
		}
	default: // supports
		switch {
		case !s.match[p]:
			r.Outcome = NoSupport
		case s.res[p]:
			r.Outcome = Succeeds
		default:
			r.Outcome = Cut
		}
	}
	return r
}
