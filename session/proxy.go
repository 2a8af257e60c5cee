package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// Proxy orders, as on njudge and DPjudge, where the master allows them
// (SET PROXY, before the start): a power hands one unit's order for the
// current movement phase to another power (PROXY unit TO power), which
// then orders the unit like its own; the handing power takes it back by
// ordering the unit, or by PROXY unit TO itself. What is handed is for
// one phase only: the engine forgets it when the phase is processed.
// Both sides sign on with their seat's password, as for any order: a
// forged From hands nothing and orders nothing.

func init() {
	setHandlers["PROXY"] = beforeStart("PROXY", func(s *session, c *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Proxy = true
		return "Proxy orders are allowed: a power may hand a unit's order for one movement phase to another power (PROXY A Mun TO France).", true
	})
	setHandlers["NOPROXY"] = beforeStart("NOPROXY", func(s *session, c *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Proxy = false
		return "No proxy orders: each power orders its own units.", true
	})
}

// proxyUsage is PROXY's form, for its refusals.
const proxyUsage = "Use: PROXY unit TO power (PROXY A Mun TO France)."

// cmdProxy handles PROXY unit TO power.
func (s *session) cmdProxy(c *parser.Command) error {
	g := s.game
	if !s.playable(c) || !s.canOrder(c) {
		return nil
	}
	power := s.actingPower()
	switch {
	case power == "":
		s.fail(c.Line, "PROXY hands a power's unit: BECOME the power first.")
		return nil
	case !g.Settings.Proxy:
		s.fail(c.Line, "Game '%s' has no proxy orders (its master may allow them with SET PROXY, before the start).", g.Name)
		return nil
	}
	pos, _, err := s.m.Position(g)
	if err != nil {
		return err
	}
	mp := pos.Map
	if pos.Phase.Type != judge.Movement {
		s.fail(c.Line, "Units are handed for a movement phase, and this is %s.", strings.ToLower(pos.Phase.Type.String()))
		return nil
	}
	to := slices.IndexFunc(c.Args, func(w string) bool { return strings.EqualFold(w, "TO") })
	if to < 1 || to == len(c.Args)-1 {
		s.fail(c.Line, "%s", proxyUsage)
		return nil
	}
	mine, _ := engine.PowerOf(mp, power)
	o, err := parser.ParseOrder(strings.Join(c.Args[:to], " ")+" H", parser.Options{Map: mp, Phase: judge.Movement, Power: mine})
	if err != nil {
		msg := err.Error()
		var pe *parser.Error
		if errors.As(err, &pe) {
			msg = pe.Msg
		}
		s.fail(c.Line, "%s: %s. %s", strings.Join(c.Args[:to], " "), engine.Capitalize(msg), proxyUsage)
		return nil
	}
	u, ok := pos.UnitAt(o.Unit)
	if !ok || u.Power != mine || o.Type != judge.NoUnit && o.Type != u.Type {
		s.fail(c.Line, "%s has no %s in %s.", power, unitWord(o.Type), mp.FullName(mp.Province(o.Unit)))
		return nil
	}
	target, ok := engine.PowerNamed(mp, c.Args[to+1:])
	if !ok {
		s.fail(c.Line, "%q is not a power of %s: the powers are %s.", strings.Join(c.Args[to+1:], " "), mp.Title, powerLetters(mp))
		return nil
	}
	prov := mp.LocName(mp.Province(u.Loc))
	unit := unitIn(mp, u)
	holder := g.Proxies[prov]
	s.dirty = true
	dropOrder(g, mp, holder, u.Loc)
	if target == mine {
		delete(g.Proxies, prov)
		if holder == "" {
			s.printf("The %s was not handed to anyone: %s orders it.", unit, power)
		} else {
			s.printf("The %s is %s's to order again; %s no longer orders it.", unit, power, holder)
		}
		return nil
	}
	name := mp.Powers[target].Name
	if g.Proxies == nil {
		g.Proxies = map[string]string{}
	}
	g.Proxies[prov] = name
	dropOrder(g, mp, power, u.Loc)
	s.printf("The %s is %s's to order in %s (PROXY): %s's own order for it, if it had one, was dropped. Order it yourself to take it back.",
		unit, name, pos.Phase, power)
	return nil
}

