package picture

import (
	"math"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// routeBoards are the boards BenchmarkRouteEveryMove routes: the
// standard one, and World, whose moves cost the route search most.
var routeBoards = []string{"standard", "world"}

// BenchmarkRouteEveryMove finds the ways (overWays' search, uncached)
// of every move of a board, from every place to every neighbour an army
// or a fleet may move to, between the points where the units stand: the
// search that drawing every move of the board the first time costs, and
// that TestEveryArrowVisible spent most of its time in. Run with -cpu 1.
func BenchmarkRouteEveryMove(b *testing.B) {
	for _, name := range routeBoards {
		m, err := variants.Load(name)
		if err != nil {
			b.Fatal(err)
		}
		bd := boardFor(m)
		if bd.schematic {
			b.Fatalf("%s is drawn as a schematic", name)
		}
		bd.over.once.Do(bd.prepareOver)
		type move struct {
			a, e pt
			p, q judge.Loc
		}
		var moves []move
		for _, c := range everyArrow(m) {
			if c.kind != "move" {
				continue
			}
			a, e := bd.at[c.from], bd.at[c.to]
			if (m.Wraps || bd.globe) && math.Abs(e.X-a.X) > bd.w/2 {
				continue // drawn straight, unrouted (overFit)
			}
			moves = append(moves, move{a, e, m.Province(c.from), m.Province(c.to)})
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				for _, mv := range moves {
					if len(bd.chooseWays(mv.a, mv.e, mv.p, mv.q)) == 0 {
						b.Fatal("no way")
					}
				}
			}
			reportCPU(b, start)
			b.ReportMetric(float64(len(moves)), "moves")
		})
	}
}
