package picture

import (
	"math"
	"testing"
)

// TestDeltaE00 checks the CIEDE2000 implementation against pairs of
// Sharma, Wu and Dalal's test data (2005), which exercise its hue and
// chroma corner cases.
func TestDeltaE00(t *testing.T) {
	for _, c := range []struct {
		p, q lab
		want float64
	}{
		{lab{50, 2.6772, -79.7751}, lab{50, 0, -82.7485}, 2.0425},
		{lab{50, 3.1571, -77.2803}, lab{50, 0, -82.7485}, 2.8615},
		{lab{50, 2.8361, -74.0200}, lab{50, 0, -82.7485}, 3.4412},
		{lab{50, -1.3802, -84.2814}, lab{50, 0, -82.7485}, 1.0000},
		{lab{50, 0, 0}, lab{50, -1, 2}, 2.3669},
		{lab{50, -1, 2}, lab{50, 0, 0}, 2.3669},
		{lab{50, 2.49, -0.001}, lab{50, -2.49, 0.0009}, 7.1792},
		{lab{50, 2.49, -0.001}, lab{50, -2.49, 0.0011}, 7.2195},
		{lab{50, -0.001, 2.49}, lab{50, 0.0009, -2.49}, 4.8045},
		{lab{50, 2.5, 0}, lab{73, 25, -18}, 27.1492},
		{lab{50, 2.5, 0}, lab{61, -5, 29}, 22.8977},
		{lab{60.2574, -34.0099, 36.2677}, lab{60.4626, -34.1751, 39.4387}, 1.2644},
		{lab{63.0109, -31.0961, -5.8663}, lab{62.8187, -29.7946, -4.0864}, 1.2630},
		{lab{35.0831, -44.1164, 3.7933}, lab{35.0232, -40.0716, 1.5901}, 1.8645},
		{lab{22.7233, 20.0904, -46.6940}, lab{23.0331, 14.9730, -42.5619}, 2.0373},
		{lab{90.8027, -2.0831, 1.4410}, lab{91.1528, -1.6435, 0.0447}, 1.4441},
		{lab{2.0776, 0.0795, -1.1350}, lab{0.9033, -0.0636, -0.5514}, 0.9082},
	} {
		if got := deltaE00(c.p, c.q); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("ΔE00(%v, %v) = %.4f, want %.4f", c.p, c.q, got, c.want)
		}
	}
	// White and black, through the sRGB conversion.
	if l := toLab(colWhite); math.Abs(l.L-100) > 0.01 || math.Abs(l.A) > 0.01 || math.Abs(l.B) > 0.01 {
		t.Errorf("white is %v", l)
	}
}

// TestCVDSimulation: the simulations keep greys grey and confuse the
// colours dichromats confuse: red and green, far apart to normal sight,
// come close under both.
func TestCVDSimulation(t *testing.T) {
	grey := rgb(0x80, 0x80, 0x80)
	for s := range numSights {
		if d := deltaE00(seen(grey, s), toLab(grey)); d > 1 {
			t.Errorf("sight %d moves grey by ΔE00 %.1f", s, d)
		}
	}
	red, green := rgb(0xd0, 0x30, 0x30), rgb(0x50, 0x90, 0x30)
	normal := deltaE00(toLab(red), toLab(green))
	if normal < 40 {
		t.Errorf("red and green ΔE00 %.1f to normal sight", normal)
	}
	for _, s := range []int{seeProtan, seeDeutan} {
		if d := deltaE00(seen(red, s), seen(green, s)); d > normal/2 {
			t.Errorf("sight %d: red and green still ΔE00 %.1f apart (%.1f to normal sight)", s, d, normal)
		}
	}
}
