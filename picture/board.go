package picture

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sync"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/mapgeo"
)

// pt is a point in map units, x to the right and y down.
type pt struct{ X, Y float64 }

func (a pt) add(b pt) pt             { return pt{a.X + b.X, a.Y + b.Y} }
func (a pt) sub(b pt) pt             { return pt{a.X - b.X, a.Y - b.Y} }
func (a pt) mul(k float64) pt        { return pt{a.X * k, a.Y * k} }
func (a pt) len() float64            { return math.Hypot(a.X, a.Y) }
func (a pt) lerp(b pt, t float64) pt { return a.add(b.sub(a).mul(t)) }

// unit returns a scaled to length 1 (or zero).
func (a pt) unit() pt {
	l := a.len()
	if l == 0 {
		return pt{}
	}
	return a.mul(1 / l)
}

// board is where everything of a map is drawn: from real geometry, or the
// schematic of nodes and edges. It depends on the map only, so it is
// computed once per map and shared (it is never written after).
type board struct {
	m    *judge.Map
	w, h float64 // the map's box in map units, legend excluded
	s    float64 // map units per output pixel: sizes are written in pixels times s
	px   int     // the pictures' width in pixels: w / s

	at     []pt // per Loc: where a unit stands (a coast Loc: its fleet's place)
	label  []pt // per province: where its abbreviation is written
	centre []pt // per province: where its supply-centre marker goes

	// Geometry only.
	dislodged  []pt     // per Loc: where a unit dislodged from it is drawn (zero: an offset)
	rings      [][][]pt // per province: its polygons
	impassable [][][]pt
	deep       []bool // per impassable region: water no unit enters, not land
	// globe is set for geometry that spans the globe, cut across an ocean
	// (Cold War's Pacific): neighbours stand at its two edges, and a move
	// between them wraps round, as on the schematic.
	globe bool
	// over keeps the shared borders, and the ways chosen, that draw a
	// move over the two provinces it joins (over.go).
	over overCache

	// raster keeps the board's shapes as the rasteriser drew them the
	// first time, to be painted again in each picture's colours.
	raster rasterCache

	// styles are the powers' colours, chosen once for the whole board.
	stylesOnce sync.Once
	ps         []powerStyle

	// Schematic only.
	schematic bool
	nodeR     float64
	edges     []schemEdge
}

// schemEdge is an adjacency drawn in the schematic.
type schemEdge struct {
	a, b        judge.Loc // provinces, a < b
	army, fleet bool
}

// The kinds of schematic edge, by who may cross it: indices of
// edgeStyles.
const (
	edgeArmy = iota
	edgeFleet
	edgeBoth
)

// edgeStyles are how each kind of schematic edge is drawn (widths and
// dashes in pixels), and what the legend's key says of it.
var edgeStyles = [...]struct {
	kind  string // its class: "edge army"
	c     color.NRGBA
	width float64
	dash  []float64
	says  string
}{
	edgeArmy:  {"army", colArmyEdge, 1.6, nil, "army moves"},
	edgeFleet: {"fleet", colFleetEdge, 1.6, []float64{5, 3}, "fleet moves"},
	edgeBoth:  {"both", colBothEdge, 2, nil, "both"},
}

// style is the kind of e, an index of edgeStyles.
func (e schemEdge) style() int {
	switch {
	case e.army && e.fleet:
		return edgeBoth
	case e.army:
		return edgeArmy
	}
	return edgeFleet
}

// schematicKinds reports which kinds of edge (indexed as edgeStyles) a
// schematic board draws, and whether it has land nodes and sea nodes:
// what its legend explains (edgeKey).
func (b *board) schematicKinds() (edges [len(edgeStyles)]bool, land, sea bool) {
	for _, e := range b.edges {
		edges[e.style()] = true
	}
	for _, p := range b.m.Provinces() {
		if b.m.Locs[p].Kind == judge.Sea {
			sea = true
		} else {
			land = true
		}
	}
	return edges, land, sea
}

// styles returns the style of each power of the board's map.
func (b *board) styles() []powerStyle {
	b.stylesOnce.Do(func() { b.ps = powerStyles(b.m) })
	return b.ps
}

// outputWidth is the width in pixels of the PNG, and of the SVG's
// viewport, for every board whose geometry sets no other
// (mapgeo.Geometry.PictureWidth): every size in this package is written
// in pixels. A replay is drawn this wide on every board.
const outputWidth = mapgeo.DefaultPixels

// geometryFor returns the drawn geometry of m's board, if the project has
// one. It is the one place that knows where geometry comes from.
func geometryFor(m *judge.Map) (*mapgeo.Geometry, bool) { return mapgeo.For(m) }

// boards caches the board of each map: building one (the schematic's
// layout above all) costs more than drawing a picture. Maps are few and
// long-lived (package variants shares one per variant); the cap only
// guards against a caller that parses a new map for every picture.
var (
	boardsMu sync.Mutex
	boards   = map[*judge.Map]*board{}
)

const maxBoards = 64

