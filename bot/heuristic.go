package bot

import (
	"math/rand/v2"
	"slices"

	"github.com/gmdjudge/gmd/judge"
)

// Heuristic is the DumbBot-style player (see the package comment).
type Heuristic struct {
	rng   *rand.Rand
	rules judge.Rules
}

// Name implements Player.
func (*Heuristic) Name() string { return "heuristic" }

// heuristicNoise is how far the heuristic strays from its best choice:
// each option's value is scaled by a random factor within ±noise/2, so
// that two close options are taken in turn and the player cannot be read
// move by move.
const heuristicNoise = 0.15

// Orders implements Player.
func (h *Heuristic) Orders(pos *judge.Position, power judge.Power) []judge.Order {
	return newValues(pos, power).orders(h.rng, h.rules)
}

// orders is the heuristic's choice in any phase.
func (v *values) orders(rng *rand.Rand, rules judge.Rules) []judge.Order {
	switch v.pos.Phase.Type {
	case judge.Retreat:
		return v.retreats()
	case judge.Adjustment:
		return v.adjust(rules)
	}
	return v.movement(rng, heuristicNoise)
}

// The weights of a province's value: the share of the value of the
// places k steps away (proximity[k]) in it, in spring and in fall (when
// centres change hands, standing on one counts most); and of attack
// against defence.
var (
	springProximity = []float64{100, 1000, 30, 10, 6, 5, 4, 3, 2, 1}
	fallProximity   = []float64{1000, 100, 30, 10, 6, 5, 4, 3, 2, 1}
)

const (
	springAttack, springDefence = 70, 30
	fallAttack, fallDefence     = 60, 40
)

// values is one power's view of a position: how much each province is
// worth to each of its unit types, and who threatens it.
type values struct {
	pos   *judge.Position
	m     *judge.Map
	g     *graph
	power judge.Power
	size  []int // centres of each power
	// val[t][p] is province p's value for a unit of type t.
	val [3][]float64
	// threat[p] counts the units of other powers that could move to p;
	// mine[p] counts the power's own.
	threat, mine []int
}

// newValues works out power's view of pos.
func newValues(pos *judge.Position, power judge.Power) *values {
	m := pos.Map
	n := m.NumLocs()
	v := &values{pos: pos, m: m, g: graphOf(m), power: power, size: pos.CenterCount(),
		threat: make([]int, n), mine: make([]int, n)}
	powerThreat := make([][]int, len(m.Powers)) // per power, per province: its units next to it
	for q := range powerThreat {
		powerThreat[q] = make([]int, n)
	}
	for _, p := range m.Provinces() {
		u := pos.Units[p]
		if u.Type == judge.NoUnit {
			continue
		}
		for _, t := range v.g.moves[u.Type][u.Loc] {
			tp := m.Province(t)
			if u.Power == power {
				v.mine[tp]++
			} else {
				v.threat[tp]++
				if int(u.Power) < len(powerThreat) {
					powerThreat[u.Power][tp]++
				}
			}
		}
	}
	attack, defence, prox := float64(springAttack), float64(springDefence), springProximity
	if pos.Phase.Season != judge.Spring {
		attack, defence, prox = fallAttack, fallDefence, fallProximity
	}
	base := make([]float64, n)
	for _, c := range pos.CenterList() {
		owner := pos.Centers[c]
		switch {
		case owner == power:
			// Worth the strongest power that could take it.
			worst := 0
			for q := range m.Powers {
				if judge.Power(q) != power && powerThreat[q][c] > 0 && v.size[q] > worst {
					worst = v.size[q]
				}
			}
			base[c] = defence * float64(worst)
		case int(owner) < len(v.size):
			base[c] = attack * float64(v.size[owner])
		default:
			base[c] = attack * float64(max(3, v.size[power]))
		}
	}
	for _, t := range []judge.UnitType{judge.Army, judge.Fleet} {
		cur := slices.Clone(base)
		val := make([]float64, n)
		nextv := make([]float64, n)
		for k, w := range prox {
			for _, p := range m.Provinces() {
				val[p] += w * cur[p]
			}
			if k == len(prox)-1 {
				break
			}
			for _, p := range m.Provinces() {
				s := cur[p]
				for _, q := range v.g.near[t][p] {
					s += cur[q]
				}
				nextv[p] = s / 5
			}
			cur, nextv = nextv, cur
		}
		for _, p := range m.Provinces() {
			if !m.CanHold(t, p) && len(m.Locs[p].Coasts) == 0 {
				val[p] = 0 // a fleet inland, an army at sea
			}
		}
		v.val[t] = val
	}
	return v
}

// worth is the value of unit type t standing in l's province.
func (v *values) worth(t judge.UnitType, l judge.Loc) float64 {
	return v.val[t][v.m.Province(l)]
}

