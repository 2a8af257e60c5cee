package web

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/picture"
)

// TestChartColours: on every board the chart gives each power the colour
// the map gives it (picture.PowerColours), lines that do not hide one
// another where counts are equal, and labels that fit the chart.
func TestChartColours(t *testing.T) {
	for _, name := range variants.Names() {
		mp, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		n := len(mp.Powers)
		// Every power on the same count for three years, then counts
		// that differ.
		var rows []chartRow
		for y := range 4 {
			counts := make([]int, n)
			for k := range counts {
				counts[k] = 3
				if y == 3 {
					counts[k] = k % 5
				}
			}
			rows = append(rows, chartRow{Label: strconv.Itoa(mp.StartYear + y), Counts: counts})
		}
		c := layoutChart(mp, rows)
		want := picture.PowerColours(mp)
		for k, l := range c.Lines {
			if l.Colour != want[k] || c.Powers[k].Colour != want[k] {
				t.Errorf("%s: %s is %s on the chart, %s in its legend and %s on the map", name, l.Power, l.Colour, c.Powers[k].Colour, want[k])
			}
			if (k < picture.SolidPowers) != (l.Dash == "") {
				t.Errorf("%s: %s's line dash %q", name, l.Power, l.Dash)
			}
		}
		// The first point of every line: the same count, drawn apart.
		var ys []int
		for _, l := range c.Lines {
			first := strings.Fields(l.Points)[0]
			y, _ := strconv.Atoi(first[strings.IndexByte(first, ',')+1:])
			ys = append(ys, y)
			if y < c.Top || y > c.Bottom+equalStep*n/2 {
				t.Errorf("%s: %s starts at y %d, off the plot %d-%d", name, l.Power, y, c.Top, c.Bottom)
			}
		}
		slices.Sort(ys)
		if len(slices.Compact(ys)) != n {
			t.Errorf("%s: %d powers on one count drawn at %d heights", name, n, len(ys))
		}
		// Labels: the x labels, 12 px text at about 7 px a character,
		// do not overlap; the y labels fit left of the plot.
		for i := 1; i < len(c.XLabels); i++ {
			a, b := c.XLabels[i-1], c.XLabels[i]
			if b.At-a.At < 7*(len(a.Text)+len(b.Text))/2+4 {
				t.Errorf("%s: x labels %q and %q overlap", name, a.Text, b.Text)
			}
		}
		for _, l := range c.YLabels {
			if 7*len(l.Text)+6 > c.Left {
				t.Errorf("%s: y label %q does not fit left of the plot", name, l.Text)
			}
		}
	}
}
