package variants_test

import (
	"path/filepath"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestLoeb9 checks loeb9.map against njudge's Loeb9 (data/map.loeb9,
// seed.loeb9 and info.loeb9): 87 provinces with Switzerland, which no
// unit enters, 20 seas (the Arctic Ocean among them) and 17 inland;
// Bulgaria and St Petersburg with two coasts each; 38 centres, 28 of them
// home centres and ten neutral (Ireland, Prussia and Silesia among them);
// 126 borders that armies cross and 160 that fleets cross; nine powers,
// 28 units, 20 centres to win. checkBorderList compares the map with
// njudge's border by border.
func TestLoeb9(t *testing.T) {
	m := loadVariant(t, "loeb9")
	if m.Title != "Loeb9" || m.DynamicVictory || m.Builds != judge.BuildHome || m.VictoryLead != 0 {
		t.Errorf("title %q, dynamic victory %v, builds %v, lead %d", m.Title, m.DynamicVictory, m.Builds, m.VictoryLead)
	}
	checkPublishedFigures(t, m, publishedFigures{
		provinces: 87, seas: 20, inland: 17, coastal: 50,
		splitProvinces: 2, coasts: 4,
		centres: 38, homeCentres: 28,
		armyMoves: 2 * 126, fleetMoves: 2 * 160,
		powers: 9, units: 28, victory: 20, start: 1901,
	})
	checkPowerList(t, m, "Austria Austrian A", "England English E", "France French F", "Germany German G",
		"Italy Italian I", "Norway Norwegian N", "Russia Russian R", "Spain Spanish S", "Turkey Turkish T")
	checkHomeCentres(t, m, map[string]string{
		"":        "bel bul gre hol ire pru rum ser sil tun",
		"Austria": "bud tri vie",
		"England": "edi lon lvp",
		"France":  "bre mar par",
		"Germany": "ber kie mun",
		"Italy":   "nap rom ven",
		"Norway":  "den nwy swe",
		"Russia":  "mos sev stp war",
		"Spain":   "cor mad por",
		"Turkey":  "ank con smy",
	})
	checkStartUnits(t, m, map[string]string{
		"Austria": "A bud A vie F tri",
		"England": "A lvp F edi F lon",
		"France":  "A mar A par F bre",
		"Germany": "A ber A mun F kie",
		"Italy":   "A rom A ven F nap",
		"Norway":  "A nwy F den F swe",
		"Russia":  "A mos A war F sev F stp/nc",
		"Spain":   "A cor A mad F por",
		"Turkey":  "A con A smy F ank",
	})
	// Iceland, Ireland, Corsica and Sardinia: armies land by convoy only.
	checkMap(t, m, mapQuirks{islands: []string{"ice", "ire", "crs", "sar"}})
	checkBorderList(t, m, "loeb9", filepath.Join("testdata", "njudge", "loeb9.txt"))

	// The straits are weak crossings for armies, both ways, and no others;
	// the Arctic Ocean is closed in the Fall, and nothing else ever is.
	for _, p := range m.Provinces() {
		for _, q := range m.Provinces() {
			want := false
			switch m.LocName(p) + "-" + m.LocName(q) {
			case "cor-naf", "naf-cor", "nap-sic", "sic-nap":
				want = true
			}
			if got := m.WeakCrossing(p, q); got != want {
				t.Errorf("WeakCrossing(%s, %s) = %v", m.LocName(p), m.LocName(q), got)
			}
		}
		want := judge.Season(0)
		if m.LocName(p) == "arc" {
			want = judge.Fall
		}
		if got := m.Locs[p].ClosedIn; got != want {
			t.Errorf("%s closed in %v, want %v", m.LocName(p), got, want)
		}
	}
	checkMoves(t, m, judge.Fleet, "nao-arc nwg-arc bar-arc sib-arc", "nap-sic cor-naf", "")
	for _, c := range []struct{ name, id string }{
		{"Arctic Ocean", "arc"}, {"Kazakz", "kaz"}, {"Cordoba", "cor"}, {"Navarre", "nav"}, {"Catalonia", "cat"},
		{"Gulf of Lyon", "gol"}, {"lyo", "gol"}, {"Norway", "nwy"}, {"Sicily", "sic"},
	} {
		if got := m.LocName(locOf(t, m, c.name)); got != c.id {
			t.Errorf("Lookup(%q) = %s, want %s", c.name, got, c.id)
		}
	}
}
