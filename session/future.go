package session

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// The bounds of orders written ahead (PHASE). A game is stored whole in
// one record that every mail and tick of the game reads: what a power may
// keep there is bounded in bytes, and the phases in years.
const (
	maxAheadYears = 5    // njudge's bound: a phase at most 5 years after the current one
	maxAheadBytes = 8192 // the orders one power may keep written ahead, all phases together
)

// cmdPhase handles PHASE season year phase (or PHASE F1902M): the order
// lines after it in the mail are for that later phase, kept and entered
// when it begins. PHASE naming the current phase turns back to it.
func (s *session) cmdPhase(c *parser.Command) error {
	g := s.game
	if !s.playable(c) || !s.canOrder(c) {
		s.ahead = &judge.Phase{} // the lines after it are not read
		return nil
	}
	pos, _, err := s.m.Position(g)
	if err != nil {
		return err
	}
	ph, msg := aheadPhase(c.Args, pos.Phase)
	if msg != "" {
		s.fail(c.Line, "%s The order lines after it, up to the next command, were not read.", msg)
		s.ahead = &judge.Phase{}
		return nil
	}
	if ph == pos.Phase {
		s.ahead = nil
		s.printf("The order lines below are for the current phase, %s.", report.Season(ph))
		return nil
	}
	s.ahead = &ph
	s.printf("The order lines below are for %s (%s): they are kept, and entered when that phase begins.", report.Season(ph), ph)
	return nil
}

// aheadPhase reads the phase of a PHASE command, and says why it cannot
// be written ahead for, if it cannot: one before
// cur, or more than maxAheadYears after it.
func aheadPhase(args []string, cur judge.Phase) (judge.Phase, string) {
	if len(args) == 0 {
		return judge.Phase{}, "Use: PHASE season year phase (PHASE Fall 1902 Movement), or PHASE F1902M."
	}
	ph, err := parsePhaseArgs(args)
	if err != nil {
		return judge.Phase{}, engine.Capitalize(err.Error()) + "."
	}
	switch {
	case engine.ComparePhases(ph, cur) < 0:
		return judge.Phase{}, fmt.Sprintf("%s is past: the game is in %s.", ph, cur)
	case ph.Year > cur.Year+maxAheadYears:
		return judge.Phase{}, fmt.Sprintf("%s is too far ahead: orders may be written at most %d years ahead, up to %d.", ph, maxAheadYears, cur.Year+maxAheadYears)
	}
	return ph, ""
}

// canOrder reports whether the sender may give orders in the game signed
// on to, saying why not: observers may not.
func (s *session) canOrder(c *parser.Command) bool {
	if !s.master && s.power == "" {
		s.fail(c.Line, "Observers cannot give orders.")
		return false
	}
	return true
}

// cmdClear handles CLEAR: the power drops its orders written ahead; after
// PHASE, only those for that phase. The orders of the current phase stay,
// as on njudge: new orders replace them.
func (s *session) cmdClear(c *parser.Command) error {
	g := s.game
	if !s.playable(c) || !s.canOrder(c) {
		return nil
	}
	power := s.actingPower()
	if power == "" {
		s.fail(c.Line, "CLEAR drops a power's orders written ahead: BECOME the power first.")
		return nil
	}
	kept := g.Future[power]
	var left []state.FutureOrders
	dropped := 0
	for _, b := range kept {
		if s.ahead != nil && b.Phase != s.ahead.String() {
			left = append(left, b)
			continue
		}
		dropped++
	}
	switch {
	case s.ahead != nil && *s.ahead == (judge.Phase{}):
		s.fail(c.Line, "CLEAR after a PHASE that was refused: nothing was dropped.")
		return nil
	case dropped == 0 && s.ahead != nil:
		s.printf("%s had no orders written ahead for %s.", power, s.ahead)
		return nil
	case dropped == 0:
		s.printf("%s had no orders written ahead.", power)
		return nil
	}
	if len(left) == 0 {
		delete(g.Future, power)
	} else {
		g.Future[power] = left
	}
	if len(g.Future) == 0 {
		g.Future = nil
	}
	s.dirty = true
	if s.ahead != nil {
		s.printf("The orders %s wrote ahead for %s were dropped.", power, s.ahead)
	} else {
		s.printf("The orders %s wrote ahead were dropped.", power)
	}
	return nil
}

