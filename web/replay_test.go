package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/export"
	"github.com/gmdjudge/gmd/state"
)

// fakeAnimate is a view.Animator that writes a small GIF of a frame per
// phase plus three, and counts its calls.
type fakeAnimate struct {
	mu    sync.Mutex
	calls int
	wait  chan struct{} // when not nil, each call waits for it to close
}

func (f *fakeAnimate) animate(w io.Writer, g *state.Game, phases []*state.PhaseRecord) error {
	f.mu.Lock()
	f.calls++
	wait := f.wait
	f.mu.Unlock()
	if wait != nil {
		<-wait
	}
	pal := []color.Color{color.White, color.Black}
	var a gif.GIF
	for i := range len(phases) + 3 {
		img := image.NewPaletted(image.Rect(0, 0, 20, 10), pal)
		img.SetColorIndex(i%20, 5, 1)
		a.Image, a.Delay = append(a.Image, img), append(a.Delay, 150)
	}
	return gif.EncodeAll(w, &a)
}

func (f *fakeAnimate) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// finish ends the fixture's game "secrets" with result.
func (f *fixture) finish(t testing.TB, result string) {
	t.Helper()
	err := f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("secrets")
		if err != nil {
			return err
		}
		g.Status, g.Result = state.Finished, result
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReplayAndExportOfFinishedGame: a finished game's page shows its
// replay and links to its export; both load by the links, the replay a
// GIF of a frame per phase plus three, the export a gmd-game document
// saved as a file; and no secret of the game is in either, nor on any
// page of the finished game.
func TestReplayAndExportOfFinishedGame(t *testing.T) {
	anim := &fakeAnimate{}
	f := newFixture(t, 2, Config{Animate: anim.animate})
	f.finish(t, "draw Austria England")
	pages := f.crawl(t)
	game := pages["/games/secrets"]
	for _, want := range []string{`<img src="secrets/replay.gif" alt="Replay of game secrets`, `<a href="secrets/export.json" download>`} {
		if !strings.Contains(game, want) {
			t.Errorf("the finished game's page lacks %q", want)
		}
	}
	if strings.Contains(game, "published here when it is over") {
		t.Error("the finished game's page says it is not over")
	}

	res := f.get(t, "GET", "/games/secrets/replay.gif")
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || ct != "image/gif" {
		t.Fatalf("replay.gif: %s, %s", res.Status, ct)
	}
	a, err := gif.DecodeAll(res.Body)
	if err != nil {
		t.Fatalf("replay.gif does not decode: %v", err)
	}
	var phases int
	f.db.View(func(tx *state.Tx) error {
		recs, err := tx.Phases("secrets")
		phases = len(recs)
		return err
	})
	if len(a.Image) != phases+3 {
		t.Errorf("the replay has %d frames, want %d", len(a.Image), phases+3)
	}

	res = f.get(t, "GET", "/games/secrets/export.json")
	if ct, cd := res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"); res.StatusCode != 200 || ct != "application/json" || cd != `attachment; filename="secrets.json"` {
		t.Fatalf("export.json: %s, %q, %q", res.Status, ct, cd)
	}
	data := body(t, res)
	doc, err := export.Unmarshal([]byte(data))
	if err != nil {
		t.Fatalf("export.json does not read as an export: %v", err)
	}
	if doc.Name != "secrets" || doc.Result != "draw Austria England" || len(doc.Phases) != phases || doc.View != "" || doc.Pending != nil {
		t.Errorf("export.json: %s, %q, %d phases, view %q, pending %v; want secrets, the draw, %d phases, the observers' view", doc.Name, doc.Result, len(doc.Phases), doc.View, doc.Pending, phases)
	}
	if doc.Phases[0].Phase != "S1901M" || doc.Phases[0].Orders["Austria"][0] != "A vie - gal" {
		t.Errorf("export.json's first phase: %s with %v", doc.Phases[0].Phase, doc.Phases[0].Orders)
	}
	for path, b := range pages {
		for _, s := range secrets {
			if strings.Contains(b, s) {
				t.Errorf("%s shows the secret %q", path, s)
			}
		}
	}
	if !strings.Contains(data, whiteBroadcast) || !strings.Contains(data, greyBroadcast) {
		t.Error("the export lacks the broadcasts")
	}
}

// TestNoReplayWhileRunning: a game running or forming has neither replay
// nor export: its page says when they come, and asking for them is
// answered 404 in words, without drawing anything.
func TestNoReplayWhileRunning(t *testing.T) {
	anim := &fakeAnimate{}
	f := newFixture(t, 1, Config{Animate: anim.animate})
	if b := body(t, f.get(t, "GET", "/games/secrets")); !strings.Contains(b, "The replay of the whole game and its export are published here when it is over.") || strings.Contains(b, "replay.gif") || strings.Contains(b, "export.json") {
		t.Errorf("the running game's page:\n%s", b)
	}
	for _, game := range []string{"secrets", "newgame"} {
		for _, file := range []string{"replay.gif", "export.json"} {
			res := f.get(t, "GET", "/games/"+game+"/"+file)
			if b := body(t, res); res.StatusCode != http.StatusNotFound || !strings.Contains(b, "published when it is over") {
				t.Errorf("%s of %s: %s\n%s", file, game, res.Status, b)
			}
		}
	}
	for _, path := range []string{"/games/nosuch/replay.gif", "/games/nosuch/export.json"} {
		if res := f.get(t, "GET", path); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %s", path, res.Status)
		}
	}
	if res := f.get(t, "GET", "/games/SECRETS/replay.gif"); res.StatusCode != http.StatusMovedPermanently || !strings.HasSuffix(res.Header.Get("Location"), "games/secrets/replay.gif") {
		t.Errorf("another spelling: %s to %q", res.Status, res.Header.Get("Location"))
	}
	if n := anim.count(); n != 0 {
		t.Errorf("%d replays drawn for games not over", n)
	}
}

