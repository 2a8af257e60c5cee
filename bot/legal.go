package bot

import (
	"sync"

	"github.com/gmdjudge/gmd/judge"
)

// graph is what the players need of a map's adjacency, worked out once per
// map: where each unit may move, and which provinces neighbour each other
// for armies and for fleets.
type graph struct {
	m *judge.Map
	// moves[t][l] lists the exact places a unit of type t at l may move
	// to: what the adjudicator accepts without a convoy.
	moves [3][][]judge.Loc
	// near[t][p] lists the provinces a unit of type t in province p could
	// move to from some place of p, for spreading values.
	near [3][][]judge.Loc
	// closes says some province of the map is closed in a season
	// (judge.LocInfo.ClosedIn): moves then depend on the phase.
	closes bool
}

var graphs sync.Map // *judge.Map → *graph

// graphOf returns the graph of m.
func graphOf(m *judge.Map) *graph {
	if g, ok := graphs.Load(m); ok {
		return g.(*graph)
	}
	n := m.NumLocs()
	g := &graph{m: m}
	for _, p := range m.Provinces() {
		g.closes = g.closes || m.Locs[p].ClosedIn != 0
	}
	for _, t := range []judge.UnitType{judge.Army, judge.Fleet} {
		g.moves[t] = make([][]judge.Loc, n)
		g.near[t] = make([][]judge.Loc, n)
		for l := range n {
			at := judge.Loc(l)
			if !m.CanHold(t, at) {
				continue
			}
			from := m.Province(at)
			for _, to := range m.Neighbours(nil, t, at) {
				tp := m.Province(to)
				if tp == from || !m.CanHold(t, to) {
					continue
				}
				if t == judge.Army && !m.ArmyAdjacent(from, tp) {
					continue
				}
				g.moves[t][l] = append(g.moves[t][l], to)
				if !contains(g.near[t][from], tp) {
					g.near[t][from] = append(g.near[t][from], tp)
				}
			}
		}
	}
	v, _ := graphs.LoadOrStore(m, g)
	return v.(*graph)
}

func contains(ls []judge.Loc, l judge.Loc) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// reaches reports whether unit u could move to province t without a
// convoy: what a legal support into t needs.
func reaches(m *judge.Map, u judge.Unit, t judge.Loc) bool {
	if m.Province(u.Loc) == t {
		return false
	}
	if u.Type == judge.Army {
		// No support crosses a weak crossing (Loeb9's straits).
		from := m.Province(u.Loc)
		return m.Locs[t].Kind != judge.Sea && m.ArmyAdjacent(from, t) && !m.WeakCrossing(from, t)
	}
	return m.FleetReaches(u.Loc, t)
}

// open reports whether the province of l is open in the season of pos:
// not closed then (judge.LocInfo.ClosedIn, Loeb9's Arctic in the Fall),
// so that units may be ordered there and into it.
func open(pos *judge.Position, l judge.Loc) bool {
	c := pos.Map.Locs[pos.Map.Province(l)].ClosedIn
	return c == 0 || c != pos.Phase.Season
}

// movesIn lists the places the unit u may move to in the phase of pos:
// g's moves, less those into or out of a province closed in its season.
func movesIn(g *graph, pos *judge.Position, u judge.Unit) []judge.Loc {
	all := g.moves[u.Type][u.Loc]
	if !g.closes {
		return all
	}
	if !open(pos, u.Loc) {
		return nil
	}
	var out []judge.Loc
	for _, t := range all {
		if open(pos, t) {
			out = append(out, t)
		}
	}
	return out
}

// reachesIn is reaches in the phase of pos: no support is given from or
// into a province closed in its season.
func reachesIn(pos *judge.Position, u judge.Unit, t judge.Loc) bool {
	return open(pos, u.Loc) && open(pos, t) && reaches(pos.Map, u, t)
}

// units lists power's units in map order.
func units(pos *judge.Position, power judge.Power) []judge.Unit {
	var out []judge.Unit
	for _, p := range pos.Map.Provinces() {
		if u := pos.Units[p]; u.Type != judge.NoUnit && u.Power == power {
			out = append(out, u)
		}
	}
	return out
}

// buildCount returns how many units power builds (above 0) or removes
// (below 0) in an adjustment position.
func buildCount(pos *judge.Position, power judge.Power) int {
	return pos.CenterCount()[power] - pos.UnitCount()[power]
}

// buildable lists the units power may build in pos: for each build site
// an army where an army may stand, and a fleet on each coast a fleet may
// stand on.
func buildable(pos *judge.Position, power judge.Power, rules judge.Rules) []judge.Unit {
	m := pos.Map
	var out []judge.Unit
	for _, c := range pos.BuildSites(power, rules.BuildsOn(m)) {
		if m.CanHold(judge.Army, c) {
			out = append(out, judge.Unit{Type: judge.Army, Power: power, Loc: c})
		}
		if m.CanHold(judge.Fleet, c) {
			out = append(out, judge.Unit{Type: judge.Fleet, Power: power, Loc: c})
		}
		for _, cs := range m.Locs[c].Coasts {
			if m.CanHold(judge.Fleet, cs) {
				out = append(out, judge.Unit{Type: judge.Fleet, Power: power, Loc: cs})
			}
		}
	}
	return out
}

// buildOrder and removeOrder write an adjustment order for u.
func buildOrder(u judge.Unit) judge.Order {
	return judge.Order{Kind: judge.Build, Power: u.Power, Type: u.Type, Unit: u.Loc}
}

func removeOrder(u judge.Unit) judge.Order {
	return judge.Order{Kind: judge.Remove, Power: u.Power, Type: u.Type, Unit: u.Loc}
}