// actingPower returns the power the sender gives orders for: the seat
// signed on to, or the power a master acts for after BECOME; "" for a
// master acting for none.
func (s *session) actingPower() string {
	if s.become != "" {
		return s.become
	}
	if s.master {
		return ""
	}
	return s.power
}

// readConditional reads the order lines body of a block, conditionals
// included, for the phase of pos: it returns the text of the orders to
// read (the branches that hold on pos, the other lines blanked; with no
// pos, the orders of every branch) and the errors of every line, the orders of branches not taken included, so
// that a mistake is found now rather than when the branch is needed.
// Each clause met is printed after the block's errors, with what it was
// found to be.
func (s *session) readConditional(c *parser.Command, body string, opt parser.Options, pos *judge.Position) (string, []orderIssue, []parser.Branch) {
	script, errs := parser.ParseScript(body, opt)
	var issues []orderIssue
	text := strings.Split(body, "\n")
	for _, e := range errs {
		issues = append(issues, orderIssue{c.BodyLine + e.Line - 1, fmt.Sprintf("%s: %s.", lineAt(text, e.Line), engine.Capitalize(e.Msg))})
	}
	s.conds += script.Conds
	if s.conds > parser.MaxConds {
		issues = append(issues, orderIssue{c.BodyLine, fmt.Sprintf(
			"Too many conditions in one mail (at most %d): no order of this block was read.", parser.MaxConds)})
		return "", issues, nil
	}
	every := parser.Only(body, script.OrderLines())
	_, all := parser.ParseOrders(every, opt)
	for _, e := range all {
		issues = append(issues, orderIssue{c.BodyLine + e.Line - 1, fmt.Sprintf("%s: %s.", lineAt(text, e.Line), engine.Capitalize(e.Msg))})
	}
	if pos == nil {
		return every, issues, nil
	}
	keep, met := script.Select(pos)
	return parser.Only(body, keep), issues, met
}

// sortIssues puts a block's issues in the order of their lines.
func sortIssues(issues []orderIssue) {
	slices.SortStableFunc(issues, func(a, b orderIssue) int { return cmp.Compare(a.line, b.line) })
}

// blockLines returns the lines of c's block of orders that the mail's
// allowance still covers (takeOrderLines), and an issue for each line
// not read.
func (s *session) blockLines(c *parser.Command) (string, []orderIssue) {
	body, cut, long := s.takeOrderLines(c.Body)
	var issues []orderIssue
	for _, l := range long {
		issues = append(issues, orderIssue{c.BodyLine + l.line - 1, tooLong(l.n, s.m.cfg.MaxLineLength)})
	}
	if cut > 0 {
		issues = append(issues, orderIssue{c.BodyLine + cut - 1,
			fmt.Sprintf("Too many lines of orders in one mail: only the first %d were read.", maxOrderLines)})
	}
	return body, issues
}

// readOrders reads the orders of body, a block of c's order lines, for
// the phase of pos: with conditionals, those of the branches that hold
// (readConditional), the errors of every line reported all the same.
func (s *session) readOrders(c *parser.Command, body string, opt parser.Options, pos *judge.Position) ([]parser.ParsedOrder, []orderIssue, []parser.Branch) {
	if hasControl(body) {
		read, issues, met := s.readConditional(c, body, opt, pos)
		// Every line's errors are the conditional reader's; the orders
		// read are those of the branches that hold.
		parsed, _ := parser.ParseOrders(read, opt)
		return parsed, issues, met
	}
	parsed, errs := parser.ParseOrders(body, opt)
	text := strings.Split(body, "\n")
	var issues []orderIssue
	for _, e := range errs {
		issues = append(issues, orderIssue{c.BodyLine + e.Line - 1, fmt.Sprintf("%s: %s.", lineAt(text, e.Line), engine.Capitalize(e.Msg))})
	}
	return parsed, issues, nil
}

// hasControl reports whether a block of order lines has an IF, ELSE or
// ENDIF line.
func hasControl(body string) bool {
	for _, l := range strings.Split(body, "\n") {
		if parser.IsControl(l) {
			return true
		}
	}
	return false
}

