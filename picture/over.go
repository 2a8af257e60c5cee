package picture

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/gmdjudge/gmd/judge"
)

// A move is drawn over the two provinces it joins. A straight line
// between their unit points often is not: Western Mediterranean to
// Mid-Atlantic ran across Spain, and read as a move through Spain;
// long coastal seas and provinces shaped like an L did the same. Where
// the straight line leaves the two provinces for more than overSlack
// pixels, the move is drawn as a smooth curve through a point of their
// shared border (the geometry agrees with the adjacency graph, so
// neighbours share one), the point whose curve stays most over them.

// overSlack is how much of a straight move's line, in pixels, may run
// outside its two provinces before it is drawn curved: a line that cuts
// a border's corner by a pixel or two still reads as going from one to
// the other, and a curve there would draw attention to nothing.
const overSlack = 2.0

// overCache is what a drawn board keeps to draw moves over their
// provinces: the shared borders, found once per board, and each move's
// line as drawn, since the same moves are drawn in picture after
// picture and choosing a line costs about a millisecond.
type overCache struct {
	once    sync.Once
	crosses map[[2]judge.Loc][]pt // per pair of provinces (smaller first): points spread along their shared border
	boxes   [][]box               // per province: the bounding box of each of its rings
	bands   [][]ringBands         // per province: each ring's edges by band of height

	mu   sync.Mutex
	fits map[fitKey][]pt
}

type wayKey struct {
	a, e pt
	p, q judge.Loc
}

// maxFits bounds the lines a board keeps: moves start at a few points
// per place (the unit's, a dislodged unit's, a retreating unit's) and
// end short of the target by one of two lengths, so a board has a few
// thousand; the bound guards the memory only (a line is a few hundred
// bytes to a kilobyte or two).
const maxFits = 1 << 14

// crossPoints is how many points of a shared border a move may cross
// at, at most, spread evenly along it.
const crossPoints = 8

// prepare finds the shared borders of every pair of provinces: the
// segments found in the rings of both (mapgeo's definition of a border).
func (b *board) prepareOver() {
	c := &b.over
	c.crosses = map[[2]judge.Loc][]pt{}
	c.boxes = make([][]box, len(b.rings))
	c.bands = make([][]ringBands, len(b.rings))
	type seg struct{ a, b pt }
	owner := map[seg]judge.Loc{}
	shared := map[[2]judge.Loc][]seg{}
	for _, p := range b.m.Provinces() {
		for _, r := range b.rings[p] {
			bb := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
			for i, v := range r {
				bb = box{min(bb.x0, v.X), min(bb.y0, v.Y), max(bb.x1, v.X), max(bb.y1, v.Y)}
				w := r[(i+1)%len(r)]
				s := seg{v, w}
				if w.X < v.X || (w.X == v.X && w.Y < v.Y) {
					s = seg{w, v}
				}
				q, ok := owner[s]
				if !ok {
					owner[s] = p
					continue
				}
				if q != p {
					k := [2]judge.Loc{min(p, q), max(p, q)}
					shared[k] = append(shared[k], s)
				}
			}
			c.boxes[p] = append(c.boxes[p], bb)
			c.bands[p] = append(c.bands[p], bandsOf(r, bb))
		}
	}
	for k, segs := range shared {
		var total float64
		for _, s := range segs {
			total += s.b.sub(s.a).len()
		}
		// Points at even steps along the border, none at its ends, where
		// a third province meets it.
		n := min(crossPoints, max(1, int(total/(6*b.s))))
		pts := make([]pt, 0, n)
		at, i, done := 0.0, 0, 0.0
		for j := 0; j < n; j++ {
			want := total * (float64(j) + 0.5) / float64(n)
			for i < len(segs) {
				l := segs[i].b.sub(segs[i].a).len()
				if done+l >= want {
					break
				}
				done += l
				i++
			}
			if i == len(segs) {
				break
			}
			l := segs[i].b.sub(segs[i].a).len()
			at = (want - done) / l
			pts = append(pts, segs[i].a.lerp(segs[i].b, at))
		}
		c.crosses[k] = pts
	}
}

