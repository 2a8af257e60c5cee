package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestAfrica checks the Africa map against Phil Reynolds's 1992 rules
// (njudge's info.african2) and njudge's map.african2: six powers, 36
// centres (18 home, 18 neutral), victory at 19, the starting units; 77
// provinces (16 seas, 19 inland), and njudge's 129 army and 124 fleet
// borders.
func TestAfrica(t *testing.T) {
	m := loadVariant(t, "africa")
	// Madagascar is an island; Spain and Italy, at the map's edge, touch no
	// other land on it.
	checkMap(t, m, mapQuirks{islands: []string{"mad", "spa", "ita"}})
	checkFigures(t, m, mapFigures{
		Provinces: 77, Inland: 19, Seas: 16, Coastal: 42,
		Centres: 36, HomeCentres: 18,
		ArmyEdges: 129, FleetEdges: 124,
		Powers: 6, Victory: 19, StartUnits: 18,
	})
	checkPowers(t, m, "South Africa South African A", "Ethiopia Ethiopian E", "Ivory Coast Ivorian I",
		"Libya Libyan L", "Saudi Arabia Saudi S", "Zaire Zairean Z")
	checkStart(t, m,
		"South Africa A pre", "South Africa F cto", "South Africa F pel",
		"Ethiopia A aab", "Ethiopia A dji", "Ethiopia F som",
		"Ivory Coast A fre", "Ivory Coast A oua", "Ivory Coast F abi",
		"Libya A ben", "Libya A tri", "Libya F tun",
		"Saudi Arabia A riy", "Saudi Arabia F dam", "Saudi Arabia F mec",
		"Zaire A kis", "Zaire A lub", "Zaire F kin")
	if m.Title != "Africa" || m.StartYear != 2000 {
		t.Errorf("title %q, start %d", m.Title, m.StartYear)
	}
	// njudge's map.african2 marks these 18 with x.
	checkNeutralCentres(t, m, "ang cha egy gab gre irn kha mad mor nam nga sen spa tan tim uga zam zim")
	checkNeighbours(t, m, []neighbours{
		{judge.Army, "sud", "aab caf ken kha kis kpl uga"},
		{judge.Army, "egy", "ben dam esd kpl mec"},
		{judge.Army, "mad", ""},
		{judge.Fleet, "mad", "mch nio sio"},
		{judge.Fleet, "rse", "egy eri goa kha kpl mec yem"},
		{judge.Fleet, "egy", "ben dam ems kpl mec rse"},
		{judge.Fleet, "mao", "abi fre goc gog gui nao sen swa"},
	})
	checkLookups(t, m, map[string]string{
		"Ouagadougou":                 "oua",
		"Ouanadougou":                 "oua",
		"Benghazi":                    "ben",
		"Cape Town":                   "cto",
		"Southeastern Atlantic Ocean": "sea",
		"Eastern Mediterranean":       "ems",
	})
}
