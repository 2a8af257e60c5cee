package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestAberration checks the Aberration map against its rules (njudge's
// info.aberration, Fitzpatrick after Walker) and njudge's map.aberration:
// nine powers with Sicily as C and Byzantium as Z, 52 centres (27 home, 25
// neutral), victory at 27, builds in any owned centre while a home centre
// is held, the starting units; 152 provinces (40 seas, 33 inland), and
// njudge's 235 army and 274 fleet borders.
func TestAberration(t *testing.T) {
	m := loadVariant(t, "aberration")
	// Sicily (Palermo) and Sardinia are islands.
	checkMap(t, m, mapQuirks{islands: []string{"pal", "sar"}})
	checkFigures(t, m, mapFigures{
		Provinces: 152, Inland: 33, Seas: 40, Coastal: 79,
		Centres: 52, HomeCentres: 27,
		ArmyEdges: 235, FleetEdges: 274,
		Powers: 9, Victory: 27, StartUnits: 27,
	})
	checkPowers(t, m, "Burgundy Burgundian B", "Byzantium Byzantine Z", "Eire Irish E", "Hungary Hungarian H",
		"Israel Israeli I", "Poland Polish P", "Sicily Sicilian C", "Spain Spanish S", "Ukraine Ukrainian U")
	checkStart(t, m,
		"Burgundy A dij", "Burgundy A bru", "Burgundy F hag",
		"Byzantium A ath", "Byzantium F smy", "Byzantium F con",
		"Eire A alc", "Eire F dub", "Eire F edi",
		"Hungary A bud", "Hungary A sze", "Hungary F zar",
		"Israel A dam", "Israel A jer", "Israel F cai",
		"Poland A war", "Poland A rig", "Poland F gda",
		"Sicily A rom", "Sicily F nap", "Sicily F pal",
		"Spain A tol", "Spain F san", "Spain F val",
		"Ukraine A kie", "Ukraine A ode", "Ukraine F yal")
	if m.Title != "Aberration" || m.StartYear != 1901 || m.Builds != judge.BuildOne {
		t.Errorf("title %q, start %d, builds %v", m.Title, m.StartYear, m.Builds)
	}
	checkNeutralCentres(t, m, "ana arm aus bav boh bri bul cyr den geo hes lan mor mus nor nov pie por rum sax swe tun tur ven wes")
	// The six canals: each joins the seas on both its sides; Sinai and
	// Cairo, either side of Suez, touch each other.
	checkNeighbours(t, m, []neighbours{
		{judge.Fleet, "cai", "ala del egy lib red sin"},
		{judge.Fleet, "sin", "ara cai del jer red"},
		{judge.Fleet, "con", "aeg ait ana bul thr wbs"},
		{judge.Fleet, "den", "bor hel hol nth ska swe"},
		{judge.Fleet, "hol", "bor den hel hes mar"},
		{judge.Fleet, "tau", "ebs kub ode wbs yal"},
		{judge.Army, "sin", "ara cai jer"},
	})
	checkLookups(t, m, map[string]string{
		"Morocco":        "mor",
		"Morroco":        "mor",
		"The Hague":      "hag",
		"Danzig":         "gda",
		"Norromark":      "nmk",
		"East Black Sea": "ebs",
		"Palma Sea":      "plm",
	})
}
