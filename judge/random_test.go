package judge_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestRandomGames plays games of random legal orders and checks the
// invariants of the position after every phase. The seeds are fixed, so a
// failure names a game that can be replayed.
func TestRandomGames(t *testing.T) {
	t.Parallel() // beside the oracle, the other long test of the package
	// A tenth of the games under the race detector; all of them in
	// scripts/test's plain pass (package racetest).
	games, years := racetest.Share(200, 10), 30
	if testing.Short() {
		games = 20
	}
	m := variants.Standard()
	for g := 0; g < games; g++ {
		rng := rand.New(rand.NewPCG(uint64(g), 1901))
		rules := judge.DATC30
		if g%2 == 1 {
			rules = judge.DATC24
		}
		pos := judge.StartPosition(m)
		for pos.Phase.Year < m.StartYear+years {
			orders := randomOrders(rng, pos)
			res := judge.Adjudicate(pos, orders, rules)
			if err := checkInvariants(pos, res); err != nil {
				t.Fatalf("game %d (%s), %s: %v\norders:\n%s", g, rules.Name, pos.Phase, err, orderText(m, orders))
			}
			again := judge.Adjudicate(pos, orders, rules)
			if !reflect.DeepEqual(res, again) {
				t.Fatalf("game %d, %s: the same phase adjudicated twice gave different results", g, pos.Phase)
			}
			if len(res.Winners) > 0 {
				break
			}
			pos = res.Next
		}
	}
}

func orderText(m *judge.Map, orders []judge.Order) string {
	s := ""
	for i := range orders {
		s += orders[i].CanonicalWithPower(m) + "\n"
	}
	return s
}

// checkInvariants checks what must hold after any phase.
func checkInvariants(pos *judge.Position, res *judge.Resolution) error {
	m := pos.Map
	next := res.Next
	if next == nil {
		return fmt.Errorf("no next position")
	}
	if !phaseAfter(pos.Phase, next.Phase) {
		return fmt.Errorf("next phase %s does not follow %s", next.Phase, pos.Phase)
	}
	for i, u := range next.Units {
		if u.Type == judge.NoUnit {
			continue
		}
		if m.Province(u.Loc) != judge.Loc(i) {
			return fmt.Errorf("unit %s %s filed under %s", u.Type, m.LocName(u.Loc), m.LocName(judge.Loc(i)))
		}
		if !m.CanHold(u.Type, u.Loc) {
			return fmt.Errorf("%s %s cannot stand there", u.Type, m.LocName(u.Loc))
		}
		if int(u.Power) >= len(m.Powers) {
			return fmt.Errorf("unit in %s has no power", m.LocName(u.Loc))
		}
	}
	seen := map[judge.Loc]bool{}
	for _, d := range next.Dislodged {
		p := m.Province(d.Loc)
		if seen[p] {
			return fmt.Errorf("two dislodged units in %s", m.LocName(p))
		}
		seen[p] = true
	}
	for _, r := range res.Retreats {
		if len(r.To) == 0 {
			return fmt.Errorf("dislodged %s listed for retreat with nowhere to go", m.LocName(r.Unit.Loc))
		}
		for _, to := range r.To {
			if _, ok := next.UnitAt(to); ok {
				return fmt.Errorf("retreat option %s is occupied", m.LocName(to))
			}
		}
	}
	for l, p := range next.Centers {
		if p != judge.NoPower && (!m.Locs[l].Center || int(p) >= len(m.Powers)) {
			return fmt.Errorf("%s owned by %d but is not a centre", m.LocName(judge.Loc(l)), p)
		}
	}
	if res.OwnershipChanged {
		for _, c := range m.Centers() {
			if u, ok := next.UnitAt(c); ok && next.Centers[c] != u.Power {
				return fmt.Errorf("%s occupied by %s after Fall but owned by %s", m.LocName(c), m.PowerName(u.Power), m.PowerName(next.Centers[c]))
			}
		}
	}
	if pos.Phase.Type == judge.Adjustment {
		centers, units := next.CenterCount(), next.UnitCount()
		for p := range m.Powers {
			if units[p] > centers[p] {
				return fmt.Errorf("%s has %d units for %d centres after adjustments", m.Powers[p].Name, units[p], centers[p])
			}
		}
	}
	before, after := 0, 0
	for _, u := range pos.Units {
		if u.Type != judge.NoUnit {
			before++
		}
	}
	after = len(next.Dislodged)
	for _, u := range next.Units {
		if u.Type != judge.NoUnit {
			after++
		}
	}
	if pos.Phase.Type == judge.Movement && after+len(res.Destroyed) != before {
		return fmt.Errorf("%d units before, %d after plus %d destroyed", before, after, len(res.Destroyed))
	}
	return nil
}

// phaseAfter reports whether b may follow a.
func phaseAfter(a, b judge.Phase) bool {
	order := func(p judge.Phase) int { return p.Year*10 + int(p.Season)*3 + int(p.Type) }
	return order(b) > order(a)
}

// randomOrders writes a legal-looking order for every unit that has
// unitMoves is what randomMove needs of a unit's place, worked out once
// per map, unit type and place: the oracle's and the random games ask for
// it millions of times, and worked out each time it was most of their run.
type unitMoves struct {
	nb    []judge.Loc // where the unit may move (Map.Neighbours)
	helps []bool      // per location: a unit there is one the unit may support, holding or moving, from where it reaches
}

