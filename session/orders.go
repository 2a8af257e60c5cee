package session

import (
	"fmt"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// orderIssue is an error about one line of a mail.
type orderIssue struct {
	line int
	msg  string
}

// cmdOrders handles a block of order lines: each order the parser reads
// and the adjudicator finds legal for the position replaces the power's
// earlier order for the same unit; every other line is reported with its
// line number and why, and changes nothing else.
func (s *session) cmdOrders(c *parser.Command) error {
	g := s.game
	s.paragraph()
	switch {
	case g == nil:
		// Most often a command misspelt: say which words begin one.
		s.fail(c.BodyLine, "Sign on first (SIGNON Pgame password): order lines count only after a sign-on. A command begins with one of %s.", accepted)
		return nil
	case g.Status == state.Forming:
		s.fail(c.BodyLine, "Game '%s' has not started: there is nothing to order yet.", g.Name)
		return nil
	case g.Status == state.Finished:
		s.fail(c.BodyLine, "Game '%s' is over: orders are no longer taken.", g.Name)
		return nil
	case !s.master && s.power == "":
		s.fail(c.BodyLine, "Observers cannot give orders.")
		return nil
	}
	pos, rules, err := s.m.Position(g)
	if err != nil {
		return err
	}
	mp := pos.Map
	mine := judge.NoPower
	switch {
	case s.become != "":
		mine, _ = engine.PowerOf(mp, s.become)
	case !s.master:
		var ok bool
		if mine, ok = engine.PowerOf(mp, s.power); !ok {
			return fmt.Errorf("game %s: seat %q is no power of %s", g.Name, s.power, mp.Name)
		}
	}
	if !s.master {
		// Under fog of war a power's orders are checked, and its
		// conditions read, on the board it sees: "no unit there" is
		// then the same for a unit out of sight and for none.
		pos = withHanded(g, pos, engine.FogFor(g, pos, mp.Powers[mine].Name), mp.Powers[mine].Name)
	}
	body, issues := s.blockLines(c)
	if s.ahead != nil {
		s.ordersAhead(c, mp, mine, body, issues)
		return nil
	}
	parsed, more, met := s.readOrders(c, body, parser.Options{Map: mp, Phase: pos.Phase.Type, Power: mine}, pos)
	issues = append(issues, more...)
	work := map[judge.Power][]judge.Order{}
	var taken []string // units handed away that their power ordered again
	// texts are the accepted orders' texts as written, by power and
	// stored line; a later text for the same line wins, as its order did.
	texts := map[judge.Power]map[string]string{}
	if len(parsed) > maxOrders {
		at := parsed[maxOrders]
		issues = append(issues, orderIssue{c.BodyLine + at.Line - 1,
			fmt.Sprintf("Too many orders: only the first %d were read.", maxOrders)})
		parsed = parsed[:maxOrders]
	}
	for _, po := range parsed {
		o := po.Order
		line := c.BodyLine + po.Line - 1
		bad := func(format string, args ...any) {
			issues = append(issues, orderIssue{line, po.Text + ": " + engine.Capitalize(fmt.Sprintf(format, args...))})
		}
		switch {
		case o.Power == judge.NoPower:
			bad("say which power this order is for (France: A Par - Bur), or BECOME the power first.")
			continue
		case !s.master && o.Power != mine:
			bad("you are %s, not %s.", mp.Powers[mine].Name, mp.PowerName(o.Power))
			continue
		}
		cur, ok := work[o.Power]
		if !ok {
			cur = engine.StoredOrders(pos, o.Power, g.Orders[mp.Powers[o.Power].Name])
		}
		// A unit handed to this power (PROXY) is checked as its
		// owner's order, and stored with this power's orders.
		check, handed := proxyOrder(g, pos, o)
		next, reason := engine.TryOrder(pos, rules, cur, check)
		if reason != "" {
			bad("%s.", reason)
			continue
		}
		if !handed {
			if holder := takeBack(g, mp, o); holder != "" {
				u, _ := pos.UnitAt(o.Unit)
				taken = append(taken, fmt.Sprintf("%s orders its %s again: %s no longer does.", mp.Powers[o.Power].Name, unitIn(mp, u), holder))
			}
		}
		work[o.Power] = next
		if texts[o.Power] == nil {
			texts[o.Power] = map[string]string{}
		}
		// TryOrder puts the accepted order, as the adjudicator read it, last.
		texts[o.Power][next[len(next)-1].Canonical(mp)] = po.Text
	}
	for p, orders := range work {
		if g.Orders == nil {
			g.Orders = map[string][]string{}
		}
		name := mp.Powers[p].Name
		lines := engine.CanonicalLines(mp, orders)
		g.Orders[name] = lines
		engine.KeepWritten(g, name, lines, texts[p])
	}
	if len(work) > 0 {
		s.dirty = true
		s.m.OrdersChanged(g, s.now)
	}
	for _, t := range taken {
		s.printf("%s", t)
	}
	sortIssues(issues)
	for _, is := range issues {
		s.fail(is.line, "%s", is.msg)
	}
	s.printBranches(pos, met)
	return nil
}

// takeOrderLines returns the start of body, a block of order lines, that
// the mail's allowance of maxOrderLines lines still covers (blank lines
// are free), and the line of body where it was cut short, or 0. Lines
// longer than Config.MaxLineLength are blanked out, keeping the line
// numbers, and listed in long.
func (s *session) takeOrderLines(body string) (kept string, cut int, long []longLine) {
	lines := strings.SplitAfter(body, "\n")
	max := s.m.cfg.MaxLineLength
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if s.orderLines == maxOrderLines {
			return strings.Join(lines[:i], ""), i + 1, long
		}
		s.orderLines++
		if n := len(strings.TrimSpace(l)); max > 0 && n > max {
			long = append(long, longLine{i + 1, n})
			lines[i] = "\n"
		}
	}
	if len(long) > 0 {
		body = strings.Join(lines, "")
	}
	return body, 0, long
}

// longLine is an order line over the length limit: its line in the block
// of orders, and its length.
type longLine struct{ line, n int }

// cmdBecome handles the master's BECOME power: the order lines after it in
// the mail are that power's.
func (s *session) cmdBecome(c *parser.Command) error {
	g := s.game
	if g.Status != state.Active && g.Status != state.Paused {
		s.fail(c.Line, "Game '%s' is not being played.", g.Name)
		return nil
	}
	if len(c.Args) == 0 {
		s.fail(c.Line, "Use: BECOME power (a name or letter).")
		return nil
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	p, ok := engine.PowerNamed(mp, c.Args)
	if !ok {
		s.fail(c.Line, "%q is not a power of %s: the powers are %s.", strings.Join(c.Args, " "), mp.Title, powerLetters(mp))
		return nil
	}
	s.become = mp.Powers[p].Name
	s.printf("You are acting for %s: the order lines below are %s's.", s.become, s.become)
	return nil
}
