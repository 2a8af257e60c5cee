package session

import (
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// SET BOT OFF|ABANDONED|FILL (issue 25): who plays the seats nobody
// plays. It is set before the start, so that whoever joins knows that a
// seat left behind goes to the judge's bot; engine.EnterBots plays them.
func init() {
	setHandlers["BOT"] = beforeStart("BOT", func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
		if len(args) != 1 {
			s.fail(c.Line, "SET BOT takes one of OFF, ABANDONED or FILL.")
			return "", false
		}
		switch strings.ToUpper(args[0]) {
		case "OFF", "NONE", "NO":
			st.Bot = ""
			return "No bot: abandoned seats wait for a replacement, or fall into civil disorder, as SET NMR says.", true
		case "ABANDONED", "ON":
			st.Bot = engine.BotAbandoned
			return "The judge's bot plays every seat abandoned or in civil disorder until someone takes it over: the game does not wait for replacements.", true
		case "FILL":
			st.Bot = engine.BotFill
			return "The judge's bot plays the seats FORCE BEGIN leaves empty from the first phase, and every seat abandoned or in civil disorder, until someone takes it over: the game does not wait for replacements.", true
		}
		s.fail(c.Line, "SET BOT takes OFF, ABANDONED or FILL, not %s.", args[0])
		return "", false
	})
}

// botPressNote tells the sender of press to powers, in the reply, which
// of them the judge's bot plays: the bot reads no press and sends none,
// so that nobody waits for its answer.
func botPressNote(s *session, g *state.Game, mp *judge.Map, powers []judge.Power) {
	for _, p := range powers {
		name := mp.Powers[p].Name
		if i := engine.PlayerByPower(g, name); i >= 0 && g.Players[i].Bot {
			s.printf("%s is %s, which reads no press.", name, view.BotWords)
		}
	}
}
