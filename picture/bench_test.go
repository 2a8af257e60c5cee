package picture

import (
	"io"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// BenchmarkBoards draws the start of every shipped variant, as SVG and as
// PNG, after a first picture that builds the board: the cost of a phase's
// picture once the variant has been drawn before. Run with -cpu 1.
func BenchmarkBoards(b *testing.B) {
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			b.Fatal(err)
		}
		pos := judge.StartPosition(m)
		for _, f := range []struct {
			name string
			fn   func(io.Writer, *judge.Position, *judge.Resolution) error
		}{{"svg", SVG}, {"png", PNG}} {
			b.Run(name+"/"+f.name, func(b *testing.B) {
				if err := f.fn(io.Discard, pos, nil); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := f.fn(io.Discard, pos, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
