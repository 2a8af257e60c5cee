package variants_test

// Youngstown Redux against its published figures. The sources:
//
//   - godip: github.com/zond/godip, variants/youngstownredux (the graph of
//     provinces and borders, the starting units and centres, SoloWinner 28,
//     and its tests of Hebei, the boxes and Mogadishu);
//   - vDiplomacy: variants/YoungstownRedux (rules.html: "While there are 81
//     SCs only 28 SCs ... are needed to win", and the starting position).
//
// The province and edge counts are those of godip's graph once each fleet
// border to a split province names the coast (see the map file's header).

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

func youngstown(t *testing.T) *judge.Map {
	t.Helper()
	m, err := variants.Load("youngstown-redux")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestYoungstownReduxLoad(t *testing.T) {
	m := youngstown(t)
	for _, n := range []string{"Youngstown Redux", "youngstownredux", "YOUNGSTOWN_REDUX"} {
		if m2, err := variants.Load(n); err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want the cached map %p", n, m2, err, m)
		}
	}
	if !slices.Contains(variants.Names(), "youngstown-redux") {
		t.Errorf("Names() = %v", variants.Names())
	}
	if m.Title != "Youngstown Redux" || m.VictoryCenters != 28 || m.StartYear != 1901 || m.DynamicVictory || m.Construction {
		t.Errorf("title %q victory %d start %d dynamic %v construction %v",
			m.Title, m.VictoryCenters, m.StartYear, m.DynamicVictory, m.Construction)
	}
}

func TestYoungstownReduxCounts(t *testing.T) {
	m := youngstown(t)
	var sea, land, coast, centres, homeCentres, armyEdges, fleetEdges int
	var split []string
	for _, p := range m.Provinces() {
		li := m.Locs[p]
		switch li.Kind {
		case judge.Sea:
			sea++
		case judge.Land:
			land++
		case judge.Coast:
			coast++
		}
		if li.Center {
			centres++
			if li.Home != judge.NoPower {
				homeCentres++
			}
		}
		if len(li.Coasts) > 0 {
			split = append(split, li.Name)
		}
		armyEdges += len(m.Neighbours(nil, judge.Army, p))
	}
	for l := range m.Locs {
		fleetEdges += len(m.Neighbours(nil, judge.Fleet, judge.Loc(l)))
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"provinces", len(m.Provinces()), 183},
		{"seas, the eight boxes included", sea, 49},
		{"inland provinces", land, 38},
		{"coastal provinces", coast, 96},
		{"Locs", m.NumLocs(), 183 + 12},
		{"supply centres", centres, 81},
		{"home centres", homeCentres, 44},
		{"starting units", len(m.StartUnits), 44},
		{"powers", len(m.Powers), 10},
		// Each border counted once per direction.
		{"army edges", armyEdges, 534},
		{"fleet edges", fleetEdges, 694},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.what, c.got, c.want)
		}
	}
	slices.Sort(split)
	if want := []string{"ara", "heb", "lev", "spa", "stp", "tha"}; !slices.Equal(split, want) {
		t.Errorf("split provinces %v, want %v", split, want)
	}
	// The islands, which armies reach by convoy only.
	want := []string{"bor", "cey", "for", "ire", "jav", "phi", "sap", "sum"}
	if got := islands(m); !slices.Equal(got, want) {
		t.Errorf("islands %v, want %v", got, want)
	}
	checkMap(t, m, mapQuirks{islands: want})
}

// islands lists the coastal provinces no army can march to: an army
// reaches them only by convoy.
func islands(m *judge.Map) []string {
	var out []string
	for _, p := range m.Provinces() {
		if m.Locs[p].Kind == judge.Coast && len(m.Neighbours(nil, judge.Army, p)) == 0 {
			out = append(out, m.LocName(p))
		}
	}
	slices.Sort(out)
	return out
}

