package judge_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// startBoard returns the variant's starting position as a board.
func startBoard(t *testing.T, variant string) *board {
	t.Helper()
	m, err := variants.Load(variant)
	if err != nil {
		t.Fatal(err)
	}
	return &board{t: t, m: m, pos: judge.StartPosition(m)}
}

// unitsOf lists a power's units as "A par", sorted.
func (b *board) unitsOf(power string) []string {
	var s []string
	p := b.power(power)
	for _, l := range b.m.Provinces() {
		if u, ok := b.pos.UnitAt(l); ok && u.Power == p {
			s = append(s, u.Type.String()+" "+b.m.LocName(u.Loc))
		}
	}
	slices.Sort(s)
	return s
}
