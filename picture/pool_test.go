package picture

import (
	"bytes"
	"sync"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestPNGConcurrent: pictures drawn at once from several goroutines, of
// two boards of different sizes, which share the pooled rasters, pixels
// and buffers, are byte for byte the pictures drawn one at a time (and,
// under the race detector, touch no memory another picture uses).
func TestPNGConcurrent(t *testing.T) {
	var want [][]byte
	var poss []*judge.Position
	for _, name := range []string{"standard", "youngstown-redux"} {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		pos := judge.StartPosition(m)
		poss = append(poss, pos)
		want = append(want, pngOf(t, pos, nil))
	}
	const workers = 4
	got := make([][]byte, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			var b bytes.Buffer
			errs[i] = PNG(&b, poss[i%len(poss)], nil)
			got[i] = b.Bytes()
		})
	}
	wg.Wait()
	for i := range workers {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(got[i], want[i%len(want)]) {
			t.Errorf("worker %d: its %s picture differs from the one drawn alone", i, poss[i%len(poss)].Map.Name)
		}
	}
}
