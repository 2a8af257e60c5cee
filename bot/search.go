package bot

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gmdjudge/gmd/judge"
)

// Search is the heuristic with a look ahead of one phase (see the package
// comment). Its choice depends on its seed and Budget only, unless
// MaxTime runs out first.
type Search struct {
	rng   *rand.Rand
	rules judge.Rules
	// Budget is the number of adjudications a movement phase may use.
	Budget int
	// MaxTime stops a search that takes longer, as a safety.
	MaxTime time.Duration

	scratch *judge.Scratch
	// Used counts the adjudications of the last phase, for tests and
	// benchmarks.
	Used int
}

// Name implements Player.
func (*Search) Name() string { return "search" }

// The search's shape: how many candidate order sets of its own it weighs
// at most, how many samples it draws of each other power's orders, and
// how far those samples stray from the heuristic's choice.
const (
	maxCandidates = 48
	otherSamples  = 8
	ownNoise      = 0.8
	otherNoise    = 0.5
)

// Orders implements Player.
func (s *Search) Orders(pos *judge.Position, power judge.Power) []judge.Order {
	v := newValues(pos, power)
	s.Used = 0
	mine := v.orders(s.rng, s.rules)
	if pos.Phase.Type != judge.Movement {
		return mine // the heuristic's retreats and adjustments
	}
	if len(mine) == 0 {
		return mine
	}
	// Candidates: the heuristic's choice first, then samples around it,
	// each once.
	k := min(maxCandidates, max(2, s.Budget/16))
	cands := [][]judge.Order{mine}
	seen := map[string]bool{key(mine): true}
	for tries := 0; len(cands) < k && tries < 3*k; tries++ {
		c := v.movement(s.rng, ownNoise)
		if kc := key(c); !seen[kc] {
			seen[kc] = true
			cands = append(cands, c)
		}
	}
	// The others' samples: several for a power whose units touch ours,
	// one (its heuristic choice) for the rest.
	var others [][][]judge.Order
	for q := range pos.Map.Powers {
		qp := judge.Power(q)
		if qp == power || len(units(pos, qp)) == 0 {
			continue
		}
		vq := newValues(pos, qp)
		samples := [][]judge.Order{vq.movement(s.rng, heuristicNoise)}
		if v.touches(qp) {
			for range otherSamples - 1 {
				samples = append(samples, vq.movement(s.rng, otherNoise))
			}
		}
		others = append(others, samples)
	}
	profiles := max(1, s.Budget/len(cands))
	if s.scratch == nil {
		s.scratch = judge.NewScratch(pos, s.rules)
	}
	s.scratch.Reset(pos)
	score := make([]float64, len(cands))
	var orders []judge.Order
	start := time.Now()
	for j := 0; j < profiles; j++ {
		// One profile of the others' orders, the same for every candidate.
		profile := orders[:0]
		for _, samples := range others {
			profile = append(profile, samples[s.rng.IntN(len(samples))]...)
		}
		orders = profile
		n := len(orders)
		for i, c := range cands {
			orders = append(orders[:n], c...)
			score[i] += v.evaluate(s.scratch.Next(orders))
			s.Used++
		}
		if time.Since(start) > s.MaxTime {
			break
		}
	}
	best := 0
	for i := range cands {
		if score[i] > score[best] {
			best = i
		}
	}
	return cands[best]
}

// key identifies an order set, to weigh each candidate once.
func key(orders []judge.Order) string {
	b := make([]byte, 0, 8*len(orders))
	for _, o := range orders {
		b = append(b, byte(o.Kind), byte(o.Unit), byte(o.Unit>>8), byte(o.Target), byte(o.Target>>8), byte(o.Dest), byte(o.Dest>>8))
	}
	return string(b)
}

// touches reports whether a unit of q could move where one of the
// power's units could, or stands: the powers whose orders matter most.
func (v *values) touches(q judge.Power) bool {
	m, pos := v.m, v.pos
	for _, p := range m.Provinces() {
		u := pos.Units[p]
		if u.Type == judge.NoUnit || u.Power != q {
			continue
		}
		for _, t := range v.g.moves[u.Type][u.Loc] {
			tp := m.Province(t)
			if v.mine[tp] > 0 || pos.Units[tp].Power == v.power && pos.Units[tp].Type != judge.NoUnit {
				return true
			}
		}
	}
	return false
}

// evaluate scores the position after a phase for the power: the centres
// it holds or stands on, its units (a dislodged one at half), and how well
// placed they are by the power's values of the phase before.
func (v *values) evaluate(next *judge.Position) float64 {
	m := v.m
	centres := 0
	for _, c := range next.CenterList() {
		holder := next.Centers[c]
		if u := next.Units[c]; u.Type != judge.NoUnit {
			holder = u.Power
		}
		if holder == v.power {
			centres++
		}
	}
	score := 10 * float64(centres)
	top := [3]float64{}
	for _, t := range []judge.UnitType{judge.Army, judge.Fleet} {
		top[t] = slices.Max(v.val[t])
	}
	for _, p := range m.Provinces() {
		u := next.Units[p]
		if u.Type == judge.NoUnit || u.Power != v.power {
			continue
		}
		score += 3
		if top[u.Type] > 0 {
			score += 2 * v.val[u.Type][p] / top[u.Type]
		}
	}
	for _, d := range next.Dislodged {
		if d.Power == v.power {
			score += 1.5
		}
	}
	return score
}
