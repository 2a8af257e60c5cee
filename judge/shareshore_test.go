package judge_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge/variants"
)

// TestShareShore checks the pairs of provinces that touch by water on
// the standard map, split coasts and one-sided coasts included.
func TestShareShore(t *testing.T) {
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"spa", "mao", true},    // by the north coast
		{"spa/sc", "mao", true}, // any coast of the province counts
		{"stp", "bar", true},    // north coast only
		{"stp", "bot", true},    // south coast only
		{"bul", "con", true},    // a coast of one, a plain coast of the other
		{"bre", "pic", true},    // two coasts along the Channel
		{"par", "bur", false},   // inland
		{"mun", "kie", false},   // Munich has no shore
		{"spa", "gas", true},    // along the north coast
		{"rom", "ven", false},   // neighbours on different seas
		{"nth", "nwg", true},    // two seas
		{"gol", "ion", false},   // seas that do not meet
	} {
		a, _ := m.Lookup(c.a)
		b, _ := m.Lookup(c.b)
		if got := m.ShareShore(a, b); got != c.want {
			t.Errorf("ShareShore(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := m.ShareShore(b, a); got != c.want {
			t.Errorf("ShareShore(%s, %s) = %v, want %v", c.b, c.a, got, c.want)
		}
	}
}

// TestCoastName: the coast part of a split coast's name, and none for a
// province.
func TestCoastName(t *testing.T) {
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"stp/nc": "nc", "spa/sc": "sc", "bul/ec": "ec", "spa": "", "eng": ""} {
		l, ok := m.Lookup(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		if got := m.CoastName(l); got != want {
			t.Errorf("CoastName(%s) = %q, want %q", name, got, want)
		}
	}
}
