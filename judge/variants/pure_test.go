package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestPure checks the Pure map against its published description (godip,
// variants/pure; the DAIDE engine's maps/pure.map): seven provinces, each
// a home supply centre of one power and next to all six others, so 7*6/2
// = 21 borders; one army each; four centres win.
func TestPure(t *testing.T) {
	m, err := variants.Load("pure")
	if err != nil {
		t.Fatal(err)
	}
	checkMap(t, m, mapQuirks{})
	checkFigures(t, m, mapFigures{
		Provinces: 7, Inland: 7,
		Centres: 7, HomeCentres: 7,
		ArmyEdges: 21,
		Powers:    7, Victory: 4, StartUnits: 7,
	})
	checkPowers(t, m, "Austria Austrian A", "England English E", "France French F", "Germany German G",
		"Italy Italian I", "Russia Russian R", "Turkey Turkish T")
	checkStart(t, m, "Austria A vie", "England A lon", "France A par", "Germany A ber",
		"Italy A rom", "Russia A mos", "Turkey A con")
	if m.Title != "Pure" || m.StartYear != 1901 {
		t.Errorf("title %q, start %d", m.Title, m.StartYear)
	}
	// Armies only: no fleet can stand anywhere.
	for l := range m.Locs {
		if m.CanHold(judge.Fleet, judge.Loc(l)) {
			t.Errorf("a fleet can stand in %s", m.LocName(judge.Loc(l)))
		}
	}
	// Every province borders every other.
	for _, a := range m.Provinces() {
		for _, b := range m.Provinces() {
			if a != b && !m.ArmyAdjacent(a, b) {
				t.Errorf("%s does not border %s", m.LocName(a), m.LocName(b))
			}
		}
	}
}
