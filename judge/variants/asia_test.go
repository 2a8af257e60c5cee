package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestAsia checks the Asia map against its rules (njudge's info.asia,
// Lawler and Baer) and njudge's map.asia: seven powers with India as N,
// 40 centres (22 home, 18 neutral), victory at 21, the starting units; 82
// provinces (23 seas, 14 inland), four split coasts, and njudge's 100
// army and 156 fleet borders.
func TestAsia(t *testing.T) {
	m := loadVariant(t, "asia")
	checkMap(t, m, mapQuirks{islands: []string{"aus", "mad", "new", "sri", "hok", "hon", "phi", "jav", "sum", "bor"}})
	checkFigures(t, m, mapFigures{
		Provinces: 82, Inland: 14, Seas: 23, Coastal: 45, SplitCoasts: 8,
		Centres: 40, HomeCentres: 22,
		ArmyEdges: 100, FleetEdges: 156,
		Powers: 7, Victory: 21, StartUnits: 22,
	})
	checkPowers(t, m, "China Chinese C", "India Indian N", "Indonesia Indonesian I", "Japan Japanese J",
		"Persia Persian P", "Russia Russian R", "Siberia Siberian S")
	checkStart(t, m,
		"China A bjg", "China A tib", "China F sha",
		"India A cal", "India A del", "India F bom",
		"Indonesia F bor", "Indonesia F jav", "Indonesia F sum",
		"Japan F hok", "Japan F hon", "Japan A man", "Japan F phi",
		"Persia A irn", "Persia A irq", "Persia F ara/ec",
		"Russia A mos", "Russia A sev", "Russia F stp",
		"Siberia A irk", "Siberia F kam", "Siberia A wsb")
	if m.Title != "Asia" || m.StartYear != 1901 {
		t.Errorf("title %q, start %d", m.Title, m.StartYear)
	}
	checkNeutralCentres(t, m, "aus bal ban egy lao mad new nov oma pak sri tha tia tur ura uzb vie yak")
	checkNeighbours(t, m, []neighbours{
		{judge.Fleet, "ara/ec", "irq oma per"},
		{judge.Fleet, "ara/wc", "red syr yem"},
		{judge.Fleet, "bal/ec", "bla sev/wc tur"},
		{judge.Fleet, "bal/sc", "eme tur"},
		{judge.Fleet, "irn/nc", "cas cau uzb"},
		{judge.Fleet, "irn/sc", "ars irq pak per"},
		{judge.Fleet, "sev/ec", "cas cau mos"},
		{judge.Fleet, "sev/wc", "bal/ec bla cau"},
		{judge.Army, "tia", "afg del kaz kun mon pak uzb"},
		{judge.Army, "egy", "eaf syr"},
	})
	checkLookups(t, m, map[string]string{
		"Javan Sea":  "jvs",
		"Jawan Sea":  "jvs",
		"Chucki Sea": "chu",
		"Peking":     "bjg",
		"Ceylon":     "sri",
		"Siam":       "tha",
		"Hong Kong":  "hkg",
	})
}
