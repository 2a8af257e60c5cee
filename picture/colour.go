package picture

import (
	"image/color"
	"math"
)

// Colour science for choosing the powers' colours: CIELAB, the CIEDE2000
// colour difference, and the simulation of the two common red-green
// colour-vision deficiencies. A ΔE00 of 1 is about the smallest
// difference an eye notices side by side; colours that must be told apart
// at a glance, on a map, want 10 or more.

// lab is a colour in CIELAB (D65 white).
type lab struct{ L, A, B float64 }

// linear returns the linear-light value of an sRGB channel.
func linear(v uint8) float64 {
	x := float64(v) / 255
	if x <= 0.04045 {
		return x / 12.92
	}
	return math.Pow((x+0.055)/1.055, 2.4)
}

// toLab converts c (sRGB) to CIELAB.
func toLab(c color.NRGBA) lab { return labOfLinear(linear(c.R), linear(c.G), linear(c.B)) }

func labOfLinear(r, g, b float64) lab {
	x := (0.4124564*r + 0.3575761*g + 0.1804375*b) / 0.95047
	y := 0.2126729*r + 0.7151522*g + 0.0721750*b
	z := (0.0193339*r + 0.1191920*g + 0.9503041*b) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x), f(y), f(z)
	return lab{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// deltaE00 is the CIEDE2000 difference of two colours (Sharma, Wu and
// Dalal's formulation, with kL = kC = kH = 1).
func deltaE00(p, q lab) float64 {
	const deg = math.Pi / 180
	c1, c2 := math.Hypot(p.A, p.B), math.Hypot(q.A, q.B)
	cm := (c1 + c2) / 2
	cm7 := math.Pow(cm, 7)
	g := 0.5 * (1 - math.Sqrt(cm7/(cm7+math.Pow(25, 7))))
	a1, a2 := (1+g)*p.A, (1+g)*q.A
	c1p, c2p := math.Hypot(a1, p.B), math.Hypot(a2, q.B)
	hue := func(a, b float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		h := math.Atan2(b, a) / deg
		if h < 0 {
			h += 360
		}
		return h
	}
	h1, h2 := hue(a1, p.B), hue(a2, q.B)
	dL := q.L - p.L
	dC := c2p - c1p
	var dh float64
	switch {
	case c1p*c2p == 0:
		dh = 0
	case math.Abs(h2-h1) <= 180:
		dh = h2 - h1
	case h2-h1 > 180:
		dh = h2 - h1 - 360
	default:
		dh = h2 - h1 + 360
	}
	dH := 2 * math.Sqrt(c1p*c2p) * math.Sin(dh/2*deg)
	lm := (p.L + q.L) / 2
	cmp := (c1p + c2p) / 2
	var hm float64
	switch {
	case c1p*c2p == 0:
		hm = h1 + h2
	case math.Abs(h1-h2) <= 180:
		hm = (h1 + h2) / 2
	case h1+h2 < 360:
		hm = (h1 + h2 + 360) / 2
	default:
		hm = (h1 + h2 - 360) / 2
	}
	t := 1 - 0.17*math.Cos((hm-30)*deg) + 0.24*math.Cos(2*hm*deg) + 0.32*math.Cos((3*hm+6)*deg) - 0.20*math.Cos((4*hm-63)*deg)
	dTheta := 30 * math.Exp(-math.Pow((hm-275)/25, 2))
	cmp7 := math.Pow(cmp, 7)
	rc := 2 * math.Sqrt(cmp7/(cmp7+math.Pow(25, 7)))
	l50 := (lm - 50) * (lm - 50)
	sl := 1 + 0.015*l50/math.Sqrt(20+l50)
	sc := 1 + 0.045*cmp
	sh := 1 + 0.015*cmp*t
	rt := -math.Sin(2*dTheta*deg) * rc
	return math.Sqrt(math.Pow(dL/sl, 2) + math.Pow(dC/sc, 2) + math.Pow(dH/sh, 2) + rt*(dC/sc)*(dH/sh))
}

// The ways of seeing a palette is checked for: normal vision, and
// protanopia and deuteranopia, simulated by Machado, Oliveira and
// Fernandes's matrices (2009) at full severity, which act on linear RGB.
const (
	seeNormal = iota
	seeProtan
	seeDeutan
	numSights
)

var cvdMatrix = [numSights][3][3]float64{
	seeProtan: {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
	seeDeutan: {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
}

// seen is c in CIELAB as a viewer with the given sight sees it.
func seen(c color.NRGBA, sight int) lab {
	r, g, b := linear(c.R), linear(c.G), linear(c.B)
	if sight == seeNormal {
		return labOfLinear(r, g, b)
	}
	m := &cvdMatrix[sight]
	clamp := func(v float64) float64 { return math.Max(0, math.Min(1, v)) }
	return labOfLinear(clamp(m[0][0]*r+m[0][1]*g+m[0][2]*b), clamp(m[1][0]*r+m[1][1]*g+m[1][2]*b), clamp(m[2][0]*r+m[2][1]*g+m[2][2]*b))
}

// difference is the least ΔE00 between a and b over the sights checked:
// how far apart they look to the viewer who sees them closest.
func difference(a, b color.NRGBA) float64 {
	d := math.Inf(1)
	for s := range numSights {
		d = math.Min(d, deltaE00(seen(a, s), seen(b, s)))
	}
	return d
}
