package judge

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// miniSource is a MapSource that knows miniMap as "mini" and, as "based",
// a map that is itself built on mini.
func miniSource(name string) (string, []byte, error) {
	switch name {
	case "mini":
		return "mini.map", []byte(miniMap), nil
	case "based":
		return "based.map", []byte("base mini\n"), nil
	}
	return "", nil, errors.New("no such map")
}

// TestParseMapBase reads a map built on miniMap: it keeps the board, declares
// its own powers, units and settings, and changes homes and centres with
// home and centre lines.
func TestParseMapBase(t *testing.T) {
	src := `base mini
map "Mini Chaos" victory 3 start 1949 winter builds any centres 4
power London  Londoner 1
power Paris   Parisian 2
power Walians Walian   W
home wal Walians
home lon London
home par Paris
home bre -
centre wal yes
centre spa no
unit Walians F wal
`
	m, err := ParseMapFrom("chaos", []byte(src), miniSource)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "chaos" || m.Title != "Mini Chaos" || m.Base != "mini" || m.VictoryCenters != 3 {
		t.Errorf("name %q title %q base %q victory %d", m.Name, m.Title, m.Base, m.VictoryCenters)
	}
	if m.StartPhase() != (Phase{Winter, 1949, Adjustment}) || m.Builds != BuildAny {
		t.Errorf("start %v builds %v", m.StartPhase(), m.Builds)
	}
	if got := []byte{m.Powers[0].Letter, m.Powers[1].Letter, m.Powers[2].Letter}; string(got) != "12W" {
		t.Errorf("letters %q", got)
	}
	// The board is mini's: the same places and edges.
	mini, err := ParseMap("mini", []byte(miniMap))
	if err != nil {
		t.Fatal(err)
	}
	if m.NumLocs() != mini.NumLocs() {
		t.Fatalf("%d places, want %d", m.NumLocs(), mini.NumLocs())
	}
	for a := range m.Locs {
		for b := range m.Locs {
			la, lb := Loc(a), Loc(b)
			if m.LocName(la) != mini.LocName(la) || m.ArmyAdjacent(la, lb) != mini.ArmyAdjacent(la, lb) ||
				m.FleetAdjacent(la, lb) != mini.FleetAdjacent(la, lb) {
				t.Fatalf("%s-%s differs from mini", m.LocName(la), m.LocName(lb))
			}
		}
	}
	home := func(id string) string {
		l, _ := m.Lookup(id)
		return m.PowerName(m.Locs[l].Home)
	}
	// England and France are not powers here: their home countries belong
	// to nobody unless a home line gives them to someone.
	for id, want := range map[string]string{"lon": "London", "wal": "Walians", "par": "Paris", "bre": "Unowned", "spa": "Unowned"} {
		if got := home(id); got != want {
			t.Errorf("home of %s: %s, want %s", id, got, want)
		}
	}
	if got := names(m, m.Centers()); !slices.Equal(got, []string{"bre", "lon", "par", "wal"}) {
		t.Errorf("centres %v", got)
	}
	pos := StartPosition(m)
	if pos.Phase != (Phase{Winter, 1949, Adjustment}) || !slices.Equal(pos.CenterCount(), []int{1, 1, 1}) ||
		!slices.Equal(pos.UnitCount(), []int{0, 0, 1}) {
		t.Errorf("start: %v, centres %v, units %v", pos.Phase, pos.CenterCount(), pos.UnitCount())
	}
}

func names(m *Map, ls []Loc) []string {
	var s []string
	for _, l := range ls {
		s = append(s, m.LocName(l))
	}
	slices.Sort(s)
	return s
}

