// Command layout writes the place lines of a map file: where a schematic
// picture draws each province of a variant that has no drawn geometry of
// its own (see judge.ParseMap and issue 14).
//
// For each variant it reads a seed file, tools/layout/<variant>.lonlat,
// that gives every province's rough real-world longitude and latitude,
// projects them into the picture's box (1000 units wide, north up), then
// relaxes the layout: nodes are pushed at least 50 units apart, so that a
// label and a unit fit beside each other, while each stays near its real
// place and adjacent provinces stay near each other. The result replaces
// the place lines of judge/variants/<variant>.map. The same seeds always
// give the same places.
//
// Usage, from the repository's top directory:
//
//	go run ./tools/layout [-svg dir] [variant ...]
//
// With no variant it lays out every variant that has a seed file. -svg
// also writes a preview picture of each layout, <variant>.svg, to dir.
//
// A seed file has one line per province, "<id> <longitude> <latitude>" in
// degrees (east and north positive), and '#' comments. A line "wrap <lon>"
// counts the longitudes west of <lon> from the other side of the world
// (+360), for a board that crosses the Pacific; "height <n>" sets the
// picture's height, for a crowded board (by default it follows the
// board's proportions).
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gmdjudge/gmd/judge"
)

const (
	seedDir = "tools/layout"
	mapDir  = "judge/variants"
)

