package judge_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// testBoard loads testdata/maps/<name>.map, a tiny board of the map
// format's declarations, at its starting position.
func testBoard(t *testing.T, name string) *board {
	t.Helper()
	src, err := os.ReadFile("testdata/maps/" + name + ".map")
	if err != nil {
		t.Fatal(err)
	}
	m, err := judge.ParseMap(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return &board{t: t, m: m, pos: judge.StartPosition(m)}
}

// TestCanal: a canal is a coastal province on two seas, written as such in
// the fleet lines: a fleet sails from one sea through it to the other, in
// two moves and never in one, and armies cross it by land.
func TestCanal(t *testing.T) {
	b := testBoard(t, "canal")
	res := b.play("Westland: F wsea - esea\nWestland: A nor - kan")
	b.expect(res, "Westland: F wsea - esea", judge.Void, "the fleet in West Sea can't get to East Sea")
	b.expect(res, "Westland: A nor - kan", judge.Succeeds, "")

	b = testBoard(t, "canal")
	b.play("Westland: F wsea - kan")
	if u, ok := b.pos.UnitAt(b.loc("kan")); !ok || u.Type != judge.Fleet {
		t.Fatal("the fleet did not enter the canal")
	}
	res = b.play("Westland: F kan - esea\nWestland: A nor - kan")
	b.expect(res, "Westland: F kan - esea", judge.Succeeds, "")
	b.expect(res, "Westland: A nor - kan", judge.Succeeds, "")
	if u, ok := b.pos.UnitAt(b.loc("esea")); !ok || u.Type != judge.Fleet {
		t.Error("the fleet did not come out of the canal into the East Sea")
	}
	if b.pos.Centers[b.loc("kan")] != b.power("Westland") {
		t.Error("the army in the canal did not take it")
	}
	// No victory on the map line: the loader computes a majority of the
	// centres, 2 of 3.
	if b.m.VictoryCenters != 2 || b.pos.VictoryCenters() != 2 {
		t.Errorf("victory %d (position %d), want 2 of 3 centres", b.m.VictoryCenters, b.pos.VictoryCenters())
	}
}

// TestUnownedHomeCentres: an unowned line leaves home centres owned by
// nobody at the start; they stay home centres, so a power that takes one
// builds there, and until then it may not.
func TestUnownedHomeCentres(t *testing.T) {
	b := testBoard(t, "unowned")
	w := b.power("Westland")
	for _, c := range []struct {
		at    string
		owner judge.Power
	}{{"wa", w}, {"wb", judge.NoPower}, {"wc", judge.NoPower}, {"ea", b.power("Eastland")}, {"eb", b.power("Eastland")}} {
		if got := b.pos.Centers[b.loc(c.at)]; got != c.owner {
			t.Errorf("%s owned by %v at the start, want %v", c.at, got, c.owner)
		}
		if b.m.Locs[b.loc(c.at)].Home == judge.NoPower {
			t.Errorf("%s is no longer a home centre", c.at)
		}
	}
	if got := b.pos.CenterCount(); got[w] != 1 {
		t.Errorf("Westland starts with %d centres, want 1", got[w])
	}
	// A quiet year: one centre, one unit, nothing to build.
	b.play("")
	b.play("")
	if b.pos.Phase.String() != "S1902M" {
		t.Fatalf("phase %s, want S1902M: nobody has builds", b.pos.Phase)
	}
	// Westland takes Wb: two centres, one unit, a build; Wc, home but not
	// owned, is refused, Wa taken.
	b.play("Westland: A wa - wb")
	b.play("")
	if b.pos.Phase.String() != "W1902A" || b.pos.Centers[b.loc("wb")] != w {
		t.Fatalf("phase %s, Wb owned by %v: want W1902A and Westland", b.pos.Phase, b.pos.Centers[b.loc("wb")])
	}
	res := b.play("Westland: build A wc\nWestland: build A wa")
	b.expect(res, "Westland: build A wc", judge.Void, "Westland does not own Wc")
	b.expect(res, "Westland: build A wa", judge.Built, "")

	src, err := os.ReadFile("testdata/maps/unowned.map")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ line, want string }{
		{"unowned wb wb", "unowned.map:22: unowned wb given twice (first at line 22)"},
		{"unowned wz", `unowned.map:22: unknown province "wz" in unowned line`},
		{"unowned", "unowned.map:22: unowned line needs a province: unowned <id> ..."},
		{"province xx land - Westland Xx\nunowned xx", "unowned.map:23: unowned xx: xx is no home centre, and nobody owns it at the start anyway"},
	} {
		_, err := judge.ParseMap("unowned", []byte(strings.Replace(string(src), "unowned wb wc", c.line, 1)))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.line, err, c.want)
		}
	}
}

