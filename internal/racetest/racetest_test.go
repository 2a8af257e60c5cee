package racetest

import (
	"fmt"
	"slices"
	"testing"
)

// TestSpread: without the race detector the whole space, with it the
// elements the hash chooses (about one in stride) and those always
// named; a stride of 1 or less keeps all. Adding an element leaves the
// choice of the others as it was.
func TestSpread(t *testing.T) {
	var all []string
	for i := range 60 {
		all = append(all, fmt.Sprint("board-", i))
	}
	got := Spread(all, 4)
	want := all
	if Enabled {
		want = slices.DeleteFunc(slices.Clone(all), func(s string) bool { return !chosen(s, 4) })
		if len(want) < 60/4/2 || len(want) > 60/4*2 {
			t.Errorf("the hash chose %d of 60, want about 15", len(want))
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Spread(all, 4) = %v, want %v (race detector on: %v)", got, want, Enabled)
	}
	// One more element, first: the others are chosen as before.
	more := Spread(append([]string{"board-new"}, all...), 4)
	if !slices.Equal(slices.DeleteFunc(more, func(s string) bool { return s == "board-new" }), got) {
		t.Errorf("adding an element changed the choice of the others")
	}
	got = Spread(all, 4, "board-5", "board-8")
	for _, v := range []string{"board-5", "board-8"} {
		if !slices.Contains(got, v) {
			t.Errorf("Spread(all, 4, board-5, board-8) = %v, lacks %s", got, v)
		}
	}
	if got := Spread(all, 1); !slices.Equal(got, all) {
		t.Errorf("Spread(all, 1) = %v, want all", got)
	}
	if got := Spread([]int(nil), 3); len(got) != 0 {
		t.Errorf("Spread(nil, 3) = %v, want nothing", got)
	}
}

// TestShare: the whole count without the race detector, a share of it
// (never nothing) with it.
func TestShare(t *testing.T) {
	want := 100_000
	if Enabled {
		want = 10_000
	}
	if got := Share(100_000, 10); got != want {
		t.Errorf("Share(100000, 10) = %d, want %d", got, want)
	}
	if got := Share(3, 10); Enabled && got != 1 || !Enabled && got != 3 {
		t.Errorf("Share(3, 10) = %d", got)
	}
}
