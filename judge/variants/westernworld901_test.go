package variants_test

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestWesternWorld901 checks western-world-901.map against godip's
// variants/westernworld901 (its graph, start and rules text). The figures
// are counted on godip's graph: 167 nodes, 157 provinces once the ten
// coasts of Saamiland, Veletia, Jorvik, Rome and Pechenega are set apart
// (28 seas, 50 inland, 79 coastal); 64 centres, 36 of them the nine powers'
// four homes each and 28 neutral, 33 to win; 277 borders armies cross and
// 251 fleets cross (godip's 438 land and 116 coast links, and its 398 sea
// links less the 12 that also name a split province itself, halved); 36
// units of the powers and a neutral army in each of the 28 neutral centres.
func TestWesternWorld901(t *testing.T) {
	m, err := variants.Load("western-world-901")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Western World 901", "westernworld901"} {
		if m2, err := variants.Load(n); err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want %p", n, m2, err, m)
		}
	}
	// Corsica, Crete, Cyprus, Sardinia and Sicily have no land border.
	checkMap(t, m, mapQuirks{islands: []string{"cos", "cre", "cyp", "sad", "sic"}})
	checkFigures(t, m, mapFigures{
		Provinces: 157, Inland: 50, Seas: 28, Coastal: 79, SplitCoasts: 10,
		Centres: 64, HomeCentres: 36,
		ArmyEdges: 277, FleetEdges: 251,
		Powers: 9, Victory: 33, StartUnits: 64,
	})
	checkPowers(t, m, "Umayyad Emirate Umayyad U", "Principality of Kiev Kievan K", "Kingdom of Denmark Danish D",
		"Khaganate of Khazaria Khazar Z", "West Frankish Kingdom West Frankish W", "Tulunid Emirate Tulunid T",
		"Abbasid Caliphate Abbasid A", "East Frankish Kingdom East Frankish E", "Eastern Roman Empire Eastern Roman R")
	start := []string{
		"Umayyad Emirate F cad", "Umayyad Emirate F val", "Umayyad Emirate A cod", "Umayyad Emirate A snc",
		"Principality of Kiev F nov", "Principality of Kiev A kie", "Principality of Kiev A ros", "Principality of Kiev A smo",
		"Kingdom of Denmark F jel", "Kingdom of Denmark F jor/ec", "Kingdom of Denmark F sca", "Kingdom of Denmark A vik",
		"Khaganate of Khazaria A ati", "Khaganate of Khazaria A bnj", "Khaganate of Khazaria A sak", "Khaganate of Khazaria A tam",
		"West Frankish Kingdom F par", "West Frankish Kingdom A aqt", "West Frankish Kingdom A gas", "West Frankish Kingdom A nar",
		"Tulunid Emirate F bar", "Tulunid Emirate F jer", "Tulunid Emirate A ale", "Tulunid Emirate A dam",
		"Abbasid Caliphate A ard", "Abbasid Caliphate A bag", "Abbasid Caliphate A isf", "Abbasid Caliphate A ira",
		"East Frankish Kingdom F bre", "East Frankish Kingdom A bav", "East Frankish Kingdom A sax", "East Frankish Kingdom A swa",
		"Eastern Roman Empire F att", "Eastern Roman Empire F tar", "Eastern Roman Empire F crn", "Eastern Roman Empire A con",
	}
	const neutral = "arm aze bas bja bor btt bul cos cre cyp dal dub est geo ifr lot low mau mav maz pam pec rom sad sic thr urg wsx"
	for _, c := range strings.Fields(neutral) {
		start = append(start, "Neutral A "+c)
	}
	checkStart(t, m, start...)
	var centres []judge.Loc
	for _, c := range m.Centers() {
		if m.Locs[c].Home == judge.NoPower {
			centres = append(centres, c)
		}
	}
	if got := strings.Join(names(m, centres), " "); got != neutral {
		t.Errorf("neutral centres %s, want %s", got, neutral)
	}
	if m.Title != "Western World 901" || m.StartPhase().String() != "S901M" || m.Builds != judge.BuildAny || !m.NeutralsRebuild {
		t.Errorf("title %q, start %s, builds %s, neutrals rebuild %v", m.Title, m.StartPhase(), m.Builds, m.NeutralsRebuild)
	}
	// godip's links, whole, where the rules say something of them: the
	// five split provinces, the canal of Constantinople, the Khazar Sea
	// that touches no other sea.
	checkNeighbours(t, m, []neighbours{
		{judge.Fleet, "con", "aeg att buc epi ion thr wes"},
		{judge.Army, "con", "att buc epi mac thr"},
		{judge.Fleet, "rom/wc", "lig lom sle tyr"},
		{judge.Fleet, "rom/ec", "aql ill spo"},
		{judge.Army, "rom", "aql lom sle spo"},
		{judge.Fleet, "jor/wc", "cal wal wel"},
		{judge.Fleet, "jor/ec", "cal ice ngs wsx"},
		{judge.Fleet, "vel/nc", "abo jel pom"},
		{judge.Fleet, "vel/wc", "bre jel sgs"},
		{judge.Fleet, "pec/wc", "crn vla wes"},
		{judge.Fleet, "pec/ec", "crn eas tam"},
		{judge.Fleet, "saa/nc", "bja ice now"},
		{judge.Fleet, "saa/sc", "fin kar ula"},
		{judge.Fleet, "nks", "ati bnj der kip sks urg"},
		{judge.Fleet, "sks", "ali ard aze der nks urg"},
		{judge.Army, "lot", "aut fra fri par swa ueg"},
		{judge.Army, "kie", "dre pec sev smo vla vol vya"},
	})
	if got := m.FullName(locOf(t, m, "South Kazar Sea")); got != "South Khazar Sea" {
		t.Errorf("South Kazar Sea names %q", got)
	}
}
