package session

import (
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/state"
)

// BenchmarkProcessMovement measures what Tick does for a 7-power Spring
// 1901 with all 22 orders in: find the game due, read it, adjudicate,
// record the phase, queue the results to everyone, store the game, and
// commit to bbolt on disk. Resetting the game between rounds is not
// timed.
func BenchmarkProcessMovement(b *testing.B) { benchProcess(b, false) }

// BenchmarkProcessMovementFog is BenchmarkProcessMovement under fog of
// war (SET FOG): a results text for each of the seven powers.
func BenchmarkProcessMovementFog(b *testing.B) { benchProcess(b, true) }

// benchProcess is BenchmarkProcessMovement, with fog or not.
func benchProcess(b *testing.B, fog bool) {
	e := newClockEnv(b)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders, g.Settings.Fog = clockOpening(), fog })
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

// BenchmarkMapMail measures the picture a results mail carries, as the
// sender gets it for a mail of a phase not yet drawn: read the history
// record, adjudicate its 22 orders again (Replay) and draw the PNG with
// package picture, on the real standard board.
func BenchmarkMapMail(b *testing.B) { benchMapMail(b, "") }

// BenchmarkMapMailFog is BenchmarkMapMail for France's view of the phase
// (SET FOG, MapRef.Viewer): one such picture a power.
func BenchmarkMapMailFog(b *testing.B) { benchMapMail(b, "France") }

// benchMapMail is BenchmarkMapMail, drawn for viewer ("" for everyone).
func benchMapMail(b *testing.B, viewer string) {
	e := newClockEnv(b)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders = clockOpening() })
	g := e.game("dt")
	g.Wake = clockT0.Add(time.Hour)
	e.put(g)
	if err := e.m.Tick(g.Wake); err != nil {
		b.Fatal(err)
	}
	var ref state.MapRef
	err := e.m.DB().View(func(tx *state.Tx) error {
		rec, err := tx.Phase("dt", 1)
		if err != nil {
			return err
		}
		n := 0
		for _, o := range rec.Orders {
			n += len(o)
		}
		if rec.Phase != "S1901M" || n != 22 {
			b.Fatalf("history holds %s with %d orders, want S1901M with 22", rec.Phase, n)
		}
		ref = engine.MapRef(g, rec)
		ref.Viewer = viewer
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	var size int
	for b.Loop() {
		png, err := engine.NewMapRenderer(e.m.DB(), picture.PNG, picture.MaxPNGBytes).PNG(ref) // a new one: nothing cached
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	b.ReportMetric(float64(size), "bytes/png")
}
