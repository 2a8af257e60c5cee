package variants_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestMilan checks the Milan map against John Norris's rules (njudge's
// info.milan) and njudge's map.milan: the standard board with Savoy in
// place of Piedmont, Milan new between Savoy and Venetia, Tuscany part of
// Rome, Venice's centre moved to Milan, Italy's army in Milan. Provinces:
// 75 (the standard 75, less Piedmont and Tuscany, with Savoy and Milan);
// borders as counted on njudge's map.milan.
func TestMilan(t *testing.T) {
	m := loadVariant(t, "milan")
	checkMap(t, m, mapQuirks{})
	checkFigures(t, m, mapFigures{
		Provinces: 75, Inland: 15, Seas: 19, Coastal: 41, SplitCoasts: 6,
		Centres: 34, HomeCentres: 22,
		ArmyEdges: 112, FleetEdges: 139,
		Powers: 7, Victory: 18, StartUnits: 22,
	})
	checkPowers(t, m, "Austria Austrian A", "England English E", "France French F", "Germany German G",
		"Italy Italian I", "Russia Russian R", "Turkey Turkish T")
	checkStart(t, m,
		"Austria A vie", "Austria A bud", "Austria F tri",
		"England F lon", "England F edi", "England A lvp",
		"France F bre", "France A par", "France A mar",
		"Germany F kie", "Germany A ber", "Germany A mun",
		"Italy F nap", "Italy A rom", "Italy A mil",
		"Russia A war", "Russia A mos", "Russia F sev", "Russia F stp/sc",
		"Turkey F ank", "Turkey A con", "Turkey A smy")
	if m.Title != "Milan" || m.StartYear != 1901 {
		t.Errorf("title %q, start %d", m.Title, m.StartYear)
	}
	checkHomes(t, m, map[string]struct{ centres, others string }{
		"Italy":   {"mil nap rom", "apu sav ven"},
		"Austria": {"bud tri vie", "boh gal tyr"},
	})
	checkNeighbours(t, m, []neighbours{
		{judge.Army, "mil", "rom sav tyr ven"},
		{judge.Army, "sav", "bur mar mil rom"},
		{judge.Army, "rom", "apu mil nap sav ven"},
		{judge.Army, "ven", "apu mil rom tri tyr"},
		{judge.Army, "tyr", "boh mil mun tri ven vie"},
		{judge.Army, "bur", "bel gas mar mun par pic ruh sav"},
		{judge.Fleet, "rom", "gol nap sav tys"},
		{judge.Fleet, "sav", "gol mar rom"},
		{judge.Fleet, "gol", "mar rom sav spa/sc tys wes"},
		{judge.Fleet, "ven", "adr apu tri"},
		{judge.Fleet, "mil", ""},
	})
	checkLookups(t, m, map[string]string{
		"Venetia": "ven",
		"Venice":  "ven",
		"Savoy":   "sav",
		"Milan":   "mil",
	})
	if _, ok := m.Lookup("pie"); ok {
		t.Error("Piedmont is still on the map")
	}

	// Away from northern Italy the board is the standard one, edge for edge.
	std := loadVariant(t, "standard")
	changed := []string{"pie", "tus", "ven", "rom", "mil", "sav"}
	for a := range std.Locs {
		for b := range std.Locs {
			la, lb := judge.Loc(a), judge.Loc(b)
			na, nb := std.LocName(std.Province(la)), std.LocName(std.Province(lb))
			if slices.Contains(changed, na) || slices.Contains(changed, nb) {
				continue
			}
			ma, mb := locOf(t, m, std.LocName(la)), locOf(t, m, std.LocName(lb))
			if m.ArmyAdjacent(ma, mb) != std.ArmyAdjacent(la, lb) || m.FleetAdjacent(ma, mb) != std.FleetAdjacent(la, lb) {
				t.Errorf("%s-%s differs from the standard map", std.LocName(la), std.LocName(lb))
			}
		}
	}
}
