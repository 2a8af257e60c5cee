package gm

import (
	"time"

	"github.com/gmdjudge/gmd/state"
)

// GameOverview is one game as the judge's operator sees it (gmd games):
// where it stands and which seats hold it up.
type GameOverview struct {
	Name    string
	Variant string // the variant's title: "Standard"
	Status  state.GameStatus
	// Phase is the current phase ("S1901M"): the variant's first while
	// the game forms, with an "X" once it is over, as LIST shows it.
	Phase string
	// Deadline is the current phase's, for a game being played or
	// paused; zero otherwise.
	Deadline time.Time
	// Players is how many seats a player holds (how many have joined,
	// while the game forms), of Seats, the variant's powers.
	Players, Seats int
	// Late lists the powers whose players owe orders past the deadline;
	// Abandoned the seats free for takeover, which hold the phase back
	// in a NoNMR game; Disorder the seats in civil disorder. Powers are
	// in seat order.
	Late, Abandoned, Disorder []string

	// Result says how a finished game ended.
	Result string
}

// Overview returns every game at now, in name order.
func (m *Master) Overview(now time.Time) ([]GameOverview, error) {
	var out []GameOverview
	err := m.db.View(func(tx *state.Tx) error {
		return tx.ForEachGame(func(g *state.Game) error {
			out = append(out, m.overview(g, now))
			return nil
		})
	})
	return out, err
}

// OverviewOf returns the GameOverview of g, a game read in a transaction
// of the caller's, at now: the web pages show a game with it.
func (m *Master) OverviewOf(g *state.Game, now time.Time) GameOverview { return m.overview(g, now) }

// overview is the GameOverview of g at now.
func (m *Master) overview(g *state.Game, now time.Time) GameOverview {
	o := GameOverview{Name: g.Name, Variant: g.Variant, Status: g.Status, Phase: m.phaseOf(g), Result: g.Result}
	if mp, err := gameMap(g); err == nil {
		o.Variant, o.Seats = mp.Title, len(mp.Powers)
	}
	if g.Status == state.Forming {
		o.Players = len(g.Players)
		return o
	}
	if g.Status == state.Active || g.Status == state.Paused {
		o.Deadline = g.Deadline
	}
	for _, p := range g.Players {
		switch p.Status {
		case state.Playing:
			o.Players++
		case state.Abandoned:
			o.Abandoned = append(o.Abandoned, p.Power)
		case state.Disorder:
			o.Disorder = append(o.Disorder, p.Power)
		}
	}
	if g.Status != state.Active || now.Before(g.Deadline) {
		return o
	}
	pos, _, err := m.position(g)
	if err != nil {
		// The phase is shown as "?" already; gmd check says more.
		return o
	}
	for _, i := range m.survey(g, pos).missing {
		if p := g.Players[i]; p.Status == state.Playing {
			o.Late = append(o.Late, p.Power)
		}
	}
	return o
}
