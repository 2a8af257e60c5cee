package judge_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestConvoyOneWay plays convoys on North Sea Wars, whose fleet moves from
// the Central North Sea into the trade centres (Wood, Iron, Grains) are
// one-way: a convoy follows the direction of its moves, so an army is
// carried into Wood but never back out, whichever way the route is found
// or written.
func TestConvoyOneWay(t *testing.T) {
	fleets := []string{"Frysians F lns", "Frysians F cns"}

	// Into Wood: Batavia, the Lower and Central North Seas, Wood.
	b := newBoard(t, "north-sea-wars", "S1M", append([]string{"Frysians A bat"}, fleets...)...)
	res := b.play("Frysians: A bat - woo\nFrysians: F lns C A bat - woo\nFrysians: F cns C A bat - woo")
	r := b.ruling(res, "Frysians: A bat - woo")
	if r.Outcome != judge.Succeeds {
		t.Errorf("A bat - woo: %v %q, want it to succeed", r.Outcome, r.Reason)
	}
	var route []string
	for _, l := range r.Route {
		route = append(route, b.m.LocName(l))
	}
	if !slices.Equal(route, []string{"lns", "cns"}) {
		t.Errorf("route into Wood %v, want [lns cns]", route)
	}

	// Out of Wood the same way back: no route, with or without one
	// written, and the army stays.
	for _, move := range []string{"A woo - bat", "A woo - cns - lns - bat"} {
		b := newBoard(t, "north-sea-wars", "S1M", append([]string{"Frysians A woo"}, fleets...)...)
		res := b.play("Frysians: " + move + "\nFrysians: F lns C A woo - bat\nFrysians: F cns C A woo - bat")
		for _, r := range res.Results {
			if r.Order.Unit == b.loc("woo") && r.Outcome == judge.Succeeds {
				t.Errorf("%s: the army was convoyed out of Wood", move)
			}
		}
		if u, ok := b.pos.UnitAt(b.loc("woo")); !ok || u.Type != judge.Army {
			t.Errorf("%s: the army is not in Wood after the move", move)
		}
		if _, ok := b.pos.UnitAt(b.loc("bat")); ok {
			t.Errorf("%s: a unit reached Batavia", move)
		}
	}

	// The move out is illegal, as with no fleets at all (DATC 6.D.32), and
	// so are the convoys and a support of it.
	b = newBoard(t, "north-sea-wars", "S1M", "Frysians A woo", "Frysians F lns", "Frysians F cns", "Frysians F fri")
	res = b.play("Frysians: A woo - bat\nFrysians: F lns C A woo - bat\nFrysians: F cns C A woo - bat\nFrysians: F fri S A woo - bat")
	b.expect(res, "Frysians: A woo - bat", judge.Void, "no convoy route from Wood to Batavia")
	b.expect(res, "Frysians: F cns C A woo - bat", judge.Void, "the fleet in Central North Sea is not needed to convoy the army in Wood")
	b.expect(res, "Frysians: F fri S A woo - bat", judge.Void, "it supports an illegal move (no convoy route from Wood to Batavia)")
}
