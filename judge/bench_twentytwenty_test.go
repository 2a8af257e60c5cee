package judge_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestTwentyTwentyOpening pins what the benchmark below adjudicates on
// Twenty Twenty (215 provinces, 241 places, 20 powers, the largest board):
// every one of the 63 orders is legal and ruled, some moves bounce and
// some succeed.
func TestTwentyTwentyOpening(t *testing.T) {
	pos, orders := openingMoves(t, "twenty-twenty")
	res := judge.Adjudicate(pos, orders, judge.DefaultRules)
	if len(res.Results) != 63 {
		t.Fatalf("%d rulings, want 63", len(res.Results))
	}
	n := map[judge.Outcome]int{}
	for _, r := range res.Results {
		n[r.Outcome]++
	}
	if n[judge.Void] != 0 || n[judge.Succeeds] == 0 || n[judge.Bounced] == 0 {
		t.Errorf("outcomes %v: want no void order, some successes and some bounces", n)
	}
}

// BenchmarkTwentyTwentySpring2001 resolves a full movement phase on the
// largest board, every unit ordered. Issue 27 asks for 100 µs or less.
func BenchmarkTwentyTwentySpring2001(b *testing.B) {
	pos, orders := openingMoves(b, "twenty-twenty")
	b.ReportAllocs()
	for b.Loop() {
		judge.Adjudicate(pos, orders, judge.DefaultRules)
	}
}