// inProvince reports whether point v lies inside province p's shape.
func (b *board) inProvince(p judge.Loc, v pt) bool {
	in := false
	for i, r := range b.rings[p] {
		if bb := b.over.boxes[p][i]; v.X < bb.x0 || v.X > bb.x1 || v.Y < bb.y0 || v.Y > bb.y1 {
			continue
		}
		if b.over.bands[p][i].inRing(r, v) {
			in = !in
		}
	}
	return in
}

// borderDist is how far point v lies from the nearest edge of province
// p's shape, or r if further: only the edges of the bands r above and
// below v are measured.
func (b *board) borderDist(p judge.Loc, v pt, r float64) float64 {
	dist := r
	for i, ring := range b.rings[p] {
		if bb := b.over.boxes[p][i].grow(r); !bb.contains(v) {
			continue
		}
		rb := &b.over.bands[p][i]
		k0 := min(len(rb.edges)-1, max(0, int((v.Y-r-rb.y0)/rb.h)))
		k1 := min(len(rb.edges)-1, max(0, int((v.Y+r-rb.y0)/rb.h)))
		for k := k0; k <= k1; k++ {
			for _, e := range rb.edges[k] {
				j := int(e) - 1
				if j < 0 {
					j = len(ring) - 1
				}
				dist = min(dist, segGap(ring[j], ring[e], v))
			}
		}
	}
	return dist
}

// segGap is the distance from v to the segment a–c.
func segGap(a, c, v pt) float64 {
	ac, av := c.sub(a), v.sub(a)
	k := 0.0
	if n := ac.X*ac.X + ac.Y*ac.Y; n > 0 {
		k = max(0, min(1, (av.X*ac.X+av.Y*ac.Y)/n))
	}
	return a.lerp(c, k).sub(v).len()
}

// ringBands files a ring's edges by horizontal band, so that a point's
// test against the ring looks only at the edges of its own band: an
// edge that spans the point's height lies in the point's band, and no
// other edge counts in inRing, so the answer is inRing's exactly. Moves
// test tens of thousands of points against rings of hundreds of edges
// each (the route search, once per board and move), and the whole scan
// was four tenths of that search.
type ringBands struct {
	y0, h float64
	edges [][]int32 // per band: i for each edge r[i-1]–r[i] (r[len-1]–r[0] for i = 0) whose heights meet the band
}

// bandsOf files the edges of r, whose bounding box is bb.
func bandsOf(r []pt, bb box) ringBands {
	n := min(256, max(1, len(r)/4))
	rb := ringBands{y0: bb.y0, h: (bb.y1 - bb.y0) / float64(n), edges: make([][]int32, n)}
	if rb.h <= 0 {
		rb.h, rb.edges = 1, rb.edges[:1]
		n = 1
	}
	band := func(y float64) int { return min(n-1, max(0, int((y-rb.y0)/rb.h))) }
	for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
		lo, hi := band(min(r[i].Y, r[j].Y)), band(max(r[i].Y, r[j].Y))
		for k := lo; k <= hi; k++ {
			rb.edges[k] = append(rb.edges[k], int32(i))
		}
	}
	return rb
}

// inRing reports whether p, inside r's bounding box, lies inside r: the
// same crossing test as the package's inRing, on p's band's edges only.
func (rb *ringBands) inRing(r []pt, p pt) bool {
	k := min(len(rb.edges)-1, max(0, int((p.Y-rb.y0)/rb.h)))
	in := false
	for _, i := range rb.edges[k] {
		j := int(i) - 1
		if j < 0 {
			j = len(r) - 1
		}
		if crosses(r[i], r[j], p) {
			in = !in
		}
	}
	return in
}

