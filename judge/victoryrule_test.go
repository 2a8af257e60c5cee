package judge_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestRulesVictory plays the end of a year on the standard board with
// France at 18 centres and Germany at 16, under the map's count and
// under counts a game chose (SET VICTORY): a count of 0 keeps the
// map's 18, and 20 leaves France short.
func TestRulesVictory(t *testing.T) {
	for _, c := range []struct {
		victory int
		winner  string
	}{
		{0, "France"},
		{18, "France"},
		{17, "France"},
		{16, "France"}, // both at it: the most centres first
		{19, ""},
		{20, ""},
	} {
		b := newBoard(t, "standard", "F1905M")
		centres := b.m.Centers()
		b.own("France", names(b.m, centres[:18])...).own("Germany", names(b.m, centres[18:34])...)
		res := b.playWith("", judge.Rules{Victory: c.victory})
		got := ""
		if len(res.Winners) > 0 {
			got = b.m.PowerName(res.Winners[0])
		}
		if got != c.winner {
			t.Errorf("victory %d: winner %q, want %q", c.victory, got, c.winner)
		}
		want := c.victory
		if want == 0 {
			want = 18
		}
		if got := (judge.Rules{Victory: c.victory}).VictoryIn(b.pos); got != want {
			t.Errorf("victory %d: VictoryIn %d, want %d", c.victory, got, want)
		}
	}
}
