package picture

import (
	"slices"
	"sync"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// shot is one picture of the test corpus: a position and, when not nil,
// the adjudication of its phase.
type shot struct {
	name string
	pos  *judge.Position
	res  *judge.Resolution
}

// lcg is a fixed pseudo-random sequence, so that the corpus is the same
// on every run.
type lcg uint64

func (r *lcg) intn(n int) int {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int(uint64(*r>>33) % uint64(n))
}

// corpus plays three years of every shipped variant with pseudo-random
// orders (moves, supports of moves and holds, convoys, retreats,
// disbands, builds, removals, waives, and on 34-35-36 constructions),
// and returns every phase played, as its picture would be drawn, then
// the start of each variant without orders: every board, and the orders
// and outcomes its games produce.
func corpus(t testing.TB) []shot {
	t.Helper()
	// Clipped, so that a test that appends its own shots appends to a
	// copy.
	return slices.Clip(corpusShots.get(t, "the corpus", func() []shot { return playCorpus(t) }))
}

// The corpus is played once per test binary: its positions are only read.
var corpusShots shared[[]shot]

// shared is a value the tests of a binary share, made by the first that
// asks for it and only read after: the corpus and what is drawn of it
// cost seconds each under the race detector.
type shared[T any] struct {
	once sync.Once
	v    T
	ok   bool
}

// get returns the value, made by mk on the first call; an mk that
// failed (t.Fatal) fails every test that asks.
func (s *shared[T]) get(t testing.TB, what string, mk func() T) T {
	t.Helper()
	s.once.Do(func() {
		s.v = mk()
		s.ok = true
	})
	if !s.ok {
		t.Fatalf("%s could not be made", what)
	}
	return s.v
}

// drawnSVG is a corpus shot's SVG and its elements (parseSVG), each with
// its tag and classes only.
type drawnSVG struct {
	data []byte
	doc  []node
}

// corpusSVGs are the SVGs of corpus, in its order, each drawn and parsed
// once per test binary for the tests that read them.
func corpusSVGs(t testing.TB) []drawnSVG {
	t.Helper()
	shots := corpus(t)
	return corpusDrawn.get(t, "the corpus's SVGs", func() []drawnSVG {
		out := make([]drawnSVG, len(shots))
		for i, s := range shots {
			data := svgOf(t, s.pos, s.res)
			doc, _, _ := parseSVG(t, data)
			// Kept for their classes only: the attributes and
			// texts of every picture would hold hundreds of
			// megabytes under the race detector.
			for j := range doc {
				doc[j] = node{tag: doc[j].tag, class: doc[j].class}
			}
			out[i] = drawnSVG{data, doc}
		}
		return out
	})
}

var corpusDrawn shared[[]drawnSVG]

func playCorpus(t testing.TB) []shot {
	var out []shot
	// Every board without the race detector, about one in six under it
	// (package racetest says why), and always the standard board and
	// 34-35-36, whose games hold the marks TestCorpusCoversMarks wants
	// (retreats; constructions only on 34-35-36), 1898, Ancient Mediterranean,
	// Colonial, Hundred and Unconstitutional, whose random games hold the cut
	// supports, retreats and removals the tests of marks count, and the
	// boards whose starts TestQuantiseKeepsMostUsed reads.
	for _, name := range racetest.Spread(variants.Names(), 6, append([]string{"standard", "34-35-36", "1898", "ancient-mediterranean", "colonial", "hundred", "unconstitutional"}, quantiseBoards...)...) {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, shot{name + "-start", judge.StartPosition(m), nil})
		r := lcg(len(name))
		pos := judge.StartPosition(m)
		var last *judge.Resolution
		for i := 0; i < 16 && pos.Phase.Year < m.StartYear+3; i++ {
			var orders []judge.Order
			switch pos.Phase.Type {
			case judge.Movement:
				orders = randomMoves(pos, &r)
			case judge.Retreat:
				orders = randomRetreats(pos, last, &r)
			case judge.Adjustment:
				orders = randomAdjustments(pos, &r)
			}
			res := judge.Adjudicate(pos, orders, judge.DefaultRules)
			out = append(out, shot{name + "-" + pos.Phase.String(), pos, res})
			last = res
			pos = res.Next
		}
	}
	return out
}

