package carve

import (
	"fmt"
	"math"
)

// The grid's borders are the pixel edges between pixels of two regions
// (or a region and the outside of the box). Corners where three or more
// such edges meet are junctions; the edges between junctions form chains,
// each simplified once, so that the two regions on either side of a chain
// get the very same vertices. Rings are then walked around each region
// and written as the chains they pass.

// tracer holds the edge structure of one grid.
type tracer struct {
	w, h  int
	lbl   []int32
	nH    int     // number of horizontal edges; vertical ids follow them
	chain []int32 // per edge: its chain, or -1 for no border
	junc  []bool  // per corner
}

// chain is a run of border edges between two junctions, or a closed loop.
type chain struct {
	corners []int // corner ids, first to last (a loop repeats the first)
	first   int   // first edge
	last    int   // last edge
	loop    bool  // no junction on it
	pts     []int // simplified, as x, y pairs, first to last corner
}

func (t *tracer) at(x, y int) int32 {
	if x < 0 || y < 0 || x >= t.w || y >= t.h {
		return -1
	}
	return t.lbl[y*t.w+x]
}

// ends returns the corners of edge e.
func (t *tracer) ends(e int) (int, int) {
	cw := t.w + 1
	if e < t.nH {
		x, y := e%t.w, e/t.w
		return y*cw + x, y*cw + x + 1
	}
	e -= t.nH
	x, y := e%cw, e/cw
	return y*cw + x, (y+1)*cw + x
}

// sides returns the regions on the right of e walked forward (+x or +y)
// and backward; y grows downward.
func (t *tracer) sides(e int) (fwd, back int32) {
	if e < t.nH {
		x, y := e%t.w, e/t.w
		return t.at(x, y), t.at(x, y-1)
	}
	e -= t.nH
	x, y := e%(t.w+1), e/(t.w+1)
	return t.at(x-1, y), t.at(x, y)
}

// step returns the edge leaving corner c in direction d (0 east, 1 south,
// 2 west, 3 north) and whether it is walked forward; e is -1 at the box edge.
func (t *tracer) step(c, d int) (e int, fwd bool) {
	cw := t.w + 1
	x, y := c%cw, c/cw
	switch d {
	case 0:
		if x < t.w {
			return y*t.w + x, true
		}
	case 1:
		if y < t.h {
			return t.nH + y*cw + x, true
		}
	case 2:
		if x > 0 {
			return y*t.w + x - 1, false
		}
	case 3:
		if y > 0 {
			return t.nH + (y-1)*cw + x, false
		}
	}
	return -1, false
}

func (t *tracer) border(e int) bool {
	a, b := t.sides(e)
	return a != b
}

