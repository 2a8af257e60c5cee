package export

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// ResultsFunc writes a phase's results as the judge mails them
// (engine.ResultsText): the importers of other engines' games build
// gmd's own document, whose phases carry that text, and package export
// may not import the engine.
type ResultsFunc func(game string, turn int, pos *judge.Position, res *judge.Resolution) (string, error)

// Limits on a document from another engine, so that a hostile file is
// refused before it costs much: a real game has a few hundred phases of
// a few dozen units.
const (
	maxSourcePhases = 2000
	maxSourceUnits  = 400 // units and dislodged units of one phase (godip: twice as many lines, centres too)
	maxSourceOrders = 400 // orders of one phase
)

// sourcePhase is one phase as another engine recorded it: the board at
// its start and the orders it was played with.
type sourcePhase struct {
	name  string      // as the source names it, for messages
	phase judge.Phase // zero for a board without a phase (MILA's COMPLETED)
	board *judge.Position
	// orders are the orders played, each with its power.
	orders  []judge.Order
	written []string // written[i] is the source's text of orders[i], never ""
	when    time.Time
}

// sourceGame is a whole game recorded by another engine, read into
// gmd's terms.
type sourceGame struct {
	engine  string // "MILA", "godip": who recorded it, for messages
	name    string
	variant string
	m       *judge.Map
	phases  []sourcePhase
	press   []Press
}

// replay plays src's phases again with gmd under rules, from the first
// recorded board: each phase must begin where gmd's adjudication of the
// one before left the board (the same units, dislodged units and centre
// owners; an empty phase the source plays and gmd skips is passed over),
// and is then adjudicated with its recorded orders. The last recorded
// phase is the board the game stopped at: it is compared, not played.
// It returns gmd's own document of the game, or an error naming the
// first phase where the source and gmd disagree, saying what each has.
func replay(src *sourceGame, rules judge.Rules, results ResultsFunc) (*Game, error) {
	if len(src.phases) < 2 {
		return nil, fmt.Errorf("%s game has %d phases: at least one played phase and the board after it are needed", src.engine, len(src.phases))
	}
	doc := &Game{
		Format: Format, Version: Version, Name: src.name, Variant: src.variant, Rules: rules.Name,
		Status: string(state.Finished), Result: "terminated", Seats: []Seat{}, Press: src.press,
	}
	if len(src.press) > 0 {
		doc.Settings.Press = "white" // the broadcasts came with it; else no press, as the record has none
	}
	first := src.phases[0]
	if first.phase == (judge.Phase{}) {
		return nil, fmt.Errorf("phase %s: the first phase must name its season", first.name)
	}
	cur := first.board
	var prev *judge.Resolution
	played := first.name // the phase whose adjudication gave cur
	for i := range src.phases {
		sp := &src.phases[i]
		last := i == len(src.phases)-1
		if sp.phase != (judge.Phase{}) && sp.phase != cur.Phase {
			if phaseLess(sp.phase, cur.Phase) && skipped(src.engine, sp, cur, prev) {
				continue
			}
			return nil, fmt.Errorf("phase %s: after it %s plays %s, gmd %s", played, src.engine, sp.name, cur.Phase)
		}
		if d := boardDiff(src.engine, sp.board, cur); d != "" {
			if i == 0 {
				return nil, fmt.Errorf("phase %s: %s", sp.name, d)
			}
			return nil, fmt.Errorf("phase %s: gmd and %s end it on different boards: %s", played, src.engine, d)
		}
		if last {
			break
		}
		if sp.phase == (judge.Phase{}) {
			return nil, fmt.Errorf("phase %s: a phase without a season is followed by others", sp.name)
		}
		// The orders go into gmd's document as canonical lines, and are
		// adjudicated as Check will read them back: by power, in the
		// source's order.
		lines, written := map[string][]string{}, map[string][]string{}
		for i, o := range sp.orders {
			p := src.m.PowerName(o.Power)
			line := o.Canonical(src.m)
			if err := canonicalReads(cur, o, line); err != nil {
				return nil, fmt.Errorf("phase %s: %s's order %q (%s's %q): gmd cannot take it: %v", sp.name, p, line, src.engine, sp.written[i], err)
			}
			lines[p] = append(lines[p], line)
			written[p] = append(written[p], sp.written[i])
		}
		orders, err := readOrders(cur, lines)
		if err != nil {
			return nil, fmt.Errorf("phase %s: %w", sp.name, err)
		}
		res := judge.Adjudicate(cur, orders, rules)
		if res.Next == nil {
			return nil, fmt.Errorf("phase %s: gmd gave no next position", sp.name)
		}
		turn := len(doc.Phases) + 1
		text, err := results(doc.Name, turn, cur, res)
		if err != nil {
			return nil, fmt.Errorf("phase %s: %w", sp.name, err)
		}
		ph := Phase{Phase: cur.Phase.String(), Turn: turn, Processed: sp.when.UTC(),
			Position: jsonpos.EncodePosition(cur, rules), Orders: lines, Results: text}
		if len(written) > 0 {
			ph.Written = written
		}
		doc.Phases = append(doc.Phases, ph)
		if len(res.Winners) > 0 {
			doc.Result = "victory " + src.m.PowerName(res.Winners[0])
		}
		cur, prev, played = res.Next, res, sp.name
	}
	doc.Final = jsonpos.EncodePosition(cur, rules)
	units, centres := cur.UnitCount(), cur.CenterCount()
	for p, pw := range src.m.Powers {
		st := state.Playing
		if units[p] == 0 && centres[p] == 0 {
			st = state.Eliminated
		}
		doc.Seats = append(doc.Seats, Seat{Power: pw.Name, Status: string(st)})
	}
	return doc, nil
}

