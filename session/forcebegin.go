package session

import (
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

func init() {
	// The command table's row (parser/table.go) is run from here,
	// beside its code, in the one map of handlers.
	commands["FORCE"] = command{run: (*session).cmdForce, mails: true}
}

// cmdForce handles FORCE BEGIN (njudge's): the master starts a forming
// game with the players it has. Each power nobody got is an empty seat,
// abandoned from the start (state.Player.Empty) and free for a takeover,
// as any abandoned seat is; the game waits for it, or plays it in civil
// disorder, as SET NMR says. A game needs one player at least: one
// with none would be played by nobody.
func (s *session) cmdForce(c *parser.Command) error {
	g := s.game
	if len(c.Args) != 1 || !isWord(c.Args[0], "BEGIN", "START") {
		s.fail(c.Line, "Use: FORCE BEGIN, to start '%s' with the players it has.", g.Name)
		return nil
	}
	if g.Status != state.Forming {
		s.fail(c.Line, "Game '%s' has started already.", g.Name)
		return nil
	}
	if len(g.Players) == 0 {
		s.fail(c.Line, "Nobody has joined '%s' yet: a game needs one player at least.", g.Name)
		return nil
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	empty := len(mp.Powers) - len(g.Players)
	if err := s.m.StartGame(s.tx, g, s.now); err != nil {
		return err
	}
	s.dirty = true
	if empty == 0 {
		s.printf("Game '%s' has started: every seat was taken.", g.Name)
		return nil
	}
	var names []string
	for _, p := range g.Players {
		if p.Empty {
			names = append(names, p.Power)
		}
	}
	s.printf("Game '%s' has started without players for %s: those seats are abandoned and free for takeover (SIGNON with the power's letter).", g.Name, engine.ListNames(names))
	return nil
}

// isWord reports whether w is one of words, whatever its case.
func isWord(w string, words ...string) bool {
	for _, x := range words {
		if strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}