// TestImpassable: an impassable province is on the board by name, but no
// unit may move into it or stand in it, and the map file may not give it
// an edge, a unit or a centre.
func TestImpassable(t *testing.T) {
	b := testBoard(t, "impassable")
	alps := b.loc("Alpen")
	if !b.m.Locs[alps].Impassable || b.m.CanHold(judge.Army, alps) || b.m.CanHold(judge.Fleet, alps) {
		t.Fatal("the Alps are not impassable")
	}
	res := b.play("Westland: A wa - alps\nEastland: A ea - pass")
	b.expect(res, "Westland: A wa - alps", judge.Void, "Alps is impassable: no unit may enter it")
	b.expect(res, "Eastland: A ea - pass", judge.Succeeds, "")
	if err := b.pos.Place(judge.Unit{Type: judge.Army, Power: b.power("Westland"), Loc: alps}); err == nil ||
		err.Error() != "Alps is impassable: no unit may stand there" {
		t.Errorf("Place in the Alps: %v", err)
	}

	src, err := os.ReadFile("testdata/maps/impassable.map")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, change, want string }{
		{"edge", "army pass: wa ea", "army pass: wa ea alps"},
		{"unit", "unit Eastland A ea", "unit Eastland A alps"},
		{"centre", "province alps land -  -", "province alps land sc -"},
		{"sea", "province alps land", "province alps sea"},
		{"twice", "impassable alps", "impassable alps alps"},
		{"unknown", "impassable alps", "impassable alpz"},
	} {
		text := strings.Replace(string(src), c.change, c.want, 1)
		_, err := judge.ParseMap("impassable", []byte(text))
		var me *judge.MapError
		if err == nil || !errors.As(err, &me) {
			t.Errorf("%s: loads (%v)", c.name, err)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
}

// TestYearZero: a map may start in year 0: its first phase is S0M, which
// reads back, and the year goes on to 1.
func TestYearZero(t *testing.T) {
	b := testBoard(t, "year0")
	if b.m.StartYear != 0 || b.pos.Phase.String() != "S0M" {
		t.Fatalf("start year %d, phase %s; want 0, S0M", b.m.StartYear, b.pos.Phase)
	}
	for _, s := range []string{"S0M", "F0R", "W0A", "F0B"} {
		p, err := judge.ParsePhase(s)
		if err != nil || p.Year != 0 {
			t.Errorf("ParsePhase(%s) = %v, %v", s, p, err)
		}
	}
	for _, s := range []string{"S-1M", "S+1M", "S-0M"} {
		if _, err := judge.ParsePhase(s); err == nil {
			t.Errorf("ParsePhase(%s) reads", s)
		}
	}
	b.play("Westland: A wa - mid")
	b.play("")
	if b.pos.Phase.String() != "W0A" {
		t.Fatalf("phase %s after Fall of 0, want W0A", b.pos.Phase)
	}
	b.play("Westland: build A wa")
	if b.pos.Phase.String() != "S1M" {
		t.Errorf("phase %s after the Winter of 0, want S1M", b.pos.Phase)
	}
	// A map without a start year still starts in 1901; a negative one is
	// refused.
	for _, c := range []struct{ line, want string }{
		{"map Zero", ""},
		{"map Zero start -1", `year0.map:3: start "-1" is not a year from 0 to 99999`},
	} {
		src, _ := os.ReadFile("testdata/maps/year0.map")
		m, err := judge.ParseMap("year0", []byte(strings.Replace(string(src), "map Zero start 0", c.line, 1)))
		switch {
		case c.want == "" && (err != nil || m.StartYear != 1901):
			t.Errorf("%s: %v, start %v", c.line, err, m)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%s: error %v, want %s", c.line, err, c.want)
		}
	}
}

// TestBuildsCaptured: under "builds captured" a power builds in a home
// centre it took from another power, as in its own, but never in a centre
// that was neutral, and the other build rules still say no to the
// captured centre.
func TestBuildsCaptured(t *testing.T) {
	b := testBoard(t, "captured")
	if b.m.Builds != judge.BuildCaptured {
		t.Fatalf("map builds %v, want captured", b.m.Builds)
	}
	// Westland took Ea and the neutral Middle, and stands in its own two.
	winter := func() *board {
		b := testBoard(t, "captured")
		b.pos.Phase = judge.Phase{Season: judge.Winter, Year: 1901, Type: judge.Adjustment}
		return b.own("Westland", "ea", "x")
	}
	w := winter()
	if got := w.pos.BuildSites(w.power("Westland"), judge.BuildCaptured); len(got) != 1 || w.m.LocName(got[0]) != "ea" {
		t.Errorf("Westland's build sites %v, want ea alone", got)
	}
	res := w.play("Westland: build A ea\nWestland: build A x")
	w.expect(res, "Westland: build A ea", judge.Built, "")
	w.expect(res, "Westland: build A x", judge.Void, "Middle is no power's home supply centre")

	// The same Winter under the standard rule: Ea is Eastland's home.
	w = winter()
	res = w.playWith("Westland: build A ea", withBuilds(judge.BuildHome))
	w.expect(res, "Westland: build A ea", judge.Void, "Ea is not a home supply centre of Westland")

	// A power whose home is all lost still builds in a captured one.
	w = winter()
	w.own("Eastland", "wa")
	w.pos.Units[w.loc("wa")] = judge.Unit{Loc: judge.NoLoc}
	w.pos.Units[w.loc("wb")] = judge.Unit{Loc: judge.NoLoc}
	w.own("Eastland", "wb")
	res = w.play("Westland: build A ea")
	w.expect(res, "Westland: build A ea", judge.Built, "")

	// The word reads back, in map files, JSON and SET BUILD.
	if r, err := judge.ParseBuildRule("CAPTURED"); err != nil || r != judge.BuildCaptured || r.String() != "captured" {
		t.Errorf("ParseBuildRule(CAPTURED) = %v, %v", r, err)
	}
}

// TestVictoryLead: "lead 3" on a map starting in 2001 lets a power win at
// the end of a year with three more centres than every other power in
// 2001, two in 2002 and one from 2003 on; a lead one short wins nothing,
// nor does a tie at the top; the victory count (8) wins as ever.
func TestVictoryLead(t *testing.T) {
	m := testBoard(t, "lead").m
	for year, want := range map[int]int{2001: 3, 2002: 2, 2003: 1, 2004: 1, 2100: 1} {
		if got := m.LeadNeeded(year); got != want {
			t.Errorf("LeadNeeded(%d) = %d, want %d", year, got, want)
		}
	}
	if got := testBoard(t, "canal").m.LeadNeeded(1901); got != 0 {
		t.Errorf("a map without a lead rule needs a lead of %d", got)
	}
	for _, tc := range []struct {
		year   int
		west   []string // Westland's centres besides Wa
		east   []string // Eastland's besides Ea
		winner string
	}{
		{2001, []string{"x1", "x2", "x3"}, nil, "Westland"},                // 4 to 1
		{2001, []string{"x1", "x2"}, nil, ""},                              // 3 to 1
		{2001, []string{"x1", "x2", "x3", "x4"}, []string{"x5", "x6"}, ""}, // 5 to 3
		{2002, []string{"x1", "x2"}, nil, "Westland"},                      // 3 to 1
		{2002, []string{"x1"}, nil, ""},                                    // 2 to 1
		{2005, []string{"x1"}, nil, "Westland"},                            // 2 to 1
		{2005, []string{"x1"}, []string{"x2"}, ""},                         // 2 to 2
		{2005, nil, []string{"x2", "x3", "x4", "x5", "x6", "x7"}, "Eastland"},
		{2001, []string{"x1", "x2", "x3", "x4", "x5", "x6", "x7"}, []string{"na"}, "Westland"}, // the count, 8
	} {
		b := testBoard(t, "lead")
		b.pos.Phase = judge.Phase{Season: judge.Fall, Year: tc.year, Type: judge.Movement}
		b.own("Westland", tc.west...).own("Eastland", tc.east...)
		res := b.play("")
		var got string
		for _, p := range res.Winners {
			got += b.m.PowerName(p)
		}
		if got != tc.winner {
			t.Errorf("%d, Westland %v, Eastland %v: winners %q, want %q", tc.year, tc.west, tc.east, got, tc.winner)
		}
	}
}

// TestOwnedCentres: an owned line gives centres to a power at the start
// that is not their home power; they stay the home centres of their own
// power, which may build there only once it owns one again.
func TestOwnedCentres(t *testing.T) {
	b := testBoard(t, "owned")
	w, e := b.power("Westland"), b.power("Eastland")
	for _, c := range []struct {
		at          string
		owner, home judge.Power
	}{{"wa", e, w}, {"wb", e, w}, {"ea", w, e}, {"eb", w, e}} {
		if got := b.pos.Centers[b.loc(c.at)]; got != c.owner {
			t.Errorf("%s owned by %v at the start, want %v", c.at, got, c.owner)
		}
		if got := b.m.Locs[b.loc(c.at)].Home; got != c.home {
			t.Errorf("%s is a home centre of %v, want %v", c.at, got, c.home)
		}
	}
	// A quiet year: two centres and one unit each, but no home centre
	// of its own to build in.
	b.play("")
	b.play("")
	if b.pos.Phase.String() == "W1901A" {
		res := b.play("Westland: build A wa\nEastland: build A ea")
		b.expect(res, "Westland: build A wa", judge.Void, "Westland does not own Wa")
		b.expect(res, "Eastland: build A ea", judge.Void, "Eastland does not own Ea")
	}
	if b.pos.Phase.String() != "S1902M" {
		t.Fatalf("phase %s, want S1902M", b.pos.Phase)
	}
	// Westland walks home through the middle and takes Wb; once it has
	// left Wb empty, it builds there, but not in Wa, which Eastland
	// still owns.
	b.play("Westland: A ea - mid")
	b.play("Westland: A mid - wb")
	if b.pos.Centers[b.loc("wb")] != w {
		t.Fatalf("Wb owned by %v after Fall 1902, want Westland", b.pos.Centers[b.loc("wb")])
	}
	if b.pos.Phase.String() == "W1902A" {
		b.play("") // no home centre of Westland's is both owned and empty
	}
	b.play("Westland: A wb - mid")
	b.play("")
	if b.pos.Phase.String() != "W1903A" {
		t.Fatalf("phase %s, want W1903A", b.pos.Phase)
	}
	res := b.play("Westland: build A wb\nWestland: build A wa")
	b.expect(res, "Westland: build A wb", judge.Built, "")
	b.expect(res, "Westland: build A wa", judge.Void, "Westland does not own Wa")

	src, err := os.ReadFile("testdata/maps/owned.map")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ line, want string }{
		{"owned Westland ea eb ea", "owned.map:23: owned Westland ea: its owner at the start is given twice (first at line 23)"},
		{"owned Nowhere ea", `owned.map:23: owned: unknown power "Nowhere"`},
		{"owned Westland", "owned.map:23: owned line needs a power and a centre: owned <power> <id> ..."},
		{"owned Westland mid", "owned.map:23: owned Westland mid: mid is no supply centre"},
		{"owned Westland zz", `owned.map:23: unknown province "zz" in owned line`},
		{"owned Westland ea eb\nunowned ea", "owned.map:23: owned Westland ea: its owner at the start is given twice (first at line 24)"},
	} {
		_, err := judge.ParseMap("owned", []byte(strings.Replace(string(src), "owned Westland ea eb", c.line, 1)))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.line, err, c.want)
		}
	}
}