// unitWord names a unit of type t in a sentence: "army", "fleet", or
// "unit" when the type was not said.
func unitWord(t judge.UnitType) string {
	if t == judge.NoUnit {
		return "unit"
	}
	return strings.ToLower(t.Word())
}

// unitIn names a unit in a sentence: "army in Munich", "fleet in St
// Petersburg (south coast)".
func unitIn(mp *judge.Map, u judge.Unit) string {
	return strings.ToLower(u.Type.Word()) + " in " + mp.FullName(u.Loc)
}

// dropOrder removes from power's pending orders its order for the unit
// in l's province, if any, with the order's text as written.
func dropOrder(g *state.Game, mp *judge.Map, power string, l judge.Loc) {
	lines := g.Orders[power]
	if power == "" || len(lines) == 0 {
		return
	}
	prov := mp.Province(l)
	kept := slices.DeleteFunc(slices.Clone(lines), func(line string) bool {
		o, err := parser.ParseOrder(line, parser.Options{Map: mp, Phase: judge.Movement, Power: judge.NoPower})
		return err == nil && int(o.Unit) < len(mp.Locs) && mp.Province(o.Unit) == prov
	})
	if len(kept) == len(lines) {
		return
	}
	if len(kept) == 0 {
		delete(g.Orders, power)
	} else {
		g.Orders[power] = kept
	}
	engine.KeepWritten(g, power, kept, nil)
}

// proxyOrder decides an order o of power mine, read from a mail, for a
// unit of another power: the unit handed to mine is mine to order, and
// the order is checked as its owner's (the power the adjudicator
// expects). It returns the order to check, and false with a reason if
// the unit is not mine to order.
func proxyOrder(g *state.Game, pos *judge.Position, o judge.Order) (judge.Order, bool) {
	mp := pos.Map
	u, ok := pos.UnitAt(o.Unit)
	if !ok || u.Power == o.Power || int(o.Power) >= len(mp.Powers) || pos.Phase.Type != judge.Movement {
		return o, false
	}
	if engine.ProxyHolder(g, mp, o.Unit) != mp.Powers[o.Power].Name {
		return o, false
	}
	o.Power = u.Power
	return o, true
}

// takeBack ends the handing of the unit an order of its own power is
// for: the power orders it again, and the holder's order for it goes.
func takeBack(g *state.Game, mp *judge.Map, o judge.Order) string {
	holder := engine.ProxyHolder(g, mp, o.Unit)
	if holder == "" {
		return ""
	}
	delete(g.Proxies, mp.LocName(mp.Province(o.Unit)))
	if len(g.Proxies) == 0 {
		g.Proxies = nil
	}
	dropOrder(g, mp, holder, o.Unit)
	return holder
}

// proxyAck lists, in a power's acknowledgement, the units it handed away
// and those handed to it this phase, without any order given for them by
// the other side.
func (s *session) proxyAck(pos *judge.Position, p judge.Power) {
	g, mp := s.game, pos.Map
	if len(g.Proxies) == 0 {
		return
	}
	name := mp.Powers[p].Name
	var lines []string
	for _, prov := range mp.Provinces() {
		holder := g.Proxies[mp.LocName(prov)]
		u := pos.Units[prov]
		if holder == "" || u.Type == judge.NoUnit {
			continue
		}
		switch {
		case u.Power == p:
			lines = append(lines, fmt.Sprintf("%s's %s is handed to %s to order (PROXY).", name, unitIn(mp, u), holder))
		case holder == name:
			lines = append(lines, fmt.Sprintf("%s orders the %s %s (PROXY).", name, mp.Powers[u.Power].Adjective, unitIn(mp, u)))
		}
	}
	if len(lines) > 0 {
		s.paragraph()
		for _, l := range lines {
			s.printf("%s", l)
		}
	}
}
