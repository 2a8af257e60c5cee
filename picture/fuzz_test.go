package picture

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// FuzzSchematic draws the start of whatever map the map file parser
// accepts, as gmd map check's maps are drawn: a map file from outside has
// no geometry, so its picture is the schematic, at its place lines or at
// the computed layout. Odd places (all on one spot, on the box's edge)
// and odd boards (one province, no adjacency) must give an SVG, never a
// panic.
func FuzzSchematic(f *testing.F) {
	const mini = "map Mini\npower England English E\npower France French F\n" +
		"province lon coast sc England London\nprovince par land sc France Paris\n" +
		"province eng sea - - \"English Channel\"\nprovince spa coast - - Spain\n" +
		"coast spa/nc \"Spain (north coast)\"\ncoast spa/sc \"Spain (south coast)\"\n" +
		"army par: spa\narmy spa: par\nfleet lon: eng\nfleet eng: lon spa/nc spa/sc\n" +
		"fleet spa/nc: eng\nfleet spa/sc: eng\n" +
		"unit England F lon\nunit France A par\n"
	f.Add(mini)
	f.Add(mini + "place lon 0 0\nplace par 0 0\nplace eng 0 0\nplace spa 0 0\n")
	f.Add(mini + "place lon 1000 0\nplace par 0 1000\nplace eng 1000 1000\nplace spa 0 0\n")
	if src, err := os.ReadFile(filepath.Join("..", "judge", "variants", "pure.map")); err == nil {
		f.Add(string(src))
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := judge.ParseMap("fuzz", []byte(src))
		if err != nil || len(m.Provinces()) > 80 {
			return // a big board only makes the layout slow
		}
		var b bytes.Buffer
		if err := SVG(&b, judge.StartPosition(m), nil); err != nil {
			t.Fatal(err)
		}
		parseSVG(t, b.Bytes())
	})
}
