package judge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseMap feeds the map file parser, the reader of map files from
// outside (gmd map check), with mangled maps: it must not panic, every
// error it gives is a *MapError, and a map it accepts has every
// province placed within the picture's box, or none.
func FuzzParseMap(f *testing.F) {
	f.Add(miniMap)
	f.Add(miniMap + miniPlaces)
	f.Add(miniMap + "place lon 1000 0\nplace lon 0 0\nplace spa/nc 5 5\n")
	f.Add(miniMap + "archipelago spa\noneway fleet eng: iri\nbase standard\n")
	for _, name := range []string{"pure.map", "hundred.map"} {
		if src, err := os.ReadFile(filepath.Join("variants", name)); err == nil {
			f.Add(string(src))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := ParseMap("fuzz", []byte(src))
		if err != nil {
			for _, e := range unjoin(err) {
				var me *MapError
				if !errors.As(e, &me) || !strings.HasPrefix(e.Error(), "fuzz.map") {
					t.Fatalf("error %q (%T) is no MapError of fuzz.map", e, e)
				}
			}
			return
		}
		for _, p := range m.Provinces() {
			at := m.Locs[p].At
			if !m.HasPlaces() {
				if at != [2]int16{} {
					t.Fatalf("%s placed at %v on a map without places", m.Locs[p].Name, at)
				}
				continue
			}
			if at[0] < 0 || at[0] > MaxPlace || at[1] < 0 || at[1] > MaxPlace {
				t.Fatalf("%s placed at %v, outside the box", m.Locs[p].Name, at)
			}
		}
		StartPosition(m) // the map must make a position
	})
}

// unjoin returns the errors that errors.Join put together in err, or err.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
