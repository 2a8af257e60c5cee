package main

import (
	"bytes"
	"github.com/gmdjudge/gmd/internal/racetest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// TestRelaxSeparates lays out nodes that all start on one point, the worst
// case, and checks that they end apart, inside the box, and the same way
// twice.
func TestRelaxSeparates(t *testing.T) {
	layout := func() map[string][2]int {
		g := &graph{}
		for i := range 30 {
			id := string(rune('a'+i%26)) + string(rune('a'+i/26))
			g.nodes = append(g.nodes, node{id: id, home: [2]float64{500, 300}, at: [2]float64{500, 300}})
			if i > 0 {
				g.edges = append(g.edges, [2]int{i - 1, i})
			}
		}
		relax(g, 600)
		return places(g)
	}
	a := layout()
	if err := check(a); err != nil {
		t.Fatal(err)
	}
	for id, p := range layout() {
		if a[id] != p {
			t.Fatalf("%s at %v, then at %v: the layout is not deterministic", id, a[id], p)
		}
	}
}

func TestParseSeeds(t *testing.T) {
	seeds, height, err := parseSeeds("x.lonlat", []byte("# c\nwrap -30\nheight 800\nlon -0.1 51.5 # London\nnyk -74 40.7\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds) != 2 || seeds[0] != (seed{"lon", -0.1, 51.5}) || seeds[1].lon != 286 || height != 800 {
		t.Errorf("got %+v height %d", seeds, height)
	}
	for _, bad := range []string{"lon 1\n", "lon x 2\n", "lon 1 95\n", "lon 1 2\nlon 3 4\n", "wrap x\n", "height 5000\n"} {
		if _, _, err := parseSeeds("x.lonlat", []byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestRewrite checks that rewriting replaces the place lines and their
// heading, wherever they were, and that a second run changes nothing.
func TestRewrite(t *testing.T) {
	src := "map M\npower England English E\nplace lon 1 1\nprovince lon land - - London\nprovince par land - - Paris\narmy lon: par\narmy par: lon\n"
	m, err := judge.ParseMap("m", []byte(strings.Replace(src, "place lon 1 1\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	at := map[string][2]int{"lon": {100, 200}, "par": {300, 400}}
	once := rewrite([]byte(src), "m", m, at)
	if bytes.Contains(once, []byte("place lon   1")) || !bytes.HasSuffix(once, []byte("place lon  100 200\nplace par  300 400\n")) {
		t.Errorf("rewritten:\n%s", once)
	}
	if twice := rewrite(once, "m", m, at); !bytes.Equal(once, twice) {
		t.Errorf("a second rewrite changed the file:\n%s", twice)
	}
	got, err := judge.ParseMap("m", once)
	if err != nil || !got.HasPlaces() {
		t.Errorf("rewritten map: %v, HasPlaces %v", err, got != nil && got.HasPlaces())
	}
}

// TestCommittedPlaces checks that the committed map files hold what the
// committed seeds give: whoever edits a seed must rerun the tool. Floating
// point may round differently where the compiler fuses multiply-adds, so
// the check runs on amd64 only, which does not.
func TestCommittedPlaces(t *testing.T) {
	racetest.Sequential(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("layouts are compared on amd64 only")
	}
	seeds, err := filepath.Glob("*.lonlat")
	if err != nil || len(seeds) == 0 {
		t.Fatal("no seed files", err)
	}
	for _, f := range seeds {
		name := strings.TrimSuffix(f, ".lonlat")
		seedSrc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(filepath.Join("..", "..", mapDir, name+".map"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := judge.ParseMap(name, src)
		if err != nil {
			t.Fatal(err)
		}
		ss, height, err := parseSeeds(f, seedSrc)
		if err != nil {
			t.Fatal(err)
		}
		g, height, err := build(m, ss, height)
		if err != nil {
			t.Fatal(err)
		}
		relax(g, height)
		if out := rewrite(src, name, m, places(g)); !bytes.Equal(out, src) {
			t.Errorf("%s.map is not what tools/layout makes of %s: run go run ./tools/layout", name, f)
		}
	}
}
