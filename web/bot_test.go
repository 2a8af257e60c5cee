package web

import (
	"html"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// TestBotSeatShown: the game's page says which seat the judge's bot
// plays (SET BOT), beside its status, and says it of no other seat.
func TestBotSeatShown(t *testing.T) {
	f := newFixture(t, 1, Config{})
	if strings.Contains(html.UnescapeString(body(t, f.get(t, "GET", "/games/secrets"))), view.BotWords) {
		t.Fatal("a bot shown before any seat is the bot's")
	}
	err := f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("secrets")
		if err != nil {
			return err
		}
		g.Players[0].Status, g.Players[0].Bot = state.Abandoned, true
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(body(t, f.get(t, "GET", "/games/secrets")))
	if n := strings.Count(page, view.BotWords); n != 1 {
		t.Fatalf("the bot named %d times on the page, want once:\n%s", n, page)
	}
	if !strings.Contains(page, "abandoned, "+view.BotWords) {
		t.Errorf("the bot's seat does not say so")
	}
}
