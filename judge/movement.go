package judge

// Movement adjudication follows Lucas Kruijswijk's decision model ("The
// Math of Adjudication"): every move, support and convoy has one yes/no
// decision (the move succeeds, the support is given, the convoying fleet
// stays), decided on demand from attack, hold, defend and prevent
// strengths. Decisions that depend on themselves are found by guessing:
// if both guesses give a consistent answer the cycle is a paradox or a
// circular movement, settled by the backup rule (Szykman for convoy
// paradoxes, success for circular movement).
//
// Everything is indexed by the Loc of the unit's base province, so the
// working state is a handful of flat slices, reused through a pool.

import (
	"slices"
	"sync"
)

type decision uint8

const (
	unresolved decision = iota
	guessing
	resolved
)

// mover holds the working state of one movement adjudication.
type mover struct {
	m     *Map
	pos   *Position
	rules Rules

	// occupied lists the provinces with a unit in pos, when the caller
	// knows them (a Scratch rules many order sets from one position, and
	// keeps the list); nil means movement finds them on the map.
	occupied []Loc

	ord    []Order // effective order per unit province; Kind 0 means none
	src    []int   // index of the order in the caller's slice, -1 for a default hold
	reason []string
	void   []bool
	dest   []Loc // destination province of a move
	via    []bool
	noPath []bool // a convoyed move forced to fail by the Szykman rule
	match  []bool // a support or convoy matches what its unit does
	useful []bool // a convoying fleet lies on a route that needs it

	state []decision
	res   []bool
	deps  []Loc

	// Singly linked lists through the slices, to avoid maps and allocation:
	// the moves into each province, and the supports given to each unit.
	firstAtk, nextAtk []Loc
	firstSup, nextSup []Loc

	rank []int // sort key of each ruling: the order's place in the input
	perm []int // the rulings' order once sorted by rank
	// norders is the number of orders given: ranks below it are places in
	// the input, the rest are defaults.
	norders int
	tmp     []OrderResult

	// clean says the last run finished, so that its state lies at the
	// places in occ only and reset may clear just those; a run cut short
	// (a panic) leaves it false and the next reset clears everything.
	clean bool
	// nextOnly skips the rulings: the caller wants the next position
	// (Scratch.Next).
	nextOnly bool
	// occ lists the provinces with a unit, in map order: every loop over
	// orders runs over it, not over the whole map.
	occ []Loc

	// kinds caches kind: the order's kind as adjudicated, 0 for an empty
	// province; every change of void goes through setVoid to keep it.
	kinds []OrderKind
	// convoyOrders counts the provinces whose kind is Convoy, so that the
	// common phase without one skips anyConvoy's scan.
	convoyOrders int
	// bounced keeps the stand-off list's buffer for a Scratch after finish
	// has left Position.Bounced nil.
	bounced []Loc
}

var moverPool = sync.Pool{New: func() any { return new(mover) }}

func growLocs(s []Loc, n int) []Loc {
	if cap(s) < n {
		return make([]Loc, n)
	}
	return s[:n]
}

