package picture

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// node is an SVG element as the structural tests see it.
type node struct {
	tag   string
	class []string
	title string // its <title> child
	text  string // its character data
	attr  map[string]string
}

func (n node) is(classes ...string) bool {
	for _, c := range classes {
		if !slices.Contains(n.class, c) {
			return false
		}
	}
	return true
}

// parseSVG reads an SVG document with encoding/xml, failing on anything
// that is not well-formed (strictXML), and returns its elements in document order.
func parseSVG(t testing.TB, data []byte) (doc []node, title, desc string) {
	t.Helper()
	if err := strictXML(data); err != nil {
		t.Fatalf("SVG is not well-formed: %v", err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []int
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := node{tag: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
				if a.Name.Local == "class" {
					n.class = strings.Fields(a.Value)
				}
			}
			doc = append(doc, n)
			stack = append(stack, len(doc)-1)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			cur := &doc[stack[len(stack)-1]]
			cur.text += string(tok)
			if cur.tag == "title" && len(stack) >= 2 {
				parent := &doc[stack[len(stack)-2]]
				parent.title += string(tok)
				if parent.tag == "svg" {
					title = string(tok)
				}
			}
			if cur.tag == "desc" {
				desc += string(tok)
			}
		}
	}
	if len(stack) != 0 {
		t.Fatal("SVG ends inside an element")
	}
	return doc, title, desc
}

func count(doc []node, classes ...string) int {
	n := 0
	for _, e := range doc {
		if e.is(classes...) {
			n++
		}
	}
	return n
}

func titles(doc []node, classes ...string) []string {
	var out []string
	for _, e := range doc {
		if e.is(classes...) {
			out = append(out, e.title)
		}
	}
	return out
}

