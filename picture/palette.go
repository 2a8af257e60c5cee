package picture

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sync"

	"github.com/gmdjudge/gmd/judge"
)

// The colours of everything that is no power's. The sea is a pale blue and
// neutral land a warm paper tone, both light, so that the power colours,
// the arrows and the black labels stand out on them.
var (
	colSea        = rgb(0xc9, 0xe1, 0xf2)
	colLand       = rgb(0xf3, 0xec, 0xdc)
	colImpassable = rgb(0xa6, 0xa6, 0xa6)
	colDeep       = rgb(0x86, 0xaa, 0xcf) // water no unit enters: darker than the sea, as published maps draw it
	colBorder     = rgb(0x5c, 0x55, 0x4a)
	colInk        = rgb(0x1a, 0x1a, 0x1a)
	colWhite      = rgb(0xff, 0xff, 0xff)
	colPaper      = rgb(0xfa, 0xf8, 0xf3)
	colLegend     = rgb(0xee, 0xea, 0xe0)
	colFail       = rgb(0xc0, 0x00, 0x00) // outcome marks: bounce, cut, void
	colArmyEdge   = rgb(0x9a, 0x7b, 0x4f) // schematic: army-only adjacency
	colFleetEdge  = rgb(0x3b, 0x7d, 0xc4) // schematic: fleet-only adjacency
	colBothEdge   = rgb(0x6b, 0x6b, 0x6b) // schematic: army and fleet
	colNoPower    = rgb(0xff, 0xff, 0xff)
	// colNeutral is a neutral unit's (judge.Unit.Neutral): a grey no
	// power's colour comes near, drawn without a letter.
	colNeutral = rgb(0x8c, 0x8c, 0x8c)
)

func rgb(r, g, b uint8) color.NRGBA { return color.NRGBA{r, g, b, 0xff} }

// The powers' colours. Each set was chosen (by a search over a grid of
// hues, saturations and lightnesses) so that, with the tints derived from
// them (powerStyle), every pair stays apart to normal sight (ΔE00 of 14
// or more, units and tints), to protanopes and deuteranopes (simulated:
// see colour.go), and every tint far from the sea and from neutral land.
// Blue is the sea's, so no power's tint is a light blue: England's blue
// is dark enough to stand out from the water. TestPalette checks these
// figures on every board.
var (
	// palette7 serves boards of up to seven powers. Its order follows the
	// standard board's powers, close to their traditional colours:
	// Austria red, England blue, France teal, Germany brown, Italy green,
	// Russia purple, Turkey ochre.
	palette7 = [...]color.NRGBA{
		rgb(0x5c, 0x23, 0x23),
		rgb(0x12, 0x12, 0xe2),
		rgb(0x2d, 0x76, 0x59),
		rgb(0x76, 0x4b, 0x0a),
		rgb(0x77, 0xbd, 0x0f),
		rgb(0x76, 0x0a, 0x4b),
		rgb(0x94, 0x82, 0x38),
	}
	// palette10 serves boards of eight to ten powers, and the first ten
	// of larger ones.
	palette10 = [SolidPowers]color.NRGBA{
		rgb(0x5c, 0x23, 0x23),
		rgb(0xe2, 0x8f, 0x12),
		rgb(0x12, 0x12, 0xe2),
		rgb(0xc1, 0x5c, 0x66),
		rgb(0x76, 0x0a, 0x4b),
		rgb(0x76, 0x4b, 0x0a),
		rgb(0x4a, 0x94, 0x38),
		rgb(0x16, 0x69, 0x40),
		rgb(0x40, 0x0a, 0x76),
		rgb(0xe2, 0x51, 0x12),
	}
)

// seaDistance is the least ΔE00 between any power's tint and the sea,
// to every sight checked (difference).
const seaDistance = 15

// SolidPowers is how many powers of a board have colours of their own
// and solid fills: the rest share hues and are told apart by hatching
// (and the web chart by dashes) as well.
const SolidPowers = 10

// The fill patterns that tell powers apart where hue alone cannot: maps
// with more powers than palette10 has colours repeat hues, so the
// provinces of the eleventh and later powers are hatched as well. The
// lines are upright and level, not slanting: a PNG is compressed row by
// row, and a row of a slanting hatch is the one above it shifted, which
// deflate matches less well than a row repeated or a row of one colour
// (Chaos's busiest played movement weighed 6% less, Twenty Twenty's
// and World's 2-3%).
const (
	patSolid = iota
	patHatch // upright lines
	patBack  // level lines
	patCross // both, a grid
	patDots
	numPatterns
)

// patternPeriod is the size in pixels of a fill pattern's tile, the same
// in both backends. It is a power of two: the rasteriser finds a pixel's
// place in its tile with a mask.
const patternPeriod = 8

// powerStyle is how one power is drawn.
type powerStyle struct {
	Unit    color.NRGBA // unit symbols, arrows, centre markers
	Tint    color.NRGBA // provinces whose centre it owns
	Home    color.NRGBA // a lighter tint for its home non-centre provinces
	Text    color.NRGBA // the letter on its units: black or white, for contrast
	Pattern int         // fill pattern of its provinces
	Letter  string
}

