package variants_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// checkHomes compares each power's home centres and the rest of its home
// country with want.
func checkHomes(t *testing.T, m *judge.Map, want map[string]struct{ centres, others string }) {
	t.Helper()
	for name, h := range want {
		p, ok := m.PowerByName(name)
		if !ok {
			t.Fatalf("no power %s", name)
		}
		if got := names(m, m.HomeCenters(nil, p)); !slices.Equal(got, strings.Fields(h.centres)) {
			t.Errorf("%s home centres %v, want %s", name, got, h.centres)
		}
		var others []string
		for _, l := range m.Provinces() {
			if m.Locs[l].Home == p && !m.Locs[l].Center {
				others = append(others, m.LocName(l))
			}
		}
		slices.Sort(others)
		if !slices.Equal(others, strings.Fields(h.others)) {
			t.Errorf("%s home country outside its centres %v, want %s", name, others, h.others)
		}
	}
}

// neighbours is a whole neighbour list expected of a place.
type neighbours struct {
	t    judge.UnitType
	at   string
	want string // sorted, space separated
}

// checkNeighbours compares whole neighbour lists with want.
func checkNeighbours(t *testing.T, m *judge.Map, want []neighbours) {
	t.Helper()
	for _, c := range want {
		got := names(m, m.Neighbours(nil, c.t, locOf(t, m, c.at)))
		if want := strings.Fields(c.want); !slices.Equal(got, want) {
			t.Errorf("%s %s neighbours %v, want %v", c.t, c.at, got, want)
		}
	}
}
