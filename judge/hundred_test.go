package judge_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestHundredYear plays Hundred's first year from its starting position:
// England takes Brittany and builds, and France, five units on four
// centres, removes one.
func TestHundredYear(t *testing.T) {
	m, err := variants.Load("hundred")
	if err != nil {
		t.Fatal(err)
	}
	b := &board{t: t, m: m, pos: judge.StartPosition(m)}
	res := b.play("England: A nom - brt")
	b.expect(res, "England: A nom - brt", judge.Succeeds, "")
	res = b.play("England: A brt h")
	if !res.OwnershipChanged || b.pos.Phase.String() != "W1425A" {
		t.Fatalf("phase %s after Fall 1425, ownership changed %v", b.pos.Phase, res.OwnershipChanged)
	}
	res = b.play("England: build A nom\nFrance: remove A pro")
	b.expect(res, "England: build A nom", judge.Built, "")
	b.expect(res, "France: remove A pro", judge.Removed, "")
	if b.pos.Phase.String() != "S1426M" {
		t.Errorf("phase %s after Winter 1425, want S1426M", b.pos.Phase)
	}
	if got := b.pos.UnitCount(); !slices.Equal(got, []int{4, 6, 4}) {
		t.Errorf("units %v, want Burgundy 4, England 6, France 4", got)
	}
}

// TestHundredBuildsAnywhere: a power builds in any vacant centre it owns,
// a neutral one it took included.
func TestHundredBuildsAnywhere(t *testing.T) {
	b := newBoard(t, "hundred", "W1425A", "England A lon", "France A par").
		own("England", "lon", "sco", "par").own("France", "dau", "orl")
	res := b.play("England: build A sco\nEngland: build A par")
	b.expect(res, "England: build A sco", judge.Built, "")
	b.expect(res, "England: build A par", judge.Void, "Paris is not empty")
}
