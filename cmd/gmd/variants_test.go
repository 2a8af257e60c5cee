package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge/variants"
)

func TestVariantsCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"variants"}, nil, &out, &errb); code != 0 {
		t.Fatalf("gmd variants: status %d, stderr %q", code, errb.String())
	}
	got := out.String()
	for _, name := range variants.Names() {
		if !strings.Contains(got, "\n"+name+": ") && !strings.HasPrefix(got, name+": ") {
			t.Errorf("variant %s missing from:\n%s", name, got)
		}
	}
	for _, want := range []string{
		"standard: Standard, 7 powers, 34 supply centres, victory 18, first phase S1901M, builds home\n" +
			"  Austria (A), England (E), France (F), Germany (G), Italy (I), Russia (R),\n  Turkey (T)\n",
		"chaos: Chaos, 34 powers, 34 supply centres, victory 18, first phase W1900A, builds any, on the standard board\n",
		"  Sweden (4), Trieste (5), Tunis (6), Venice (7), Vienna (8), Warsaw (9)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "  ") && len(l) > 78 {
			t.Errorf("power line longer than 78 columns: %q", l)
		}
	}
	if code := run([]string{"variants", "extra"}, nil, &out, &errb); code != 2 {
		t.Errorf("gmd variants extra: status %d, want 2", code)
	}
}
