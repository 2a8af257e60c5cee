package judge

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// miniMap is a small valid map. Its lines are numbered 1 to miniLines; the
// error cases append one bad line after it.
const miniMap = `# A tiny map for loader tests.
map "Mini Map" victory 2 start 1950
power England English E
power France  French  F
province lon coast sc England London     "Londinium"   # a comment
province wal coast -  England Wales
province par land  sc France  Paris
province eng sea   -  -       "English Channel" ech
province spa coast sc -       Spain
province bre coast sc France  Brest
coast spa/nc "Spain (north coast)"
coast spa/sc "Spain (south coast)"
army lon: wal
army wal: lon
army par : spa
army spa: par
fleet lon: wal eng
fleet wal: lon eng
fleet eng: lon wal spa/nc spa/sc bre
fleet spa/nc: eng
unit England F lon
unit France A par
fleet bre: eng
fleet spa/sc: eng
province iri sea - - "Irish Sea"
`

// miniRest is miniMap without its first two lines (the map line and the
// comment before it).
var miniRest = miniMap[strings.Index(miniMap, "power"):]

func miniLines() int { return strings.Count(miniMap, "\n") }

func TestParseMapMini(t *testing.T) {
	m, err := ParseMap("mini", []byte(miniMap))
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "mini" || m.Title != "Mini Map" || m.VictoryCenters != 2 || m.StartYear != 1950 {
		t.Errorf("got name %q title %q victory %d start %d", m.Name, m.Title, m.VictoryCenters, m.StartYear)
	}
	if len(m.Powers) != 2 || m.Powers[1] != (PowerInfo{"France", "French", 'F'}) {
		t.Errorf("powers %+v", m.Powers)
	}
	loc := func(s string) Loc {
		t.Helper()
		l, ok := m.Lookup(s)
		if !ok {
			t.Fatalf("Lookup(%q) failed", s)
		}
		return l
	}
	lon, wal, par, eng, spa := loc("lon"), loc("wal"), loc("par"), loc("eng"), loc("spa")
	nc, sc := loc("spa/nc"), loc("spa/sc")
	if loc("Londinium") != lon || loc("english channel") != eng || loc("ECH") != eng {
		t.Error("full names and aliases do not resolve to their province")
	}
	// Provinces first in file order, then coasts.
	if lon != 0 || spa != 4 || nc != 7 || sc != 8 {
		t.Errorf("Loc order: lon %d spa %d spa/nc %d spa/sc %d", lon, spa, nc, sc)
	}
	if li := m.Locs[nc]; li.FullName != "Spain (north coast)" || li.Province != spa {
		t.Errorf("spa/nc: %+v", li)
	}
	if li := m.Locs[lon]; li.Kind != Coast || !li.Center || li.Home != 0 || li.Aliases[0] != "Londinium" {
		t.Errorf("lon: %+v", li)
	}
	if li := m.Locs[wal]; li.Center || li.Home != 0 {
		t.Errorf("wal: %+v", li)
	}
	if li := m.Locs[spa]; li.Home != NoPower || len(li.Coasts) != 2 {
		t.Errorf("spa: %+v", li)
	}
	if !m.ArmyAdjacent(par, spa) || !m.ArmyAdjacent(spa, par) || m.ArmyAdjacent(par, lon) {
		t.Error("army adjacency wrong")
	}
	// Fleets move between exact places: each coast of Spain has its own
	// edges, and Spain itself none.
	if !m.FleetAdjacent(eng, nc) || !m.FleetAdjacent(nc, eng) || !m.FleetAdjacent(sc, eng) ||
		m.FleetAdjacent(eng, spa) || m.FleetAdjacent(nc, sc) {
		t.Error("fleet adjacency wrong")
	}
	if len(m.StartUnits) != 2 || m.StartUnits[0] != (StartUnit{0, Fleet, lon}) {
		t.Errorf("start units %+v", m.StartUnits)
	}
	if m.StartCenters[lon] != 0 || m.StartCenters[par] != 1 || m.StartCenters[spa] != NoPower {
		t.Errorf("start centres %v", m.StartCenters)
	}
}