// outside measures how much of polyline w, in map units, lies outside
// both provinces p and q, sampled every step; it stops counting once
// the sum passes limit.
func (b *board) outside(w []pt, p, q judge.Loc, step, limit float64) float64 {
	var out float64
	for i := 1; i < len(w) && out <= limit; i++ {
		a, c := w[i-1], w[i]
		l := c.sub(a).len()
		n := max(1, int(math.Ceil(l/step)))
		for k := 0; k < n; k++ {
			s := a.lerp(c, (float64(k)+0.5)/float64(n))
			if !b.inProvince(p, s) && !b.inProvince(q, s) {
				out += l / float64(n)
			}
		}
	}
	return out
}

// overFit is the line of a move from a, in province p, to e, in
// province q, ending short of e, as fit draws it along the first of
// overWays that will do, or bowed where none will: found once per
// board and kept, since nearly everything fit weighs (the unit's size,
// the names it keeps clear of) is the board's.
//
// keep sums up the rest that fit weighs which may differ from one
// picture to the next (where the centre markers stand: one moves aside
// for a unit that would cover it), so that a line is kept for the
// pictures that share it.
func (b *board) overFit(a, e pt, p, q judge.Loc, short float64, keep uint64, fit func([][]pt, func([]pt) float64) []pt) []pt {
	if b.m.Wraps || b.globe {
		if math.Abs(e.X-a.X) > b.w/2 {
			// Across the cut of a board round the globe: the short way
			// round is no way over the picture (a drawn globe's moves
			// across it come here in two pieces, globe.go).
			return fit([][]pt{{a, e}}, nil)
		}
	}
	c := &b.over
	k := fitKey{wayKey{a, e, p, q}, short, keep}
	c.mu.Lock()
	w, ok := c.fits[k]
	c.mu.Unlock()
	if ok {
		return w
	}
	w = fit(b.shortWays(b.overWays(a, e, p, q)), func(w []pt) float64 { return b.outside(w, p, q, overStep*b.s, math.Inf(1)) })
	c.mu.Lock()
	if c.fits == nil {
		c.fits = map[fitKey][]pt{}
	}
	if len(c.fits) < maxFits {
		c.fits[k] = w
	}
	c.mu.Unlock()
	return w
}

type fitKey struct {
	wayKey
	short float64
	keep  uint64
}

// overWays are the ways a move from a, in province p, to e, in
// province q, may be drawn on a board of real geography, best first:
// those that stay over the two provinces (within overSlack), the
// shortest first, so the straight line where it does; then the curves
// through points of their shared border, and the shortest way over the
// two, that leave them least. The picture takes the first that its
// marks leave room for (drawer.fit).
func (b *board) overWays(a, e pt, p, q judge.Loc) [][]pt {
	if b.schematic || p == q || int(p) >= len(b.rings) || int(q) >= len(b.rings) {
		return [][]pt{{a, e}}
	}
	b.over.once.Do(b.prepareOver)
	return b.chooseWays(a, e, p, q)
}

// overStep is how far apart, in pixels, a way is sampled to measure
// how much of it leaves its provinces.
const overStep = 1.5

// roomyWay is how long, in pixels, a straight way over its provinces
// must be for the picture to have no need of another: long enough for
// the shortest shaft, its head, the unit it leaves and the target's
// name (drawer.fit).
const roomyWay = 90

