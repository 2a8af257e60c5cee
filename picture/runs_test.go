package picture

import (
	"bytes"
	"encoding/binary"
	"image"
	"testing"
)

// TestSameRun: sameRun counts exactly the pixels that repeat the first
// one's bytes, for every run length from none to past its four-pixel
// stride, at every alignment, whatever pixel ends the run (one that
// differs in any one of its four bytes by a bit set or cleared, the
// same pixels as the run's after it) or none at all.
func TestSameRun(t *testing.T) {
	const raw = 0xff336699
	for lead := range 4 {
		for n := range 40 {
			for end := -1; end < 8; end++ {
				const after = 9
				size := lead + n + 1
				if end >= 0 {
					size += after
				}
				pix := make([]uint8, 4*size)
				for i := range size {
					binary.LittleEndian.PutUint32(pix[4*i:], raw)
				}
				want := n + 1 // nothing ends the run but the picture's end
				if end >= 0 {
					// The pixel after the run differs in byte end%4:
					// 0x10 is set in some of raw's bytes and not in
					// others.
					pix[4*(lead+n)+end%4] ^= 0x10 << (end / 4)
					want = n
				}
				got := sameRun(pix[4*lead:], raw)
				if got != want {
					t.Fatalf("lead %d, run %d, end byte %d: sameRun says %d, want %d", lead, n, end, got, want)
				}
			}
		}
	}
}

// TestOutside: the rectangles outside returns cover every pixel of all
// that is not in in exactly once, and none of in, whether in lies
// inside all, across its edge, covers it, or misses it.
func TestOutside(t *testing.T) {
	all := image.Rect(0, 0, 12, 9)
	for _, in := range []image.Rectangle{
		image.Rect(0, 0, 12, 7), image.Rect(2, 3, 5, 6), image.Rect(-3, -2, 4, 20),
		image.Rect(0, 0, 12, 9), image.Rect(-5, -5, 20, 20), image.Rect(20, 20, 30, 30), {},
	} {
		count := map[image.Point]int{}
		for _, rc := range outside(all, in) {
			for y := rc.Min.Y; y < rc.Max.Y; y++ {
				for x := rc.Min.X; x < rc.Max.X; x++ {
					count[image.Pt(x, y)]++
				}
			}
		}
		for y := -6; y < 25; y++ {
			for x := -6; x < 25; x++ {
				p := image.Pt(x, y)
				want := 0
				if p.In(all) && !p.In(in) {
					want = 1
				}
				if count[p] != want {
					t.Fatalf("in %v: pixel %v painted %d times, want %d", in, p, count[p], want)
				}
			}
		}
	}
}

// TestTryPassedOver: a picture whose weight at level 6 is more than
// level 8 could take off (pngTries' gain) goes from level 6 straight
// to the smaller palettes: without the gain it would pay for level 8
// too, and the try within the limit with all colours takes level 6's
// PNG as it is, rather than writing it again. The picture is noise,
// 600 by 400 pixels of 256 colours: too many runs for level 5, over
// the limit with 256 colours, within it with 64.
func TestTryPassedOver(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 600, 400))
	r := lcg(7)
	for i := 0; i < len(img.Pix); i += 4 {
		v := r.intn(256)
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(v), uint8(255-v), uint8(v*7), 0xff
	}
	var out bytes.Buffer
	enc, err := encodeInto(&out, img, MaxPNGBytes)
	if err != nil {
		t.Fatal(err)
	}
	if got := pngTries[enc.try]; got.colours != 64 || enc.tries != 2 {
		t.Errorf("%d runs: written with %d colours at level %d after %d tries; want 64 colours after 2 (level 6, then 64 colours)",
			enc.runs, got.colours, got.level, enc.tries)
	}
	if enc.runs <= lightRuns || out.Len() > MaxPNGBytes {
		t.Errorf("the noise has %d runs and weighs %d bytes: not the picture the test needs", enc.runs, out.Len())
	}
}

// TestLimitTakesWritten: a picture over TargetPNGBytes at level 6 but
// within the limit, by more than level 8 could take off, is kept with
// all its colours as level 6 wrote it, once: the try within the limit
// writes nothing again. The picture is noise of 16 colours, 800 by 450
// pixels: about four bits a pixel whatever the level.
func TestLimitTakesWritten(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 800, 450))
	r := lcg(11)
	for i := 0; i < len(img.Pix); i += 4 {
		v := r.intn(16)
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(16*v), uint8(255-16*v), uint8(v*7), 0xff
	}
	var out bytes.Buffer
	enc, err := encodeInto(&out, img, MaxPNGBytes)
	if err != nil {
		t.Fatal(err)
	}
	if got := pngTries[enc.try]; got.colours != 256 || got.level != 6 || enc.tries != 1 {
		t.Errorf("written with %d colours at level %d after %d tries; want 256 colours at level 6 after 1", got.colours, got.level, enc.tries)
	}
	if out.Len() <= TargetPNGBytes*105/100 || out.Len() > MaxPNGBytes {
		t.Errorf("the noise weighs %d bytes: not the picture the test needs", out.Len())
	}
}
