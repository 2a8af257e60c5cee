package carve

import (
	"bytes"
	"testing"

	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/mapgeo"
)

// TestCommittedEncoding checks that every committed geometry file is
// exactly what Encode writes for what it holds, so that the generator's
// next run changes only what really changed.
func TestCommittedEncoding(t *testing.T) {
	n := 0
	for _, name := range variants.Names() {
		src, ok := variants.GeoJSON(name)
		if !ok {
			continue
		}
		n++
		g, err := mapgeo.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out, err := Encode(g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(out, src) {
			t.Errorf("%s.geo.json is not in Encode's form (%d bytes, Encode writes %d)", name, len(src), len(out))
		}
	}
	if n < 2 {
		t.Errorf("%d geometry files checked, want standard and 34-35-36 at least", n)
	}
}
