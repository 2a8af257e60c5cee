package variants_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestFallOfEurope1908 checks the map of "1908 - Fall of Europe" against
// its published figures: the starting units of the rules (webDiplomacy.ru
// variant 125), 40 centres (25 home, 15 neutral) and victory at 18 with
// ties played on (godip, variants/year1908 since 2020), and godip's graph
// of 87 provinces (20 seas, 20 inland) with the coasts of St Petersburg, Spain, Rome and Macedonia,
// 139 borders armies cross and 159 fleets cross, plus the published fleet
// border Mid-Atlantic Ocean - Cairo: 160.
func TestFallOfEurope1908(t *testing.T) {
	m, err := variants.Load("1908-fall-of-europe")
	if err != nil {
		t.Fatal(err)
	}
	checkMap(t, m, mapQuirks{})
	checkFigures(t, m, mapFigures{
		Provinces: 87, Inland: 20, Seas: 20, Coastal: 47, SplitCoasts: 8,
		Centres: 40, HomeCentres: 25,
		ArmyEdges: 139, FleetEdges: 160,
		Powers: 7, Victory: 18, StartUnits: 25,
	})
	checkPowers(t, m, "Austria Austrian A", "Britain British B", "France French F", "Germany German G",
		"Italy Italian I", "Russia Russian R", "Turkey Turkish T")
	checkStart(t, m,
		"Austria A vie", "Austria A bud", "Austria A tri",
		"Britain F lon", "Britain F cai", "Britain F edi", "Britain A lvp",
		"France A par", "France F bre", "France A cas", "France A mar",
		"Germany A ber", "Germany A fra", "Germany F kie", "Germany A mun",
		"Italy F rom/wc", "Italy A mil", "Italy F nap",
		"Russia F stp/sc", "Russia A mos", "Russia F sev", "Russia A war",
		"Turkey A con", "Turkey F ang", "Turkey A smy")
	if m.Title != "1908 - Fall of Europe" || m.StartYear != 1908 || m.DynamicVictory || m.Construction || !m.TiesContinue {
		t.Errorf("title %q, start %d, dynamic %v, construction %v, ties continue %v", m.Title, m.StartYear, m.DynamicVictory, m.Construction, m.TiesContinue)
	}
	for _, n := range []string{"1908 Fall of Europe", "1908fallofeurope", "1908_Fall_Of_Europe"} {
		if m2, err := variants.Load(n); err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want %p", n, m2, err, m)
		}
	}
	pos := judge.StartPosition(m)
	if pos.Phase.Year != 1908 || pos.Phase.Season != judge.Spring || pos.Phase.Type != judge.Movement {
		t.Errorf("first phase %s, want S1908M", pos.Phase)
	}

	// Home centres only: the sources give no other home country.
	checkHomes(t, m, map[string]struct{ centres, others string }{
		"Austria": {"bud tri vie", ""},
		"Britain": {"cai edi lon lvp", ""},
		"France":  {"bre cas mar par", ""},
		"Germany": {"ber fra kie mun", ""},
		"Italy":   {"mil nap rom", ""},
		"Russia":  {"mos sev stp war", ""},
		"Turkey":  {"ang con smy", ""},
	})
	var neutral []judge.Loc
	for _, c := range m.Centers() {
		if m.Locs[c].Home == judge.NoPower {
			neutral = append(neutral, c)
		}
	}
	want := []string{"bel", "bos", "bul", "den", "gre", "net", "nwy", "por", "rum", "ser", "spa", "swe", "swi", "trp", "tun"}
	if got := names(m, neutral); !slices.Equal(got, want) {
		t.Errorf("neutral centres %v, want %v", got, want)
	}
	// Byelorussia is no centre (rule 4); Arabia is impassable (rule 5).
	if m.Locs[locOf(t, m, "bye")].Center {
		t.Error("Byelorussia is a supply centre")
	}
	if _, ok := m.Lookup("Arabia"); ok {
		t.Error("Arabia is on the map")
	}

	checkNeighbours(t, m, []neighbours{
		// Rule 1: Casablanca - Spain for armies and fleets.
		{judge.Army, "cas", "alg spa"},
		{judge.Army, "spa", "cas gas mar por"},
		{judge.Fleet, "cas", "alg mid spa/sc wes"},
		{judge.Fleet, "spa/sc", "cas gol mar mid por wes"},
		{judge.Fleet, "spa/nc", "bob gas por"},
		// Rule 2: Mid-Atlantic Ocean - Cairo for fleets.
		{judge.Fleet, "cai", "cyr eas lev mid"},
		{judge.Fleet, "mid", "bob cai cas eng iri nat por spa/sc wes"},
		{judge.Army, "cai", "cyr lev"},
		// Rule 3: the canals.
		{judge.Fleet, "con", "aeg ang bla bul mac/ec smy"},
		{judge.Fleet, "den", "bal hel kie nth ska swe"},
		{judge.Fleet, "kie", "bal ber den hel net"},
		{judge.Fleet, "swe", "bal den fin gob nwy ska"},
		// The split coasts.
		{judge.Fleet, "rom/wc", "nap tus tyn"},
		{judge.Fleet, "rom/ec", "adr apu ven"},
		{judge.Fleet, "mac/wc", "adr bos gre ion"},
		{judge.Fleet, "mac/ec", "aeg con gre"},
		{judge.Fleet, "stp/nc", "bar nwy"},
		{judge.Fleet, "stp/sc", "fin gob lvn"},
		{judge.Army, "rom", "apu mil nap tus ven"},
		{judge.Army, "mac", "bos bul con gre ser"},
		{judge.Army, "stp", "bye fin lvn mos nwy"},
		// Crowded places.
		{judge.Army, "mun", "ber boh fra kie swa swi tyr"},
		{judge.Army, "swi", "bur mar mil mun pie swa tyr"},
		{judge.Fleet, "ion", "adr aeg apu cyr eas gre mac/wc nap trp tun tyn"},
		{judge.Fleet, "nth", "bel den edi eng hel lon net nrg nwy ska yor"},
	})
	for _, c := range []struct{ name, id string }{
		{"Angora", "ang"}, {"Ankara", "ang"}, {"Netherlands", "net"}, {"Holland", "net"},
		{"Frankfurt", "fra"}, {"Byelorussia", "bye"}, {"Tripolitania", "trp"}, {"mao", "mid"},
		{"Helgoland Bight", "hel"}, {"Bay of Biscay", "bob"}, {"St Petersburg", "stp"},
	} {
		if got := m.LocName(locOf(t, m, c.name)); got != c.id {
			t.Errorf("Lookup(%q) = %s, want %s", c.name, got, c.id)
		}
	}
}
