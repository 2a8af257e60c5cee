package web

import (
	"testing"

	"github.com/gmdjudge/gmd/jsonpos"
)

// TestUnitsOfNeutral: the pages' unit list has a last row, Neutral, for
// the units of no power, instead of leaving them out.
func TestUnitsOfNeutral(t *testing.T) {
	pos, _, err := jsonpos.DecodePosition([]byte(`{"phase":"S1901M","units":[{"power":"Neutral","type":"A","at":"ser"},
	 {"power":"Austria","type":"A","at":"vie"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := unitsOf(pos)
	if len(rows) != 2 || rows[0].Power != "Austria" || rows[1].Power != "Neutral" || len(rows[1].Units) != 1 || rows[1].Units[0] != "Army Serbia" {
		t.Errorf("unit rows %+v, want Austria's then Neutral: Army Serbia", rows)
	}
}
