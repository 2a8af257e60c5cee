package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestAmericanEmpire checks the Fall of the American Empire map against
// Vincent Mous's rules (njudge's info.empire) and the graph njudge's,
// DPjudge's and webDiplomacy's maps share: ten powers with Cuba as U and
// Mexico as X, 58 centres (30 home, 28 neutral), victory at 30, Spring
// 1999, the starting units; 161 provinces (49 seas and lakes, 24 inland),
// eight split provinces, 233 army and 339 fleet borders, and the map
// notes' borders.
func TestAmericanEmpire(t *testing.T) {
	m := loadVariant(t, "american-empire")
	// Greenland, Hawaii, Jamaica (Kingston) and Newfoundland are islands;
	// the Mississippi and St Lawrence ports touch no sea, only their river.
	checkMap(t, m, mapQuirks{islands: []string{"gre", "haw", "kin", "new"},
		rivers: []string{"ark", "bea", "ken", "mis", "mon", "ten"}})
	checkFigures(t, m, mapFigures{
		Provinces: 161, Inland: 24, Seas: 49, Coastal: 88, SplitCoasts: 16,
		Centres: 58, HomeCentres: 30,
		ArmyEdges: 233, FleetEdges: 339,
		Powers: 10, Victory: 30, StartUnits: 30,
	})
	checkPowers(t, m, "British Columbia British Columbian B", "California Californian C", "Florida Floridian F",
		"Heartland Heartlander H", "New York Yankee N", "Peru Peruvian P", "Quebec Quebecois Q", "Texas Texan T",
		"Cuba Cuban U", "Mexico Mexican X")
	checkStart(t, m,
		"British Columbia A van", "British Columbia A cgy", "British Columbia F anc",
		"California A sfr", "California F sdi", "California A lan",
		"Florida F mia", "Florida A jac", "Florida A tam",
		"Heartland A chi", "Heartland A min", "Heartland A mil",
		"New York F nyc", "New York A nje", "New York A phi",
		"Peru A bog", "Peru F cal/nc", "Peru F lim",
		"Quebec A mon", "Quebec F que", "Quebec F ung",
		"Texas F hou", "Texas A dal", "Texas A san",
		"Cuba F hav", "Cuba A hol", "Cuba F kin",
		"Mexico A mex", "Mexico F gua", "Mexico A ver")
	if m.Title != "Fall of the American Empire" || m.StartYear != 1999 || m.Builds != judge.BuildHome {
		t.Errorf("title %q, start %d, builds %v", m.Title, m.StartYear, m.Builds)
	}
	checkNeutralCentres(t, m, "ari chh col dom dur geo gre gut haw kan lou man mas mic mis nca nic nle nsc ohi ont ore pan ten ven was wdc yuc")
	// The map notes: Chicago between the Lakes and the Mississippi,
	// Panama's canal, the Hudson, the St Lawrence; no Beaufort Sea in
	// Nunavut, and no army from Cote-Nord to Gaspesie.
	checkNeighbours(t, m, []neighbours{
		{judge.Fleet, "chi", "ind ken lmi mil/ec mis"},
		{judge.Fleet, "pan", "cal/nc cal/sc cob cos/nc cos/sc gmo gop scs"},
		{judge.Fleet, "nyc", "cma mas nje nys"},
		{judge.Fleet, "que", "bea cot gas gsl mon"},
		{judge.Fleet, "nun", "aro bab hub man nwt sol ung"},
		{judge.Army, "cot", "lab que ung"},
		{judge.Army, "nun", "man nwt sas ung"},
		{judge.Army, "upe", "mic mil ont"},
	})
	checkLookups(t, m, map[string]string{
		"Quebec City":     "que",
		"Quebec":          "que",
		"Mexico":          "mex",
		"East Coast":      "esb",
		"Washington D.C.": "wdc",
		"Washington":      "was",
		"Cote-Nord":       "cot",
	})
}
