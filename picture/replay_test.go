package picture

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// botGame plays m with the bot kind (random unless given) from the start to the end of the
// year lastYear (or a win), keeping every phase as a replay has it.
func botGame(t testing.TB, m *judge.Map, lastYear int, seed uint64, kind ...string) ReplayGame {
	t.Helper()
	var players []bot.Player
	for i := range m.Powers {
		p, err := bot.New(append(kind, "random")[0], bot.Config{Rules: judge.DATC30, Seed: seed + uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	g := ReplayGame{Name: "replaytest"}
	pos := judge.StartPosition(m)
	for pos.Phase.Year <= lastYear {
		var orders []judge.Order
		for q, p := range players {
			orders = append(orders, p.Orders(pos, judge.Power(q))...)
		}
		res := judge.Adjudicate(pos, orders, judge.DATC30)
		g.Phases = append(g.Phases, ReplayPhase{Pos: pos, Res: res})
		pos = res.Next
		if len(res.Winners) > 0 {
			g.Result = "Solo victory of " + m.PowerName(res.Winners[0]) + "."
			break
		}
	}
	g.Final = pos
	if g.Result == "" {
		g.Result = "Draw between the survivors."
	}
	return g
}

// decodeReplay checks that data is a GIF of want frames, each of the
// size of the whole picture and outputWidth wide, every one with a delay.
func decodeReplay(t *testing.T, name string, data []byte, want int) *gif.GIF {
	t.Helper()
	a, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: the replay does not decode: %v", name, err)
	}
	if len(a.Image) != want {
		t.Fatalf("%s: %d frames, want %d (title, phases, the board after, result)", name, len(a.Image), want)
	}
	if a.Config.Width != outputWidth || a.Config.Height <= 0 {
		t.Errorf("%s: the replay is %dx%d, want %d wide", name, a.Config.Width, a.Config.Height, outputWidth)
	}
	whole := image.Rect(0, 0, a.Config.Width, a.Config.Height)
	for i, f := range a.Image {
		if f.Rect != whole {
			t.Errorf("%s: frame %d is %v, want %v", name, i, f.Rect, whole)
		}
		if a.Delay[i] <= 0 {
			t.Errorf("%s: frame %d has no delay", name, i)
		}
	}
	if last := len(a.Delay) - 1; a.Delay[last] <= a.Delay[0] {
		t.Errorf("%s: the result frame shows %d, no longer than the others (%d)", name, a.Delay[last], a.Delay[0])
	}
	return a
}

// TestReplayEveryBoard: a short bot-played game on every board makes a
// replay that decodes, with a frame per phase besides the title, the
// board after the last phase and the result, all of one size.
func TestReplayEveryBoard(t *testing.T) {
	racetest.Sequential(t) // one goroutine drawing: the plain pass walks it whole
	// Every sixth board under the race detector (package racetest).
	for _, name := range racetest.Spread(variants.Names(), 6) {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		start := judge.StartPosition(m)
		g := botGame(t, m, start.Phase.Year, 7)
		var out bytes.Buffer
		if err := Replay(&out, g); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		a := decodeReplay(t, name, out.Bytes(), len(g.Phases)+3)
		// Every frame after the title draws something: it is not
		// wholly the frame before.
		for i, f := range a.Image[1:] {
			if !drawsSomething(f) {
				t.Errorf("%s: frame %d changes nothing of the frame before", name, i+1)
			}
		}
	}
}

// drawsSomething reports whether frame f has a pixel that is not its
// palette's transparent colour.
func drawsSomething(f *image.Paletted) bool {
	see := make([]bool, len(f.Palette))
	for i, c := range f.Palette {
		_, _, _, a := c.RGBA()
		see[i] = a != 0
	}
	for _, v := range f.Pix {
		if int(v) < len(see) && see[v] {
			return true
		}
	}
	return false
}

// TestReplayDeterministic: the replay of a standard game is the same
// bytes each time it is drawn, so a mail or page of it never changes.
func TestReplayDeterministic(t *testing.T) {
	racetest.Sequential(t) // one picture drawn on one goroutine: the plain pass runs it
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	g := botGame(t, m, 1902, 3)
	var a, b bytes.Buffer
	if err := Replay(&a, g); err != nil {
		t.Fatal(err)
	}
	if err := Replay(&b, g); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("two replays of one game differ (%d and %d bytes)", a.Len(), b.Len())
	}
	decodeReplay(t, "standard", a.Bytes(), len(g.Phases)+3)
	t.Logf("a two-year standard game: %d phases, %d bytes", len(g.Phases), a.Len())
}

// TestReplayNeedsFinal: a replay without the board after the last phase,
// or with a phase of another board, is an error, not a panic.
func TestReplayNeedsFinal(t *testing.T) {
	if err := Replay(&bytes.Buffer{}, ReplayGame{Name: "x"}); err == nil {
		t.Fatal("a replay without its final board was drawn")
	}
	// Nor is a phase of another board, or none, drawn.
	std, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	pure, err := variants.Load("pure")
	if err != nil {
		t.Fatal(err)
	}
	for _, ph := range []ReplayPhase{{Pos: judge.StartPosition(pure)}, {}} {
		g := ReplayGame{Name: "x", Phases: []ReplayPhase{ph}, Final: judge.StartPosition(std)}
		if err := Replay(&bytes.Buffer{}, g); err == nil {
			t.Errorf("a replay of a phase %+v not on its board was drawn", ph)
		}
	}
}

// maxReplayBytes is issue 26's bound on the replay of a 20-year standard game.
const maxReplayBytes = 5_000_000

// TestReplayTwentyYears: the replay of a 20-year standard game played by
// the random bot (whose moves change the most pixels a phase) weighs at
// most 5 MB, with every frame there.
func TestReplayTwentyYears(t *testing.T) {
	racetest.Sequential(t)
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	g := botGame(t, m, 1920, 1)
	if last := g.Phases[len(g.Phases)-1].Pos.Phase.Year; last != 1920 {
		t.Fatalf("the bots' game ended in %d, not 1920: no 20-year game to weigh", last)
	}
	var out bytes.Buffer
	if err := Replay(&out, g); err != nil {
		t.Fatal(err)
	}
	if out.Len() > maxReplayBytes {
		t.Errorf("the replay of %d phases weighs %d bytes, more than %d", len(g.Phases), out.Len(), maxReplayBytes)
	}
	decodeReplay(t, "standard 1901-1920", out.Bytes(), len(g.Phases)+3)
	t.Logf("20 years, %d phases: %d bytes", len(g.Phases), out.Len())
}

// BenchmarkReplay draws the replay of a standard game played up to 1920
// (or its winner) by the random bot, and by the heuristic bot (more
// retreats and builds; with seed 1 Italy wins in 1914), and reports its
// size and its number of phases. Run with -cpu 1.
func BenchmarkReplay(b *testing.B) {
	m, err := variants.Load("standard")
	if err != nil {
		b.Fatal(err)
	}
	for _, kind := range []string{"random", "heuristic"} {
		g := botGame(b, m, 1920, 1, kind)
		b.Run(kind, func(b *testing.B) {
			var out bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				out.Reset()
				if err := Replay(&out, g); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(out.Len()), "bytes")
			b.ReportMetric(float64(len(g.Phases)), "phases")
		})
	}
}

