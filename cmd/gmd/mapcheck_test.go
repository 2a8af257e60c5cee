package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMapCheckCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("duel.map", "base standard\nmap Duel victory 18 centres 34\npower England English E\npower France French F\n"+
		"unit England F lon\nunit France A par\n")
	bad := write("bad.txt", "map Bad\npower England English E\nprovince lon coast sc England London\n"+
		"province wal coast - England Wales\nprovince eng sea - - Channel\narmy lon: wal\nfleet lon: eng\nfleet eng: lon\n")
	for _, tc := range []struct {
		args       []string
		code       int
		out, errs  string
		wholeError bool
	}{
		{[]string{"map", "check", good}, 0,
			good + ": Duel, 2 powers, 34 supply centres, victory 18, first phase S1901M, builds home, on the standard board\n" +
				"  75 provinces (81 places with the split coasts), 222 army and 282 fleet moves, 2 units at the start\n" +
				"  England (E), France (F)\n", "", false},
		{[]string{"map", "check", "../../judge/testdata/maps/neutral.map"}, 0,
			"../../judge/testdata/maps/neutral.map: Neutral, 2 powers, 6 supply centres, victory 4, first phase S1901M, builds home\n" +
				"  8 provinces (8 places with the split coasts), 20 army and 2 fleet moves, 6 units at the start, 2 of them neutral\n" +
				"  Redland (R), Blueland (B)\n", "", false},
		{[]string{"map", "check", "../../judge/testdata/maps/impassable.map"}, 0,
			"../../judge/testdata/maps/impassable.map: Impassable, 2 powers, 2 supply centres, victory 2, first phase S1901M, builds home\n" +
				"  4 provinces (4 places with the split coasts), 4 army and 0 fleet moves, 2 units at the start\n" +
				"  1 impassable province\n  Westland (W), Eastland (E)\n", "", false},
		{[]string{"map", "check", bad}, 1, "",
			bad + ":4: coast wal touches no sea: list a sea (or a coast on the way to one) in its fleet line, or make the province land\n" +
				bad + ":6: army lon: wal is one-way: wal has no army line\n", true},
		{[]string{"map", "check", filepath.Join(dir, "none.map")}, 1, "", "no such file", false},
		{[]string{"map", "check"}, 2, "", "usage: gmd map check FILE", false},
		{[]string{"map", "list", good}, 2, "", "usage: gmd map check FILE", false},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, nil, &out, &errb)
		if code != tc.code || out.String() != tc.out {
			t.Errorf("%v: status %d, stdout %q; want %d, %q", tc.args, code, out.String(), tc.code, tc.out)
		}
		if tc.wholeError && errb.String() != tc.errs || !strings.Contains(errb.String(), tc.errs) {
			t.Errorf("%v: stderr %q, want %q", tc.args, errb.String(), tc.errs)
		}
	}
}
