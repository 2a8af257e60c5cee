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
		Pixels:     c.Pixels,
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
	// A first guess at the points, which place.go then improves, is made
	// in three rounds, so that each label keeps
	// clear of every unit (its neighbours' too), and each centre marker of
	// every unit and label: first the units, then the labels, then the
	// centres.
	// The sizes below are those of a board 2000 units wide drawn 1000
	// pixels wide; a board drawn at other scales scales them (by exactly
	// 1 at that scale, so that such boards come out as before).
	k := float64(g.W) / float64(geo.PictureWidth()) / 2
	var drawn []int // regions that are provinces, in the order of Names
	pieces := make([][]int, len(g.Names))
	var units []box
	for r, name := range g.Names {
		if g.Impassable[r] {
			if len(regionRings[r]) > 0 {
				geo.Impassable = append(geo.Impassable, mapgeo.Region{Name: name, Rings: regionRings[r], Water: g.Sea[r]})
			}
			continue
		}
		if len(pixels[r]) == 0 {
			errs = append(errs, fmt.Sprintf("province %s has no pixels", name))
			continue
		}
		p := mapgeo.Province{Rings: regionRings[r]}
		pieces[r] = g.piece(r, pixels[r])
		if ll, ok := c.Points[name+" unit"]; ok {
			p.Unit = proj(ll)
		} else {
			p.Unit = g.unitPoint(pieces[r], g.First[r])
		}
		units = append(units, unitBoxes(p.Unit, k)...)
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
			units = append(units, unitBoxes(p.Coasts[co], k)...)
		}
		geo.Provinces[name] = p
		drawn = append(drawn, r)
	}
	// Labels set by hand first, then the others, each clear of the units
	// and of the labels placed before it.
	var labels []box
	for hand := 1; hand >= 0; hand-- {
		for _, r := range drawn {
			name := g.Names[r]
			p := geo.Provinces[name]
			hw := labelHalfW(name, k)
			ll, ok := c.Points[name+" label"]
			switch {
			case ok != (hand == 1):
				continue
			case ok:
				p.Label = proj(ll)
			default:
				u := p.Unit
				p.Label = g.pick(pieces[r], float64(u[0]), float64(u[1])+(armyR+labelHalfH+2)*k, hw, labelHalfH*k, slices.Concat(units, labels))
			}
			labels = append(labels, boxAt(float64(p.Label[0]), float64(p.Label[1]), hw, labelHalfH*k))
			geo.Provinces[name] = p
		}
	}
	away := slices.Concat(units, labels)
	for _, r := range drawn {
		name := g.Names[r]
		p := geo.Provinces[name]
		if ll, ok := c.Points[name+" centre"]; ok {
			p.Centre = proj(ll)
		} else {
			u := p.Unit
			p.Centre = g.pick(pieces[r], float64(u[0])+(hullHalfW+centreR+2)*k, float64(u[1])-4*k, centreR*k, centreR*k, away)
		}
		geo.Provinces[name] = p
	}
	if len(errs) == 0 {
		pl := newPlacer(g, geo, drawn, pieces, kinds, c.CoastReach)
		pl.place(placeRounds)
		pl.store(geo)
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

// The sizes, in map units, of what the pictures (package picture) draw at
// a province's points on a board 2000 units wide: the points are kept far
// enough apart that none of these covers another. An army is a disc of
// armyR; a fleet a hull hullHalfW each side of its point, from hullTop
// above it to hullBottom below; a label is letterW wide a letter plus
// labelPad, and labelHalfH tall each side of its point; a centre marker
// is a disc of centreR (that of a centre under construction, the larger).
// Each includes its outline.
const (
	armyR      = 21.5
	hullHalfW  = 30.5
	hullTop    = 16.5
	hullBottom = 17.5
	letterW    = 13.5
	labelPad   = 8.0
	labelHalfH = 11.0
	centreR    = 14.0
)

// box is a rectangle around a point: x0, y0, x1, y1.
type box [4]float64

func boxAt(x, y, hw, hh float64) box { return box{x - hw, y - hh, x + hw, y + hh} }

// overlap is how deep two boxes overlap (0 when apart): the smaller of
// the two penetrations, so that sliding either way out of it counts.
func (a box) overlap(b box) float64 {
	// The builtin min and max, which the compiler inlines, give what
	// math.Min and math.Max do: the placer calls this most of all.
	dx := min(a[2], b[2]) - max(a[0], b[0])
	dy := min(a[3], b[3]) - max(a[1], b[1])
	if dx <= 0 || dy <= 0 {
		return 0
	}
	return min(dx, dy)
}

// unitBoxes are the boxes that a unit drawn at u covers: an army's disc,
// and a fleet's hull, wider and flatter; k scales the sizes (see Build).
func unitBoxes(u mapgeo.Point, k float64) []box {
	x, y := float64(u[0]), float64(u[1])
	return []box{boxAt(x, y, armyR*k, armyR*k), {x - hullHalfW*k, y - hullTop*k, x + hullHalfW*k, y + hullBottom*k}}
}

// labelHalfW is half the width of the label of province name.
func labelHalfW(name string, k float64) float64 {
	return (letterW*float64(len(name)) + labelPad) / 2 * k
}

// unitPoint picks a province's unit point: deep inside, near the first
// seed (a large province's heart, such as St Petersburg's city rather
// than the middle of the tundra). px are the province's pixels.
func (g *Grid) unitPoint(px []int, first int) mapgeo.Point {
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
	return mapgeo.Point{best % g.W, best / g.W}
}

// pick places a label or centre marker, a box of half-width hw and
// half-height hh, on one of the province's pixels px near the ideal place
// (ix, iy): deep inside the province, so that what is drawn stays in it;
// near the ideal; and above all clear of the boxes away (units, labels).
func (g *Grid) pick(px []int, ix, iy, hw, hh float64, away []box) mapgeo.Point {
	const reach = 90
	const minDepth = 5 * 4 // a point on the border may fall outside the simplified rings
	bestScore, at := math.Inf(-1), [2]float64{ix, iy}
	for pass := 0; pass < 2 && math.IsInf(bestScore, -1); pass++ {
		// Only the boxes that a candidate's box could touch count; the
		// others would each take away nothing. This is what keeps the
		// search from costing pixels × every mark of the board.
		var area box
		if pass == 0 {
			area = box{ix - reach, iy - reach, ix + reach, iy + reach}
		} else {
			area = pixelBounds(px, g.W)
		}
		area = box{area[0] - hw, area[1] - hh, area[2] + hw, area[3] + hh}
		var close []box
		for _, a := range away {
			if a.overlap(area) > 0 {
				close = append(close, a)
			}
		}
		for _, i := range px {
			q := [2]float64{float64(i % g.W), float64(i / g.W)}
			if pass == 0 && (math.Abs(q[0]-ix) > reach || math.Abs(q[1]-iy) > reach || g.Dist[i] < minDepth) {
				continue // the second pass, for a sliver of a province, takes any pixel
			}
			score := 8*math.Min(float64(g.Dist[i]), 65) - 5*math.Hypot(q[0]-ix, q[1]-iy)
			if score <= bestScore {
				continue // an overlap could only lower it
			}
			me := boxAt(q[0], q[1], hw, hh)
			for _, a := range close {
				score -= 400 * me.overlap(a)
			}
			if score > bestScore {
				bestScore, at = score, q
			}
		}
	}
	return mapgeo.Point{int(at[0]), int(at[1])}
}

// pixelBounds is the box round the pixels px of a grid w pixels wide.
func pixelBounds(px []int, w int) box {
	b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, i := range px {
		x, y := float64(i%w), float64(i/w)
		b = box{min(b[0], x), min(b[1], y), max(b[2], x), max(b[3], y)}
	}
	return b
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
		Pixels  int    `json:"pixels,omitempty"`
	}{geo.Variant, geo.Width, geo.Height, geo.Source, geo.Pixels})
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
