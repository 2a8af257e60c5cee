package picture

import (
	"bytes"
	"image/png"
	"testing"
)

func TestS1901Renders(t *testing.T) {
	pos, res := s1901(t)
	var svg, pn bytes.Buffer
	if err := SVG(&svg, pos, res); err != nil {
		t.Fatal(err)
	}
	if err := PNG(&pn, pos, res); err != nil {
		t.Fatal(err)
	}
	keep(t, "s1901.svg", svg.Bytes())
	keep(t, "s1901.png", pn.Bytes())
	img, err := png.Decode(bytes.NewReader(pn.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != 1000 {
		t.Errorf("width %d, want 1000", w)
	}
	if n := pn.Len(); n > 200<<10 {
		t.Errorf("PNG is %d bytes, want at most 200 KB", n)
	}
	t.Logf("svg %d bytes, png %d bytes, %v", svg.Len(), pn.Len(), img.Bounds())
}
