package picture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/gmdjudge/gmd/internal/racetest"
	"image"
	"image/png"
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// rendered is a shot of busiest drawn as PNG does it, with the board's
// kept masks, and the number of its pixel bytes that differ from the same
// picture drawn from scratch.
type rendered struct {
	shot
	png  []byte
	enc  encoding // how encodeInto wrote png
	diff int
	kept bool // the board had its masks kept after the picture
	// quant is what quantiseFault found wrong with a start's picture.
	quant string
}

// renderBusiest draws the start and the busiest movement, retreat and
// adjustment of every board in the corpus twice, from scratch and from
// the masks kept from the board's first picture (the start: other owners,
// other units), and encodes the second as PNG does: once per test binary,
// since under the race detector each picture costs seconds and two tests
// read them.
func renderBusiest(t testing.TB) []rendered {
	t.Helper()
	return renderedShots.get(t, "the busiest shots' pictures", func() []rendered {
		caches := map[*board]*rasterCache{}
		var out []rendered
		for _, s := range busiest(corpus(t)) {
			b := boardFor(s.pos.Map)
			c := caches[b]
			if c == nil {
				c = &rasterCache{}
				caches[b] = c
			}
			sc := build(b, s.pos, s.res)
			sc.cache = nil
			plain, err := rasterise(sc)
			if err != nil {
				t.Fatal(err)
			}
			want := bytes.Clone(plain.Pix)
			sc.cache = c
			got, err := rasterise(sc)
			if err != nil {
				t.Fatal(err)
			}
			r := rendered{shot: s, kept: c.get(false) != nil}
			if s.res == nil && slices.Contains(quantiseBoards, s.pos.Map.Name) {
				r.quant = quantiseFault(got)
			}
			for i := range want {
				if got.Pix[i] != want[i] {
					r.diff++
				}
			}
			var png bytes.Buffer
			if r.enc, err = encodeInto(&png, got, MaxPNGBytes); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			r.png = png.Bytes()
			out = append(out, r)
		}
		return out
	})
}

var renderedShots shared[[]rendered]

// TestBoardCacheSamePixels: a picture painted from the board's kept
// masks is pixel for pixel the picture drawn from scratch, on every
// board, for its start and its busiest movement, retreat and adjustment
// of the corpus, the masks kept from the board's first picture (the
// start: other owners, other units).
func TestBoardCacheSamePixels(t *testing.T) {
	racetest.Sequential(t) // one goroutine drawing: the plain pass walks it whole
	for _, r := range renderBusiest(t) {
		if !r.kept {
			t.Fatalf("%s: nothing kept", r.name)
		}
		if r.diff > 0 {
			t.Errorf("%s: %d bytes differ from the picture drawn from scratch", r.name, r.diff)
		}
	}
}

// TestPNGWeight: the PNG of the start and of the busiest movement,
// retreat and adjustment of every board in the corpus, and of the
// busiest movement of a game played by bots on every board
// (playedBusiest), weighs at most TargetPNGBytes with all its colours:
// the palette was not cut to 64 or 16 to make it fit; and a picture of
// few enough runs for the first of pngTries (lightRuns) fits with it,
// so that its cheap level is not a wasted try. The corpus's PNGs are
// renderBusiest's, which are PNG's bytes (TestPNGFromCache); the
// palette is read from its chunk.
func TestPNGWeight(t *testing.T) {
	for _, r := range renderBusiest(t) {
		checkWeight(t, r.name, r.png, r.enc)
	}
	for _, s := range playedBusiest(t) {
		img, err := rasterise(build(boardFor(s.pos.Map), s.pos, s.res))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		enc, err := encodeInto(&out, img, MaxPNGBytes)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		checkWeight(t, s.name, out.Bytes(), enc)
	}
}

// checkWeight fails t if png weighs more than TargetPNGBytes or was
// written by a try that cut its palette (enc), or if encodeInto passed over the first of
// pngTries for a picture that had few enough runs for it (enc).
func checkWeight(t *testing.T, name string, png []byte, enc encoding) {
	t.Helper()
	if first := pngTries[0]; enc.runs <= first.maxRuns && enc.try != 0 {
		t.Errorf("%s: %d runs, yet level %d missed and level %d wrote it", name, enc.runs, first.level, pngTries[enc.try].level)
	}
	if len(png) > TargetPNGBytes {
		t.Errorf("%s: %d KB, want at most %d", name, len(png)>>10, TargetPNGBytes>>10)
	}
	n, err := paletteSize(png)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// A picture may have few colours of its own (a board's outlines
	// are drawn in whole pixels): what must not happen is a try that
	// cut its palette.
	if try := pngTries[enc.try]; try.colours < 256 || n > try.colours {
		t.Errorf("%s: a palette of %d colours, written by a try of %d: cut to fit", name, n, try.colours)
	}
}

// paletteSize reads how many colours a PNG's PLTE chunk holds.
func paletteSize(data []byte) (int, error) {
	const sig = 8
	for i := sig; i+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[i:]))
		switch string(data[i+4 : i+8]) {
		case "PLTE":
			return n / 3, nil
		case "IDAT", "IEND":
			return 0, errors.New("no palette before the image data")
		}
		i += 12 + n
	}
	return 0, errors.New("no palette")
}

// TestPNGFromCache: renderBusiest's PNGs are the bytes PNG writes (both
// are rasterise and encodePNG, and TestBoardCacheSamePixels shows the kept
// masks change no pixel), and paletteSize reads their palettes as the
// decoder does. Two of them, a start and a movement, are enough: the rest
// are the same code on other pictures, which under the race detector cost
// seconds each.
func TestPNGFromCache(t *testing.T) {
	all := renderBusiest(t)
	moves := slices.IndexFunc(all, func(r rendered) bool { return r.res != nil && r.pos.Phase.Type == judge.Movement })
	if moves < 0 {
		t.Fatal("no movement among the busiest shots")
	}
	for _, r := range []rendered{all[0], all[moves]} {
		if !bytes.Equal(r.png, pngOf(t, r.pos, r.res)) {
			t.Fatalf("%s: PNG writes other bytes", r.name)
		}
		img, err := png.Decode(bytes.NewReader(r.png))
		if err != nil {
			t.Fatal(err)
		}
		p, ok := img.(*image.Paletted)
		if !ok {
			t.Fatalf("%s: not paletted", r.name)
		}
		if n, err := paletteSize(r.png); err != nil || n != len(p.Palette) {
			t.Fatalf("%s: paletteSize says %d (%v), the decoder %d", r.name, n, err, len(p.Palette))
		}
	}
}
