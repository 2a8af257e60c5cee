package gm

import (
	"fmt"
	"slices"
	"testing"
	"time"
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
