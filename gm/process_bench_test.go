package gm

import (
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// BenchmarkProcessMovement measures what Tick does for a 7-power Spring
// 1901 with all 22 orders in: find the game due, read it, adjudicate,
// record the phase, queue the results to everyone, store the game, and
// commit to bbolt on disk. Resetting the game between rounds is not
// timed.
func BenchmarkProcessMovement(b *testing.B) {
	e := newClockEnv(b)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders = clockOpening() })
	fresh := e.game("dt")
	now := clockT0.Add(time.Hour)
	fresh.Wake = now
	for b.Loop() {
		b.StopTimer()
		e.put(fresh)
		b.StartTimer()
		if err := e.m.Tick(now); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if g := e.game("dt"); g.Turn != 1 {
		b.Fatalf("turn %d: the phase was not processed", g.Turn)
	}
}