// TestParseMapSettings reads the settings of the "34, 35, 36" variant: a
// victory count that follows the centres, and supply-centre construction.
func TestParseMapSettings(t *testing.T) {
	for _, tc := range []struct {
		line           string
		dynamic, build bool
		victory        int
	}{
		{`map M`, false, false, 3},
		{`map M victory dynamic construction yes`, true, true, 3},
		{`map M construction no victory 2`, false, false, 2},
		{`map M construction yes`, false, true, 3},
		// The count a dynamic victory starts from is the majority, whatever
		// else the line says.
		{`map M victory dynamic`, true, false, 3},
	} {
		m, err := ParseMap("m", []byte(tc.line+"\n"+miniRest))
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if m.DynamicVictory != tc.dynamic || m.Construction != tc.build || m.VictoryCenters != tc.victory {
			t.Errorf("%s: dynamic %v construction %v victory %d; want %v %v %d", tc.line,
				m.DynamicVictory, m.Construction, m.VictoryCenters, tc.dynamic, tc.build, tc.victory)
		}
	}
}

// TestParseMapOneWay checks that the loader adds no reverse direction to
// an edge, and refuses an edge written one way only, at its line.
func TestParseMapOneWay(t *testing.T) {
	for _, tc := range []struct{ old, new, want string }{
		{"army wal: lon\n", "", "mini.map:13: army lon: wal is one-way: wal has no army line"},
		{"army wal: lon\n", "army wal: spa\n", "mini.map:13: army lon: wal is one-way: the army line of wal (line 14) does not list lon\n" +
			"mini.map:14: army wal: spa is one-way: the army line of spa (line 16) does not list wal"},
		{"fleet spa/nc: eng\n", "fleet spa/nc: eng wal\n", "mini.map:20: fleet spa/nc: wal is one-way: the fleet line of wal (line 18) does not list spa/nc"},
	} {
		src := strings.Replace(miniMap, tc.old, tc.new, 1)
		if _, err := ParseMap("mini", []byte(src)); err == nil || err.Error() != tc.want {
			t.Errorf("%q as %q:\ngot  %v\nwant %s", tc.old, tc.new, err, tc.want)
		}
	}
}

