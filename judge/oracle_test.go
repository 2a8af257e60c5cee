package judge_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestRetreatContextOracle plays random games and, after every movement
// phase, works out again where each dislodged unit may retreat, with a
// deliberately plain reading of the rulebook that shares nothing with the
// adjudicator but the map and its rulings on the orders:
//
//   - a dislodged unit may retreat to a province next to it that it could
//     move to, that is empty, that its attacker did not come from (unless
//     the attacker came by convoy), and that was not left empty by a
//     stand-off;
//   - a stand-off is a province that two or more units tried to enter and
//     none did, left empty; a unit that was dislodged by the unit coming
//     out of that province (a head-to-head battle lost) had no effect
//     there and does not count, nor does a move that was void or found no
//     convoy.
//
// The judge must agree for every dislodged unit: the same provinces to
// retreat to, and destroyed exactly when there are none. The full run
// covers at least 100,000 movement phases, in scripts/test's plain pass
// (one game at a time: nothing for the race detector to find).
func TestRetreatContextOracle(t *testing.T) {
	racetest.Sequential(t)
	t.Parallel()
	want := 100_000
	if testing.Short() {
		want = 5_000
	}
	m := variants.Standard()
	// The games are shared out among oracleShards parallel subtests,
	// shard k playing games k, k+oracleShards, …, so that the run uses
	// every core (it is the longest test of the suite).
	var mu sync.Mutex
	phases, dislodged, standoffs := 0, 0, 0
	t.Run("shards", func(t *testing.T) {
		for k := range oracleShards {
			t.Run(strconv.Itoa(k), func(t *testing.T) {
				t.Parallel()
				p, d, s := oracleShard(t, m, k, (want+oracleShards-1)/oracleShards)
				mu.Lock()
				defer mu.Unlock()
				phases, dislodged, standoffs = phases+p, dislodged+d, standoffs+s
			})
		}
	})
	if t.Failed() {
		return
	}
	if dislodged == 0 || standoffs == 0 {
		t.Fatalf("%d movement phases had %d dislodged units and %d stand-offs: the games test nothing", phases, dislodged, standoffs)
	}
	t.Logf("%d movement phases, %d dislodged units, %d stand-offs beside them: the judge agrees with the oracle", phases, dislodged, standoffs)
}

// oracleShards is how many parallel parts TestRetreatContextOracle runs in.
const oracleShards = 4

// oracleShard plays games shard, shard+oracleShards, … until want
// movement phases were checked against the oracle, and returns the
// phases, dislodged units and stand-offs it saw.
func oracleShard(t *testing.T, m *judge.Map, shard, want int) (phases, dislodged, standoffs int) {
	for g := shard; phases < want; g += oracleShards {
		rng := rand.New(rand.NewPCG(uint64(g), 0x0bac1e))
		rules := judge.DATC30
		if g%2 == 1 {
			rules = judge.DATC24
		}
		pos := judge.StartPosition(m)
		for pos.Phase.Year < m.StartYear+40 && phases < want {
			var orders []judge.Order
			if pos.Phase.Type == judge.Movement {
				orders = fightingOrders(rng, pos)
			} else {
				orders = randomOrders(rng, pos)
			}
			res := judge.Adjudicate(pos, orders, rules)
			if pos.Phase.Type == judge.Movement {
				phases++
				n, s, err := checkRetreatContext(pos, res)
				if err != nil {
					t.Fatalf("game %d (%s), %s: %v\norders:\n%s", g, rules.Name, pos.Phase, err, orderText(m, orders))
				}
				dislodged += n
				standoffs += s
			}
			if len(res.Winners) > 0 {
				break
			}
			pos = res.Next
		}
	}
	return phases, dislodged, standoffs
}

