package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/report"
)

// TestLeadNote checks the sentence that tells Twenty Twenty's players the
// lead that wins this year: 20 in 2001, one fewer each year, one from 2020
// on; a Winter speaks of the year to come, since its own has been judged;
// a board without the rule says nothing.
func TestLeadNote(t *testing.T) {
	m, err := variants.Load("twenty-twenty")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		phase, want string
	}{
		{"S2001M", "A lead of 20 supply centres over every other power at the end of 2001 also wins."},
		{"F2001R", "A lead of 20 supply centres over every other power at the end of 2001 also wins."},
		{"W2001A", "A lead of 19 supply centres over every other power at the end of 2002 also wins."},
		{"S2015M", "A lead of 6 supply centres over every other power at the end of 2015 also wins."},
		{"W2019A", "A lead of 1 supply centre over every other power at the end of 2020 also wins."},
		{"S2040M", "A lead of 1 supply centre over every other power at the end of 2040 also wins."},
	} {
		ph, err := judge.ParsePhase(tc.phase)
		if err != nil {
			t.Fatal(err)
		}
		if got := report.LeadNote(judge.NewPosition(m, ph)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.phase, got, tc.want)
		}
	}
	std, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	if got := report.LeadNote(judge.StartPosition(std)); got != "" {
		t.Errorf("standard: %q, want nothing", got)
	}
}

// TestLeadNoteInResults checks that the results of Twenty Twenty's Fall,
// after the ownership table, say what lead wins the next year.
func TestLeadNoteInResults(t *testing.T) {
	m, err := variants.Load("twenty-twenty")
	if err != nil {
		t.Fatal(err)
	}
	pos := judge.StartPosition(m)
	pos.Phase = judge.Phase{Season: judge.Fall, Year: 2001, Type: judge.Movement}
	res := judge.Adjudicate(pos, nil, judge.DefaultRules)
	var b bytes.Buffer
	if err := report.WriteResults(&b, pos, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	t.Logf("the end of the results:\n%s", out[max(0, len(out)-400):])
	want := "\nA lead of 19 supply centres over every other power at the end of 2002 also wins.\n"
	if !strings.Contains(out, want) {
		t.Errorf("results lack %q", want)
	}
}
