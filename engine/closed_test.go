package engine

import (
	"testing"

	"github.com/gmdjudge/gmd/jsonpos"
)

// TestUnorderedClosedProvince: on Loeb9 a fleet in the Arctic Ocean needs
// an order in the Spring, and none in the Fall, when it may only hold;
// Russia's other unit needs one in both.
func TestUnorderedClosedProvince(t *testing.T) {
	for _, tc := range []struct {
		phase string
		want  int
	}{{"S1901M", 2}, {"F1901M", 1}} {
		pos, _, err := jsonpos.DecodePosition([]byte(`{"variant":"loeb9","phase":"` + tc.phase + `","units":[` +
			`{"power":"Russia","type":"F","at":"arc"},{"power":"Russia","type":"A","at":"mos"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		russia, _ := pos.Map.PowerByName("Russia")
		if got := Unordered(pos, russia, nil); len(got) != tc.want {
			t.Errorf("%s: %d units need orders, want %d: %v", tc.phase, len(got), tc.want, got)
		}
	}
}