// boardFor returns the board of m, built once.
func boardFor(m *judge.Map) *board {
	boardsMu.Lock()
	b, ok := boards[m]
	boardsMu.Unlock()
	if ok {
		return b
	}
	if g, ok := geometryFor(m); ok {
		var err error
		// Geometry that does not fit the map (a variant that renamed a
		// province of its base) falls back to the schematic: every
		// variant gets a picture.
		if b, err = geoBoard(m, g); err != nil {
			b = nil
		}
	}
	if b == nil {
		b = schematicBoard(m)
	}
	boardsMu.Lock()
	defer boardsMu.Unlock()
	if old, ok := boards[m]; ok {
		return old
	}
	if len(boards) < maxBoards {
		boards[m] = b
	}
	return b
}

func toPt(p mapgeo.Point) pt { return pt{float64(p[0]), float64(p[1])} }

// geoBoard places the map on geometry g.
func geoBoard(m *judge.Map, g *mapgeo.Geometry) (*board, error) {
	if g.Width <= 0 || g.Height <= 0 {
		return nil, fmt.Errorf("picture: geometry of %s has an empty box", m.Name)
	}
	n := m.NumLocs()
	b := &board{m: m, w: float64(g.Width), h: float64(g.Height),
		at: make([]pt, n), label: make([]pt, n), centre: make([]pt, n), rings: make([][][]pt, n), dislodged: make([]pt, n)}
	b.px = g.PictureWidth()
	b.s = b.w / float64(b.px)
	for _, p := range m.Provinces() {
		info := &m.Locs[p]
		gp, ok := g.Provinces[info.Name]
		if !ok {
			return nil, fmt.Errorf("picture: geometry of %s has no province %s", m.Name, info.Name)
		}
		b.at[p], b.label[p], b.centre[p] = toPt(gp.Unit), toPt(gp.Label), toPt(gp.Centre)
		b.rings[p] = flatRings(gp.Rings)
		b.dislodged[p] = toPt(gp.Dislodged)
		for _, c := range info.Coasts {
			cp, ok := gp.Coasts[m.CoastName(c)]
			if !ok {
				return nil, fmt.Errorf("picture: geometry of %s has no coast %s", m.Name, m.Locs[c].Name)
			}
			b.at[c] = toPt(cp)
			b.dislodged[c] = toPt(gp.DislodgedCoasts[m.CoastName(c)])
		}
	}
	for _, r := range g.Impassable {
		b.impassable = append(b.impassable, flatRings(r.Rings))
		b.deep = append(b.deep, r.Water)
	}
	b.globe = spansGlobe(m, b, g)
	return b, nil
}

// edgeShare is how near its sides, as a share of the picture's width, the
// two ends of a move across a drawn globe's cut stand.
const edgeShare = 0.1

// spansGlobe reports whether geometry g, drawn as board b, is cut across
// an ocean: a pair of neighbours that share no drawn border (a declared
// exception) stand at the board's two opposite sides.
func spansGlobe(m *judge.Map, b *board, g *mapgeo.Geometry) bool {
	for _, e := range g.Exceptions {
		p, okA := m.Lookup(e.A)
		q, okB := m.Lookup(e.B)
		if !okA || !okB {
			continue
		}
		x0, x1 := math.Min(b.at[p].X, b.at[q].X), math.Max(b.at[p].X, b.at[q].X)
		if x0 < edgeShare*b.w && x1 > (1-edgeShare)*b.w {
			return true
		}
	}
	return false
}

func flatRings(rs [][]int) [][]pt {
	out := make([][]pt, 0, len(rs))
	for _, r := range rs {
		ring := make([]pt, 0, len(r)/2)
		for i := 0; i+1 < len(r); i += 2 {
			ring = append(ring, pt{float64(r[i]), float64(r[i+1])})
		}
		out = append(out, ring)
	}
	return out
}