// TestParseMapDeclaredOneWay checks that a oneway line makes an edge
// written one way only legal, that way only, and for its kind of unit
// only.
func TestParseMapDeclaredOneWay(t *testing.T) {
	// An army may walk from London to Paris, never back; a fleet may sail
	// from Brest into the Channel, never back.
	src := strings.Replace(miniMap, "army lon: wal\n", "army lon: wal par\noneway army lon: par\n", 1)
	src = strings.Replace(src, "fleet eng: lon wal spa/nc spa/sc bre\n", "fleet eng: lon wal spa/nc spa/sc\n", 1)
	src += "oneway fleet bre: eng # into the Channel\n"
	m, err := ParseMap("mini", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lon, _ := m.Lookup("lon")
	par, _ := m.Lookup("par")
	bre, _ := m.Lookup("bre")
	eng, _ := m.Lookup("eng")
	if !m.ArmyAdjacent(lon, par) || m.ArmyAdjacent(par, lon) || !m.FleetAdjacent(bre, eng) || m.FleetAdjacent(eng, bre) {
		t.Error("one-way edges not read one way")
	}
	if !m.OneWay(Army, lon, par) || m.OneWay(Army, par, lon) || m.OneWay(Fleet, lon, par) ||
		!m.OneWay(Fleet, bre, eng) || m.OneWay(Army, bre, eng) || m.OneWay(Fleet, eng, bre) {
		t.Error("OneWay does not report exactly the declared moves")
	}
	if !m.FleetReaches(bre, eng) || m.FleetReaches(eng, bre) || !m.FleetReachesFrom(bre, eng) || m.FleetReachesFrom(eng, bre) {
		t.Error("FleetReaches and FleetReachesFrom do not follow the direction of the move")
	}

	// Declared twice: the second declaration is the mistake.
	twice := src + "oneway army lon: par\n"
	want := fmt.Sprintf("mini.map:%d: oneway army lon: par declared twice (first at line 14)", strings.Count(twice, "\n"))
	if _, err := ParseMap("mini", []byte(twice)); err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

func TestParseMapAnyOrder(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(miniMap, "\n"), "\n")
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	m, err := ParseMap("mini", []byte(strings.Join(lines, "\r\n")))
	if err != nil {
		t.Fatal(err)
	}
	// Reversed, France comes first and iri is the first province.
	if m.Powers[0].Name != "France" || m.LocName(0) != "iri" || len(m.Provinces()) != 7 {
		t.Errorf("powers %v, first Loc %s, %d provinces", m.Powers, m.LocName(0), len(m.Provinces()))
	}
}

func TestParseMapErrors(t *testing.T) {
	n := miniLines() + 1 // the line each case appends
	tests := []struct {
		name, line, want string
	}{
		{"keyword", `provence pic coast sc France Picardy`, `unknown keyword "provence" (want map, base, power, province, home, centre, coast, army, fleet, oneway, unit, archipelago, place, unowned, owned, impassable, weak, closed)`},
		{"quote", `province pic coast sc France "Picardy`, `missing closing quote`},
		{"quote glued", `province pic coast sc France "Picardy"x`, `text right after the quoted string "Picardy"`},
		{"quote inside", `province pic coast sc France Pic"ardy"`, `quote inside the field Pic"`},
		{"second map", `map Other`, `second map line (first at line 2)`},
		{"power fields", `power Italy Italian`, `power line needs 3 fields: power <name> <adjective> <letter>`},
		{"power letter", `power Italy Italian It`, `power letter "It" is not one letter or digit`},
		{"power letter sign", `power Italy Italian +`, `power letter "+" is not one letter or digit`},
		{"power letter master", `power Italy Italian M`, `power letter "M" is reserved: M is the master's and O the observers'`},
		{"power letter observer", `power Italy Italian o`, `power letter "o" is reserved: M is the master's and O the observers'`},
		{"power letter dup", `power Italy Italian e`, `power name "E" already used (line 3)`},
		{"power name dup", `power england Anglo X`, `power name "england" already used (line 3)`},
		{"power neutral", `power neutral Neutrals X`, `power name "Neutral" is reserved for neutral units`},
		{"power adjective neutral", `power Neutralia NEUTRAL X`, `power name "Neutral" is reserved for neutral units`},
		{"unit neutral twice", `unit - A lon`, `second unit in lon (first at line 21)`},
		{"power short", `power I Italian X`, `power name and adjective need at least two letters`},
		{"province fields", `province pic coast sc France`, `province line needs at least 5 fields: province <id> <kind> <sc|-> <home|-> <full name> [alias ...]`},
		{"province id", `province Bre coast sc France Brest`, `province id "Bre": want lower-case letters and digits`},
		{"province kind", `province pic shore sc France Picardy`, `province pic: kind "shore": want land, sea or coast`},
		{"province sc", `province pic coast yes France Picardy`, `province pic: centre field "yes": want sc or -`},
		{"province home", `province pic coast sc Prussia Picardy`, `province pic: unknown power "Prussia"`},
		{"province twice", `province lon coast sc England London`, `province lon given twice (first at line 5)`},
		{"name clash", `province pic coast sc France Picardy london`, `pic: name "london" already names lon (line 5)`},
		{"alias clash", `province pic coast sc France Picardy "English-Channel"`, `pic: name "English-Channel" already names eng (line 8)`},
		{"alias clash dash", "province pic coast sc France Picardy \"English\u2013Channel\"", "pic: name \"English\u2013Channel\" already names eng (line 8)"},
		{"alias clash no-break space", "province pic coast sc France Picardy Lon\u00a0don", `pic: name "Lon\u00a0don" already names lon (line 5)`},
		{"alias clash apostrophe", "province pic coast sc France Picardy Lon\u2019don", "pic: name \"Lon\u2019don\" already names lon (line 5)"},
		{"name sign", `province pic coast sc France Picardy Pic&ardy`, `pic: name "Pic&ardy" holds '&', which no order can: a name is letters, digits, spaces, dots, apostrophes and hyphens`},
		{"name empty", `province pic coast sc France ""`, `pic: empty name ""`},
		{"name slash", `province pic coast sc France Picardy b/r`, `pic: name "b/r" may not contain / or parentheses`},
		{"coast form", `coast spa-ec "Spain (east coast)"`, `coast "spa-ec": want <province>/<coast>, as stp/nc`},
		{"coast province", `coast sap/ec "Spain (east coast)"`, `unknown province "sap" in coast`},
		{"coast by alias", `coast london/ec "London (east coast)"`, `unknown province "london" in coast`},
		{"coast inland", `coast par/nc "Paris (north coast)"`, `coast par/nc on par, which is land`},
		{"coast sea", `coast eng/nc "Channel (north coast)"`, `coast eng/nc on eng, which is sea`},
		{"coast twice", `coast spa/nc "Spain (north coast)"`, `coast spa/nc given twice (first at line 11)`},
		{"coast fields", `coast spa/ec`, `coast line needs 2 fields: coast <province>/<coast> <full name>`},
		{"army unknown", `army bre: lnd`, `unknown province "lnd" in army adjacency`},
		{"army unknown from", `army lnd: lon`, `unknown province "lnd" in army adjacency`},
		{"army by full name", `army bre: London`, `unknown province "London" in army adjacency`},
		{"army colon", `army bre gas`, `missing ":" after "bre" in army adjacency`},
		{"army empty", `army`, `army line needs a place: army <place>: <place> ...`},
		{"army sea", `army bre: eng`, `army adjacency names eng, which is sea`},
		{"army coast", `army bre: spa/nc`, `army adjacency names the coast spa/nc: armies move between provinces`},
		{"army twice", `army lon: par`, `second army line for lon (first at line 13)`},
		{"army from sea", `army eng:`, `army adjacency names eng, which is sea`},
		{"fleet unknown", `fleet iri: wes`, `unknown place "wes" in fleet adjacency`},
		{"fleet inland", `fleet iri: par`, `fleet adjacency names par, which is inland`},
		{"fleet split base", `fleet iri: spa`, `fleet adjacency names spa, which has split coasts (spa/nc or spa/sc)`},
		{"fleet twice", `fleet spa/sc: spa/nc`, `second fleet line for spa/sc (first at line 24)`},
		{"fleet twice in line", `fleet iri: eng eng`, `fleet adjacency of iri lists eng twice`},
		{"fleet itself", `fleet iri: iri`, `fleet adjacency of iri lists its own province`},
		{"fleet no neighbour", `fleet iri:`, `fleet adjacency of iri lists no neighbour`},
		{"unit fields", `unit England F`, `unit line needs 3 fields: unit <power> <A|F> <place>`},
		{"unit power", `unit Prussia A wal`, `unknown power "Prussia" in unit (a neutral unit is written unit - A <place>)`},
		{"unit type", `unit England X wal`, `unit type "X": want A or F`},
		{"unit place", `unit England A wsl`, `unknown place "wsl" in unit`},
		{"unit army sea", `unit England A eng`, `an army cannot stand in eng, which is sea`},
		{"unit army coast", `unit England A spa/nc`, `an army stands in a province, not on the coast spa/nc`},
		{"unit fleet inland", `unit France F par`, `a fleet cannot stand in par, which is inland`},
		{"unit fleet split", `unit France F spa`, `a fleet in spa needs a coast (spa/nc or spa/sc)`},
		{"unit twice", `unit France A lon`, `second unit in lon (first at line 21)`},
		{"oneway kind", `oneway navy lon: wal`, `oneway line needs army or fleet: oneway army|fleet <place>: <place> ...`},
		{"oneway bare", `oneway`, `oneway line needs army or fleet: oneway army|fleet <place>: <place> ...`},
		{"oneway empty", `oneway fleet`, `oneway fleet line needs a place: oneway fleet <place>: <place> ...`},
		{"oneway colon", `oneway army lon wal`, `missing ":" after "lon" in oneway army adjacency`},
		{"oneway unknown", `oneway army lon: lnd`, `unknown province "lnd" in oneway line`},
		{"oneway by alias", `oneway fleet ech: lon`, `unknown place "ech" in oneway line`},
		{"oneway no move", `oneway army lon:`, `oneway army lon lists no move: oneway army|fleet <place>: <place> ...`},
		{"oneway unwritten", `oneway army lon: par`, `oneway army lon: par: the army line of lon does not list par: a oneway line declares a move written there`},
		{"oneway other kind", `oneway fleet lon: par`, `oneway fleet lon: par: the fleet line of lon does not list par: a oneway line declares a move written there`},
		{"oneway both ways", `oneway fleet eng: bre`, `oneway fleet eng: bre: the fleet line of bre (line 23) lists eng, so the move goes both ways`},
		{"archipelago empty", `archipelago`, `archipelago line needs a province: archipelago <id> ...`},
		{"archipelago unknown", `archipelago bal`, `unknown province "bal" in archipelago`},
		{"archipelago by name", `archipelago Wales`, `unknown province "Wales" in archipelago`},
		{"archipelago inland", `archipelago par`, `archipelago par is land: an archipelago is a coastal province`},
		{"archipelago sea", `archipelago eng`, `archipelago eng is sea: an archipelago is a coastal province`},
		{"archipelago split", `archipelago spa`, `archipelago spa has split coasts (spa/nc or spa/sc)`},
		{"archipelago coast", `archipelago spa/nc`, `archipelago names the coast spa/nc: name the province`},
		{"archipelago twice", `archipelago wal wal`, `archipelago wal given twice`},
		{"place fields", `place lon 10`, `place line needs 3 fields: place <province> <x> <y>`},
		{"place unknown", `place lnd 10 20`, `unknown province "lnd" in place line`},
		{"place by name", `place London 10 20`, `unknown province "London" in place line`},
		{"place coast", `place spa/nc 10 20`, `place names the coast spa/nc: a picture places the province spa`},
		{"place x too big", `place lon 1001 20`, `place lon: coordinate "1001": want a whole number from 0 to 1000`},
		{"place y negative", `place lon 10 -1`, `place lon: coordinate "-1": want a whole number from 0 to 1000`},
		{"place not a number", `place lon 10 2.5`, `place lon: coordinate "2.5": want a whole number from 0 to 1000`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMap("mini", []byte(miniMap+tt.line+"\n"))
			want := fmt.Sprintf("mini.map:%d: %s", n, tt.want)
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
			var me *MapError
			if !errors.As(err, &me) || me.Line != n {
				t.Errorf("error %v is not a *MapError at line %d", err, n)
			}
		})
	}
}

