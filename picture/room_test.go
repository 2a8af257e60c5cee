package picture

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestGeometryRoom checks that the boards drawn from geometry leave room
// for what is drawn at their points: no label lies under a unit standing
// at any province's unit or coast point, no two labels overlap, and no
// centre marker lies under a unit or a label. Those were the pictures' worst blemishes.
func TestGeometryRoom(t *testing.T) {
	for _, name := range []string{"standard", "34-35-36"} {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		b := boardFor(m)
		if b.schematic {
			t.Fatalf("%s: drawn as a schematic", name)
		}
		pos := judge.NewPosition(m, judge.Phase{Year: 1901, Season: judge.Spring, Type: judge.Movement})
		d := &drawer{b: b, m: m, pos: pos, px: b.s, u: 10 * b.s}
		var units []pt
		var at []string
		for l := range m.NumLocs() {
			units = append(units, b.at[l])
			at = append(at, m.Locs[l].Name)
		}
		for _, p := range m.Provinces() {
			lb := d.labelBox(p)
			// A centre under construction (34-35-36) moves its marker
			// off a unit when it must (centreAt).
			marked := m.Locs[p].Center
			cb := boxAround(b.centre[p], (centreR+0.5)*d.px, (centreR+0.5)*d.px)
			for i, u := range units {
				if d.underUnit(lb, u) {
					t.Errorf("%s: the label of %s lies under a unit in %s", name, m.Locs[p].Name, at[i])
				}
				if marked && d.underUnit(cb, u) {
					t.Errorf("%s: the centre marker of %s lies under a unit in %s", name, m.Locs[p].Name, at[i])
				}
			}
			for _, q := range m.Provinces() {
				if q > p && lb.overlaps(d.labelBox(q)) {
					t.Errorf("%s: the labels of %s and %s overlap", name, m.Locs[p].Name, m.Locs[q].Name)
				}
			}
			if !marked {
				continue
			}
			for _, q := range m.Provinces() {
				if cb.overlaps(d.labelBox(q)) {
					t.Errorf("%s: the centre marker of %s covers the label of %s", name, m.Locs[p].Name, m.Locs[q].Name)
				}
			}
		}
	}
}

// TestCrowded draws a board with a unit in every province, the busiest
// picture there can be (set PICTURE_OUT to look at it).
func TestCrowded(t *testing.T) {
	for _, name := range []string{"standard", "34-35-36"} {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		pos := judge.StartPosition(m)
		n := 0
		for _, p := range m.Provinces() {
			if _, ok := pos.UnitAt(p); ok {
				n++
				continue
			}
			u := judge.Unit{Type: judge.Army, Power: judge.Power(n % len(m.Powers)), Loc: p}
			if m.Locs[p].Kind == judge.Sea {
				u.Type = judge.Fleet
			}
			if cs := m.Locs[p].Coasts; len(cs) > 0 {
				u.Type, u.Loc = judge.Fleet, cs[0]
			}
			if err := pos.Place(u); err != nil {
				t.Fatal(err)
			}
			n++
		}
		data := svgOf(t, pos, nil)
		doc, _, _ := parseSVG(t, data)
		if got := count(doc, "unit"); got != len(m.Provinces()) {
			t.Errorf("%s: %d units drawn, want %d", name, got, len(m.Provinces()))
		}
		keep(t, "crowded-"+name+".png", pngOf(t, pos, nil))
	}
}

// TestArrowsMissLabels checks, on the opening with its 22 orders, that no
// arrow's head reaches into a province's label, and that no bounce or
// stand-off mark covers one: the lead saw "Nth", "Den" and "Bla" hidden so.
func TestArrowsMissLabels(t *testing.T) {
	pos, res := s1901(t)
	sc, err := sceneOf(pos, res)
	if err != nil {
		t.Fatal(err)
	}
	labels, names := sceneLabels(sc)
	if len(labels) != len(pos.Map.Provinces()) {
		t.Fatalf("%d labels", len(labels))
	}
	heads, marks := 0, 0
	for i, e := range sc.elems {
		var pts []pt
		switch {
		case e.class == "order-head" && i > 0 && strings.HasPrefix(sc.elems[i-1].class, "order move"):
			heads++
			pts = e.rings[0] // the tip and the two barbs
		case strings.HasPrefix(e.class, "mark bounce") || e.class == "standoff-cross":
			marks++
			for _, r := range e.rings {
				pts = append(pts, r...)
			}
		default:
			continue
		}
		for _, p := range pts {
			for j, lb := range labels {
				if lb.contains(p) {
					t.Errorf("%s %q reaches into the label %s", e.class, e.title, names[j])
				}
			}
		}
	}
	// 20 moves; five bounce (Mun - Bur, and two each at Gal and Bla), and
	// two stand-offs leave Gal and Bla empty.
	if heads != 20 || marks != 7 {
		t.Errorf("%d arrow heads, %d marks: the test looks at too little", heads, marks)
	}
}

