package judge_test

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestConvoyAmongFleetsInEverySea: on Youngstown Redux, the largest board,
// with a fleet in every sea, an army convoyed by a chain of its own
// fleets arrives, short chain or long, around the world through the
// off-board boxes included. The search for convoy routes once counted its
// work in provinces, and on this board ran out before it found even the
// two-fleet route: the army's move was ruled illegal and its convoys
// unneeded.
func TestConvoyAmongFleetsInEverySea(t *testing.T) {
	for _, c := range []struct {
		army, dest, route string
	}{
		{"lon", "mor", "eng mid"},
		{"bre", "tok", "mid bxb bxe spo"},
		{"bre", "sap", "mid bxb bxa bxd npo"},
		{"lon", "ken", "eng mid sao bxc bxg wio hor"},
	} {
		t.Run(c.army+"-"+c.dest, func(t *testing.T) {
			route := strings.Fields(c.route)
			units := []string{"Britain A " + c.army}
			orders := "Britain: A " + c.army + " - " + c.dest + "\n"
			for _, f := range route {
				units = append(units, "Britain F "+f)
				orders += "Britain: F " + f + " C A " + c.army + " - " + c.dest + "\n"
			}
			m := newBoard(t, "youngstown-redux", "S1901M").m
			for _, p := range m.Provinces() {
				if n := m.LocName(p); m.Locs[p].Kind == judge.Sea && !strings.Contains(" "+c.route+" ", " "+n+" ") {
					units = append(units, "France F "+n)
				}
			}
			b := newBoard(t, "youngstown-redux", "S1901M", units...)
			res := b.play(orders)
			for _, line := range strings.Split(strings.TrimSpace(orders), "\n") {
				if r := b.ruling(res, line); r.Outcome != judge.Succeeds {
					t.Errorf("%s: %v %s", line, r.Outcome, r.Reason)
				}
			}
			if u, ok := b.pos.UnitAt(b.loc(c.dest)); !ok || u.Type != judge.Army {
				t.Errorf("no army in %s after the move", c.dest)
			}
		})
	}
}