// skipped reports whether sp is a phase gmd passes over: a retreat or
// adjustment phase with nothing to do, or a retreat phase whose only
// dislodged units had nowhere to go (gmd removed them at once, as prev
// says; the source has them disband). Disband orders there are for
// units gone already, and change nothing.
func skipped(engine string, sp *sourcePhase, cur *judge.Position, prev *judge.Resolution) bool {
	for _, o := range sp.orders {
		if o.Kind != judge.Disband {
			return false
		}
	}
	for _, d := range sp.board.Dislodged {
		if prev == nil || !slices.Contains(prev.Destroyed, d.Unit) {
			return false
		}
	}
	board := *sp.board
	board.Dislodged = nil
	if sp.phase.Season == judge.Fall {
		// The centres change hands after the Fall's retreats: gmd's
		// board, past them, has the new owners, and the next phase
		// compares them.
		board.Centers = cur.Centers
	}
	return boardDiff(engine, &board, cur) == ""
}

// canonicalReads checks that line, the canonical text of o, reads back
// as o: the orders of gmd's document are read again by Check and by
// every reader of the game, and an order another engine kept that gmd's
// order language cannot say (an army ordered to convoy) is refused here
// rather than there.
func canonicalReads(pos *judge.Position, o judge.Order, line string) error {
	back, err := parser.ParseOrder(line, parser.Options{Map: pos.Map, Phase: pos.Phase.Type, Power: o.Power})
	if err != nil {
		return err
	}
	if back.Canonical(pos.Map) != line {
		return fmt.Errorf("it reads %q", back.Canonical(pos.Map))
	}
	return nil
}

// addDislodged puts u on pos as a dislodged unit of a retreat phase,
// checking that it may stand there and that no other unit was dislodged
// from its province. Where it was attacked from, no record says.
func addDislodged(pos *judge.Position, u judge.Unit) error {
	m := pos.Map
	switch {
	case pos.Phase.Type != judge.Retreat:
		return fmt.Errorf("a dislodged unit outside a retreat phase")
	case !m.CanHold(u.Type, u.Loc):
		return fmt.Errorf("no such unit can stand in %s", m.LocName(u.Loc))
	}
	for _, d := range pos.Dislodged {
		if m.Province(d.Loc) == m.Province(u.Loc) {
			return fmt.Errorf("two units dislodged from %s", m.FullName(m.Province(u.Loc)))
		}
	}
	pos.Dislodged = append(pos.Dislodged, judge.DislodgedUnit{Unit: u, AttackerFrom: judge.NoLoc})
	return nil
}

// phaseLess reports whether phase a comes before phase b in a game.
func phaseLess(a, b judge.Phase) bool {
	return cmp.Or(cmp.Compare(a.Year, b.Year), cmp.Compare(a.Season, b.Season), cmp.Compare(a.Type, b.Type)) < 0
}

// boardDiff compares the board an engine recorded with gmd's: units,
// dislodged units and centre owners. It returns "" when they are the
// same, else the first few differences, each saying what the engine
// and gmd have there.
func boardDiff(engine string, want, got *judge.Position) string {
	m := want.Map
	var diffs []string
	unit := func(u judge.Unit) string {
		if u.Type == judge.NoUnit {
			return "nothing"
		}
		return m.PowerName(u.Power) + " " + u.Type.String() + " " + m.LocName(u.Loc)
	}
	for _, p := range m.Provinces() {
		if w, g := want.Units[p], got.Units[p]; w.Type != g.Type || w.Type != judge.NoUnit && (w.Power != g.Power || w.Loc != g.Loc) {
			diffs = append(diffs, fmt.Sprintf("in %s %s has %s, gmd %s", m.LocName(p), engine, unit(w), unit(g)))
		}
	}
	dislodged := func(pos *judge.Position) map[judge.Loc]judge.Unit {
		out := map[judge.Loc]judge.Unit{}
		for _, d := range pos.Dislodged {
			out[m.Province(d.Loc)] = d.Unit
		}
		return out
	}
	wd, gd := dislodged(want), dislodged(got)
	for _, p := range slices.Sorted(maps.Keys(mergeKeys(wd, gd))) {
		if w, g := wd[p], gd[p]; w != g {
			diffs = append(diffs, fmt.Sprintf("dislodged from %s %s has %s, gmd %s", m.LocName(p), engine, unit(w), unit(g)))
		}
	}
	for _, c := range m.Centers() {
		if w, g := want.Centers[c], got.Centers[c]; w != g {
			owner := func(p judge.Power) string {
				if p == judge.NoPower {
					return "nobody's"
				}
				return m.PowerName(p) + "'s"
			}
			diffs = append(diffs, fmt.Sprintf("the centre %s is %s for %s, %s for gmd", m.LocName(c), owner(w), engine, owner(g)))
		}
	}
	if len(diffs) > 4 {
		diffs = append(diffs[:4], fmt.Sprintf("and %d more", len(diffs)-4))
	}
	return strings.Join(diffs, "; ")
}

// mergeKeys returns a set of the keys of a and b.
func mergeKeys(a, b map[judge.Loc]judge.Unit) map[judge.Loc]bool {
	out := make(map[judge.Loc]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