// schematicBoard draws m as nodes and edges: at the map's place lines, or,
// for a map without them, at a layout computed from its adjacency.
func schematicBoard(m *judge.Map) *board {
	provs := m.Provinces()
	n := m.NumLocs()
	b := &board{m: m, schematic: true, at: make([]pt, n), label: make([]pt, n), centre: make([]pt, n)}
	var spots []pt
	if m.HasPlaces() {
		spots = make([]pt, len(provs))
		for i, p := range provs {
			spots[i] = pt{float64(m.Locs[p].At[0]), float64(m.Locs[p].At[1])}
		}
	} else {
		spots = autoLayout(m)
	}
	// Fit the spots in a box 1000 wide with a margin for the nodes and
	// their labels; the height follows the spots' own proportions.
	const margin = 45.0
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, s := range spots {
		minX, maxX = math.Min(minX, s.X), math.Max(maxX, s.X)
		minY, maxY = math.Min(minY, s.Y), math.Max(maxY, s.Y)
	}
	spanX, spanY := math.Max(maxX-minX, 1), math.Max(maxY-minY, 1)
	k := (outputWidth - 2*margin) / spanX
	if spanY*k > 1.1*outputWidth { // a tall map: keep it no taller than it is wide
		k = (1.1*outputWidth - 2*margin) / spanY
	}
	b.w, b.s, b.px = outputWidth, 1, outputWidth
	b.h = math.Max(spanY*k+2*margin, 200)
	offX := (outputWidth - spanX*k) / 2
	// The node radius shrinks on crowded maps: the nearest pair of nodes
	// must not touch.
	nearest := math.Inf(1)
	for i, p := range provs {
		b.at[p] = pt{offX + (spots[i].X-minX)*k, margin + (spots[i].Y-minY)*k}
	}
	for i, p := range provs {
		for _, q := range provs[i+1:] {
			nearest = math.Min(nearest, b.at[p].sub(b.at[q]).len())
		}
	}
	b.nodeR = math.Max(7, math.Min(15, nearest*0.42))
	for _, p := range provs {
		c := b.at[p]
		b.label[p] = c.add(pt{0, b.nodeR + 11})
		b.centre[p] = c.add(pt{b.nodeR * 0.8, -b.nodeR * 0.8})
	}
	// Edges, and the place of each split coast: beside its node, towards
	// the seas its fleets reach.
	for i, p := range provs {
		for _, q := range provs[i+1:] {
			army := m.ArmyAdjacent(p, q) || m.ArmyAdjacent(q, p)
			fleet := m.ShareShore(p, q)
			if army || fleet {
				b.edges = append(b.edges, schemEdge{p, q, army, fleet})
			}
		}
		for _, c := range m.Locs[p].Coasts {
			var dir pt
			for _, q := range provs {
				if m.FleetReaches(c, q) {
					dir = dir.add(b.at[q].sub(b.at[p]).unit())
				}
			}
			if dir.len() < 1e-9 {
				dir = pt{0, -1}
			}
			b.at[c] = b.at[p].add(dir.unit().mul(b.nodeR + 12))
		}
	}
	return b
}

// autoLayout places the provinces of a map that has no place lines, so that
// no variant is without a picture: a force-directed layout (Fruchterman and
// Reingold) of the adjacency graph, started from a deterministic spiral and
// cooled over a fixed number of rounds, so the same map always gets the
// same picture.
func autoLayout(m *judge.Map) []pt {
	provs := m.Provinces()
	n := len(provs)
	pos := make([]pt, n)
	for i := range pos {
		// A sunflower spiral spreads the start evenly.
		r := math.Sqrt(float64(i) + 0.5)
		a := float64(i) * 2.39996323
		pos[i] = pt{r * math.Cos(a), r * math.Sin(a)}
	}
	var adj [][2]int
	for i, p := range provs {
		for j := i + 1; j < n; j++ {
			q := provs[j]
			if m.ArmyAdjacent(p, q) || m.ArmyAdjacent(q, p) || m.ShareShore(p, q) {
				adj = append(adj, [2]int{i, j})
			}
		}
	}
	const k = 1.0 // ideal edge length
	disp := make([]pt, n)
	temp := math.Sqrt(float64(n)) / 2
	const rounds = 400
	for round := 0; round < rounds; round++ {
		clear(disp)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				d := pos[i].sub(pos[j])
				l2 := d.X*d.X + d.Y*d.Y
				if l2 < 1e-6 {
					d, l2 = pt{1e-3 * float64(i-j), 1e-3}, 1e-6
				}
				f := d.mul(k * k / l2)
				disp[i] = disp[i].add(f)
				disp[j] = disp[j].sub(f)
			}
		}
		for _, e := range adj {
			d := pos[e[0]].sub(pos[e[1]])
			l := d.len()
			f := d.mul(l / k)
			disp[e[0]] = disp[e[0]].sub(f)
			disp[e[1]] = disp[e[1]].add(f)
		}
		for i := range pos {
			// A weak pull to the middle keeps parts of a disconnected map
			// (or a lone island) on the board.
			disp[i] = disp[i].sub(pos[i].mul(0.02))
			l := disp[i].len()
			if l > temp {
				disp[i] = disp[i].mul(temp / l)
			}
			pos[i] = pos[i].add(disp[i])
		}
		temp *= 0.985
		if temp < 0.01 {
			temp = 0.01
		}
	}
	spread(pos, adj)
	return pos
}

// spread pushes apart the nodes that a force layout left crowded: no two
// closer than 0.7 of the median edge length, so that each keeps room for
// its unit and label.
func spread(pos []pt, adj [][2]int) {
	if len(adj) == 0 {
		return
	}
	lens := make([]float64, len(adj))
	for i, e := range adj {
		lens[i] = pos[e[0]].sub(pos[e[1]]).len()
	}
	slices.Sort(lens)
	dmin := 0.7 * lens[len(lens)/2]
	for round := 0; round < 60; round++ {
		moved := false
		for i := range pos {
			for j := i + 1; j < len(pos); j++ {
				d := pos[j].sub(pos[i])
				l := d.len()
				if l >= dmin {
					continue
				}
				if l < 1e-9 {
					d, l = pt{1, 0}, 1
				}
				push := d.mul((dmin - l) / l / 2)
				pos[i], pos[j] = pos[i].sub(push), pos[j].add(push)
				moved = true
			}
		}
		if !moved {
			return
		}
	}
}
