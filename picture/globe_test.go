package picture

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
)

// maxSpanShare is the widest, as a share of the picture's width, that one
// drawn piece of an order may run on a board drawn round the globe: a
// line across half the world reads as a move across it, not as one to a
// neighbour, which on the globe is never more than half the world away.
const maxSpanShare = 0.5

// orderPieces are the lines of the orders drawn in sc, in the order
// drawn: a move across the cut is two, the first with "wrap" in its
// class.
func orderPieces(sc *scene) []*elem {
	var out []*elem
	for i := range sc.elems {
		e := &sc.elems[i]
		if strings.HasPrefix(e.class, "order ") && e.kind == kPath && !e.closed {
			out = append(out, e)
		}
	}
	return out
}

// checkRoundTheGlobe checks the pieces of one order drawn on b, a board
// drawn round the globe, from a to e (the places it joins): each no
// wider than maxSpanShare of the picture and at least minShaft pixels
// long; drawn across the cut (two pieces, the first off one side and
// the second in at the other, at the same height) exactly when that way
// is the shorter. It returns what is wrong, and the widest piece's share
// of the width and the shortest piece's length in pixels.
func checkRoundTheGlobe(b *board, pieces []*elem, a, e pt) (bad []string, span, shortest float64) {
	shortest = math.Inf(1)
	if len(pieces) == 0 {
		return []string{"no line"}, 0, 0
	}
	for _, p := range pieces {
		shaft := p.rings[len(p.rings)-1]
		x0, x1 := math.Inf(1), math.Inf(-1)
		for _, v := range shaft {
			x0, x1 = min(x0, v.X), max(x1, v.X)
		}
		span = max(span, (x1-x0)/b.w)
		if x1-x0 > maxSpanShare*b.w {
			bad = append(bad, fmt.Sprintf("a piece runs across %.0f%% of the width", 100*(x1-x0)/b.w))
		}
		l := pathLen(shaft) / b.s
		shortest = min(shortest, l)
		if l < minShaft {
			bad = append(bad, fmt.Sprintf("a piece of %.1f px", l))
		}
	}
	wantCut := math.Abs(e.X-a.X) > b.w/2
	gotCut := len(pieces) == 2 && strings.Contains(pieces[0].class, "wrap")
	if len(pieces) > 2 || (len(pieces) == 2 && !gotCut) {
		bad = append(bad, fmt.Sprintf("%d pieces", len(pieces)))
	}
	switch {
	case wantCut && !gotCut:
		bad = append(bad, fmt.Sprintf("drawn the long way, %.0f%% of the width, not across the cut", 100*math.Abs(e.X-a.X)/b.w))
	case gotCut && !wantCut:
		bad = append(bad, fmt.Sprintf("drawn across the cut, though the way over the picture is shorter (%.0f%% of the width)", 100*math.Abs(e.X-a.X)/b.w))
	case gotCut:
		lead, in := pieces[0].rings[0], pieces[1].rings[len(pieces[1].rings)-1]
		out, back := lead[len(lead)-1], in[0]
		// The first leaves at the side the short way goes to, the
		// second comes in at the other, at the height the first left.
		right := e.X < a.X
		edgeOut, edgeIn := 0.0, b.w
		if right {
			edgeOut, edgeIn = b.w, 0
		}
		// The lead's head ends at the side, its shaft an arrow head short.
		if math.Abs(out.X-edgeOut) > (arrowHeadLen*3.2+2)*b.s || math.Abs(back.X-edgeIn) > 2*b.s {
			bad = append(bad, fmt.Sprintf("the pieces end at x %.0f and start at x %.0f, not at the sides", out.X, back.X))
		}
		if dy := math.Abs(back.Y - lead[len(lead)-1].Y); dy > 0.2*b.h {
			bad = append(bad, fmt.Sprintf("the pieces leave and come in %.0f px apart in height", dy/b.s))
		}
		if (lead[len(lead)-1].X-lead[0].X > 0) != right || (in[len(in)-1].X-in[0].X > 0) != right {
			bad = append(bad, "a piece points the wrong way")
		}
	}
	return bad, span, shortest
}