// powerStyles returns the style of each power of m, in map order. A
// board of up to ten powers takes its colours from palette7 or
// palette10, assigned so that powers whose home countries touch get the
// colours furthest apart (see assignColours); the eleventh and later
// powers are hatched and take their colours from extraColours, so that
// even Chaos's 34 powers are told apart by hue, lightness, pattern and
// the letter on every unit.
func powerStyles(m *judge.Map) []powerStyle {
	n := len(m.Powers)
	base := palette7[:]
	if n > len(palette7) {
		base = palette10[:]
	}
	nb := powerNeighbours(m)
	cols := assignColours(base[:min(n, len(base))], nb)
	out := make([]powerStyle, n)
	for i, c := range cols {
		out[i] = styleOf(c, patSolid, string(m.Powers[i].Letter))
	}
	extraColours(out, len(cols), nb, m)
	return out
}

// extraPattern is the fill pattern of the i-th power beyond the solid
// ones: the hatched patterns in turn.
func extraPattern(i int) int { return 1 + i%(numPatterns-1) }

// patternWorth is what a different fill pattern counts for, in ΔE00,
// when extraColours weighs two powers' colours: hatching tells two
// provinces apart, but not two units, which are solid discs.
const patternWorth = 4

// neighbourCost is how much closer, in ΔE00, extraColours counts two
// powers whose homes touch: their colours stand side by side.
const neighbourCost = 6

// extraColours gives powers from..len(out)-1 their styles. Each in turn
// takes, from a grid of hues, saturations and lightnesses whose tints
// stay far from the sea, the colour furthest from every power already
// coloured (to normal sight, units and tints), a different pattern
// counting patternWorth and touching homes neighbourCost against it.
// Stepping round the hue circle instead (as this once did) gave Chaos
// two green hatched powers ΔE00 1 apart, Paris and Venice, and a run of
// near-identical greens, because equal steps of hue are not equal steps
// of what the eye sees. It is deterministic: a board always gets the
// same colours.
func extraColours(out []powerStyle, from int, nb [][]bool, m *judge.Map) {
	if from >= len(out) {
		return
	}
	cands := extraCandidates()
	// dist[i][k]: how far power i's colour is from candidate k, the
	// nearest of units and tints to normal sight and units to protanopes
	// and deuteranopes (less dichromatSlack).
	dist := make([][]float64, len(out))
	// near[p][k]: the least of dist[i][k] over the powers i already
	// coloured that are drawn with pattern p.
	near := make([][]float64, numPatterns)
	for p := range near {
		near[p] = make([]float64, len(cands))
		for k := range near[p] {
			near[p][k] = math.Inf(1)
		}
	}
	add := func(i int) {
		u, t := toLab(out[i].Unit), toLab(out[i].Tint)
		pu, du := seen(out[i].Unit, seeProtan), seen(out[i].Unit, seeDeutan)
		dist[i] = make([]float64, len(cands))
		row := near[out[i].Pattern]
		for k, c := range cands {
			d := min(deltaE00(c.unit, u), deltaE00(c.tint, t),
				deltaE00(c.protan, pu)+dichromatSlack, deltaE00(c.deutan, du)+dichromatSlack)
			dist[i][k] = d
			row[k] = math.Min(row[k], d)
		}
	}
	for i := range from {
		add(i)
	}
	used := make([]bool, len(cands))
	for i := from; i < len(out); i++ {
		pat := extraPattern(i - from)
		best, bestScore := -1, math.Inf(-1)
		for k := range cands {
			if used[k] {
				continue
			}
			score := math.Inf(1)
			for p := range near {
				d := near[p][k]
				if p != pat {
					d += patternWorth
				}
				score = math.Min(score, d)
			}
			for j := range i {
				if !nb[i][j] {
					continue
				}
				d := dist[j][k] - neighbourCost
				if out[j].Pattern != pat {
					d += patternWorth
				}
				score = math.Min(score, d)
			}
			if score > bestScore {
				best, bestScore = k, score
			}
		}
		used[best] = true
		out[i] = cands[best].style
		out[i].Pattern, out[i].Letter = pat, string(m.Powers[i].Letter)
		add(i)
	}
}

// candidate is a colour extraColours may give a power, with its unit
// and tint colours in Lab, worked out once.
type candidate struct {
	style                      powerStyle
	unit, tint, protan, deutan lab
}

// dichromatSlack is how much nearer, in ΔE00, two colours may look to a
// protanope or deuteranope than to normal sight: TestPalette asks 12
// apart to normal sight and 6 to simulated dichromats on large boards.
const dichromatSlack = 6

