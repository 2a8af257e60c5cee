package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// setGame changes the fixture's game name with change.
func (f *fixture) setGame(t *testing.T, name string, change func(g *state.Game)) {
	t.Helper()
	err := f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game(name)
		if err != nil {
			return err
		}
		change(g)
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFogHidesTheBoard: while a game is played under fog of war, any
// visitor may be one of its players, so no page shows its board: the
// crawl of every page finds no unit, no map and no results; the game's
// phase pages, maps and the current position's map are not found, and
// its feed has no entry. Once the game is over, all of it is there.
func TestFogHidesTheBoard(t *testing.T) {
	f := newFixture(t, 2, Config{})
	f.setGame(t, "secrets", func(g *state.Game) { g.Settings.Fog = true })
	pages := f.crawl(t)
	game := pages["/games/secrets"]
	if !strings.Contains(game, "fog of war") {
		t.Errorf("the game page does not say the game is fogged:\n%s", game)
	}
	for path, text := range pages {
		for _, bad := range []string{"Army ", "Fleet ", ".png", "results for", "S1901M", "Supply centres by year"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s shows %q of a fogged game", path, bad)
			}
		}
	}
	hidden := []string{"/games/secrets/S1901M", "/games/secrets/S1901M.png", "/games/secrets/S1901M-after.png",
		"/games/secrets/F1902M", "/games/secrets/S1903M", "/games/secrets/S1903M.png"}
	for _, path := range hidden {
		if res := f.get(t, "GET", path); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s of a fogged game: %d, want 404", path, res.StatusCode)
		}
	}
	if feed := body(t, f.get(t, "GET", "/games/secrets/atom.xml")); strings.Contains(feed, "<entry>") {
		t.Errorf("the feed of a fogged game has entries:\n%s", feed)
	}

	f.setGame(t, "secrets", func(g *state.Game) { g.Status = state.Finished })
	for _, path := range hidden[:4] {
		if res := f.get(t, "GET", path); res.StatusCode != http.StatusOK {
			t.Errorf("%s once the game is over: %d, want 200", path, res.StatusCode)
		}
	}
	if page := body(t, f.get(t, "GET", "/games/secrets")); !strings.Contains(page, "Army ") || strings.Contains(page, "fog of war: while") {
		t.Errorf("the page of the game over does not show its board:\n%s", page)
	}
	if feed := body(t, f.get(t, "GET", "/games/secrets/atom.xml")); !strings.Contains(feed, "<entry>") {
		t.Error("the feed of the game over has no entry")
	}
}
