package picture

import (
	"bytes"
	"image"
	"image/png"
	"testing"
)

// TestBoardCacheSamePixels: a picture painted from the board's kept
// masks is pixel for pixel the picture drawn from scratch, on every
// board, for its start and its busiest movement, retreat and adjustment
// of the corpus, the masks kept from the board's first picture (the
// start: other owners, other units).
func TestBoardCacheSamePixels(t *testing.T) {
	caches := map[*board]*rasterCache{}
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
		if c.get() == nil {
			t.Fatalf("%s: nothing kept", s.name)
		}
		if !bytes.Equal(got.Pix, want) {
			n := 0
			for i := range want {
				if got.Pix[i] != want[i] {
					n++
				}
			}
			t.Errorf("%s: %d bytes differ from the picture drawn from scratch", s.name, n)
		}
	}
}

// TestPNGWeight: the PNG of the start and of the busiest movement,
// retreat and adjustment of every board in the corpus weighs at most
// TargetPNGBytes with all its colours: the palette was not cut to 64 or
// 16 to make it fit.
func TestPNGWeight(t *testing.T) {
	for _, s := range busiest(corpus(t)) {
		data := pngOf(t, s.pos, s.res)
		if len(data) > TargetPNGBytes {
			t.Errorf("%s: %d KB, want at most %d", s.name, len(data)>>10, TargetPNGBytes>>10)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		p, ok := img.(*image.Paletted)
		if !ok {
			t.Fatalf("%s: not paletted", s.name)
		}
		if len(p.Palette) <= 64 {
			t.Errorf("%s: a palette of %d colours: cut to fit", s.name, len(p.Palette))
		}
	}
}