// checkRetreatContext compares the judge's retreats after one movement
// phase with the oracle's. It returns the number of dislodged units and
// of stand-offs found in phases that had any.
func checkRetreatContext(pos *judge.Position, res *judge.Resolution) (int, int, error) {
	m := pos.Map
	next := res.Next

	// What each unit did, by the province it started in.
	type did struct {
		kind    judge.OrderKind
		to      judge.Loc // province a move went for
		outcome judge.Outcome
		failed  judge.Outcome // what the order came to, for a dislodged unit
		dislodg bool
		order   judge.Order
	}
	// The plain way is a slice per province, with a mark for the units.
	by := make([]did, m.NumLocs())
	has := make([]bool, m.NumLocs())
	for _, r := range res.Results {
		if int(r.Order.Unit) >= m.NumLocs() {
			continue
		}
		d := did{kind: r.Order.Kind, outcome: r.Outcome, failed: r.Outcome, dislodg: r.Dislodged, order: r.Order}
		if r.Dislodged {
			d.failed = r.Failed
		}
		if r.Order.Kind == judge.Move && int(r.Order.Target) < m.NumLocs() {
			d.to = m.Province(r.Order.Target)
		}
		by[m.Province(r.Order.Unit)] = d
		has[m.Province(r.Order.Unit)] = true
	}
	succeeded := func(p judge.Loc) bool { return has[p] && by[p].kind == judge.Move && by[p].failed == judge.Succeeds }

	// An army went by convoy when it could not walk there, or when a
	// fleet's convoy of that very move succeeded.
	byConvoy := func(from judge.Loc) bool {
		d := by[from]
		if pos.Units[from].Type != judge.Army {
			return false
		}
		if !m.ArmyAdjacent(from, d.to) {
			return true
		}
		for _, c := range res.Results {
			if c.Order.Kind == judge.Convoy && c.Outcome == judge.Succeeds &&
				m.Province(c.Order.Target) == from && m.Province(c.Order.Dest) == d.to {
				return true
			}
		}
		return false
	}

	// Where each dislodged unit's attacker came from.
	attacker := map[judge.Loc]judge.Loc{}
	for _, p := range m.Provinces() {
		if !has[p] || !by[p].dislodg {
			continue
		}
		attacker[p] = judge.NoLoc
		for _, q := range m.Provinces() {
			if succeeded(q) && by[q].to == p && !byConvoy(q) {
				attacker[p] = q
			}
		}
	}

	// Stand-offs.
	standoff := map[judge.Loc]bool{}
	for _, t := range m.Provinces() {
		if next.Units[t].Type != judge.NoUnit {
			continue
		}
		tried := 0
		for _, q := range m.Provinces() {
			d := by[q]
			if !has[q] || d.kind != judge.Move || d.to != t || d.failed != judge.Bounced {
				continue // void moves and moves without a convoy do not count
			}
			if d.dislodg && succeeded(t) && by[t].to == q && !byConvoy(t) {
				continue // lost the head-to-head with the unit coming out of t
			}
			tried++
		}
		if tried >= 2 {
			standoff[t] = true
		}
	}

	// The oracle's retreats against the judge's.
	judgeTo := map[judge.Loc][]judge.Loc{}
	for _, r := range res.Retreats {
		var ps []judge.Loc
		for _, l := range r.To {
			ps = append(ps, m.Province(l))
		}
		slices.Sort(ps)
		p := m.Province(r.Unit.Loc)
		judgeTo[p] = slices.Compact(ps) // both coasts of a province are one province
		if a, ok := attacker[p]; ok && r.Unit.AttackerFrom != a {
			return 0, 0, fmt.Errorf("the %s in %s: attacker from %s by the oracle, %s by the judge",
				r.Unit.Type, m.LocName(p), m.LocName(a), m.LocName(r.Unit.AttackerFrom))
		}
	}
	destroyed := map[judge.Loc]bool{}
	for _, u := range res.Destroyed {
		destroyed[m.Province(u.Loc)] = true
	}
	for p := range attacker {
		u := pos.Units[p]
		var want []judge.Loc
		for _, t := range m.Provinces() {
			if t == p || next.Units[t].Type != judge.NoUnit || t == attacker[p] || standoff[t] {
				continue
			}
			if u.Type == judge.Army && m.Locs[t].Kind != judge.Sea && m.ArmyAdjacent(p, t) ||
				u.Type == judge.Fleet && m.FleetReaches(u.Loc, t) {
				want = append(want, t)
			}
		}
		slices.Sort(want)
		got, listed := judgeTo[p]
		switch {
		case len(want) == 0 && !destroyed[p]:
			return 0, 0, fmt.Errorf("the %s in %s has no retreat by the oracle, but the judge did not destroy it (it offers %s)",
				u.Type, m.LocName(p), oracleNames(m, got))
		case len(want) > 0 && !listed:
			return 0, 0, fmt.Errorf("the %s in %s may retreat to %s by the oracle, but the judge offers none (destroyed: %v)",
				u.Type, m.LocName(p), oracleNames(m, want), destroyed[p])
		case len(want) > 0 && !slices.Equal(want, got):
			return 0, 0, fmt.Errorf("the %s in %s: the oracle's retreats %s, the judge's %s (stand-offs %s)",
				u.Type, m.LocName(p), oracleNames(m, want), oracleNames(m, got), oracleNames(m, keys(standoff)))
		}
	}
	if len(attacker) != len(res.Retreats)+len(res.Destroyed) {
		return 0, 0, fmt.Errorf("the oracle sees %d dislodged units, the judge %d retreating and %d destroyed",
			len(attacker), len(res.Retreats), len(res.Destroyed))
	}
	if len(attacker) == 0 {
		return 0, 0, nil
	}
	return len(attacker), len(standoff), nil
}

