package picture

import (
	"github.com/gmdjudge/gmd/internal/racetest"
	"iter"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// legendKeys says, for each entry the legend may show, which shapes of
// the picture make it needed: any element with all the classes of one of
// its sets.
var legendKeys = map[string][][]string{
	"army":         {{"unit", "army"}},
	"fleet":        {{"unit", "fleet"}},
	"neutral-unit": {{"unit", "neutral"}},
	"move":         {{"order", "move"}, {"order", "retreat"}},
	"hold":         {{"order", "hold"}},
	"support":      {{"order", "support-move"}, {"order", "support-hold"}},
	"convoy":       {{"order", "convoy"}},
	"failed":       {{"order", "move", "failed"}, {"order", "retreat", "failed"}, {"order", "support-move", "failed"}, {"order", "support-hold", "failed"}},
	"bounce":       {{"mark", "bounce"}},
	"cut":          {{"mark", "cut"}},
	"standoff":     {{"standoff"}},
	"dislodged":    {{"dislodged-ring"}},
	"destroyed":    {{"destroyed"}},
	"attacker":     {{"attacker"}},
	"remove":       {{"order", "remove"}, {"order", "disband"}},
	"build":        {{"build-badge"}},
	"construction": {{"construction"}},
	"spoiled":      {{"mark", "spoiled"}},
	"owned":        {{"sc", "owned"}},
	"neutral":      {{"sc", "neutral"}},
	"closed":       {{"province", "closed"}},
}

// TestLegendMatchesMarks: on every picture of the corpus and of the
// hand-made phases, the legend explains exactly the marks the picture
// uses, no fewer and no more.
func TestLegendMatchesMarks(t *testing.T) {
	racetest.Sequential(t) // one goroutine drawing: the plain pass walks it whole
	seen := map[string]bool{}
	drawn := corpusSVGs(t)
	for i, s := range append(append(corpus(t), fixtureShots(t)...), outcomeShots(t)...) {
		var doc []node
		if i < len(drawn) {
			doc = drawn[i].doc
		} else {
			doc, _, _ = parseSVG(t, svgOf(t, s.pos, s.res))
		}
		var shown []string
		for _, e := range doc {
			for _, c := range e.class {
				if id, ok := strings.CutPrefix(c, "key-"); ok && !slices.Contains(shown, id) && !strings.HasPrefix(id, "edge-") && id != "land" && id != "sea" {
					shown = append(shown, id)
				}
			}
		}
		for id, sets := range legendKeys {
			used := false
			for _, set := range sets {
				used = used || count(doc, set...) > 0
			}
			if used != slices.Contains(shown, id) {
				t.Errorf("%s: the picture uses %q: %v; the legend shows it: %v", s.name, id, used, !used)
			}
			if used {
				seen[id] = true
			}
		}
		for _, id := range shown {
			if _, ok := legendKeys[id]; !ok {
				t.Errorf("%s: legend entry %q that no mark needs", s.name, id)
			}
		}
	}
	for id := range legendKeys {
		if !seen[id] {
			t.Errorf("no picture uses %q: the test does not reach it", id)
		}
	}
}

// outcomeShots are the outcomes players misread before: a convoying
// fleet dislodged, a dislodged unit with no retreat, a move that spoils
// a construction, and a province closed for the season.
func outcomeShots(t testing.TB) []shot {
	var out []shot
	// England convoys; France dislodges the fleet in the Channel.
	g := newGame(t, "standard", "S1901M", "England F eng", "England A lon", "France F bre", "France F mao", "France A pic")
	pos, res := g.play("England: F eng C A lon - bre\nEngland: A lon - bre\nFrance: F bre - eng\nFrance: F mao S F bre - eng\nFrance: A pic H")
	out = append(out, shot{"convoy-dislodged", pos, res})
	// Russia's army in Galicia has nowhere to go.
	g = newGame(t, "standard", "S1901M", "Russia A gal", "Austria A vie", "Austria A bud", "Austria A boh", "Austria A sil", "Austria A war", "Austria A ukr", "Austria A rum")
	pos, res = g.play("Austria: A vie - gal\nAustria: A bud S A vie - gal\nAustria: A boh H\nAustria: A sil H\nAustria: A war H\nAustria: A ukr H\nAustria: A rum H\nRussia: A gal H")
	out = append(out, shot{"destroyed", pos, res})
	// France moves into Yorkshire, where England raises a centre.
	g = newGame(t, "34-35-36", "S1902M", "England F nth", "France A wal")
	g.pos.PendingCenters = []judge.PendingCenter{{Power: g.power("England"), Loc: g.loc("yor"), Ordered: judge.Phase{Season: judge.Winter, Year: 1901, Type: judge.Adjustment}}}
	pos, res = g.play("France: A wal - yor\nEngland: F nth H")
	out = append(out, shot{"spoils", pos, res})
	// Loeb9's Arctic Ocean, closed in the Fall.
	g = newGame(t, "loeb9", "F1901M", "Russia F bar")
	pos, res = g.play("Russia: F bar H")
	out = append(out, shot{"closed", pos, res})
	return out
}

// TestOutcomeMarks: the outcomes of outcomeShots are drawn as they
// came out.
func TestOutcomeMarks(t *testing.T) {
	shots := outcomeShots(t)
	doc, _, _ := parseSVG(t, svgOf(t, shots[0].pos, shots[0].res))
	if got := titles(doc, "order", "convoy", "failed"); len(got) != 1 {
		t.Errorf("failed convoys %q, want the dislodged fleet's", got)
	}
	doc, _, _ = parseSVG(t, svgOf(t, shots[1].pos, shots[1].res))
	if got := titles(doc, "unit", "destroyed"); len(got) != 1 || !strings.Contains(got[0], "Galicia") {
		t.Errorf("destroyed units %q, want Russia's army in Galicia", got)
	}
	if count(doc, "mark", "bounce") != 0 || count(doc, "destroyed") < 2 {
		t.Errorf("the destroyed unit is not struck out apart from bounces")
	}
	doc, _, _ = parseSVG(t, svgOf(t, shots[2].pos, shots[2].res))
	if got := titles(doc, "order", "move", "spoils"); len(got) != 1 || !strings.HasPrefix(got[0], "France: A wal - yor") {
		t.Errorf("spoiling moves %q", got)
	}
	if got := titles(doc, "construction", "failed"); len(got) != 1 || !strings.Contains(got[0], "spoiled by France") {
		t.Errorf("spoiled constructions %q", got)
	}
}

// TestSchematicKeyMatchesBoard: on every board drawn as a schematic, the
// legend explains exactly the kinds of line and node the picture draws.
// Pure, all land, once explained fleet moves, both-ways lines and sea
// squares it never draws.
func TestSchematicKeyMatchesBoard(t *testing.T) {
	schematics := 0
	for name, m := range schematicBoards(t) {
		schematics++
		doc, _, _ := parseSVG(t, svgOf(t, judge.StartPosition(m), nil))
		land := 0
		for _, e := range doc {
			if slices.Contains(e.class, "province") && !slices.Contains(e.class, "sea") {
				land++
			}
		}
		for _, c := range []struct {
			key   string
			drawn int
		}{
			{"key-edge-army", count(doc, "edge", "army")},
			{"key-edge-fleet", count(doc, "edge", "fleet")},
			{"key-edge-both", count(doc, "edge", "both")},
			{"key-land", land},
			{"key-sea", count(doc, "province", "sea")},
		} {
			if shown := count(doc, c.key) > 0; shown != (c.drawn > 0) {
				t.Errorf("%s: the picture draws %d of what %s explains; the legend shows it: %v", name, c.drawn, c.key, shown)
			}
		}
	}
	if schematics == 0 {
		t.Error("no board is drawn as a schematic: the test checks nothing")
	}
}

// schematicBoards yields the name and map of every board drawn as a
// schematic, in the order of variants.Names.
func schematicBoards(t *testing.T) iter.Seq2[string, *judge.Map] {
	return func(yield func(string, *judge.Map) bool) {
		for _, name := range variants.Names() {
			m, err := variants.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if boardFor(m).schematic && !yield(name, m) {
				return
			}
		}
	}
}
