package export

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// Check re-adjudicates every phase of doc from its first position with
// its canonical orders, and returns an error naming the first phase
// whose recorded orders do not read back as written, whose results text
// is not the judge's, or whose next position (the next phase's, or Final
// after the last) is not the one the judge gives.
func Check(doc *Game) error {
	if len(doc.Phases) == 0 {
		return fmt.Errorf("game %s has no phases", doc.Name)
	}
	for i := range doc.Phases {
		ph := &doc.Phases[i]
		pos, rules, err := jsonpos.DecodePosition(ph.Position)
		if err != nil {
			return fmt.Errorf("phase %s: position: %w", ph.Phase, err)
		}
		if pos.Phase.String() != ph.Phase {
			return fmt.Errorf("phase %s: its position is of %s", ph.Phase, pos.Phase)
		}
		if i == 0 && !strings.EqualFold(pos.Map.Name, doc.Variant) {
			return fmt.Errorf("phase %s: the position is on %s, the game on %s", ph.Phase, pos.Map.Name, doc.Variant)
		}
		orders, err := readOrders(pos, ph.Orders)
		if err != nil {
			return fmt.Errorf("phase %s: %w", ph.Phase, err)
		}
		res := judge.Adjudicate(pos, orders, rules)
		if res.Next == nil {
			return fmt.Errorf("phase %s: the judge gave no next position", ph.Phase)
		}
		if err := sameResults(ph.Results, ph.Turn, pos, res); err != nil {
			return fmt.Errorf("phase %s: %w", ph.Phase, err)
		}
		next, what := doc.Final, "the final position"
		if i+1 < len(doc.Phases) {
			next, what = doc.Phases[i+1].Position, "the position of "+doc.Phases[i+1].Phase
		}
		if got := jsonpos.EncodePosition(res.Next, rules); !bytes.Equal(got, next) {
			return fmt.Errorf("phase %s: adjudicating its orders does not give %s recorded after it", ph.Phase, what)
		}
	}
	return nil
}

// sameResults checks the recorded results text of the phase played at
// turn against the judge's results: the same text but for the game's
// name and turn, which the judge puts in the title line ("... of 1901.
// (vienna.001)") and the last line (engine.ResultsText). The name is
// read from the title, so a game imported under a new name and exported
// again still reads back.
func sameResults(recorded string, turn int, pos *judge.Position, res *judge.Resolution) error {
	var b strings.Builder
	if err := report.WriteResults(&b, pos, res); err != nil {
		return err
	}
	title, want, _ := strings.Cut(b.String(), "\n")
	gotTitle, got, _ := strings.Cut(recorded, "\n")
	tag, ok := strings.CutPrefix(gotTitle, title+" (")
	game, ok2 := strings.CutSuffix(tag, fmt.Sprintf(".%03d)", turn))
	got = strings.Replace(got, "\nThe next phase of '"+game+"' will be ", "\nThe next phase will be ", 1)
	if !ok || !ok2 || got != want {
		return fmt.Errorf("its orders do not give the results recorded")
	}
	return nil
}

// readOrders parses each power's canonical lines, which must be canonical
// still: a line that reads as another order is an edited one.
func readOrders(pos *judge.Position, byPower map[string][]string) ([]judge.Order, error) {
	m := pos.Map
	var out []judge.Order
	powers := make([]string, 0, len(byPower))
	for p := range byPower {
		powers = append(powers, p)
	}
	slices.Sort(powers)
	for _, name := range powers {
		p, ok := m.PowerByName(name)
		if !ok {
			return nil, fmt.Errorf("orders of %q: no such power on %s", name, m.Name)
		}
		for _, line := range byPower[name] {
			o, err := parser.ParseOrder(line, parser.Options{Map: m, Phase: pos.Phase.Type, Power: p})
			if err != nil {
				return nil, fmt.Errorf("%s's order %q: %v", name, line, err)
			}
			if c := o.Canonical(m); c != line {
				return nil, fmt.Errorf("%s's order %q is not canonical (it reads %q)", name, line, c)
			}
			out = append(out, o)
		}
	}
	return out, nil
}

// Records turns a checked document into a new finished game named name,
// its phase records and its press, for the caller to store. The seats
// have no address and no password: nobody can sign on to them. turns[i]
// is the turn press[i] is stored under: the processed phases before the
// phase it was sent in, as the judge stores press.
func Records(doc *Game, name string) (g *state.Game, recs []*state.PhaseRecord, press []*state.Press, turns []int) {
	g = &state.Game{
		Name: strings.ToLower(name), Variant: doc.Variant, Rules: doc.Rules,
		Status: state.Finished, Result: doc.Result, Settings: doc.Settings,
		Position: slices.Clone(doc.Final), Turn: len(doc.Phases),
	}
	if len(doc.Phases) > 0 {
		g.Created = doc.Phases[0].Processed
	}
	for _, s := range doc.Seats {
		g.Players = append(g.Players, state.Player{Power: s.Power, Status: state.PlayerStatus(s.Status)})
	}
	recs = make([]*state.PhaseRecord, len(doc.Phases))
	for i, ph := range doc.Phases {
		recs[i] = &state.PhaseRecord{
			Phase: ph.Phase, Turn: ph.Turn, Processed: ph.Processed,
			Position: slices.Clone(ph.Position), Orders: ph.Orders, Written: ph.Written, Results: ph.Results,
		}
	}
	press = make([]*state.Press, len(doc.Press))
	turns = make([]int, len(doc.Press))
	for i, p := range doc.Press {
		press[i] = &state.Press{Phase: p.Phase, From: p.From, Grey: p.Grey, Text: p.Text, Sent: p.Sent}
		turns[i] = len(doc.Phases)
		for j, ph := range doc.Phases {
			if ph.Phase == p.Phase {
				turns[i] = j
				break
			}
		}
	}
	return g, recs, press, turns
}
