package judge_test

// DATC-style tests of two map declarations Loeb9 needs, each on a tiny
// board of its own: a province closed in one season (closed.map: Loeb9's
// Arctic Ocean, frozen in the Fall) and a weak crossing (weak.map: the
// strait from Naples to Sicily).

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// at puts the board's position in the given phase of 1901, with units
// ("North F arc") added to or moved in the starting position; "- nwy"
// empties a province.
func (b *board) at(season judge.Season, units ...string) *board {
	b.t.Helper()
	b.pos.Phase = judge.Phase{Season: season, Year: 1901, Type: judge.Movement}
	for _, s := range units {
		w := strings.Fields(s)
		if w[0] == "-" {
			b.pos.Units[b.loc(w[1])] = judge.Unit{Loc: judge.NoLoc}
			continue
		}
		power, typ, where := w[0], w[1], w[2]
		t := judge.Army
		if typ == "F" {
			t = judge.Fleet
		}
		l := b.loc(where)
		b.pos.Units[b.m.Province(l)] = judge.Unit{Type: t, Power: b.power(power), Loc: l}
	}
	return b
}

const closedFall = "Arctic Ocean is closed in the Fall: "

// TestClosedProvinceMoves: in the Fall no unit moves into the closed
// Arctic Ocean, none is supported or convoyed there, and the unit there
// may only hold; in the Spring it is a sea like another, where two fleets
// stand each other off.
func TestClosedProvinceMoves(t *testing.T) {
	b := testBoard(t, "closed").at(judge.Spring)
	res := b.play("North: F nwg - arc\nEast: F sib - arc")
	b.expect(res, "North: F nwg - arc", judge.Bounced, "")
	b.expect(res, "East: F sib - arc", judge.Bounced, "")

	b = testBoard(t, "closed").at(judge.Spring)
	res = b.play("North: F nwg - arc")
	b.expect(res, "North: F nwg - arc", judge.Succeeds, "")

	b = testBoard(t, "closed").at(judge.Fall)
	res = b.play("North: F nwg - arc\nEast: F sib - arc")
	b.expect(res, "North: F nwg - arc", judge.Void, closedFall+"no move or support may reach it")
	b.expect(res, "East: F sib - arc", judge.Void, closedFall+"no move or support may reach it")
	if u, ok := b.pos.UnitAt(b.loc("nwg")); !ok || u.Type != judge.Fleet {
		t.Error("the fleet left the Norwegian Sea for the closed Arctic")
	}

	// A unit in the Arctic in the Fall holds whatever it is told, and no
	// support reaches it.
	b = testBoard(t, "closed").at(judge.Fall, "North F arc", "- nwg", "East F bar")
	res = b.play("North: F arc - nwg\nNorth: F nwy S F arc\nEast: F bar S F sib - nwy")
	b.expect(res, "North: F arc - nwg", judge.Void, closedFall+"a unit there may only hold")
	b.expect(res, "North: F nwy S F arc", judge.Void, closedFall+"no move or support may reach it")
	if u, ok := b.pos.UnitAt(b.loc("arc")); !ok || u.Power != b.power("North") {
		t.Error("the fleet in the Arctic moved in the Fall")
	}
	b = testBoard(t, "closed").at(judge.Fall, "North F arc", "- nwg")
	res = b.play("North: F arc S F nwy - nwg\nNorth: F nwy - nwg")
	b.expect(res, "North: F arc S F nwy - nwg", judge.Void, closedFall+"a unit there may only hold")
	b.expect(res, "North: F nwy - nwg", judge.Succeeds, "")

	// The same orders in the Spring are ordinary ones.
	b = testBoard(t, "closed").at(judge.Spring, "North F arc", "- nwg")
	res = b.play("North: F arc - nwg")
	b.expect(res, "North: F arc - nwg", judge.Succeeds, "")
}

// TestClosedProvinceRetreats: a fleet dislodged next to the Arctic may
// retreat there in the Spring, never in the Fall, when it is destroyed
// for want of another place.
func TestClosedProvinceRetreats(t *testing.T) {
	for _, tc := range []struct {
		season judge.Season
		to     string // where the fleet may retreat, or "" when destroyed
	}{{judge.Spring, "arc"}, {judge.Fall, ""}} {
		b := testBoard(t, "closed").at(tc.season, "East F bar", "East F nwy", "- sib")
		res := b.play("East: F bar - nwg\nEast: F nwy S F bar - nwg")
		b.expect(res, "East: F bar - nwg", judge.Succeeds, "")
		var got string
		for _, r := range res.Retreats {
			for _, l := range r.To {
				got += b.m.LocName(l)
			}
		}
		if got != tc.to {
			t.Errorf("%v: the dislodged fleet may retreat to %q, want %q", tc.season, got, tc.to)
		}
		if destroyed := len(res.Destroyed) == 1; destroyed != (tc.to == "") {
			t.Errorf("%v: destroyed %v", tc.season, res.Destroyed)
		}
		if tc.to == "" {
			continue
		}
		// The retreat itself, in the Spring retreat phase, is legal.
		res = b.play("North: F nwg - arc")
		b.expect(res, "North: F nwg - arc", judge.Succeeds, "")
	}
}

