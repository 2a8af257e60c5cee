package gm

import (
	"fmt"
	"testing"
)

// BenchmarkHandleOrders measures one order mail from arrival to queued
// acknowledgement, with bbolt on disk: the ledger check, the sign-on (the
// password cached after the first mail, as in a running judge), parsing,
// checking each order by adjudication, storing, and rendering the reply.
// The budget is a median of 2 ms.
func BenchmarkHandleOrders(b *testing.B) {
	h := newHarness(b)
	h.startStandard("dt")
	body := "SIGNON Fdt pw-f\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n"
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		in := &Mail{From: "france@example.org", Subject: "orders", Body: body, MessageID: fmt.Sprintf("<bench.%d@example.org>", i)}
		if err := h.m.Handle(in, h.now); err != nil {
			b.Fatal(err)
		}
	}
}