func growBools(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func (s *mover) reset(pos *Position, rules Rules) {
	n := len(pos.Map.Locs)
	if s.clean && s.m == pos.Map && len(s.ord) == n {
		// The last run on this map left state at its units' provinces
		// and its moves' destinations only: clear those.
		for _, p := range s.occ {
			if d := s.dest[p]; d != NoLoc {
				s.firstAtk[d] = NoLoc
			}
			s.ord[p], s.src[p], s.reason[p], s.state[p], s.kinds[p] = Order{}, -1, "", unresolved, 0
			s.void[p], s.via[p], s.noPath[p], s.match[p], s.useful[p], s.res[p] = false, false, false, false, false, false
			s.dest[p], s.nextAtk[p], s.firstSup[p], s.nextSup[p] = NoLoc, NoLoc, NoLoc, NoLoc
		}
		s.pos, s.rules = pos, rules
		s.convoyOrders, s.deps, s.clean = 0, s.deps[:0], false
		return
	}
	s.clean = false
	s.m, s.pos, s.rules = pos.Map, pos, rules
	if cap(s.ord) < n {
		s.ord = make([]Order, n)
		s.src = make([]int, n)
		s.reason = make([]string, n)
		s.state = make([]decision, n)
		s.kinds = make([]OrderKind, n)
	}
	s.ord, s.src, s.reason, s.state, s.kinds = s.ord[:n], s.src[:n], s.reason[:n], s.state[:n], s.kinds[:n]
	clear(s.ord)
	clear(s.reason)
	clear(s.state)
	clear(s.kinds)
	s.convoyOrders = 0
	for i := range s.src {
		s.src[i] = -1
	}
	s.void = growBools(s.void, n)
	s.via = growBools(s.via, n)
	s.noPath = growBools(s.noPath, n)
	s.match = growBools(s.match, n)
	s.useful = growBools(s.useful, n)
	s.res = growBools(s.res, n)
	s.dest = growLocs(s.dest, n)
	s.firstAtk = growLocs(s.firstAtk, n)
	s.nextAtk = growLocs(s.nextAtk, n)
	s.firstSup = growLocs(s.firstSup, n)
	s.nextSup = growLocs(s.nextSup, n)
	for i := 0; i < n; i++ {
		s.dest[i], s.firstAtk[i], s.nextAtk[i], s.firstSup[i], s.nextSup[i] = NoLoc, NoLoc, NoLoc, NoLoc, NoLoc
	}
	s.deps = s.deps[:0]
}

// adjudicateMovement rules on a movement phase.
func adjudicateMovement(pos *Position, orders []Order, rules Rules) *Resolution {
	s := moverPool.Get().(*mover)
	defer moverPool.Put(s)
	res := &Resolution{Phase: pos.Phase}
	res.Results = make([]OrderResult, 0, len(orders)+8)
	next := pos.Clone()
	next.Dislodged, next.Bounced, next.EndedConstructions = nil, nil, nil
	s.nextOnly, s.occupied = false, nil
	s.movement(pos, orders, rules, res, next)
	return res
}

// movement rules on a movement phase into res, whose Results it appends
// to, and next, a copy of pos with no dislodged units, stand-offs or
// ended constructions, which becomes res.Next.
func (s *mover) movement(pos *Position, orders []Order, rules Rules, res *Resolution, next *Position) {
	s.reset(pos, rules)
	m := pos.Map
	s.rank, s.norders = s.rank[:0], len(orders)

	// Assign each order to its unit; the last order for a unit counts.
	for i := range orders {
		o := &orders[i]
		if int(o.Unit) >= len(m.Locs) {
			res.Results = append(res.Results, OrderResult{Order: *o, Outcome: Void, Reason: "no such place"})
			s.rank = append(s.rank, i)
			continue
		}
		p := m.Province(o.Unit)
		u := pos.Units[p]
		other := o.Kind == Build || o.Kind == Remove || o.Kind == Waive || o.Kind == Disband || o.Kind == Construct
		// A neutral unit takes no orders: it holds (an order that names
		// no power would otherwise fit it).
		neutral := u.Power == NoPower && u.Type != NoUnit
		if other || u.Type == NoUnit || o.Power != NoPower && o.Power != u.Power || neutral {
			s.rank = append(s.rank, i)
		}
		switch {
		case other:
			res.Results = append(res.Results, OrderResult{Order: *o, Outcome: Void,
				Reason: o.Kind.String() + " orders belong to other phases"})
			continue
		case u.Type == NoUnit:
			res.Results = append(res.Results, OrderResult{Order: *o, Outcome: Void,
				Reason: "there is no unit in " + m.Locs[p].FullName})
			continue
		case o.Power != NoPower && o.Power != u.Power:
			res.Results = append(res.Results, OrderResult{Order: *o, Outcome: Void,
				Reason: m.PowerName(o.Power) + " does not own the " + unitWord(u.Type) + " in " + m.Locs[p].FullName})
			continue
		case neutral:
			res.Results = append(res.Results, OrderResult{Order: *o, Outcome: Void,
				Reason: "the " + unitWord(u.Type) + " in " + m.Locs[p].FullName + " is neutral: it takes no orders and holds"})
			continue
		}
		s.ord[p] = *o
		s.src[p] = i
	}
	s.occ = s.occ[:0]
	provinces := m.provinces
	if s.occupied != nil {
		provinces = s.occupied
	}
	for _, p := range provinces {
		u := pos.Units[p]
		if u.Type == NoUnit {
			continue
		}
		s.occ = append(s.occ, p)
		if s.src[p] < 0 {
			s.ord[p] = Order{Kind: Hold, Power: u.Power, Type: u.Type, Unit: u.Loc}
		}
		s.ord[p].Power = u.Power
		s.kinds[p] = s.ord[p].Kind
		if s.kinds[p] == Convoy {
			s.convoyOrders++
		}
		if r := s.validate(p, u); r != "" {
			s.setVoid(p, r)
		}
	}
	s.link()

	for _, p := range s.occ {
		switch s.kind(p) {
		case Move, SupportHold, SupportMove, Convoy:
			s.resolve(p)
		}
	}
	s.finish(res, next)
	s.clean = true
}

// setVoid rules the order of the unit at p void, for the reason given:
// it is then adjudicated as a hold.
func (s *mover) setVoid(p Loc, reason string) {
	if s.kinds[p] == Convoy {
		s.convoyOrders--
	}
	s.void[p], s.reason[p], s.kinds[p] = true, reason, Hold
}

func unitWord(t UnitType) string {
	if t == Fleet {
		return "fleet"
	}
	return "army"
}

// kind is the order's kind as adjudicated: a void order is a hold.
func (s *mover) kind(p Loc) OrderKind {
	return s.kinds[p]
}

// validate checks an order against the position and returns why it is
// void, or "". It also fixes the exact destination of fleet moves.
func (s *mover) validate(p Loc, u Unit) string {
	m := s.m
	o := &s.ord[p]
	if o.Type != NoUnit && o.Type != u.Type {
		return "the unit in " + m.Locs[p].FullName + " is " + article(u.Type) + ", not " + article(o.Type)
	}
	if o.Kind != Hold && s.closed(p) {
		return m.Locs[p].FullName + " is closed in the " + s.pos.Phase.Season.String() + ": a unit there may only hold"
	}
	if why := s.closedTarget(o); why != "" {
		return why
	}
	switch o.Kind {
	case Hold:
		return ""
	case Move:
		if int(o.Target) >= len(m.Locs) {
			return "no such destination"
		}
		t := m.Province(o.Target)
		if t == p {
			return "a unit cannot move to the province it is in"
		}
		if u.Type == Fleet {
			if o.ViaConvoy {
				return "a fleet cannot be convoyed"
			}
			l, why := s.fleetDest(u.Loc, o.Target)
			if why != "" {
				return why
			}
			o.Target = l
			s.dest[p] = t
			return ""
		}
		s.dest[p] = t
		o.Target = t
		if m.Locs[t].Kind == Sea {
			return "an army cannot move to " + m.Locs[t].FullName + ", which is sea"
		}
		adjacent := m.ArmyAdjacent(p, t)
		if !adjacent && (m.Locs[p].Kind != Coast || m.Locs[t].Kind != Coast) {
			if m.Locs[t].Impassable {
				return m.Locs[t].FullName + " is impassable: no unit may enter it"
			}
			return "the army in " + m.Locs[p].FullName + " can't get to " + m.Locs[t].FullName
		}
		for _, r := range o.Route {
			if !m.Convoys(r) {
				return "a convoy route goes through seas only"
			}
		}
		s.via[p] = !adjacent || o.ViaConvoy || len(o.Route) > 0
		return ""
	case SupportHold, SupportMove:
		if int(o.Target) >= len(m.Locs) {
			return "no such place"
		}
		tp := m.Province(o.Target)
		if tp == p {
			return "a unit cannot support itself"
		}
		to := tp
		if o.Kind == SupportMove {
			if int(o.Dest) >= len(m.Locs) {
				return "no such destination"
			}
			to = m.Province(o.Dest)
			if to == tp {
				return "a supported move must go somewhere"
			}
			if to == p {
				return "a unit cannot support a move into its own province"
			}
		}
		if !s.canReach(u, to) {
			return "the " + unitWord(u.Type) + " in " + m.Locs[p].FullName + " can't get to " + m.Locs[to].FullName
		}
		return ""
	case Convoy:
		if u.Type != Fleet {
			return "only fleets convoy"
		}
		if !m.Convoys(p) {
			return "a fleet convoys only from a sea province"
		}
		if int(o.Target) >= len(m.Locs) || int(o.Dest) >= len(m.Locs) {
			return "no such place"
		}
		if o.TargetType == Fleet {
			return "a fleet cannot be convoyed"
		}
		if m.Province(o.Target) == m.Province(o.Dest) {
			// Like a support of that move (DATC 6.A.5): the move is
			// illegal, so the order helping it is too.
			return "a convoyed move must go somewhere"
		}
		return ""
	}
	return o.Kind.String() + " orders belong to other phases"
}

// closed reports whether province p is closed in the season of the
// phase (LocInfo.ClosedIn).
func (s *mover) closed(p Loc) bool {
	c := s.m.Locs[p].ClosedIn
	return c != 0 && c == s.pos.Phase.Season
}

// closedTarget says why o is void when it moves or supports into a
// province closed this season, or returns "".
func (s *mover) closedTarget(o *Order) string {
	m := s.m
	var to Loc
	switch o.Kind {
	case Move, SupportHold:
		to = o.Target
	case SupportMove, Convoy:
		to = o.Dest
	default:
		return ""
	}
	if int(to) >= len(m.Locs) || !s.closed(m.Province(to)) {
		return ""
	}
	return m.Locs[m.Province(to)].FullName + " is closed in the " + s.pos.Phase.Season.String() + ": no move or support may reach it"
}

// weak reports whether the unit at p moves across a weak crossing
// (Map.WeakCrossing): an army's move over land, not by convoy.
func (s *mover) weak(p Loc) bool {
	return len(s.m.weak) > 0 && s.kind(p) == Move && s.pos.Units[p].Type == Army && !s.via[p] &&
		s.m.WeakCrossing(p, s.dest[p])
}

// own is the strength the unit at p adds to its move by itself: 1, or 0
// across a weak crossing, where only its supports count.
func (s *mover) own(p Loc) int {
	if s.weak(p) {
		return 0
	}
	return 1
}

func article(t UnitType) string {
	if t == Fleet {
		return "a fleet"
	}
	return "an army"
}

// fleetDest finds the exact Loc a fleet at from reaches when ordered to
// to. A coast that was not given is found only when one coast is in
// reach: with two, the order is void rather than guessed.
func (s *mover) fleetDest(from, to Loc) (Loc, string) {
	m := s.m
	t := m.Province(to)
	if m.Locs[t].Kind == Land {
		return NoLoc, "a fleet cannot move to " + m.Locs[t].FullName + ", which is inland"
	}
	if to != t || len(m.Locs[t].Coasts) == 0 {
		if !m.FleetAdjacent(from, to) {
			return NoLoc, "the fleet in " + m.Locs[from].FullName + " can't get to " + m.Locs[to].FullName
		}
		return to, ""
	}
	var buf [4]Loc
	cs := m.FleetTargets(buf[:0], from, t)
	switch len(cs) {
	case 0:
		return NoLoc, "the fleet in " + m.Locs[from].FullName + " can't get to " + m.Locs[t].FullName
	case 1:
		return cs[0], ""
	}
	return NoLoc, "the fleet in " + m.Locs[from].FullName + " can reach both coasts of " + m.Locs[t].FullName + ": say which"
}

// canReach reports whether unit u could move to province t without a
// convoy, which is what a support needs.
func (s *mover) canReach(u Unit, t Loc) bool {
	if u.Type == Army {
		// No support is given across a weak crossing.
		return s.m.Locs[t].Kind != Sea && s.m.ArmyAdjacent(u.Loc, t) && !s.m.WeakCrossing(u.Loc, t)
	}
	return s.m.FleetReaches(u.Loc, t)
}

// link builds the attack and support lists, marks which supports and
// convoys match, and settles which army moves go by convoy.
func (s *mover) link() {
	m := s.m
	units := s.pos.Units
	// Convoy intent needs the convoy orders matched first.
	for _, p := range s.occ {
		if s.kind(p) != Convoy {
			continue
		}
		a := m.Province(s.ord[p].Target)
		if units[a].Type == Army && s.kind(a) == Move && s.dest[a] == m.Province(s.ord[p].Dest) {
			s.match[p] = true
		}
	}
	for _, a := range s.occ {
		if s.kind(a) != Move || units[a].Type != Army || !s.via[a] && !s.anyConvoy(a) {
			continue
		}
		if !s.markUseful(a) && !m.ArmyAdjacent(a, s.dest[a]) {
			// DATC 6.D.32: no fleets on the board could carry the army
			// there, so the order is illegal (with fleets that merely
			// were not ordered to, it is a failed move: 6.D.8).
			s.setVoid(a, "no convoy route from "+m.Locs[a].FullName+" to "+m.Locs[s.dest[a]].FullName)
		}
	}
	for _, p := range s.occ {
		if s.kind(p) != Convoy || !s.match[p] {
			continue
		}
		a := m.Province(s.ord[p].Target)
		if !s.useful[p] {
			// DATC 4.E.1, 6.G.19: a convoy no route needs is illegal,
			// and so expresses no intent.
			s.match[p] = false
			s.setVoid(p, "the fleet in "+m.Locs[p].FullName+" is not needed to convoy the army in "+m.Locs[a].FullName)
			continue
		}
		if units[a].Power == units[p].Power {
			s.via[a] = true // intent: the army's own fleet convoys it
		}
	}
	for _, p := range s.occ {
		if s.kind(p) != Move || !s.via[p] || units[p].Type != Army {
			continue
		}
		adjacent := m.ArmyAdjacent(p, s.dest[p])
		switch {
		case s.anyConvoy(p) || !adjacent:
		case len(s.ord[p].Route) == 0 && s.rules.ConvoyFallback:
			s.via[p] = false // DATC 2.4, 6.G.8: no convoy ordered, so over land
		}
	}
	// A convoy matches only an army that goes by convoy.
	for _, p := range s.occ {
		if s.kind(p) == Convoy && s.match[p] && !s.via[m.Province(s.ord[p].Target)] {
			s.match[p] = false
		}
	}
	for _, p := range s.occ {
		switch s.kind(p) {
		case Move:
			t := s.dest[p]
			s.nextAtk[p] = s.firstAtk[t]
			s.firstAtk[t] = p
		case SupportHold:
			t := m.Province(s.ord[p].Target)
			if units[t].Type != NoUnit && s.kind(t) != Move {
				s.match[p] = true
				s.nextSup[p] = s.firstSup[t]
				s.firstSup[t] = p
			}
		case SupportMove:
			t := m.Province(s.ord[p].Target)
			d := s.ord[p].Dest
			if mv := &s.ord[t]; units[t].Type != NoUnit && s.void[t] && mv.Kind == Move &&
				int(mv.Target) < len(m.Locs) && m.Province(mv.Target) == m.Province(d) {
				// Illegal orders are ignored, and so is the support of
				// one (DATC 6.A.5, 6.D.22): it is void, not unmatched.
				s.setVoid(p, "it supports an illegal move ("+s.reason[t]+")")
				continue
			}
			if units[t].Type == Army && !m.ArmyAdjacent(t, m.Province(d)) && !s.fleetRoute(t, m.Province(d), p) {
				// A fleet cannot convoy and support at once (DATC 6.D.31):
				// a support of a move that only a convoy through the
				// supporter could make is impossible, so void.
				s.setVoid(p, "the only convoy route from "+m.Locs[t].FullName+" to "+m.Locs[m.Province(d)].FullName+
					" goes through "+m.Locs[p].FullName)
				continue
			}
			// A support that names a coast supports a move to that coast
			// only (DATC 6.B.9); one that names none fits either (6.B.15).
			if units[t].Type != NoUnit && s.kind(t) == Move && s.dest[t] == m.Province(d) &&
				(d == s.dest[t] || units[t].Type != Fleet || s.ord[t].Target == d) {
				s.match[p] = true
				s.nextSup[p] = s.firstSup[t]
				s.firstSup[t] = p
			}
		}
	}
}

// markUseful marks the fleets ordered to convoy the army at a that lie on
// a route in which every fleet is needed: a chain of fleets on the board,
// whatever their orders, from the army to its destination, with no
// shortcut between two of its places (DATC 4.E.1: 6.G.6 against 6.G.19).
// It reports whether any route exists at all. Every step is taken in the
// direction of travel (the army's coast to the first sea, sea to sea, the
// last sea to the destination), which matters on maps with one-way moves
// (Map.OneWay) and nowhere else; convoyPath, convoyRoute and fleetRoute
// do the same.
//
// The routes are enumerated shortest first, and only through fleets from
// which the destination is still near enough, until every fleet ordered
// to convoy the army is marked; a bound on the work stops the rest. The
// search looks at the fleets at sea only, so that its cost follows the
// fleets on the board, not the size of the map: on Youngstown Redux (183
// provinces) with a fleet in every sea, a search that counted its work in
// provinces and went depth first gave up before it met a two-fleet route.
func (s *mover) markUseful(a Loc) bool {
	m := s.m
	units := s.pos.Units
	t := s.dest[a]
	var fleetBuf [64]Loc
	var distBuf [64]int
	fleets := fleetBuf[:0] // the fleets that may convoy (at sea, or in an archipelago), in map order
	// dist[i] is the fewest fleets after fleets[i] that carry an army on
	// to t (0: fleets[i] reaches t), -1 if none do: a lower bound on what
	// any route through fleets[i] still needs.
	dist := distBuf[:0]
	want := 0 // how many of the fleets convoy the army
	for _, f := range s.occ {
		if units[f].Type == Fleet && m.Convoys(f) {
			fleets = append(fleets, f)
			dist = append(dist, -1)
			if s.convoys(f, a) {
				want++
			}
		}
	}
	for i, f := range fleets {
		if m.FleetReaches(f, t) {
			dist[i] = 0
		}
	}
	for d, grew := 0, true; grew; d++ {
		grew = false
		for i, f := range fleets {
			if dist[i] != d {
				continue
			}
			for j, g := range fleets {
				if dist[j] < 0 && m.FleetAdjacent(g, f) {
					dist[j], grew = d+1, true
				}
			}
		}
	}

	var path [16]Loc
	budget := 4096
	found, marked := false, 0
	done := func() bool { return found && marked == want || budget < 0 }
	var walk func(n, limit int)
	walk = func(n, limit int) {
		last := path[n-1]
		if m.FleetReaches(last, t) {
			shortcut := false
			for _, f := range path[:n-1] {
				shortcut = shortcut || m.FleetReaches(f, t)
			}
			if !shortcut {
				found = true
				for _, f := range path[:n] {
					if s.convoys(f, a) && !s.useful[f] {
						s.useful[f] = true
						marked++
					}
				}
			}
			return // going on past the destination would be a detour
		}
		for j, g := range fleets {
			if budget--; done() {
				return
			}
			if dist[j] < 0 || n+1+dist[j] > limit || !m.FleetAdjacent(last, g) || m.FleetReachesFrom(a, g) {
				continue
			}
			ok := true
			for _, f := range path[:n-1] {
				ok = ok && f != g && !m.FleetAdjacent(f, g)
			}
			if ok && g != last {
				path[n] = g
				walk(n+1, limit)
			}
		}
	}
	for limit := 1; limit <= len(path) && !done(); limit++ {
		for i, f := range fleets {
			if done() {
				break
			}
			if dist[i] >= 0 && 1+dist[i] <= limit && m.FleetReachesFrom(a, f) {
				path[0] = f
				walk(1, limit)
			}
		}
	}
	return found
}

// fleetRoute reports whether a chain of convoying fleets (in seas or
// archipelagos), other
// than the one at skip, links the coast at from with the province to.
func (s *mover) fleetRoute(from, to, skip Loc) bool {
	m, units := s.m, s.pos.Units
	var buf [64]Loc
	queue, seen := buf[:0], map[Loc]bool{}
	for _, f := range s.occ {
		if f != skip && units[f].Type == Fleet && m.Convoys(f) && m.FleetReachesFrom(from, f) {
			queue, seen[f] = append(queue, f), true
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if m.FleetReaches(f, to) {
			return true
		}
		for _, g := range s.occ {
			if !seen[g] && g != skip && units[g].Type == Fleet && m.Convoys(g) && m.FleetAdjacent(f, g) {
				queue, seen[g] = append(queue, g), true
			}
		}
	}
	return false
}

// anyConvoy reports whether any fleet was ordered to convoy the army at p
// along its move.
func (s *mover) anyConvoy(p Loc) bool {
	if s.convoyOrders == 0 {
		return false
	}
	for _, f := range s.occ {
		if s.kind(f) == Convoy && s.match[f] && s.m.Province(s.ord[f].Target) == p {
			return true
		}
	}
	return false
}

// resolve returns the decision for the order of the unit at p, guessing
// where decisions depend on each other.
func (s *mover) resolve(p Loc) bool {
	switch s.state[p] {
	case resolved:
		return s.res[p]
	case guessing:
		// Always record the use of a guess, even one already listed: the
		// caller tells whether it depends on a guess by the list growing.
		s.deps = append(s.deps, p)
		return s.res[p]
	}
	old := len(s.deps)
	s.res[p], s.state[p] = false, guessing
	first := s.adjudicate(p)
	if len(s.deps) == old {
		if s.state[p] != resolved {
			s.res[p], s.state[p] = first, resolved
		}
		return first
	}
	if s.deps[old] != p {
		// Part of a cycle whose head is further up: keep the guess open.
		s.deps = append(s.deps, p)
		s.res[p] = first
		return first
	}
	for _, d := range s.deps[old:] {
		s.state[d] = unresolved
	}
	s.deps = s.deps[:old]
	s.res[p], s.state[p] = true, guessing
	second := s.adjudicate(p)
	if first == second || len(s.deps) == old {
		for _, d := range s.deps[old:] {
			s.state[d] = unresolved
		}
		s.deps = s.deps[:old]
		s.res[p], s.state[p] = second, resolved
		return second
	}
	s.backup(old)
	return s.resolve(p)
}

// backup settles a cycle with two consistent answers: if a convoy is part
// of it, the Szykman rule makes the convoyed moves in it fail as if not
// convoyed at all; otherwise it is circular movement and every move in it
// succeeds.
func (s *mover) backup(old int) {
	cyc := s.deps[old:]
	m := s.m
	convoy := false
	for _, d := range cyc {
		convoy = convoy || s.kind(d) == Convoy
	}
	// A cycle through a convoy decision is a paradox; one of moves alone,
	// convoyed or not, is circular movement.
	for _, d := range cyc {
		if !convoy {
			break
		}
		a := d
		if s.kind(d) == Convoy {
			// The army this fleet carries may not be in the cycle itself:
			// its path is asked for directly, not as a decision.
			a = m.Province(s.ord[d].Target)
		}
		if s.kind(a) == Move && s.via[a] {
			s.noPath[a] = true
			s.res[a], s.state[a] = false, resolved
		}
	}
	settled := convoy
	for _, d := range cyc {
		switch {
		case s.noPath[d]:
		case !convoy && s.kind(d) == Move:
			s.res[d], s.state[d] = true, resolved
			settled = true
		default:
			s.state[d] = unresolved
		}
	}
	if !settled {
		// No rule applies (not met on the standard map): keep the last
		// guess rather than loop.
		for _, d := range cyc {
			s.state[d] = resolved
		}
	}
	s.deps = s.deps[:old]
}

func (s *mover) adjudicate(p Loc) bool {
	switch s.kind(p) {
	case Move:
		return s.moveSucceeds(p)
	case SupportHold, SupportMove:
		return s.supportGiven(p)
	case Convoy:
		return !s.dislodged(p)
	}
	return false
}

// path reports whether the move from p has a way to its destination.
func (s *mover) path(p Loc) bool {
	if !s.via[p] {
		return true
	}
	if s.noPath[p] {
		return false
	}
	return s.convoyPath(p)
}

// convoyPath looks for a chain of matching, surviving convoy fleets from
// the army at p to its destination, through the route the army named if
// it named one.
func (s *mover) convoyPath(p Loc) bool {
	m := s.m
	t := s.dest[p]
	if r := s.ord[p].Route; len(r) > 0 {
		prev := p
		for i, sea := range r {
			f := m.Province(sea)
			if !s.convoys(f, p) {
				return false
			}
			if i == 0 && !m.FleetReachesFrom(prev, f) || i > 0 && !m.FleetAdjacent(prev, f) {
				return false
			}
			if !s.resolve(f) {
				return false
			}
			prev = f
		}
		return m.FleetReaches(prev, t)
	}
	// Breadth-first over the fleets, which are few; the visited set and
	// queue live on the stack for maps of up to 256 places.
	var seen [4]uint64
	var queue [64]Loc
	useSeen := len(m.Locs) <= 256
	qn := 0
	for _, f := range s.occ {
		if s.convoys(f, p) && m.FleetReachesFrom(p, f) && qn < len(queue) {
			if useSeen {
				seen[f/64] |= 1 << (f % 64)
			}
			queue[qn] = f
			qn++
		}
	}
	for i := 0; i < qn; i++ {
		f := queue[i]
		if !s.resolve(f) {
			continue
		}
		if m.FleetReaches(f, t) {
			return true
		}
		for _, g := range s.occ {
			if useSeen && seen[g/64]&(1<<(g%64)) != 0 {
				continue
			}
			if s.convoys(g, p) && m.FleetAdjacent(f, g) && qn < len(queue) {
				if useSeen {
					seen[g/64] |= 1 << (g % 64)
				}
				queue[qn] = g
				qn++
			}
		}
	}
	return false
}

// convoyRoute returns the shortest chain of fleets ordered to convoy the
// army at p from p to its destination, whether they survive or not, as
// the seas they are in; nil if there is none. Ties go to the fleets first
// in map order, so that the same orders always give the same route.
func (s *mover) convoyRoute(p Loc) []Loc {
	m, t := s.m, s.dest[p]
	from := map[Loc]Loc{} // each fleet reached, and the fleet before it (NoLoc: the army)
	var queue []Loc
	for _, f := range s.occ {
		if s.convoys(f, p) && m.FleetReachesFrom(p, f) {
			from[f] = NoLoc
			queue = append(queue, f)
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if m.FleetReaches(f, t) {
			var route []Loc
			for g := f; g != NoLoc; g = from[g] {
				route = append(route, g)
			}
			slices.Reverse(route)
			return route
		}
		for _, g := range s.occ {
			if _, seen := from[g]; !seen && s.convoys(g, p) && m.FleetAdjacent(f, g) {
				from[g] = f
				queue = append(queue, g)
			}
		}
	}
	return nil
}

// convoys reports whether the unit at f is ordered to convoy the army at a
// along its move.
func (s *mover) convoys(f, a Loc) bool {
	return s.kind(f) == Convoy && s.match[f] && s.m.Province(s.ord[f].Target) == a
}

// headToHead returns the unit at p's destination when it moves straight
// back at p without convoy on either side, or NoLoc.
func (s *mover) headToHead(p Loc) Loc {
	t := s.dest[p]
	if s.kind(t) == Move && s.dest[t] == p && !s.via[p] && !s.via[t] {
		return t
	}
	return NoLoc
}

func (s *mover) moveSucceeds(p Loc) bool {
	if !s.path(p) {
		return false
	}
	att := s.attackStrength(p)
	// bare is a move across a weak crossing with no support: it has no
	// strength, and gets in only where nothing stands and nothing else
	// tries to enter (as njudge plays Loeb9's straits).
	bare := att == 0 && s.weak(p)
	if h := s.headToHead(p); h != NoLoc {
		if att <= s.defendStrength(h) {
			return false
		}
	} else if hold := s.holdStrength(s.dest[p]); att <= hold && !(bare && hold == 0) {
		return false
	}
	for q := s.firstAtk[s.dest[p]]; q != NoLoc; q = s.nextAtk[q] {
		if q == p {
			continue
		}
		if prevent := s.preventStrength(q); att <= prevent && !(bare && prevent == 0 && !(s.path(q) && s.weak(q))) {
			return false
		}
	}
	return true
}

// supports counts the supports given to the unit at p, leaving out those
// of power `except` (NoPower leaves out none).
func (s *mover) supports(p Loc, except Power) int {
	n := 0
	for q := s.firstSup[p]; q != NoLoc; q = s.nextSup[q] {
		if s.pos.Units[q].Power != except && s.resolve(q) {
			n++
		}
	}
	return n
}

func (s *mover) holdStrength(t Loc) int {
	if s.pos.Units[t].Type == NoUnit {
		return 0
	}
	if s.kind(t) == Move {
		if s.resolve(t) {
			return 0
		}
		return 1
	}
	return 1 + s.supports(t, NoPower)
}

func (s *mover) attackStrength(p Loc) int {
	if !s.path(p) {
		return 0
	}
	t := s.dest[p]
	units := s.pos.Units
	if units[t].Type == NoUnit || s.kind(t) == Move && s.headToHead(p) == NoLoc && s.resolve(t) {
		return s.own(p) + s.supports(p, NoPower)
	}
	if units[t].Power == units[p].Power {
		return 0
	}
	return s.own(p) + s.supports(p, units[t].Power)
}

func (s *mover) defendStrength(p Loc) int { return s.own(p) + s.supports(p, NoPower) }

func (s *mover) preventStrength(p Loc) int {
	if !s.path(p) {
		return 0
	}
	if h := s.headToHead(p); h != NoLoc && s.resolve(h) {
		return 0
	}
	return s.own(p) + s.supports(p, NoPower)
}

// felt reports whether the move of the unit at p, which has a path, is
// felt in its destination: cuts a support there or stands off there.
// Every move is, but one across a weak crossing without support.
func (s *mover) felt(p Loc) bool {
	return !s.weak(p) || s.supports(p, NoPower) > 0
}

// supportGiven decides whether the support from p stands: it is cut by
// an attack from another power, except an attack from the province the
// support is aimed at, which cuts only by dislodging.
func (s *mover) supportGiven(p Loc) bool {
	units := s.pos.Units
	var against Loc = NoLoc
	if s.ord[p].Kind == SupportMove {
		against = s.m.Province(s.ord[p].Dest)
	}
	for q := s.firstAtk[p]; q != NoLoc; q = s.nextAtk[q] {
		if units[q].Power == units[p].Power {
			continue
		}
		if q == against {
			if s.resolve(q) {
				return false
			}
			continue
		}
		if s.path(q) && s.felt(q) {
			return false
		}
	}
	return true
}

// dislodged decides whether the unit at p, which is not moving, is driven
// out.
func (s *mover) dislodged(p Loc) bool {
	for q := s.firstAtk[p]; q != NoLoc; q = s.nextAtk[q] {
		if s.resolve(q) {
			return true
		}
	}
	return false
}
