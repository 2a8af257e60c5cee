package picture

import (
	"bytes"
	"fmt"
	"image/png"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
)

// TestPictureWidth draws the grid board at the default width and with its
// geometry asking for 1600 pixels: the PNG and the SVG's viewport are
// that wide, every mark keeps its size in pixels (the same radius of
// unit, centre and stand-off, the same type), and a replay's frame of
// the wider board is drawn outputWidth wide, its shapes scaled.
func TestPictureWidth(t *testing.T) {
	racetest.Sequential(t) // one picture drawn on one goroutine: the plain pass runs it
	pos, res := s1901(t)
	g := gridGeometry(pos.Map)
	plain, err := geoBoard(pos.Map, g)
	if err != nil {
		t.Fatal(err)
	}
	wide := *g
	wide.Pixels = 1600
	wb, err := geoBoard(pos.Map, &wide)
	if err != nil {
		t.Fatal(err)
	}
	if plain.px != outputWidth || wb.px != 1600 {
		t.Fatalf("boards %d and %d pixels wide, want %d and 1600", plain.px, wb.px, outputWidth)
	}
	sp, sw := build(plain, pos, res), build(wb, pos, res)
	for _, c := range []struct {
		sc    *scene
		width int
	}{{sp, outputWidth}, {sw, 1600}, {scaledScene(sw, outputWidth), outputWidth}} {
		var b bytes.Buffer
		if err := writePNG(&b, c.sc); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds().Dx() != c.width {
			t.Errorf("PNG %d pixels wide, want %d", img.Bounds().Dx(), c.width)
		}
		b.Reset()
		if err := writeSVG(&b, c.sc); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`width="%d"`, c.width); !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("the SVG has no %s: %.300s", want, b.Bytes())
		}
	}
	// Each mark's size in pixels (its map units over the scene's units
	// a pixel) is the same at both widths.
	sizes := func(sc *scene) map[string]float64 {
		out := map[string]float64{}
		for _, e := range sc.elems {
			if e.class != "" {
				out[e.class] = max(out[e.class], (e.r+e.size+e.width)/sc.s)
			}
		}
		return out
	}
	a, b := sizes(sp), sizes(sw)
	for _, class := range []string{"unit army power-F", "sc owned power-F", "standoff", "label", "unit-letter"} {
		if a[class] == 0 || a[class] != b[class] {
			t.Errorf("%s: %.2f px at %d pixels wide, %.2f px at 1600", class, a[class], outputWidth, b[class])
		}
	}
}
