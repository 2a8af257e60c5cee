package judge_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestFallOfEurope1908Year plays the first year of "1908 - Fall of
// Europe" from its starting position through the published special
// borders: a British fleet sails from Cairo to the Mid-Atlantic (rule 2),
// a French army marches from Marseilles to Spain and then is convoyed from
// Casablanca to Cairo through the Mid-Atlantic, and the Winter has French
// builds and a British removal.
func TestFallOfEurope1908Year(t *testing.T) {
	b := startBoard(t, "1908-fall-of-europe")
	b.play("Britain: F cai - mid\nFrance: A mar - spa")
	if b.pos.Phase.String() != "F1908M" {
		t.Fatalf("phase %s after Spring", b.pos.Phase)
	}
	if got := b.unitsOf("Britain"); !slices.Equal(got, []string{"A lvp", "F edi", "F lon", "F mid"}) {
		t.Fatalf("British units %v after Spring", got)
	}
	b.play("Britain: F mid C France A cas - cai\nFrance: A cas - cai")
	if b.pos.Phase.String() != "W1908A" {
		t.Fatalf("phase %s after Fall", b.pos.Phase)
	}
	if got := b.unitsOf("France"); !slices.Equal(got, []string{"A cai", "A par", "A spa", "F bre"}) {
		t.Fatalf("French units %v after Fall", got)
	}
	counts := b.pos.CenterCount()
	if counts[b.power("France")] != 6 || counts[b.power("Britain")] != 3 {
		t.Fatalf("centres: France %d, Britain %d; want 6 and 3", counts[b.power("France")], counts[b.power("Britain")])
	}
	res := b.play("France: build A mar\nFrance: build F cas\nBritain: remove F mid")
	b.expect(res, "France: build A mar", judge.Built, "")
	b.expect(res, "France: build F cas", judge.Built, "")
	if b.pos.Phase.String() != "S1909M" {
		t.Fatalf("phase %s after Winter", b.pos.Phase)
	}
	if got := b.unitsOf("Britain"); !slices.Equal(got, []string{"A lvp", "F edi", "F lon"}) {
		t.Errorf("British units %v after Winter", got)
	}
	if got := b.unitsOf("France"); !slices.Equal(got, []string{"A cai", "A mar", "A par", "A spa", "F bre", "F cas"}) {
		t.Errorf("French units %v after Winter", got)
	}
}
