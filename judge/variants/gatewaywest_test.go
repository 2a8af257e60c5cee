package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestGatewayWest checks gateway-west.map against godip's definition of the
// board (variants/beta/gatewaywest, TJ Brooks, version 0.3), the only
// published one. Counted there: 71 provinces, 13 of them river stretches
// that fleets sail and 24 that no fleet enters, no split coasts; 35
// centres, 3 of them each power's; 124 borders that armies cross and 97
// that fleets cross; 18 centres win, from Spring 1826, builds in any
// owned centre. checkGodipBorders compares the map with godip's graph
// border by border.
func TestGatewayWest(t *testing.T) {
	m := loadVariant(t, "gateway-west")
	if m2 := loadVariant(t, "Gateway West"); m2 != m {
		t.Errorf("Load(Gateway West) = %p, want %p", m2, m)
	}
	if m.Title != "Gateway West" || m.DynamicVictory || m.Construction || m.Builds != judge.BuildAny {
		t.Errorf("title %q, dynamic victory %v, construction %v, builds %v", m.Title, m.DynamicVictory, m.Construction, m.Builds)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 71, seas: 13, inland: 24, coastal: 34,
		centres: 35, homeCentres: 21,
		armyMoves: 2 * 124, fleetMoves: 2 * 97,
		powers: 7, units: 21, victory: 18, start: 1826,
	})
	checkPowerList(t, m, "Chickasaw Chickasaw C", "Illini Illini I", "Ioway Ioway W",
		"Missouria Missouria R", "Osage Osage S", "Otoe Otoe T", "Quapaw Quapaw Q")
	checkHomeCentres(t, m, map[string]string{
		"Chickasaw": "new sco stf",
		"Illini":    "lin stc stl",
		"Ioway":     "gra mus nog",
		"Missouria": "jac laf sal",
		"Osage":     "col osa oza",
		"Otoe":      "cly nis pla",
		"Quapaw":    "bla but way",
		"":          "boo cal fra how lew mar neo nod per ran ray ric ste tab",
	})
	checkStartUnits(t, m, map[string]string{
		"Chickasaw": "F new A sco A stf",
		"Illini":    "F stc A stl A lin",
		"Ioway":     "A gra A nog A mus",
		"Missouria": "F sal F laf A jac",
		"Osage":     "A osa A oza A col",
		"Otoe":      "F cly A pla A nis",
		"Quapaw":    "A way A but A bla",
	})
	checkMap(t, m, mapQuirks{})
	checkFleetEdgesAreLandBorders(t, m)
	checkGodipBorders(t, m, "gateway-west")

	// The rivers' confluence and the river towns around it, whole.
	checkNeighbourList(t, m, map[string]string{
		"F sem": "cpp emr fra mer mot scp stc stl",
		"F stc": "cpp lin mot sem",
		"A stc": "lin mot stl",
		"F stl": "jef mer scp sem",
		"A stl": "jef mer stc",
		"F nwm": "cly nis pla wes",
		"A nog": "cli gra",
	})
	// St. Charles and St. Louis face each other across the Missouri:
	// armies cross, fleets do not (each reaches the other only by river).
	checkMoves(t, m, judge.Army, "stc-stl", "", "")
	checkMoves(t, m, judge.Fleet, "sem-stc sem-stl", "stc-stl", "")
}
