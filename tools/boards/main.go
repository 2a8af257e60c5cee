// Command boards draws a thumbnail of every board and writes README's
// table of the boards, so that both follow the map files.
//
// For each variant it draws the board at its first phase (the picture a
// results mail carries, from the map's geometry where it has one and as a
// schematic otherwise), scales it to thumbWidth pixels wide, and writes
// docs/img/boards/<variant>.png. Then it rewrites the rows between the
// lines "<!-- boards -->" and "<!-- /boards -->" of README.md: one row a
// variant, in variants.Names() order, with its powers, centres and
// victory count as the loaded map has them. The sources cell is the one
// thing written by hand: a row keeps its cell, and a new board's row gets
// the placeholder todoSources, which the package's test refuses until
// someone names the board's sources there.
//
// Usage, from the repository's top directory:
//
//	go run ./tools/boards [variant ...]
//
// With no variant it draws every board; either way the table is written
// whole. The same maps always give the same files.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/image/draw"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/picture"
)

const (
	readmePath = "README.md"
	thumbDir   = "docs/img/boards"
	// thumbWidth is a thumbnail's width in pixels: small enough for a
	// table row, big enough to tell the boards apart.
	thumbWidth = 240
	beginMark  = "<!-- boards -->"
	endMark    = "<!-- /boards -->"
	// todoSources is a new row's sources cell, until someone writes it.
	todoSources = "TODO: name the sources of its map file"
	tableHead   = "| variant | board | powers | centres | victory | sources | map |\n" +
		"| --- | --- | ---: | ---: | --- | --- | --- |\n"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: go run ./tools/boards [variant ...]")
	}
	flag.Parse()
	names := flag.Args()
	if len(names) == 0 {
		names = variants.Names()
	}
	for _, n := range names {
		m, err := variants.Load(n)
		if err != nil {
			fail(err)
		}
		if err := writeThumb(m); err != nil {
			fail(err)
		}
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		fail(fmt.Errorf("%v (run it from the repository's top directory)", err))
	}
	out, err := rewriteTable(string(readme))
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(readmePath, []byte(out), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "boards:", err)
	os.Exit(1)
}

// thumbPath is where the thumbnail of the variant named name lives,
// relative to the repository's top directory.
func thumbPath(name string) string {
	return filepath.ToSlash(filepath.Join(thumbDir, name+".png"))
}

// writeThumb draws m at its first phase and writes the thumbnail.
func writeThumb(m *judge.Map) error {
	var full bytes.Buffer
	if err := picture.PNG(&full, judge.StartPosition(m), nil); err != nil {
		return fmt.Errorf("%s: %v", m.Name, err)
	}
	src, err := png.Decode(&full)
	if err != nil {
		return fmt.Errorf("%s: %v", m.Name, err)
	}
	b := src.Bounds()
	h := (b.Dy()*thumbWidth + b.Dx()/2) / b.Dx()
	dst := image.NewRGBA(image.Rect(0, 0, thumbWidth, h))
	// Catmull-Rom keeps the thin borders and the unit symbols readable
	// at a quarter of the size, where nearest-neighbour drops them.
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&out, dst); err != nil {
		return err
	}
	if err := os.MkdirAll(thumbDir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(thumbPath(m.Name), out.Bytes(), 0o644)
}

// row is one board's line of the table.
type row struct {
	variant, board          string
	powers, centres         int
	victory, sources, thumb string
}

// rowOf makes m's row, with the sources cell given.
func rowOf(m *judge.Map, sources string) row {
	return row{
		variant: m.Name, board: m.Title,
		powers: len(m.Powers), centres: len(m.Centers()),
		victory: victoryText(m), sources: sources,
		thumb: thumbPath(m.Name),
	}
}

// victoryText says how many centres win on m, in the table's words.
func victoryText(m *judge.Map) string {
	switch {
	case m.DynamicVictory:
		return "a majority of the centres"
	case m.VictoryLead > 0:
		return strconv.Itoa(m.VictoryCenters) + ", or a lead of " + strconv.Itoa(m.VictoryLead) + " falling by one a year"
	case m.TiesContinue:
		return strconv.Itoa(m.VictoryCenters) + ", alone in the lead"
	}
	return strconv.Itoa(m.VictoryCenters)
}

func (r row) String() string {
	return fmt.Sprintf("| `%s` | %s | %d | %d | %s | %s | <img src=%q alt=\"%s at the start\"> |",
		r.variant, r.board, r.powers, r.centres, r.victory, r.sources, r.thumb, r.board)
}

// cells splits a table line into its trimmed cells, or returns nil for a
// line that is not a row.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") {
		return nil
	}
	c := strings.Split(line[1:len(line)-1], "|")
	for i := range c {
		c[i] = strings.TrimSpace(c[i])
	}
	return c
}

// tableRows reads the rows between the marks of readme, by variant name.
func tableRows(readme string) (map[string][]string, error) {
	_, rest, ok := strings.Cut(readme, beginMark+"\n")
	if !ok {
		return nil, errors.New("README.md has no line " + beginMark)
	}
	table, _, ok := strings.Cut(rest, endMark)
	if !ok {
		return nil, errors.New("README.md has no line " + endMark)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(table, "\n") {
		c := cells(line)
		if len(c) < 7 || !strings.HasPrefix(c[0], "`") {
			continue
		}
		rows[strings.Trim(c[0], "`")] = c
	}
	return rows, nil
}

// rewriteTable returns readme with the table between the marks written
// from the maps, each row keeping its sources cell.
func rewriteTable(readme string) (string, error) {
	old, err := tableRows(readme)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(tableHead)
	for _, n := range variants.Names() {
		m, err := variants.Load(n)
		if err != nil {
			return "", err
		}
		sources := todoSources
		if c, ok := old[n]; ok && c[5] != "" {
			sources = c[5]
		}
		b.WriteString(rowOf(m, sources).String() + "\n")
	}
	head, rest, _ := strings.Cut(readme, beginMark+"\n")
	_, tail, _ := strings.Cut(rest, endMark)
	return head + beginMark + "\n" + b.String() + endMark + tail, nil
}

// unknownRows lists the rows of readme's table that name no variant.
func unknownRows(readme string) ([]string, error) {
	rows, err := tableRows(readme)
	if err != nil {
		return nil, err
	}
	var bad []string
	for n := range rows {
		if !slices.Contains(variants.Names(), n) {
			bad = append(bad, n)
		}
	}
	slices.Sort(bad)
	return bad, nil
}
