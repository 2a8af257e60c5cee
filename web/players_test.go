package web

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// register stores a registration for addr (with former addresses), its
// seat events in game, and returns its ID.
func register(t *testing.T, f *fixture, name, addr string, former []string, game, power string, kinds ...state.SeatKind) uint64 {
	t.Helper()
	var id uint64
	err := f.db.Update(func(tx *state.Tx) error {
		var err error
		if id, err = tx.NewRegistrantID(); err != nil {
			return err
		}
		r := &state.Registrant{ID: id, Name: name, Fold: strings.ToLower(name), Addr: addr, Former: former,
			Country: "Belgium", Level: "expert", ShowAddr: true, Registered: fixtureStart}
		if err := tx.PutRegistrant(r); err != nil {
			return err
		}
		for _, k := range kinds {
			g, err := tx.Game(game)
			if err != nil {
				return err
			}
			if err := tx.AddSeatEvent(&state.SeatEvent{Addr: addr, Game: game, Power: power, Kind: k, At: fixtureStart, Gunboat: g.Settings.Gunboat}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// changeGame applies fn to a stored game.
func changeGame(t *testing.T, f *fixture, name string, fn func(g *state.Game)) {
	t.Helper()
	err := f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game(name)
		if err != nil {
			return err
		}
		fn(g)
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	f.advance(time.Second)
}

// A registered player's page is linked from the game's page, shows the
// public name, profile, figures and games, and no address on any page
// of the site, the player's opt-in to show it by mail notwithstanding.
func TestPlayerPageShowsNoAddress(t *testing.T) {
	f := newFixture(t, 2, Config{})
	register(t, f, "Jeanne", "france@players.test", []string{"old-france@elsewhere.test"}, "secrets", "France",
		state.SeatJoined, state.SeatOnTime, state.SeatOnTime, state.SeatLate)
	pages := f.crawl(t)
	page, ok := pages["/players/1"]
	if !ok {
		t.Fatalf("the player's page is not linked from the site; pages: %d", len(pages))
	}
	// Dedication 3+3-1; on-time ratio (2+4)/(3+4); never resigned.
	for _, want := range []string{"Jeanne", "Belgium", "expert", "<dd>5</dd>", "0.86 (2 phases on time, 1 late)", "<dd>0.00</dd>", "secrets</a>: France"} {
		if !strings.Contains(page, want) {
			t.Errorf("the player's page lacks %q:\n%s", want, page)
		}
	}
	if !strings.Contains(pages["/games/secrets"], `href="../players/1">Jeanne</a>`) {
		t.Errorf("the game's page does not link France's player")
	}
	for path, b := range pages {
		for _, addr := range []string{"france@players.test", "old-france@elsewhere.test", "@players.test", "elsewhere.test"} {
			if strings.Contains(b, addr) {
				t.Errorf("%s shows %q", path, addr)
			}
		}
	}
	for _, path := range []string{"/players/2", "/players/0", "/players/01", "/players/x", "/players/-1", "/players/18446744073709551616"} {
		if r := f.get(t, "GET", path); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, r.StatusCode)
		}
	}
}

// A gunboat seat is linked to its player on no page until the game has
// ended and its master revealed the players.
func TestGunboatSeatHidden(t *testing.T) {
	f := newFixture(t, 1, Config{})
	changeGame(t, f, "secrets", func(g *state.Game) { g.Settings.Gunboat = true })
	register(t, f, "Hidden", "england@players.test", nil, "secrets", "England", state.SeatJoined, state.SeatLate)
	check := func(when string, linked bool) {
		t.Helper()
		game := body(t, f.get(t, "GET", "/games/secrets"))
		player := body(t, f.get(t, "GET", "/players/1"))
		if strings.Contains(game, "Hidden") != linked || strings.Contains(player, "secrets") != linked {
			t.Errorf("%s: the seat is linked to its player on the game's page %v, on the player's %v; want %v",
				when, strings.Contains(game, "Hidden"), strings.Contains(player, "secrets"), linked)
		}
		if !linked && !strings.Contains(player, "<dd>0</dd>") {
			t.Errorf("%s: the player's figures already count the gunboat game:\n%s", when, player)
		}
	}
	check("while the game is played", false)
	changeGame(t, f, "secrets", func(g *state.Game) { g.Status, g.Result = state.Finished, "draw" })
	err := f.db.Update(func(tx *state.Tx) error { return tx.ReleaseSeatEvents("secrets") })
	if err != nil {
		t.Fatal(err)
	}
	check("once over, not revealed", false)
	changeGame(t, f, "secrets", func(g *state.Game) { g.Revealed = true })
	check("once revealed", true)
}

// A private game is on no page; a forming game's gates are on the list
// of games.
func TestPrivateGameAbsentAndGatesListed(t *testing.T) {
	f := newFixture(t, 1, Config{})
	register(t, f, "Priv", "france@players.test", nil, "secrets", "France", state.SeatJoined)
	changeGame(t, f, "newgame", func(g *state.Game) {
		g.Entry = state.Entry{HasDedication: true, Dedication: 10, Registered: true, OnTime: 0.9}
	})
	index := body(t, f.get(t, "GET", "/"))
	for _, want := range []string{"registered players only", "dedication at least 10", "on-time ratio at least 0.90"} {
		if !strings.Contains(index, want) {
			t.Errorf("the list of games lacks the gate %q", want)
		}
	}
	changeGame(t, f, "secrets", func(g *state.Game) { g.Entry.Private = true })
	if b := body(t, f.get(t, "GET", "/")); strings.Contains(b, "secrets") {
		t.Errorf("the list of games shows the private game")
	}
	for _, path := range []string{"/games/secrets", "/games/secrets/press", "/games/secrets/atom.xml", "/games/secrets/S1901M", "/games/secrets/S1901M.png"} {
		if r := f.get(t, "GET", path); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s of a private game: %d, want 404", path, r.StatusCode)
		}
	}
	if b := body(t, f.get(t, "GET", "/players/1")); strings.Contains(b, "secrets") {
		t.Errorf("the player's page names the private game")
	}
}

// A finished game's seat whose holder left the registry (FORGET ME marks
// it Former) is named "a former player" on the game's page, with no link
// and no name.
func TestFormerPlayerSeat(t *testing.T) {
	f := newFixture(t, 1, Config{})
	register(t, f, "Jeanne", "france@players.test", nil, "secrets", "France", state.SeatJoined)
	changeGame(t, f, "secrets", func(g *state.Game) {
		g.Status, g.Result = state.Finished, "draw"
		for i := range g.Players {
			g.Players[i].Former = g.Players[i].Power == "France"
		}
	})
	game := body(t, f.get(t, "GET", "/games/secrets"))
	if !strings.Contains(game, "<td>a former player</td>") || strings.Contains(game, "Jeanne") || strings.Contains(game, "players/1") {
		t.Errorf("the game's page does not name France's seat as a former player's, or still names or links its player:\n%s", game)
	}
}
