package main

import (
	"fmt"
	"math"
	"sort"

	"github.com/gmdjudge/gmd/judge"
)

// Sizes of the schematic picture, in its units: place lines hold
// coordinates up to judge.MaxPlace.
const (
	width = judge.MaxPlace
	// margin keeps nodes off the picture's edge, so that a label or unit
	// drawn around the node stays inside it.
	margin = 40
	// minGap is the least distance between two nodes that a picture can
	// live with: a three-letter label and a unit symbol side by side at
	// 1000 pixels. The layout aims wider, at spread, and then checks
	// minGap.
	minGap = 40
	spread = 50
	// clearance is how far the layout keeps a node from an edge between
	// two others.
	clearance = 24
	// maxHeight bounds the picture's height.
	maxHeight = judge.MaxPlace
)

// seed is one province's rough real-world position.
type seed struct {
	id       string
	lon, lat float64
}

// node is a province being laid out.
type node struct {
	id   string
	home [2]float64 // the projected seed, where the node wants to stay
	at   [2]float64
}

// graph is a board to lay out: its provinces and, as pairs of indexes,
// the adjacencies between them (army or fleet, either way).
type graph struct {
	nodes []node
	edges [][2]int
}

// project turns the seeds into positions in the box: an equirectangular
// projection about the seeds' middle latitude, scaled to fill the width
// (or the height, for a tall board), north up. A height other than 0 sets
// the picture's height.
func project(seeds []seed, height int) ([][2]float64, int) {
	minLon, maxLon := math.Inf(1), math.Inf(-1)
	minLat, maxLat := math.Inf(1), math.Inf(-1)
	for _, s := range seeds {
		minLon, maxLon = min(minLon, s.lon), max(maxLon, s.lon)
		minLat, maxLat = min(minLat, s.lat), max(maxLat, s.lat)
	}
	k := math.Cos((minLat + maxLat) / 2 * math.Pi / 180)
	w := max((maxLon-minLon)*k, 1e-9)
	h := max(maxLat-minLat, 1e-9)
	inner := float64(width - 2*margin)
	// The picture is a schematic, not a map: the board fills the width,
	// and its height keeps the real proportion within limits, at least
	// 60% of the width (a wide board would crowd its nodes into a strip)
	// and at most maxHeight (a tall one is squeezed).
	ih := min(max(h*inner/w, 0.6*width-2*margin), maxHeight-2*margin)
	if height != 0 {
		ih = float64(height - 2*margin)
	}
	height = int(math.Ceil(ih)) + 2*margin
	out := make([][2]float64, len(seeds))
	for i, s := range seeds {
		out[i] = [2]float64{margin + (s.lon-minLon)*k*inner/w, margin + (maxLat-s.lat)*ih/h}
	}
	return out, height
}

