package session

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/internal/cputime"
)

// BenchmarkHandleOrders measures one order mail from arrival to queued
// acknowledgement, with bbolt on disk: the ledger check, the sign-on (the
// password cached after the first mail, as in a running judge), parsing,
// checking each order by adjudication, storing, and rendering the reply.
// The budget is a median of 2 ms, so besides the mean (ns/op) it
// reports the median and the 99th percentile of the single mails: a
// commit that waits for the disk now and then shows in the tail, not in
// the middle.
func BenchmarkHandleOrders(b *testing.B) {
	h := newHarness(b)
	h.startStandard("dt")
	body := "SIGNON Fdt pw-f\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n"
	var took []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		in := &Mail{From: "france@example.org", Subject: "orders", Body: body, MessageID: fmt.Sprintf("<bench.%d@example.org>", i)}
		t0 := time.Now()
		if err := h.m.Handle(in, h.now); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t0))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "ns-median/op")
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "ns-p99/op")
}

// BenchmarkIntakeOrders is BenchmarkHandleOrders through a group commit
// (Intake), as the poller takes a burst: a Commit, so one fsync, every
// intakeGroup mails. The database is on disk (t.TempDir; check that it
// is not a tmpfs where this runs): the fsync is what the group saves.
// Besides the rate by the wall clock it reports the rate per second of
// CPU time, which is what a burst drains at on a machine with a core to
// spare.
func BenchmarkIntakeOrders(b *testing.B) {
	const intakeGroup = 50 // the poller's batchCount
	h := newHarness(b)
	h.startStandard("dt")
	body := "SIGNON Fdt pw-f\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n"
	in := h.m.Intake()
	var commits []time.Duration
	cpu0 := cputime.Used()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m := &Mail{From: "france@example.org", Subject: "orders", Body: body, MessageID: fmt.Sprintf("<bench.%d@example.org>", i)}
		if _, err := in.Take(m, h.now); err != nil {
			b.Fatal(err)
		}
		if (i+1)%intakeGroup == 0 {
			t0 := time.Now()
			if err := in.Commit(); err != nil {
				b.Fatal(err)
			}
			commits = append(commits, time.Since(t0))
		}
	}
	if err := in.Commit(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
	if cpu := cputime.Used() - cpu0; cpu > 0 {
		// The rate one core would give, whatever else runs on the
		// machine; the garbage collector's work counts, as it should.
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "mails/cpu-s")
	}
	if len(commits) > 0 {
		// What the disk costs: a commit's two fsyncs (bbolt syncs the
		// pages, then the meta page).
		slices.Sort(commits)
		b.ReportMetric(float64(commits[len(commits)/2].Microseconds())/1000, "ms-commit-median")
	}
}
