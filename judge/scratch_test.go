package judge_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/internal/cputime"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestScratchMatchesAdjudicate plays random games on every board and, at
// each phase, rules several random order sets both through one Scratch,
// reused across the phases of a game, and through Adjudicate: the rulings and
// the next position must be the same. Nil and empty lists count as the
// same (the Scratch keeps its buffers).
func TestScratchMatchesAdjudicate(t *testing.T) {
	games, years, sets := 2, 6, 4
	if testing.Short() {
		games, years = 1, 4
	}
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sc := judge.NewScratch(judge.StartPosition(m), judge.DATC30)
			phases := 0
			for g := 0; g < games; g++ {
				rng := rand.New(rand.NewPCG(uint64(g), 25))
				rules := judge.DATC30
				if g%2 == 1 {
					rules = judge.DATC24
				}
				if g > 0 {
					// A new scratch for the rules; the first one is reused
					// across the phases of a game.
					sc = judge.NewScratch(judge.StartPosition(m), rules)
				}
				pos := judge.StartPosition(m)
				for pos.Phase.Year < m.StartYear+years {
					sc.Reset(pos)
					var keep []judge.Order
					for k := 0; k < sets; k++ {
						orders := randomOrders(rng, pos)
						if k%2 == 1 && pos.Phase.Type == judge.Movement {
							orders = fightingOrders(rng, pos)
						}
						if k == 0 {
							keep = orders
						}
						want := judge.Adjudicate(pos, orders, rules)
						got := sc.Adjudicate(orders)
						if !sameResolution(got, want) {
							a, b := resolutionText(got), resolutionText(want)
							t.Fatalf("game %d, %s, set %d: the scratch says\n%s\nAdjudicate says\n%s\norders:\n%s",
								g, pos.Phase, k, a, b, orderText(m, orders))
						}
						if next := sc.Next(orders); !samePosition(next, want.Next) {
							a, b := positionText(next), positionText(want.Next)
							t.Fatalf("game %d, %s, set %d: the scratch's Next says\n%s\nAdjudicate says\n%s\norders:\n%s",
								g, pos.Phase, k, a, b, orderText(m, orders))
						}
						phases++
					}
					res := judge.Adjudicate(pos, keep, rules)
					if len(res.Winners) > 0 {
						break
					}
					pos = res.Next
				}
			}
			if phases == 0 {
				t.Fatal("no phase compared")
			}
		})
	}
}

// sameResolution reports whether two resolutions say the same, nil and
// empty lists alike.
func sameResolution(a, b *judge.Resolution) bool {
	return a.Phase == b.Phase && same(a.Results, b.Results) && same(a.Retreats, b.Retreats) &&
		same(a.Destroyed, b.Destroyed) && a.OwnershipChanged == b.OwnershipChanged && same(a.Winners, b.Winners) &&
		same(a.Constructions, b.Constructions) && a.Builds == b.Builds && samePosition(a.Next, b.Next)
}

// samePosition is sameResolution for positions.
func samePosition(a, b *judge.Position) bool {
	return a.Map == b.Map && a.Phase == b.Phase && same(a.Units, b.Units) && same(a.Dislodged, b.Dislodged) &&
		same(a.Bounced, b.Bounced) && same(a.Centers, b.Centers) && same(a.BuiltCenters, b.BuiltCenters) &&
		same(a.PendingCenters, b.PendingCenters) && same(a.EndedConstructions, b.EndedConstructions)
}

func same[T any](a, b []T) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}

// resolutionText writes a Resolution and its next position out in full,
// so that two can be compared with nil and empty lists alike.
func resolutionText(r *judge.Resolution) string {
	c := *r
	next := *c.Next
	c.Next = nil
	next.Map = nil
	return fmt.Sprintf("%+v\nnext: %+v", c, next)
}

// positionText writes a position out in full, as resolutionText.
func positionText(p *judge.Position) string {
	c := *p
	c.Map = nil
	return fmt.Sprintf("%+v", c)
}

