package report

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestNeutralUnits: a neutral unit's line reads "Neutral: Army Serbia
// HOLD." (it takes no orders, so no "No Order Processed"), after every
// power's, a support of it names it Neutral, and a neutral unit dislodged
// "was destroyed", with no talk of retreats.
func TestNeutralUnits(t *testing.T) {
	f := newFixture(t)
	pos := f.position("S1901M", "Austria A bud", "Austria A rum", "Turkey A bul")
	pos.Units[f.loc("ser")] = judge.Unit{Type: judge.Army, Power: judge.NoPower, Loc: f.loc("ser")}
	mv := f.order("Austria", judge.Move, judge.Army, "bud")
	mv.Target = f.loc("ser")
	sup := f.order("Austria", judge.SupportMove, judge.Army, "rum")
	sup.Target, sup.Dest = f.loc("bud"), f.loc("ser")
	sh := f.order("Turkey", judge.SupportHold, judge.Army, "bul")
	sh.Target = f.loc("ser")
	res := judge.Adjudicate(pos, []judge.Order{mv, sup, sh}, judge.DefaultRules)
	var b strings.Builder
	if err := WriteResults(&b, pos, res); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	t.Logf("\n%s", got)
	for _, want := range []string{
		"Turkey: Army Bulgaria SUPPORT Neutral Army Serbia.",
		"\nNeutral: Army Serbia HOLD.\n", // supported: 2 against 2, it stands
	} {
		if !strings.Contains(got, want) {
			t.Errorf("results lack %q", want)
		}
	}
	if !strings.Contains(got, "Austria: Army Budapest -> Serbia. (*bounce*)") {
		t.Errorf("the attack on a supported neutral army did not bounce")
	}

	// Without Turkey's support the army falls and is destroyed.
	res = judge.Adjudicate(pos, []judge.Order{mv, sup}, judge.DefaultRules)
	b.Reset()
	if err := WriteResults(&b, pos, res); err != nil {
		t.Fatal(err)
	}
	got = b.String()
	t.Logf("\n%s", got)
	for _, want := range []string{
		"\nNeutral: Army Serbia HOLD. (*dislodged*)\n",
		"The following units were dislodged:\n\nThe Neutral Army in Serbia was destroyed.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("results lack %q", want)
		}
	}
	if strings.Contains(got, "Serbia, No Order Processed") || strings.Contains(got, "Unowned") {
		t.Error("a neutral unit is written as a power's")
	}
}