// TestMovesShortWayRoundTheGlobe draws every possible move and retreat
// of both unit types, from and to every coast, every support to hold and
// every support of a move, on every board drawn round the globe
// (board.globe), and checks each the way checkRoundTheGlobe does: no
// piece across more than half the picture (Twenty Twenty's Panama
// Basin–Mid Pacific ran across 77% of it, over the Americas, the
// Atlantic, Africa and the Indian Ocean), every piece long enough to
// see (Phi–Arc was an 8 px stub), and a move across the cut drawn as a
// piece off one side and one in at the other, at the same height,
// exactly when that way round is the shorter; and every convoy by one
// fleet, cut where a step of its way crosses the cut. It logs the worst
// of each board.
//
// It draws only single-goroutine code, and runs in the plain pass of
// scripts/test (racetest.Sequential).
func TestMovesShortWayRoundTheGlobe(t *testing.T) {
	racetest.Sequential(t)
	boards := 0
	for name, m := range geometryBoards(t) {
		b := boardFor(m)
		if !b.globe {
			continue
		}
		boards++
		var bad []string
		cases, cut := 0, 0
		worstSpan, shortest, worstWhat, shortWhat := 0.0, math.Inf(1), "", ""
		note := func(what string, pieces []*elem, a, e pt) {
			cases++
			if len(pieces) == 2 {
				cut++
			}
			why, span, short := checkRoundTheGlobe(b, pieces, a, e)
			if span > worstSpan {
				worstSpan, worstWhat = span, what
			}
			if short < shortest {
				shortest, shortWhat = short, what
			}
			for _, w := range why {
				bad = append(bad, what+": "+w)
			}
		}
		d := &drawer{b: b, m: m, u: 10 * b.s}
		for _, c := range everyArrow(m) {
			sc, target := drawArrow(b, c)
			from := b.at[c.from]
			if c.kind == "retreat" {
				from = d.dislodgedAt(c.from)
			}
			note(fmt.Sprintf("%s %s %s-%s", c.kind, c.typ, m.LocName(c.from), m.LocName(c.to)), orderPieces(sc), from, target)
		}
		// Every support of a move.
		ph := judge.Phase{Season: judge.Spring, Year: m.StartYear, Type: judge.Movement}
		everySupportOfAMove(m, func(mv, o judge.Order) {
			pos := judge.NewPosition(m, ph)
			for _, u := range []judge.Unit{{Type: o.Type, Power: 0, Loc: o.Unit}, {Type: mv.Type, Power: 1, Loc: mv.Unit}} {
				if err := pos.Place(u); err != nil {
					t.Fatal(err)
				}
			}
			dr := newDrawer(b, pos, &judge.Resolution{Phase: ph, Results: []judge.OrderResult{{Order: mv, Outcome: judge.Succeeds}, {Order: o, Outcome: judge.Succeeds}}})
			dr.orders()
			var lines []*elem
			for _, e := range orderPieces(dr.sc) {
				if strings.HasPrefix(e.class, "order support") {
					lines = append(lines, e)
				}
			}
			// The support ends on the move's line: it goes across the
			// cut when that end is the other way round.
			var end pt
			if len(lines) > 0 {
				l := lines[len(lines)-1].rings[0]
				end = l[len(l)-1]
			}
			note(fmt.Sprintf("%s %s S %s %s-%s", o.Type, m.LocName(o.Unit), mv.Type, m.LocName(mv.Unit), m.LocName(mv.Target)), lines, b.at[o.Unit], end)
		})
		// Every convoy by one fleet: a piece more for each step of the
		// way (army to fleet, fleet to target) across the cut, and no
		// step across more than half the picture.
		everyConvoyByOneFleet(m, func(f, pa, pc judge.Loc) {
			pos := judge.NewPosition(m, ph)
			if err := pos.Place(judge.Unit{Type: judge.Army, Power: 0, Loc: pa}); err != nil {
				t.Fatal(err)
			}
			mv := judge.Order{Kind: judge.Move, Power: 0, Type: judge.Army, Unit: pa, Target: pc, Route: []judge.Loc{f}}
			dr := newDrawer(b, pos, &judge.Resolution{Phase: ph, Results: []judge.OrderResult{{Order: mv, Outcome: judge.Succeeds}}})
			dr.orders()
			pieces := orderPieces(dr.sc)
			want := 1
			for _, step := range [][2]pt{{b.at[pa], b.at[f]}, {b.at[f], b.at[pc]}} {
				if math.Abs(step[1].X-step[0].X) > b.w/2 {
					want++
				}
			}
			cases++
			if want > 1 {
				cut++
			}
			what := fmt.Sprintf("A %s-%s via %s", m.LocName(pa), m.LocName(pc), m.LocName(f))
			if len(pieces) != want {
				bad = append(bad, fmt.Sprintf("%s: %d pieces, want %d", what, len(pieces), want))
			}
			// A way through the fleet's point may run across more
			// (Cold War's Arctic stands mid-picture): each step of
			// it may not.
			for _, p := range pieces {
				r := p.rings[len(p.rings)-1]
				for i := 1; i < len(r); i++ {
					if dx := math.Abs(r[i].X - r[i-1].X); dx > maxSpanShare*b.w {
						bad = append(bad, fmt.Sprintf("%s: a step runs across %.0f%% of the width", what, 100*dx/b.w))
					}
				}
			}
		})
		t.Logf("%s: %d orders, %d across the cut; widest piece %.0f%% of the width (%s), shortest %.1f px (%s)",
			name, cases, cut, 100*worstSpan, worstWhat, shortest, shortWhat)
		if len(bad) > 0 {
			t.Errorf("%s: %d of %d orders drawn wrong round the globe:\n%s", name, len(bad), cases, strings.Join(bad[:min(len(bad), 25)], "\n"))
		}
	}
	if boards < 5 {
		t.Errorf("%d boards drawn round the globe, want Cold War, Europe 1939, Twenty Twenty, World and Youngstown Redux at least", boards)
	}
}