// TestScratchKeepsNothing checks that a Scratch's second call is not
// coloured by its first: the same orders after different ones give the
// same rulings as on a fresh Scratch.
func TestScratchKeepsNothing(t *testing.T) {
	m := variants.Standard()
	rng := rand.New(rand.NewPCG(7, 7))
	pos := judge.StartPosition(m)
	for range 6 {
		pos = judge.Adjudicate(pos, fightingOrders(rng, pos), judge.DATC30).Next
		for pos.Phase.Type != judge.Movement {
			pos = judge.Adjudicate(pos, randomOrders(rng, pos), judge.DATC30).Next
		}
	}
	a, b := fightingOrders(rng, pos), fightingOrders(rng, pos)
	fresh := resolutionText(judge.NewScratch(pos, judge.DATC30).Adjudicate(b))
	sc := judge.NewScratch(pos, judge.DATC30)
	sc.Adjudicate(a)
	if got := resolutionText(sc.Adjudicate(b)); got != fresh {
		t.Fatalf("after other orders the scratch says\n%s\nfresh it says\n%s", got, fresh)
	}
}

// midGame returns standard movement positions from random games of
// fighting orders, between 1903 and 1906, each with order sets to rule.
func midGame(tb testing.TB) ([]*judge.Position, [][][]judge.Order) {
	m := variants.Standard()
	var positions []*judge.Position
	var sets [][][]judge.Order
	for g := 0; len(positions) < 16; g++ {
		rng := rand.New(rand.NewPCG(uint64(g), 1903))
		pos := judge.StartPosition(m)
		for pos.Phase.Year < 1907 {
			if pos.Phase.Type == judge.Movement && pos.Phase.Year >= 1903 && rng.IntN(3) == 0 {
				var s [][]judge.Order
				for range 16 {
					s = append(s, fightingOrders(rng, pos))
				}
				positions, sets = append(positions, pos), append(sets, s)
			}
			var orders []judge.Order
			if pos.Phase.Type == judge.Movement {
				orders = fightingOrders(rng, pos)
			} else {
				orders = randomOrders(rng, pos)
			}
			pos = judge.Adjudicate(pos, orders, judge.DATC30).Next
		}
	}
	return positions, sets
}

// BenchmarkScratch rules order sets from standard mid-game positions
// through a Scratch, one per position, as a bot's search does: the
// figure to read is adjudications per second on one core (-cpu 1).
func BenchmarkScratch(b *testing.B) {
	benchScratch(b, func(sc *judge.Scratch, orders []judge.Order) { sc.Adjudicate(orders) })
}

// BenchmarkScratchNext is BenchmarkScratch for Scratch.Next, the next
// position without the rulings, which is what a bot's search asks for.
func BenchmarkScratchNext(b *testing.B) {
	benchScratch(b, func(sc *judge.Scratch, orders []judge.Order) { sc.Next(orders) })
}

func benchScratch(b *testing.B, rule func(*judge.Scratch, []judge.Order)) {
	positions, sets := midGame(b)
	scratches := make([]*judge.Scratch, len(positions))
	for i, pos := range positions {
		scratches[i] = judge.NewScratch(pos, judge.DATC30)
	}
	b.ReportAllocs()
	n := 0
	cpu := cputime.Used()
	for b.Loop() {
		i := n % len(positions)
		rule(scratches[i], sets[i][(n/len(positions))%16])
		n++
	}
	reportRate(b, n, cputime.Used()-cpu)
}

// reportRate reports adjudications per second of wall time, and per
// second of processor time when it was measured: on a shared machine the
// second is the one to read (with -cpu 1 it is per core, the collector's
// share included).
func reportRate(b *testing.B, n int, cpu time.Duration) {
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "adj/s")
	if cpu > 0 {
		b.ReportMetric(float64(n)/cpu.Seconds(), "adj/cpu-s")
	}
}

// BenchmarkScratchAdjudicate rules the same order sets through
// Adjudicate, for comparison with BenchmarkScratch.
func BenchmarkScratchAdjudicate(b *testing.B) {
	positions, sets := midGame(b)
	b.ReportAllocs()
	n := 0
	cpu := cputime.Used()
	for b.Loop() {
		i := n % len(positions)
		judge.Adjudicate(positions[i], sets[i][(n/len(positions))%16], judge.DATC30)
		n++
	}
	reportRate(b, n, cputime.Used()-cpu)
}
