//go:build unix

package session

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system;
// benchmarks report it beside the wall clock, which a busy machine
// stretches.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