// TestNoReplayWithoutAnimator: a judge that draws no replays still links
// the finished game's export, and shows no replay.
func TestNoReplayWithoutAnimator(t *testing.T) {
	f := newFixture(t, 1, Config{})
	f.finish(t, "terminated")
	b := body(t, f.get(t, "GET", "/games/secrets"))
	if strings.Contains(b, "replay.gif") || !strings.Contains(b, "export.json") {
		t.Errorf("the finished game's page without an animator:\n%s", b)
	}
	if res := f.get(t, "GET", "/games/secrets/replay.gif"); res.StatusCode != http.StatusNotFound {
		t.Errorf("replay.gif without an animator: %s", res.Status)
	}
}

// TestReplayDrawnOnce: many requests at once for a finished game's
// replay draw it once and all get it; the same game changed (a new
// result) is drawn again.
func TestReplayDrawnOnce(t *testing.T) {
	anim := &fakeAnimate{wait: make(chan struct{})}
	f := newFixture(t, 1, Config{Animate: anim.animate})
	f.finish(t, "terminated")
	const n = 8
	bodies := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res := f.get(t, "GET", "/games/secrets/replay.gif")
			if res.StatusCode != 200 {
				t.Errorf("request %d: %s", i, res.Status)
			}
			bodies[i] = body(t, res)
		})
	}
	for anim.count() == 0 {
		waitABit()
	}
	close(anim.wait)
	wg.Wait()
	for i := range bodies {
		if bodies[i] == "" || bodies[i] != bodies[0] {
			t.Errorf("request %d got %d bytes, request 0 %d", i, len(bodies[i]), len(bodies[0]))
		}
	}
	if c := anim.count(); c != 1 {
		t.Errorf("%d requests drew the replay %d times, want once", n, c)
	}
	f.finish(t, "draw Austria England")
	if res := f.get(t, "GET", "/games/secrets/replay.gif"); res.StatusCode != 200 || anim.count() != 2 {
		t.Errorf("after the result changed: %s, %d drawings, want 2", res.Status, anim.count())
	}
}

// TestReplayGateBounded: while one replay is drawn, replayWaiting more
// games wait their turn and the next is turned away at once (busy), so
// a crawler asking for every game's replay takes one core and a bounded
// queue.
func TestReplayGateBounded(t *testing.T) {
	rp := newReplays()
	release := make(chan struct{})
	started := make(chan struct{})
	draw := func() ([]byte, error) {
		started <- struct{}{}
		<-release
		return []byte("GIF"), nil
	}
	errs := make(chan error, replayWaiting+1)
	go func() { _, err := rp.get(context.Background(), "game0", draw); errs <- err }()
	<-started
	for i := range replayWaiting {
		go func() {
			_, err := rp.get(context.Background(), fmt.Sprintf("game%d", i+1), func() ([]byte, error) { return []byte("GIF"), nil })
			errs <- err
		}()
	}
	for len(rp.gate.queue) < 1+replayWaiting {
		waitABit()
	}
	if _, err := rp.get(context.Background(), "one too many", draw); !errors.Is(err, errBusy) {
		t.Errorf("a replay past the queue: %v, want busy", err)
	}
	close(release)
	for range replayWaiting + 1 {
		if err := <-errs; err != nil {
			t.Errorf("a replay that waited its turn: %v", err)
		}
	}
	if n := rp.cache.Len(); n != replayWaiting+1 {
		t.Errorf("%d replays kept, want %d", n, replayWaiting+1)
	}
	gifBytes, _ := rp.get(context.Background(), "game0", func() ([]byte, error) { return nil, errors.New("drawn again") })
	if !bytes.Equal(gifBytes, []byte("GIF")) {
		t.Errorf("a kept replay: %q", gifBytes)
	}
}

// waitABit lets the other goroutines run while a test waits for them to
// reach a point it can see; it asserts nothing about time.
func waitABit() { time.Sleep(time.Millisecond) }

// BenchmarkExportJSON answers a finished game's export.json, 20 years
// of the fixture's game: read, built and written per request.
func BenchmarkExportJSON(b *testing.B) {
	f := newFixture(b, 20, Config{})
	f.finish(b, "terminated")
	var size int
	for b.Loop() {
		res := f.get(b, "GET", "/games/secrets/export.json")
		if res.StatusCode != 200 {
			b.Fatal(res.Status)
		}
		size = len(body(b, res))
	}
	b.ReportMetric(float64(size), "bytes")
}