// chooseWays does overWays' work, uncached.
func (b *board) chooseWays(a, e pt, p, q judge.Loc) [][]pt {
	type way struct {
		w        []pt
		out, len float64
	}
	step := overStep * b.s
	straight := way{[]pt{a, e}, b.outside([]pt{a, e}, p, q, step, math.Inf(1)), e.sub(a).len()}
	ways := []way{straight}
	if straight.out <= overSlack*b.s && straight.len >= roomyWay*b.s {
		return [][]pt{straight.w}
	}
	// A way that leaves them more than the best so far by a couple of
	// samples is measured no further: it comes after the best whatever
	// its measure.
	least := straight.out
	for _, x := range b.over.crosses[[2]judge.Loc{min(p, q), max(p, q)}] {
		for _, tight := range []float64{1, 0.4} {
			w := curveThrough(a, x, e, tight)
			out := b.outside(w, p, q, step, max(least, overSlack*b.s)+2*step)
			least = min(least, out)
			ways = append(ways, way{w, out, pathLen(w)})
		}
	}
	if least > overSlack*b.s {
		// No curve through one point keeps over them: the shortest way
		// that does.
		// (None, where the two do not join between these points: a
		// province in pieces, a sea that joins the other only across
		// the cut of a board drawn round the globe. The way that leaves
		// them least is drawn.)
		if w := b.innerWay(a, e, p, q); w != nil {
			ways = append(ways, way{w, b.outside(w, p, q, step, math.Inf(1)), pathLen(w)})
		}
	}
	for i := range ways {
		if ways[i].out <= overSlack*b.s {
			ways[i].out = 0 // over them: the shorter the better
		}
	}
	slices.SortStableFunc(ways, func(x, y way) int {
		if x.out != y.out {
			return cmp.Compare(x.out, y.out)
		}
		return cmp.Compare(x.len, y.len)
	})
	out := make([][]pt, len(ways))
	for i := range ways {
		out[i] = ways[i].w
	}
	return out
}

// curvePieces is how many straight pieces draw each half of a curve.
const curvePieces = 12

// curveThrough is a smooth curve from a through x to e: two cubic
// Bézier pieces that meet at x heading from a's side to e's. tight
// scales how far the curve runs on that heading (1 the rounder, less
// the nearer to the two straight lines a–x and x–e).
func curveThrough(a, x, e pt, tight float64) []pt {
	head := e.sub(a).unit().mul(tight * min(x.sub(a).len(), e.sub(x).len()))
	w := make([]pt, 0, 2*curvePieces+1)
	w = cubic(w, a, a.lerp(x, 1.0/3), x.sub(head.mul(1.0/3)), x)
	return cubic(w[:len(w)-1], x, x.add(head.mul(1.0/3)), x.lerp(e, 2.0/3), e)
}

// cubic appends the points of the cubic Bézier p0 p1 p2 p3 to w,
// both ends included.
func cubic(w []pt, p0, p1, p2, p3 pt) []pt {
	for i := 0; i <= curvePieces; i++ {
		t := float64(i) / curvePieces
		s := 1 - t
		w = append(w, p0.mul(s*s*s).add(p1.mul(3*s*s*t)).add(p2.mul(3*s*t*t)).add(p3.mul(t*t*t)))
	}
	return w
}

// inRings reports whether p lies inside the polygons rings (even-odd).
func inRings(rings [][]pt, p pt) bool {
	in := false
	for _, r := range rings {
		if inRing(r, p) {
			in = !in
		}
	}
	return in
}

// crosses reports whether edge a–b crosses the ray from p toward +x:
// the even-odd test's step, one source for inRing and ringBands.inRing,
// which must answer alike (TestRingBandsAgree).
func crosses(a, b, p pt) bool {
	return (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X
}

// inRing reports whether p lies inside the polygon r.
func inRing(r []pt, p pt) bool {
	in := false
	for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
		if crosses(r[i], r[j], p) {
			in = !in
		}
	}
	return in
}

// A cellGrid is the union of two provinces rasterised in square cells,
// to find a way between two points that keeps over them where no
// single curve does (Mid-Atlantic's unit stands off Portugal, and a
// move from the Western Mediterranean must round Cape St. Vincent).
type cellGrid struct {
	x0, y0, size float64 // the top-left corner and the side of a cell, in map units
	w, h         int
	in           []bool  // per cell: its centre lies in one of the provinces
	room         []int32 // per cell: steps to the nearest cell outside (0 outside)
}

// maxCells bounds a grid's size, in cells: a cell is a pixel of the
// picture, or larger where the two provinces span more than this.
const maxCells = 40000

