package engine

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/jsonpos"
)

// TestUnitLinesNeutral: LIST's unit lines put the neutral units last, as
// "Neutral: ...", after every power's.
func TestUnitLinesNeutral(t *testing.T) {
	pos, _, err := jsonpos.DecodePosition([]byte(`{"phase":"S1901M","units":[{"power":"Neutral","type":"A","at":"ser"},
	 {"power":"Turkey","type":"A","at":"bul"},{"power":"Neutral","type":"F","at":"ion"},{"power":"Austria","type":"A","at":"vie"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Austria: Army Vienna.", "", "Turkey: Army Bulgaria.", "", "Neutral: Army Serbia.", "Neutral: Fleet Ionian Sea."}
	if got := UnitLines(pos); !slices.Equal(got, want) {
		t.Errorf("UnitLines %q, want %q", got, want)
	}
}
