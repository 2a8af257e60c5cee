package judge_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestDisruptedLabel: a convoyed move that fails is "disrupted" only where
// a fleet that convoyed it was dislodged, as the label's definition says;
// where the chain lacks a fleet (issue 19: F nth convoys, the route needs
// the Channel, whose fleet holds) it is "no convoy".
func TestDisruptedLabel(t *testing.T) {
	cases := []struct {
		name   string
		units  []string
		orders string
		want   judge.Outcome
	}{
		{"a fleet of the chain holds", []string{"England A yor", "England F nth", "England F eng"},
			"England: A yor - wal via convoy\nEngland: F nth C A yor - wal\nEngland: F eng H", judge.NoConvoy},
		{"no fleet convoys", []string{"England A yor", "England F nth"},
			"England: A yor - hol via convoy\nEngland: F nth H", judge.NoConvoy},
		{"the convoying fleet is dislodged", []string{"England A lon", "England F nth", "Germany F hel", "Germany F ska"},
			"England: A lon - nwy\nEngland: F nth C A lon - nwy\nGermany: F hel - nth\nGermany: F ska S F hel - nth", judge.Disrupted},
		{"a dislodged fleet, and one that holds", []string{"England A yor", "England F nth", "England F eng", "Germany F hel", "Germany F ska"},
			"England: A yor - wal via convoy\nEngland: F nth C A yor - wal\nEngland: F eng H\nGermany: F hel - nth\nGermany: F ska S F hel - nth", judge.Disrupted},
		{"the convoy goes", []string{"England A yor", "England F nth", "England F eng"},
			"England: A yor - wal via convoy\nEngland: F nth C A yor - wal\nEngland: F eng C A yor - wal", judge.Succeeds},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBoard(t, "standard", "S1901M", c.units...)
			res := b.play(c.orders)
			army := b.loc(c.units[0][len("England A "):])
			for _, r := range res.Results {
				if r.Order.Unit == army {
					if r.Outcome != c.want {
						t.Errorf("%s: %v, want %v", c.units[0], r.Outcome, c.want)
					}
					return
				}
			}
			t.Fatalf("no ruling for %s", c.units[0])
		})
	}
}
