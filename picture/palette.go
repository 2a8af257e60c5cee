package picture

import (
	"fmt"
	"image/color"
	"math"
)

// The colours of everything that is no power's. The sea is a pale blue and
// neutral land a warm paper tone, both light, so that the power colours,
// the arrows and the black labels stand out on them.
var (
	colSea        = rgb(0xc9, 0xe1, 0xf2)
	colLand       = rgb(0xf3, 0xec, 0xdc)
	colImpassable = rgb(0xa6, 0xa6, 0xa6)
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
)

func rgb(r, g, b uint8) color.NRGBA { return color.NRGBA{r, g, b, 0xff} }

// okabeIto is the Okabe–Ito palette, chosen to stay distinct under the
// common colour-vision deficiencies. It is ordered so that the seven
// powers of the standard map get colours close to their traditional ones
// (Austria red, England dark blue, France light blue, Germany brown-orange,
// Italy green, Russia purple, Turkey yellow); black is left out because a
// black unit hides its outline and a black tint is the impassable grey.
var okabeIto = [...]color.NRGBA{
	rgb(0xd5, 0x5e, 0x00), // vermillion
	rgb(0x00, 0x72, 0xb2), // blue
	rgb(0x56, 0xb4, 0xe9), // sky blue
	rgb(0xe6, 0x9f, 0x00), // orange
	rgb(0x00, 0x9e, 0x73), // bluish green
	rgb(0xcc, 0x79, 0xa7), // reddish purple
	rgb(0xf0, 0xe4, 0x42), // yellow
}

// The fill patterns that tell powers apart where hue alone cannot: maps
// with more powers than the seven Okabe–Ito colours repeat hues, so the
// provinces of the eighth and later powers are hatched as well.
const (
	patSolid = iota
	patHatch // lines rising to the right
	patBack  // lines falling to the right
	patCross // both
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

// powerStyles returns the style of each power, given the powers' letters
// in map order. The first seven take the Okabe–Ito colours and solid
// fills; the next ones go round the hue circle by the golden angle,
// alternating lightness, and take hatched fills, so that even Chaos's 34
// powers are told apart by hue, lightness, pattern and the letter on
// every unit. A power's colours depend only on its place in the order.
func powerStyles(letters []byte) []powerStyle {
	out := make([]powerStyle, len(letters))
	for i := range out {
		var c color.NRGBA
		pat := patSolid
		if i < len(okabeIto) {
			c = okabeIto[i]
		} else {
			j := i - len(okabeIto)
			h := math.Mod(20+float64(j)*137.50776, 360)
			l := [...]float64{0.55, 0.40, 0.68}[j%3]
			c = hsl(h, 0.65, l)
			pat = 1 + j%(numPatterns-1)
		}
		out[i] = powerStyle{
			Unit:    c,
			Tint:    mix(c, colWhite, 0.45),
			Home:    mix(c, colWhite, 0.8),
			Text:    contrastText(c),
			Pattern: pat,
			Letter:  string(letters[i]),
		}
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
