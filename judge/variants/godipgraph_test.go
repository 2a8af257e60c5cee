package variants_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// checkGodipBorders compares every move of m with godip's graph of the
// same board, border by border: testdata/godip/<variant>.txt lists each
// border of godip's graph once ("A aud cal": armies cross between Audrain
// and Callaway both ways; "F ceo boo": fleets), read off godip's source
// when the board was added. A move of m that godip lacks, or a border of
// godip's that m lacks, fails the test, so a later edit of the map file
// cannot drift from the graph it was checked against without a reason
// written into this file.
func checkGodipBorders(t *testing.T, m *judge.Map, variant string) {
	t.Helper()
	checkBorderList(t, m, variant, filepath.Join("testdata", "godip", variant+".txt"))
}

// checkBorderList is checkGodipBorders on a list of borders in file, in
// the same form, read off another judge's map (njudge's).
func checkBorderList(t *testing.T, m *judge.Map, variant, file string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		w := strings.Fields(line)
		if len(w) != 3 || (w[0] != "A" && w[0] != "F") {
			t.Fatalf("%s: bad border line %q", variant, line)
		}
		want[w[0]+" "+w[1]+" "+w[2]] = true
		want[w[0]+" "+w[2]+" "+w[1]] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for a := range m.Locs {
		// Armies stand in provinces, never on a coast of one.
		for _, ut := range []judge.UnitType{judge.Army, judge.Fleet} {
			if ut == judge.Army && m.Province(judge.Loc(a)) != judge.Loc(a) {
				continue
			}
			for _, b := range m.Neighbours(nil, ut, judge.Loc(a)) {
				got[ut.String()+" "+m.LocName(judge.Loc(a))+" "+m.LocName(b)] = true
			}
		}
	}
	var missing, extra []string
	for e := range want {
		if !got[e] {
			missing = append(missing, e)
		}
	}
	for e := range got {
		if !want[e] {
			extra = append(extra, e)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	if len(missing) > 0 {
		t.Errorf("%s: %d moves of godip's graph are not on the map: %v", variant, len(missing), missing)
	}
	if len(extra) > 0 {
		t.Errorf("%s: %d moves of the map are not in godip's graph: %v", variant, len(extra), extra)
	}
	if len(want) == 0 {
		t.Errorf("%s: no borders read", variant)
	}
}