// TestWrap draws Cold War, whose board is cut across the Pacific: no
// line runs across more than half the picture; on the schematic the
// edges that would are stubs named after their other end; on the drawn
// globe and the schematic alike a move across the cut is an arrow off one
// side and another in at the other. Europe 1939 is drawn so too: its sea
// route round Africa joins the South Atlantic, at the west edge, with the
// Red Sea and the Persian Gulf, at the east edge, so a move along it
// leaves one side and comes in at the other. Youngstown Redux, World and
// Twenty Twenty go round the globe too. No other drawn board wraps.
func TestWrap(t *testing.T) {
	wraps := []string{"cold-war", "europe-1939", "youngstown-redux", "world", "twenty-twenty"}
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if b := boardFor(m); !b.schematic && b.globe != slices.Contains(wraps, name) {
			t.Errorf("%s: drawn board spans the globe: %v", name, b.globe)
		}
	}
	g := newGame(t, "cold-war", "S1960M", "NATO F epa")
	pos, res := g.play("NATO: F epa - wpa")
	sc, err := sceneOf(pos, res)
	if err != nil {
		t.Fatal(err)
	}
	stubs, arrows := 0, 0
	var names []string
	for _, e := range sc.elems {
		if e.group == gLegend || e.kind != kPath || e.closed {
			continue
		}
		for _, r := range e.rings {
			for i := 1; i < len(r); i++ {
				if math.Abs(r[i].X-r[i-1].X) > wrapLimit*sc.w {
					t.Errorf("%s %q runs across the picture", e.class, e.title)
				}
			}
		}
		if strings.Contains(e.class, "wrap") && strings.HasPrefix(e.class, "edge") {
			stubs++
		}
		if strings.HasPrefix(e.class, "order move") {
			arrows++
		}
	}
	for _, e := range sc.elems {
		if e.class == "wrap-label" {
			names = append(names, e.text)
		}
	}
	// Ber–Epa, Ber–Goa, Ber–Ala, Epa–Wpa: two stubs each, on the
	// schematic; the drawn globe shows the coasts at its two edges.
	if boardFor(pos.Map).schematic {
		if stubs != 8 || len(names) != 8 || !slices.Contains(names, "Wpa") || !slices.Contains(names, "Epa") {
			t.Errorf("%d stubs named %q, want 8", stubs, names)
		}
	} else if stubs != 0 {
		t.Errorf("%d stubs on the drawn globe, want none", stubs)
	}
	if arrows != 2 {
		t.Errorf("F epa - wpa drawn as %d arrows, want 2", arrows)
	}
	keep(t, "cold-war-wrap.png", pngOf(t, pos, res))
}

// sceneLabels returns the boxes of the province labels of a scene (their
// letters, without the halo) and their texts.
func sceneLabels(sc *scene) ([]box, []string) {
	var labels []box
	var names []string
	for _, e := range sc.elems {
		if e.class == "label" {
			labels = append(labels, boxAround(e.c, 0.31*e.size*float64(len(e.text)), 0.4*e.size))
			names = append(names, e.text)
		}
	}
	return labels, names
}

// TestBadgesMissLabels: a build's badge covers no label (Vienna's went
// over Bohemia's name).
func TestBadgesMissLabels(t *testing.T) {
	g := newGame(t, "standard", "W1901A").own("Austria", "ser", "gre")
	pos, res := g.play("Austria: build A vie\nAustria: build F tri\nAustria: build A bud")
	sc, err := sceneOf(pos, res)
	if err != nil {
		t.Fatal(err)
	}
	labels, names := sceneLabels(sc)
	badges := 0
	for _, e := range sc.elems {
		if e.class != "build-badge" {
			continue
		}
		badges++
		for i, lb := range labels {
			if lb.overlaps(boxAround(e.c, e.r, e.r)) {
				t.Errorf("a build badge covers the label %s", names[i])
			}
		}
	}
	if badges != 3 {
		t.Errorf("%d build badges, want 3", badges)
	}
}

// roundTheGlobe is a tiny board round the globe (its map line says
// "wraps yes"): Westland and Eastland stand at the picture's two edges
// and border each other across the ocean between them, as Anchorage and
// Vladivostok do on Twenty Twenty. Every board of the judge that wraps is
// drawn on real geography, so the schematic's stubs are tested on this one.
const roundTheGlobe = `map "Round the Globe" wraps yes
power Westland West W
power Eastland East E
province wa  land sc Westland Wa
province mid land -  -        Mid
province ea  land sc Eastland Ea
army wa:  mid ea
army mid: wa ea
army ea:  mid wa
unit Westland A wa
unit Eastland A ea
place wa  50 500
place mid 500 500
place ea  950 500
`

// TestSchematicWrapsOnlyRoundTheGlobe draws a schematic board's start:
// a board round the globe (judge.Map.Wraps) draws a border that would
// cross the picture as stubs off the sides, named after their other ends,
// and no other board draws any (Pure's Moscow is far from London, not
// round the world from it). roundTheGlobe, and the same board without
// its "wraps yes", show the first; every schematic board of the judge
// the second.
func TestSchematicWrapsOnlyRoundTheGlobe(t *testing.T) {
	stubsOf := func(m *judge.Map) []string {
		sc, err := sceneOf(judge.StartPosition(m), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range sc.elems {
			if e.class == "wrap-label" {
				names = append(names, e.text)
			}
		}
		return names
	}
	for _, wraps := range []bool{true, false} {
		src := roundTheGlobe
		if !wraps {
			src = strings.Replace(src, " wraps yes", "", 1)
		}
		m, err := judge.ParseMap("round-the-globe", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if m.Wraps != wraps || !boardFor(m).schematic {
			t.Fatalf("round the globe (wraps %v): parsed as wrapping %v, schematic %v", wraps, m.Wraps, boardFor(m).schematic)
		}
		names := stubsOf(m)
		slices.Sort(names)
		if want := []string{"Ea", "Wa"}; wraps && !slices.Equal(names, want) {
			t.Errorf("round the globe: stubs named %q, want %q", names, want)
		} else if !wraps && len(names) > 0 {
			t.Errorf("round the globe without wraps: stubs named %q, want none", names)
		}
	}
	for name, m := range schematicBoards(t) {
		if names := stubsOf(m); !m.Wraps && len(names) > 0 {
			t.Errorf("%s is no board round the globe, but its schematic draws %d borders as stubs off its sides", name, len(names))
		}
	}
}