// TestWeakCrossing plays the strait between Naples and Sicily: an army
// crossing adds no strength of its own, so a single support only matches
// a holding unit and two dislodge it; alone it enters an empty Sicily,
// but loses it to any other army with a strength of one.
func TestWeakCrossing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		units  []string
		orders string
		want   map[string]judge.Outcome
	}{
		{"alone against a holding army", nil, "West: A nap - sic",
			map[string]judge.Outcome{"West: A nap - sic": judge.Bounced}},
		{"one support against a holding army", nil, "West: A nap - sic\nWest: F tys S A nap - sic",
			map[string]judge.Outcome{"West: A nap - sic": judge.Bounced}},
		{"two supports dislodge", []string{"West F ion"}, "West: A nap - sic\nWest: F tys S A nap - sic\nWest: F ion S A nap - sic",
			map[string]judge.Outcome{"West: A nap - sic": judge.Succeeds, "East: A sic H": judge.Dislodged}},
		{"alone into an empty Sicily", nil, "West: A nap - sic\nEast: A sic - pal",
			map[string]judge.Outcome{"West: A nap - sic": judge.Succeeds, "East: A sic - pal": judge.Succeeds}},
		{"alone against a move of strength one", []string{"- sic", "East A pal"}, "West: A nap - sic\nEast: A pal - sic",
			map[string]judge.Outcome{"West: A nap - sic": judge.Bounced, "East: A pal - sic": judge.Succeeds}},
		{"supported against a move of strength one", []string{"- sic", "East A pal"},
			"West: A nap - sic\nWest: F tys S A nap - sic\nEast: A pal - sic",
			map[string]judge.Outcome{"West: A nap - sic": judge.Bounced, "East: A pal - sic": judge.Bounced}},
		{"head to head, one support each way", []string{"East F ion"},
			"West: A nap - sic\nWest: F tys S A nap - sic\nEast: A sic - nap\nEast: F ion S A sic - nap",
			map[string]judge.Outcome{"West: A nap - sic": judge.Bounced, "East: A sic - nap": judge.Bounced}},
	} {
		b := testBoard(t, "weak").at(judge.Spring, tc.units...)
		res := b.play(tc.orders)
		for order, out := range tc.want {
			if r := b.ruling(res, order); r.Outcome != out {
				t.Errorf("%s: %s: %v, want %v", tc.name, order, r.Outcome, out)
			}
		}
	}
}

// TestWeakCrossingSupportAndCut: no unit supports across the strait; a
// move across it with no support cuts no support, and one with a support
// cuts as any attack does.
func TestWeakCrossingSupportAndCut(t *testing.T) {
	b := testBoard(t, "weak").at(judge.Spring)
	res := b.play("West: A nap S F tys - sic\nWest: F tys - sic")
	b.expect(res, "West: A nap S F tys - sic", judge.Void, "the army in Naples can't get to Sicily")

	b = testBoard(t, "weak").at(judge.Spring)
	res = b.play("East: A sic S A nap")
	b.expect(res, "East: A sic S A nap", judge.Void, "the army in Sicily can't get to Naples")

	// East's army in Sicily supports its army in Palermo; an unsupported
	// army crossing to Sicily leaves that support standing.
	for _, tc := range []struct {
		name   string
		orders string
		cut    bool
	}{
		{"alone", "West: A nap - sic", false},
		{"with a support", "West: A nap - sic\nWest: F ion S A nap - sic", true},
	} {
		b := testBoard(t, "weak").at(judge.Spring, "East A pal", "West F ion")
		res := b.play(tc.orders + "\nEast: A sic S A pal")
		r := b.ruling(res, "East: A sic S A pal")
		if got := r.Outcome == judge.Cut; got != tc.cut {
			t.Errorf("%s: the support from Sicily %v, want cut %v", tc.name, r.Outcome, tc.cut)
		}
	}
}

// TestWeakCrossingRetreats: an army dislodged in Naples does not retreat
// across the strait to an empty Sicily, and is destroyed when it has
// nowhere else to go.
func TestWeakCrossingRetreats(t *testing.T) {
	b := testBoard(t, "weak").at(judge.Spring, "- sic", "East A rom", "East A apu")
	res := b.play("East: A rom - nap\nEast: A apu S A rom - nap")
	b.expect(res, "East: A rom - nap", judge.Succeeds, "")
	if len(res.Retreats) != 0 || len(res.Destroyed) != 1 {
		t.Errorf("retreats %v, destroyed %v: want the army in Naples destroyed, Sicily being across the strait", res.Retreats, res.Destroyed)
	}
}
