package browser

import (
	"bytes"
	"fmt"
	"github.com/gmdjudge/gmd/internal/racetest"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/picture"
)

// TestSVGInBrowser opens gmd's SVG pictures themselves in Chromium (the
// standard opening with its orders, and the start of every board) and
// compares what Chromium draws with gmd's own PNG of the same position:
// the SVG must parse (no parser error in place of the picture), and,
// cut into blocks of 10 by 10 pixels, nearly every block must have the
// same colour in both, to within what fonts and antialiasing change.
func TestSVGInBrowser(t *testing.T) {
	if os.Getenv("GMD_BROWSERTEST") != "1" {
		t.Skip("the browser tests run with GMD_BROWSERTEST=1 and Chromium installed (scripts/test does both)")
	}
	type shot struct {
		name string
		pos  *judge.Position
		res  *judge.Resolution
	}
	shots := []shot{s1901(t)}
	// Every board in the plain pass; under -race, where drawing the
	// reference PNGs is most of the cost, about one in six.
	for _, name := range racetest.Spread(variants.Names(), 6) {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		shots = append(shots, shot{name, judge.StartPosition(m), nil})
	}
	files := map[string][]byte{}
	for _, s := range shots {
		var b bytes.Buffer
		if err := picture.SVG(&b, s.pos, s.res); err != nil {
			t.Fatal(err)
		}
		files["/"+s.name+".svg"] = b.Bytes()
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(data)
	}))
	t.Cleanup(srv.Close)

	b := newBrowser(t)
	for _, s := range shots {
		var want bytes.Buffer
		if err := picture.PNG(&want, s.pos, s.res); err != nil {
			t.Fatal(err)
		}
		wimg, err := png.Decode(bytes.NewReader(want.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		wb := wimg.Bounds()
		b.run(t, s.name, chromedp.EmulateViewport(int64(wb.Dx()), int64(wb.Dy()), chromedp.EmulateScale(1)),
			chromedp.Navigate(srv.URL+"/"+s.name+".svg"), chromedp.WaitReady(chromedp.CSS("svg")))
		if errs := evaluate[int](t, b, "parser errors", `document.getElementsByTagName("parsererror").length`); errs != 0 {
			b.fail(t, s.name, "%s: Chromium could not parse the SVG", s.name)
			continue
		}
		if root := evaluate[string](t, b, "root", `document.documentElement.localName`); root != "svg" {
			b.fail(t, s.name, "%s: the document's root is <%s>, want <svg>", s.name, root)
			continue
		}
		shotPNG, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("%s: screenshot: %v", s.name, err)
		}
		got, err := png.Decode(bytes.NewReader(shotPNG))
		if err != nil {
			t.Fatalf("%s: screenshot: %v", s.name, err)
		}
		agree, total := compareBlocks(got, wimg, 10, 48)
		if share := float64(agree) / float64(total); share < 0.97 {
			dir := t.ArtifactDir()
			os.WriteFile(filepath.Join(dir, s.name+"-chromium.png"), shotPNG, 0o644)
			os.WriteFile(filepath.Join(dir, s.name+"-gmd.png"), want.Bytes(), 0o644)
			t.Errorf("%s: %d of %d blocks agree (%.1f%%), want 97%%; both pictures are in %s", s.name, agree, total, 100*share, dir)
		} else {
			t.Logf("%s: %.1f%% of %d blocks agree", s.name, 100*share, total)
		}
	}
}

// compareBlocks cuts a and b into size by size blocks over the area both
// cover and counts the blocks whose mean colours differ by at most tol in
// every channel.
func compareBlocks(a, b image.Image, size, tol int) (agree, total int) {
	r := a.Bounds().Intersect(b.Bounds())
	mean := func(img image.Image, x0, y0 int) [3]int {
		var s [3]int
		n := 0
		for y := y0; y < y0+size && y < r.Max.Y; y++ {
			for x := x0; x < x0+size && x < r.Max.X; x++ {
				cr, cg, cb, _ := img.At(x, y).RGBA()
				s[0], s[1], s[2] = s[0]+int(cr>>8), s[1]+int(cg>>8), s[2]+int(cb>>8)
				n++
			}
		}
		return [3]int{s[0] / n, s[1] / n, s[2] / n}
	}
	for y := r.Min.Y; y < r.Max.Y; y += size {
		for x := r.Min.X; x < r.Max.X; x += size {
			ma, mb := mean(a, x, y), mean(b, x, y)
			ok := true
			for c := range 3 {
				if d := ma[c] - mb[c]; d > tol || d < -tol {
					ok = false
				}
			}
			total++
			if ok {
				agree++
			}
		}
	}
	return agree, total
}

// s1901 is the standard opening with the 22 orders of testdata/s1901.
func s1901(t *testing.T) (s struct {
	name string
	pos  *judge.Position
	res  *judge.Resolution
}) {
	dir := filepath.Join("..", "..", "testdata", "s1901")
	data, err := os.ReadFile(filepath.Join(dir, "position.json"))
	if err != nil {
		t.Fatal(err)
	}
	pos, rules, err := jsonpos.DecodePosition(data)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "orders.txt"))
	if err != nil {
		t.Fatal(err)
	}
	parsed, errs := parser.ParseOrders(string(text), parser.Options{Map: pos.Map, Phase: pos.Phase.Type, Power: judge.NoPower})
	if len(errs) > 0 {
		t.Fatal(fmt.Sprint(errs))
	}
	var orders []judge.Order
	for _, p := range parsed {
		orders = append(orders, p.Order)
	}
	s.name, s.pos, s.res = "s1901", pos, judge.Adjudicate(pos, orders, rules)
	return s
}
