package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestThreeKingdoms checks three-kingdoms.map against godip's definition
// of the board (variants/beta/threekingdoms, Kuthador, version 0.9), the
// only published one. Counted there: 42 provinces, 8 of them seas and
// river stretches and 9 that no fleet enters, no split coasts; 17
// centres, 4 of them each power's; 70 borders that armies cross and 70
// that fleets cross; 9 centres win, from Spring 220, builds in any owned
// centre. checkGodipBorders compares the map with godip's graph border by
// border.
func TestThreeKingdoms(t *testing.T) {
	m := loadVariant(t, "three-kingdoms")
	if m2 := loadVariant(t, "threekingdoms"); m2 != m {
		t.Errorf("Load(threekingdoms) = %p, want %p", m2, m)
	}
	if m.Title != "Three Kingdoms" || m.DynamicVictory || m.Construction || m.Builds != judge.BuildAny {
		t.Errorf("title %q, dynamic victory %v, construction %v, builds %v", m.Title, m.DynamicVictory, m.Construction, m.Builds)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 42, seas: 8, inland: 9, coastal: 25,
		centres: 17, homeCentres: 12,
		armyMoves: 2 * 70, fleetMoves: 2 * 70,
		powers: 3, units: 12, victory: 9, start: 220,
	})
	checkPowerList(t, m, "Shu Shu S", "Wei Wei W", "Wu Wu U")
	checkHomeCentres(t, m, map[string]string{
		"Shu": "che han qin zan",
		"Wei": "don luo qio tay",
		"Wu":  "jiy lin nah yuz",
		"":    "bad gua jig nan pea",
	})
	checkStartUnits(t, m, map[string]string{
		"Shu": "F qin A che A han A zan",
		"Wei": "F don A luo A qio A tay",
		"Wu":  "F nah A lin A yuz A jiy",
	})
	checkMap(t, m, mapQuirks{})
	checkGodipBorders(t, m, "three-kingdoms")

	// The Yangtze: its three stretches touch in a line, west to east.
	checkMoves(t, m, judge.Fleet, "wes-cen cen-eay", "wes-eay", "")
}
