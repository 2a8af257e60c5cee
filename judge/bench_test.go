package judge_test

import (
	"os"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// openingOrders reads the 22 usual opening orders shipped as the sample
// for gmd adjudicate.
func openingOrders(tb testing.TB, m *judge.Map) []judge.Order {
	src, err := os.ReadFile("../testdata/s1901/orders.txt")
	if err != nil {
		tb.Fatal(err)
	}
	parsed, errs := parser.ParseOrders(string(src), parser.Options{Map: m, Phase: judge.Movement, Power: judge.NoPower})
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	orders := make([]judge.Order, len(parsed))
	for i := range parsed {
		orders[i] = parsed[i].Order
	}
	if len(orders) != 22 {
		tb.Fatalf("sample has %d orders, want 22", len(orders))
	}
	return orders
}

// TestOpening pins the outcome of the sample opening, which the README
// shows: the bounces in Burgundy, Galicia and the Black Sea.
func TestOpening(t *testing.T) {
	m := variants.Standard()
	res := judge.Adjudicate(judge.StartPosition(m), openingOrders(t, m), judge.DefaultRules)
	want := map[string]judge.Outcome{
		"France: A par - bur":    judge.Succeeds, // supported from Marseilles
		"Germany: A mun - bur":   judge.Bounced,
		"Austria: A vie - gal":   judge.Bounced,
		"Russia: A war - gal":    judge.Bounced,
		"Russia: F sev - bla":    judge.Bounced,
		"Turkey: F ank - bla":    judge.Bounced,
		"England: F lon - nth":   judge.Succeeds,
		"Russia: F stp/sc - bot": judge.Succeeds,
		"Italy: A ven H":         judge.Succeeds,
	}
	got := map[string]judge.Outcome{}
	for _, r := range res.Results {
		got[r.Order.CanonicalWithPower(m)] = r.Outcome
	}
	if len(res.Results) != 22 {
		t.Errorf("%d rulings, want 22", len(res.Results))
	}
	for o, w := range want {
		if got[o] != w {
			t.Errorf("%s: got %v, want %v (all: %v)", o, got[o], w, got)
		}
	}
	if res.Next.Phase.String() != "F1901M" {
		t.Errorf("next phase %s, want F1901M", res.Next.Phase)
	}
	if u, ok := res.Next.UnitAt(mustLoc(t, m, "bur")); !ok || m.PowerName(u.Power) != "France" {
		t.Errorf("Burgundy holds %+v, want the French army", u)
	}
}

func mustLoc(tb testing.TB, m *judge.Map, name string) judge.Loc {
	l, ok := m.Lookup(name)
	if !ok {
		tb.Fatalf("no place %q", name)
	}
	return l
}

// BenchmarkSpring1901 resolves the opening with the 22 usual orders; godip
// needs about 1.3 ms for the same on a 2-core machine.
func BenchmarkSpring1901(b *testing.B) {
	m := variants.Standard()
	pos := judge.StartPosition(m)
	orders := openingOrders(b, m)
	b.ReportAllocs()
	for b.Loop() {
		judge.Adjudicate(pos, orders, judge.DefaultRules)
	}
}
