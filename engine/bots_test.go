package engine

import (
	"slices"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// botTestGame returns a standard game whose seven seats are abandoned,
// with SET BOT ABANDONED, and its first position.
func botTestGame() (*state.Game, *judge.Position) {
	mp := variants.Standard()
	g := &state.Game{Name: "b", Variant: "standard", Status: state.Active, Settings: state.GameSettings{Bot: BotAbandoned}}
	for _, p := range mp.Powers {
		g.Players = append(g.Players, state.Player{Power: p.Name, Status: state.Abandoned})
	}
	return g, judge.StartPosition(mp)
}

// TestEnterBotsDeterministic: the bot's orders for a phase are the same
// each time (the seed is the game's, the phase's and the power's), every
// seat is complete and marked, and a game without a bot gets none.
func TestEnterBotsDeterministic(t *testing.T) {
	// No time cap within reach: the bot's choice then depends on its
	// seed and budget alone, however loaded the machine.
	m := New(nil, Config{BotMaxTime: time.Hour})
	g, pos := botTestGame()
	m.EnterBots(g, pos, judge.Rules{})
	first := g.Orders
	for _, p := range g.Players {
		if !p.Bot || !m.Complete(g, pos, p.Power) || len(g.Written[p.Power]) != len(g.Orders[p.Power]) {
			t.Errorf("%s: bot %v, orders %v, written %v", p.Power, p.Bot, g.Orders[p.Power], g.Written[p.Power])
		}
	}
	g2, _ := botTestGame()
	m.EnterBots(g2, pos, judge.Rules{})
	for name, lines := range first {
		if !slices.Equal(lines, g2.Orders[name]) {
			t.Errorf("%s: %v, then %v", name, lines, g2.Orders[name])
		}
	}
	off, _ := botTestGame()
	off.Settings.Bot = ""
	m.EnterBots(off, pos, judge.Rules{})
	if len(off.Orders) != 0 || slices.ContainsFunc(off.Players, func(p state.Player) bool { return p.Bot }) {
		t.Errorf("SET BOT OFF: orders %v, seats %+v", off.Orders, off.Players)
	}
}

// BenchmarkEnterBots is the judge's cost of the bot's orders for the
// seven seats of a standard game in Spring 1901, at the default budget.
func BenchmarkEnterBots(b *testing.B) {
	m := New(nil, Config{})
	for b.Loop() {
		g, pos := botTestGame()
		m.EnterBots(g, pos, judge.Rules{})
	}
}

// TestBotNeverAgrees: a seat the bot plays holds back a draw and a
// concession that every other survivor voted for; the same seat
// abandoned without the bot does not.
func TestBotNeverAgrees(t *testing.T) {
	g, _ := botTestGame()
	for i := range g.Players {
		p := &g.Players[i]
		p.Status, p.Draw, p.Concede = state.Playing, true, "France"
	}
	g.Players[0].Status, g.Players[0].Draw, g.Players[0].Concede = state.Abandoned, false, ""
	if DrawPasses(g) == nil || ConcessionPasses(g) != "France" {
		t.Fatalf("without the bot: draw %v, concession %q", DrawPasses(g), ConcessionPasses(g))
	}
	g.Players[0].Bot = true
	if d, c := DrawPasses(g), ConcessionPasses(g); d != nil || c != "" {
		t.Errorf("with the bot in %s's seat: draw %v, concession %q", g.Players[0].Power, d, c)
	}
	// SET BOT ... AGREE: the bot's seat accepts what the others agree
	// on, and still holds nothing up that they do not agree on.
	g.Settings.BotAgrees = true
	if d, c := DrawPasses(g), ConcessionPasses(g); len(d) != len(g.Players) || c != "France" {
		t.Errorf("with the bot agreeing in %s's seat: draw %v, concession %q", g.Players[0].Power, d, c)
	}
	g.Players[1].Draw, g.Players[1].Concede = false, ""
	if d, c := DrawPasses(g), ConcessionPasses(g); d != nil || c != "" {
		t.Errorf("the bot agreeing, %s voting for neither: draw %v, concession %q", g.Players[1].Power, d, c)
	}
}
