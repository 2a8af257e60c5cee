package view

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestFogNoPowerSeesNothing: a viewer of no power (one the board does not
// know, which the game master's pictures fog as NoPower) sees nothing on
// Western World 901, whose 28 neutral armies and unowned centres belong to
// NoPower too: before the fix it saw every one of them and their
// neighbours. A power still sees only from its own units and centres, not
// from the neutral armies next to it.
func TestFogNoPowerSeesNothing(t *testing.T) {
	m, err := variants.Load("western-world-901")
	if err != nil {
		t.Fatal(err)
	}
	pos := judge.StartPosition(m)
	for p, s := range Sight(pos, judge.NoPower) {
		if s {
			t.Fatalf("NoPower sees %s", m.LocName(judge.Loc(p)))
		}
	}
	fpos := FogPosition(pos, judge.NoPower)
	for _, u := range fpos.Units {
		if u.Type != judge.NoUnit {
			t.Fatalf("NoPower's fogged position shows a unit in %s", m.LocName(u.Loc))
		}
	}
	dk, _ := m.PowerByName("Kingdom of Denmark")
	seen := Sight(pos, dk)
	bul, _ := m.Lookup("bul")
	if seen[bul] {
		t.Error("Denmark sees Bulgar, a neutral army's centre far from it")
	}
}