// TestParseMapArchipelago checks that an archipelago line makes a coastal
// province count as sea for convoys, and nothing else.
func TestParseMapArchipelago(t *testing.T) {
	m, err := ParseMap("mini", []byte(miniMap+"archipelago wal bre\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		place   string
		convoys bool
	}{{"wal", true}, {"bre", true}, {"eng", true}, {"lon", false}, {"par", false}, {"spa", false}, {"spa/nc", false}} {
		l, _ := m.Lookup(c.place)
		if got := m.Convoys(l); got != c.convoys {
			t.Errorf("Convoys(%s) = %v, want %v", c.place, got, c.convoys)
		}
	}
	wal, _ := m.Lookup("wal")
	if li := m.Locs[wal]; li.Kind != Coast || !m.CanHold(Army, wal) || !m.CanHold(Fleet, wal) {
		t.Errorf("Wales is no longer a coastal province: %+v", li)
	}
	if m.Convoys(NoLoc) {
		t.Error("Convoys(NoLoc) is true")
	}
}

func TestParseMapFileErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", "m.map: no map line"},
		{"no powers", "map M\n", "m.map: no power lines"},
		{"no provinces", "map M\npower England English E\n", "m.map: no province lines"},
		{"victory", "map M victory 3\npower England English E\nprovince lon coast sc England London\n",
			"m.map:1: victory 3 needs more than the 1 supply centres of the map"},
		{"map title", "map\n" + miniRest,
			"m.map:1: map line needs a title: map <title> [victory <n>|dynamic] [start <year> [spring|winter]] [construction yes|no] [builds home|one|any|captured] [centres <n>] [ties share|continue] [neutrals hold|rebuild] [lead <n>]"},
		{"map setting", "map M winner 3\n" + miniRest, `m.map:1: unknown map setting "winner" (want victory, start, construction, builds, centres, ties, neutrals or lead)`},
		{"map number", "map M start 19o1\n" + miniRest, `m.map:1: start "19o1" is not a year from 0 to 99999`},
		{"map missing number", "map M victory\n" + miniRest, `m.map:1: victory needs a number or "dynamic"`},
		{"map missing start", "map M start\n" + miniRest, `m.map:1: start needs a number`},
		{"map missing construction", "map M construction\n" + miniRest, `m.map:1: construction needs "yes" or "no"`},
		{"map construction word", "map M construction maybe\n" + miniRest, `m.map:1: construction "maybe": want "yes" or "no"`},
		{"map start dynamic", "map M start dynamic\n" + miniRest, `m.map:1: start "dynamic" is not a year from 0 to 99999`},
		{"map ties", "map M ties maybe\n" + miniRest, `m.map:1: ties "maybe": want "share" or "continue"`},
		{"map neutrals", "map M neutrals maybe\n" + miniRest, `m.map:1: neutrals "maybe": want "hold" or "rebuild"`},
		{"map wraps", "map M wraps maybe\n" + miniRest, `m.map:1: wraps "maybe": want "yes" or "no"`},
		{"map setting twice", "map M start 1901 start 1902\n" + miniRest, `m.map:1: start given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMap("m", []byte(tt.src))
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestParseMapManyErrors checks that every mistake is reported, in line
// order, and that a long list is cut short.
func TestParseMapManyErrors(t *testing.T) {
	// The unit line (checked in the last pass) comes first in the file.
	src := "unit England A nowhere\n" + miniMap + "army bre: xxx\n"
	_, err := ParseMap("mini", []byte(src))
	want := "mini.map:1: unknown place \"nowhere\" in unit\n" +
		fmt.Sprintf("mini.map:%d: unknown province \"xxx\" in army adjacency", miniLines()+2)
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}

	src = miniMap + strings.Repeat("bogus\n", 30)
	_, err = ParseMap("mini", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxMapErrors+1 || lines[maxMapErrors] != "mini.map: too many errors" {
		t.Errorf("got %d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

// TestParseMapDigitLetter: a power may have a digit for its letter, as
// njudge's Chaos gives ten of its 34 powers, and is found by it.
func TestParseMapDigitLetter(t *testing.T) {
	m, err := ParseMap("mini", []byte(miniMap+"power Sevastopol Sevastopolitan 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := m.PowerByName("0")
	if !ok || m.Powers[p].Name != "Sevastopol" || m.Powers[p].Letter != '0' {
		t.Fatalf("PowerByName(\"0\") = %d, %v", p, ok)
	}
}

// miniPlaces places every province of miniMap, one line each.
const miniPlaces = `place lon 100 100
place wal 60 120
place par 200 300
place eng 150 200
place spa 120 900
place bre 100 280
place iri 20 150
`

// TestParseMapPlaces checks that place lines fill LocInfo.At and that
// HasPlaces is true only when every province is placed.
func TestParseMapPlaces(t *testing.T) {
	m, err := ParseMap("mini", []byte(miniMap))
	if err != nil {
		t.Fatal(err)
	}
	if m.HasPlaces() {
		t.Error("a map without place lines HasPlaces")
	}
	m, err = ParseMap("mini", []byte(miniMap+miniPlaces))
	if err != nil {
		t.Fatal(err)
	}
	if !m.HasPlaces() {
		t.Error("a map that places every province does not HasPlaces")
	}
	for _, c := range []struct {
		loc string
		at  [2]int16
	}{{"lon", [2]int16{100, 100}}, {"spa", [2]int16{120, 900}}, {"iri", [2]int16{20, 150}}} {
		l, _ := m.Lookup(c.loc)
		if got := m.Locs[l].At; got != c.at {
			t.Errorf("%s at %v, want %v", c.loc, got, c.at)
		}
	}
	// Coasts are drawn with their province: they have no place of their own.
	nc, _ := m.Lookup("spa/nc")
	if got := m.Locs[nc].At; got != [2]int16{} {
		t.Errorf("spa/nc at %v, want none", got)
	}
	// The box's edges are inside it.
	if _, err := ParseMap("mini", []byte(miniMap+strings.Replace(miniPlaces, "lon 100 100", "lon 0 1000", 1))); err != nil {
		t.Errorf("place at 0 1000: %v", err)
	}
}

// TestParseMapPlaceErrors checks the mistakes of place lines that take
// more than one line to make.
func TestParseMapPlaceErrors(t *testing.T) {
	n := miniLines()
	tests := []struct {
		name, lines, want string
	}{
		{"twice", miniPlaces + "place lon 5 5\n", fmt.Sprintf("mini.map:%d: second place line for lon (first at line %d)", n+8, n+1)},
		{"some", "place lon 1 1\nplace par 2 2\n", "mini.map:6: no place line for wal, eng, spa, bre, iri: place every province or none"},
		{"many", "place lon 1 1\n", "mini.map:6: no place line for wal, par, eng, spa, bre and 1 more: place every province or none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMap("mini", []byte(miniMap+tt.lines))
			var me *MapError
			if err == nil || err.Error() != tt.want || !errors.As(err, &me) {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestMapWraps reads "wraps yes" into Map.Wraps, and leaves it off by
// default or with "wraps no".
func TestMapWraps(t *testing.T) {
	for line, want := range map[string]bool{"map M wraps yes\n": true, "map M wraps no\n": false, "map M\n": false} {
		m, err := ParseMap("m", []byte(line+miniRest))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if m.Wraps != want {
			t.Errorf("%q: Wraps %v, want %v", line, m.Wraps, want)
		}
	}
}
