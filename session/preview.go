package session

import (
	"fmt"
	"slices"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// cmdPreview handles PREVIEW: the current phase adjudicated as if it
// were processed now, with the sender's own stored orders and, in the
// sandbox of the order lines written below it (c.Body), any power's
// orders, every other unit holding. The results come in the reply,
// exactly as the results mail would write them, with the map. Nothing is
// stored, and no other power's real orders are read: the sandbox starts
// from the sender's own orders alone. One PREVIEW a mail: each costs an
// adjudication and a picture.
func (s *session) cmdPreview(c *parser.Command) error {
	g := s.game
	if !s.playable(c) || !s.canOrder(c) {
		return nil
	}
	power := s.actingPower()
	if power == "" {
		s.fail(c.Line, "PREVIEW shows a power's orders: BECOME the power first (PREDICT shows every power's).")
		return nil
	}
	if s.previewed {
		s.fail(c.Line, "One PREVIEW a mail: this one was not run.")
		return nil
	}
	s.previewed = true
	pos, rules, err := s.m.Position(g)
	if err != nil {
		return err
	}
	mp := pos.Map
	mine, ok := engine.PowerOf(mp, power)
	if !ok {
		return fmt.Errorf("game %s: seat %q is no power of %s", g.Name, power, mp.Name)
	}
	viewer := s.fogViewer(g)
	if viewer != "" {
		// Under fog a power previews on the board it sees.
		pos = withHanded(g, pos, engine.FogFor(g, pos, viewer), viewer)
	}
	// The sandbox: the sender's stored orders (those for units handed
	// to it, PROXY, as their owners'), then the lines below.
	work := map[judge.Power][]judge.Order{}
	for _, o := range engine.Proxied(g, pos, engine.StoredOrders(pos, mine, g.Orders[power])) {
		work[o.Power] = append(work[o.Power], o)
	}
	if c.Body != "" {
		s.sandbox(c, pos, rules, mine, work)
	}
	sandbox := map[string][]string{}
	var orders []judge.Order
	for k := range mp.Powers {
		if o := work[judge.Power(k)]; len(o) > 0 {
			sandbox[mp.Powers[k].Name] = engine.CanonicalLines(mp, o)
			orders = append(orders, o...)
		}
	}
	res := judge.Adjudicate(pos, orders, rules)
	text, err := engine.ResultsText(g.Name, g.Turn+1, pos, res)
	if viewer != "" {
		text, err = engine.FogResultsText(g.Name, g.Turn+1, pos, res, mine)
	}
	if err != nil {
		return err
	}
	s.paragraph()
	s.printf("PREVIEW ONLY: %s as if processed now, with %s, every other unit holding. Nothing was stored, and no other power's stored orders were used.",
		report.Season(pos.Phase), previewWhose(mp, power, work))
	s.reply.WriteString("\n" + text)
	s.attachPreview(g, pos.Phase.String(), sandbox)
	return nil
}

// previewWhose says whose orders a preview used: "France's orders", or
// "France's orders and those written for Germany".
func previewWhose(mp *judge.Map, power string, work map[judge.Power][]judge.Order) string {
	var others []string
	for k := range mp.Powers {
		if name := mp.Powers[k].Name; name != power && len(work[judge.Power(k)]) > 0 {
			others = append(others, name)
		}
	}
	if len(others) == 0 {
		return power + "'s orders"
	}
	return power + "'s orders and those written for " + engine.ListNames(others)
}

// sandbox reads the order lines of a PREVIEW into work, by power: each
// is checked as an order of the mail would be (conditionals included),
// for any power, and replaces that power's earlier order for the unit;
// a line that does not read, or an order the adjudicator finds void, is
// reported and left out.
func (s *session) sandbox(c *parser.Command, pos *judge.Position, rules judge.Rules, mine judge.Power, work map[judge.Power][]judge.Order) {
	mp := pos.Map
	body, issues := s.blockLines(c)
	parsed, more, met := s.readOrders(c, body, parser.Options{Map: mp, Phase: pos.Phase.Type, Power: mine}, pos)
	issues = append(issues, more...)
	if len(parsed) > maxOrders {
		parsed = parsed[:maxOrders]
	}
	for _, po := range parsed {
		o := po.Order
		if o.Power == judge.NoPower {
			o.Power = mine
		}
		o, _ = proxyOrder(s.game, pos, o) // a unit handed to it, as its owner's
		next, reason := engine.TryOrder(pos, rules, work[o.Power], o)
		if reason != "" {
			issues = append(issues, orderIssue{c.BodyLine + po.Line - 1, po.Text + ": " + engine.Capitalize(reason) + "."})
			continue
		}
		work[o.Power] = next
	}
	sortIssues(issues)
	for _, is := range issues {
		s.fail(is.line, "%s", is.msg)
	}
	s.printBranches(pos, met)
}

// attachPreview has the reply carry the picture of the preview, on the
// terms of attachMap: to an address the game mails, unless maps are
// turned off, within maxReplyMaps.
func (s *session) attachPreview(g *state.Game, phase string, orders map[string][]string) {
	ref := engine.PreviewRef(g, phase, orders)
	ref.Viewer = s.fogViewer(g)
	switch {
	case !engine.WantsMap(g, s.in.From):
		return
	case !slices.ContainsFunc(s.m.Recipients(g), func(a string) bool { return engine.SameAddr(a, s.in.From) }):
		s.printf("\nNo map of the preview: maps go only to the addresses that get the game's mail (its players, observers and master).")
		return
	case len(s.maps) >= maxReplyMaps:
		s.printf("\nNo map of the preview: a reply carries at most %d.", maxReplyMaps)
		return
	}
	s.maps = append(s.maps, ref)
	s.printf("\nThe map of the preview is attached: %s.", ref.Name())
}
