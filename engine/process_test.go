package engine

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
)

// writtenText finds the text of an order the adjudicator names otherwise
// than the stored line through the pending order for the same unit.
func TestWrittenTextFallsBackToUnit(t *testing.T) {
	pos, rules, err := jsonpos.DecodePosition([]byte(`{"variant":"standard","phase":"S1901M",
	 "units":[{"power":"France","type":"A","at":"par"},{"power":"France","type":"F","at":"bre"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	mp := pos.Map
	fr, _ := mp.PowerByName("France")
	par, _ := mp.Lookup("par")
	bur, _ := mp.Lookup("bur")
	bre, _ := mp.Lookup("bre")
	// Stored without the unit's type, as an older line might be: the
	// ruling names it "A par - bur".
	pending := []judge.Order{
		{Kind: judge.Move, Power: fr, Unit: par, Target: bur},
		{Kind: judge.Hold, Power: fr, Type: judge.Fleet, Unit: bre},
	}
	stored := pending[0].Canonical(mp)
	res := judge.Adjudicate(pos, pending, rules)
	orders, written := adjudicated(pos, res, pending, map[string]map[string]string{
		"France": {stored: "paris to burgundy"}})
	if !slices.Equal(orders["France"], []string{"A par - bur", "F bre H"}) {
		t.Fatalf("orders %q (stored line %q)", orders["France"], stored)
	}
	if !slices.Equal(written["France"], []string{"paris to burgundy", ""}) {
		t.Errorf("written %q", written["France"])
	}
	// No text at all: no field.
	if _, written := adjudicated(pos, res, pending, nil); written != nil {
		t.Errorf("written %q without texts", written)
	}
}
