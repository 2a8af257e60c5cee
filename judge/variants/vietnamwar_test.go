package variants_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestVietnamWar checks vietnam-war.map against godip's definition of the
// variant (variants/vietnamwar/vietnamwar.go), the one diplicity plays.
// The figures are counted there: 53 provinces (10 seas, 23 that no fleet
// enters), Xuyen and Mekong split into 2 coasts each; 25 centres, 3 of
// them each power's; 92 borders that armies cross and 65 that fleets cross
// (godip's extra links from a sea to a split province itself, which it
// keeps for convoys, are not borders); 15 centres win, from Spring 1955.
func TestVietnamWar(t *testing.T) {
	m := loadVariant(t, "vietnam-war")
	for _, n := range []string{"Vietnam War", "vietnamwar", "VIETNAM-WAR"} {
		if m2, err := variants.Load(n); err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want %p", n, m2, err, m)
		}
	}
	if m.Title != "Vietnam War" || m.DynamicVictory || m.Construction {
		t.Errorf("title %q, dynamic victory %v, construction %v", m.Title, m.DynamicVictory, m.Construction)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 53, seas: 10, inland: 23, coastal: 20,
		splitProvinces: 2, coasts: 4,
		centres: 25, homeCentres: 15,
		armyMoves: 2 * 92, fleetMoves: 2 * 65,
		powers: 5, units: 15, victory: 15, start: 1955,
	})
	checkPowerList(t, m, "North_Vietnam North_Vietnamese N", "Thailand Thai T",
		"South_Vietnam South_Vietnamese S", "Cambodia Cambodian C", "Laos Laotian L")
	checkHomeCentres(t, m, map[string]string{
		"North Vietnam": "han thh thn",
		"Thailand":      "ban loe pat",
		"South Vietnam": "cam eas sag",
		"Cambodia":      "ang meo pre",
		"Laos":          "nah pak vie",
		"":              "cev chi hai hue kha kul nak nkd nol vir",
	})
	checkStartUnits(t, m, map[string]string{
		"North Vietnam": "F han A thh A thn",
		"Thailand":      "F pat A ban A loe",
		"South Vietnam": "F cam F eas A sag",
		"Cambodia":      "F pre A ang A meo",
		"Laos":          "A nah A pak A vie",
	})

	// Pakxe and Ubon are coastal on the Mekong river only.
	checkMap(t, m, mapQuirks{islands: []string{"hai"}, rivers: []string{"pak", "ubo"}})
	checkFleetEdgesAreLandBorders(t, m)
	if got := islands(m); !slices.Equal(got, []string{"hai"}) {
		t.Errorf("islands %v, want hai", got)
	}

	// The river: from Xuyen's east coast up Mekong's river coast to Pakxe
	// and Ubon, and nowhere else.
	checkNeighbourList(t, m, map[string]string{
		"F ubo":    "pak",
		"F pak":    "meo/ec ubo",
		"F meo/ec": "pak xuy/ec",
		"F meo/wc": "cgo pre xuy/wc",
		"F xuy/ec": "cam med meo/ec sag",
		"F xuy/wc": "cam cgo meo/wc soa",
		"A meo":    "kul pak phn pre tay ton vir xuy",
		"A xuy":    "cam meo sag tay",
		"F hai":    "coa non scs son",
		"F cgo":    "kha meo/wc noa pre soa stc ton xuy/wc",
		"A pak":    "att kul meo phh ubo vir",
	})
	if got := m.FullName(locOf(t, m, "meo/ec")); got != "Mekong (river)" {
		t.Errorf("meo/ec is %q, want Mekong (river)", got)
	}
	checkMoves(t, m, judge.Fleet, "han-thh thn-han vin-hue eas-pha sag-pha ton-pat syk-ban kha-syk",
		"meo/ec-meo/wc xuy/ec-xuy/wc pak-xuy/ec ubo-meo/ec meo/ec-cgo", "")
	checkMoves(t, m, judge.Army, "nol-han nov-thn att-eas phh-vin", "hai-coa han-nov pak-xuy", "")

	// Every power can take a neutral centre in 1955.
	targets := firstYearTargets(m)
	for _, p := range m.Powers {
		if len(targets[p.Name]) == 0 {
			t.Errorf("%s can take no neutral centre in 1955", p.Name)
		}
	}
}
