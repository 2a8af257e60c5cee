package judge_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestAncientMediterraneanYear plays the first year of the Ancient
// Mediterranean from its starting position: Rome takes Sicilia across the
// straits and builds in Neapolis, and Carthage, whose province shares the
// power's name, is ordered by either.
func TestAncientMediterraneanYear(t *testing.T) {
	m, err := variants.Load("ancient-mediterranean")
	if err != nil {
		t.Fatal(err)
	}
	b := &board{t: t, m: m, pos: judge.StartPosition(m)}
	if b.pos.Phase.String() != "S1M" {
		t.Fatalf("starts in %s", b.pos.Phase)
	}
	res := b.play("Rome: F nea - sic\nCarthage: A Carthage - Mauretania\nCarthage: F tha - num")
	b.expect(res, "Rome: F nea - sic", judge.Succeeds, "")
	b.expect(res, "Carthage: A car - mau", judge.Succeeds, "")
	res = b.play("Rome: F sic h\nCarthage: A mau - sag")
	if !res.OwnershipChanged || b.pos.Phase.String() != "W1A" {
		t.Fatalf("phase %s after Fall 1, ownership changed %v", b.pos.Phase, res.OwnershipChanged)
	}
	res = b.play("Rome: build F nea\nCarthage: build A car\nCarthage: build F sag")
	b.expect(res, "Rome: build F nea", judge.Built, "")
	b.expect(res, "Carthage: build A car", judge.Built, "")
	b.expect(res, "Carthage: build F sag", judge.Void, "Saguntum is not a home supply centre of Carthage")
	if b.pos.Phase.String() != "S2M" {
		t.Errorf("phase %s after Winter 1", b.pos.Phase)
	}
}

// TestBaleares checks the archipelago on the real board: no army walks in,
// a convoy carries one in, and a fleet there convoys from Massilia to
// Saguntum with one in the Ligurian Sea.
func TestBaleares(t *testing.T) {
	b := newBoard(t, "ancient-mediterranean", "S1M", "Rome A tar")
	res := b.play("Rome: A tar - bal")
	if r := b.ruling(res, "Rome: A tar - bal"); r.Outcome == judge.Succeeds {
		t.Error("an army walked from Tarraconensis to Baleares")
	}
	b = newBoard(t, "ancient-mediterranean", "S1M", "Rome A mas", "Rome F lig", "Carthage F bal")
	res = b.play("Rome: A mas - sag via convoy\nRome: F lig c A mas - sag\nCarthage: F bal c A mas - sag")
	b.expect(res, "Carthage: F bal C A mas - sag", judge.Succeeds, "")
	b.expect(res, "Rome: A mas - sag via convoy", judge.Succeeds, "")
	b = newBoard(t, "ancient-mediterranean", "S1M", "Rome A tar", "Rome F lig")
	res = b.play("Rome: A tar - bal\nRome: F lig c A tar - bal")
	b.expect(res, "Rome: A tar - bal", judge.Succeeds, "")
}
