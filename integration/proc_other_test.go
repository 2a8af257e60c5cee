//go:build !linux

package integration

import (
	"errors"
	"os/exec"
)

// dieWithParent does nothing: only Linux can have a child killed with
// its parent.
func dieWithParent(*exec.Cmd) {}

// peakRSS is known only on Linux, from /proc.
func peakRSS(int) (int64, error) {
	return 0, errors.New("peak memory is read from /proc, on Linux only")
}