// TestParseMapBaseErrors checks the mistakes a map built on another can
// make, each reported at its line (or at the base map's line, in its file).
func TestParseMapBaseErrors(t *testing.T) {
	const head = "base mini\nmap M\npower England English E\n"
	for _, tc := range []struct{ name, src, want string }{
		{"board line", head + "army lon: par\n", "m.map:4: army line in a map built on mini, which gives the board: change it with home and centre lines, or copy the board"},
		{"province line", head + "province yor coast - England York\n", "m.map:4: province line in a map built on mini, which gives the board: change it with home and centre lines, or copy the board"},
		{"oneway line", head + "oneway army lon: wal\n", "m.map:4: oneway line in a map built on mini, which gives the board: change it with home and centre lines, or copy the board"},
		{"place line", head + "place lon 1 2\n", "m.map:4: place line in a map built on mini, which gives the board: change it with home and centre lines, or copy the board"},
		{"two bases", head + "base mini\n", "m.map:4: second base line (first at line 1)"},
		{"base fields", "base\nmap M\npower England English E\n", "m.map:1: base line needs 1 field: base <variant>"},
		{"unknown base", "base nosuch\nmap M\npower England English E\n", "m.map:1: base nosuch: no such map"},
		{"base of base", "base based\nmap M\npower England English E\n", "m.map:1: base based is itself built on another map (based.map:1): name that one"},
		{"home fields", head + "home lon\n", "m.map:4: home line needs 2 fields: home <province> <power|->"},
		{"home province", head + "home lnd England\n", `m.map:4: unknown province "lnd" in home line`},
		{"home coast", head + "home spa/nc England\n", `m.map:4: unknown province "spa/nc" in home line`},
		{"home power", head + "home lon France\n", `m.map:4: home lon: unknown power "France"`},
		{"home twice", head + "home lon England\nhome lon -\n", "m.map:5: second home line for lon (first at line 4)"},
		{"centre word", head + "centre wal maybe\n", "m.map:4: centre line needs 2 fields: centre <province> yes|no"},
		{"centre sea", head + "centre eng yes\n", "m.map:4: centre eng: eng is sea"},
		{"centre twice", head + "centre wal yes\ncentre wal no\n", "m.map:5: second centre line for wal (first at line 4)"},
		{"base unit power", head + "unit France A par\n", `m.map:4: unknown power "France" in unit (a neutral unit is written unit - A <place>)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseMapFrom("m", []byte(tc.src), miniSource)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
	if _, err := ParseMap("m", []byte(head)); err == nil || !strings.Contains(err.Error(), "m.map:1: base mini: this loader reads no other map") {
		t.Errorf("ParseMap with a base line: %v", err)
	}
	// A mistake in the base map is reported in the base map's file.
	bad := func(string) (string, []byte, error) { return "bad.map", []byte(miniMap + "bogus\n"), nil }
	if _, err := ParseMapFrom("m", []byte(head), bad); err == nil || !strings.HasPrefix(err.Error(), `bad.map:26: unknown keyword "bogus"`) {
		t.Errorf("broken base: %v", err)
	}
}

// TestParseMapBoard checks the checks of the whole board and of the map
// line's new settings.
func TestParseMapBoard(t *testing.T) {
	for _, tc := range []struct{ name, old, new, want string }{
		{"coast without fleet line", "fleet bre: eng\n", "",
			"mini.map:10: coast bre touches no sea: list a sea (or a coast on the way to one) in its fleet line, or make the province land\n" +
				"mini.map:19: fleet eng: bre is one-way: bre has no fleet line"},
		// A coast that reaches the sea by way of another coast is a river
		// mouth's (the Nile's in the Ancient Mediterranean): allowed.
		{"coast along coasts only", "fleet lon: wal eng\n", "fleet lon: wal\n",
			"mini.map:19: fleet eng: lon is one-way: the fleet line of lon (line 17) does not list eng"},
		{"split coast", "fleet spa/sc: eng\n", "fleet spa/sc: spa/nc\n", "mini.map:24: fleet adjacency of spa/sc lists its own province"},
		{"centres", "start 1950", "start 1950 centres 5", "mini.map:2: the map line declares 5 supply centres, but the province and centre lines make 4"},
		{"builds", "start 1950", "start 1950 builds anywhere", `mini.map:2: builds "anywhere": want home, one, any or captured`},
		{"builds case", "start 1950", "start 1950 builds ANY", `mini.map:2: builds "ANY": want home, one, any or captured`},
		{"builds missing", "start 1950", "start 1950 builds", "mini.map:2: builds needs home, one, any or captured"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(miniMap, tc.old, tc.new, 1)
			if _, err := ParseMap("mini", []byte(src)); err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		line   string
		phase  Phase
		builds BuildRule
	}{
		{`map M`, Phase{Spring, 1901, Movement}, BuildHome},
		{`map M start 1900 winter builds one centres 4`, Phase{Winter, 1900, Adjustment}, BuildOne},
		{`map M start 1455 spring victory 2`, Phase{Spring, 1455, Movement}, BuildHome},
		{`map M builds any start 1900`, Phase{Spring, 1900, Movement}, BuildAny},
	} {
		m, err := ParseMap("m", []byte(tc.line+"\n"+miniRest))
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if m.StartPhase() != tc.phase || m.Builds != tc.builds {
			t.Errorf("%s: start %v builds %v; want %v %v", tc.line, m.StartPhase(), m.Builds, tc.phase, tc.builds)
		}
	}
	if _, err := ParseMap("m", []byte("map M start 1900 autumn\n"+miniRest)); err == nil ||
		err.Error() != `m.map:1: unknown map setting "autumn" (want victory, start, construction, builds, centres, ties, neutrals or lead)` {
		t.Errorf("start with a bad season: %v", err)
	}
}

// TestParseMapBasePlaces checks that a map built on a placed map takes its
// places, and that a partly placed base is reported in the base's file.
func TestParseMapBasePlaces(t *testing.T) {
	const head = "base mini\nmap M\npower England English E\n"
	placed := func(string) (string, []byte, error) { return "mini.map", []byte(miniMap + miniPlaces), nil }
	m, err := ParseMapFrom("m", []byte(head), placed)
	if err != nil {
		t.Fatal(err)
	}
	par, _ := m.Lookup("par")
	if !m.HasPlaces() || m.Locs[par].At != [2]int16{200, 300} {
		t.Errorf("HasPlaces %v, par at %v: want the base's places", m.HasPlaces(), m.Locs[par].At)
	}
	partly := func(string) (string, []byte, error) { return "mini.map", []byte(miniMap + "place lon 1 1\n"), nil }
	want := "mini.map:6: no place line for wal, par, eng, spa, bre and 1 more: place every province or none"
	if _, err := ParseMapFrom("m", []byte(head), partly); err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}
