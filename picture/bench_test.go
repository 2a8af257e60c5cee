package picture

import (
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// BenchmarkBoards draws the start of every shipped variant, as SVG and as
// PNG, after a first picture that builds the board: the cost of a phase's
// picture once the variant has been drawn before. Run with -cpu 1.
func BenchmarkBoards(b *testing.B) {
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			b.Fatal(err)
		}
		pos := judge.StartPosition(m)
		for _, f := range []struct {
			name string
			fn   func(io.Writer, *judge.Position, *judge.Resolution) error
		}{{"svg", SVG}, {"png", PNG}} {
			b.Run(name+"/"+f.name, func(b *testing.B) {
				if err := f.fn(io.Discard, pos, nil); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				start := cpuTime()
				for b.Loop() {
					if err := f.fn(io.Discard, pos, nil); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, start)
			})
		}
	}
}

// BenchmarkBusiest draws, as PNG, the busiest movement of every board
// in the test corpus with its orders and outcomes, and of a game played
// by bots (playedBusiest, named "-played-"): a picture as a game mails
// it, with the most marks a game makes. Run with -cpu 1.
func BenchmarkBusiest(b *testing.B) {
	for _, s := range append(busiest(corpus(b)), playedBusiest(b)...) {
		if s.res == nil || s.pos.Phase.Type != judge.Movement {
			continue
		}
		b.Run(s.name, func(b *testing.B) {
			if err := PNG(io.Discard, s.pos, s.res); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if err := PNG(io.Discard, s.pos, s.res); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// cpuTime is the CPU time the process has used: on a machine whose other
// work takes turns with the benchmark, the time per picture that does not
// count the waits.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU milliseconds per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
