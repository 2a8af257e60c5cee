//go:build !unix

package gm

import "time"

// cpuTime is not known here: benchmarks report no CPU time.
func cpuTime() time.Duration { return 0 }
