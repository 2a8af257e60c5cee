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

// Spread returns all when the race detector is off, and otherwise every
// stride-th element of all, starting with the first: the same elements
// on every run, so that a failure under -race reproduces.
func Spread[T any](all []T, stride int) []T {
	if !Enabled || stride <= 1 {
		return all
	}
	var some []T
	for i := 0; i < len(all); i += stride {
		some = append(some, all[i])
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
