package picture

import (
	"os"
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestNeutralUnits draws neutral units in the neutral grey without a
// letter, titled as no power's, on a drawn board and on a schematic one;
// a neutral army dislodged is drawn as dislodged in the movement.
func TestNeutralUnits(t *testing.T) {
	racetest.Sequential(t) // single-goroutine drawing and geometry: the plain pass runs it
	// The schematic is Youngstown Redux's map under a name that has no
	// geometry: every board with these provinces is drawn, or is being.
	_, src, err := variants.Source("youngstown-redux")
	if err != nil {
		t.Fatal(err)
	}
	schematic, err := judge.ParseMap("youngstown-redux-schematic", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*judge.Map{variants.Standard(), schematic} {
		variant := m.Name
		if got := boardFor(m).schematic; got != (m == schematic) {
			t.Fatalf("%s: drawn as a schematic: %v", variant, got)
		}
		g := newGameOn(t, m, "S1901M", "Neutral A ser", "Neutral F ion", "Austria A bud", "Austria A rum")
		pos, res := g.play("Austria: A bud - ser\nAustria: A rum S A bud - ser")
		data := svgOf(t, pos, res)
		keep(t, "neutral-"+variant+".svg", data)
		doc, _, _ := parseSVG(t, data)
		got := titles(doc, "unit", "neutral")
		if !slices.Contains(got, "Neutral army in Serbia, dislodged, destroyed: no retreat") || !slices.Contains(got, "Neutral fleet in Ionian Sea") {
			t.Errorf("%s: neutral units %q", variant, got)
		}
		if n := count(doc, "unit", "neutral", "dislodged"); n != 1 {
			t.Errorf("%s: %d neutral units drawn dislodged, want 1", variant, n)
		}
		for _, e := range doc {
			if e.is("unit", "neutral") && e.attr["fill"] != "#8c8c8c" {
				t.Errorf("%s: %s filled %q, want the neutral grey", variant, e.title, e.attr["fill"])
			}
		}
		checkPNG(t, pngOf(t, pos, res))
		// And the position after: the Austrian army in Serbia.
		doc, _, _ = parseSVG(t, svgOf(t, res.Next, nil))
		if got := titles(doc, "unit", "neutral"); !slices.Equal(got, []string{"Neutral fleet in Ionian Sea"}) {
			t.Errorf("%s: after the move, neutral units %q", variant, got)
		}
	}
}

// TestImpassableSchematic draws a schematic board's impassable province
// (an impassable line of its map file) in the impassable grey, titled so.
func TestImpassableSchematic(t *testing.T) {
	src, err := os.ReadFile("../judge/testdata/maps/impassable.map")
	if err != nil {
		t.Fatal(err)
	}
	m, err := judge.ParseMap("impassable", src)
	if err != nil {
		t.Fatal(err)
	}
	pos := judge.StartPosition(m)
	data := svgOf(t, pos, nil)
	keep(t, "impassable.svg", data)
	doc, _, _ := parseSVG(t, data)
	var found int
	for _, e := range doc {
		if e.is("province", "impassable") {
			found++
			if e.title != "Alps, impassable" || e.attr["fill"] != "#a6a6a6" {
				t.Errorf("impassable province %q filled %q", e.title, e.attr["fill"])
			}
		}
	}
	if found != 1 {
		t.Errorf("%d impassable provinces drawn, want 1", found)
	}
	checkPNG(t, pngOf(t, pos, nil))
}
