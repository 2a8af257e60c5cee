//go:build unix

// Package cputime measures the processor time of the process, for
// benchmarks to report beside the wall clock, which a busy machine
// stretches.
package cputime

import (
	"syscall"
	"time"
)

// Used returns the CPU time the process has used, user and system.
func Used() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
