package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestEurope1939 checks europe-1939.map against godip's definition of the
// board (variants/europe1939, Mikalis Kamaritis, version I), the one
// diplicity plays. Counted there: 148 provinces, 33 seas and 36 that no
// fleet enters, Morocco split into 2 coasts; 55 centres, 37 of them home
// centres; 245 borders that armies cross and 255 that fleets cross; a
// neutral army in Serbia; 28 centres win, from Spring 1939.
// checkGodipBorders compares the map with godip's graph border by border.
func TestEurope1939(t *testing.T) {
	m := loadVariant(t, "europe-1939")
	if m2 := loadVariant(t, "Europe 1939"); m2 != m {
		t.Errorf("Load(Europe 1939) = %p, want %p", m2, m)
	}
	if m.Title != "Europe 1939" || m.DynamicVictory || m.Construction || m.Builds != judge.BuildHome || m.NeutralsRebuild {
		t.Errorf("title %q, dynamic victory %v, construction %v, builds %v, neutrals rebuild %v",
			m.Title, m.DynamicVictory, m.Construction, m.Builds, m.NeutralsRebuild)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 148, seas: 33, inland: 36, coastal: 79,
		splitProvinces: 1, coasts: 2,
		centres: 55, homeCentres: 37,
		armyMoves: 2 * 245, fleetMoves: 2 * 255,
		powers: 8, units: 38, victory: 28, start: 1939,
	})
	checkPowerList(t, m, "Britain British B", "France French F", "Germany German G", "Italy Italian I",
		"Poland Polish P", "Spain Spanish S", "Turkey Turkish T", "USSR Soviet U")
	checkHomeCentres(t, m, map[string]string{
		"Britain": "bag cai edi lon noi",
		"France":  "alg bre lyo mar par",
		"Germany": "ber col kie mun vie",
		"Italy":   "alb mil nap rom tri",
		"Poland":  "dan kra war wro",
		"Spain":   "bac mad sei tan",
		"Turkey":  "ada ank ist izm",
		"USSR":    "ark len mos sea sta",
		"":        "ara azo bel bul cre cro den gre hol hun lit noa por rum ser swe swi teh",
	})
	checkStartUnits(t, m, map[string]string{
		"Britain": "A bag F cai F edi F lon F noi",
		"France":  "A bre A lyo A mar A par F alg",
		"Germany": "A ber A col A mun A vie F kie",
		"Italy":   "A alb A mil A rom F nap F tri",
		"Poland":  "A kra A war A wro F dan",
		"Spain":   "A bac A mad F sei F tan",
		"Turkey":  "A ada A ist F ank F izm",
		"USSR":    "A ark A mos A sta F len F sea",
		"Unowned": "A ser",
	})
	checkMap(t, m, mapQuirks{islands: []string{"azo", "cre", "ice", "ire"}})
	checkGodipBorders(t, m, "europe-1939")

	// The rules' crossings and the sea route around Africa.
	checkMoves(t, m, judge.Army, "liv-noi nap-sic", "", "")
	checkMoves(t, m, judge.Fleet, "liv-noi nap-sic sao-red sao-per red-per", "", "")
	checkNeighbourList(t, m, map[string]string{
		"F mor/ec": "gov ora str tan",
		"F mor/wc": "atl sao tan",
		"A mor":    "atl ora tan",
	})
}
