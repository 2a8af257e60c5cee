package picture

import (
	"iter"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
)

// TestOrderMarksMissLabels checks every picture of the corpus (every
// board, three years of random orders): no bounce cross and no cut
// support's bars (with their halo) reach into a province's name, a
// centre marker, a stand-off mark or an outcome mark placed before it,
// where some other spot along the order's line would leave them all
// clear. On Canton the bars of a cut support from Manchuria stood across
// "Man", where the support's line begins (they sat at the line's middle
// whatever lay there); on Cold War a bounce cross stood on Sweden's
// centre; on Western World 901 the crosses of two moves that bounced
// from Lotharingia crossed.
func TestOrderMarksMissLabels(t *testing.T) {
	seen, cramped := map[string]int{}, 0
	for s, sc := range orderScenes(t) {
		b := boardFor(s.pos.Map)
		d := &drawer{b: b, m: s.pos.Map, pos: s.pos, px: b.s}
		// The names, and the centre markers as drawn.
		boxes := slices.Clone(d.labelBoxes())
		var names []string
		for _, p := range s.pos.Map.Provinces() {
			names = append(names, "the label "+s.pos.Map.Locs[p].Name)
		}
		for _, e := range sc.elems {
			if strings.HasPrefix(e.class, "sc ") || e.class == "standoff" {
				// A neutral centre's ring is smaller than an owned
				// one's; the drawer keeps off the larger.
				r := max(e.r, centreR*d.px)
				if e.class == "standoff" {
					r = e.r
				}
				boxes = append(boxes, boxAround(e.c, r, r))
				names = append(names, e.title)
			}
		}
		covers := func(mb box) int {
			for j, lb := range boxes {
				if mb.overlaps(lb) {
					return j
				}
			}
			return -1
		}
		// The units, and the moves' heads (each with its tip).
		var units, heads []box
		var tips []pt
		full := newDrawer(b, s.pos, s.res)
		for _, p := range s.pos.Map.Provinces() {
			if _, ok := s.pos.UnitAt(p); ok {
				units = append(units, boxAround(full.unitAt[p], full.u, full.u))
			}
		}
		for _, e := range sc.elems {
			if e.class == "order-head" && e.closed && len(e.rings) == 1 && len(e.rings[0]) > 0 {
				heads = append(heads, ringBox(e.rings[0]))
				tips = append(tips, e.rings[0][0])
			}
		}
		// onMarks reports whether mb covers a unit or the head of a move
		// other than the one whose line ends at end.
		onMarks := func(mb box, end pt) bool {
			for _, u := range units {
				if mb.overlaps(u) {
					return true
				}
			}
			for i, h := range heads {
				if tips[i].sub(end).len() > d.px && mb.overlaps(h) {
					return true
				}
			}
			return false
		}
		// The order lines: the scene keeps its layers apart, all lines
		// before all marks, so a mark's line is the one it lies on.
		// A move's line is drawn short of its tip, where its head
		// begins: the head's first point is the tip, and a bounce cross
		// is placed along the line to there.
		var lines [][]pt
		for i, e := range sc.elems {
			if strings.HasPrefix(e.class, "order ") && len(e.rings) == 1 {
				line := e.rings[0]
				if i+1 < len(sc.elems) && sc.elems[i+1].class == "order-head" && strings.HasPrefix(e.class, "order move") {
					line = append(slices.Clip(line), sc.elems[i+1].rings[0][0])
				}
				lines = append(lines, line)
			}
		}
		for _, e := range sc.elems {
			kind := strings.TrimPrefix(e.class, "mark ")
			if kind != "cut" && kind != "bounce" {
				continue
			}
			seen[kind]++
			mb := boundsOf(e.rings, markClear*d.px)
			j := covers(mb)
			// The marks after this one keep off it.
			boxes = append(boxes, mb)
			names = append(names, "a "+kind+" mark")
			if j < 0 {
				continue
			}
			// Would the same mark, slid along its line, have missed
			// every name somewhere?
			c := pt{(mb.x0 + mb.x1) / 2, (mb.y0 + mb.y1) / 2}
			// Room is a stretch of line at least 2 pixels long where
			// the mark would miss them all: the drawer looks a pixel
			// at a time, and finds any such stretch. Where several
			// lines pass through the mark (moves into one province),
			// every one must have room.
			// A bounce's cross keeps off units and other moves' heads
			// before names (drawer.bounceMark): room for it is clear
			// of those too.
			room := true
			for _, line := range linesThrough(lines, c, d.px) {
				found, run := false, 0
				for l := 0.0; l <= pathLen(line) && !found; l += d.px / 2 {
					run++
					at := boxAround(pointAt(line, l), (mb.x1-mb.x0)/2, (mb.y1-mb.y0)/2)
					if covers(at) >= 0 || kind == "bounce" && onMarks(at, line[len(line)-1]) {
						run = 0
					}
					found = run >= 5
				}
				room = room && found
			}
			if !room {
				cramped++
				continue
			}
			t.Errorf("%s: a %s mark reaches into %s, with room along its line", s.name, kind, names[j])
		}
	}
	t.Logf("%d cut and %d bounce marks, %d on a line with no room clear of names and centres", seen["cut"], seen["bounce"], cramped)
	// The corpus's random orders cut supports and bounce moves on every
	// board (about one in six under the race detector); a count this low would
	// mean the test looks at nothing.
	if seen["cut"] < racetest.Share(10, 2) || seen["bounce"] < 100 {
		t.Errorf("%d cut and %d bounce marks looked at", seen["cut"], seen["bounce"])
	}
}

