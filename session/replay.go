package session

import (
	"slices"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/internal/length"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// historyReplay handles HISTORY game REPLAY (issue 26): the replay of a
// finished game, its whole course as an animated picture, as the
// game-over mail carried it. Anyone may ask; it is bounded as the maps
// of HISTORY are (attachMap): it goes only to an address that gets the
// game's mail, which proved it reads its mail, never to a stranger's
// From line (a replay is up to config.MaxReplayParts files of
// max-replay-size); one reply carries one replay; and HISTORY counts
// among the commands with output that a mail gets answered. The sender
// draws it once for all the mails that carry it (engine.MapRenderer).
// A running game has none: its replay would be a game not yet played
// out, and comes with its game-over mail.
func (s *session) historyReplay(c *parser.Command, g *state.Game) {
	if len(c.Args) > 2 {
		s.fail(c.Line, "Use: HISTORY %s REPLAY, with nothing after it.", g.Name)
		return
	}
	if g.Status != state.Finished {
		s.fail(c.Line, "'%s' is not over: its replay comes with its game-over mail, and HISTORY %s REPLAY sends it once the game has ended. "+
			"HISTORY %s <phase> sends the map of a phase played.", g.Name, g.Name, g.Name)
		return
	}
	if g.Turn == 0 {
		s.printf("No phase of '%s' was played: it has no replay.", g.Name)
		return
	}
	ref := engine.ReplayRef(g)
	switch why := s.noMaps(g); {
	case why == noMapWanted:
		s.printf("No replay of '%s': its maps are off for you (SET NOMAP, or the master's SET MAP OFF).", g.Name)
		return
	case why != "":
		s.printf("No replay of '%s': the replay, like the maps, goes only to the addresses that get the game's mail (its players, observers and master).", g.Name)
		return
	case slices.ContainsFunc(s.maps, func(m state.MapRef) bool { return engine.SameRef(m, ref) }):
		s.printf("The replay of '%s' is attached once.", g.Name)
		return
	case slices.ContainsFunc(s.maps, func(m state.MapRef) bool { return m.Replay }):
		s.printf("No replay of '%s': a reply carries one replay; send HISTORY %s REPLAY in a mail of its own.", g.Name, g.Name)
		return
	}
	s.maps = append(s.maps, ref)
	s.printf("The replay of '%s', its %s as an animated picture, is attached: %s.gif (a long game comes in parts, %s-1.gif, %s-2.gif and on).",
		g.Name, length.Count(g.Turn, "phase"), g.Name, g.Name, g.Name)
}
