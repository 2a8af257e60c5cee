package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestSailHo checks the Sail Ho map against its rules (njudge's
// info.sailho) and njudge's map.sailho: four powers, 16 centres (8 home,
// 8 neutral), victory at 9, the starting units; 60 provinces (17 seas, 10
// inland), two split provinces, 71 army and 122 fleet borders.
func TestSailHo(t *testing.T) {
	m := loadVariant(t, "sail-ho")
	checkMap(t, m, mapQuirks{})
	checkFigures(t, m, mapFigures{
		Provinces: 60, Inland: 10, Seas: 17, Coastal: 33, SplitCoasts: 4,
		Centres: 16, HomeCentres: 8,
		ArmyEdges: 71, FleetEdges: 122,
		Powers: 4, Victory: 9, StartUnits: 8,
	})
	checkPowers(t, m, "East Eastern E", "North Northern N", "South Southern S", "West Western W")
	checkStart(t, m, "East A cen", "East F ama", "North A her", "North A aeo",
		"South A had", "South F xen", "West F les", "West F ves")
	if m.Title != "Sail Ho" || m.StartYear != 1901 || m.Builds != judge.BuildHome {
		t.Errorf("title %q, start %d, builds %v", m.Title, m.StartYear, m.Builds)
	}
	checkNeutralCentres(t, m, "aph are cup mor nes pro str tar")
	checkNeighbours(t, m, []neighbours{
		{judge.Fleet, "hes/nc", "les soa ves"},
		{judge.Fleet, "hes/sc", "fir les ves"},
		{judge.Fleet, "psy/ec", "aph cup sch"},
		{judge.Fleet, "psy/wc", "aph cup soa"},
	})
	checkLookups(t, m, map[string]string{
		"Cecrops' Channel":              "cec",
		"Realm of the 3 Furies":         "fur",
		"Lover's Lane":                  "lov",
		"Convent of the Vestal Virgins": "ves",
	})
}
