package racetest

import (
	"slices"
	"testing"
)

// TestSpread: without the race detector the whole space, with it every
// stride-th element from the first; a stride of 1 or less keeps all.
func TestSpread(t *testing.T) {
	all := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	got := Spread(all, 4)
	want := all
	if Enabled {
		want = []int{0, 4, 8}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Spread(0..9, 4) = %v, want %v (race detector on: %v)", got, want, Enabled)
	}
	got = Spread(all, 4, 5, 8)
	if Enabled {
		want = []int{0, 4, 5, 8}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Spread(0..9, 4, 5, 8) = %v, want %v", got, want)
	}
	if got := Spread(all, 1); !slices.Equal(got, all) {
		t.Errorf("Spread(0..9, 1) = %v, want all", got)
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
