package carve

import (
	"bytes"
	"testing"

	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/mapgeo"
)

// TestCommittedEncoding checks that the committed geometry files are
// exactly what Encode writes for what they hold, so that the generator's
// next run changes only what really changed.
func TestCommittedEncoding(t *testing.T) {
	for _, name := range []string{"standard", "34-35-36"} {
		src, ok := variants.GeoJSON(name)
		if !ok {
			t.Fatalf("%s: no geometry", name)
		}
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
}