// boundsOf is the box round every point of rings, grown by m each way.
func boundsOf(rings [][]pt, m float64) box {
	bx := box{1e18, 1e18, -1e18, -1e18}
	for _, r := range rings {
		for _, p := range r {
			bx = box{min(bx.x0, p.X), min(bx.y0, p.Y), max(bx.x1, p.X), max(bx.y1, p.Y)}
		}
	}
	return box{bx.x0 - m, bx.y0 - m, bx.x1 + m, bx.y1 + m}
}

// linesThrough returns the lines among lines that pass within tol of c,
// or the nearest one if none does.
func linesThrough(lines [][]pt, c pt, tol float64) [][]pt {
	var out [][]pt
	var nearest []pt
	bd := math.Inf(1)
	for _, l := range lines {
		ld := math.Inf(1)
		for s := 0.0; s <= pathLen(l); s += 0.25 {
			ld = math.Min(ld, pointAt(l, s).sub(c).len())
		}
		if ld <= tol {
			out = append(out, l)
		}
		if ld < bd {
			bd, nearest = ld, l
		}
	}
	if len(out) == 0 {
		out = append(out, nearest)
	}
	return out
}

// TestStruckUnitsKeepLetters checks every picture of the corpus: a unit
// struck out as it leaves the board (a removal, a disband, a dislodged
// unit with no retreat) still shows its letter, written above the ×, so
// that a player sees whose unit it was. On Hundred a Burgundian army
// destroyed in Calais was a black × on Burgundy's own colour: its letter
// lay under the crossing.
func TestStruckUnitsKeepLetters(t *testing.T) {
	struck := 0
	for s, sc := range orderScenes(t) {
		u := boardFor(s.pos.Map).s * 10
		for i, e := range sc.elems {
			if e.kind != kPath || !(strings.HasPrefix(e.class, "order remove") || strings.HasPrefix(e.class, "order disband") || e.class == "destroyed") {
				continue
			}
			bb := boundsOf(e.rings, 0)
			c := pt{(bb.x0 + bb.x1) / 2, (bb.y0 + bb.y1) / 2}
			// The unit's own letter, under the ×.
			var under *elem
			bd := 0.6 * u
			for j := range sc.elems {
				if l := sc.elems[j].c.sub(c).len(); sc.elems[j].class == "unit-letter" && l <= bd {
					under, bd = &sc.elems[j], l
				}
			}
			if under == nil {
				continue // a neutral unit, which has no letter
			}
			struck++
			found := false
			for j := i + 1; j < len(sc.elems); j++ {
				o := sc.elems[j]
				found = found || (o.class == "struck-letter" && o.text == under.text && o.c == under.c)
			}
			if !found {
				t.Errorf("%s: %q: the unit's letter %s is not written above its ×", s.name, e.title, under.text)
			}
		}
	}
	if struck < racetest.Share(20, 4) { // the corpus holds about one board in six under the race detector
		t.Errorf("%d units struck out in the corpus: the test looks at too little", struck)
	}
	t.Logf("%d units struck out", struck)
}

