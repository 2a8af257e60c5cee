package variants_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestNorthSeaWars checks north-sea-wars.map against webDiplomacy's
// definition of the variant (variants/NorthSeaWars: install.php,
// classes/adjudicatorPreGame.php, rules.html), which godip's graph
// matches. The figures are counted there: 31 territories that are not
// coasts (7 seas, 5 land; the inset's second Central North Sea, which
// borders nothing, left out), Jutland split into 2 coasts; 15 with a
// centre, 2 of them each power's; 77 borders, of which 56 fleets cross and
// 36 armies cross, the 3 from the Central North Sea to the trade centres
// one-way; 8 centres win. The published calendar starts in year 0, and
// so does the map.
func TestNorthSeaWars(t *testing.T) {
	m := loadVariant(t, "north-sea-wars")
	for _, n := range []string{"North Sea Wars", "NorthSeaWars", "northseawars"} {
		if m2, err := variants.Load(n); err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want %p", n, m2, err, m)
		}
	}
	if m.Title != "North Sea Wars" || m.DynamicVictory || m.Construction {
		t.Errorf("title %q, dynamic victory %v, construction %v", m.Title, m.DynamicVictory, m.Construction)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 31, seas: 7, inland: 5, coastal: 19,
		splitProvinces: 1, coasts: 2,
		centres: 15, homeCentres: 8,
		armyMoves: 2 * 36, fleetMoves: 2*56 - 3,
		powers: 4, units: 8, victory: 8, start: 0,
	})
	checkPowerList(t, m, "Britons Briton B", "Romans Roman R", "Frysians Frysian F", "Norse Norse N")
	checkHomeCentres(t, m, map[string]string{
		"Britons":  "cym sbr",
		"Romans":   "ges men",
		"Frysians": "ams fri",
		"Norse":    "got sor",
		"":         "ala bat gra iro lim mag woo",
	})
	checkStartUnits(t, m, map[string]string{
		"Britons":  "A cym F sbr",
		"Romans":   "A ges F men",
		"Frysians": "A ams F fri",
		"Norse":    "A got F sor",
	})

	// Every edge goes both ways but the three the map declares one-way.
	checkMap(t, m, mapQuirks{})
	checkFleetEdgesAreLandBorders(t, m)
	if got := islands(m); len(got) > 0 {
		t.Errorf("islands %v, want none", got)
	}
	// A fleet in the Central North Sea may enter the trade centres; nothing
	// comes back.
	checkMoves(t, m, judge.Fleet, "woo-iro woo-gra iro-gra sea-jut/ec lim-jut/ec lim-jut/wc ams-jut/wc",
		"sea-ams sea-jut/wc ams-jut/ec cym-sbr lns-ska", "cns-woo cns-iro cns-gra")
	checkMoves(t, m, judge.Army, "woo-iro woo-gra iro-gra sea-ams sea-lim sea-jut sea-mag cym-sbr cym-nbr ves-ost",
		"cns-woo woo-lns", "")
	var oneWay []string
	for a := range m.Locs {
		for b := range m.Locs {
			for _, ut := range []judge.UnitType{judge.Army, judge.Fleet} {
				if m.OneWay(ut, judge.Loc(a), judge.Loc(b)) {
					oneWay = append(oneWay, ut.String()+" "+m.LocName(judge.Loc(a))+"-"+m.LocName(judge.Loc(b)))
				}
			}
		}
	}
	if want := []string{"F cns-gra", "F cns-iro", "F cns-woo"}; !slices.Equal(oneWay, want) {
		t.Errorf("declared one-way %q, want %q", oneWay, want)
	}
	checkNeighbourList(t, m, map[string]string{
		"F woo":    "gra iro",
		"A woo":    "gra iro",
		"F gra":    "iro woo",
		"F iro":    "gra woo",
		"F cns":    "ens gra iro lns uns wns woo",
		"F jut/ec": "lim sea",
		"F jut/wc": "ams ens lim",
		"A jut":    "ams lim sea",
		"F sea":    "got jut/ec lim ska",
		"A cym":    "ali nbr sbr",
	})
	if m.Locs[locOf(t, m, "cym")].Kind != judge.Land {
		t.Error("Cymru is not inland")
	}

	// Every power can reach a neutral centre in the first year, the
	// trade centres excepted (the author made them out of reach then).
	targets := firstYearTargets(m)
	for _, p := range m.Powers {
		got := targets[p.Name]
		if len(got) == 0 {
			t.Errorf("%s can take no neutral centre in the first year", p.Name)
		}
		for _, trade := range []string{"woo", "iro", "gra"} {
			if slices.Contains(got, trade) {
				t.Errorf("%s can reach %s in the first year", p.Name, trade)
			}
		}
	}
}
