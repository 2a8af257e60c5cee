package carve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/mapgeo"
)

// Build carves the board: it labels the grid from the land rings and the
// seeds of c, traces the borders, and places every province's points. The
// provinces are those of kinds; every one needs a seed. The result depends
// on nothing but the input. On an error about provinces the geometry and
// grid made so far are returned too, to draw for a look.
func Build(c *Config, kinds Kinds, rings [][]LonLat, source string) (*mapgeo.Geometry, *Grid, error) {
	g, fr, err := label(c, kinds, rings)
	if err != nil {
		return nil, nil, err
	}
	regionRings, err := trace(g.W, g.H, g.Label, len(g.Names), c.Tolerance)
	if err != nil {
		return nil, nil, err
	}
	geo := &mapgeo.Geometry{
		Variant:    c.Variant,
		Width:      g.W,
		Height:     g.H,
		Source:     source,
		Provinces:  map[string]mapgeo.Province{},
		Exceptions: slices.Clone(c.Exceptions),
	}
	var errs []string
	pixels := make([][]int, len(g.Names))
	for i, r := range g.Label {
		pixels[r] = append(pixels[r], i)
	}
	proj := func(ll LonLat) mapgeo.Point {
		x, y := fr.at(c.Proj, ll)
		return mapgeo.Point{int(math.Round(x)), int(math.Round(y))}
	}
	for r, name := range g.Names {
		if g.Impassable[r] {
			if len(regionRings[r]) > 0 {
				geo.Impassable = append(geo.Impassable, mapgeo.Region{Name: name, Rings: regionRings[r]})
			}
			continue
		}
		if len(pixels[r]) == 0 {
			errs = append(errs, fmt.Sprintf("province %s has no pixels", name))
			continue
		}
		p := mapgeo.Province{Rings: regionRings[r]}
		var fixed *mapgeo.Point
		if ll, ok := c.Points[name+" unit"]; ok {
			u := proj(ll)
			fixed = &u
		}
		p.Unit, p.Label, p.Centre = g.places(g.piece(r, pixels[r]), g.First[r], fixed)
		for _, what := range []string{"label", "centre"} {
			ll, ok := c.Points[name+" "+what]
			if !ok {
				continue
			}
			switch what {
			case "label":
				p.Label = proj(ll)
			case "centre":
				p.Centre = proj(ll)
			}
		}
		for _, co := range kinds[name].Coasts {
			ll, ok := c.Points[name+"/"+co]
			if !ok {
				errs = append(errs, fmt.Sprintf("split coast %s/%s needs a coast line", name, co))
				continue
			}
			if p.Coasts == nil {
				p.Coasts = map[string]mapgeo.Point{}
			}
			p.Coasts[co] = proj(ll)
		}
		geo.Provinces[name] = p
	}
	if len(errs) > 0 {
		// The grid still helps to see what went wrong.
		return geo, g, errors.New(strings.Join(errs, "\n"))
	}
	return geo, g, nil
}

// piece returns the pixels of region r that are connected to its first
// seed (Naples's mainland, not Sicily), or all of them if that seed's
// pixel went to another region.
func (g *Grid) piece(r int, all []int) []int {
	f := g.First[r]
	if f < 0 || g.Label[f] != int32(r) {
		return all
	}
	seen := map[int]bool{f: true}
	out := []int{f}
	for k := 0; k < len(out); k++ {
		q := out[k]
		x, y := q%g.W, q/g.W
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			j := ny*g.W + nx
			if nx >= 0 && ny >= 0 && nx < g.W && ny < g.H && !seen[j] && g.Label[j] == int32(r) {
				seen[j] = true
				out = append(out, j)
			}
		}
	}
	slices.Sort(out)
	return out
}

// places picks a province's unit, label and centre points: the unit deep
// inside, near the first seed (a large province's heart, such as St
// Petersburg's city rather than the middle of the tundra), the label below
// it and the centre marker beside it, each as deep inside as it can be
// without overlapping. A unit point set by hand (fixed) is kept, and the
// others are placed around it.
func (g *Grid) places(px []int, first int, fixed *mapgeo.Point) (unit, label, centre mapgeo.Point) {
	const sep = 26.0    // map units between the three points' middles
	const deep = 5 * 30 // chamfer depth (5 a pixel) that is deep enough
	fx, fy := float64(first%g.W), float64(first/g.W)
	if first < 0 {
		fx, fy = float64(px[0]%g.W), float64(px[0]/g.W)
	}
	best, bestScore := px[0], math.Inf(-1)
	for _, i := range px {
		d := math.Hypot(float64(i%g.W)-fx, float64(i/g.W)-fy)
		if s := math.Min(float64(g.Dist[i]), deep) - d/3; s > bestScore {
			best, bestScore = i, s
		}
	}
	u := [2]float64{float64(best % g.W), float64(best / g.W)}
	if fixed != nil {
		u = [2]float64{float64(fixed[0]), float64(fixed[1])}
	}
	pick := func(ideal [2]float64, away [][2]float64) [2]float64 {
		bestScore, at := math.Inf(-1), u
		for _, i := range px {
			q := [2]float64{float64(i % g.W), float64(i / g.W)}
			if math.Abs(q[0]-ideal[0]) > 3*sep || math.Abs(q[1]-ideal[1]) > 3*sep {
				continue
			}
			score := 8*math.Min(float64(g.Dist[i]), 65) - 5*math.Hypot(q[0]-ideal[0], q[1]-ideal[1])
			for _, a := range away {
				if d := math.Hypot(q[0]-a[0], q[1]-a[1]); d < sep {
					score -= 40 * (sep - d)
				}
			}
			if score > bestScore {
				bestScore, at = score, q
			}
		}
		return at
	}
	l := pick([2]float64{u[0], u[1] + sep}, [][2]float64{u})
	c := pick([2]float64{u[0] + sep, u[1]}, [][2]float64{u, l})
	pt := func(q [2]float64) mapgeo.Point { return mapgeo.Point{int(q[0]), int(q[1])} }
	return pt(u), pt(l), pt(c)
}

// Encode writes geometry as the committed JSON: one province, region or
// exception a line, keys in order, so that files diff well and the same
// geometry always gives the same bytes.
func Encode(geo *mapgeo.Geometry) ([]byte, error) {
	var b bytes.Buffer
	head, err := json.Marshal(struct {
		Variant string `json:"variant"`
		Width   int    `json:"width"`
		Height  int    `json:"height"`
		Source  string `json:"source"`
	}{geo.Variant, geo.Width, geo.Height, geo.Source})
	if err != nil {
		return nil, err
	}
	b.Write(head[:len(head)-1])
	b.WriteString(",\n\"provinces\":{")
	names := make([]string, 0, len(geo.Provinces))
	for n := range geo.Provinces {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		v, err := json.Marshal(geo.Provinces[n])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n%q:%s", n, v)
	}
	b.WriteString("},\n\"impassable\":[")
	if err := encodeLines(&b, geo.Impassable); err != nil {
		return nil, err
	}
	b.WriteString("],\n\"exceptions\":[")
	if err := encodeLines(&b, geo.Exceptions); err != nil {
		return nil, err
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

// encodeLines writes the elements of list as JSON, one a line, separated
// by commas.
func encodeLines[T any](b *bytes.Buffer, list []T) error {
	for i, x := range list {
		v, err := json.Marshal(x)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n")
		b.Write(v)
	}
	return nil
}
