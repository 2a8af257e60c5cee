package report

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestYearZero: a board whose first year is 0 (North Sea Wars) names its
// phases "Spring of 0" in the mails and "Spring 0, movement" on pictures
// and pages, and its phase ids read back.
func TestYearZero(t *testing.T) {
	m, err := judge.ParsePhase("S0M")
	if err != nil {
		t.Fatal(err)
	}
	w := judge.Phase{Season: judge.Winter, Year: 0, Type: judge.Adjustment}
	for _, c := range []struct{ got, want string }{
		{Season(m), "Spring of 0"},
		{PhaseTitle(m), "Spring 0, movement"},
		{Season(w), "Winter of 0"},
		{w.String(), "W0A"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
