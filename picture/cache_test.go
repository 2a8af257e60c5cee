package picture

import (
	"bytes"
	"testing"
)

// TestBoardCacheSamePixels: a picture painted from the board's kept
// masks is pixel for pixel the picture drawn from scratch, on every
// board, for every phase of the corpus, the masks kept from the board's
// first picture (the start: other owners, other units).
func TestBoardCacheSamePixels(t *testing.T) {
	caches := map[*board]*rasterCache{}
	for _, s := range corpus(t) {
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