// movement writes a move or a hold for each unit, then turns holds into
// supports where one helps. noise scales the randomness of the choice.
func (v *values) movement(rng *rand.Rand, noise float64) []judge.Order {
	m, pos := v.m, v.pos
	us := units(pos, v.power)
	type option struct {
		to    judge.Loc // NoLoc: stay
		score float64
	}
	opts := make([][]option, len(us))
	best := make([]float64, len(us))
	for i, u := range us {
		jitter := func() float64 { return 1 + noise*(rng.Float64()-0.5) }
		opts[i] = append(opts[i], option{judge.NoLoc, v.worth(u.Type, u.Loc) * jitter()})
		for _, to := range movesIn(v.g, pos, u) {
			s := v.worth(u.Type, to)
			if o := pos.Units[m.Province(to)]; o.Type != judge.NoUnit && o.Power != v.power {
				s *= 0.6 // held by an enemy: a single move only bounces
			}
			opts[i] = append(opts[i], option{to, s * jitter()})
		}
		slices.SortStableFunc(opts[i], func(a, b option) int {
			switch {
			case a.score > b.score:
				return -1
			case a.score < b.score:
				return 1
			}
			return 0
		})
		best[i] = opts[i][0].score
	}
	// The units with the most at stake choose first.
	order := make([]int, len(us))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case best[a] > best[b]:
			return -1
		case best[a] < best[b]:
			return 1
		}
		return 0
	})
	n := m.NumLocs()
	taken := make([]bool, n) // a province one of our units will be in, or is moving to
	decided := make([]bool, n)
	leaving := make([]bool, n)
	out := make([]judge.Order, len(us))
	for _, i := range order {
		u := us[i]
		from := m.Province(u.Loc)
		o := judge.Order{Kind: judge.Hold, Power: v.power, Type: u.Type, Unit: u.Loc}
		for _, op := range opts[i] {
			if op.to == judge.NoLoc {
				if !taken[from] {
					break
				}
				continue
			}
			tp := m.Province(op.to)
			if taken[tp] {
				continue
			}
			if w := pos.Units[tp]; w.Type != judge.NoUnit && w.Power == v.power && !(decided[tp] && leaving[tp]) {
				continue // our own unit is there and not known to leave
			}
			o.Kind, o.Target = judge.Move, op.to
			break
		}
		if o.Kind == judge.Move {
			taken[m.Province(o.Target)], leaving[from] = true, true
		} else {
			taken[from] = true
		}
		decided[from] = true
		out[i] = o
	}
	v.supports(out)
	return out
}

// supports turns holds into supports: of a move of ours into a place an
// enemy holds or could enter, the most valuable first, or else of a unit
// of ours that an enemy could attack.
func (v *values) supports(out []judge.Order) {
	m, pos := v.m, v.pos
	helpers := make([]int, m.NumLocs()) // supports given to the move into, or the hold in, each province
	for i := range out {
		o := &out[i]
		if o.Kind != judge.Hold {
			continue
		}
		u := pos.Units[m.Province(o.Unit)]
		bestScore, best := 0.0, -1
		for j := range out {
			w := &out[j]
			if j == i {
				continue
			}
			switch w.Kind {
			case judge.Move:
				d := m.Province(w.Target)
				enemy := pos.Units[d].Type != judge.NoUnit && pos.Units[d].Power != v.power
				if !enemy && v.threat[d] == 0 || !reachesIn(pos, u, d) || helpers[d] > v.threat[d] {
					continue
				}
				if s := v.val[w.Type][d] / float64(1+helpers[d]); s > bestScore {
					bestScore, best = s, j
				}
			case judge.Hold, judge.SupportHold, judge.SupportMove:
				d := m.Province(w.Unit)
				if v.threat[d] == 0 || !reachesIn(pos, u, d) || helpers[d] >= v.threat[d] {
					continue
				}
				if s := 0.5 * v.val[w.Type][d] / float64(1+helpers[d]); s > bestScore {
					bestScore, best = s, j
				}
			}
		}
		if best < 0 {
			continue
		}
		w := out[best]
		if w.Kind == judge.Move {
			d := m.Province(w.Target)
			helpers[d]++
			*o = judge.Order{Kind: judge.SupportMove, Power: v.power, Type: u.Type, Unit: u.Loc,
				Target: w.Unit, TargetType: w.Type, Dest: d}
		} else {
			d := m.Province(w.Unit)
			helpers[d]++
			*o = judge.Order{Kind: judge.SupportHold, Power: v.power, Type: u.Type, Unit: u.Loc,
				Target: d, TargetType: w.Type}
		}
	}
}

// retreats sends each dislodged unit to its most valuable retreat.
func (v *values) retreats() []judge.Order {
	return retreats(v.pos, v.power, func(opts []judge.Loc) int {
		best := 0
		for i, l := range opts {
			if v.val[judge.Army][v.m.Province(l)]+v.val[judge.Fleet][v.m.Province(l)] >
				v.val[judge.Army][v.m.Province(opts[best])]+v.val[judge.Fleet][v.m.Province(opts[best])] {
				best = i
			}
		}
		return best
	})
}

// adjust builds the most valuable units or removes the least valuable.
func (v *values) adjust(rules judge.Rules) []judge.Order {
	n := buildCount(v.pos, v.power)
	if n < 0 {
		us := units(v.pos, v.power)
		slices.SortStableFunc(us, func(a, b judge.Unit) int {
			return compare(v.worth(a.Type, a.Loc), v.worth(b.Type, b.Loc))
		})
		var out []judge.Order
		for _, u := range us[:-n] {
			out = append(out, removeOrder(u))
		}
		return out
	}
	opts := buildable(v.pos, v.power, rules)
	slices.SortStableFunc(opts, func(a, b judge.Unit) int {
		return compare(v.buildWorth(b), v.buildWorth(a))
	})
	return builds(v.m, opts, n)
}

// buildWorth is what a new unit u would be worth: the value of the
// places it could reach.
func (v *values) buildWorth(u judge.Unit) float64 {
	s := v.worth(u.Type, u.Loc)
	for _, to := range v.g.moves[u.Type][u.Loc] {
		s = max(s, v.worth(u.Type, to))
	}
	return s
}

func compare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
