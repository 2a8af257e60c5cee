package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestWorld checks the World map against World Diplomacy IX as DPjudge's
// world.map and webDiplomacy's World define it (the two agree border for
// border): seventeen powers with their letters, 86 centres (51 home, 35
// neutral), victory at 44, Spring 2000, the starting units; 192 provinces
// (45 seas, 37 inland), eleven split provinces, 287 army and 396 fleet
// borders.
func TestWorld(t *testing.T) {
	m := loadVariant(t, "world")
	checkMap(t, m, mapQuirks{islands: []string{"bis", "cis", "gbr", "ind", "jap", "mad", "nze", "phi"}})
	checkFigures(t, m, mapFigures{
		Provinces: 192, Inland: 37, Seas: 45, Coastal: 110, SplitCoasts: 22,
		Centres: 86, HomeCentres: 51,
		ArmyEdges: 287, FleetEdges: 396,
		Powers: 17, Victory: 44, StartUnits: 51,
	})
	checkPowers(t, m, "Argentina Argentinian A", "Brazil Brazilian B", "China Chinese C", "Europe European E",
		"Frozen Antarctica Antarctic F", "Ghana Ghanaian G", "India Indian I", "Kenya Kenyan K",
		"Libya Libyan L", "Near East Near Eastern N", "Pacific Russia Pacific Russian P", "Quebec Quebecer Q",
		"Russia Russian R", "South Africa South African S", "United States American U",
		"Western Canada Western Canadian W", "Oz Australian Z")
	checkStart(t, m,
		"Argentina A scr", "Argentina F bai", "Argentina F chi", "Brazil A bra", "Brazil A rdj", "Brazil F rec",
		"China A bei", "China A sha", "China F gua", "Europe A ger", "Europe F fra/nc", "Europe F ita",
		"Frozen Antarctica F cas", "Frozen Antarctica F len", "Frozen Antarctica F maw",
		"Ghana A gha", "Ghana A mal", "Ghana F gui", "India A clc", "India A del", "India F bom",
		"Kenya A ken", "Kenya A uga", "Kenya F tan", "Libya A lib", "Libya A nsu", "Libya F egy",
		"Near East A irq", "Near East A sar", "Near East A syr",
		"Pacific Russia A esi", "Pacific Russia A vla", "Pacific Russia F yak/sc",
		"Quebec A qbc", "Quebec F new", "Quebec F ont", "Russia A bel", "Russia A mos", "Russia A stp",
		"South Africa A nam", "South Africa F san", "South Africa F saf",
		"United States A tex", "United States F clf", "United States F flo",
		"Western Canada A yte", "Western Canada F bco", "Western Canada F nwt",
		"Oz F nsw", "Oz F vic", "Oz F wau")
	if m.Title != "World" || m.StartYear != 2000 || m.Builds != judge.BuildHome {
		t.Errorf("title %q, start %d, builds %v", m.Title, m.StartYear, m.Builds)
	}
	checkNeutralCentres(t, m, "afg ala alg arm ban bat cha col con eth gbr god ind ite jap kor lan man mex mor moz nze per sca sho sop tha trk ukr uni ura ven wsi zai zam")
	// The Pacific and the Arctic close the globe.
	checkNeighbours(t, m, []neighbours{
		{judge.Fleet, "brs", "ala aoc kam npo nwp"},
		{judge.Fleet, "cpo", "nep npo nwp pis wpo"},
		{judge.Fleet, "bfs", "ala aoc bar bis hba lse nwt thu yte/nc"},
	})
	checkLookups(t, m, map[string]string{
		"Ghana":             "gha",
		"Province of Ghana": "gha",
		"Quebec":            "qbc",
		"Scandinavia":       "sca",
		"Skandanavia":       "sca",
		"Sea of Okhotsk":    "soo",
		"Dumont d'Urville":  "dmv",
		"Brasilia":          "bra",
	})
}
