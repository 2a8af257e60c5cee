package view

import (
	"fmt"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// BuildRule returns the build rule the master chose for g (SET BUILD),
// or BuildsOfMap when the game keeps its variant's.
func BuildRule(g *state.Game) judge.BuildRule {
	r, err := judge.ParseBuildRule(g.Settings.Builds)
	if err != nil {
		return judge.BuildsOfMap
	}
	return r
}

// Position decodes g's current position, with the rules it is played by
// (the master's build rule and victory count included): the one way the game master and
// the web pages read a game's board. A position that will not decode was
// damaged since the judge wrote it (state.ErrDamaged). g must have a
// position (it has started).
func Position(g *state.Game) (*judge.Position, judge.Rules, error) {
	pos, rules, err := jsonpos.DecodePosition(g.Position)
	if err != nil {
		return nil, judge.Rules{}, fmt.Errorf("game %s: stored position: %w; %w", g.Name, err, state.ErrDamaged)
	}
	rules.Builds = BuildRule(g)
	rules.Victory = g.Settings.Victory
	return pos, rules, nil
}
