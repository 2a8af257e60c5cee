package picture

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/mapgeo"
)

// everyBoardOnce yields each variant whose picture differs from the
// ones before it: one variant for each geometry (the standard board's
// variants share one), and every schematic board.
func everyBoardOnce(t *testing.T) []*judge.Map {
	var out []*judge.Map
	seen := map[*mapgeo.Geometry]bool{}
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if g, ok := mapgeo.For(m); ok {
			if seen[g] {
				continue
			}
			seen[g] = true
		}
		out = append(out, m)
	}
	return out
}

// TestEverySupportOfAMoveVisible draws every possible support of a move
// and every convoy by one fleet, on every board, each with the move it
// helps, and checks the support's line: at least minShaft pixels long
// at the mailed size (TestEveryArrowVisible checks moves and supports to
// hold), and ending on the line of the move it supports, where it says
// which move it helps. A convoy is marked round its fleet; a convoy's
// line, where one is drawn, is as long.
//
// It draws only single-goroutine code, and runs in the plain pass of
// scripts/test (racetest.Sequential), after TestEveryArrowVisible, whose
// moves it finds drawn in each board's cache of lines (board.over).
func TestEverySupportOfAMoveVisible(t *testing.T) {
	racetest.Sequential(t)
	for _, m := range everyBoardOnce(t) {
		b := boardFor(m)
		var bad []string
		shortest, cases := math.Inf(1), 0
		ph := judge.Phase{Season: judge.Spring, Year: m.StartYear, Type: judge.Movement}
		// drawMove draws the move alone, once for all the orders that
		// help it.
		drawMove := func(mv judge.Order) []pt {
			pos := judge.NewPosition(m, ph)
			if err := pos.Place(judge.Unit{Type: mv.Type, Power: 1, Loc: mv.Unit}); err != nil {
				t.Fatal(err)
			}
			d := newDrawer(b, pos, &judge.Resolution{Phase: ph, Results: []judge.OrderResult{{Order: mv, Outcome: judge.Succeeds}}})
			d.orders()
			return d.moved[m.Province(mv.Unit)]
		}
		// check draws order o, which helps move mv (drawn as moveLine),
		// and checks its line.
		check := func(what string, o, mv judge.Order, moveLine []pt) {
			cases++
			pos := judge.NewPosition(m, ph)
			for _, u := range []judge.Unit{{Type: o.Type, Power: 0, Loc: o.Unit}, {Type: mv.Type, Power: 1, Loc: mv.Unit}} {
				if err := pos.Place(u); err != nil {
					t.Fatal(err)
				}
			}
			r := judge.OrderResult{Order: o, Outcome: judge.Succeeds}
			d := newDrawer(b, pos, &judge.Resolution{Phase: ph, Results: []judge.OrderResult{{Order: mv, Outcome: judge.Succeeds}, r}})
			d.moved[m.Province(mv.Unit)] = moveLine
			d.support(&r)
			var line *elem
			marked := false
			for i := range d.sc.elems {
				e := &d.sc.elems[i]
				switch {
				case e.kind == kPath && !e.closed && (e.class == "order support-move" || e.class == "convoy-line"):
					line = e
				case strings.HasPrefix(e.class, "order convoy"):
					marked = true
				}
			}
			if o.Kind == judge.Convoy && !marked {
				bad = append(bad, what+": no mark round the fleet")
			}
			if line == nil {
				if o.Kind == judge.SupportMove {
					bad = append(bad, what+": no line")
				}
				return
			}
			shaft := line.rings[len(line.rings)-1]
			px := pathLen(shaft) / b.s
			shortest = math.Min(shortest, px)
			if px < minShaft {
				bad = append(bad, fmt.Sprintf("%s: %.1f px", what, px))
			}
			// Its end is on the move's line: the dot, a 2 px line's,
			// lies within its own radius of it.
			if end := shaft[len(shaft)-1]; len(moveLine) > 1 && !nearPath(moveLine, end, 5*b.s) {
				bad = append(bad, fmt.Sprintf("%s: ends %.1f px off the move's line", what, distToPath(moveLine, end)/b.s))
			}
		}
		// Every move, and every unit that could support it.
		var line []pt
		var lineOf judge.Order
		everySupportOfAMove(m, func(mv, o judge.Order) {
			if mv.Unit != lineOf.Unit || mv.Type != lineOf.Type || mv.Target != lineOf.Target || line == nil {
				line, lineOf = drawMove(mv), mv
			}
			check(fmt.Sprintf("%s %s S %s %s-%s", o.Type, m.LocName(o.Unit), mv.Type, m.LocName(mv.Unit), m.LocName(mv.Target)), o, mv, line)
		})
		// Every convoy by one fleet.
		everyConvoyByOneFleet(m, func(f, pa, pc judge.Loc) {
			mv := judge.Order{Kind: judge.Move, Power: 1, Type: judge.Army, Unit: pa, Target: pc, Route: []judge.Loc{f}}
			o := judge.Order{Kind: judge.Convoy, Power: 0, Type: judge.Fleet, Unit: f, TargetType: judge.Army, Target: pa, Dest: pc}
			check(fmt.Sprintf("F %s C A %s-%s", m.LocName(f), m.LocName(pa), m.LocName(pc)), o, mv, drawMove(mv))
		})
		t.Logf("%s: %d supports and convoys, shortest line %.1f px", m.Name, cases, shortest)
		if len(bad) > 0 {
			t.Errorf("%s: %d of %d fail:\n%s", m.Name, len(bad), cases, strings.Join(bad[:min(len(bad), 15)], "\n"))
		}
	}
}
