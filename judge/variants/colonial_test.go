package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestColonial checks the Colonial map against its rules (njudge's
// info.colonial) and the Moulmein Convention board that DPjudge's
// colonial.map and webDiplomacy's Colonial share: seven powers, 58
// centres (29 home, 29 neutral), victory at 30, Spring 1870, the starting
// units; 119 provinces (27 seas, 32 inland), three split coasts (Arabia,
// Bangkok, Seoul), 170 army and 210 fleet borders; Cebu convoys.
func TestColonial(t *testing.T) {
	m := loadVariant(t, "colonial")
	checkMap(t, m, mapQuirks{islands: []string{"cel", "cey", "for", "jav", "new", "sum"}})
	checkFigures(t, m, mapFigures{
		Provinces: 119, Inland: 32, Seas: 27, Coastal: 60, SplitCoasts: 6,
		Centres: 58, HomeCentres: 29,
		ArmyEdges: 170, FleetEdges: 210,
		Powers: 7, Victory: 30, StartUnits: 29,
	})
	checkPowers(t, m, "Britain British B", "China Chinese C", "France French F", "Holland Dutch H",
		"Japan Japanese J", "Russia Russian R", "Turkey Turkish T")
	checkStart(t, m,
		"Britain A mad", "Britain A del", "Britain F bom", "Britain F hon", "Britain F sin", "Britain F ade",
		"China A pek", "China A can", "China A sik", "China A sha", "China A mac",
		"France A ton", "France F ann", "France A coc",
		"Holland F jav", "Holland A bor", "Holland F sum",
		"Japan A kyo", "Japan F kyu", "Japan F ota", "Japan F tok",
		"Russia A mos", "Russia A vla", "Russia A oms", "Russia F ode", "Russia F por",
		"Turkey A ang", "Turkey F bag", "Turkey F con")
	if m.Title != "Colonial" || m.StartYear != 1870 || m.Builds != judge.BuildHome {
		t.Errorf("title %q, start %d, builds %v", m.Title, m.StartYear, m.Builds)
	}
	checkNeutralCentres(t, m, "ass ban ben bur ceb cey chu dav egy for fus kag kam kar mal may mna mon new per ran rum sak sar seo shi sud tab tas")
	// The Moulmein Convention's land bridges, and Egypt between the seas.
	checkNeighbours(t, m, []neighbours{
		{judge.Army, "ota", "aki sak"},
		{judge.Army, "aki", "kyo ota"},
		{judge.Fleet, "ceb", "dav low luz mid mna sul"},
		{judge.Fleet, "egy", "mec med red sud syr"},
		{judge.Fleet, "sin", "jvs mal"},
	})
	if !m.Convoys(locOf(t, m, "ceb")) || m.Convoys(locOf(t, m, "dav")) {
		t.Error("a fleet in Cebu, and only there among the coasts, convoys")
	}
	checkLookups(t, m, map[string]string{
		"Abyssinia":   "aby",
		"Abysinnia":   "aby",
		"Nanchang":    "nan",
		"hk":          "hon",
		"part":        "por",
		"ubur":        "bur",
		"perg":        "pgf",
		"Port Arthur": "por",
	})
}
