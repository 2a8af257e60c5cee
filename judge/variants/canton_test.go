package variants_test

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestCanton checks the Canton map against its published figures. The
// rules (Diplomatic Pouch, "The Canton Variant"; vDiplomacy variant 108)
// give 36 centres, 23 of them home and 13 neutral, victory at 19, and the
// starting units; vDiplomacy's install.php lists 89 territories, 8 of them
// the coasts of Bulgaria, Canton, Damascus and Siam, so 81 provinces (22
// seas, 18 inland), and 236 borders: 109 that armies cross and 152 that
// fleets cross (25 both). godip's canton.go has the same adjacency.
func TestCanton(t *testing.T) {
	m, err := variants.Load("canton")
	if err != nil {
		t.Fatal(err)
	}
	// Formosa and the Philippines are islands; so are Java and Sumatra
	// on this map, which give them no land border.
	checkMap(t, m, mapQuirks{islands: []string{"for", "phi", "jav", "sum"}})
	checkFigures(t, m, mapFigures{
		Provinces: 81, Inland: 18, Seas: 22, Coastal: 41, SplitCoasts: 8,
		Centres: 36, HomeCentres: 23,
		ArmyEdges: 109, FleetEdges: 152,
		Powers: 7, Victory: 19, StartUnits: 23,
	})
	checkPowers(t, m, "Britain British B", "China Chinese C", "France French F", "Holland Dutch H",
		"Japan Japanese J", "Russia Russian R", "Turkey Turkish T")
	checkStart(t, m,
		"Britain F mad", "Britain A cal", "Britain A del",
		"China F pek", "China A sha", "China A chu", "China A tib",
		"France F sai", "France A han", "France A hue",
		"Holland F bor", "Holland F sum", "Holland F jav",
		"Japan F sas", "Japan F tok", "Japan A kyo",
		"Russia F kha", "Russia F sev", "Russia A irk", "Russia A mos",
		"Turkey F con", "Turkey A dam", "Turkey A bag")
	if m.Title != "Canton" || m.StartYear != 1901 || m.DynamicVictory || m.Construction {
		t.Errorf("title %q, start %d, dynamic %v, construction %v", m.Title, m.StartYear, m.DynamicVictory, m.Construction)
	}
	for _, n := range []string{"Canton", "CANTON"} {
		if m2, err := variants.Load(n); err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want %p", n, m2, err, m)
		}
	}

	// Home countries as vDiplomacy colours them; centres as published.
	homes := map[string]struct{ centres, others string }{
		"Britain": {"cal del mad", "asm bom kas"},
		"China":   {"chu pek sha tib", "can kan mon sin yun"},
		"France":  {"han hue sai", "lao"},
		"Holland": {"bor jav sum", ""},
		"Japan":   {"kyo sas tok", "aki shi yes"},
		"Russia":  {"irk kha mos sev", "amu kaz mar sib tom tur"},
		"Turkey":  {"bag con dam", "ara egy"},
	}
	checkHomes(t, m, homes)
	var neutral []judge.Loc
	for _, c := range m.Centers() {
		if m.Locs[c].Home == judge.NoPower {
			neutral = append(neutral, c)
		}
	}
	if want := "afg bal bur cam for hko kor mal man per phi rum sia"; strings.Join(names(m, neutral), " ") != want {
		t.Errorf("neutral centres %v, want %s", neutral, want)
	}

	// The canals, the split coasts and some crowded places, whole.
	checkNeighbours(t, m, []neighbours{
		{judge.Fleet, "con", "arm bla bul/ec bul/sc dam/wc med"},
		{judge.Fleet, "egy", "dam/sc dam/wc med red"},
		{judge.Fleet, "bul/ec", "bla con rum"},
		{judge.Fleet, "bul/sc", "con med"},
		{judge.Fleet, "dam/wc", "con egy med"},
		{judge.Fleet, "dam/sc", "ara egy red"},
		{judge.Fleet, "sia/wc", "bur gom mal"},
		{judge.Fleet, "sia/ec", "cam gos mal"},
		{judge.Fleet, "can/sc", "han hko scs"},
		{judge.Fleet, "can/ec", "ecs hko scs sha"},
		{judge.Fleet, "scs", "can/ec can/sc cel ecs for han hko hue kar phi pse sar"},
		{judge.Fleet, "jse", "ban bor cel gom gos jav kar mal sio sum"},
		{judge.Fleet, "for", "ecs pse scs"},
		{judge.Army, "con", "arm bag bul dam per"},
		{judge.Army, "sin", "afg kan kas mon tib tom tur"},
		{judge.Army, "sia", "bur cam lao mal"},
		{judge.Army, "can", "chu han hko sha yun"},
		{judge.Army, "kaz", "arm mos sev sib tom tur"},
		{judge.Army, "for", ""},
	})
	for _, c := range []struct{ name, id string }{
		{"Hong Kong", "hko"}, {"Maritime Province", "mar"}, {"Primorsky Krai", "mar"},
		{"Yesso", "yes"}, {"Yeso", "yes"}, {"Chungking", "chu"}, {"Kirghiz", "kaz"},
		{"Mediterranean Sea", "med"}, {"Sea of Okhotsk", "soo"},
	} {
		if got := m.LocName(locOf(t, m, c.name)); got != c.id {
			t.Errorf("Lookup(%q) = %s, want %s", c.name, got, c.id)
		}
	}
	if got := m.FullName(locOf(t, m, "sia/wc")); got != "Siam (west coast)" {
		t.Errorf("FullName(sia/wc) = %q", got)
	}
}
