package variants_test

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// checkNeutralCentres compares the centres that are nobody's home with
// want, their ids in map order, space separated.
func checkNeutralCentres(t *testing.T, m *judge.Map, want string) {
	t.Helper()
	var neutral []judge.Loc
	for _, c := range m.Centers() {
		if m.Locs[c].Home == judge.NoPower {
			neutral = append(neutral, c)
		}
	}
	if got := strings.Join(names(m, neutral), " "); got != want {
		t.Errorf("%s: neutral centres %s, want %s", m.Name, got, want)
	}
}

// checkLookups checks that each name (an alias, a spelling of another
// judge's) finds the province or coast id it is mapped to.
func checkLookups(t *testing.T, m *judge.Map, want map[string]string) {
	t.Helper()
	for name, id := range want {
		if got := m.LocName(locOf(t, m, name)); got != id {
			t.Errorf("%s: Lookup(%q) = %s, want %s", m.Name, name, got, id)
		}
	}
}
