package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/templates"
)

// writeAck ends the reply of a mail signed on to a game being played: a
// power (or the master acting for one after BECOME) gets all its current
// orders, in the layout of the results, and what is still missing; the
// master gets whose orders are complete. Nobody is shown another power's
// orders.
func (s *session) writeAck() error {
	g := s.game
	if g == nil || (g.Status != state.Active && g.Status != state.Paused) {
		return nil
	}
	power := s.become
	if power == "" && !s.master {
		power = s.power
	}
	if power == "" && !s.master {
		return nil // an observer
	}
	pos, rules, err := s.m.Position(g)
	if err != nil {
		return err
	}
	s.paragraph()
	if power == "" {
		s.masterStatus(pos)
	} else if err := s.powerAck(s.ackView(pos, power), rules, power); err != nil {
		return err
	}
	s.timeLeft()
	return nil
}

// ackTitle returns "Movement orders for Spring of 1901. (dt.001)".
func ackTitle(g *state.Game, ph judge.Phase) string {
	return fmt.Sprintf("%s orders for %s. (%s.%03d)", ph.Type, report.Season(ph), g.Name, g.Turn+1)
}

// powerAck writes one power's orders and what it still owes.
func (s *session) powerAck(pos *judge.Position, rules judge.Rules, power string) error {
	g, mp := s.game, pos.Map
	p, ok := engine.PowerOf(mp, power)
	if !ok {
		return nil
	}
	orders := engine.StoredOrders(pos, p, g.Orders[mp.Powers[p].Name])
	switch pos.Phase.Type {
	case judge.Adjustment:
		s.adjustmentAck(pos, p, orders)
	default:
		if err := s.unitAck(pos, rules, p, orders); err != nil {
			return err
		}
	}
	s.proxyAck(pos, p)
	s.futureAck(mp.Powers[p].Name)
	if i := engine.PlayerByPower(g, power); i >= 0 {
		if g.Players[i].Wait {
			s.printf("WAIT is set for %s.", power)
		}
		if p := &g.Players[i]; p.Draw && len(p.DrawWith) > 0 {
			s.printf("%s votes for a draw among %s.", power, engine.ListNames(p.DrawWith))
		} else if p.Draw {
			s.printf("%s votes for a draw.", power)
		}
		if to := g.Players[i].Concede; to != "" {
			s.printf("%s concedes the game to %s.", power, to)
		}
	}
	return nil
}

// unitAck writes the orders of a movement or retreat phase with
// report.WriteResults, every order ruled a success and every unit without
// an order a default, so that the ack reads exactly like the results will.
func (s *session) unitAck(pos *judge.Position, rules judge.Rules, p judge.Power, orders []judge.Order) error {
	mp := pos.Map
	// A unit handed to another power (PROXY) is its to order.
	missing, _ := engine.HandedAway(s.game, mp, engine.Unordered(pos, p, orders))
	if len(orders) == 0 && len(missing) == 0 {
		if pos.Phase.Type == judge.Retreat {
			s.printf("%s has no retreats to make in %s.", mp.Powers[p].Name, report.Season(pos.Phase))
		} else {
			s.printf("%s has no units to order in %s.", mp.Powers[p].Name, report.Season(pos.Phase))
		}
		return nil
	}
	res := &judge.Resolution{Phase: pos.Phase}
	routes := convoyRoutes(pos, rules, orders)
	// An order for a unit handed to p (PROXY) reads as its owner's, as
	// the results will print it.
	for _, o := range engine.Proxied(s.game, pos, slices.Clone(orders)) {
		r := judge.OrderResult{Order: o, Outcome: judge.Succeeds}
		if int(o.Unit) < len(mp.Locs) {
			r.Route = routes[mp.Province(o.Unit)]
		}
		if o.Kind == judge.Disband {
			r.Outcome = judge.Disbanded
		}
		res.Results = append(res.Results, r)
	}
	for _, u := range missing {
		r := judge.OrderResult{Order: judge.Order{Kind: judge.Hold, Power: p, Type: u.Type, Unit: u.Loc,
			Target: judge.NoLoc, Dest: judge.NoLoc}, Outcome: judge.Succeeds, Default: true}
		if pos.Phase.Type == judge.Retreat {
			r.Order.Kind, r.Outcome = judge.Disband, judge.Disbanded
		}
		res.Results = append(res.Results, r)
	}
	var b strings.Builder
	if err := report.WriteResults(&b, pos, res); err != nil {
		return err
	}
	text := b.String()
	// Only the title differs from the results: "orders", and the turn.
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = ackTitle(s.game, pos.Phase) + text[i:]
	}
	s.reply.WriteString(text)
	s.reply.WriteByte('\n')
	if len(missing) == 0 {
		s.printf("%s's orders are complete.", mp.Powers[p].Name)
		return nil
	}
	names := make([]string, len(missing))
	for i, u := range missing {
		names[i] = u.Type.Word() + " " + mp.FullName(u.Loc)
	}
	s.printf("Orders not received for %s.", strings.Join(names, ", "))
	return nil
}

// convoyRoutes returns, by the province of the army, the route of each
// army that the power's own fleets convoy without the army's order naming
// the route, as the judge finds it: the acknowledgement prints it as the
// results will ("Army London -> North Sea -> Norway."). Other powers'
// fleets are not known until the phase is processed.
func convoyRoutes(pos *judge.Position, rules judge.Rules, orders []judge.Order) map[judge.Loc][]judge.Loc {
	if pos.Phase.Type != judge.Movement || !slices.ContainsFunc(orders, func(o judge.Order) bool { return o.Kind == judge.Convoy }) {
		return nil
	}
	routes := map[judge.Loc][]judge.Loc{}
	for _, r := range judge.Adjudicate(pos, orders, rules).Results {
		if len(r.Route) > 0 && int(r.Order.Unit) < len(pos.Map.Locs) {
			routes[pos.Map.Province(r.Order.Unit)] = r.Route
		}
	}
	return routes
}

