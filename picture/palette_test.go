package picture

import (
	"fmt"
	"image/color"
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge/variants"
)

// TestPalette checks the powers' colours of every board: each power's
// centre and home tints far from the sea (ΔE00 15 or more, to normal
// sight and simulated protanopia and deuteranopia), and, on boards whose
// powers all have colours of their own, every two powers apart in unit
// colour and tint: 12 or more to normal sight, and to the simulated
// dichromats 10 or more on boards of up to seven powers, 6 on larger
// ones. Neighbours are kept at least as far apart as the palette's
// closest pair.
func TestPalette(t *testing.T) {
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		ps := powerStyles(m)
		n := len(ps)
		for i, st := range ps {
			for _, c := range []struct {
				what string
				d    float64
			}{{"centre tint", difference(st.Tint, colSea)}, {"home tint", difference(st.Home, colSea)}} {
				if c.d < 15 {
					t.Errorf("%s: %s's %s is ΔE00 %.1f from the sea, want 15", name, m.Powers[i].Name, c.what, c.d)
				}
			}
			if st.Letter != string(m.Powers[i].Letter) {
				t.Errorf("%s: %s has letter %q", name, m.Powers[i].Name, st.Letter)
			}
		}
		if n > SolidPowers {
			continue
		}
		cvdMin := 10.0
		if n > 7 {
			cvdMin = 6
		}
		nb := powerNeighbours(m)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				a, b := ps[i], ps[j]
				for _, c := range []struct {
					what string
					x, y lab
					min  float64
				}{
					{"units", toLab(a.Unit), toLab(b.Unit), 12},
					{"tints", toLab(a.Tint), toLab(b.Tint), 12},
				} {
					if d := deltaE00(c.x, c.y); d < c.min {
						t.Errorf("%s: %s and %s %s ΔE00 %.1f, want %.0f", name, m.Powers[i].Name, m.Powers[j].Name, c.what, d, c.min)
					}
				}
				for _, sight := range []int{seeProtan, seeDeutan} {
					for _, pair := range [][2]lab{{seen(a.Unit, sight), seen(b.Unit, sight)}, {seen(a.Tint, sight), seen(b.Tint, sight)}} {
						if d := deltaE00(pair[0], pair[1]); d < cvdMin {
							t.Errorf("%s: %s and %s ΔE00 %.1f to sight %d, want %.0f", name, m.Powers[i].Name, m.Powers[j].Name, d, sight, cvdMin)
						}
					}
				}
				if nb[i][j] && slices.Equal([]byte(hex(a.Unit)), []byte(hex(b.Unit))) {
					t.Errorf("%s: neighbours %s and %s share a colour", name, m.Powers[i].Name, m.Powers[j].Name)
				}
			}
		}
	}
}

// TestAssignColoursSeparatesNeighbours: on a board where two powers'
// homes touch, the assignment gives them colours no closer than the
// order of the set would, and on the standard board the neighbours are
// further apart than the set's closest pair.
func TestAssignColoursSeparatesNeighbours(t *testing.T) {
	m := variants.Standard()
	nb := powerNeighbours(m)
	least := func(cols []string) float64 {
		l := 1e9
		for i := range cols {
			for j := i + 1; j < len(cols); j++ {
				if nb[i][j] {
					l = min(l, difference(parseHex(cols[i]), parseHex(cols[j])))
				}
			}
		}
		return l
	}
	var natural []string
	for _, c := range palette7 {
		natural = append(natural, hex(c))
	}
	got := PowerColours(m)
	if least(got) < least(natural)-1e-9 {
		t.Errorf("neighbours ΔE00 %.1f apart, %.1f in the set's order", least(got), least(natural))
	}
	if !nb[0][3] || !nb[2][3] {
		t.Errorf("Austria–Germany and France–Germany are not neighbours: %v", nb)
	}
}

func parseHex(s string) (c color.NRGBA) {
	fmt.Sscanf(s, "#%02x%02x%02x", &c.R, &c.G, &c.B)
	c.A = 0xff
	return c
}

// TestPaletteBeyondSolid holds every board, whatever its number of
// powers, to a bar a player can rely on: two powers drawn with the same
// fill pattern differ by ΔE00 12 (units and tints, as on small boards)
// and 6 to protanopes and deuteranopes; two powers whose homes touch
// differ by 12 whatever their patterns, since their colours stand side
// by side; and any two powers' units, discs that carry no pattern, by 8,
// with the letter on each to tell the closest apart. Chaos, 34 powers,
// once had Paris and Venice in greens ΔE00 1 apart with the same hatch.
func TestPaletteBeyondSolid(t *testing.T) {
	big := 0
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		ps := powerStyles(m)
		if len(ps) > SolidPowers {
			big++
		}
		nb := powerNeighbours(m)
		for i := range ps {
			for j := i + 1; j < len(ps); j++ {
				a, b := ps[i], ps[j]
				pair := m.Powers[i].Name + " and " + m.Powers[j].Name
				du := deltaE00(toLab(a.Unit), toLab(b.Unit))
				dt := deltaE00(toLab(a.Tint), toLab(b.Tint))
				if du < 8 {
					t.Errorf("%s: %s units ΔE00 %.1f, want 8", name, pair, du)
				}
				if nb[i][j] && min(du, dt) < 12 {
					t.Errorf("%s: neighbours %s ΔE00 %.1f, want 12", name, pair, min(du, dt))
				}
				if a.Pattern != b.Pattern {
					continue
				}
				if min(du, dt) < 12 {
					t.Errorf("%s: %s share a pattern and are ΔE00 %.1f apart, want 12", name, pair, min(du, dt))
				}
				for _, sight := range []int{seeProtan, seeDeutan} {
					if d := deltaE00(seen(a.Unit, sight), seen(b.Unit, sight)); d < 6 {
						t.Errorf("%s: %s share a pattern and are ΔE00 %.1f apart to sight %d, want 6", name, pair, d, sight)
					}
				}
			}
		}
	}
	if big == 0 {
		t.Error("no board has more than SolidPowers powers: the test checks nothing beyond them")
	}
}
