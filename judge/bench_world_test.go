package judge_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// worldOpening orders every one of the World board's 51 starting units to
// move (see openingMoves). World has 192 provinces, 214 places and 17
// powers.
func worldOpening(tb testing.TB) (*judge.Position, []judge.Order) {
	return openingMoves(tb, "world")
}

// openingMoves orders every starting unit of the variant to move: unit i
// goes to its (i mod n)th neighbour of n, a spread of moves across the
// board with the bounces that land on shared neighbours.
func openingMoves(tb testing.TB, variant string) (*judge.Position, []judge.Order) {
	m, err := variants.Load(variant)
	if err != nil {
		tb.Fatal(err)
	}
	pos := judge.StartPosition(m)
	var orders []judge.Order
	for i, u := range m.StartUnits {
		nb := m.Neighbours(nil, u.Type, u.Loc)
		if len(nb) == 0 {
			tb.Fatalf("%s has no neighbour", m.LocName(u.Loc))
		}
		orders = append(orders, judge.Order{Kind: judge.Move, Power: u.Power, Type: u.Type, Unit: u.Loc, Target: nb[i%len(nb)]})
	}
	return pos, orders
}

// TestWorldOpening pins what the benchmark adjudicates: every order is
// legal and ruled, some moves bounce and most succeed.
func TestWorldOpening(t *testing.T) {
	pos, orders := worldOpening(t)
	res := judge.Adjudicate(pos, orders, judge.DefaultRules)
	if len(res.Results) != 51 {
		t.Fatalf("%d rulings, want 51", len(res.Results))
	}
	n := map[judge.Outcome]int{}
	for _, r := range res.Results {
		n[r.Outcome]++
	}
	if n[judge.Void] != 0 || n[judge.Succeeds] == 0 || n[judge.Bounced] == 0 {
		t.Errorf("outcomes %v: want no void order, some successes and some bounces", n)
	}
}

// BenchmarkWorldSpring2000 resolves a full movement phase on the largest
// board, every unit ordered. Issue 27 asks for 100 µs or less.
func BenchmarkWorldSpring2000(b *testing.B) {
	pos, orders := worldOpening(b)
	b.ReportAllocs()
	for b.Loop() {
		judge.Adjudicate(pos, orders, judge.DefaultRules)
	}
}
