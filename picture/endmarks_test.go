package picture

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
)

// headsOnCentres is how many moves' heads in the corpus still cover a
// centre marker not their target's (57 before a move's way was chosen
// to keep its head off them, 21 before a head was held inside its
// target, which moves many heads further in, off the border where a
// neighbour's marker stands): most the source's own, moved aside for
// the unit there, by a short move whose every way ends on it. Lower it
// when a change draws fewer.
const headsOnCentres = 15

// TestEndMarksClearOfCentres checks every picture of the corpus that
// shows orders: no support's or convoy's end mark covers a
// supply-centre marker other than its target's, and no more moves'
// heads do than headsOnCentres. A move's head and a support's dot held to a unit may reach
// into the centre marker of the province they point at (the province
// the mark lies in); a support's dot on the line of the move it helps
// points at no province, and covers none. On Cold War's Europe a support
// dot sat on West Germany's centre marker, where it read as an order to
// West Germany.
func TestEndMarksClearOfCentres(t *testing.T) {
	heads := 0
	var bad []string
	for s, sc := range orderScenes(t) {
		m := s.pos.Map
		b := boardFor(m)
		d := newDrawer(b, s.pos, s.res)
		type marker struct {
			p judge.Loc
			c pt
		}
		var markers []marker
		for _, p := range s.pos.CenterList() {
			markers = append(markers, marker{p, d.centreAt(p)})
		}
		// Each line's order, by the title the line carries.
		orders := map[string]*judge.Order{}
		for i := range s.res.Results {
			r := &s.res.Results[i]
			_, oc := orderFailed(r)
			orders[d.orderTitle(r, oc)] = &r.Order
		}
		var o *judge.Order
		line := ""
		for _, e := range sc.elems {
			if e.kind == kPath && !e.closed && (strings.HasPrefix(e.class, "order ") || e.class == "convoy-line") {
				line, o = e.class, orders[e.title]
			}
			if e.class != "order-head" || len(e.rings) == 0 || e.group != gOrders {
				continue
			}
			heads++
			// Its target: a move's, a retreat's, or the unit a support
			// holds up; a line ending on another's move has none.
			target := judge.NoLoc
			if o != nil && d.valid(o.Target) && (o.Kind == judge.Move || o.Kind == judge.SupportHold) {
				target = m.Province(o.Target)
			}
			hb := boundsOf(e.rings, 0)
			for _, mk := range markers {
				r := centreR * d.px
				if hb.overlaps(boxAround(mk.c, r, r)) && mk.p != target {
					what := line
					if o != nil {
						what = o.Canonical(m)
					}
					bad = append(bad, fmt.Sprintf("%s: the end of %s covers %s's centre marker", s.name, what, m.LocName(mk.p)))
				}
			}
		}
	}
	slices.Sort(bad)
	bad = slices.Compact(bad)
	var heads2 []string // moves' heads: a few still do (headsOnCentres)
	for _, b := range bad {
		if strings.Contains(b, " S ") || strings.Contains(b, " C ") {
			t.Errorf("%s", b)
		} else {
			heads2 = append(heads2, b)
		}
	}
	if len(heads2) > 0 {
		t.Logf("%d moves' heads cover a centre marker not their target's:\n%s", len(heads2), strings.Join(heads2, "\n"))
	}
	if len(heads2) > headsOnCentres {
		t.Errorf("%d moves' heads cover a centre marker not their target's, at most %d may (headsOnCentres)", len(heads2), headsOnCentres)
	}
	if heads < racetest.Share(1000, 4) {
		t.Errorf("%d end marks in the corpus: the test looks at too little", heads)
	}
	t.Logf("%d end marks", heads)
}