// routeScratch holds the buffers of one route search (innerWay): a
// grid's cells and the search's state per cell, some hundreds of
// kilobytes on the largest boards, which each search allocated afresh
// (a tenth of TestEveryArrowVisible's time went to allocating and
// collecting them). A search takes its own from routeScratches, so that
// pictures drawn at once on many goroutines share none.
type routeScratch struct {
	in    []bool
	room  []int32
	dist  []float64
	prev  []int32
	guess []float64
	heap  cellHeap
}

var routeScratches = sync.Pool{New: func() any { return new(routeScratch) }}

// resize returns buf with length n, on buf's array where it is large
// enough; the elements are left as they were.
func resize[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}

// newCellGrid rasterises provinces p and q of b, scanline by scanline,
// on the buffers of s.
func (b *board) newCellGrid(p, q judge.Loc, s *routeScratch) *cellGrid {
	bb := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, l := range []judge.Loc{p, q} {
		for _, r := range b.over.boxes[l] {
			bb = box{min(bb.x0, r.x0), min(bb.y0, r.y0), max(bb.x1, r.x1), max(bb.y1, r.y1)}
		}
	}
	size := max(b.s, math.Sqrt((bb.x1-bb.x0)*(bb.y1-bb.y0)/maxCells))
	g := &cellGrid{x0: bb.x0, y0: bb.y0, size: size,
		w: int((bb.x1-bb.x0)/size) + 1, h: int((bb.y1-bb.y0)/size) + 1}
	s.in = resize(s.in, g.w*g.h)
	g.in = s.in
	clear(g.in)
	var xs []float64
	for row := 0; row < g.h; row++ {
		y := g.y0 + (float64(row)+0.5)*size
		for _, l := range []judge.Loc{p, q} {
			xs = xs[:0]
			for _, r := range b.rings[l] {
				for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
					a, c := r[i], r[j]
					if (a.Y > y) != (c.Y > y) {
						xs = append(xs, a.X+(y-a.Y)*(c.X-a.X)/(c.Y-a.Y))
					}
				}
			}
			slices.Sort(xs)
			for k := 0; k+1 < len(xs); k += 2 {
				// The cells whose centres lie between the two crossings.
				c0 := max(0, int(math.Ceil((xs[k]-g.x0)/size-0.5)))
				c1 := min(g.w-1, int(math.Floor((xs[k+1]-g.x0)/size-0.5)))
				for c := c0; c <= c1; c++ {
					g.in[row*g.w+c] = true
				}
			}
		}
	}
	s.room = resize(s.room, len(g.in))
	g.room = s.room
	roomOf(g.in, g.w, g.h, g.room)
	return g
}

// roomOf fills room, per cell of a grid w cells wide and h high, with
// the steps to the nearest cell outside (0 outside): the city-block
// distance to the nearest cell that is not in, or lies on the grid's
// edge, which counts as outside. Two sweeps, down the grid from each
// cell's upper and left neighbours and back up from its lower and right
// ones, find that distance exactly, as a walk breadth first from every
// outside cell does (TestRoomAgrees), and at a fraction of that walk's
// cost, which was a fifth of TestEveryArrowVisible's time.
func roomOf(in []bool, w, h int, room []int32) {
	const far = math.MaxInt32 / 2 // more than any distance on a grid, and far+1 fits
	for y := range h {
		for x := range w {
			i := y*w + x
			if in[i] && x > 0 && y > 0 && x < w-1 && y < h-1 {
				room[i] = far
			} else {
				room[i] = 0
			}
		}
	}
	for y := 1; y < h-1; y++ {
		for i := y*w + 1; i < y*w+w-1; i++ {
			room[i] = min(room[i], room[i-w]+1, room[i-1]+1)
		}
	}
	for y := h - 2; y > 0; y-- {
		for i := y*w + w - 2; i > y*w; i-- {
			room[i] = min(room[i], room[i+w]+1, room[i+1]+1)
		}
	}
}