// lineAt returns line n (from 1) of lines, trimmed, or "".
func lineAt(lines []string, n int) string {
	if n >= 1 && n <= len(lines) {
		return strings.TrimSpace(lines[n-1])
	}
	return ""
}

// printBranches writes the clauses of a block's conditionals that were
// met, with what each was found to be on the position at the start of
// the phase of pos.
func (s *session) printBranches(pos *judge.Position, met []parser.Branch) {
	if len(met) == 0 {
		return
	}
	s.paragraph()
	s.printf("The conditions, on the position at the start of %s (the orders of the branches taken were read):", report.Season(pos.Phase))
	for _, b := range met {
		word := "false"
		switch {
		case b.Taken && strings.EqualFold(b.Text, "ELSE"):
			word = "taken"
		case b.Taken:
			word = "true"
		}
		s.reply.WriteString("  " + strings.Repeat("  ", b.Depth) + b.Text + ": " + word + "\n")
	}
}

// ordersAhead handles a block of order lines after PHASE: every line is
// read now (the orders of every branch, for the type of that phase), and
// the block is kept whole, as written, if all of it reads; with any
// error, none of it is kept, so that no part of a plan is entered without
// the rest. Whether each order fits is known only when its phase begins.
func (s *session) ordersAhead(c *parser.Command, mp *judge.Map, mine judge.Power, body string, issues []orderIssue) {
	g, ph := s.game, *s.ahead
	switch {
	case ph == (judge.Phase{}):
		s.fail(c.BodyLine, "Not read: the PHASE before these lines was refused.")
		return
	case mine == judge.NoPower && s.master:
		s.fail(c.BodyLine, "Orders written ahead are a power's: BECOME the power first.")
		return
	}
	opt := parser.Options{Map: mp, Phase: ph.Type, Power: mine}
	parsed, more, _ := s.readOrders(c, body, opt, nil)
	issues = append(issues, more...)
	for _, po := range parsed {
		if po.Order.Power != mine {
			issues = append(issues, orderIssue{c.BodyLine + po.Line - 1,
				fmt.Sprintf("%s: You are %s, not %s.", po.Text, mp.Powers[mine].Name, mp.PowerName(po.Order.Power))})
		}
	}
	name := mp.Powers[mine].Name
	size := len(body)
	for _, b := range g.Future[name] {
		size += len(b.Text)
	}
	if size > maxAheadBytes && len(issues) == 0 {
		issues = append(issues, orderIssue{c.BodyLine, fmt.Sprintf(
			"%s may keep at most %d bytes of orders written ahead, and these would make %d: CLEAR some first.", name, maxAheadBytes, size)})
	}
	if len(issues) > 0 {
		sortIssues(issues)
		for _, is := range issues {
			s.fail(is.line, "%s", is.msg)
		}
		s.fail(c.BodyLine, "None of the orders of this block was kept for %s: send them again, corrected.", ph)
		return
	}
	if len(parsed) == 0 {
		return
	}
	if g.Future == nil {
		g.Future = map[string][]state.FutureOrders{}
	}
	g.Future[name] = append(g.Future[name], state.FutureOrders{Phase: ph.String(), Text: strings.TrimRight(body, "\n")})
	s.dirty = true
	s.printf("%d %s kept for %s.", len(parsed), report.Plural(len(parsed), "order", "orders"), ph)
}

// futureAck lists, in the acknowledgement, the orders power wrote ahead,
// by phase, as written: njudge's "Pending orders".
func (s *session) futureAck(power string) {
	blocks := s.game.Future[power]
	if len(blocks) == 0 {
		return
	}
	s.paragraph()
	s.printf("----- Pending orders (written ahead, entered when their phase begins):")
	for _, b := range blocks {
		s.reply.WriteString("\n" + b.Phase + ":\n")
		for _, l := range strings.Split(b.Text, "\n") {
			if l = strings.TrimRight(l, " \t\r"); strings.TrimSpace(l) != "" {
				s.reply.WriteString("  " + l + "\n")
			}
		}
	}
	s.reply.WriteByte('\n')
}
