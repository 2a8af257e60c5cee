package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"
	"testing"
)

// TestQuantiseKeepsMostUsed: the palette is the picture's 256 most used
// colours, each of their pixels keeps its colour exactly, and every
// other pixel takes a palette colour near its own; on the starts of
// quantiseBoards, which renderBusiest checked as it drew them
// (quantiseFault).
func TestQuantiseKeepsMostUsed(t *testing.T) {
	checked := map[string]bool{}
	for _, r := range renderBusiest(t) {
		if r.res != nil || !slices.Contains(quantiseBoards, r.pos.Map.Name) {
			continue
		}
		checked[r.pos.Map.Name] = true
		if r.quant != "" {
			t.Errorf("%s: %s", r.name, r.quant)
		}
	}
	for _, name := range quantiseBoards {
		if !checked[name] {
			t.Errorf("%s: its start was not checked", name)
		}
	}
}

// quantiseBoards are the boards whose starts TestQuantiseKeepsMostUsed
// checks: quantise depends on nothing but the pixels, and these span
// what the boards make of them, the standard board drawn from geometry,
// the largest schematic (Youngstown Redux, ten powers) and the board of
// most colours (Chaos, 34 powers, about 2,000 colours). Each check reads
// every pixel twice, seconds a picture under the race detector; every
// board's picture keeps more than 64 colours within TargetPNGBytes
// (TestPNGWeight).
var quantiseBoards = []string{"standard", "youngstown-redux", "chaos"}

// quantiseFault quantises img to 256 colours and says what is wrong
// with the result (see TestQuantiseKeepsMostUsed), or "".
func quantiseFault(img *image.RGBA) string {
	count := map[color.RGBA]int{}
	last, run := color.RGBA{img.Pix[0], img.Pix[1], img.Pix[2], 0xff}, 0
	for i := 0; i < len(img.Pix); i += 4 {
		if c := (color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], 0xff}); c != last {
			count[last] += run
			last, run = c, 0
		}
		run++
	}
	count[last] += run
	p := quantise(img, 256)
	if want := min(256, len(count)); len(p.Palette) != want {
		return fmt.Sprintf("%d colours in the palette, want %d", len(p.Palette), want)
	}
	inPalette := map[color.RGBA]bool{}
	least := len(img.Pix)
	for _, c := range p.Palette {
		rgba := c.(color.RGBA)
		inPalette[rgba] = true
		least = min(least, count[rgba])
	}
	for c, n := range count {
		if !inPalette[c] && n > least {
			return fmt.Sprintf("%v (%d pixels) left out while a colour of %d pixels is kept", c, n, least)
		}
	}
	return nearFault(img, p, inPalette, 42, 1)
}

// nearFault checks every pixel of p (or every every-th one) against img: exact where img's colour
// is in exact, and otherwise no farther from it (in quantise's weighted
// distance) than its nearest palette colour plus slack. quantise serves a
// colour the nearest palette colour of another in its cell (5 bits a
// channel, at most 21 away), so by the triangle inequality 42 is the
// slack of a picture numbered with every bit.
func nearFault(img *image.RGBA, p *image.Paletted, exact map[color.RGBA]bool, slack float64, every int) string {
	dist := func(a, b color.RGBA) float64 {
		dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
		return math.Sqrt(3*dr*dr + 4*dg*dg + 2*db*db)
	}
	nearest := map[color.RGBA]float64{}
	var last struct {
		want color.RGBA
		idx  uint8
	}
	for i := 0; i < len(p.Pix); i += every {
		idx := p.Pix[i]
		want := color.RGBA{img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], 0xff}
		if i > 0 && want == last.want && idx == last.idx {
			continue // checked at the pixel before
		}
		last.want, last.idx = want, idx
		got := p.Palette[idx].(color.RGBA)
		if exact[want] {
			if got != want {
				return fmt.Sprintf("pixel %d is %v, want its own colour %v", i, got, want)
			}
			continue
		}
		best, ok := nearest[want]
		if !ok {
			best = math.Inf(1)
			for _, c := range p.Palette {
				best = min(best, dist(c.(color.RGBA), want))
			}
			nearest[want] = best
		}
		if d := dist(got, want); d > best+slack {
			return fmt.Sprintf("pixel %d is %v, %.0f from its colour %v; the nearest palette colour is %.0f", i, got, d, want, best)
		}
	}
	return ""
}

// TestQuantiseManyColours: a picture of more colours than the numbering
// holds (every pixel its own colour) is numbered again with fewer bits
// a channel, and still comes out with 256 colours, each pixel near its own.
func TestQuantiseManyColours(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 400, 200))
	for y := range 200 {
		for x := range 400 {
			i := y*400 + x
			img.SetRGBA(x, y, color.RGBA{uint8(i), uint8(i >> 8), uint8(i>>16)*64 + uint8(x%64), 0xff})
		}
	}
	var ix indexed
	if ix.number(img.Pix, 0xffffff) {
		t.Fatalf("%d colours numbered: the test picture does not go over maxIDs", len(ix.cols))
	}
	p := quantise(img, 256)
	if len(p.Palette) != 256 {
		t.Fatalf("%d colours in the palette, want 256", len(p.Palette))
	}
	// The palette colours are rounded to 5 bits a channel (up to 21
	// away in the weighted distance), and so is the colour served. Every
	// 13th pixel is checked: each is a colour of its own, and its
	// nearest palette colour is searched for among all 256.
	if f := nearFault(img, p, nil, 42+2*21, 13); f != "" {
		t.Error(f)
	}
}

// TestWriteIndexed: what writeIndexed writes, at every level encodePNG
// uses, is read back by image/png (which checks every chunk's CRC) as the
// same palette and the same pixels; and it refuses a picture it cannot
// write.
func TestWriteIndexed(t *testing.T) {
	p := image.NewPaletted(image.Rect(0, 0, 37, 11), color.Palette{
		color.RGBA{0, 0, 0, 0xff}, color.RGBA{0xff, 0x80, 0x10, 0xff}, color.RGBA{0x12, 0x34, 0x56, 0xff}})
	for i := range p.Pix {
		p.Pix[i] = uint8(i * 7 % 3)
	}
	for _, try := range pngTries {
		level := try.level
		var b bytes.Buffer
		if err := writeIndexed(&b, p, level); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		got, ok := img.(*image.Paletted)
		if !ok {
			t.Fatalf("level %d: read as %T", level, img)
		}
		if !slices.Equal(got.Palette, p.Palette) || !bytes.Equal(got.Pix, p.Pix) || got.Rect != p.Rect {
			t.Errorf("level %d: read back other pixels or colours", level)
		}
	}
	if err := writeIndexed(&bytes.Buffer{}, image.NewPaletted(image.Rect(0, 0, 4, 4), nil), 1); err == nil {
		t.Error("a picture without a palette written")
	}
}
