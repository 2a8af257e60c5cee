package picture

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// bouncesOnMarks is how many bounces of the corpus still have a ✗ on a
// unit or another move's head (134 before the ✗s were placed once every
// move was drawn, clear of units and heads): moves so short, between
// units so close, that no spot of their line is clear of both (21 before
// a head was held inside its target: a head that reaches further in
// leaves less of a short line clear). Lower it when a change draws
// fewer.
const bouncesOnMarks = 24

// TestBounceMarksClear checks every picture of the corpus and every
// played game's busiest movement: no bounce's ✗ covers a unit (it read as
// the unit's removal, a ✗ over a unit: Milan's army that failed to take
// Tyrolia) or the head of another move (a successful move whose head
// lay under another's ✗ read as a support: Europe 1939's A Pic-Bur),
// but for bouncesOnMarks of them.
func TestBounceMarksClear(t *testing.T) {
	var bad []string
	marks := 0
	for _, s := range append(corpus(t), playedBusiest(t)...) {
		if s.res == nil || s.pos.Phase.Type != judge.Movement {
			continue
		}
		m := s.pos.Map
		b := boardFor(m)
		d := newDrawer(b, s.pos, s.res)
		d.orders()
		var units []box
		for _, p := range m.Provinces() {
			if _, ok := s.pos.UnitAt(p); ok {
				units = append(units, boxAround(d.unitAt[p], 0.8*d.u, 0.8*d.u))
			}
		}
		var heads []box
		for _, e := range d.sc.elems {
			if e.class == "order-head" && e.closed {
				heads = append(heads, ringBox(slices.Concat(e.rings...)))
			}
		}
		for _, e := range d.sc.elems {
			if e.class != "mark bounce" {
				continue
			}
			marks++
			x := ringBox(slices.Concat(e.rings...))
			for _, u := range units {
				if x.overlaps(u) {
					bad = append(bad, fmt.Sprintf("%s: a bounce at %.0f,%.0f covers a unit", s.name, (x.x0+x.x1)/2/b.s, (x.y0+x.y1)/2/b.s))
					break
				}
			}
			// Its own head is the one nearest the ✗, which lies on the
			// same line: any other it overlaps is another move's.
			n := 0
			for _, h := range heads {
				if x.overlaps(h) {
					n++
				}
			}
			if n > 1 {
				bad = append(bad, fmt.Sprintf("%s: a bounce at %.0f,%.0f covers another move's head", s.name, (x.x0+x.x1)/2/b.s, (x.y0+x.y1)/2/b.s))
			}
		}
	}
	t.Logf("%d bounce marks; on a unit or another move's head:\n%s", marks, strings.Join(bad, "\n"))
	if len(bad) > bouncesOnMarks {
		t.Errorf("%d of %d bounce marks cover a unit or another move's head, at most %d may (bouncesOnMarks)", len(bad), marks, bouncesOnMarks)
	}
}
