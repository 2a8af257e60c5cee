package picture

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
)

// swapsOnOneTrack is how many swaps of the walk are still drawn with
// their two lines less than 6 px apart at the middle (8,189 of 9,612
// before the second was drawn beside the first): moves so short, or so
// bowed, that moving one aside leaves them crossing. Lower it when a
// change draws fewer.
const swapsOnOneTrack = 581

// TestSwapMovesApart draws, for every two neighbouring places of every
// board, a unit in each ordered into the other (both bounce), and checks
// that the two lines run apart along their middles, so that both lines
// and both heads show: drawn on one track, Con-Mos and Mos-Con on Pure
// read as one move.
func TestSwapMovesApart(t *testing.T) {
	racetest.Sequential(t)
	var bad []string
	pairs := 0
	for _, m := range everyBoardOnce(t) {
		b := boardFor(m)
		ph := judge.Phase{Season: judge.Spring, Year: m.StartYear, Type: judge.Movement}
		var nb, back []judge.Loc
		for l := range m.Locs {
			a := judge.Loc(l)
			for _, typ := range []judge.UnitType{judge.Army, judge.Fleet} {
				if !m.CanHold(typ, a) {
					continue
				}
				for _, c := range m.Neighbours(nb[:0], typ, a) {
					if c <= a || !m.CanHold(typ, c) || m.Province(a) == m.Province(c) {
						continue
					}
					if back = m.Neighbours(back[:0], typ, c); !slices.Contains(back, a) {
						continue
					}
					pos := judge.NewPosition(m, ph)
					for i, at := range []judge.Loc{a, c} {
						if err := pos.Place(judge.Unit{Type: typ, Power: judge.Power(i), Loc: at}); err != nil {
							t.Fatal(err)
						}
					}
					res := &judge.Resolution{Phase: ph, Results: []judge.OrderResult{
						{Order: judge.Order{Kind: judge.Move, Power: 0, Type: typ, Unit: a, Target: c}, Outcome: judge.Bounced},
						{Order: judge.Order{Kind: judge.Move, Power: 1, Type: typ, Unit: c, Target: a}, Outcome: judge.Bounced}}}
					d := newDrawer(b, pos, res)
					d.orders()
					p, q := d.moved[m.Province(a)], d.moved[m.Province(c)]
					if len(p) < 2 || len(q) < 2 {
						continue // across the cut of a globe: pieces at two sides
					}
					pairs++
					mid := pointAt(p, pathLen(p)/2)
					if gap := distToPath(q, mid) / b.s; gap < 6 {
						bad = append(bad, fmt.Sprintf("%s: %s %s-%s and back: %.1f px apart", m.Name, typ, m.LocName(a), m.LocName(c), gap))
					}
				}
			}
		}
	}
	t.Logf("%d swaps, %d on one track", pairs, len(bad))
	if len(bad) > swapsOnOneTrack {
		t.Errorf("%d of %d swaps drawn on one track, at most %d may (swapsOnOneTrack):\n%s", len(bad), pairs, swapsOnOneTrack, strings.Join(bad[:min(len(bad), 20)], "\n"))
	}
}
