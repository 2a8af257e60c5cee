package view

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// CentresByYear, on every variant, takes each year's counts from the
// first position after its Fall (a Winter, or the next Spring or Fall
// when no Winter was played), calls the positions before the first Fall
// the start, and reads the current position as the history's last.
func TestCentresByYear(t *testing.T) {
	for _, name := range variants.Names() {
		mp, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		start := mp.StartPhase()
		y0 := start.Year
		// at returns a position at phase ph whose first power owns n of
		// the centres the start gives anyone.
		at := func(ph judge.Phase, n int) []byte {
			pos := judge.StartPosition(mp)
			owned := 0
			for l, p := range pos.Centers {
				if p == judge.NoPower {
					continue
				}
				if owned < n {
					pos.Centers[l] = 0
				} else {
					pos.Centers[l] = judge.NoPower
				}
				owned++
			}
			pos.Phase = ph
			return jsonpos.EncodePosition(pos, judge.Rules{})
		}
		ph := func(s judge.Season, y int, ty judge.PhaseType) judge.Phase {
			return judge.Phase{Season: s, Year: y, Type: ty}
		}
		rec := func(p judge.Phase, n int) *state.PhaseRecord {
			return &state.PhaseRecord{Phase: p.String(), Position: at(p, n)}
		}
		recs := []*state.PhaseRecord{
			rec(ph(judge.Spring, y0, judge.Movement), 1),
			rec(ph(judge.Fall, y0, judge.Movement), 2),     // still the start
			rec(ph(judge.Winter, y0, judge.Adjustment), 3), // after the first Fall
			rec(ph(judge.Spring, y0+1, judge.Movement), 4), // the same year
			rec(ph(judge.Spring, y0+2, judge.Movement), 5), // no Winter played: after the Fall of y0+1
		}
		h, err := CentresByYear(mp, recs, at(ph(judge.Winter, y0+2, judge.Adjustment), 6))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := []CentreYear{{y0 - 1, true, nil}, {y0, false, nil}, {y0 + 1, false, nil}, {y0 + 2, false, nil}}
		wantOwned := []int{1, 3, 5, 6}
		if len(h.Years) != len(want) {
			t.Fatalf("%s: %d years, want %d: %+v", name, len(h.Years), len(want), h.Years)
		}
		for i, y := range h.Years {
			if y.Year != want[i].Year || y.Start != want[i].Start || len(y.Counts) != len(mp.Powers) {
				t.Errorf("%s: year %d is %d (start %v, %d powers), want %d (start %v)", name, i, y.Year, y.Start, len(y.Counts), want[i].Year, want[i].Start)
				continue
			}
			if n := min(wantOwned[i], len(slices.DeleteFunc(slices.Clone(mp.StartCenters), func(p judge.Power) bool { return p == judge.NoPower }))); y.Counts[0] != n {
				t.Errorf("%s: %d: the first power owns %d, want %d", name, y.Year, y.Counts[0], n)
			}
		}
	}
}

// The phase titles of the mails and of the pages, of every season and
// phase type, and of a finished game's last phase.
func TestPhaseTitles(t *testing.T) {
	for _, tt := range []struct{ ph, title string }{
		{"S1901M", "Spring 1901, movement"},
		{"F1905R", "Fall 1905, retreat"},
		{"W1910A", "Winter 1910, adjustment"},
		{"W1910AX", "Winter 1910, adjustment"},
	} {
		if got := PhaseTitleOf(tt.ph); got != tt.title {
			t.Errorf("PhaseTitleOf(%s) = %q, want %q", tt.ph, got, tt.title)
		}
	}
	if got := PhaseTitleOf("nonsense"); got != "nonsense" {
		t.Errorf("PhaseTitleOf(nonsense) = %q, want it unchanged", got)
	}
}
