package judge_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestWesternWorld901Neutrals plays godip's two tests of the neutral
// armies on Western World 901 by gmd's rules: the West Franks' fleet in
// Paris bounces off Lothairingia's neutral army alone and takes it with the
// East Franks' support from Swabia, the army destroyed without a retreat;
// and a neutral army missing from Bulgar at the end of a year is put back
// while Bulgar stays unowned, where a power's emptied centre (Novgorod)
// is not refilled by anyone but its owner.
func TestWesternWorld901Neutrals(t *testing.T) {
	b := startBoard(t, "western-world-901")
	wf := b.power("West Frankish Kingdom")
	res := b.play("West Frankish Kingdom: F par - lot")
	b.expect(res, "West Frankish Kingdom: F par - lot", judge.Bounced, "")
	if u, ok := b.pos.UnitAt(b.loc("lot")); !ok || !u.Neutral() {
		t.Fatal("Lothairingia's neutral army is gone after a lone attack")
	}
	res = b.play("West Frankish Kingdom: F par - lot\nEast Frankish Kingdom: A swa S F par - lot")
	b.expect(res, "West Frankish Kingdom: F par - lot", judge.Succeeds, "")
	if len(res.Destroyed) != 1 || !res.Destroyed[0].Neutral() || b.pos.Phase.Type == judge.Retreat {
		t.Fatalf("destroyed %v, next phase %s: want the neutral army destroyed, no retreat", res.Destroyed, b.pos.Phase)
	}
	if u, _ := b.pos.UnitAt(b.loc("lot")); u.Power != wf || u.Type != judge.Fleet || b.pos.Centers[b.loc("lot")] != wf {
		t.Errorf("Lothairingia holds %+v, owned by %v: want the West Frankish fleet, and the centre", u, b.pos.Centers[b.loc("lot")])
	}

	// godip's TestNeutralArmyRebuilt: Bulgar's neutral army and Kiev's
	// fleet in Novgorod taken off before the year; Esteland's neutral
	// army too, and Esteland given to Kiev.
	b = startBoard(t, "western-world-901")
	kiev := b.power("Principality of Kiev")
	for _, p := range []string{"est", "nov", "bul"} {
		b.pos.Units[b.loc(p)] = judge.Unit{Loc: judge.NoLoc}
	}
	b.pos.Centers[b.loc("est")] = kiev
	b.play("")
	b.play("")
	if b.pos.Phase.String() != "W901A" {
		t.Fatalf("phase %s, want W901A: Kiev has a build", b.pos.Phase)
	}
	if u, ok := b.pos.UnitAt(b.loc("bul")); !ok || !u.Neutral() || u.Type != judge.Army {
		t.Error("Bulgar's neutral army was not put back")
	}
	for _, p := range []string{"est", "nov"} {
		if _, ok := b.pos.UnitAt(b.loc(p)); ok {
			t.Errorf("%s refilled, though Kiev owns it", p)
		}
	}
	res = b.play("Principality of Kiev: build A nov")
	b.expect(res, "Principality of Kiev: build A nov", judge.Built, "")
	if _, ok := b.pos.UnitAt(b.loc("est")); ok {
		t.Error("Esteland refilled")
	}
}

// BenchmarkWesternWorld901Spring resolves a first movement phase of
// Western World 901: each power's unit moves to its first neighbour in map
// order (stand-offs, attacks on the neutral armies), and the 28 neutral
// armies hold: a board of 167 places and 64 units.
func BenchmarkWesternWorld901Spring(b *testing.B) {
	m, err := variants.Load("western-world-901")
	if err != nil {
		b.Fatal(err)
	}
	pos := judge.StartPosition(m)
	var orders []judge.Order
	for _, p := range m.Provinces() {
		if u, ok := pos.UnitAt(p); ok && !u.Neutral() {
			to := m.Neighbours(nil, u.Type, u.Loc)[0]
			orders = append(orders, judge.Order{Kind: judge.Move, Power: u.Power, Type: u.Type, Unit: u.Loc, Target: to})
		}
	}
	if res := judge.Adjudicate(pos, orders, judge.DefaultRules); len(res.Results) != 64 {
		b.Fatalf("%d rulings, want 64", len(res.Results))
	}
	b.ReportAllocs()
	for b.Loop() {
		judge.Adjudicate(pos, orders, judge.DefaultRules)
	}
}
