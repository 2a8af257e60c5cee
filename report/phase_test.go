package report

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// Every kind of phase has its words: the mails' season and the pictures'
// and pages' title.
func TestPhaseWords(t *testing.T) {
	for _, tt := range []struct{ ph, season, title string }{
		{"S1901M", "Spring of 1901", "Spring 1901, movement"},
		{"S1902R", "Spring of 1902", "Spring 1902, retreat"},
		{"F1905M", "Fall of 1905", "Fall 1905, movement"},
		{"F1905R", "Fall of 1905", "Fall 1905, retreat"},
		{"W1910A", "Winter of 1910", "Winter 1910, adjustment"},
	} {
		p, err := judge.ParsePhase(tt.ph)
		if err != nil {
			t.Fatal(err)
		}
		if got := Season(p); got != tt.season {
			t.Errorf("Season(%s) = %q, want %q", tt.ph, got, tt.season)
		}
		if got := PhaseTitle(p); got != tt.title {
			t.Errorf("PhaseTitle(%s) = %q, want %q", tt.ph, got, tt.title)
		}
	}
}

// The one plural rule: one for 1, many for every other count, 0 included.
func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "units", 1: "unit", 2: "units", 17: "units", -1: "units"} {
		if got := Plural(n, "unit", "units"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}