// relax moves the nodes apart until every two are at least spread apart,
// while keeping each near its projected place and adjacent nodes near each
// other. It is deterministic: the same graph gives the same layout.
func relax(g *graph, height int) {
	n := len(g.nodes)
	lo := [2]float64{margin, margin}
	hi := [2]float64{width - margin, float64(height - margin)}
	// Nodes that start on the same point are split along a fixed spiral,
	// so that the repulsion below has a direction to push.
	for i := range g.nodes {
		for j := 0; j < i; j++ {
			if g.nodes[i].at == g.nodes[j].at {
				a := float64(i) * 2.399963 // the golden angle
				g.nodes[i].at[0] += math.Cos(a)
				g.nodes[i].at[1] += math.Sin(a)
			}
		}
	}
	force := make([][2]float64, n)
	const rounds = 1500
	for r := range rounds {
		// The pull toward home and along edges fades, so that the last
		// rounds only separate nodes.
		pull := 1 - float64(r)/rounds
		for i := range force {
			force[i] = [2]float64{}
		}
		for i := range g.nodes {
			nd := &g.nodes[i]
			for d := range 2 {
				force[i][d] += 0.02 * pull * (nd.home[d] - nd.at[d])
			}
		}
		for _, e := range g.edges {
			a, b := &g.nodes[e[0]], &g.nodes[e[1]]
			dx, dy := b.at[0]-a.at[0], b.at[1]-a.at[1]
			d := math.Hypot(dx, dy)
			// An edge pulls only when it has grown longer than it is on
			// the real map (or than a short edge, for close neighbours).
			rest := max(1.5*spread, math.Hypot(b.home[0]-a.home[0], b.home[1]-a.home[1]))
			if d <= rest {
				continue
			}
			f := 0.03 * pull * (d - rest) / d
			force[e[0]][0] += f * dx
			force[e[0]][1] += f * dy
			force[e[1]][0] -= f * dx
			force[e[1]][1] -= f * dy
		}
		// A node on an edge not its own would read as a stop on it: keep
		// nodes clear of other edges.
		for _, e := range g.edges {
			a, b := g.nodes[e[0]].at, g.nodes[e[1]].at
			ex, ey := b[0]-a[0], b[1]-a[1]
			l2 := ex*ex + ey*ey
			if l2 < 1e-9 {
				continue
			}
			for k := range g.nodes {
				if k == e[0] || k == e[1] {
					continue
				}
				p := g.nodes[k].at
				t := ((p[0]-a[0])*ex + (p[1]-a[1])*ey) / l2
				if t <= 0.05 || t >= 0.95 {
					continue
				}
				dx, dy := p[0]-(a[0]+t*ex), p[1]-(a[1]+t*ey)
				d := math.Hypot(dx, dy)
				if d >= clearance {
					continue
				}
				if d < 1e-6 {
					dx, dy, d = -ey, ex, math.Sqrt(l2)
				}
				f := 0.1 * (clearance - d) / d
				force[k][0] += f * dx
				force[k][1] += f * dy
				force[e[0]][0] -= f * dx / 2
				force[e[0]][1] -= f * dy / 2
				force[e[1]][0] -= f * dx / 2
				force[e[1]][1] -= f * dy / 2
			}
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				a, b := &g.nodes[i], &g.nodes[j]
				dx, dy := b.at[0]-a.at[0], b.at[1]-a.at[1]
				d := math.Hypot(dx, dy)
				if d >= spread*1.1 {
					continue
				}
				if d < 1e-6 {
					dx, dy, d = 1, 0, 1
				}
				f := 0.25 * (spread*1.1 - d) / d
				force[i][0] -= f * dx
				force[i][1] -= f * dy
				force[j][0] += f * dx
				force[j][1] += f * dy
			}
		}
		for i := range g.nodes {
			for d := range 2 {
				g.nodes[i].at[d] = min(max(g.nodes[i].at[d]+force[i][d], lo[d]), hi[d])
			}
		}
	}
	// The last word goes to separation alone: on a crowded board the
	// clearance from edges can hold two nodes closer than spread.
	for range rounds / 3 {
		moved := false
		for i := range n {
			for j := i + 1; j < n; j++ {
				a, b := &g.nodes[i], &g.nodes[j]
				dx, dy := b.at[0]-a.at[0], b.at[1]-a.at[1]
				d := math.Hypot(dx, dy)
				if d >= spread {
					continue
				}
				if d < 1e-6 {
					dx, dy, d = 1, 0, 1
				}
				moved = true
				f := 0.3 * (spread - d) / d
				for k := range 2 {
					delta := [2]float64{f * dx, f * dy}[k]
					a.at[k] = min(max(a.at[k]-delta, lo[k]), hi[k])
					b.at[k] = min(max(b.at[k]+delta, lo[k]), hi[k])
				}
			}
		}
		if !moved {
			break
		}
	}
	stretch(g, height)
}

// stretch scales the layout up, each axis on its own, to fill the box
// again after the relaxation drew it in: scaling up moves no two nodes
// closer together.
func stretch(g *graph, height int) {
	hi := [2]float64{width - margin, float64(height - margin)}
	for d := range 2 {
		lo, top := math.Inf(1), math.Inf(-1)
		for _, nd := range g.nodes {
			lo, top = min(lo, nd.at[d]), max(top, nd.at[d])
		}
		f := (hi[d] - margin) / (top - lo)
		if top-lo < 1e-9 || f <= 1 {
			continue
		}
		for i := range g.nodes {
			g.nodes[i].at[d] = margin + (g.nodes[i].at[d]-lo)*f
		}
	}
}

// places rounds the layout to whole units, the place lines' form.
func places(g *graph) map[string][2]int {
	out := map[string][2]int{}
	for _, nd := range g.nodes {
		out[nd.id] = [2]int{int(math.Round(nd.at[0])), int(math.Round(nd.at[1]))}
	}
	return out
}

// check reports the pairs of places closer than minGap, and places
// outside the box.
func check(at map[string][2]int) error {
	ids := make([]string, 0, len(at))
	for id := range at {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for i, a := range ids {
		p := at[a]
		if p[0] < 0 || p[0] > width || p[1] < 0 || p[1] > maxHeight {
			return fmt.Errorf("%s at %v is outside the box", a, p)
		}
		for _, b := range ids[i+1:] {
			q := at[b]
			if d := math.Hypot(float64(p[0]-q[0]), float64(p[1]-q[1])); d < minGap {
				return fmt.Errorf("%s and %s are %.0f apart, less than %d", a, b, d, minGap)
			}
		}
	}
	return nil
}

// crossings counts the pairs of edges that cross, which the preview and
// the tool's summary report so that a tangled layout is noticed.
func crossings(g *graph, at map[string][2]int) int {
	n := 0
	for i, e := range g.edges {
		for _, f := range g.edges[i+1:] {
			if e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1] {
				continue
			}
			if segmentsCross(at[g.nodes[e[0]].id], at[g.nodes[e[1]].id], at[g.nodes[f[0]].id], at[g.nodes[f[1]].id]) {
				n++
			}
		}
	}
	return n
}

func segmentsCross(a, b, c, d [2]int) bool {
	orient := func(p, q, r [2]int) int {
		v := (q[0]-p[0])*(r[1]-p[1]) - (q[1]-p[1])*(r[0]-p[0])
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	return orient(a, b, c)*orient(a, b, d) < 0 && orient(c, d, a)*orient(c, d, b) < 0
}