// orderScenes yields the corpus's pictures that show orders, with their
// scenes.
func orderScenes(t *testing.T) iter.Seq2[shot, *scene] {
	return func(yield func(shot, *scene) bool) {
		for _, s := range corpus(t) {
			if s.res == nil {
				continue
			}
			sc, err := sceneOf(s.pos, s.res)
			if err != nil {
				t.Fatal(err)
			}
			if !yield(s, sc) {
				return
			}
		}
	}
}

// TestRetreatKeepsOccupantVisible checks every retreat picture of the
// corpus: no unit's letter lies under another unit's symbol or a
// dislodged unit's ring. A dislodged unit waits beside the unit that took
// its province; drawn at the geometry's point, half over that unit, it
// hid the Italian army that took Milan on 1908, and its ring crossed the
// letter of the Norse fleet in Amsivaria on North Sea Wars.
func TestRetreatKeepsOccupantVisible(t *testing.T) {
	pairs := 0
	for _, s := range corpus(t) {
		if s.pos.Phase.Type != judge.Retreat || len(s.pos.Dislodged) == 0 {
			continue
		}
		pairs += len(s.pos.Dislodged)
		sc, err := sceneOf(s.pos, s.res)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range sc.elems {
			if l.class != "unit-letter" {
				continue
			}
			// The letter's own symbol is the element before it.
			lb := boxAround(l.c, 0.31*l.size, 0.4*l.size)
			for j, e := range sc.elems {
				if j == i-1 {
					continue
				}
				switch {
				case e.class == "dislodged-ring" && e.c != l.c && e.c != sc.elems[i-1].c:
					if ringCrosses(lb, e.c, e.r) {
						t.Errorf("%s: a dislodged unit's ring crosses the letter %s of %q", s.name, l.text, sc.elems[i-1].title)
					}
				case strings.HasPrefix(e.class, "unit ") && j > i:
					// Drawn after the letter, over it.
					ub := boundsOf(e.rings, 0)
					if e.kind == kCircle {
						ub = boxAround(e.c, e.r, e.r)
					}
					if ub.overlaps(lb) {
						t.Errorf("%s: %q covers the letter %s of %q", s.name, e.title, l.text, sc.elems[i-1].title)
					}
				}
			}
		}
	}
	if pairs < racetest.Share(12, 4) {
		t.Errorf("%d dislodged units in the corpus's retreats: the test looks at too little", pairs)
	}
	t.Logf("%d dislodged units in retreat pictures", pairs)
}

// ringCrosses reports whether a circle round c of radius r passes
// through box b.
func ringCrosses(b box, c pt, r float64) bool {
	near := pt{max(b.x0, min(c.X, b.x1)), max(b.y0, min(c.Y, b.y1))}.sub(c).len()
	far := 0.0
	for _, q := range []pt{{b.x0, b.y0}, {b.x1, b.y0}, {b.x0, b.y1}, {b.x1, b.y1}} {
		far = max(far, q.sub(c).len())
	}
	return near <= r && r <= far
}

// TestRetreatArrowsLeaveOccupant checks, for every dislodged unit of
// every retreat in the corpus and every place it may retreat to, that
// its arrow does not pass over the unit that took its province: drawn
// across it, the arrow read as the occupant's own move (a French army
// retreating from Siam on Canton, its arrow over the Dutch fleet that
// took Siam).
func TestRetreatArrowsLeaveOccupant(t *testing.T) {
	retreats := 0
	for _, s := range corpus(t) {
		pos := s.pos
		if pos.Phase.Type != judge.Retreat {
			continue
		}
		m := pos.Map
		b := boardFor(m)
		if b.schematic {
			continue
		}
		for _, du := range pos.Dislodged {
			p := m.Province(du.Loc)
			if _, held := pos.UnitAt(p); !held {
				continue
			}
			for _, to := range pos.RetreatOptions(du) {
				res := &judge.Resolution{Results: []judge.OrderResult{{Order: judge.Order{
					Kind: judge.Move, Power: du.Power, Type: du.Type, Unit: du.Loc, Target: to}}}}
				d := newDrawer(b, pos, res)
				retreats++
				from, occ := d.from(du.Loc), d.unitAt[p]
				// Nor does it wait on a centre marker.
				ring := boxAround(from, 1.55*d.u, 1.55*d.u)
				for _, q := range m.Provinces() {
					if pos.IsCenter(q) && ring.overlaps(boxAround(d.centreAt(q), centreR*d.px, centreR*d.px)) {
						t.Errorf("%s: the unit dislodged from %s, retreating to %s, waits on %s's centre marker",
							s.name, m.LocName(du.Loc), m.LocName(to), m.LocName(q))
					}
				}
				// The line as drawn (a curve over its two provinces, or
				// bowed), its shaft and its head, and how near the
				// occupant's point it passes.
				d.orders()
				var drawn []pt
				for i, e := range d.sc.elems {
					if strings.HasPrefix(e.class, "order retreat") && e.kind == kPath && !e.closed {
						drawn = slices.Clone(e.rings[0])
						if i+1 < len(d.sc.elems) && d.sc.elems[i+1].class == "order-head" {
							drawn = append(drawn, d.sc.elems[i+1].rings[0]...)
						}
						break
					}
				}
				if len(drawn) < 2 {
					t.Errorf("%s: the retreat %s - %s is not drawn", s.name, m.LocName(du.Loc), m.LocName(to))
					continue
				}
				if gap := polyGap(drawn, occ); gap < occupantGap*d.u {
					t.Errorf("%s: the retreat %s - %s passes %.1f px from the centre of the unit that took %s",
						s.name, m.LocName(du.Loc), m.LocName(to), gap/b.s, m.LocName(p))
				}
			}
		}
	}
	if retreats < racetest.Share(40, 4) {
		t.Errorf("%d retreats from occupied provinces in the corpus: the test looks at too little", retreats)
	}
	t.Logf("%d retreats from occupied provinces", retreats)
}

