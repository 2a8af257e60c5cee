package engine

import (
	"time"

	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// Overview returns every game at now, in name order.
func (m *Engine) Overview(now time.Time) ([]view.GameOverview, error) {
	var out []view.GameOverview
	err := m.db.View(func(tx *state.Tx) error {
		return tx.ForEachGame(func(g *state.Game) error {
			out = append(out, m.overview(g, now))
			return nil
		})
	})
	return out, err
}

// OverviewOf returns the view.GameOverview of g, a game read in a transaction
// of the caller's, at now: the web pages show a game with it.
func (m *Engine) OverviewOf(g *state.Game, now time.Time) view.GameOverview {
	return m.overview(g, now)
}

// overview is the view.GameOverview of g at now.
func (m *Engine) overview(g *state.Game, now time.Time) view.GameOverview {
	o := view.GameOverview{Name: g.Name, Variant: g.Variant, Status: g.Status, Phase: m.PhaseOf(g), Result: g.Result, Settings: SettingsOf(g)}
	if mp, err := GameMap(g); err == nil {
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
	pos, _, err := m.Position(g)
	if err != nil {
		// The phase is shown as "?" already; gmd check says more.
		return o
	}
	for _, i := range m.Survey(g, pos).Missing {
		if p := g.Players[i]; p.Status == state.Playing {
			o.Late = append(o.Late, p.Power)
		}
	}
	return o
}
