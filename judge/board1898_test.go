package judge_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// Test1898Year plays the first year of 1898: Austria's one army takes
// Vienna, so that Austria, owning Trieste and Vienna, has one build, which
// it may place in Trieste (a home centre it owns, empty again) but not in
// Budapest, a home centre it has not taken; Russia, which took Sweden and
// kept St Petersburg, builds there but not in Moscow; England, which took
// nothing, has no build; each power's home centres are still the
// standard ones.
func Test1898Year(t *testing.T) {
	b := startBoard(t, "1898")
	std := startBoard(t, "standard")
	for p := range b.m.Powers {
		got, want := b.m.HomeCenters(nil, judge.Power(p)), std.m.HomeCenters(nil, judge.Power(p))
		if !slices.Equal(got, want) {
			t.Errorf("%s: home centres %v, want the standard %v", b.m.Powers[p].Name, got, want)
		}
	}
	if b.pos.Phase.String() != "S1899M" {
		t.Fatalf("first phase %s, want S1899M", b.pos.Phase)
	}
	b.play("Austria: A tri - vie\nRussia: A stp - fin")
	b.play("Russia: A fin - swe")
	if b.pos.Phase.String() != "W1899A" {
		t.Fatalf("phase %s after Fall 1899, want W1899A", b.pos.Phase)
	}
	if got := b.pos.CenterCount(); got[b.power("Austria")] != 2 || got[b.power("Russia")] != 2 {
		t.Errorf("centres %v: want Austria and Russia on 2", got)
	}
	res := b.play("Austria: build A bud\nAustria: build F tri\nRussia: build A mos\nRussia: build F stp/nc\nEngland: build F lon")
	b.expect(res, "Austria: build A bud", judge.Void, "Austria does not own Budapest")
	b.expect(res, "Austria: build F tri", judge.Built, "")
	b.expect(res, "Russia: build A mos", judge.Void, "Russia does not own Moscow")
	b.expect(res, "Russia: build F stp/nc", judge.Built, "")
	b.expect(res, "England: build F lon", judge.Void, "England has no builds")
}
