package picture

import (
	"math"
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
)

// roomByWalk is what roomOf finds, found the slow way: steps to the
// nearest outside cell (the grid's edge counts as outside), breadth first
// from every outside cell at once.
func roomByWalk(in []bool, w, h int) []int32 {
	room := make([]int32, len(in))
	var queue []int
	for i, v := range in {
		x, y := i%w, i/w
		if v && x > 0 && y > 0 && x < w-1 && y < h-1 {
			room[i] = -1
		} else {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		x, y := i%w, i/w
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			if nx < 0 || ny < 0 || nx >= w || ny >= h {
				continue
			}
			if j := ny*w + nx; room[j] < 0 {
				room[j] = room[i] + 1
				queue = append(queue, j)
			}
		}
	}
	return room
}

// nearestInByScan is what nearestIn finds, found the slow way: every
// cell of the grid measured, the first of the nearest kept.
func nearestInByScan(g *cellGrid, v pt) int {
	best, bestD := -1, math.Inf(1)
	for i, in := range g.in {
		if in {
			if d := g.centre(i).sub(v).len(); d < bestD {
				best, bestD = i, d
			}
		}
	}
	return best
}

// gridPairs are the pairs of provinces of b that share a border, in a
// fixed order: the pairs a move's route search builds a grid for.
func gridPairs(b *board) [][2]judge.Loc {
	b.over.once.Do(b.prepareOver)
	var pairs [][2]judge.Loc
	for k := range b.over.crosses {
		pairs = append(pairs, k)
	}
	slices.SortFunc(pairs, func(x, y [2]judge.Loc) int {
		if x[0] != y[0] {
			return int(x[0]) - int(y[0])
		}
		return int(x[1]) - int(y[1])
	})
	return pairs
}

// gridStride is how far apart, in gridPairs' order, are the pairs whose
// grids TestGridAgrees checks: a grid costs its slow references (the walk
// and the scan) milliseconds, and the boards have thousands of pairs.
// Each board starts at another offset, so that the boards together cover
// pairs of every kind.
const gridStride = 20

// TestGridAgrees: on the grid of every twentieth pair of neighbouring
// provinces of every board drawn on real geography (gridStride),
// roomOf's two sweeps give every cell the room that a breadth-first walk
// from the outside cells gives it, and nearestIn picks the cell a scan of
// the whole grid picks, for the points where units of the two stand, and
// for points spread over the grid and round it, off it, and on the
// centres and corners of cells, where ties between cells are likeliest.
// And on grids of every small size, filled at random, the sweeps' room
// is the walk's.
func TestGridAgrees(t *testing.T) {
	racetest.Sequential(t)
	s := new(routeScratch)
	for name, m := range geometryBoards(t) {
		b := boardFor(m)
		at := make([][]pt, m.NumLocs()) // per province: the points where its units stand
		for l := range m.Locs {
			p := m.Province(judge.Loc(l))
			at[p] = append(at[p], b.at[l])
		}
		rnd := lcg(len(name))
		pairs := gridPairs(b)
		checked := 0
		for i := len(name) % gridStride; i < len(pairs); i += gridStride {
			k := pairs[i]
			g := b.newCellGrid(k[0], k[1], s)
			if want := roomByWalk(g.in, g.w, g.h); !slices.Equal(g.room, want) {
				t.Errorf("%s: %s and %s: the sweeps' room differs from the walk's", name, m.LocName(k[0]), m.LocName(k[1]))
			}
			probes := append(slices.Clone(at[k[0]]), at[k[1]]...)
			wide, high := float64(g.w)*g.size, float64(g.h)*g.size
			for range 3 {
				// Over the grid and up to a third of it beyond each side.
				probes = append(probes, pt{
					g.x0 - wide/3 + wide*5/3*float64(rnd.intn(1000))/999,
					g.y0 - high/3 + high*5/3*float64(rnd.intn(1000))/999,
				})
				c := rnd.intn(len(g.in))
				probes = append(probes, g.centre(c), g.centre(c).sub(pt{g.size / 2, g.size / 2}))
			}
			for _, v := range probes {
				checked++
				if got, want := g.nearestIn(v), nearestInByScan(g, v); got != want {
					t.Errorf("%s: %s and %s at %v: cell %d, the scan's %d", name, m.LocName(k[0]), m.LocName(k[1]), v, got, want)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no grid checked", name)
		}
	}
	r := lcg(7)
	for w := 1; w <= 12; w++ {
		for h := 1; h <= 12; h++ {
			in := make([]bool, w*h)
			for i := range in {
				in[i] = r.intn(5) != 0
			}
			room := make([]int32, w*h)
			roomOf(in, w, h, room)
			if want := roomByWalk(in, w, h); !slices.Equal(room, want) {
				t.Errorf("%d×%d grid %v: room %v, want %v", w, h, in, room, want)
			}
		}
	}
}
