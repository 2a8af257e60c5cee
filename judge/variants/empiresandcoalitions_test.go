package variants_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestEmpiresAndCoalitions checks empires-and-coalitions.map against
// godip's definition of the board (variants/empiresandcoalitions,
// VaeVictis, version 1), the one diplicity plays. Counted there: 96
// provinces, 22 seas and 19 that no fleet enters, 4 split into 2 coasts
// each; 44 centres, 30 of them home centres, of which 4 start unowned;
// 147 borders that armies cross and 183 that fleets cross; 23 centres
// win, from Spring 1800. checkGodipBorders compares the map with godip's
// graph border by border.
func TestEmpiresAndCoalitions(t *testing.T) {
	m := loadVariant(t, "empires-and-coalitions")
	if m2 := loadVariant(t, "Empires and Coalitions"); m2 != m {
		t.Errorf("Load(Empires and Coalitions) = %p, want %p", m2, m)
	}
	if m.Title != "Empires and Coalitions" || m.DynamicVictory || m.Construction || m.Builds != judge.BuildHome {
		t.Errorf("title %q, dynamic victory %v, construction %v, builds %v", m.Title, m.DynamicVictory, m.Construction, m.Builds)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 96, seas: 22, inland: 19, coastal: 55,
		splitProvinces: 4, coasts: 8,
		centres: 44, homeCentres: 30,
		armyMoves: 2 * 147, fleetMoves: 2 * 183,
		powers: 9, units: 26, victory: 23, start: 1800,
	})
	checkPowerList(t, m, "Austria Austrian A", "Britain British B", "Denmark Danish D", "France French F",
		"Ottoman_Empire Ottoman T", "Prussia Prussian P", "Russia Russian R", "Sicily Sicilian N", "Spain Spanish S")
	checkHomeCentres(t, m, map[string]string{
		"Austria":        "bud ven vie",
		"Britain":        "edi han lie lon",
		"Denmark":        "chr cop swe",
		"France":         "brt lyo mar par",
		"Ottoman Empire": "ang con egy",
		"Prussia":        "ber brl kon",
		"Russia":         "kie mos sev stp",
		"Sicily":         "nap pal pap",
		"Spain":          "mad por val",
		"":               "alg bat bav cis fil hel ice mec mol pie sax tri waa wet",
	})
	checkMap(t, m, mapQuirks{islands: []string{"ice"}})
	checkGodipBorders(t, m, "empires-and-coalitions")

	// The start: every power's units, and the four minor powers' third
	// home centres owned by nobody until taken.
	pos := judge.StartPosition(m)
	want := map[string]string{
		"Austria": "A bud A ven A vie", "Britain": "A han F edi F gib F lon",
		"Denmark": "F chr F cop", "France": "A brt A lyo A par F mar",
		"Ottoman Empire": "A con F ang", "Prussia": "A ber A brl A kon",
		"Russia": "A kie A mos F sev F stp/sc", "Sicily": "A nap F pal", "Spain": "F mad F val",
	}
	got := map[string][]string{}
	for _, p := range m.Provinces() {
		if u, ok := pos.UnitAt(p); ok {
			got[m.PowerName(u.Power)] = append(got[m.PowerName(u.Power)], u.Type.String()+" "+m.LocName(u.Loc))
		}
	}
	for name, units := range want {
		if g := strings.Join(slices.Sorted(slices.Values(got[name])), " "); g != units {
			t.Errorf("%s starts with %q, want %q", name, g, units)
		}
		delete(got, name)
	}
	for name, units := range got {
		t.Errorf("%s starts with %q, want none", name, units)
	}
	for _, id := range []string{"egy", "pap", "por", "swe"} {
		if o := pos.Centers[locOf(t, m, id)]; o != judge.NoPower {
			t.Errorf("%s owned by %s at the start, want nobody", id, m.PowerName(o))
		}
	}
	if o := pos.Centers[locOf(t, m, "lie")]; m.PowerName(o) != "Britain" {
		t.Errorf("Liverpool owned by %s at the start, want Britain", m.PowerName(o))
	}

	checkMoves(t, m, judge.Army, "pal-nap ire-edi cop-swe gib-and", "gib-mor", "")
	checkMoves(t, m, judge.Fleet, "pal-nap ire-edi cop-swe gib-mor", "", "")
}