func main() {
	svgDir := flag.String("svg", "", "also write a preview `dir`/<variant>.svg of each layout")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: go run ./tools/layout [-svg dir] [variant ...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	names := flag.Args()
	if len(names) == 0 {
		all, err := filepath.Glob(filepath.Join(seedDir, "*.lonlat"))
		if err != nil || len(all) == 0 {
			fmt.Fprintln(os.Stderr, "layout: no seed files in", seedDir, "(run it from the repository's top directory)")
			os.Exit(2)
		}
		for _, f := range all {
			names = append(names, strings.TrimSuffix(filepath.Base(f), ".lonlat"))
		}
	}
	failed := false
	for _, name := range names {
		if err := run(name, *svgDir); err != nil {
			fmt.Fprintln(os.Stderr, "layout:", err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// run lays out one variant and rewrites its map file.
func run(name, svgDir string) error {
	seedFile := filepath.Join(seedDir, name+".lonlat")
	seedSrc, err := os.ReadFile(seedFile)
	if err != nil {
		return err
	}
	mapFile := filepath.Join(mapDir, name+".map")
	src, err := os.ReadFile(mapFile)
	if err != nil {
		return err
	}
	m, err := judge.ParseMap(name, src)
	if err != nil {
		return err
	}
	seeds, height, err := parseSeeds(seedFile, seedSrc)
	if err != nil {
		return err
	}
	g, height, err := build(m, seeds, height)
	if err != nil {
		return fmt.Errorf("%s: %w", seedFile, err)
	}
	relax(g, height)
	at := places(g)
	if err := check(at); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	out := rewrite(src, name, m, at)
	if _, err := judge.ParseMap(name, out); err != nil {
		return fmt.Errorf("the rewritten %s does not load: %w", mapFile, err)
	}
	if !bytes.Equal(out, src) {
		if err := os.WriteFile(mapFile, out, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%s: %d provinces, %d edges, %d crossings, height %d\n", name, len(g.nodes), len(g.edges), crossings(g, at), height)
	if svgDir != "" {
		return os.WriteFile(filepath.Join(svgDir, name+".svg"), preview(m, g, at, height), 0o644)
	}
	return nil
}

// parseSeeds reads a seed file (see the command's comment).
func parseSeeds(file string, src []byte) ([]seed, int, error) {
	var seeds []seed
	wrap := -180.0
	height := 0
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
			continue
		case len(f) == 2 && f[0] == "wrap":
			w, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return nil, 0, fmt.Errorf("%s:%d: wrap %q is not a number", file, n, f[1])
			}
			wrap = w
			continue
		case len(f) == 2 && f[0] == "height":
			h, err := strconv.Atoi(f[1])
			if err != nil || h < 4*margin || h > maxHeight {
				return nil, 0, fmt.Errorf("%s:%d: height %q: want a whole number from %d to %d", file, n, f[1], 4*margin, maxHeight)
			}
			height = h
			continue
		case len(f) != 3:
			return nil, 0, fmt.Errorf("%s:%d: want <id> <longitude> <latitude>", file, n)
		}
		lon, err1 := strconv.ParseFloat(f[1], 64)
		lat, err2 := strconv.ParseFloat(f[2], 64)
		if err := errors.Join(err1, err2); err != nil || lon < -180 || lon > 180 || lat < -90 || lat > 90 {
			return nil, 0, fmt.Errorf("%s:%d: bad longitude or latitude", file, n)
		}
		if first, dup := seen[f[0]]; dup {
			return nil, 0, fmt.Errorf("%s:%d: %s again (first at line %d)", file, n, f[0], first)
		}
		seen[f[0]] = n
		seeds = append(seeds, seed{f[0], lon, lat})
	}
	for i := range seeds {
		if seeds[i].lon < wrap {
			seeds[i].lon += 360
		}
	}
	return seeds, height, sc.Err()
}

// build makes the graph of m's provinces at their projected seeds; every
// province needs a seed, and every seed a province.
func build(m *judge.Map, seeds []seed, height int) (*graph, int, error) {
	byID := map[string]int{}
	for i, s := range seeds {
		byID[s.id] = i
	}
	var missing []string
	index := map[judge.Loc]int{}
	var picked []seed
	for _, p := range m.Provinces() {
		id := m.Locs[p].Name
		i, ok := byID[id]
		if !ok {
			missing = append(missing, id)
			continue
		}
		delete(byID, id)
		index[p] = len(picked)
		picked = append(picked, seeds[i])
	}
	if len(missing) > 0 {
		return nil, 0, fmt.Errorf("no seed for %s", strings.Join(missing, " "))
	}
	if len(byID) > 0 {
		var extra []string
		for id := range byID {
			extra = append(extra, id)
		}
		slices.Sort(extra)
		return nil, 0, fmt.Errorf("seeds for no province: %s", strings.Join(extra, " "))
	}
	at, height := project(picked, height)
	g := &graph{}
	for i, s := range picked {
		g.nodes = append(g.nodes, node{id: s.id, home: at[i], at: at[i]})
	}
	seen := map[[2]int]bool{}
	for a := range m.Locs {
		for b := range m.Locs {
			la, lb := judge.Loc(a), judge.Loc(b)
			if !m.ArmyAdjacent(la, lb) && !m.FleetAdjacent(la, lb) {
				continue
			}
			i, j := index[m.Province(la)], index[m.Province(lb)]
			if i == j {
				continue
			}
			e := [2]int{min(i, j), max(i, j)}
			if !seen[e] {
				seen[e] = true
				g.edges = append(g.edges, e)
			}
		}
	}
	slices.SortFunc(g.edges, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return g, height, nil
}

// marker is the comment line that heads the place lines the tool writes.
const marker = "# Places for a schematic picture (x right, y down, in a box 1000 wide),"

// rewrite returns the map file src with its place lines, and the comment
// that heads them, replaced by a block of new ones at the end, one per
// province in map order.
func rewrite(src []byte, name string, m *judge.Map, at map[string][2]int) []byte {
	lines := strings.Split(strings.TrimRight(string(src), "\n"), "\n")
	var kept []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		f := strings.Fields(l)
		switch {
		case len(f) > 0 && f[0] == "place":
			continue
		case l == marker:
			i++ // and the comment's second line
			continue
		}
		kept = append(kept, l)
	}
	for len(kept) > 0 && strings.TrimSpace(kept[len(kept)-1]) == "" {
		kept = kept[:len(kept)-1]
	}
	var b strings.Builder
	for _, l := range kept {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n" + marker + "\n")
	fmt.Fprintf(&b, "# written by tools/layout from tools/layout/%s.lonlat: edit that and rerun.\n", name)
	for _, p := range m.Provinces() {
		id := m.Locs[p].Name
		fmt.Fprintf(&b, "place %-4s %3d %3d\n", id, at[id][0], at[id][1])
	}
	return []byte(b.String())
}