func svgOf(t testing.TB, pos *judge.Position, res *judge.Resolution) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := SVG(&b, pos, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pngOf(t testing.TB, pos *judge.Position, res *judge.Resolution) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := PNG(&b, pos, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkPNG decodes a PNG of a board drawn at the default width and
// checks its width and size.
func checkPNG(t testing.TB, data []byte) image.Image {
	t.Helper()
	return checkPNGWide(t, data, 1000)
}

// checkPNGWide decodes a PNG and checks that it is width pixels wide and
// weighs no more than it may.
func checkPNGWide(t testing.TB, data []byte, width int) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != width {
		t.Errorf("PNG is %d px wide, want %d", w, width)
	}
	if len(data) > MaxPNGBytes {
		t.Errorf("PNG is %d bytes, want at most %d", len(data), MaxPNGBytes)
	}
	return img
}

// checkS1901 checks the picture of the standard opening with its 22
// orders, whatever the board.
func checkS1901(t *testing.T, data []byte) {
	doc, title, desc := parseSVG(t, data)
	if title != "Spring 1901, movement" {
		t.Errorf("title %q", title)
	}
	if !strings.Contains(desc, "France (F): 3 centres, units A par, F bre, A mar") {
		t.Errorf("desc %q says nothing of France's units", desc)
	}
	for _, c := range []struct {
		classes []string
		want    int
	}{
		{[]string{"unit"}, 22},
		{[]string{"unit", "army"}, 13},
		{[]string{"unit", "fleet"}, 9},
		{[]string{"unit", "power-R"}, 4},
		{[]string{"order", "move"}, 20},
		{[]string{"order", "move", "failed"}, 5},
		{[]string{"order", "support-move"}, 1},
		{[]string{"order", "hold"}, 1},
		{[]string{"mark", "bounce"}, 5},
		{[]string{"standoff"}, 2},
		{[]string{"sc", "owned"}, 22},
		{[]string{"sc", "neutral"}, 12},
		{[]string{"label"}, 75},
		{[]string{"swatch"}, 7},
	} {
		if got := count(doc, c.classes...); got != c.want {
			t.Errorf("%d elements of class %q, want %d", got, c.classes, c.want)
		}
	}
	moves := titles(doc, "order", "move", "failed")
	for _, want := range []string{"Germany: A mun - bur (bounce)", "Austria: A vie - gal (bounce)", "Turkey: F ank - bla (bounce)"} {
		if !slices.Contains(moves, want) {
			t.Errorf("no failed move %q in %q", want, moves)
		}
	}
	// France takes Burgundy with support; Galicia and the Black Sea stay
	// empty.
	if s := titles(doc, "standoff"); !slices.Equal(s, []string{"stand-off in Black Sea", "stand-off in Galicia"}) {
		t.Errorf("stand-offs %q", s)
	}
	if s := titles(doc, "order", "support-move"); len(s) != 1 || s[0] != "France: A mar S A par - bur (succeeds)" {
		t.Errorf("support %q", s)
	}
}

// TestS1901 draws the standard opening with its 22 orders through the API
// (the schematic until the standard map has geometry) and on the fixture
// geometry.
func TestS1901(t *testing.T) {
	pos, res := s1901(t)
	data := svgOf(t, pos, res)
	keep(t, "s1901.svg", data)
	checkS1901(t, data)
	pn := pngOf(t, pos, res)
	keep(t, "s1901.png", pn)
	checkPNG(t, pn)

	var b bytes.Buffer
	if err := writeSVG(&b, onGrid(t, pos, res)); err != nil {
		t.Fatal(err)
	}
	keep(t, "s1901-grid.svg", b.Bytes())
	checkS1901(t, b.Bytes())
}

// TestSVGDeterministic: the same position gives the same bytes.
func TestSVGDeterministic(t *testing.T) {
	pos, res := s1901(t)
	if a, b := svgOf(t, pos, res), svgOf(t, pos, res); !bytes.Equal(a, b) {
		t.Error("two SVGs of one position differ")
	}
}

// TestPNGDeterministic: the same position gives the same PNG bytes, even
// when its pixels are reused from another picture (the pool of pixels),
// so that a mail sent again carries the same attachment.
func TestPNGDeterministic(t *testing.T) {
	pos, res := s1901(t)
	first := pngOf(t, pos, res)
	pngOf(t, pos, nil) // another picture, whose pixels the next may reuse
	if again := pngOf(t, pos, res); !bytes.Equal(first, again) {
		t.Error("two PNGs of one position differ")
	}
}

// TestPNGOnGeometry rasterises the opening position on the fixture
// geometry and checks pixels whose colour the geometry decides: an owned
// centre's province in its owner's tint, a sea, the impassable region.
func TestPNGOnGeometry(t *testing.T) {
	pos, _ := s1901(t)
	m := pos.Map
	sc := onGrid(t, pos, nil)
	var b bytes.Buffer
	if err := writePNG(&b, sc); err != nil {
		t.Fatal(err)
	}
	keep(t, "s1901-grid.png", b.Bytes())
	img := checkPNG(t, b.Bytes())
	styles := powerStyles(m)
	// A point of a square that no label, unit or marker covers: near its
	// bottom left corner. The geometry is 2000 units wide: 2 per pixel.
	pixel := func(name string) color.Color {
		l, _ := m.Lookup(name)
		x, y := gridSquare(m, l)
		return img.At((x+20)/2, (y+185)/2)
	}
	for _, c := range []struct {
		prov string
		want color.NRGBA
	}{
		{"par", styles[2].Tint},
		{"mos", styles[5].Tint},
		{"ank", styles[6].Tint},
		{"nth", colSea},
		{"alb", colLand},
	} {
		if got := color.NRGBAModel.Convert(pixel(c.prov)).(color.NRGBA); !near(got, c.want) {
			t.Errorf("%s is %v, want %v", c.prov, got, c.want)
		}
	}
	n := len(m.Provinces())
	if got := color.NRGBAModel.Convert(img.At(((n%gridCols)*squareSize+100)/2, ((n/gridCols)*squareSize+100)/2)).(color.NRGBA); !near(got, colImpassable) {
		t.Errorf("impassable is %v, want %v", got, colImpassable)
	}
}

// TestDeepWaterDrawn draws the grid board with its impassable square
// made water (a sea no unit enters) and expects it in the deep-water
// colour, neither the impassable land's grey nor the playable sea's blue.
func TestDeepWaterDrawn(t *testing.T) {
	pos, _ := s1901(t)
	g := gridGeometry(pos.Map)
	g.Impassable[0].Water = true
	b, err := geoBoard(pos.Map, g)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writePNG(&buf, build(b, pos, nil)); err != nil {
		t.Fatal(err)
	}
	img := checkPNG(t, buf.Bytes())
	n := len(pos.Map.Provinces())
	got := color.NRGBAModel.Convert(img.At(((n%gridCols)*squareSize+100)/2, ((n/gridCols)*squareSize+100)/2)).(color.NRGBA)
	if !near(got, colDeep) {
		t.Errorf("deep water is %v, want %v", got, colDeep)
	}
	if de := deltaE00(toLab(colDeep), toLab(colSea)); de < 10 {
		t.Errorf("deep water is %.1f from the sea (ΔE00); want 10 or more, so that it does not read as a sea to play", de)
	}
}

func near(a, b color.NRGBA) bool {
	d := func(x, y uint8) bool { return x-y <= 2 || y-x <= 2 }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// TestRetreat draws a dislodgement, then the retreat phase that follows
// with its retreat and disband.
func TestRetreat(t *testing.T) {
	g := newGame(t, "standard", "F1901M", "Austria A vie", "Austria A bud", "Russia A gal", "Russia F sev", "Turkey F bla", "Turkey A arm")
	pos, res := g.play("Austria: A vie - gal\nAustria: A bud S A vie - gal\nRussia: A gal H\nTurkey: A arm - sev\nTurkey: F bla S A arm - sev\nRussia: F sev H")
	if res.Next.Phase.Type != judge.Retreat {
		t.Fatalf("next phase %v", res.Next.Phase)
	}
	doc, _, _ := parseSVG(t, svgOf(t, pos, res))
	if got := count(doc, "unit", "dislodged"); got != 2 {
		t.Errorf("%d dislodged units in the movement, want 2", got)
	}
	if got := titles(doc, "order", "hold", "failed"); len(got) != 2 {
		t.Errorf("failed holds %q, want 2", got)
	}
	checkPNG(t, pngOf(t, pos, res))

	rpos, rres := g.play("Russia: A gal - ukr\nRussia: F sev disband")
	data := svgOf(t, rpos, rres)
	keep(t, "retreat.svg", data)
	keep(t, "retreat.png", pngOf(t, rpos, rres))
	doc, title, _ := parseSVG(t, data)
	if title != "Fall 1901, retreat" {
		t.Errorf("title %q", title)
	}
	if got := titles(doc, "unit", "dislodged"); len(got) != 2 {
		t.Errorf("dislodged units %q, want 2", got)
	}
	if got := titles(doc, "attacker"); !slices.Equal(got, []string{"attacked from Vienna", "attacked from Armenia"}) &&
		!slices.Equal(got, []string{"attacked from Armenia", "attacked from Vienna"}) {
		t.Errorf("attackers %q", got)
	}
	if got := titles(doc, "order", "retreat"); len(got) != 1 || got[0] != "Russia: A gal - ukr (succeeds)" {
		t.Errorf("retreats %q", got)
	}
	if got := titles(doc, "order", "disband"); len(got) != 1 || got[0] != "Russia: F sev disband (disbanded)" {
		t.Errorf("disbands %q", got)
	}
}

// TestAdjustment draws builds, a waive and a removal.
func TestAdjustment(t *testing.T) {
	g := newGame(t, "standard", "W1901A", "Austria A ser", "Austria A gre", "Russia A war", "Russia A mos", "Russia F sev", "Russia F stp/sc", "Russia A rum").
		own("Austria", "ser", "gre").own("Turkey", "sev")
	pos, res := g.play("Austria: build A vie\nAustria: build F tri\nAustria: waive\nRussia: remove A war")
	data := svgOf(t, pos, res)
	keep(t, "winter.svg", data)
	pn := pngOf(t, pos, res)
	keep(t, "winter.png", pn)
	checkPNG(t, pn)
	doc, title, _ := parseSVG(t, data)
	if title != "Winter 1901, adjustment" {
		t.Errorf("title %q", title)
	}
	if got := titles(doc, "unit", "build"); !slices.Equal(got, []string{"Austria: build A vie (build)", "Austria: build F tri (build)"}) {
		t.Errorf("builds %q", got)
	}
	if got := count(doc, "build-plus"); got != 2 {
		t.Errorf("%d build badges, want 2", got)
	}
	// Russia, down to three centres, removes one unit and the judge the other.
	if got := titles(doc, "order", "remove"); len(got) != 2 || !slices.Contains(got, "Russia: remove A war (removed)") || count(doc, "remove", "default") != 1 {
		t.Errorf("removals %q", got)
	}
	var waive string
	for _, e := range doc {
		if e.is("waive") {
			waive = e.text
		}
	}
	if !strings.Contains(waive, "waived: Austria") {
		t.Errorf("legend %q does not name the waive", waive)
	}
}

// TestConstruction draws a centre under construction on 34-35-36, and a
// centre built during the game.
func TestConstruction(t *testing.T) {
	g := newGame(t, "34-35-36", "W1901A", "England F nth", "England F nwg", "England A nwy").
		own("England", "nwy", "den")
	pos, res := g.play("England: build sc yor\nEngland: build A lvp")
	data := svgOf(t, pos, res)
	keep(t, "construct.svg", data)
	keep(t, "construct.png", pngOf(t, pos, res))
	doc, _, _ := parseSVG(t, data)
	if got := titles(doc, "construction"); len(got) != 1 || got[0] != "England: build sc yor (build)" {
		t.Errorf("constructions %q", got)
	}
	// The next year the construction is pending; once built, Yorkshire is
	// a centre like the others.
	next := res.Next
	doc, _, _ = parseSVG(t, svgOf(t, next, nil))
	if got := titles(doc, "construction"); len(got) != 1 || !strings.HasPrefix(got[0], "centre under construction by England in Yorkshire") {
		t.Errorf("pending %q", got)
	}
	built := next.Clone()
	built.PendingCenters = nil
	yor, _ := built.Map.Lookup("yor")
	built.BuiltCenters = []judge.Loc{yor}
	built.Centers[yor] = 1 // England
	doc, _, _ = parseSVG(t, svgOf(t, built, nil))
	if got := titles(doc, "sc", "owned", "power-E"); !slices.Contains(got, "supply centre Yorkshire, England") {
		t.Errorf("England's centres %q lack Yorkshire", got)
	}
}

// oneMany finds a count of one with a plural noun: "1 centres".
var oneMany = regexp.MustCompile(`(?:^|[^0-9.])1 [a-z]+s\b`)

// TestEveryVariant draws the start of every shipped variant, in both
// formats: none is without a picture, and its description agrees in
// number.
func TestEveryVariant(t *testing.T) {
	for _, name := range racetest.Spread(variants.Names(), 6) { // about one in six under -race (package racetest)
		t.Run(name, func(t *testing.T) {
			m, err := variants.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			pos := judge.StartPosition(m)
			data := svgOf(t, pos, nil)
			doc, _, desc := parseSVG(t, data)
			// Chaos's powers own one centre each: "1 centre", never
			// "1 centres".
			if bad := oneMany.FindAllString(desc, -1); len(bad) > 0 {
				t.Errorf("the description says %q: %s", bad, desc)
			}
			if got, want := count(doc, "unit"), len(m.StartUnits); got != want {
				t.Errorf("%d units drawn, want %d", got, want)
			}
			if got, want := count(doc, "label"), len(m.Provinces()); got != want {
				t.Errorf("%d labels, want %d", got, want)
			}
			if got, want := count(doc, "swatch"), len(m.Powers); got != want {
				t.Errorf("%d powers in the legend, want %d", got, want)
			}
			checkLegendRoom(t, doc)
			// The start's PNG is renderBusiest's: PNG's bytes
			// (TestPNGFromCache), drawn once for the tests that read it.
			var pn []byte
			for _, r := range renderBusiest(t) {
				if r.name == name+"-start" {
					pn = r.png
				}
			}
			if pn == nil {
				t.Fatal("renderBusiest drew no start")
			}
			checkPNGWide(t, pn, boardFor(m).px)
			keep(t, "variant-"+name+".png", pn)
		})
	}
}

// checkLegendRoom checks that each power's entry in the legend ends before
// the next one on its row begins (its swatch and unit 40 px before the
// text) and the last before the picture's edge, with text 0.55 em a
// character on average: World's "Frozen Antarctica" in a column of seven
// ran into Ghana's swatch.
func checkLegendRoom(t *testing.T, doc []node) {
	t.Helper()
	num := func(e node, a string) float64 {
		v, err := strconv.ParseFloat(e.attr[a], 64)
		if err != nil {
			t.Fatalf("%s %q: %v", a, e.attr[a], err)
		}
		return v
	}
	vb := strings.Fields(doc[0].attr["viewBox"])
	if len(vb) != 4 {
		t.Fatalf("viewBox %q", doc[0].attr["viewBox"])
	}
	width, err := strconv.ParseFloat(vb[2], 64)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[float64][]node{}
	for _, e := range doc {
		if e.is("power") && e.tag == "text" {
			y := num(e, "y")
			rows[y] = append(rows[y], e)
		}
	}
	for _, row := range rows {
		for i, e := range row {
			size := num(e, "font-size")
			end := num(e, "x") + 0.55*size*float64(len([]rune(e.text)))
			limit := width
			if i+1 < len(row) {
				limit = num(row[i+1], "x") - 40*size/12.5
			}
			if end > limit {
				t.Errorf("legend entry %q ends at %.0f, past %.0f", e.text, end, limit)
			}
		}
	}
}

// TestBadInput: no position, or one that does not fit its map, is an
// error, not a panic.
func TestBadInput(t *testing.T) {
	if err := SVG(io.Discard, nil, nil); err == nil {
		t.Error("SVG of nil position: no error")
	}
	pos := judge.StartPosition(variants.Standard())
	pos.Units = pos.Units[:3]
	if err := PNG(io.Discard, pos, nil); err == nil {
		t.Error("PNG of a position that does not fit its map: no error")
	}
}

// TestEscape: text is escaped for XML.
func TestEscape(t *testing.T) {
	got := string(appendEscaped(nil, "a<b>&\"c'\x01\n"))
	if want := "a&lt;b&gt;&amp;&quot;c&apos; "; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Not UTF-8, and characters XML forbids, found by FuzzSchematic in a
	// coast's name.
	got = string(appendEscaped(nil, "Sp\xc3ain \uffff\u00e9"))
	if want := "Sp\ufffdain \u00e9"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func ExampleSVG() {
	pos := judge.StartPosition(variants.Standard())
	var b bytes.Buffer
	if err := SVG(&b, pos, nil); err != nil {
		fmt.Println(err)
	}
	fmt.Println(strings.Contains(b.String(), "<title id=\"title\">Spring 1901, movement</title>"))
	// Output: true
}

func BenchmarkSVG(b *testing.B) {
	pos, res := s1901(b)
	if err := SVG(io.Discard, pos, res); err != nil { // the board is built once per map
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if err := SVG(io.Discard, pos, res); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

func BenchmarkPNG(b *testing.B) {
	pos, res := s1901(b)
	if err := PNG(io.Discard, pos, res); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if err := PNG(io.Discard, pos, res); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkPNGFixture rasterises the opening on the fixture geometry, whose
// provinces are filled polygons as real geometry's are.
func BenchmarkPNGFixture(b *testing.B) {
	pos, res := s1901(b)
	bd, err := geoBoard(pos.Map, gridGeometry(pos.Map))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := writePNG(io.Discard, build(bd, pos, res)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConvoyAndCut draws a convoy along its route, a cut support and a
// void order.
func TestConvoyAndCut(t *testing.T) {
	g := newGame(t, "standard", "S1901M", "England F nth", "England A lon", "France A pic", "France A bel", "Germany A bur", "Italy A ven")
	pos, res := g.play(`England: F nth C A lon - nwy
England: A lon - nwy
France: A pic S A bel H
Germany: A bur - pic
Italy: A ven - mos`)
	data := svgOf(t, pos, res)
	keep(t, "convoy.svg", data)
	pn := pngOf(t, pos, res)
	keep(t, "convoy.png", pn)
	checkPNG(t, pn)
	doc, _, _ := parseSVG(t, data)
	if got := titles(doc, "order", "convoy"); len(got) != 1 || got[0] != "England: F nth C A lon - nwy (succeeds)" {
		t.Errorf("convoys %q", got)
	}
	// The fleet lies on the army's path: a diamond round it says it
	// convoys, and no line of no length is drawn.
	for _, e := range doc {
		if e.is("order", "convoy") && (e.tag != "path" || strings.Count(e.attr["d"], "L") != 3 || !strings.HasSuffix(e.attr["d"], "Z")) {
			t.Errorf("convoy mark %s %q, want a closed diamond", e.tag, e.attr["d"])
		}
	}
	if got := count(doc, "convoy-line"); got != 0 {
		t.Errorf("%d convoy lines, want none", got)
	}
	first := doc
	var route string
	for _, e := range doc {
		if e.is("order", "move", "convoyed") {
			route = e.attr["d"]
		}
	}
	// The army's path goes by the fleet: three points, London, the North
	// Sea, Norway.
	if strings.Count(route, "L") != 2 {
		t.Errorf("convoyed move path %q, want two segments", route)
	}
	// A convoy for a move that was not ordered: the line goes to the
	// middle of the way the army would have gone.
	g = newGame(t, "standard", "S1901M", "England F nth", "England A yor")
	cpos, cres := g.play("England: F nth C A yor - nwy\nEngland: A yor H")
	doc, _, _ = parseSVG(t, svgOf(t, cpos, cres))
	if count(doc, "order", "convoy") != 1 || count(doc, "convoy-line") != 1 {
		t.Errorf("%d convoy marks and %d lines, want one of each", count(doc, "order", "convoy"), count(doc, "convoy-line"))
	}
	doc = first
	if got := titles(doc, "order", "support-hold", "failed"); len(got) != 1 || got[0] != "France: A pic S A bel (cut)" {
		t.Errorf("cut supports %q", got)
	}
	if got := count(doc, "mark", "cut"); got != 1 {
		t.Errorf("%d cut marks, want 1", got)
	}
	if got := count(doc, "mark", "void"); got != 1 {
		t.Errorf("%d void marks, want 1", got)
	}
}

// confetti is a scene h pixels tall strewn with n small discs of
// pseudo-random colours, at fixed places: a picture that compresses
// badly.
func confetti(h float64, n int) *scene {
	sc := &scene{w: 1000, h: h, s: 1}
	sc.add(gBoard, elem{kind: kPath, rings: [][]pt{rect(0, 0, 1000, h)}, closed: true, fill: fill{c: colPaper}})
	x := uint32(1)
	for i := 0; i < n; i++ {
		x = x*1664525 + 1013904223 // a fixed pseudo-random sequence
		c := color.NRGBA{uint8(x >> 24), uint8(x >> 16), uint8(x >> 8), 0xff}
		sc.add(gBoard, elem{kind: kCircle, c: pt{float64(x % 1000), math.Mod(float64(x>>10), h)}, r: 3 + float64(x%7), fill: fill{c: c}})
	}
	return sc
}

// TestPNGStaysSmall: a picture too busy for its limit at full colour is
// compressed harder and with fewer colours until it fits. The picture is
// a quarter of the output's height, with a quarter of its limit
// (MaxPNGBytes) and of the discs that make a full-size one too busy for
// it: encodePNG is the same code at any size, and a full-size one costs
// minutes under the race detector.
func TestPNGStaysSmall(t *testing.T) {
	racetest.Sequential(t) // one picture drawn on one goroutine: the plain pass runs it
	const h, limit = 250, MaxPNGBytes / 4
	img, err := rasterise(confetti(h, 3000))
	if err != nil {
		t.Fatal(err)
	}
	var full bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&full, quantise(img, 256)); err != nil {
		t.Fatal(err)
	}
	if full.Len() <= limit {
		t.Fatalf("the test picture is only %d bytes at 256 colours: not busy enough", full.Len())
	}
	b, err := encodePNG(img, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > limit {
		t.Errorf("%d bytes, want at most %d", len(b), limit)
	}
	dec, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := dec.(*image.Paletted); !ok || len(p.Palette) > 64 || len(p.Palette) < 16 {
		t.Errorf("%T: want a palette of 16 to 64 colours", dec)
	}
}

// TestPNGTooBusy: a picture that weighs more than its limit even with
// the fewest colours is an error, so that PNG keeps its promise; one
// that fits with fewer colours has them.
func TestPNGTooBusy(t *testing.T) {
	racetest.Sequential(t) // one picture drawn on one goroutine: the plain pass runs it
	img, err := rasterise(confetti(200, 600))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := encodePNG(img, 1<<10); !errors.Is(err, errTooBusy) {
		t.Errorf("a picture too busy for 1 KB: %d bytes, %v; want errTooBusy", len(b), err)
	}
	full, err := encodePNG(img, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	small, err := encodePNG(img, len(full)-1)
	if err != nil {
		t.Fatal(err)
	}
	if len(small) >= len(full) {
		t.Errorf("within %d bytes: %d bytes", len(full)-1, len(small))
	}
}