// randomMoves gives every unit an order: a move, a support of a move
// already given or of a neighbour's hold, a convoy of a neighbouring
// army with the army's move, or a hold.
func randomMoves(pos *judge.Position, r *lcg) []judge.Order {
	m := pos.Map
	var orders []judge.Order
	given := map[judge.Loc]int{} // province -> index in orders
	var nb []judge.Loc
	for _, p := range m.Provinces() {
		u, ok := pos.UnitAt(p)
		if !ok || given[p] > 0 {
			continue
		}
		o := judge.Order{Kind: judge.Hold, Power: u.Power, Type: u.Type, Unit: u.Loc}
		nb = m.Neighbours(nb[:0], u.Type, u.Loc)
		switch k := r.intn(12); {
		case k == 11:
			continue // no order: the judge holds it
		case k < 5 && len(nb) > 0:
			o.Kind, o.Target = judge.Move, nb[r.intn(len(nb))]
			// An attack on a neighbour, where there is one, now and then:
			// the supports that follow make dislodgements.
			for _, q := range nb {
				if v, ok := pos.UnitAt(q); ok && v.Power != u.Power && r.intn(2) == 0 {
					o.Target = q
					break
				}
			}
		case k < 8 && len(nb) > 0:
			// A support of an attack already given that this unit can
			// reach, or else of a random neighbour.
			for _, prev := range orders {
				if prev.Kind == judge.Move && prev.Power == u.Power && reaches(m, nb, prev.Target) {
					if _, occupied := pos.UnitAt(prev.Target); occupied {
						o.Kind, o.Target, o.TargetType, o.Dest = judge.SupportMove, prev.Unit, prev.Type, prev.Target
						break
					}
				}
			}
			if o.Kind != judge.Hold {
				break
			}
			q := m.Province(nb[r.intn(len(nb))])
			if v, ok := pos.UnitAt(q); ok {
				o.Kind, o.Target, o.TargetType = judge.SupportHold, v.Loc, v.Type
				if i, ok := given[q]; ok && orders[i-1].Kind == judge.Move {
					o.Kind, o.Dest = judge.SupportMove, orders[i-1].Target
				}
			}
		case u.Type == judge.Fleet && m.Convoys(p):
			for _, q := range nb {
				a, ok := pos.UnitAt(q)
				if !ok || a.Type != judge.Army || given[m.Province(q)] > 0 {
					continue
				}
				for _, dst := range nb {
					dp := m.Province(dst)
					if dp != m.Province(q) && m.Locs[dp].Kind != judge.Sea && dp != p {
						o.Kind, o.Target, o.TargetType, o.Dest = judge.Convoy, a.Loc, judge.Army, dp
						orders = append(orders, judge.Order{Kind: judge.Move, Power: a.Power, Type: judge.Army, Unit: a.Loc, Target: dp, ViaConvoy: true})
						given[m.Province(q)] = len(orders)
						break
					}
				}
				break
			}
		}
		orders = append(orders, o)
		given[p] = len(orders)
	}
	return orders
}

// randomRetreats retreats each dislodged unit to one of its options, or
// disbands it.
func randomRetreats(pos *judge.Position, last *judge.Resolution, r *lcg) []judge.Order {
	var orders []judge.Order
	for _, du := range pos.Dislodged {
		o := judge.Order{Kind: judge.Disband, Power: du.Power, Type: du.Type, Unit: du.Loc}
		for _, ro := range last.Retreats {
			if ro.Unit.Loc == du.Loc && len(ro.To) > 0 && r.intn(2) > 0 {
				o.Kind, o.Target = judge.Move, ro.To[r.intn(len(ro.To))]
			}
		}
		orders = append(orders, o)
	}
	return orders
}

// randomAdjustments builds on the free home centres of the powers that
// may (one build given up as a waive now and then, and on a map that
// allows it a construction instead), and leaves the removals to the
// judge, but for one a power orders itself.
func randomAdjustments(pos *judge.Position, r *lcg) []judge.Order {
	m := pos.Map
	counts := pos.CenterCount()
	var orders []judge.Order
	var homes []judge.Loc
	for k := range m.Powers {
		pw := judge.Power(k)
		units := 0
		var last judge.Loc = judge.NoLoc
		for _, p := range m.Provinces() {
			if u, ok := pos.UnitAt(p); ok && u.Power == pw {
				units++
				last = u.Loc
			}
		}
		switch diff := counts[k] - units; {
		case diff < 0 && last != judge.NoLoc:
			orders = append(orders, judge.Order{Kind: judge.Remove, Power: pw, Unit: last})
		case diff > 0:
			homes = m.HomeCenters(homes[:0], pw)
			for _, h := range homes {
				if diff == 0 {
					break
				}
				if _, ok := pos.UnitAt(h); ok || pos.Centers[h] != pw {
					continue
				}
				o := judge.Order{Kind: judge.Build, Power: pw, Type: judge.Army, Unit: h}
				if !m.CanHold(judge.Army, h) || (m.Locs[h].Kind == judge.Coast && r.intn(2) == 0) {
					o.Type = judge.Fleet
					if cs := m.Locs[h].Coasts; len(cs) > 0 {
						o.Unit = cs[r.intn(len(cs))]
					}
				}
				switch r.intn(6) {
				case 0:
					o = judge.Order{Kind: judge.Waive, Power: pw}
				case 1, 2:
					if c, ok := constructible(pos, pw); ok {
						o = judge.Order{Kind: judge.Construct, Power: pw, Unit: c}
					}
				}
				orders = append(orders, o)
				diff--
			}
		}
	}
	return orders
}

// constructible returns a province where power pw may raise a centre
// on a map that allows it: one of its home provinces that is no centre.
func constructible(pos *judge.Position, pw judge.Power) (judge.Loc, bool) {
	if !pos.Map.Construction {
		return 0, false
	}
	for _, p := range pos.Map.Provinces() {
		if pos.Map.Locs[p].Home == pw && !pos.IsCenter(p) && pos.PendingAt(p) < 0 {
			return p, true
		}
	}
	return 0, false
}

// reaches reports whether one of the places nb lies in target's province.
func reaches(m *judge.Map, nb []judge.Loc, target judge.Loc) bool {
	for _, l := range nb {
		if m.Province(l) == m.Province(target) {
			return true
		}
	}
	return false
}

// busiest keeps, of each board's shots, the start and, for each kind of
// phase, the phase with the most orders: every board and every kind of
// picture, for the tests that rasterise, at a fraction of the corpus's
// cost.
func busiest(shots []shot) []shot {
	type key struct {
		m   *judge.Map
		typ judge.PhaseType
		res bool
	}
	best := map[key]int{}
	var order []key
	for i, s := range shots {
		k := key{s.pos.Map, s.pos.Phase.Type, s.res != nil}
		j, ok := best[k]
		if !ok {
			order = append(order, k)
		}
		if !ok || (s.res != nil && len(s.res.Results) > len(shots[j].res.Results)) {
			best[k] = i
		}
	}
	out := make([]shot, 0, len(order))
	for _, k := range order {
		out = append(out, shots[best[k]])
	}
	return out
}