// TestDislodgedClearOfStandoffs: on every drawn board, a unit
// dislodged from any province waits, in the retreat picture, clear of
// the ⊗ of a stand-off in any neighbouring province. Empires and
// Coalitions once drew Prussia's army dislodged from Berlin half under
// Mecklenburg's ⊗, its retreat arrow's shaft hidden by it.
func TestDislodgedClearOfStandoffs(t *testing.T) {
	racetest.Sequential(t) // single-goroutine drawing and geometry: the plain pass runs it
	cases := 0
	for name, m := range geometryBoards(t) {
		b := boardFor(m)
		other := judge.Power(min(1, len(m.Powers)-1))
		for _, p := range m.Provinces() {
			info := &m.Locs[p]
			if info.Impassable {
				continue
			}
			typ := judge.Army
			if info.Kind == judge.Sea {
				typ = judge.Fleet
			}
			for _, q := range m.Provinces() {
				if q == p || m.Locs[q].Impassable || !(m.ArmyAdjacent(p, q) || m.FleetAdjacent(p, q) || m.FleetAdjacent(q, p)) {
					continue
				}
				pos := judge.NewPosition(m, judge.Phase{Year: 1901, Season: judge.Fall, Type: judge.Retreat})
				pos.Units[p] = judge.Unit{Type: typ, Power: 0, Loc: p}
				pos.Dislodged = []judge.DislodgedUnit{{Unit: judge.Unit{Type: typ, Power: other, Loc: p}, AttackerFrom: judge.NoLoc}}
				pos.Bounced = []judge.Loc{q}
				d := newDrawer(b, pos, nil)
				c, so := d.waitingAt(p), d.standoffAt(q)
				cases++
				if gap := c.sub(so).len() - 1.55*d.u - standoffR*d.px; gap < 0 {
					t.Errorf("%s: a unit dislodged from %s waits on the ⊗ of a stand-off in %s (%.0f px into it)", name, info.Name, m.Locs[q].Name, -gap)
				}
			}
		}
	}
	if cases < 1000 {
		t.Errorf("%d cases: the test looks at too little", cases)
	}
	t.Logf("%d dislodged units beside a stand-off", cases)
}

// TestBuildBadgesClearOfCentres checks, in every adjustment picture of
// the corpus, that no build's plus badge covers a supply centre marker,
// its own province's or a neighbour's (Budapest's badge covered Vienna's
// centre on Fleet Rome).
func TestBuildBadgesClearOfCentres(t *testing.T) {
	badges := 0
	for s, sc := range orderScenes(t) {
		for _, b := range sc.elems {
			if b.class != "build-badge" {
				continue
			}
			badges++
			for _, c := range sc.elems {
				if strings.HasPrefix(c.class, "sc ") && c.kind == kCircle && b.c.sub(c.c).len() < b.r+c.r {
					t.Errorf("%s: a build badge covers %q", s.name, c.title)
				}
			}
		}
	}
	if badges < racetest.Share(40, 4) {
		t.Errorf("%d build badges in the corpus: the test looks at too little", badges)
	}
	t.Logf("%d build badges", badges)
}
