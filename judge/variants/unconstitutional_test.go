package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestUnconstitutional checks unconstitutional.map against godip's
// definition of the board (variants/unconstitutional, David E. Cohen,
// version 1.0), the one diplicity plays. Counted there: 87 provinces, 15
// seas and 29 that no fleet enters, no split coasts; 35 centres, 20 of
// them home centres; 168 borders that armies cross and 128 that fleets
// cross; a neutral army in each of the 15 neutral centres, which the
// published rules bring back while their centre is empty and unowned; 18
// centres win, from Spring 1805, builds in any owned centre.
// checkGodipBorders compares the map with godip's graph border by border.
func TestUnconstitutional(t *testing.T) {
	m := loadVariant(t, "unconstitutional")
	if m.Title != "Unconstitutional" || m.DynamicVictory || m.Construction || m.Builds != judge.BuildAny || !m.NeutralsRebuild {
		t.Errorf("title %q, dynamic victory %v, construction %v, builds %v, neutrals rebuild %v",
			m.Title, m.DynamicVictory, m.Construction, m.Builds, m.NeutralsRebuild)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 87, seas: 15, inland: 29, coastal: 43,
		centres: 35, homeCentres: 20,
		armyMoves: 2 * 168, fleetMoves: 2 * 128,
		powers: 6, units: 35, victory: 18, start: 1805,
	})
	checkPowerList(t, m, "Muskogee_Confederacy Muskogee K", "New_York New_Yorker N",
		"Pennsylvania Pennsylvanian P", "South_Carolina South_Carolinian S", "Virginia Virginian V",
		"Western_Confederacy Western_Confederate W")
	checkHomeCentres(t, m, map[string]string{
		"Muskogee Confederacy": "cus mic tuk",
		"New York":             "alb loi nyc",
		"Pennsylvania":         "har phi pit yor",
		"South Carolina":       "bea chn col",
		"Virginia":             "ale chv ric wil",
		"Western Confederacy":  "kek pro wap",
		"":                     "chk cho eas ken mar mas neh nej neo noc por sad sal tur wer",
	})
	checkStartUnits(t, m, map[string]string{
		"Muskogee Confederacy": "F mic A tuk A cus",
		"New York":             "F nyc F loi A alb",
		"Pennsylvania":         "F phi A pit A har A yor",
		"South Carolina":       "F chn A col A bea",
		"Virginia":             "F wil A ale A chv A ric",
		"Western Confederacy":  "A pro A kek A wap",
		"Unowned":              "A chk A cho A eas A ken A mar A mas A neh A nej A neo A noc A por A sad A sal A tur A wer",
	})
	// The four rivers make coastal the provinces along them; the Turks
	// and Caicos are islands.
	checkMap(t, m, mapQuirks{islands: []string{"tur"},
		rivers: []string{"alb", "cat", "chi", "cho", "hoc", "ill", "mis", "osa", "pen", "phi", "pro", "qua", "ric", "sal", "tuk"}})
	checkGodipBorders(t, m, "unconstitutional")

	// godip's one-way fleet borders into inland Cusseta are not moves.
	checkMoves(t, m, judge.Fleet, "mic-tuk", "mic-cus tuk-cus", "")
	checkMoves(t, m, judge.Army, "mic-cus tuk-cus", "", "")
	for _, c := range []struct{ name, id string }{{"Massachusetts", "mas"}, {"Quapaw", "qua"}} {
		if got := m.LocName(locOf(t, m, c.name)); got != c.id {
			t.Errorf("Lookup(%q) = %s, want %s", c.name, got, c.id)
		}
	}
}