func TestYoungstownReduxPowers(t *testing.T) {
	m := youngstown(t)
	want := []judge.PowerInfo{
		{Name: "Austria", Adjective: "Austrian", Letter: 'A'},
		{Name: "Britain", Adjective: "British", Letter: 'B'},
		{Name: "China", Adjective: "Chinese", Letter: 'C'},
		{Name: "France", Adjective: "French", Letter: 'F'},
		{Name: "Germany", Adjective: "German", Letter: 'G'},
		{Name: "India", Adjective: "Indian", Letter: 'N'}, // I is Italy's
		{Name: "Italy", Adjective: "Italian", Letter: 'I'},
		{Name: "Japan", Adjective: "Japanese", Letter: 'J'},
		{Name: "Russia", Adjective: "Russian", Letter: 'R'},
		{Name: "Turkey", Adjective: "Turkish", Letter: 'T'},
	}
	if !slices.Equal(m.Powers, want) {
		t.Errorf("powers %v, want %v", m.Powers, want)
	}
	for _, s := range []string{"N", "n", "India", "Indian"} {
		if p, ok := m.PowerByName(s); !ok || m.PowerName(p) != "India" {
			t.Errorf("PowerByName(%q) = %v, %v; want India", s, p, ok)
		}
	}
}

func TestYoungstownReduxHomeCentres(t *testing.T) {
	m := youngstown(t)
	homes := map[string]string{
		"Austria": "bud sar tes vnn",
		"Britain": "ade edi lie lon sig",
		"China":   "gua pek sha wuh",
		"France":  "bre mar par sai",
		"Germany": "ber col kie mun tsi",
		"India":   "bom cal del mad",
		"Italy":   "mil mog nap rom",
		"Japan":   "kyo osa sap tok",
		"Russia":  "mos oms sev stp vla war",
		"Turkey":  "ank bag con mec",
	}
	for name, want := range homes {
		p, ok := m.PowerByName(name)
		if !ok {
			t.Fatalf("no power %s", name)
		}
		if got := names(m, m.HomeCenters(nil, p)); !slices.Equal(got, strings.Fields(want)) {
			t.Errorf("%s home centres %v, want %s", name, got, want)
		}
	}
	var neutral []string
	for _, c := range m.Centers() {
		if m.Locs[c].Home == judge.NoPower {
			neutral = append(neutral, m.LocName(c))
		}
	}
	slices.Sort(neutral)
	want := strings.Fields(`afg alb alg bel bor bul bum cam cey den egy eth for gre hol ire jav kar
		kor man mon mor nay oma per phi por rum ser spa sud swe swi tha trp vit xin`)
	if !slices.Equal(neutral, want) {
		t.Errorf("neutral centres\n got %v\nwant %v", neutral, want)
	}
}

func TestYoungstownReduxStartPosition(t *testing.T) {
	m := youngstown(t)
	pos := judge.StartPosition(m)
	if pos.Phase != (judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement}) {
		t.Errorf("phase %+v", pos.Phase)
	}
	want := map[string]string{
		"bud": "Austria A", "tes": "Austria A", "vnn": "Austria A", "sar": "Austria F",
		"ade": "Britain F", "edi": "Britain F", "lie": "Britain F", "lon": "Britain F", "sig": "Britain F",
		"gua": "China A", "pek": "China A", "wuh": "China A", "sha": "China F",
		"mar": "France A", "par": "France A", "bre": "France F", "sai": "France F",
		"ber": "Germany A", "col": "Germany A", "mun": "Germany A", "kie": "Germany F", "tsi": "Germany F",
		"cal": "India A", "del": "India A", "bom": "India F", "mad": "India F",
		"mil": "Italy A", "rom": "Italy A", "mog": "Italy F", "nap": "Italy F",
		"kyo": "Japan A", "osa": "Japan F", "sap": "Japan F", "tok": "Japan F",
		"mos": "Russia A", "oms": "Russia A", "war": "Russia A", "sev": "Russia F", "stp/sc": "Russia F", "vla": "Russia F",
		"bag": "Turkey A", "con": "Turkey A", "mec": "Turkey A", "ank": "Turkey F",
	}
	n := 0
	for _, p := range m.Provinces() {
		u, ok := pos.UnitAt(p)
		if !ok {
			continue
		}
		n++
		if got := m.PowerName(u.Power) + " " + u.Type.String(); want[m.LocName(u.Loc)] != got {
			t.Errorf("unit at %s: %s, want %q", m.LocName(u.Loc), got, want[m.LocName(u.Loc)])
		}
	}
	if n != len(want) {
		t.Errorf("%d units, want %d", n, len(want))
	}
	counts := []int{4, 5, 4, 4, 5, 4, 4, 4, 6, 4} // in power order, Austria to Turkey
	if got := pos.UnitCount(); !slices.Equal(got, counts) {
		t.Errorf("unit counts %v, want %v", got, counts)
	}
	if got := pos.CenterCount(); !slices.Equal(got, counts) {
		t.Errorf("centre counts %v, want %v", got, counts)
	}
}

