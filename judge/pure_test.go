package judge_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestPureYear plays a year of Pure (armies only, every province a home
// centre): Germany takes London with French support, England is out, and
// Germany's build is an army; a fleet has nowhere to stand.
func TestPureYear(t *testing.T) {
	b := newBoard(t, "pure", "S1901M", "Austria A vie", "England A lon", "France A par", "Germany A ber",
		"Italy A rom", "Russia A mos", "Turkey A con")
	for _, c := range []string{"vie", "lon", "par", "ber", "rom", "mos", "con"} {
		b.pos.Centers[b.loc(c)] = b.m.Locs[b.loc(c)].Home
	}
	res := b.play("Germany: A ber - lon\nFrance: A par s A ber - lon")
	if len(res.Destroyed) != 1 || b.pos.Phase.String() != "F1901M" {
		// London's army has nowhere to go: every other province is held
		// or is the attacker's.
		t.Fatalf("destroyed %v, phase %s after Spring", res.Destroyed, b.pos.Phase)
	}
	res = b.play("Germany: A lon h")
	if !res.OwnershipChanged || b.pos.Phase.String() != "W1901A" {
		t.Fatalf("phase %s after Fall, ownership changed %v", b.pos.Phase, res.OwnershipChanged)
	}
	res = b.play("Germany: build F ber\nGermany: build A ber")
	b.expect(res, "Germany: build F ber", judge.Void, "a fleet cannot be built in Berlin, which is inland")
	b.expect(res, "Germany: build A ber", judge.Built, "")
	if got := b.pos.CenterCount()[b.power("Germany")]; got != 2 {
		t.Errorf("Germany owns %d centres, want 2", got)
	}
}
