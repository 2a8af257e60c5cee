package judge_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestCantonYear plays the first year of Canton from its starting
// position: Britain marches into Burma, Russia sails into Rumania and
// France sails round to Siam's east coast, and each builds in the Winter;
// Turkey's fleet leaves Constantinople for the Black Sea, comes back, and
// goes on through the canal to the Mediterranean.
func TestCantonYear(t *testing.T) {
	b := startBoard(t, "canton")
	b.play("Britain: A cal - bur\nRussia: F sev - rum\nFrance: F sai - gos\nTurkey: F con - bla")
	if b.pos.Phase.String() != "F1901M" {
		t.Fatalf("phase %s after Spring", b.pos.Phase)
	}
	b.play("France: F gos - sia/ec\nTurkey: F bla - con")
	if b.pos.Phase.String() != "W1901A" {
		t.Fatalf("phase %s after Fall", b.pos.Phase)
	}
	res := b.play("Britain: build A cal\nRussia: build F sev\nFrance: build F sai")
	for _, o := range []string{"Britain: build A cal", "Russia: build F sev", "France: build F sai"} {
		b.expect(res, o, judge.Built, "")
	}
	b.play("Turkey: F con - med")
	if b.pos.Phase.String() != "F1902M" {
		t.Fatalf("phase %s after Spring 1902", b.pos.Phase)
	}
	for power, want := range map[string][]string{
		"Britain": {"A bur", "A cal", "A del", "F mad"},
		"Russia":  {"A irk", "A mos", "F kha", "F rum", "F sev"},
		"France":  {"A han", "A hue", "F sai", "F sia/ec"},
		"Turkey":  {"A bag", "A dam", "F med"},
	} {
		if got := b.unitsOf(power); !slices.Equal(got, want) {
			t.Errorf("%s units %v, want %v", power, got, want)
		}
	}
	counts := b.pos.CenterCount()
	for power, want := range map[string]int{"Britain": 4, "Russia": 5, "France": 4, "Turkey": 3, "China": 4} {
		if got := counts[b.power(power)]; got != want {
			t.Errorf("%s owns %d centres, want %d", power, got, want)
		}
	}
}