// cell is the cell under v, or -1 off the grid.
func (g *cellGrid) cell(v pt) int {
	x, y := int((v.X-g.x0)/g.size), int((v.Y-g.y0)/g.size)
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		return -1
	}
	return y*g.w + x
}

func (g *cellGrid) centre(i int) pt {
	return pt{g.x0 + (float64(i%g.w)+0.5)*g.size, g.y0 + (float64(i/g.w)+0.5)*g.size}
}

// nearestIn is the inside cell nearest to v (by the cells' centres;
// of cells equally near, the first in the grid's order), or -1.
//
// It looks at the cells round v's own (the nearest on the grid, for a
// v off it) ring by ring, outward, and stops at the first ring whose
// cells all lie further from v than the nearest found: a cell r rings
// out lies at least r-½ cells from v across or down. Scanning the whole
// grid, twice a search, found the same cell (TestNearestInAgrees) at
// several times the cost.
func (g *cellGrid) nearestIn(v pt) int {
	cx := min(g.w-1, max(0, int(math.Floor((v.X-g.x0)/g.size))))
	cy := min(g.h-1, max(0, int(math.Floor((v.Y-g.y0)/g.size))))
	best, bestD := -1, math.Inf(1)
	look := func(x, y int) {
		if x < 0 || x >= g.w {
			return
		}
		i := y*g.w + x
		if !g.in[i] {
			return
		}
		if d := g.centre(i).sub(v).len(); d < bestD || (d == bestD && i < best) {
			best, bestD = i, d
		}
	}
	for r := 0; r <= max(g.w, g.h); r++ {
		if best >= 0 && float64(r-1)*g.size > bestD {
			break // a margin of half a cell over r-½: rounding cannot matter
		}
		for y := max(0, cy-r); y <= min(g.h-1, cy+r); y++ {
			if y == cy-r || y == cy+r {
				for x := cx - r; x <= cx+r; x++ {
					look(x, y)
				}
			} else {
				look(cx-r, y)
				look(cx+r, y)
			}
		}
	}
	return best
}

// clear reports whether the segment from a to c crosses only cells with
// room of at least minRoom.
func (g *cellGrid) clear(a, c pt, minRoom int32) bool {
	n := int(c.sub(a).len()/(g.size/2)) + 1
	for k := 0; k <= n; k++ {
		i := g.cell(a.lerp(c, float64(k)/float64(n)))
		if i < 0 || g.room[i] < minRoom {
			return false
		}
	}
	return true
}

// innerWay is the shortest way from a to e over provinces p and q that
// keeps off their edges where it can (a step near an edge costs more),
// straightened where a straight piece keeps over them, and rounded: nil
// if the two do not join (neighbours across a strait).
func (b *board) innerWay(a, e pt, p, q judge.Loc) []pt {
	s := routeScratches.Get().(*routeScratch)
	defer routeScratches.Put(s)
	g := b.newCellGrid(p, q, s)
	from, to := g.nearestIn(a), g.nearestIn(e)
	if from < 0 || to < 0 {
		return nil
	}
	// A* over the eight neighbours of each cell, toward e as the crow
	// flies (no step costs less than its length).
	n := len(g.in)
	s.dist, s.prev, s.guess = resize(s.dist, n), resize(s.prev, n), resize(s.guess, n)
	dist, prev, guessed := s.dist, s.prev, s.guess
	for i := range dist {
		dist[i], prev[i], guessed[i] = math.Inf(1), -1, -1
	}
	goal := g.centre(to)
	// A cell's guess, worked out once (a square root) and kept, as the
	// search asks for it again each time it takes the cell from the
	// queue.
	guess := func(i int) float64 {
		if guessed[i] < 0 {
			guessed[i] = g.centre(i).sub(goal).len() / g.size
		}
		return guessed[i]
	}
	dist[from] = 0
	h := &s.heap
	*h = (*h)[:0]
	h.push(cellItem{from, guess(from)})
	for len(*h) > 0 {
		it := h.pop()
		i := it.i
		if i == to {
			break
		}
		if it.d > dist[i]+guess(i)+1e-9 {
			continue // a stale entry
		}
		x, y := i%g.w, i/g.w
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				nx, ny := x+dx, y+dy
				if (dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= g.w || ny >= g.h {
					continue
				}
				j := ny*g.w + nx
				if !g.in[j] {
					continue
				}
				step := 1.0
				if dx != 0 && dy != 0 {
					step = math.Sqrt2
				}
				step *= 1 + 3/float64(max(1, g.room[j]))
				if d := dist[i] + step; d < dist[j] {
					dist[j], prev[j] = d, int32(i)
					h.push(cellItem{j, d + guess(j)})
				}
			}
		}
	}
	if math.IsInf(dist[to], 1) {
		return nil
	}
	var cells []pt
	for i := to; i >= 0; i = int(prev[i]) {
		cells = append(cells, g.centre(i))
	}
	slices.Reverse(cells)
	cells[0], cells[len(cells)-1] = a, e
	// Straighten: from each corner, on to the furthest cell it sees
	// with a cell of room either side.
	corners := []pt{a}
	for i := 0; i < len(cells)-1; {
		j := len(cells) - 1
		for j > i+1 && !g.clear(cells[i], cells[j], 2) {
			j--
		}
		corners = append(corners, cells[j])
		i = j
	}
	return roundWay(corners)
}