// trace returns each region's rings as flat x, y lists.
func trace(w, h int, lbl []int32, nRegions int, tol float64) ([][][]int, error) {
	t := &tracer{w: w, h: h, lbl: lbl, nH: w * (h + 1)}
	nE := t.nH + (w+1)*h
	cw := w + 1
	t.chain = make([]int32, nE)
	for i := range t.chain {
		t.chain[i] = -1
	}
	t.junc = make([]bool, cw*(h+1))
	for c := range t.junc {
		n := 0
		for d := 0; d < 4; d++ {
			if e, _ := t.step(c, d); e >= 0 && t.border(e) {
				n++
			}
		}
		t.junc[c] = n > 2
	}

	// Chains from every junction, then the loops that have none.
	var chains []*chain
	follow := func(c0, e0 int) *chain {
		ch := &chain{corners: []int{c0}, first: e0}
		c, e := c0, e0
		for {
			t.chain[e] = int32(len(chains))
			ch.last = e
			a, b := t.ends(e)
			if a == c {
				c = b
			} else {
				c = a
			}
			ch.corners = append(ch.corners, c)
			if t.junc[c] || c == c0 {
				return ch
			}
			next := -1
			for d := 0; d < 4; d++ {
				if f, _ := t.step(c, d); f >= 0 && f != e && t.border(f) {
					next = f
				}
			}
			e = next
		}
	}
	for c := range t.junc {
		if !t.junc[c] {
			continue
		}
		for d := 0; d < 4; d++ {
			if e, _ := t.step(c, d); e >= 0 && t.border(e) && t.chain[e] < 0 {
				chains = append(chains, follow(c, e))
			}
		}
	}
	for e := 0; e < nE; e++ {
		if t.chain[e] < 0 && t.border(e) {
			a, _ := t.ends(e)
			ch := follow(a, e)
			ch.loop = true
			chains = append(chains, ch)
		}
	}
	for _, ch := range chains {
		ch.pts = simplifyChain(ch.corners, cw, tol)
	}

	rings := make([][][]int, nRegions)
	emit := func(r int32, refs []chainRef) error {
		var ring []int
		for _, ref := range refs {
			p := chains[ref.id].pts
			n := len(p) / 2
			for k := 0; k < n-1; k++ {
				i := k
				if !ref.fwd {
					i = n - 1 - k
				}
				ring = append(ring, p[2*i], p[2*i+1])
			}
		}
		if len(ring) < 6 {
			return fmt.Errorf("carve: a ring of region %d has %d points", r, len(ring)/2)
		}
		rings[r] = append(rings[r], ring)
		return nil
	}

	// Rings through junctions: walk half-edges with the region on the
	// right, turning right first where a region touches itself at a
	// corner, so that each ring encloses a 4-connected piece.
	visited := make([]uint8, nE) // bit 1 forward, bit 2 backward
	for c0 := range t.junc {
		if !t.junc[c0] {
			continue
		}
		for d0 := 0; d0 < 4; d0++ {
			e0, fwd0 := t.step(c0, d0)
			if e0 < 0 || !t.border(e0) || visited[e0]&dirBit(fwd0) != 0 {
				continue
			}
			r := rightOf(t, e0, fwd0)
			if r < 0 {
				continue
			}
			var refs []chainRef
			c, d, e, fwd := c0, d0, e0, fwd0
			for {
				visited[e] |= dirBit(fwd)
				if t.junc[c] {
					id := int(t.chain[e])
					ch := chains[id]
					refs = append(refs, chainRef{id, ch.first == e && ch.corners[0] == c})
				}
				a, b := t.ends(e)
				if fwd {
					c = b
				} else {
					c = a
				}
				found := false
				for _, turn := range [3]int{1, 0, 3} { // right, straight, left
					nd := (d + turn) % 4
					ne, nf := t.step(c, nd)
					if ne >= 0 && t.border(ne) && rightOf(t, ne, nf) == r {
						d, e, fwd, found = nd, ne, nf, true
						break
					}
				}
				if !found {
					return nil, fmt.Errorf("carve: ring of region %d breaks at corner %d", r, c)
				}
				if e == e0 && fwd == fwd0 {
					break
				}
			}
			if err := emit(r, refs); err != nil {
				return nil, err
			}
		}
	}
	for id, ch := range chains {
		if !ch.loop {
			continue
		}
		a, _ := t.ends(ch.first)
		fwdEdge := a == ch.corners[0] // the chain runs along its first edge forward
		for _, along := range []bool{true, false} {
			r := rightOf(t, ch.first, fwdEdge == along)
			if r >= 0 {
				if err := emit(r, []chainRef{{id, along}}); err != nil {
					return nil, err
				}
			}
		}
	}
	return rings, nil
}

type chainRef struct {
	id  int
	fwd bool // walked from its first corner to its last
}

func dirBit(fwd bool) uint8 {
	if fwd {
		return 1
	}
	return 2
}

func rightOf(t *tracer, e int, fwd bool) int32 {
	a, b := t.sides(e)
	if fwd {
		return a
	}
	return b
}

// simplifyChain turns a chain's corners into points and simplifies them
// by Douglas–Peucker with its ends fixed. A chain that closes on itself is
// cut in three first, and every chain keeps at least its point farthest
// from the line of its ends, so that no ring collapses below three points.
func simplifyChain(corners []int, cw int, tol float64) []int {
	pts := make([][2]int, len(corners))
	for i, c := range corners {
		pts[i] = [2]int{c % cw, c / cw}
	}
	var keep []bool = make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	if pts[0] == pts[len(pts)-1] {
		n := len(pts) - 1
		cuts := []int{0, n / 3, 2 * n / 3, n}
		for i := 0; i+1 < len(cuts); i++ {
			keep[cuts[i]] = true
			dp(pts, cuts[i], cuts[i+1], tol, keep, false)
		}
	} else {
		dp(pts, 0, len(pts)-1, tol, keep, true)
	}
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, pts[i][0], pts[i][1])
		}
	}
	return out
}

// dp marks the points to keep between i and j (both kept). With force,
// the farthest point is kept even within the tolerance.
func dp(pts [][2]int, i, j int, tol float64, keep []bool, force bool) {
	if j-i < 2 {
		return
	}
	ax, ay := float64(pts[i][0]), float64(pts[i][1])
	bx, by := float64(pts[j][0]), float64(pts[j][1])
	dx, dy := bx-ax, by-ay
	l := math.Hypot(dx, dy)
	best, far := -1.0, -1
	for k := i + 1; k < j; k++ {
		px, py := float64(pts[k][0]), float64(pts[k][1])
		var d float64
		if l == 0 {
			d = math.Hypot(px-ax, py-ay)
		} else {
			d = math.Abs(dx*(py-ay)-dy*(px-ax)) / l
		}
		if d > best {
			best, far = d, k
		}
	}
	if best <= tol && !force {
		return
	}
	keep[far] = true
	dp(pts, i, far, tol, keep, false)
	dp(pts, far, j, tol, keep, false)
}
