package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestModern checks the Modern map against Modern Diplomacy II (njudge's
// info.modern and the Pouch's page for the board; webDiplomacy's and
// DPjudge's Modern II for the revised rules): ten powers, 64 centres (38
// home, 26 neutral), victory at 33, builds in any owned centre, Spring
// 1994, F Murmansk; 141 provinces (33 seas, 30 inland), Iran's two coasts,
// and the 233 army and 248 fleet borders that DPjudge's, webDiplomacy's
// and njudge's graphs share.
func TestModern(t *testing.T) {
	m := loadVariant(t, "modern")
	checkMap(t, m, mapQuirks{islands: []string{"ice", "ire"}})
	checkFigures(t, m, mapFigures{
		Provinces: 141, Inland: 30, Seas: 33, Coastal: 78, SplitCoasts: 2,
		Centres: 64, HomeCentres: 38,
		ArmyEdges: 233, FleetEdges: 248,
		Powers: 10, Victory: 33, StartUnits: 38,
	})
	checkPowers(t, m, "Britain British B", "Egypt Egyptian E", "France French F", "Germany German G",
		"Italy Italian I", "Poland Polish P", "Russia Russian R", "Spain Spanish S", "Turkey Turkish T",
		"Ukraine Ukrainian U")
	checkStart(t, m,
		"Britain F edi", "Britain F gib", "Britain F liv", "Britain F lon",
		"Egypt F ale", "Egypt A asw", "Egypt F cai",
		"France F bor", "France A lyo", "France A mar", "France A par",
		"Germany F ber", "Germany A fra", "Germany F ham", "Germany A mun",
		"Italy A mil", "Italy F nap", "Italy A rom", "Italy F ven",
		"Poland F gda", "Poland A kra", "Poland A war",
		"Russia A gor", "Russia A mos", "Russia F mur", "Russia F ros", "Russia F stp",
		"Spain F bar", "Spain A mad", "Spain A sve",
		"Turkey A ada", "Turkey F ank", "Turkey A ist", "Turkey F izm",
		"Ukraine A kha", "Ukraine A kie", "Ukraine A ode", "Ukraine F sev")
	if m.Title != "Modern" || m.StartYear != 1994 || m.Builds != judge.BuildAny {
		t.Errorf("title %q, start %d, builds %v", m.Title, m.StartYear, m.Builds)
	}
	// "Monaco was made a neutral SC"; Gibraltar is British.
	checkNeutralCentres(t, m, "aus bel bie bul cro cze den geo gre hol hun ire irn isr lib lit mon mor nwy por rum sau ser swe swi tun")
	checkHomes(t, m, map[string]struct{ centres, others string }{
		"Britain": {"edi gib liv lon", "cly wal yor"},
		"Russia":  {"gor mos mur ros stp", "cau crp sib ura vol"},
		"Egypt":   {"ale asw cai", "esa sin"},
	})
	// The canals (Cairo, Hamburg, Istanbul; Rostov and Volga to the
	// Caspian) and Iran's two coasts.
	checkNeighbours(t, m, []neighbours{
		{judge.Fleet, "cai", "ale asw eme isr red sin"},
		{judge.Fleet, "ham", "ber bhm den hel hol"},
		{judge.Fleet, "ist", "aeg ank bul gre izm wbs"},
		{judge.Fleet, "ros", "don ebs geo vol"},
		{judge.Fleet, "vol", "cas cau kaz ros"},
		{judge.Fleet, "irn/nc", "aze cas kaz"},
		{judge.Fleet, "irn/sc", "ara irk per"},
	})
	checkLookups(t, m, map[string]string{
		"Iraq":             "irk",
		"Irak":             "irk",
		"Sea of Gibraltar": "sog",
		"Donetsk":          "don",
		"Bhm. Sea":         "bhm",
		"Andalucia":        "adl",
		"Seville":          "sve",
		"Lyon":             "lyo",
		"Gulf of Lyon":     "gol",
	})
}
