package session

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkHandlePreview measures one PREVIEW mail from arrival to queued
// reply: the sign-on, a sandbox of three orders for two powers checked by
// adjudication, the phase adjudicated, and the results written into the
// reply (the map is drawn later, at send time, by the renderer).
func BenchmarkHandlePreview(b *testing.B) {
	h := newHarness(b)
	h.startStandard("dt")
	body := "SIGNON Fdt pw-f\nPREVIEW\nA Par - Bur\nA Mar S A Par - Bur\nGermany: A Mun - Bur\n"
	for i := 0; b.Loop(); i++ {
		in := &Mail{From: "france@example.org", Subject: "preview", Body: body, MessageID: fmt.Sprintf("<bench.%d@example.org>", i)}
		if err := h.m.Handle(in, h.now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandleConditionalWorst measures the most conditional orders
// one mail may carry: 64 conditions of 6 tests each, nested 8 deep,
// every line read and every condition evaluated.
func BenchmarkHandleConditionalWorst(b *testing.B) {
	h := newHarness(b)
	h.startStandard("dt")
	var body strings.Builder
	body.WriteString("SIGNON Fdt pw-f\n")
	for range 8 {
		for range 8 {
			body.WriteString("IF (A Bur OR German A Mun) AND NOT (F Nth OR Russia OWNS Sev) OR A Par AND F Bre\n")
		}
		body.WriteString("A Par - Bur\n")
		for range 8 {
			body.WriteString("ENDIF\n")
		}
	}
	// The mail is within every bound: no line is refused.
	if r := onlyTo(b, h.mail("france@example.org", "orders", body.String()), "france@example.org"); strings.Contains(r.Body, "Error") {
		b.Fatalf("the worst mail within the bounds is refused:\n%s", r.Body)
	}
	for i := 0; b.Loop(); i++ {
		in := &Mail{From: "france@example.org", Subject: "orders", Body: body.String(), MessageID: fmt.Sprintf("<bench.%d@example.org>", i)}
		if err := h.m.Handle(in, h.now); err != nil {
			b.Fatal(err)
		}
	}
}