func oracleNames(m *judge.Map, ls []judge.Loc) string {
	return fmt.Sprint(locNames(m, ls))
}

func keys(set map[judge.Loc]bool) []judge.Loc {
	var out []judge.Loc
	for l := range set {
		out = append(out, l)
	}
	return out
}

// fightingOrders writes movement orders that make battles: most units
// move, and most of the others support a move or a hold they can help, so
// that units are dislodged, head-to-head battles fought and stand-offs
// left in almost every phase.
func fightingOrders(rng *rand.Rand, pos *judge.Position) []judge.Order {
	m := pos.Map
	var orders []judge.Order
	var movers []int // indexes of the moves in orders
	var rest []judge.Unit
	for _, p := range m.Provinces() {
		u := pos.Units[p]
		if u.Type == judge.NoUnit {
			continue
		}
		if rng.IntN(10) < 6 {
			o := randomMove(rng, pos, u)
			if o.Kind == judge.Move {
				movers = append(movers, len(orders))
				orders = append(orders, o)
				continue
			}
		}
		rest = append(rest, u)
	}
	for _, u := range rest {
		o := judge.Order{Kind: judge.Hold, Power: u.Power, Type: u.Type, Unit: u.Loc}
		var helpable []judge.Order
		for _, i := range movers {
			mv := orders[i]
			t := m.Province(mv.Target)
			if t != m.Province(u.Loc) && (u.Type == judge.Army && m.Locs[t].Kind != judge.Sea && m.ArmyAdjacent(u.Loc, t) ||
				u.Type == judge.Fleet && m.FleetReaches(u.Loc, t)) {
				helpable = append(helpable, mv)
			}
		}
		switch {
		case len(helpable) > 0 && rng.IntN(4) > 0:
			mv := helpable[rng.IntN(len(helpable))]
			o.Kind, o.Target, o.TargetType, o.Dest = judge.SupportMove, mv.Unit, mv.Type, m.Province(mv.Target)
		case rng.IntN(3) == 0:
			o = randomMove(rng, pos, u)
		}
		orders = append(orders, o)
	}
	return orders
}
