package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestTwentyTwenty checks twenty-twenty.map against godip's definition of
// the board (variants/twentytwenty, TTTPPP, version 1), the one diplicity
// plays. Counted there: 215 provinces, 51 seas and 36 that no fleet
// enters, thirteen provinces with two coasts each; 98 centres, 63 of them
// home centres; 322 borders that armies cross and 459 that fleets cross;
// 63 units, Spring 2001. checkGodipBorders compares the map with godip's
// graph border by border.
func TestTwentyTwenty(t *testing.T) {
	m := loadVariant(t, "twenty-twenty")
	if m.Title != "Twenty Twenty" || m.DynamicVictory || m.Construction || m.Builds != judge.BuildCaptured ||
		!m.TiesContinue || m.VictoryLead != 20 {
		t.Errorf("title %q, dynamic victory %v, construction %v, builds %v, ties continue %v, lead %d",
			m.Title, m.DynamicVictory, m.Construction, m.Builds, m.TiesContinue, m.VictoryLead)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 215, seas: 51, inland: 36, coastal: 128,
		splitProvinces: 13, coasts: 26,
		centres: 98, homeCentres: 63,
		armyMoves: 2 * 322, fleetMoves: 2 * 459,
		powers: 20, units: 63, victory: 49, start: 2001,
	})
	checkPowerList(t, m, "Argentina Argentine A", "Australia Australian Z", "Brazil Brazilian B",
		"Canada Canadian C", "China Chinese H", "Egypt Egyptian E", "Germany German D", "India Indian I",
		"Italy Italian L", "Japan Japanese J", "Kenya Kenyan Y", "Nigeria Nigerian G", "Pakistan Pakistani P",
		"Russia Russian R", "South_Africa South_African F", "Spain Spanish S", "Thailand Thai W",
		"Turkey Turkish T", "UK British K", "USA American U")
	checkHomeCentres(t, m, map[string]string{
		"": "alg alm ang ant bad bhu car cha col cot dom drc fin gin grc grd hun man mau mex now oma pai pam phi " +
			"riy rma sen ser swe tai tur uzb yem zam",
		"Argentina":    "bue com men",
		"Australia":    "bri pet syd",
		"Brazil":       "mac rec rio",
		"Canada":       "iqa mot van",
		"China":        "bao bei cho yum",
		"Egypt":        "ale asw cai",
		"Germany":      "ben ham mun",
		"India":        "bna mum ned",
		"Italy":        "mil nap roe",
		"Japan":        "nag sap tok",
		"Kenya":        "mar mom nai",
		"Nigeria":      "abu kan lag",
		"Pakistan":     "isl kar lah",
		"Russia":       "irk mos oms vla",
		"South Africa": "cap dur pre",
		"Spain":        "bar cad mad",
		"Thailand":     "bnk chm hat",
		"Turkey":       "ank diy ist",
		"UK":           "dub edi lon",
		"USA":          "anc atl okl was",
	})
	checkStartUnits(t, m, map[string]string{
		"Argentina":    "F bue F com F men",
		"Australia":    "F bri F pet F syd",
		"Brazil":       "A mac F rec F rio",
		"Canada":       "F iqa F mot F van",
		"China":        "A bao A bei A cho A yum",
		"Egypt":        "A asw A cai F ale",
		"Germany":      "A ben A mun F ham",
		"India":        "A ned F bna F mum",
		"Italy":        "A mil A nap F roe/ec",
		"Japan":        "F nag F sap F tok",
		"Kenya":        "A mar A nai F mom",
		"Nigeria":      "A abu A kan F lag",
		"Pakistan":     "A isl A lah F kar",
		"Russia":       "A irk A mos A oms A vla",
		"South Africa": "A pre F cap F dur",
		"Spain":        "A bar F cad F mad",
		"Thailand":     "A chm F bnk F hat",
		"Turkey":       "A ank A diy F ist",
		"UK":           "F dub F edi F lon",
		"USA":          "A anc A atl A okl F was",
	})
	// Antarctica, the Philippines and Taiwan have no land border.
	checkMap(t, m, mapQuirks{islands: []string{"ant", "phi", "tai"}})
	checkGodipBorders(t, m, "twenty-twenty")

	// The crossings over water that the rules text names: armies and
	// fleets both.
	checkMoves(t, m, judge.Army, "anc-vla neo-cub cub-dom eth-yem kor-nag ind-dar", "", "")
	for _, c := range []struct{ name, id string }{
		{"Durban", "dur"}, {"Dubran", "dur"}, {"Benghazi", "bnh"}, {"Kunming", "kum"}, {"Hat Yai", "hat"},
		{"Cote d'Ivoire", "cot"}, {"Washington DC", "was"}, {"Rostov-on-Don", "ros"}, {"Laptev Sea", "lap"},
	} {
		if got := m.LocName(locOf(t, m, c.name)); got != c.id {
			t.Errorf("Lookup(%q) = %s, want %s", c.name, got, c.id)
		}
	}
	if got := m.FullName(locOf(t, m, "mec/nc")); got != "Mecca (north coast)" {
		t.Errorf("FullName(mec/nc) = %q", got)
	}
}

// TestTwentyTwentyVictory plays godip's tests of the board's victory rule
// (variants/twentytwenty/twentytwenty_test.go) on the map: the United
// States, given twenty centres more at the start, lead the other powers
// by 20 at the end of 2001 and win; nineteen more win nothing in 2001 and
// win in 2002; in 2020 a lead of one centre wins. (godip's list names
// Panama "pan", an id its graph lacks; Panama is pam.)
func TestTwentyTwentyVictory(t *testing.T) {
	m := loadVariant(t, "twenty-twenty")
	twenty := []string{"grd", "mex", "pam", "col", "dom", "alg", "mau", "sen", "gin", "cot",
		"cha", "car", "drc", "ang", "zam", "pai", "now", "swe", "fin", "hun"}
	for _, tc := range []struct {
		year  int
		taken int // of the centres above, given to the USA
		wins  bool
	}{{2001, 20, true}, {2001, 19, false}, {2002, 19, true}, {2002, 18, false}, {2015, 5, false},
		{2015, 6, true}, {2020, 1, true}, {2020, 0, false}, {2030, 1, true}} {
		pos := judge.StartPosition(m)
		pos.Phase = judge.Phase{Season: judge.Fall, Year: tc.year, Type: judge.Movement}
		usa, _ := m.PowerByName("USA")
		for _, c := range twenty[:tc.taken] {
			pos.Centers[locOf(t, m, c)] = usa
		}
		res := judge.Adjudicate(pos, nil, judge.DefaultRules)
		if got := len(res.Winners) == 1 && res.Winners[0] == usa; got != tc.wins || len(res.Winners) > 1 {
			t.Errorf("%d, the USA with %d more centres: winners %v, want the USA %v", tc.year, tc.taken, res.Winners, tc.wins)
		}
	}
}
