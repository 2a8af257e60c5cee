package picture

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/gmdjudge/gmd/internal/racetest"
	"image"
	"image/gif"
	"testing"

	"github.com/gmdjudge/gmd/judge/variants"
)

// shown composes the frames of the GIFs parts, played one after the
// other, into the pictures a viewer sees after each frame, as palette
// indexes (the transparent colour leaves the pixel as it was).
func shown(t *testing.T, parts [][]byte) (pictures [][]uint8, width int) {
	t.Helper()
	var canvas []uint8
	for k, p := range parts {
		a, err := gif.DecodeAll(bytes.NewReader(p))
		if err != nil {
			t.Fatalf("part %d does not decode: %v", k+1, err)
		}
		if k == 0 {
			width = a.Config.Width
		} else if a.Config.Width != width {
			t.Fatalf("part %d is %d wide, the first %d", k+1, a.Config.Width, width)
		}
		for i, f := range a.Image {
			clear := uint8(len(f.Palette) - 1)
			if i == 0 {
				// A part starts with a whole picture: it plays alone.
				if bytes.IndexByte(f.Pix, clear) >= 0 {
					t.Errorf("part %d starts with a frame that is not whole", k+1)
				}
				canvas = make([]uint8, len(f.Pix))
			}
			for j, v := range f.Pix {
				if v != clear {
					canvas[j] = v
				}
			}
			pictures = append(pictures, bytes.Clone(canvas))
		}
	}
	return pictures, width
}

// TestReplayParts: a replay fitted to a mail is the replay itself when it
// fits, the same frames drawn narrower when it is somewhat too big, and
// the narrowest cut into parts, each within the bound, that show every
// frame of it, when it is much too big; and an error when even that does
// not fit.
func TestReplayParts(t *testing.T) {
	racetest.Sequential(t)
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	g := botGame(t, m, 1903, 5)
	frames := len(g.Phases) + 3
	var whole bytes.Buffer
	if err := Replay(&whole, g); err != nil {
		t.Fatal(err)
	}
	size := whole.Len()

	parts, err := ReplayParts(g, size, 4)
	if err != nil || len(parts) != 1 || !bytes.Equal(parts[0], whole.Bytes()) {
		t.Fatalf("fitted to its own size: %d parts, %v; want the replay itself", len(parts), err)
	}

	limit := size * 3 / 4
	parts, err = ReplayParts(g, limit, 4)
	if err != nil || len(parts) != 1 {
		t.Fatalf("fitted to 3/4 of its size: %d parts, %v; want one narrower", len(parts), err)
	}
	a := decodeAll(t, parts[0], frames)
	if w := a.Config.Width; w >= outputWidth || w < MinReplayWidth || len(parts[0]) > limit {
		t.Errorf("fitted to %d bytes: %d wide and %d bytes; want narrower than %d, at least %d, within the bound", limit, w, len(parts[0]), outputWidth, MinReplayWidth)
	}
	t.Logf("%d phases: %d bytes whole; %d wide in %d bytes", len(g.Phases), size, a.Config.Width, len(parts[0]))

	// At the narrowest width it weighs about 0.57 of the whole (a tenth more than its pixels);
	// a bound of a third needs parts.
	limit = size / 3
	parts, err = ReplayParts(g, limit, 6)
	if err != nil || len(parts) < 2 {
		t.Fatalf("fitted to a third of its size: %d parts, %v; want several", len(parts), err)
	}
	for k, p := range parts {
		if len(p) > limit {
			t.Errorf("part %d weighs %d bytes, more than %d", k+1, len(p), limit)
		}
	}
	got, width := shown(t, parts)
	if len(got) != frames || width != MinReplayWidth {
		t.Fatalf("%d parts show %d frames %d wide, want %d frames %d wide", len(parts), len(got), width, frames, MinReplayWidth)
	}
	// They show what the narrowest replay in one piece shows.
	anim, err := replayAnim(g, MinReplayWidth)
	if err != nil {
		t.Fatal(err)
	}
	var one bytes.Buffer
	if err := gif.EncodeAll(&one, anim); err != nil {
		t.Fatal(err)
	}
	want, _ := shown(t, [][]byte{one.Bytes()})
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("frame %d of the parts is not frame %d of the replay", i, i)
		}
	}
	t.Logf("a bound of %d bytes: %d parts", limit, len(parts))

	if parts, err := ReplayParts(g, size/3, 1); !errors.Is(err, ErrReplayTooBig) {
		t.Errorf("a third of its size in one part: %d parts, %v; want ErrReplayTooBig", len(parts), err)
	}
	if parts, err := ReplayParts(g, 1000, 100); !errors.Is(err, ErrReplayTooBig) {
		t.Errorf("1000 bytes a part: %d parts, %v; want ErrReplayTooBig", len(parts), err)
	}
}

// decodeAll decodes the GIF data of want frames, each of the whole
// picture's size.
func decodeAll(t *testing.T, data []byte, want int) *gif.GIF {
	t.Helper()
	a, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Image) != want {
		t.Fatalf("%d frames, want %d", len(a.Image), want)
	}
	for i, f := range a.Image {
		if f.Rect != image.Rect(0, 0, a.Config.Width, a.Config.Height) {
			t.Errorf("frame %d is %v in a %dx%d replay", i, f.Rect, a.Config.Width, a.Config.Height)
		}
	}
	return a
}

// BenchmarkReplayParts fits the replay of a standard game played up to
// 1920 by the random bot to mails of 2M (whole), 1M (narrower) and 256K
// (narrower, then in parts), and reports the bytes of the largest file,
// the files, the width and the CPU time. Run with -cpu 1.
func BenchmarkReplayParts(b *testing.B) {
	m, err := variants.Load("standard")
	if err != nil {
		b.Fatal(err)
	}
	g := botGame(b, m, 1920, 1)
	for _, limit := range []int{2 << 20, 1 << 20, 256 << 10} {
		b.Run(fmt.Sprintf("%dK", limit>>10), func(b *testing.B) {
			var parts [][]byte
			start := cpuTime()
			for b.Loop() {
				if parts, err = ReplayParts(g, limit, 8); err != nil {
					b.Fatal(err)
				}
			}
			largest := 0
			for _, p := range parts {
				largest = max(largest, len(p))
			}
			cfg, err := gif.DecodeConfig(bytes.NewReader(parts[0]))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(largest), "bytes")
			b.ReportMetric(float64(len(parts)), "files")
			b.ReportMetric(float64(cfg.Width), "px")
			reportCPU(b, start)
		})
	}
}

// TestReplayLongResult: a result too long for one line (a draw of the
// seven powers) is broken into lines that stay inside the frame: the
// last frame has nothing but paper at its left and right edges.
func TestReplayLongResult(t *testing.T) {
	racetest.Sequential(t) // one picture drawn on one goroutine: the plain pass runs it
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	g := botGame(t, m, 1901, 2)
	g.Result = "Result: draw Austria England France Germany Italy Russia Turkey."
	for _, width := range []int{outputWidth, MinReplayWidth} {
		anim, err := replayAnim(g, width)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := gif.EncodeAll(&b, anim); err != nil {
			t.Fatal(err)
		}
		pics, w := shown(t, [][]byte{b.Bytes()})
		paper := pics[0][0] // the title frame's corner
		last := pics[len(pics)-1]
		edge := w / 50
		for y := 0; y < len(last)/w; y++ {
			for _, x := range []int{edge, w - 1 - edge} {
				if last[y*w+x] != paper {
					t.Fatalf("%d wide: the result frame has ink at (%d,%d), %d pixels from its edge", width, x, y, edge)
				}
			}
		}
	}
}
