package session

import (
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// The press limits of issue 24, each a setting the master chooses before
// the start, so that whoever joins knows them: fake press (SET FAKE),
// press that claims another power as its sender, and press between
// powers in movement phases only (njudge's SET NO MINOR PRESS). Press to
// and from the master is never fake and never limited by phase: it is
// how a player reaches the master when anything goes wrong.

// fakeWords answers njudge's PRESS FAKE, which gmd reads otherwise:
// njudge's fake press is partial press shown as a broadcast, gmd's is
// press that names another sender.
const fakeWords = "gmd's fake press names another power as its sender: PRESS AS R TO E, or BROADCAST AS R, where the master allows it (SET FAKE)."

func init() {
	setHandlers["FAKE"] = beforeStart("FAKE", func(s *session, c *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Fake = true
		return "Fake press is allowed: press between powers may claim another power as its sender (PRESS AS R TO E); the master is told who sent it.", true
	})
	setHandlers["NOFAKE"] = beforeStart("NOFAKE", func(s *session, c *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Fake = false
		return "No fake press: press says who sent it, or nobody (grey).", true
	})
	setHandlers["MINOR"] = beforeStart("MINOR", func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
		if !minorPressArgs(s, c, args) {
			return "", false
		}
		st.NoMinorPress = false
		return "Press between powers goes in every phase: movement, retreats and adjustments.", true
	})
	setHandlers["NOMINOR"] = beforeStart("NOMINOR", func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
		if !minorPressArgs(s, c, args) {
			return "", false
		}
		st.NoMinorPress = true
		return "Press between powers goes during movement phases only; in retreats and adjustments, only press to and from the master.", true
	})
}

// beforeStart is gameSetting for the option named name, which may be
// set only while the game forms: the players who join agree to it.
func beforeStart(name string, set func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool)) setHandler {
	return gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
		if s.game.Status != state.Forming {
			o, _ := parser.LookupSetOption(name)
			s.fail(c.Line, "Game '%s' has started: SET %s is set before the start, so that the players join knowing it.", s.game.Name, o.Syntax)
			return "", false
		}
		return set(s, c, st, args)
	})
}

// minorPressArgs checks the word after SET [NO] MINOR: PRESS, as njudge
// writes it, or nothing.
func minorPressArgs(s *session, c *parser.Command, args []string) bool {
	if len(args) == 0 || len(args) == 1 && strings.EqualFold(args[0], "PRESS") {
		return true
	}
	s.fail(c.Line, "Use: SET MINOR PRESS or SET NO MINOR PRESS.")
	return false
}

// claimedSender reads the power after AS in PRESS AS R TO E: a letter, a
// name or an adjective. It returns the power and how many words it took,
// or a message for the player.
func claimedSender(mp *judge.Map, words []string) (judge.Power, int, string) {
	if len(words) == 0 {
		return judge.NoPower, 0, "AS needs the power the press claims to come from: PRESS AS R TO E."
	}
	upper := make([]string, len(words))
	for i, w := range words {
		upper[i] = strings.ToUpper(w)
	}
	if p, n := parser.MatchPower(mp, upper); n > 0 {
		return p, n, ""
	}
	if len(upper[0]) == 1 {
		if k := engine.PowerByLetter(mp, upper[0][0]); k >= 0 {
			return judge.Power(k), 1, ""
		}
	}
	return judge.NoPower, 0, "\"" + words[0] + "\" after AS names no power: use a letter (" + powerLetters(mp) + ") or a name."
}

// pressLimits returns why the game's press limits refuse a press, or ""
// when they allow it: from is the sending power (NoPower for the master
// or an observer), claimed the sender fake press claims (NoPower when it
// claims none), toPowers whether it goes to more than the master, and
// toMaster whether the master is addressed by name.
func (s *session) pressLimits(g *state.Game, from, claimed judge.Power, grey, toPowers, toMaster bool) string {
	st := g.Settings
	if claimed != judge.NoPower {
		switch {
		case !st.Fake:
			return "Game '" + g.Name + "' has no fake press: AS is for games whose master allowed it (SET FAKE)."
		case s.master || from == judge.NoPower:
			return "Only a power's press may claim another sender; the master's and observers' never do."
		case claimed == from:
			return "AS names the power the press claims to come from, and that is you: leave AS out."
		case toMaster || !toPowers:
			return "Press to the master is never fake: leave AS out, or the master out."
		case grey || st.Press == "grey":
			return "Grey press names no sender, so it cannot claim one: use AS in white press."
		}
	}
	if st.NoMinorPress && toPowers && !s.master && from != judge.NoPower {
		if ph, err := judge.ParsePhase(s.m.PhaseOf(g)); err == nil && ph.Type != judge.Movement {
			return "Game '" + g.Name + "' has press between powers during movement phases only (NO MINOR PRESS); in " +
				strings.ToLower(ph.Type.String()) + " phases press goes to the master only (PRESS TO M)."
		}
	}
	return ""
}