// TestReplayNoPhases: a game with no phase played yet is drawn as its
// title, its board and where it stands, without an error.
func TestReplayNoPhases(t *testing.T) {
	racetest.Sequential(t) // single-goroutine drawing and geometry: the plain pass runs it
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Replay(&out, ReplayGame{Name: "new", Final: judge.StartPosition(m)}); err != nil {
		t.Fatal(err)
	}
	decodeReplay(t, "no phases", out.Bytes(), 3)
}

// TestResultLinesFit: a long result (a draw of every power of each
// board) is broken by textScene's wrapLines into lines that fit the last
// frame, all its words kept in order; a short one stays on one line.
func TestResultLinesFit(t *testing.T) {
	const body, width = 30, 900
	for _, v := range variants.Names() {
		m, err := variants.Load(v)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range m.Powers {
			names = append(names, p.Name)
		}
		result := "Result: draw " + strings.Join(names, " ") + "."
		lines := wrapLines(resultLines(ReplayGame{Final: judge.StartPosition(m), Result: result}), body, width)
		var got []string
		for _, l := range lines[1:] {
			if !l.bold {
				break
			}
			if w := float64(len(l.text)) * body * l.size * charWidth; w > width && strings.Contains(l.text, " ") {
				t.Errorf("%s: the result line %q is %.0f wide, more than %d", v, l.text, w, width)
			}
			got = append(got, l.text)
		}
		if strings.Join(got, " ") != result {
			t.Errorf("%s: the result reads %q, want %q", v, strings.Join(got, " "), result)
		}
	}
	short := wrapLines([]textLine{{"Result: victory France.", 1.4, true, color.NRGBA{}}}, body, width)
	if len(short) != 1 {
		t.Errorf("a short result in %d lines: %+v", len(short), short)
	}
}
