package engine

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// FutureData is for future.tmpl: what became, when a phase began, of the
// orders one power wrote ahead for it (PHASE), to that power alone.
type FutureData struct {
	HeadLines
	Power    string
	Season   string   // the phase begun: "Fall of 1902 (F1902M)"
	Branches []string // the conditions met, each with what was found: "IF A Bur: true"
	Entered  []string // the orders entered, as written
	Refused  []string // the orders that no longer fit, each with why
	Missed   []string // the phases written for that never came, with their orders' count
}

// ComparePhases orders phases as a game plays them: by year, then
// season, then type (movement, retreat, adjustment).
func ComparePhases(a, b judge.Phase) int {
	return cmp.Or(cmp.Compare(a.Year, b.Year), cmp.Compare(a.Season, b.Season), cmp.Compare(a.Type, b.Type))
}

// enterFuture enters in g the orders the powers wrote ahead for the phase
// of pos, each block as if its power had mailed it at the start of the
// phase: its conditions are evaluated on pos, and each order of the
// branches taken is checked as a mail's order would be (TryOrder). An
// order that no longer fits (its unit gone, a build without a free
// centre) is refused, and reported with the rest. The orders written for
// a phase the game has passed without playing it (a retreat that did not
// happen) are dropped and reported. It returns a notice for each power
// that had orders entered or dropped, for sendFuture.
func (m *Engine) enterFuture(g *state.Game, pos *judge.Position, rules judge.Rules) []FutureData {
	if len(g.Future) == 0 {
		return nil
	}
	mp := pos.Map
	var out []FutureData
	for k := range mp.Powers {
		name := mp.Powers[k].Name
		blocks := g.Future[name]
		if len(blocks) == 0 {
			continue
		}
		d := FutureData{Power: name, Season: fmt.Sprintf("%s (%s)", report.Season(pos.Phase), pos.Phase)}
		var later []state.FutureOrders
		missed := map[string]int{}
		var missedOrder []string
		for _, b := range blocks {
			ph, err := judge.ParsePhase(b.Phase)
			switch c := ComparePhases(ph, pos.Phase); {
			case err != nil || c < 0:
				if missed[b.Phase] == 0 {
					missedOrder = append(missedOrder, b.Phase)
				}
				missed[b.Phase] += max(1, countOrderLines(b.Text))
			case c > 0:
				later = append(later, b)
			default:
				m.enterBlock(g, pos, rules, judge.Power(k), b.Text, &d)
			}
		}
		for _, ph := range missedOrder {
			d.Missed = append(d.Missed, fmt.Sprintf("%s (%d %s)", ph, missed[ph], report.Plural(missed[ph], "line", "lines")))
		}
		if len(later) == 0 {
			delete(g.Future, name)
		} else {
			g.Future[name] = later
		}
		if len(d.Entered)+len(d.Refused)+len(d.Missed)+len(d.Branches) > 0 {
			out = append(out, d)
		}
	}
	if len(g.Future) == 0 {
		g.Future = nil
	}
	return out
}

// countOrderLines counts the lines of text that are neither blank nor
// IF, ELSE or ENDIF.
func countOrderLines(text string) int {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != "" && !parser.IsControl(l) {
			n++
		}
	}
	return n
}

// enterBlock enters one block of orders power p wrote ahead, recording
// in d what became of each.
func (m *Engine) enterBlock(g *state.Game, pos *judge.Position, rules judge.Rules, p judge.Power, text string, d *FutureData) {
	mp := pos.Map
	name := mp.Powers[p].Name
	// Under fog of war a condition is read, and an order checked, on
	// what the power sees: a condition on a province out of sight finds
	// it empty, whatever stands there, and so tells nothing.
	pos = FogFor(g, pos, name)
	opt := parser.Options{Map: mp, Phase: pos.Phase.Type, Power: p}
	script, errs := parser.ParseScript(text, opt)
	lines := strings.Split(text, "\n")
	lineText := func(n int) string {
		if n >= 1 && n <= len(lines) {
			return strings.TrimSpace(lines[n-1])
		}
		return ""
	}
	// The block was read when it was mailed; an error now can only come
	// from a change of the map's names, and is reported like a refusal.
	for _, e := range errs {
		d.Refused = append(d.Refused, fmt.Sprintf("%s: %s.", lineText(e.Line), Capitalize(e.Msg)))
	}
	keep, met := script.Select(pos)
	for _, b := range met {
		d.Branches = append(d.Branches, fmt.Sprintf("%s%s: %s", strings.Repeat("  ", b.Depth), b.Text, holdWord(b)))
	}
	parsed, perrs := parser.ParseOrders(parser.Only(text, keep), opt)
	for _, e := range perrs {
		d.Refused = append(d.Refused, fmt.Sprintf("%s: %s.", lineText(e.Line), Capitalize(e.Msg)))
	}
	cur := StoredOrders(pos, p, g.Orders[name])
	texts := map[string]string{}
	changed := false
	for _, po := range parsed {
		o := po.Order
		if o.Power != p {
			d.Refused = append(d.Refused, fmt.Sprintf("%s: %s.", po.Text, "An order for another power"))
			continue
		}
		next, reason := TryOrder(pos, rules, cur, o)
		if reason != "" {
			d.Refused = append(d.Refused, fmt.Sprintf("%s: %s.", po.Text, Capitalize(reason)))
			continue
		}
		cur, changed = next, true
		texts[next[len(next)-1].Canonical(mp)] = po.Text
		d.Entered = append(d.Entered, po.Text)
	}
	if !changed {
		return
	}
	if g.Orders == nil {
		g.Orders = map[string][]string{}
	}
	stored := CanonicalLines(mp, cur)
	g.Orders[name] = stored
	KeepWritten(g, name, stored, texts)
}

// holdWord says what a clause met was found to be: "true" for the one
// taken, "false" for one passed; an ELSE taken says so.
func holdWord(b parser.Branch) string {
	switch {
	case !b.Taken:
		return "false"
	case strings.EqualFold(strings.TrimSpace(b.Text), "ELSE"):
		return "taken"
	}
	return "true"
}

// sendFuture mails each power its notice of the orders entered for the
// phase begun, to the seat's address; a seat nobody holds gets none.
func (m *Engine) sendFuture(tx *state.Tx, g *state.Game, notices []FutureData, now time.Time) error {
	for _, d := range notices {
		i := PlayerByPower(g, d.Power)
		if i < 0 || g.Players[i].Addr == "" || g.Players[i].Status == state.Eliminated {
			continue
		}
		d.HeadLines = m.Head(g)
		if err := m.Send(tx, now, "future", d, []string{g.Players[i].Addr}, ""); err != nil {
			return err
		}
	}
	return nil
}
