package engine

import (
	"hash/fnv"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// The judge's bot in a game (SET BOT, issue 25): the seats nobody plays
// get the search player's orders, written and stored as a player's are
// (Game.Orders and Game.Written), so that the results, the history, the
// maps and ROLLBACK treat them as any other orders.

// Values of state.GameSettings.Bot.
const (
	BotAbandoned = "abandoned" // abandoned and civil-disorder seats
	BotFill      = "fill"      // those, and the seats FORCE BEGIN leaves empty, from the start
)

// botKind is the player the seats get: the strongest, with its default
// budget of adjudications, which a seed makes reproducible.
const botKind = "search"

// botSeat reports whether the bot plays seat p of g from now on: a seat
// abandoned or in civil disorder, in a game with a bot.
func botSeat(g *state.Game, p *state.Player) bool {
	if g.Settings.Bot == "" || p.Power == "" {
		return false
	}
	return p.Status == state.Abandoned || p.Status == state.Disorder
}

// EnterBots writes the bot's orders, for the phase of pos, for every seat
// of g the bot plays that has not given all its orders (orders a player
// wrote ahead for the phase, entered by enterFuture, stand), and marks
// those seats as the bot's. The bot is seeded from the game's name and
// the phase, so that the same game processed again (after a ROLLBACK)
// gets the same orders.
func (m *Engine) EnterBots(g *state.Game, pos *judge.Position, rules judge.Rules) {
	for i := range g.Players {
		p := &g.Players[i]
		if !botSeat(g, p) {
			continue
		}
		p.Bot = true
		if m.Complete(g, pos, p.Power) {
			continue
		}
		m.enterBot(g, pos, rules, p.Power)
	}
}

// enterBot writes the bot's orders for one power, replacing what it had.
func (m *Engine) enterBot(g *state.Game, pos *judge.Position, rules judge.Rules, name string) {
	pw, ok := PowerOf(pos.Map, name)
	if !ok {
		return
	}
	player, err := bot.New(botKind, bot.Config{Rules: rules, Seed: botSeed(g.Name, pos.Phase, name), Budget: m.cfg.BotBudget, MaxTime: m.cfg.BotMaxTime})
	if err != nil {
		return // botKind is one of bot.Kinds; never
	}
	// Under fog of war the bot plays on what its power sees.
	orders := player.Orders(FogFor(g, pos, name), pw)
	if len(orders) == 0 {
		return
	}
	if g.Orders == nil {
		g.Orders = map[string][]string{}
	}
	lines := CanonicalLines(pos.Map, orders)
	g.Orders[name] = lines
	// The bot's orders are written as they read: their text is the line.
	texts := make(map[string]string, len(lines))
	for _, l := range lines {
		texts[l] = l
	}
	KeepWritten(g, name, lines, texts)
}

// botSeed is the bot's seed for a power in a phase of a game.
func botSeed(game string, ph judge.Phase, power string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(game + "\x00" + ph.String() + "\x00" + power))
	return h.Sum64()
}

// botPowers returns the powers of g whose seats the bot plays, in seat
// order: those whose orders it wrote for the phase being processed.
func botPowers(g *state.Game) []string {
	var out []string
	for _, p := range g.Players {
		if p.Bot {
			out = append(out, p.Power)
		}
	}
	return out
}