// everySupportOfAMove calls f with every possible move of m (to one
// coast of each province it may enter: a support names the province)
// and every support of it by a unit beside that province, each move's
// supports one after another.
func everySupportOfAMove(m *judge.Map, f func(mv, o judge.Order)) {
	var nb, sup []judge.Loc
	for ml := range m.Locs {
		mvAt := judge.Loc(ml)
		for _, tm := range []judge.UnitType{judge.Army, judge.Fleet} {
			if !m.CanHold(tm, mvAt) {
				continue
			}
			done := map[judge.Loc]bool{}
			for _, dest := range m.Neighbours(nb[:0], tm, mvAt) {
				target := m.Province(dest)
				if done[target] || !m.CanHold(tm, dest) {
					continue
				}
				done[target] = true
				mv := judge.Order{Kind: judge.Move, Power: 1, Type: tm, Unit: mvAt, Target: dest}
				for sl := range m.Locs {
					s := judge.Loc(sl)
					if m.Province(s) == m.Province(mvAt) || m.Province(s) == target {
						continue
					}
					for _, ts := range []judge.UnitType{judge.Army, judge.Fleet} {
						if !m.CanHold(ts, s) {
							continue
						}
						sup = m.Neighbours(sup[:0], ts, s)
						if !slices.ContainsFunc(sup, func(l judge.Loc) bool { return m.Province(l) == target }) {
							continue
						}
						f(mv, judge.Order{Kind: judge.SupportMove, Power: 0, Type: ts, Unit: s, TargetType: tm, Target: mvAt, Dest: target})
					}
				}
			}
		}
	}
}

// everyConvoyByOneFleet calls f with every convoy of an army by one
// fleet of m: from a coast beside the fleet's sea to another beside it.
func everyConvoyByOneFleet(m *judge.Map, f func(fleet, from, to judge.Loc)) {
	var nb []judge.Loc
	for l := range m.Locs {
		fl := judge.Loc(l)
		if !m.CanHold(judge.Fleet, fl) || !m.Convoys(fl) {
			continue
		}
		nb = m.Neighbours(nb[:0], judge.Fleet, fl)
		for _, a := range nb {
			for _, c := range nb {
				pa, pc := m.Province(a), m.Province(c)
				if pa != pc && m.CanHold(judge.Army, pa) && m.CanHold(judge.Army, pc) {
					f(fl, pa, pc)
				}
			}
		}
	}
}
