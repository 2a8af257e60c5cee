package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestSengoku checks sengoku.map against godip's definition of the board
// (variants/sengoku, Benjamin Hester, version 1.0), the one diplicity
// plays. Counted there: 81 provinces, 26 seas and 11 that no fleet
// enters, no split coasts; 37 centres, 2 of them each clan's; 118 borders
// that armies cross and 168 that fleets cross; seven neutral armies, which
// come back while their centre is empty and unowned; 25 centres win, from
// Spring 1570, builds in any owned centre. checkGodipBorders compares the
// map with godip's graph border by border.
func TestSengoku(t *testing.T) {
	m := loadVariant(t, "sengoku")
	if m.Title != "Sengoku" || m.DynamicVictory || m.Construction || m.Builds != judge.BuildAny || !m.NeutralsRebuild {
		t.Errorf("title %q, dynamic victory %v, construction %v, builds %v, neutrals rebuild %v",
			m.Title, m.DynamicVictory, m.Construction, m.Builds, m.NeutralsRebuild)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 81, seas: 26, inland: 11, coastal: 44,
		centres: 37, homeCentres: 14,
		armyMoves: 2 * 118, fleetMoves: 2 * 168,
		powers: 7, units: 21, victory: 25, start: 1570,
	})
	checkPowerList(t, m, "Chosokabe Chosokabe C", "Hojo Hojo H", "Mori Mori R", "Oda Oda D",
		"Shimazu Shimazu S", "Takeda Takeda T", "Uesugi Uesugi U")
	checkHomeCentres(t, m, map[string]string{
		"Chosokabe": "iyo toa",
		"Hojo":      "izu saa",
		"Mori":      "iwm nag",
		"Oda":       "mik owa",
		"Shimazu":   "osu sat",
		"Takeda":    "kai sos",
		"Uesugi":    "ecg koz",
		"":          "bin biz bug ecz hig hit hiz ina ise izm kaz kii min mus mut nos not omi sau stu too yas yat",
	})
	checkStartUnits(t, m, map[string]string{
		"Chosokabe": "F iyo F toa",
		"Hojo":      "A saa F izu",
		"Mori":      "A iwm F nag",
		"Oda":       "A owa F mik",
		"Shimazu":   "A sat F osu",
		"Takeda":    "A kai A sos",
		"Uesugi":    "A koz F ecg",
		"Unowned":   "A biz A bug A hiz A izm A min A mus A yas",
	})
	checkMap(t, m, mapQuirks{})
	checkGodipBorders(t, m, "sengoku")

	// godip's one-way army border from Sagami Bay is not a move.
	checkMoves(t, m, judge.Army, "", "sab-saa", "")
	checkMoves(t, m, judge.Fleet, "sab-saa", "", "")
	for _, c := range []struct{ name, id string }{
		{"Yamashiro", "yas"}, {"Settsu", "stu"}, {"Toyama Bay", "toj"}, {"Tsushima Strait", "tus"},
	} {
		if got := m.LocName(locOf(t, m, c.name)); got != c.id {
			t.Errorf("Lookup(%q) = %s, want %s", c.name, got, c.id)
		}
	}
}
