package web

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gmdjudge/gmd/players"
	"github.com/gmdjudge/gmd/state"
)

// The registered players' pages (issue 23): a player's public name and
// profile, reliability figures and games. Like every page they show no
// address, the player's opt-in (SET SHOW ADDRESS) included: that opt-in
// is for the other players' mail, and the pages feed no harvester. A
// seat of a gunboat game is not linked to its player, on either page,
// until the game has ended and its master revealed who played it; and a
// private game is on no page at all.

// figureRow are a player's figures as a page shows them.
type figureRow struct {
	players.Figures
	OnTimeText, ResignText string
}

func figuresOf(f players.Figures) figureRow {
	return figureRow{Figures: f, OnTimeText: players.Ratio(f.OnTimeRatio), ResignText: players.Ratio(f.ResignRatio)}
}

// playerGame is one game on a player's page.
type playerGame struct {
	Game   string
	Power  string
	Status state.GameStatus
}

// playerData is the data of a player's page.
type playerData struct {
	page
	Name, Country, Zone, Level string
	Since                      when
	Figures                    figureRow
	Games                      []playerGame
}

func (s *Server) player(tx *state.Tx, r *http.Request, now time.Time) (string, any, error) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || strconv.FormatUint(id, 10) != r.PathValue("id") {
		return "", nil, errNoGame
	}
	reg, err := tx.Registrant(id)
	if errors.Is(err, state.ErrNotFound) {
		return "", nil, errNoGame
	}
	if err != nil {
		return "", nil, err
	}
	d := &playerData{
		page: s.base("Player "+reg.Name, "players/"+r.PathValue("id")),
		Name: reg.Name, Country: reg.Country, Zone: reg.Zone, Level: reg.Level,
		Since: whenIn(reg.Registered, time.UTC),
	}
	var logs [][]*state.SeatEvent
	seen := map[string]bool{}
	for _, a := range reg.Addrs() {
		evs, err := tx.SeatEvents(a)
		if err != nil {
			return "", nil, err
		}
		logs = append(logs, evs)
		for _, ev := range evs {
			if ev.Kind != state.SeatJoined && ev.Kind != state.SeatTakeover || seen[ev.Game+"/"+ev.Power] {
				continue
			}
			seen[ev.Game+"/"+ev.Power] = true
			g, err := tx.Game(ev.Game)
			if err != nil || !players.Shown(g) {
				continue // gone, hidden (gunboat) or private
			}
			d.Games = append(d.Games, playerGame{Game: g.Name, Power: ev.Power, Status: g.Status})
		}
	}
	d.Figures = figuresOf(players.Replay(logs...))
	return "player", d, nil
}

// seatPlayer returns the public name and page of the registered player
// who holds a seat of g ("a former player", with no page, for a seat
// marked state.Player.Former), or "" when the seat may not be linked or its
// holder is not registered (an address a registration moved away from
// is still its own: see state.Registrant.Former). The address is read to find the
// registration and goes no further.
func seatPlayer(tx *state.Tx, g *state.Game, p *state.Player) (name, href string) {
	if !players.Shown(g) || p.Status == state.Abandoned {
		return "", ""
	}
	if p.Former {
		// The holder left the registry (FORGET ME): the finished game
		// keeps the seat, named without a name or a page.
		return "a former player", ""
	}
	reg, err := tx.RegistrantByAddr(p.Addr)
	if err != nil {
		return "", ""
	}
	return reg.Name, "players/" + strconv.FormatUint(reg.ID, 10)
}
