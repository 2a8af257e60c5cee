package judge_test

import (
	"slices"
	"testing"
)

// TestConvoyRouteFound: an army that goes by convoy without writing its
// route gets, in its ruling, the seas of the fleets ordered to convoy it,
// so that the results can print "Army London -> North Sea -> Norway." as
// njudge does.
func TestConvoyRouteFound(t *testing.T) {
	cases := []struct {
		name   string
		units  []string
		orders string
		army   string   // the army's province
		want   []string // the route's seas; nil for none
	}{
		{"one fleet", []string{"England A lon", "England F nth"},
			"England: A lon - nwy\nEngland: F nth C A lon - nwy", "lon", []string{"nth"}},
		{"a chain, army first", []string{"England A lon", "England F eng", "France F mao"},
			"England: A lon - por\nEngland: F eng C A lon - por\nFrance: F mao C A lon - por", "lon", []string{"eng", "mao"}},
		{"the shortest of two", []string{"England A lon", "England F nth", "England F eng", "England F mao", "England F iri"},
			"England: A lon - por\nEngland: F eng C A lon - por\nEngland: F mao C A lon - por\nEngland: F iri C A lon - por\nEngland: F nth C A lon - por",
			"lon", []string{"eng", "mao"}},
		// The convoy fails, but the results still say which way it went.
		{"a dislodged fleet", []string{"England A lon", "England F nth", "Germany F hel", "Germany F ska"},
			"England: A lon - nwy\nEngland: F nth C A lon - nwy\nGermany: F hel - nth\nGermany: F ska S F hel - nth", "lon", []string{"nth"}},
		{"written route", []string{"England A lon", "England F nth"},
			"England: A lon - nth - nwy\nEngland: F nth C A lon - nwy", "lon", nil},
		{"over land", []string{"France A par"}, "France: A par - bur", "par", nil},
		{"no fleet", []string{"England A lon"}, "England: A lon - nwy", "lon", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBoard(t, "standard", "S1901M", c.units...)
			res := b.play(c.orders)
			army := b.loc(c.army)
			var got []string
			found := false
			for _, r := range res.Results {
				if r.Order.Unit == army {
					found = true
					for _, l := range r.Route {
						got = append(got, b.m.Locs[l].Name)
					}
				}
			}
			if !found {
				t.Fatalf("no ruling for the army in %s", c.army)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("route %v, want %v", got, c.want)
			}
		})
	}
}
