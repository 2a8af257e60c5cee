package variants

import (
	"math"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// minPlaceGap is the least distance between two places that a schematic
// picture can draw a three-letter label and a unit beside, at 1000 units
// wide (tools/layout aims for 50).
const minPlaceGap = 40

// TestVariantPlaces checks that every shipped variant can be drawn as a
// schematic: every province placed (the variants on the standard board
// take standard's places), inside the box, none two too close together.
func TestVariantPlaces(t *testing.T) {
	for _, name := range Names() {
		m, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if !m.HasPlaces() {
			t.Errorf("%s: not every province has a place line (run go run ./tools/layout)", name)
			continue
		}
		provs := m.Provinces()
		for i, a := range provs {
			p := m.Locs[a].At
			if p[0] < 0 || p[0] > judge.MaxPlace || p[1] < 0 || p[1] > judge.MaxPlace {
				t.Errorf("%s: %s at %v, outside the box", name, m.Locs[a].Name, p)
			}
			for _, b := range provs[i+1:] {
				q := m.Locs[b].At
				if d := math.Hypot(float64(p[0]-q[0]), float64(p[1]-q[1])); d < minPlaceGap {
					t.Errorf("%s: %s and %s are %.0f apart, less than %d", name, m.Locs[a].Name, m.Locs[b].Name, d, minPlaceGap)
				}
			}
		}
	}
}
