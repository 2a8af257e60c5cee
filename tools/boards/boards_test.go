package main

import (
	"bytes"
	"github.com/gmdjudge/gmd/internal/racetest"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge/variants"
)

// top is the repository's top directory, where README.md and the
// thumbnails are; the test runs in tools/boards.
const top = "../.."

// howToAdd is what a failure tells the engineer who added a board.
const howToAdd = "run `go run ./tools/boards VARIANT` from the repository's top directory: " +
	"it draws docs/img/boards/VARIANT.png and writes README's row; then replace the row's " +
	"sources cell (" + todoSources + ") with the sources its map file names, and commit both"

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(top, readmePath))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeListsEveryBoard checks README's table of the boards against
// the maps: a row for every variant and none for another, each with its
// sources named and its powers, centres and victory count as the loaded
// map has them, and the table as tools/boards writes it.
func TestReadmeListsEveryBoard(t *testing.T) {
	text := readme(t)
	rows, err := tableRows(text)
	if err != nil {
		t.Fatalf("%v: put the two lines around README's table of the boards", err)
	}
	for _, n := range variants.Names() {
		m, err := variants.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := rows[n]
		if !ok {
			t.Errorf("README.md has no row for the board %s: %s", n, strings.ReplaceAll(howToAdd, "VARIANT", n))
			continue
		}
		want := cells(rowOf(m, c[5]).String())
		for i, what := range []string{"variant", "board", "powers", "centres", "victory"} {
			if c[i] != want[i] {
				t.Errorf("README.md, the row of %s: %s %q, but its map says %q: run `go run ./tools/boards %s` from the repository's top directory",
					n, what, c[i], want[i], n)
			}
		}
		if c[5] == "" || c[5] == todoSources {
			t.Errorf("README.md, the row of %s: name the sources of its map file in the sources cell, not %q", n, c[5])
		}
		if c[6] != want[6] {
			t.Errorf("README.md, the row of %s: thumbnail cell %q, want %q", n, c[6], want[6])
		}
	}
	bad, err := unknownRows(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range bad {
		t.Errorf("README.md has a row for %s, which is no variant: remove it, or run `go run ./tools/boards`", n)
	}
	if got, err := rewriteTable(text); err != nil {
		t.Error(err)
	} else if got != text {
		t.Error("README's table of the boards is not as tools/boards writes it: run `go run ./tools/boards` from the repository's top directory")
	}
}

// TestThumbnailOfEveryBoard checks that every variant has its thumbnail, a
// PNG thumbWidth pixels wide, between a quarter of that and twice that
// tall (a drawn board keeps its proportions, which are never stranger).
func TestThumbnailOfEveryBoard(t *testing.T) {
	for _, n := range variants.Names() {
		b, err := os.ReadFile(filepath.Join(top, thumbPath(n)))
		if err != nil {
			t.Errorf("no thumbnail of %s (%v): %s", n, err, strings.ReplaceAll(howToAdd, "VARIANT", n))
			continue
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: %v", thumbPath(n), err)
			continue
		}
		if cfg.Width != thumbWidth || cfg.Height < thumbWidth/4 || cfg.Height > 2*thumbWidth {
			t.Errorf("%s is %dx%d, want %d pixels wide: run `go run ./tools/boards %s`", thumbPath(n), cfg.Width, cfg.Height, thumbWidth, n)
		}
	}
}

// TestThumbnailsAreCurrent: each committed thumbnail is the one the
// board's map and geometry draw today, byte for byte, so that a board
// drawn anew (or its marks moved) cannot keep an old picture in README.
func TestThumbnailsAreCurrent(t *testing.T) {
	racetest.Sequential(t)
	for _, n := range variants.Names() {
		m, err := variants.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		want, err := thumbnail(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(top, thumbPath(n)))
		if err != nil {
			continue // TestThumbnailOfEveryBoard says so
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what the board draws today: run `go run ./tools/boards %s`", thumbPath(n), n)
		}
	}
}
