// Package racetest lets a test that walks a whole space (every board,
// every province, every form) walk all of it in the plain pass of
// scripts/test and a spread of it under the race detector.
//
// The race detector looks for two goroutines touching one variable; it
// finds nothing more on the thirtieth board than on the third, and it
// makes pure computation (adjudicating, drawing, encoding) five to ten
// times slower. scripts/test therefore runs the whole suite with -race,
// where Spread thins these walks, and then, without -race, every package
// whose tests import racetest, where Spread returns the whole space. No
// test is skipped in either pass: each runs, on a spread or on all.
package racetest

import "slices"

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