// extraCandidates are the colours extraColours chooses from: a grid of
// hues, saturations and lightnesses, less those whose centre or home
// tint would look like the sea or whose unit would look like a neutral
// unit's grey. The grid is the same for every board, so it is worked
// out once.
var extraCandidates = sync.OnceValue(func() []candidate {
	var out []candidate
	for h := 0.0; h < 360; h += 10 {
		for _, s := range [...]float64{0.5, 0.8} {
			for _, l := range [...]float64{0.32, 0.45, 0.58, 0.70} {
				st := styleOf(hsl(h, s, l), patSolid, "")
				if difference(st.Tint, colSea) >= seaDistance && difference(st.Home, colSea) >= seaDistance &&
					deltaE00(toLab(st.Unit), toLab(colNeutral)) >= 12 {
					out = append(out, candidate{st, toLab(st.Unit), toLab(st.Tint), seen(st.Unit, seeProtan), seen(st.Unit, seeDeutan)})
				}
			}
		}
	}
	return out
})

// styleOf derives a power's style from its colour: the tint of its
// centres a quarter of the way to white (dark enough to stay far from the
// pale sea), and its home provinces' tint most of the way to the land's
// paper tone.
func styleOf(c color.NRGBA, pattern int, letter string) powerStyle {
	return powerStyle{Unit: c, Tint: mix(c, colWhite, 0.25), Home: mix(c, colLand, 0.6),
		Text: contrastText(c), Pattern: pattern, Letter: letter}
}

// swapGain is the least gain in ΔE00 between the closest neighbours for
// which assignColours moves colours from the set's order.
const swapGain = 3

// powerNeighbours reports, for each pair of powers of m, whether their
// home countries touch: a home province of one borders one of the other.
func powerNeighbours(m *judge.Map) [][]bool {
	n := len(m.Powers)
	nb := make([][]bool, n)
	for i := range nb {
		nb[i] = make([]bool, n)
	}
	provs := m.Provinces()
	for i, p := range provs {
		hp := m.Locs[p].Home
		if hp == judge.NoPower || int(hp) >= n {
			continue
		}
		for _, q := range provs[i+1:] {
			hq := m.Locs[q].Home
			if hq == judge.NoPower || int(hq) >= n || hq == hp {
				continue
			}
			if m.ArmyAdjacent(p, q) || m.ArmyAdjacent(q, p) || m.ShareShore(p, q) {
				nb[hp][hq], nb[hq][hp] = true, true
			}
		}
	}
	return nb
}

// assignColours gives the first len(cols) powers one colour of cols each:
// in the set's order, then improved by swapping pairs while a swap widens
// the smallest difference between neighbours by swapGain, so that the
// powers a player most often compares, those who share a border, differ
// most, while a board whose order already does well keeps the colours
// its players know (the standard board's traditional ones). It is deterministic: a board always gets the same colours.
func assignColours(cols []color.NRGBA, nb [][]bool) []color.NRGBA {
	out := slices.Clone(cols)
	n := len(out)
	diff := make([][]float64, n)
	for i := range diff {
		diff[i] = make([]float64, n)
		for j := range diff[i] {
			if i != j {
				diff[i][j] = difference(cols[i], cols[j])
			}
		}
	}
	at := make([]int, n) // power -> index in cols
	for i := range at {
		at[i] = i
	}
	score := func() (float64, float64) { // the closest neighbours
		least := math.Inf(1)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if nb[i][j] {
					least = math.Min(least, diff[at[i]][at[j]])
				}
			}
		}
		return least, 0
	}
	for improved := true; improved; {
		improved = false
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				l0, _ := score()
				at[i], at[j] = at[j], at[i]
				if l1, _ := score(); l1 > l0+swapGain {
					improved = true
					continue
				}
				at[i], at[j] = at[j], at[i]
			}
		}
	}
	for i := range out {
		out[i] = cols[at[i]]
	}
	return out
}

// mix returns a blend of a and b with t of b.
func mix(a, b color.NRGBA, t float64) color.NRGBA {
	f := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-t) + float64(y)*t)) }
	return color.NRGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xff}
}

// luminance is the relative luminance of c (WCAG).
func luminance(c color.NRGBA) float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// contrastText picks black or white, whichever contrasts more with c.
func contrastText(c color.NRGBA) color.NRGBA {
	l := luminance(c)
	if (l+0.05)/0.05 >= 1.05/(l+0.05) {
		return colInk
	}
	return colWhite
}

// hsl converts hue (degrees), saturation and lightness to a colour.
func hsl(h, s, l float64) color.NRGBA {
	c := (1 - math.Abs(2*l-1)) * s
	hp := h / 60
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g = c, x
	case hp < 2:
		r, g = x, c
	case hp < 3:
		g, b = c, x
	case hp < 4:
		g, b = x, c
	case hp < 5:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := l - c/2
	f := func(v float64) uint8 { return uint8(math.Round((v + m) * 255)) }
	return rgb(f(r), f(g), f(b))
}

// hex writes c as #rrggbb.
func hex(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// PowerColours returns the colour of each power of m, in map order, as
// "#rrggbb": the colours its units, centres and legend have in every
// picture, for other drawings of the same game (the web page's centre
// chart) to use, so that one power has one colour everywhere.
func PowerColours(m *judge.Map) []string {
	ps := boardFor(m).styles()
	out := make([]string, len(ps))
	for i, st := range ps {
		out[i] = hex(st.Unit)
	}
	return out
}
