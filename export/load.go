package export

import (
	"errors"

	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// Load reads in tx what the export opt chooses of game g needs (its
// phase records, its press, and for the master's export the public names
// of its players) and builds it: the one reading of a game's export, for
// gmd export, the web pages and the master's EXPORT by mail. words are
// the game's settings in words (engine.SettingsOf(g), which the caller
// has). Any Players in opt are replaced by the registry's.
func Load(tx *state.Tx, g *state.Game, words view.Settings, opt Options) (*Game, error) {
	phases, err := tx.Phases(g.Name)
	if err != nil {
		return nil, err
	}
	var press []*state.Press
	for turn := 0; turn <= len(phases); turn++ {
		p, err := tx.Press(g.Name, turn)
		if err != nil {
			return nil, err
		}
		press = append(press, p...)
	}
	opt.Players = nil
	if opt.Master {
		if opt.Players, err = publicNames(tx, g); err != nil {
			return nil, err
		}
	}
	return BuildWith(g, phases, press, words, opt)
}

// publicNames are the public names of g's players who registered, by
// power; a player who left the registry is "a former player", as the
// web pages name them.
func publicNames(tx *state.Tx, g *state.Game) (map[string]string, error) {
	names := map[string]string{}
	for _, p := range g.Players {
		switch {
		case p.Power == "" || p.Status == state.Abandoned:
		case p.Former:
			names[p.Power] = "a former player"
		default:
			reg, err := tx.RegistrantByAddr(p.Addr)
			if errors.Is(err, state.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			names[p.Power] = reg.Name
		}
	}
	return names, nil
}