// adjustmentAck writes the builds, removals and waives of an adjustment
// phase as the adjustment results do, then what is still due.
func (s *session) adjustmentAck(pos *judge.Position, p judge.Power, orders []judge.Order) {
	mp := pos.Map
	name := mp.Powers[p].Name
	due := engine.AdjustmentsDue(pos, p)
	s.printf("%s\n\n", ackTitle(s.game, pos.Phase))
	prefix := name + ":" + strings.Repeat(" ", max(1, report.PowerColumn(mp)-len(name)-1))
	for _, o := range orders {
		switch o.Kind {
		case judge.Build:
			s.printf("%sBuilds %s%s%s.", prefix, report.Article(o.Type), report.In(mp, o.Unit), mp.FullName(o.Unit))
		case judge.Remove:
			s.printf("%sRemoves the %s%s%s.", prefix, strings.ToLower(o.Type.Word()), report.In(mp, o.Unit), mp.FullName(o.Unit))
		case judge.Waive:
			s.printf("%sBuild waived.", prefix)
		case judge.Construct:
			s.printf("%sStarts building a supply centre%s%s.", prefix, report.In(mp, o.Unit), mp.FullName(o.Unit))
		}
	}
	builds, removals := engine.AdjustmentsLeft(pos, p, orders, engine.BuildsIn(s.game, mp))
	if due > 0 {
		made := engine.Count(orders, func(o judge.Order) bool {
			return o.Kind == judge.Build || o.Kind == judge.Waive || o.Kind == judge.Construct
		})
		if unusable := due - made - builds; unusable > 0 {
			// No free home centre is left for these: they are waived.
			s.printf("%s%d unusable %s pending.", prefix, unusable, report.Plural(unusable, "build", "builds"))
		}
	}
	switch {
	case builds > 0:
		s.printf("%s%d %s pending.", prefix, builds, report.Plural(builds, "build", "builds"))
		s.constructionHint(pos, p, orders)
	case removals > 0:
		s.printf("%s%d %s pending.", prefix, removals, report.Plural(removals, "removal", "removals"))
	case due == 0:
		s.paragraph()
		s.printf("%s has no adjustments to make in %s.", name, report.Season(pos.Phase))
		return
	}
	s.reply.WriteByte('\n')
	if builds == 0 && removals == 0 {
		s.printf("%s's orders are complete.", name)
	}
}

// constructionHint tells a power with builds to make that it may use one
// to start a supply centre, where the variant allows it and the power has
// not ordered one yet, and how to write the order.
func (s *session) constructionHint(pos *judge.Position, p judge.Power, orders []judge.Order) {
	mp := pos.Map
	sites := pos.ConstructionSites(p)
	if len(sites) == 0 || slices.ContainsFunc(orders, func(o judge.Order) bool { return o.Kind == judge.Construct }) {
		return
	}
	names := make([]string, len(sites))
	for i, l := range sites {
		names[i] = mp.FullName(l)
	}
	where := names[0]
	if n := len(names); n > 1 {
		where = strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
	s.reply.WriteByte('\n')
	s.reply.WriteString(templates.Wrap(fmt.Sprintf("%s may give up one build to start a supply centre in %s instead, "+
		"as in \"s.c. %s\". It is built when the Fall of %d ends, unless a unit of another power is ordered there first.",
		mp.Powers[p].Name, where, names[0], pos.Phase.Year+1)) + "\n")
}

// masterStatus writes, for the master, which powers have complete orders.
// It shows no order.
func (s *session) masterStatus(pos *judge.Position) {
	g, mp := s.game, pos.Map
	s.printf("Orders status for %s. (%s.%03d)\n\n", report.Season(pos.Phase), g.Name, g.Turn+1)
	all := true
	for _, pl := range g.Players {
		if pl.Power == "" {
			continue
		}
		status := "complete"
		if !s.m.Complete(g, pos, pl.Power) {
			status, all = "incomplete", false
		}
		if p, ok := engine.PowerOf(mp, pl.Power); ok && nothingToDo(pos, p) {
			status = "nothing to do"
		}
		if pl.Status != state.Playing {
			status += " (" + string(pl.Status) + ")"
		}
		s.printf("%s:%s%s.", pl.Power, strings.Repeat(" ", max(1, report.PowerColumn(mp)-len(pl.Power)-1)), status)
	}
	if !all {
		s.printf("\nOrders not received from all players.")
	}
}

// nothingToDo reports whether p has no order to give in the phase of pos.
func nothingToDo(pos *judge.Position, p judge.Power) bool {
	switch pos.Phase.Type {
	case judge.Movement:
		return pos.UnitCount()[p] == 0
	case judge.Retreat:
		for _, d := range pos.Dislodged {
			if d.Power == p {
				return false
			}
		}
		return true
	}
	return engine.AdjustmentsDue(pos, p) == 0
}

// timeLeft writes how long until the deadline, as njudge ends its acks.
func (s *session) timeLeft() {
	g := s.game
	if g.Deadline.IsZero() {
		return
	}
	if g.Status == state.Paused {
		s.printf("The game is paused.")
		return
	}
	left := g.Deadline.Sub(s.now)
	if left <= 0 {
		s.printf("The deadline, %s, has passed.", engine.FormatDate(g, g.Deadline))
		return
	}
	s.printf("Time to deadline: %s.", engine.SpellLeft(left))
}
