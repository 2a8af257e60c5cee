// Package racetest lets a test that walks a whole space (every board,
// every province, every form) walk all of it in the plain pass of
// scripts/test and a spread of it under the race detector, and a test of
// single-goroutine code run in the plain pass alone.
//
// The race detector looks for two goroutines touching one variable; it
// finds nothing more on the thirtieth board than on the third, and it
// makes pure computation (adjudicating, drawing, encoding) five to ten
// times slower. scripts/test therefore runs the whole suite with -race,
// where Spread thins these walks and Sequential tests skip, and then,
// without -race, the tests that use this package (tools/plainpass lists
// them), where Spread returns the whole space and Sequential tests run.
// A walk runs in both passes, on a spread or on all; a Sequential test
// in the plain pass only, and the script fails the run if it did not
// pass there.
package racetest

import (
	"slices"
	"testing"
)

// Spread returns all when the race detector is off, and otherwise every
// stride-th element of all, starting with the first, and the elements
// named in always (a board a test needs, such as the only one with
// constructions), in all's order: the same elements on every run, so that
// a failure under -race reproduces.
func Spread[T comparable](all []T, stride int, always ...T) []T {
	if !Enabled || stride <= 1 {
		return all
	}
	var some []T
	for i, v := range all {
		if i%stride == 0 || slices.Contains(always, v) {
			some = append(some, v)
		}
	}
	return some
}

// Share returns n when the race detector is off, and n/div (at least 1)
// under it: the number of random games or phases a test plays, whole in
// the plain pass and a share of it under -race.
func Share(n, div int) int {
	if !Enabled || div <= 1 {
		return n
	}
	return max(1, n/div)
}

// SequentialSkip is the reason Sequential gives when it skips a test
// under the race detector; scripts/test recognises a race-pass skip by
// the test passing in the plain pass.
const SequentialSkip = "drives single-goroutine code only: under -race it skips, and the plain pass of scripts/test runs it"

// Sequential marks a test that drives only single-goroutine code (one
// game adjudicated, drawn or encoded; one mail handled after another), so
// that the race detector, which looks for two goroutines touching one
// variable, can find nothing in it and only makes it five to ten times
// slower. Under -race the test skips; scripts/test runs it in the plain
// pass and fails the run unless it passed there. Code that runs
// concurrently in the daemon is raced by the tests that run it so.
func Sequential(t testing.TB) {
	t.Helper()
	if Enabled {
		t.Skip(SequentialSkip)
	}
}