type unitPlace struct {
	m *judge.Map
	t judge.UnitType
	l judge.Loc
}

var unitMovesMemo sync.Map // unitPlace → *unitMoves

// movesFrom returns the unitMoves of a unit of type t at l on m.
func movesFrom(m *judge.Map, t judge.UnitType, l judge.Loc) *unitMoves {
	k := unitPlace{m, t, l}
	if v, ok := unitMovesMemo.Load(k); ok {
		return v.(*unitMoves)
	}
	mt := &unitMoves{nb: m.Neighbours(nil, t, l), helps: make([]bool, m.NumLocs())}
	for i := range mt.helps {
		vl := judge.Loc(i)
		p := m.Province(vl)
		for _, n := range mt.nb {
			if m.Province(n) == p || m.ArmyAdjacent(p, n) || m.FleetReaches(vl, n) {
				mt.helps[i] = true
				break
			}
		}
	}
	unitMovesMemo.Store(k, mt)
	return mt
}

// something to do, with a share of supports, convoys and builds.
func randomOrders(rng *rand.Rand, pos *judge.Position) []judge.Order {
	m := pos.Map
	var out []judge.Order
	switch pos.Phase.Type {
	case judge.Retreat:
		for _, d := range pos.Dislodged {
			o := judge.Order{Kind: judge.Disband, Power: d.Power, Type: d.Type, Unit: d.Loc}
			if nb := m.Neighbours(nil, d.Type, d.Loc); len(nb) > 0 && rng.IntN(5) > 0 {
				o.Kind, o.Target = judge.Move, nb[rng.IntN(len(nb))]
			}
			out = append(out, o)
		}
	case judge.Adjustment:
		centers, units := pos.CenterCount(), pos.UnitCount()
		for p := range m.Powers {
			for i := 0; i < centers[p]-units[p]; i++ {
				homes := m.HomeCenters(nil, judge.Power(p))
				c := homes[rng.IntN(len(homes))]
				t := judge.Army
				if m.Locs[c].Kind == judge.Coast && rng.IntN(2) == 0 {
					t = judge.Fleet
					if cs := m.Locs[c].Coasts; len(cs) > 0 {
						c = cs[rng.IntN(len(cs))]
					}
				}
				if rng.IntN(8) == 0 {
					out = append(out, judge.Order{Kind: judge.Waive, Power: judge.Power(p)})
					continue
				}
				out = append(out, judge.Order{Kind: judge.Build, Power: judge.Power(p), Type: t, Unit: c})
			}
			if units[p] > centers[p] && rng.IntN(3) > 0 {
				for _, u := range pos.Units {
					if u.Type != judge.NoUnit && u.Power == judge.Power(p) && rng.IntN(2) == 0 {
						out = append(out, judge.Order{Kind: judge.Remove, Power: u.Power, Unit: u.Loc})
					}
				}
			}
		}
	default:
		for _, p := range m.Provinces() {
			u := pos.Units[p]
			if u.Type == judge.NoUnit {
				continue
			}
			out = append(out, randomMove(rng, pos, u))
		}
	}
	return out
}

func randomMove(rng *rand.Rand, pos *judge.Position, u judge.Unit) judge.Order {
	m := pos.Map
	o := judge.Order{Kind: judge.Hold, Power: u.Power, Type: u.Type, Unit: u.Loc}
	mt := movesFrom(m, u.Type, u.Loc)
	nb := mt.nb
	switch r := rng.IntN(10); {
	case r < 5 && len(nb) > 0:
		o.Kind, o.Target = judge.Move, nb[rng.IntN(len(nb))]
		if u.Type == judge.Army && rng.IntN(10) == 0 {
			// Try a convoy to any coastal province.
			cs := m.Provinces()
			t := cs[rng.IntN(len(cs))]
			if m.Locs[t].Kind == judge.Coast && t != m.Province(u.Loc) {
				o.Target, o.ViaConvoy = t, rng.IntN(2) == 0
			}
		}
	case r < 8 && len(nb) > 0:
		// Support a neighbour, holding or moving into a place we reach.
		var friends []judge.Unit
		for _, l := range m.Provinces() {
			if v := pos.Units[l]; v.Type != judge.NoUnit && l != m.Province(u.Loc) && mt.helps[v.Loc] {
				friends = append(friends, v)
			}
		}
		if len(friends) == 0 {
			break
		}
		v := friends[rng.IntN(len(friends))]
		o.Target, o.TargetType = v.Loc, v.Type
		t := nb[rng.IntN(len(nb))]
		if m.Province(t) != m.Province(v.Loc) && rng.IntN(3) > 0 {
			o.Kind, o.Dest = judge.SupportMove, m.Province(t)
		} else {
			o.Kind, o.Target = judge.SupportHold, m.Province(v.Loc)
		}
	case r < 9 && u.Type == judge.Fleet && m.Locs[u.Loc].Kind == judge.Sea:
		for _, l := range m.Provinces() {
			if v := pos.Units[l]; v.Type == judge.Army && m.FleetReaches(u.Loc, l) {
				cs := m.Provinces()
				t := cs[rng.IntN(len(cs))]
				if m.Locs[t].Kind == judge.Coast && t != l {
					o.Kind, o.Target, o.TargetType, o.Dest = judge.Convoy, l, judge.Army, t
				}
				break
			}
		}
	}
	return o
}
