package judge_test

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
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

// TestVariantsWithinAdjudicatorBounds checks every shipped map against
// the sizes the movement adjudicator is built for: convoyPath keeps its
// visited set of fleets on the stack for maps of up to 256 places, and
// markUseful follows convoy routes of up to 16 fleets. Youngstown Redux,
// the largest board, has 195 places and needs at most 11 fleets (from
// the Persian Gulf to Constantinople, round Africa). A map beyond either
// bound needs those two functions looked at first.
func TestVariantsWithinAdjudicatorBounds(t *testing.T) {
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if m.NumLocs() > 256 {
			t.Errorf("%s: %d places, more than 256", name, m.NumLocs())
		}
		if n, from, to := longestConvoy(m); n > 16 {
			t.Errorf("%s: the shortest convoy from %s to %s needs %d fleets, more than 16", name, from, to, n)
		}
	}
}

// longestConvoy returns the most fleets that the shortest convoy between
// two coastal provinces of m needs, and the two provinces.
func longestConvoy(m *judge.Map) (n int, from, to string) {
	var seas []judge.Loc
	for _, p := range m.Provinces() {
		if m.Locs[p].Kind == judge.Sea {
			seas = append(seas, p)
		}
	}
	for _, a := range m.Provinces() {
		if m.Locs[a].Kind != judge.Coast {
			continue
		}
		// Breadth first over the seas: dist is the fleets a chain from a
		// to each sea holds.
		dist := map[judge.Loc]int{}
		var queue []judge.Loc
		for _, s := range seas {
			if m.FleetReaches(s, a) {
				dist[s] = 1
				queue = append(queue, s)
			}
		}
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			for _, g := range seas {
				if _, seen := dist[g]; !seen && m.FleetAdjacent(s, g) {
					dist[g] = dist[s] + 1
					queue = append(queue, g)
				}
			}
		}
		for _, b := range m.Provinces() {
			if m.Locs[b].Kind != judge.Coast || b == a {
				continue
			}
			best := 0
			for s, d := range dist {
				if m.FleetReaches(s, b) && (best == 0 || d < best) {
					best = d
				}
			}
			if best > n {
				n, from, to = best, m.LocName(a), m.LocName(b)
			}
		}
	}
	return n, from, to
}
