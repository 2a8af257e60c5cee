package picture

import "math"

// On a board drawn round the globe (board.globe: Cold War's Pacific,
// Twenty Twenty's, World's), the two sides of the picture are one
// meridian. An order between two places is drawn the short way round:
// over the picture where that is the shorter, else as two pieces, one
// from the unit off the side it is nearer by the globe and one in at
// the other side, at the same height, to the target. On the globe no
// two places are more than half its width apart, so no piece runs
// across more than half the picture (Twenty Twenty's Panama Basin–Mid
// Pacific ran across 77% of it, over the Americas, the Atlantic and
// Africa).

// acrossCut reports whether a line from a to e on b is drawn across the
// cut: b is drawn round the globe and the way round across its sides is
// the shorter.
func (b *board) acrossCut(a, e pt) bool {
	return b.globe && math.Abs(e.X-a.X) > b.w/2
}

// cutPieces returns the two pieces of a line from a to e drawn across
// the cut: from a to the side of the picture, and from the other side
// to e, leaving and coming in at one height. That is where the straight
// line round the globe crosses the cut, or, where that leaves either
// piece shorter than it must be to be seen (needA for the first, needE
// for the second: a province that spans the whole width, the Arctic or
// the South Pacific, has its point near a corner), the nearest height
// that leaves both long enough.
func (b *board) cutPieces(a, e pt, needA, needE float64) (lead, in []pt) {
	out, back, y0 := b.cutAt(a, e)
	fits := func(y float64) bool {
		return (pt{out, y}).sub(a).len() >= needA && e.sub(pt{back, y}).len() >= needE
	}
	// Far enough from the top and bottom that an arrow head at the side
	// stays on the picture.
	m := math.Min(12*b.s, b.h/4)
	y := math.Max(m, math.Min(b.h-m, y0))
	if !fits(y) {
		for step := b.s; step < b.h; step += b.s {
			if up := y - step; up >= m && fits(up) {
				y = up
				break
			}
			if down := y + step; down <= b.h-m && fits(down) {
				y = down
				break
			}
		}
	}
	return []pt{a, {out, y}}, []pt{{back, y}, e}
}

// shortWays drops, on a board drawn round the globe, the ways that run
// across more than half its width: the way round the other side is
// shorter (World's South Pole and Norwegian Dependency share a border
// only at the far east of the Antarctic, and the curve through it ran
// along the whole bottom edge and back). Where every way does, the
// straight line is left.
func (b *board) shortWays(ways [][]pt) [][]pt {
	if !b.globe {
		return ways
	}
	var out [][]pt
	for _, w := range ways {
		x0, x1 := math.Inf(1), math.Inf(-1)
		for _, v := range w {
			x0, x1 = min(x0, v.X), max(x1, v.X)
		}
		if x1-x0 <= b.w/2 {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		w := ways[0]
		return [][]pt{{w[0], w[len(w)-1]}}
	}
	return out
}

// roundPieces cuts polyline path (a convoyed move's way, from fleet to
// fleet) on a board drawn round the globe where it goes the short way
// round across the cut: each step between two points goes the shorter
// way, and a step across the cut ends one piece at one side and starts
// the next at the other, at the height it crosses. A board not round the
// globe, or a way that stays on the picture, is one piece.
func (b *board) roundPieces(path []pt) [][]pt {
	if !b.globe || len(path) < 2 {
		return [][]pt{path}
	}
	var out [][]pt
	piece := []pt{path[0]}
	for i := 1; i < len(path); i++ {
		a, e := path[i-1], path[i]
		if !b.acrossCut(a, e) {
			piece = append(piece, e)
			continue
		}
		side, back, y := b.cutAt(a, e)
		out = append(out, append(piece, pt{side, y}))
		piece = []pt{{back, y}, e}
	}
	return append(out, piece)
}

// cutAt is where the straight line from a to e round the globe crosses
// the cut: the side of the picture it leaves by (its x), the side it
// comes in at, and the height.
func (b *board) cutAt(a, e pt) (out, back, y float64) {
	out, back = b.w, 0 // leaving at the right side
	far := e.X + b.w   // e as seen beyond the side a leaves by
	if e.X > a.X {
		out, back, far = 0, b.w, e.X-b.w
	}
	if far == a.X {
		return out, back, a.Y
	}
	return out, back, a.Y + (e.Y-a.Y)*(out-a.X)/(far-a.X)
}