// TestYoungstownReduxAdjacency checks what godip's own tests of the
// variant check, and the places where the board is unusual.
func TestYoungstownReduxAdjacency(t *testing.T) {
	m := youngstown(t)
	adjacent := func(kind string, a, b string) bool {
		la, lb := locOf(t, m, a), locOf(t, m, b)
		if kind == "army" {
			return m.ArmyAdjacent(la, lb)
		}
		return m.FleetAdjacent(la, lb)
	}
	for _, c := range []struct {
		kind, a, b string
		want       bool
	}{
		// Hebei's south coast does not reach the Yellow Sea; its north coast does.
		{"fleet", "heb/sc", "yel", false},
		{"fleet", "heb/nc", "yel", true},
		{"fleet", "heb/sc", "ecs", true},
		// Mogadishu and Ethiopia share a border by land only.
		{"fleet", "mog", "eth", false},
		{"army", "mog", "eth", true},
		// The boxes: each meets those in its row and column.
		{"fleet", "bxa", "bxb", true}, {"fleet", "bxa", "bxc", true}, {"fleet", "bxa", "bxd", true},
		{"fleet", "bxa", "bxe", false}, {"fleet", "bxa", "npo", false},
		{"fleet", "bxb", "bxe", true}, {"fleet", "bxb", "bxg", false},
		{"fleet", "bxc", "bxf", true}, {"fleet", "bxc", "bxg", true}, {"fleet", "bxc", "bxh", true},
		{"fleet", "mid", "bxb", true}, {"fleet", "nao", "bxa", true}, {"fleet", "npo", "bxd", true},
		{"fleet", "spo", "bxe", true}, {"fleet", "tim", "bxf", true}, {"fleet", "wio", "bxg", true},
		{"fleet", "eio", "bxh", true}, {"fleet", "sao", "bxc", true},
		// Tsingtao, Germany's Chinese port, touches both coasts of Hebei.
		{"fleet", "tsi", "heb/nc", true}, {"fleet", "tsi", "heb/sc", true}, {"army", "tsi", "heb", true},
		{"army", "tsi", "sha", false},
		// Inland Switzerland is a centre armies can enter.
		{"army", "swi", "mar", true}, {"army", "swi", "mun", true},
	} {
		if got := adjacent(c.kind, c.a, c.b); got != c.want {
			t.Errorf("%s %s-%s adjacent %v, want %v", c.kind, c.a, c.b, got, c.want)
		}
	}
	checkNeighbours(t, m, []neighbours{
		{judge.Fleet, "bxc", "bxa bxb bxf bxg bxh sao"},
		{judge.Fleet, "bxf", "bxc bxd bxe bxg bxh tim"},
		{judge.Fleet, "stp/nc", "bar nay"},
		{judge.Fleet, "tha/wc", "and bum sig"},
		{judge.Fleet, "lev/sc", "egy mec red"},
		{judge.Fleet, "ara/nc", "bag oma psg"},
		{judge.Army, "tib", "afg bum cal del kas nep qin tur xin yun"},
		{judge.Army, "ara", "ade bag lev mec oma yem"},
	})
}

// TestYoungstownReduxFirstYearBuild checks that every power has a neutral
// centre within two moves of one of its starting units, so that it can
// take one by Fall 1901 and build that Winter.
func TestYoungstownReduxFirstYearBuild(t *testing.T) {
	m := youngstown(t)
	for p := range m.Powers {
		var near []string
		for _, u := range m.StartUnits {
			if u.Power != judge.Power(p) {
				continue
			}
			for _, one := range m.Neighbours(nil, u.Type, u.Loc) {
				for _, l := range append(m.Neighbours(nil, u.Type, one), one) {
					if c := m.Province(l); m.Locs[c].Center && m.Locs[c].Home == judge.NoPower {
						near = append(near, m.LocName(c))
					}
				}
			}
		}
		if len(near) == 0 {
			t.Errorf("%s can reach no neutral centre in 1901", m.PowerName(judge.Power(p)))
		}
	}
}
