// Package carve makes a board's geometry (package mapgeo) from coastlines
// and seed points: it rasterises the land, gives every pixel of land and
// of sea to a province by its nearest seed, and traces the pixel grid
// back into polygons that share their borders vertex for vertex. It is the
// core of tools/mapgen, kept apart from the program so that its tests run
// on small synthetic input without the coastline data.
package carve

import (
	"encoding/json"
	"fmt"
)

// LonLat is a geographic position in degrees: longitude east, latitude north.
type LonLat [2]float64

// topology is the part of a TopoJSON document that land rings need.
type topology struct {
	Type      string `json:"type"`
	Transform *struct {
		Scale     [2]float64 `json:"scale"`
		Translate [2]float64 `json:"translate"`
	} `json:"transform"`
	Objects map[string]topoGeometry `json:"objects"`
	Arcs    [][][2]float64          `json:"arcs"`
}

type topoGeometry struct {
	Type       string          `json:"type"`
	Geometries []topoGeometry  `json:"geometries"`
	Arcs       json.RawMessage `json:"arcs"`
}

// LandRings decodes the rings of the polygons of one object of a TopoJSON
// document (world-atlas's land-50m.json has the object "land"): quantised
// arcs are delta-decoded and transformed, and each ring is its arcs joined
// end to start. Outer rings and holes are returned alike; they are filled
// with the even-odd rule, so which is which does not matter.
func LandRings(src []byte, object string) ([][]LonLat, error) {
	var t topology
	if err := json.Unmarshal(src, &t); err != nil {
		return nil, fmt.Errorf("topojson: %w", err)
	}
	if t.Type != "Topology" {
		return nil, fmt.Errorf("topojson: type %q, want Topology", t.Type)
	}
	obj, ok := t.Objects[object]
	if !ok {
		return nil, fmt.Errorf("topojson: no object %q", object)
	}
	arcs := make([][]LonLat, len(t.Arcs))
	for i, a := range t.Arcs {
		pts := make([]LonLat, len(a))
		var x, y float64
		for j, p := range a {
			if t.Transform != nil {
				x += p[0]
				y += p[1]
				pts[j] = LonLat{x*t.Transform.Scale[0] + t.Transform.Translate[0], y*t.Transform.Scale[1] + t.Transform.Translate[1]}
			} else {
				pts[j] = LonLat{p[0], p[1]}
			}
		}
		arcs[i] = pts
	}
	var rings [][]LonLat
	ring := func(idx []int) error {
		var r []LonLat
		for k, i := range idx {
			rev := i < 0
			if rev {
				i = ^i
			}
			if i >= len(arcs) {
				return fmt.Errorf("topojson: arc %d of %d", i, len(arcs))
			}
			a := arcs[i]
			for j := range a {
				p := a[j]
				if rev {
					p = a[len(a)-1-j]
				}
				if k > 0 && j == 0 {
					continue // the first point repeats the previous arc's last
				}
				r = append(r, p)
			}
		}
		if len(r) >= 3 {
			rings = append(rings, r)
		}
		return nil
	}
	var walk func(g topoGeometry) error
	walk = func(g topoGeometry) error {
		switch g.Type {
		case "GeometryCollection":
			for _, c := range g.Geometries {
				if err := walk(c); err != nil {
					return err
				}
			}
		case "Polygon":
			var poly [][]int
			if err := json.Unmarshal(g.Arcs, &poly); err != nil {
				return fmt.Errorf("topojson polygon: %w", err)
			}
			for _, r := range poly {
				if err := ring(r); err != nil {
					return err
				}
			}
		case "MultiPolygon":
			var multi [][][]int
			if err := json.Unmarshal(g.Arcs, &multi); err != nil {
				return fmt.Errorf("topojson multipolygon: %w", err)
			}
			for _, poly := range multi {
				for _, r := range poly {
					if err := ring(r); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	if err := walk(obj); err != nil {
		return nil, err
	}
	return rings, nil
}
