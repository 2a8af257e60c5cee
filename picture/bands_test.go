package picture

import (
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
)

// TestRingBandsAgree: on every ring of every province of every board
// drawn on real geography, a ring's banded test (ringBands.inRing)
// answers as the plain crossing test does, at points spread over the
// ring's bounding box, its vertices and the heights of its vertices,
// where a band's edge lists matter most.
func TestRingBandsAgree(t *testing.T) {
	racetest.Sequential(t) // single-goroutine drawing and geometry: the plain pass runs it
	for name, m := range geometryBoards(t) {
		b := boardFor(m)
		b.over.once.Do(b.prepareOver)
		r := lcg(len(name))
		checked := 0
		for _, p := range m.Provinces() {
			for i, ring := range b.rings[p] {
				bb, rb := b.over.boxes[p][i], &b.over.bands[p][i]
				probe := func(v pt) {
					checked++
					if got, want := rb.inRing(ring, v), inRing(ring, v); got != want {
						t.Errorf("%s: %s ring %d at %v: banded %v, plain %v", name, m.Locs[p].Name, i, v, got, want)
					}
				}
				for k := 0; k < 64; k++ {
					probe(pt{bb.x0 + (bb.x1-bb.x0)*float64(r.intn(1000))/999, bb.y0 + (bb.y1-bb.y0)*float64(r.intn(1000))/999})
				}
				for k, v := range ring {
					if k%7 == 0 {
						probe(v)
						probe(pt{bb.x0 + (bb.x1-bb.x0)*float64(r.intn(1000))/999, v.Y})
					}
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no point checked", name)
		}
	}
}
