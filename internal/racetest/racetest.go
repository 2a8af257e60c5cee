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
	"fmt"
	"hash/fnv"
	"slices"
	"testing"
)

// Spread returns all when the race detector is off, and otherwise about
// one element in stride, and the elements named in always (a board a
// test needs, such as the only one with constructions), in all's order.
// An element is chosen by a hash of how it prints, not by its place in
// all: the same elements on every run, so that a failure under -race
// reproduces, and the same when an element is added (a new board took
// the place of the one before it, and moved Twenty Twenty, the busiest
// board, into every walk's spread).
func Spread[T comparable](all []T, stride int, always ...T) []T {
	if !Enabled || stride <= 1 {
		return all
	}
	var some []T
	for _, v := range all {
		if chosen(v, stride) || slices.Contains(always, v) {
			some = append(some, v)
		}
	}
	return some
}

// chosen reports whether Spread keeps v: one element in stride, by the
// FNV-1a hash of how v prints.
func chosen[T any](v T, stride int) bool {
	h := fnv.New32a()
	fmt.Fprint(h, v)
	return h.Sum32()%uint32(stride) == 0
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