// roundWay draws a smooth curve through the corners of a polyline: a
// Catmull-Rom spline (centripetal, which neither loops nor overshoots).
func roundWay(c []pt) []pt {
	if len(c) < 3 {
		return c
	}
	out := []pt{c[0]}
	for i := 0; i+1 < len(c); i++ {
		p0, p1, p2, p3 := c[max(0, i-1)], c[i], c[i+1], c[min(len(c)-1, i+2)]
		if i == 0 {
			p0 = p1.sub(p2.sub(p1))
		}
		if i+2 >= len(c) {
			p3 = p2.add(p2.sub(p1))
		}
		// Centripetal parameters: knots spaced by the square root of
		// each piece's length.
		t1 := math.Sqrt(max(1e-9, p1.sub(p0).len()))
		t2 := t1 + math.Sqrt(max(1e-9, p2.sub(p1).len()))
		t3 := t2 + math.Sqrt(max(1e-9, p3.sub(p2).len()))
		for k := 1; k <= curvePieces/2; k++ {
			t := t1 + (t2-t1)*float64(k)/float64(curvePieces/2)
			a1 := p0.mul((t1 - t) / t1).add(p1.mul(t / t1))
			a2 := p1.mul((t2 - t) / (t2 - t1)).add(p2.mul((t - t1) / (t2 - t1)))
			a3 := p2.mul((t3 - t) / (t3 - t2)).add(p3.mul((t - t2) / (t3 - t2)))
			b1 := a1.mul((t2 - t) / t2).add(a2.mul(t / t2))
			b2 := a2.mul((t3 - t) / (t3 - t1)).add(a3.mul((t - t1) / (t3 - t1)))
			out = append(out, b1.mul((t2-t)/(t2-t1)).add(b2.mul((t-t1)/(t2-t1))))
		}
	}
	return out
}

type cellItem struct {
	i int
	d float64
}

// cellHeap is innerWay's queue, the least first: a binary heap.
type cellHeap []cellItem

func (h *cellHeap) push(it cellItem) {
	*h = append(*h, it)
	q := *h
	for i := len(q) - 1; i > 0; {
		up := (i - 1) / 2
		if q[up].d <= q[i].d {
			break
		}
		q[up], q[i] = q[i], q[up]
		i = up
	}
}

func (h *cellHeap) pop() cellItem {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		l, r, least := 2*i+1, 2*i+2, i
		if l < len(q) && q[l].d < q[least].d {
			least = l
		}
		if r < len(q) && q[r].d < q[least].d {
			least = r
		}
		if least == i {
			break
		}
		q[i], q[least] = q[least], q[i]
		i = least
	}
	*h = q
	return top
}
