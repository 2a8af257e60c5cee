// Command mapgen makes a variant's board geometry (package mapgeo) from
// Natural Earth's public-domain coastlines, as the npm package world-atlas
// ships them, and a seed file that divides land and sea into provinces:
//
//	npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
//	go run ./tools/mapgen -topo package/land-50m.json \
//	    -seeds tools/mapgen/standard.seeds -o judge/variants/standard.geo.json
//
// -png writes a picture of the pixel grid, to check the provinces by eye.
// The seed file's format is described at carve.Config.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/mapgeo"
	"github.com/gmdjudge/gmd/mapgeo/carve"
)

func main() {
	topo := flag.String("topo", "", "world-atlas TopoJSON land file (land-50m.json)")
	seeds := flag.String("seeds", "", "seed file (tools/mapgen/standard.seeds)")
	out := flag.String("o", "", "geometry file to write")
	pngOut := flag.String("png", "", "debug picture of the pixel grid to write")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file (to find where carving spends its time)")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mapgen:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "mapgen:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *topo == "" || *seeds == "" || (*out == "" && *pngOut == "") {
		fmt.Fprintln(os.Stderr, "usage: mapgen -topo land-50m.json -seeds file.seeds [-o out.geo.json] [-png grid.png]")
		os.Exit(2)
	}
	if err := run(*topo, *seeds, *out, *pngOut); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "mapgen:", err)
		os.Exit(1)
	}
}

func run(topo, seeds, out, pngOut string) error {
	cfg, err := carve.ParseConfig(seeds, os.ReadFile)
	if err != nil {
		return err
	}
	m, err := variants.Load(cfg.Variant)
	if err != nil {
		return err
	}
	kinds := carve.Kinds{}
	for _, p := range m.Provinces() {
		info := m.Locs[p]
		k := carve.ProvinceKind{Sea: info.Kind == judge.Sea, Shore: info.Kind == judge.Coast, Centre: info.Center,
			Construct:  m.Construction && info.Kind != judge.Sea && info.Home != judge.NoPower,
			Impassable: info.Impassable}
		for _, c := range info.Coasts {
			k.Coasts = append(k.Coasts, m.CoastName(c))
		}
		kinds[info.Name] = k
	}
	src, err := os.ReadFile(topo)
	if err != nil {
		return err
	}
	rings, err := carve.LandRings(src, "land")
	if err != nil {
		return err
	}
	atlas := "world-atlas"
	if pj, err := os.ReadFile(filepath.Join(filepath.Dir(topo), "package.json")); err == nil {
		var p struct{ Name, Version string }
		if json.Unmarshal(pj, &p) == nil && p.Version != "" {
			atlas = p.Name + " " + p.Version
		}
	}
	source := fmt.Sprintf("Natural Earth land (public domain), %s from %s; carved by tools/mapgen from tools/mapgen/%s",
		filepath.Base(topo), atlas, filepath.Base(seeds))
	geo, grid, err := carve.Build(cfg, kinds, rings, source)
	if pngOut != "" && grid != nil {
		if err := writePNG(pngOut, grid, geo); err != nil {
			return err
		}
	}
	if err != nil {
		return err
	}
	if out != "" {
		b, err := carve.Encode(geo)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	}
	return nil
}

// writePNG draws the grid: each region in a colour of its own (seas blue,
// land warm, impassable grey), borders dark, and the unit (red), label
// (black) and centre (white) points; deep water (impassable) dark blue.
func writePNG(name string, g *carve.Grid, geo *mapgeo.Geometry) error {
	img := image.NewRGBA(image.Rect(0, 0, g.W, g.H))
	cols := make([]color.RGBA, len(g.Names))
	for i, n := range g.Names {
		h := fnv.New32a()
		h.Write([]byte(n))
		v := h.Sum32()
		switch {
		case g.Impassable[i] && g.Sea[i]:
			cols[i] = color.RGBA{40, 70, 140, 255}
		case g.Impassable[i]:
			cols[i] = color.RGBA{150, 150, 150, 255}
		case g.Sea[i]:
			cols[i] = color.RGBA{uint8(60 + v%60), uint8(120 + v/60%60), uint8(200 + v/3600%55), 255}
		default:
			cols[i] = color.RGBA{uint8(150 + v%100), uint8(110 + v/100%110), uint8(40 + v/11000%90), 255}
		}
	}
	for i, r := range g.Label {
		x, y := i%g.W, i/g.W
		c := cols[r]
		if (x+1 < g.W && g.Label[i+1] != r) || (y+1 < g.H && g.Label[i+g.W] != r) {
			c = color.RGBA{30, 30, 30, 255}
		}
		img.SetRGBA(x, y, c)
	}
	dot := func(p mapgeo.Point, c color.RGBA) {
		for dy := -3; dy <= 3; dy++ {
			for dx := -3; dx <= 3; dx++ {
				img.SetRGBA(p[0]+dx, p[1]+dy, c)
			}
		}
	}
	for _, p := range geo.Provinces {
		dot(p.Unit, color.RGBA{220, 0, 0, 255})
		dot(p.Label, color.RGBA{0, 0, 0, 255})
		dot(p.Centre, color.RGBA{255, 255, 255, 255})
		for _, c := range p.Coasts {
			dot(c, color.RGBA{255, 0, 255, 255})
		}
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
