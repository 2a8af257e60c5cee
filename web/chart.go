package web

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/state"
)

// The centre counts of a game, year by year, as a line chart drawn in
// SVG on the server (no script), with the same numbers in a table: the
// chart's text alternative, and the exact figures.

// chart is the data of the centre chart and its table.
type chart struct {
	Width, Height int
	Left, Bottom  int // the plot's left and bottom edges
	Right, Top    int
	XLabels       []axisLabel
	YLabels       []axisLabel
	Lines         []chartLine
	VictoryY      int // 0: the victory count is off the chart
	Victory       int
	Powers        []chartPower
	Rows          []chartRow
}

type axisLabel struct {
	At   int // x or y
	Text string
}

type chartLine struct {
	Power  string
	Colour string
	Dash   string // a dash pattern, so that lines differ by more than colour
	Points string
}

// chartPower is a power in the legend and the table head.
type chartPower struct {
	Name, Colour, Dash string
}

type chartRow struct {
	Label  string // "Start", or the year whose Fall the counts follow
	Counts []int
}

// dashes tell the lines of the powers whose provinces the map hatches
// apart (the eleventh and later of a board, picture.PowerColours): their
// colours are many and close, and their lines are dashed as their
// provinces are hatched.
var dashes = []string{"6 3", "2 3"}

// equalStep is how far apart, in chart units, the lines of powers with
// the same count are drawn, so that none hides another.
const equalStep = 3

// centreChart gathers the centres each power owned at the start and
// after every Fall played, from the history's positions (the first of
// each year: ownership changes only at the end of a Fall) and the
// current one (current, at phase), decoding only the positions it needs.
func centreChart(mp *judge.Map, recs []*state.PhaseRecord, phase string, current []byte) (chart, error) {
	var rows []chartRow
	seen := map[int]bool{}
	var dec jsonpos.Decoder
	look := func(phase string, data []byte) error {
		ph, err := parsePhase(phase)
		if err != nil || len(data) == 0 {
			return nil
		}
		y := ph.Year - 1
		if ph.Season == judge.Winter {
			y = ph.Year
		}
		if y < mp.StartYear {
			y = mp.StartYear - 1 // the start
		}
		if seen[y] {
			return nil
		}
		seen[y] = true
		pos, _, err := dec.Position(data)
		if err != nil {
			return err
		}
		label := strconv.Itoa(y)
		if y < mp.StartYear {
			label = "Start"
		}
		rows = append(rows, chartRow{Label: label, Counts: pos.CenterCount()})
		return nil
	}
	for _, r := range recs {
		if err := look(r.Phase, r.Position); err != nil {
			return chart{}, fmt.Errorf("phase %s: %w", r.Phase, err)
		}
	}
	if err := look(phase, current); err != nil {
		return chart{}, err
	}
	return layoutChart(mp, rows), nil
}

// layoutChart places rows on a chart of fixed size; the browser scales
// it to the page.
func layoutChart(mp *judge.Map, rows []chartRow) chart {
	c := chart{Width: 640, Height: 260, Left: 36, Right: 628, Top: 10, Bottom: 228, Rows: rows, Victory: mp.VictoryCenters}
	top := 5
	for _, r := range rows {
		for _, n := range r.Counts {
			top = max(top, n)
		}
	}
	if mp.VictoryCenters > top && mp.VictoryCenters <= top+top/2 {
		top = mp.VictoryCenters
	}
	top = (top + 4) / 5 * 5
	y := func(n int) int { return c.Bottom - n*(c.Bottom-c.Top)/top }
	x := func(i int) int {
		if len(rows) < 2 {
			return (c.Left + c.Right) / 2
		}
		return c.Left + i*(c.Right-c.Left)/(len(rows)-1)
	}
	step := max(1, top/5)
	for n := 0; n <= top; n += step {
		c.YLabels = append(c.YLabels, axisLabel{At: y(n), Text: strconv.Itoa(n)})
	}
	every := (len(rows) + 9) / 10 // ten labels at most
	for i, r := range rows {
		if i%every == 0 || i == len(rows)-1 {
			c.XLabels = append(c.XLabels, axisLabel{At: x(i), Text: r.Label})
		}
	}
	if mp.VictoryCenters <= top {
		c.VictoryY = y(mp.VictoryCenters)
	}
	colours := picture.PowerColours(mp)
	// Powers with the same count in a row are spread about the count's
	// height, in map order, equalStep apart.
	shift := make([][]int, len(rows))
	for i, r := range rows {
		shift[i] = make([]int, len(r.Counts))
		for k, n := range r.Counts {
			same, rank := 0, 0
			for j, m := range r.Counts {
				if m == n {
					if j < k {
						rank++
					}
					same++
				}
			}
			shift[i][k] = rank*equalStep - (same-1)*equalStep/2
		}
	}
	for k, p := range mp.Powers {
		colour, dash := colours[k], ""
		if k >= picture.SolidPowers {
			dash = dashes[k%len(dashes)]
		}
		c.Powers = append(c.Powers, chartPower{Name: p.Name, Colour: colour, Dash: dash})
		var pts []string
		for i, r := range rows {
			if k < len(r.Counts) {
				pts = append(pts, fmt.Sprintf("%d,%d", x(i), y(r.Counts[k])+shift[i][k]))
			}
		}
		if len(pts) == 1 {
			// One point draws nothing as a polyline: a short tick.
			pts = append(pts, pts[0])
		}
		c.Lines = append(c.Lines, chartLine{Power: p.Name, Colour: colour, Dash: dash, Points: strings.Join(pts, " ")})
	}
	return c
}

// parsePhase reads a phase of the history, "S1901M" or "W1905AX".
func parsePhase(s string) (judge.Phase, error) {
	return judge.ParsePhase(strings.TrimSuffix(s, "X"))
}
