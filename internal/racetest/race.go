//go:build race

package racetest

// Enabled reports whether the race detector is on (go test -race).
const Enabled = true
