package session

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// The SET options of the end of a game (issue 24): a player's
// concession, the master's DIAS, VICTORY and END YEAR, and the master's
// leave for the players' own PAUSE and EXTEND. The draw vote itself is
// setDraw's (settings.go), which hands a list of powers to drawWith.

// Bounds of the master's choices: maxExtensions extensions per power in
// a game, and a last year at most maxGameYears after the year the game
// is in, so that a typo (SET END YEAR 19100) is refused rather than
// stored as no end at all.
const (
	maxExtensions = 10
	maxGameYears  = 200
)

func init() {
	// The rows are the SET table's (parser/settable.go); the handlers
	// are registered here, beside their code, so that setHandlers stays
	// the one map TestSetHandlersMatchTable checks.
	for name, h := range map[string]setHandler{
		"CONCEDE":   func(s *session, c *parser.Command, _ string, args []string) error { return s.setConcede(c, args) },
		"NOCONCEDE": func(s *session, c *parser.Command, _ string, args []string) error { return s.clearConcede(c, args) },
		"DIAS": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
			return s.setDIAS(c, st, true, args)
		}),
		"NODIAS": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
			return s.setDIAS(c, st, false, args)
		}),
		"VICTORY": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
			return s.setVictory(c, st, args)
		}),
		"ENDYEAR": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
			return s.setEndYear(c, st, args)
		}),
		"PLAYERPAUSE": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
			return s.setPlayerPause(c, st, true, args)
		}),
		"NOPLAYERPAUSE": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
			return s.setPlayerPause(c, st, false, args)
		}),
		"EXTENSIONS": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
			return s.setExtensions(c, st, args)
		}),
	} {
		setHandlers[name] = h
	}
}

// survivor returns the signed-on player's seat in a game being played,
// if its power is still in the game, or reports why not; what is what
// the player tried, for the messages.
func (s *session) survivor(c *parser.Command, what string) *state.Player {
	p := s.seat(c, what)
	if p != nil && p.Status == state.Eliminated {
		s.fail(c.Line, "%s is out of the game and has no vote.", s.power)
		return nil
	}
	return p
}

// setConcede handles SET CONCEDE power: the player concedes the game to
// power, which must be the single largest power (njudge's rule: a
// concession to anyone else would be a way to throw the game). When
// every other survivor someone plays has conceded to it, it wins. The
// concession is secret, like a draw vote, and is cleared each phase.
func (s *session) setConcede(c *parser.Command, args []string) error {
	p := s.survivor(c, "concede")
	if p == nil {
		return nil
	}
	g := s.game
	pos, _, err := s.m.Position(g)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		s.fail(c.Line, "Concede to whom? Use: SET CONCEDE power, naming the largest power.")
		return nil
	}
	pw, ok := engine.PowerNamed(pos.Map, args)
	i := -1
	if ok {
		i = engine.PlayerByPower(g, pos.Map.Powers[pw].Name)
	}
	switch {
	case i < 0:
		s.fail(c.Line, "There is no power %q in '%s'.", strings.Join(args, " "), g.Name)
		return nil
	case g.Players[i].Power == s.power:
		s.fail(c.Line, "You cannot concede to your own power: the others concede to you.")
		return nil
	case g.Players[i].Status == state.Eliminated:
		s.fail(c.Line, "%s is out of the game.", g.Players[i].Power)
		return nil
	}
	to := g.Players[i].Power
	// Under fog of war nobody can see who is largest, and a refusal
	// would tell: a concession to any survivor is taken.
	if largest := engine.LargestPower(pos); largest != to && !engine.Fogged(g) {
		if largest == "" {
			s.fail(c.Line, "A game is conceded to the largest power alone, and no power has more supply centres than every other: nothing changed.")
		} else {
			s.fail(c.Line, "A game is conceded to the largest power alone, which is %s, not %s: nothing changed.", largest, to)
		}
		return nil
	}
	p.Concede, s.dirty = to, true
	s.printf("You concede the game to %s. It ends with %s's win when every other surviving power concedes to it; concessions are secret and are cleared each time a phase is processed. SET NOCONCEDE takes yours back.", to, to)
	return s.m.CheckDraw(s.tx, g, s.now)
}

// clearConcede handles SET NOCONCEDE.
func (s *session) clearConcede(c *parser.Command, args []string) error {
	p := s.survivor(c, "concede")
	if p == nil {
		return nil
	}
	if len(args) > 0 {
		s.fail(c.Line, "Use SET NOCONCEDE alone.")
		return nil
	}
	p.Concede, s.dirty = "", true
	s.printf("You no longer concede the game.")
	return nil
}

// drawWith handles SET DRAW powers in a game without DIAS: the player
// accepts any draw among those powers (with their own power, if they
// named it). njudge's wording and rule.
func (s *session) drawWith(c *parser.Command, p *state.Player, args []string) error {
	g := s.game
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	if !g.Settings.NoDIAS {
		s.fail(c.Line, "Draws in '%s' include every surviving power (DIAS): use SET DRAW alone.", g.Name)
		return nil
	}
	names, bad := readPowers(mp, args)
	if bad != "" {
		s.fail(c.Line, "%q names no power of %s: name the powers of the draw by name or letter (SET DRAW AEF, or SET DRAW Austria England France).", bad, mp.Title)
		return nil
	}
	var in []string
	for _, n := range names {
		i := engine.PlayerByPower(g, n)
		if i < 0 || g.Players[i].Status == state.Eliminated {
			s.fail(c.Line, "%s is not in the game: a draw is among surviving powers.", n)
			return nil
		}
		if !slices.Contains(in, n) {
			in = append(in, n)
		}
	}
	if len(in) < 2 {
		s.fail(c.Line, "A draw is among two powers at least (a game conceded to one is SET CONCEDE).")
		return nil
	}
	p.Draw, p.DrawWith, s.dirty = true, in, true
	who := "that includes you"
	if !slices.Contains(in, s.power) {
		who = "with or without you"
	}
	s.printf("You vote for a draw among %s, or any smaller draw among them %s. The largest draw every vote accepts passes; votes are secret and are cleared each time a phase is processed.", engine.ListNames(in), who)
	return s.m.CheckDraw(s.tx, g, s.now)
}

// readPowers reads a list of powers of mp, by name ("Austria England")
// or by letters run together ("AEF"), separated by spaces or commas. It
// returns the names in the order written, or the first word it cannot
// read.
func readPowers(mp *judge.Map, args []string) (names []string, bad string) {
	for _, w := range strings.FieldsFunc(strings.Join(args, " "), func(r rune) bool { return r == ' ' || r == ',' }) {
		if pw, ok := engine.PowerNamed(mp, []string{w}); ok {
			names = append(names, mp.Powers[pw].Name)
			continue
		}
		var letters []string
		for i := 0; i < len(w); i++ {
			k := engine.PowerByLetter(mp, w[i])
			if k < 0 {
				return nil, w
			}
			letters = append(letters, mp.Powers[k].Name)
		}
		names = append(names, letters...)
	}
	return names, ""
}

// beforeStart reports whether the session's game has not started, and
// says otherwise that option is fixed once it has.
func (s *session) beforeStart(c *parser.Command, option string) bool {
	if s.game.Status != state.Forming {
		s.fail(c.Line, "SET %s is fixed once '%s' has started.", option, s.game.Name)
		return false
	}
	return true
}

// setDIAS handles SET DIAS and SET NODIAS, before the start: every
// player must know from the start what a draw can be.
func (s *session) setDIAS(c *parser.Command, st *state.GameSettings, dias bool, args []string) (string, bool) {
	if len(args) > 0 {
		s.fail(c.Line, "Use SET DIAS or SET NODIAS alone.")
		return "", false
	}
	if !s.beforeStart(c, map[bool]string{true: "DIAS", false: "NODIAS"}[dias]) {
		return "", false
	}
	st.NoDIAS = !dias
	if dias {
		return "Draws include every surviving power (DIAS).", true
	}
	return "Draws may name some of the surviving powers (NODIAS): a player votes with SET DRAW and the powers they accept, and the largest draw every vote accepts passes.", true
}

// setVictory handles SET VICTORY n, before the start: the supply centres
// a power needs to win, 0 for the variant's count. A variant whose count
// follows the board (dynamic victory) keeps it.
func (s *session) setVictory(c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
	mp, err := engine.GameMap(s.game)
	if err != nil {
		s.fail(c.Line, "The game's variant cannot be read.")
		return "", false
	}
	centres := len(judge.StartPosition(mp).CenterList())
	n, err := strconv.Atoi(strings.Join(args, ""))
	switch {
	case len(args) != 1 || err != nil:
		s.fail(c.Line, "Use: SET VICTORY n, the number of supply centres a power needs to win (0 for the variant's %d).", mp.VictoryCenters)
		return "", false
	case !s.beforeStart(c, "VICTORY"):
		return "", false
	case mp.DynamicVictory:
		s.fail(c.Line, "The %s variant's victory count follows the number of supply centres on the board: it cannot be set.", mp.Title)
		return "", false
	case n < 0 || n > centres:
		s.fail(c.Line, "%d supply centres cannot be a victory count: the %s board has %d centres.", n, mp.Title, centres)
		return "", false
	case n > 0 && n <= centres/2:
		s.fail(c.Line, "A victory needs more than half of the %d supply centres, so that two powers cannot win at once: %d is too few.", centres, n)
		return "", false
	}
	st.Victory = n
	if n == 0 || n == mp.VictoryCenters {
		st.Victory = 0
		return fmt.Sprintf("A power needs the %s variant's %d supply centres to win.", mp.Title, mp.VictoryCenters), true
	}
	return fmt.Sprintf("A power needs %d supply centres to win (the %s variant's count is %d).", n, mp.Title, mp.VictoryCenters), true
}

// setEndYear handles SET END YEAR y [DRAW|RANK] and SET END YEAR NONE:
// the game ends after the adjustments of year y, drawn among the
// survivors (the default) or ranked by their supply centres. It may be
// set at any time, for a year not over yet: the players learn it from
// the notice, LIST and the start mail.
func (s *session) setEndYear(c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
	const use = "Use: SET END YEAR 1910 (the game ends after that year's adjustments, drawn among the survivors), SET END YEAR 1910 RANK (ranked by supply centres), or SET END YEAR NONE."
	if len(args) > 0 && strings.EqualFold(args[0], "YEAR") {
		args = args[1:]
	}
	if len(args) == 1 && (strings.EqualFold(args[0], "NONE") || args[0] == "0") {
		st.EndYear, st.EndRank = 0, false
		return "The game has no last year: it goes on until a victory, a draw or a concession.", true
	}
	if len(args) == 0 || len(args) > 2 {
		s.fail(c.Line, "%s", use)
		return "", false
	}
	year, err := strconv.Atoi(args[0])
	if err != nil {
		s.fail(c.Line, "%q is not a year. %s", args[0], use)
		return "", false
	}
	rank := false
	if len(args) == 2 {
		switch strings.ToUpper(args[1]) {
		case "RANK", "RANKED":
			rank = true
		case "DRAW", "DRAWN":
		default:
			s.fail(c.Line, "%q is not a result: DRAW or RANK. %s", args[1], use)
			return "", false
		}
	}
	now, err := s.yearNow()
	if err != nil {
		s.fail(c.Line, "The game's position cannot be read.")
		return "", false
	}
	switch {
	case year < now:
		s.fail(c.Line, "The game is in %d already: its last year cannot be %d.", now, year)
		return "", false
	case year > now+maxGameYears:
		s.fail(c.Line, "%d is more than %d years after %d: a game's last year must be within them.", year, maxGameYears, now)
		return "", false
	}
	st.EndYear, st.EndRank = year, rank
	if rank {
		return fmt.Sprintf("The game ends after the adjustments of %d, its surviving powers ranked by their supply centres.", year), true
	}
	return fmt.Sprintf("The game ends after the adjustments of %d, drawn among the surviving powers.", year), true
}

// yearNow returns the year the session's game is in: its first year
// while it forms.
func (s *session) yearNow() (int, error) {
	g := s.game
	if g.Status == state.Forming {
		mp, err := engine.GameMap(g)
		if err != nil {
			return 0, err
		}
		return mp.StartPhase().Year, nil
	}
	ph, err := engine.CurrentPhase(g)
	return ph.Year, err
}

// setPlayerPause handles SET PLAYER PAUSE and SET NOPLAYER PAUSE.
func (s *session) setPlayerPause(c *parser.Command, st *state.GameSettings, on bool, args []string) (string, bool) {
	if len(args) != 1 || !strings.EqualFold(args[0], "PAUSE") {
		s.fail(c.Line, "Use: SET PLAYER PAUSE or SET NOPLAYER PAUSE.")
		return "", false
	}
	st.PlayerPause = on
	if on {
		return "The players may pause the game: it pauses when every active player sends PAUSE, and any of them, or the master, may RESUME it.", true
	}
	return "Only the master may pause the game.", true
}

// setExtensions handles SET EXTENSIONS n.
func (s *session) setExtensions(c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
	n, err := strconv.Atoi(strings.Join(args, ""))
	if len(args) != 1 || err != nil || n < 0 || n > maxExtensions {
		s.fail(c.Line, "Use: SET EXTENSIONS n, from 0 (none) to %d: how many times each power may EXTEND a deadline in the game.", maxExtensions)
		return "", false
	}
	st.Extensions = n
	if n == 0 {
		return "No power may EXTEND a deadline.", true
	}
	return fmt.Sprintf("Each power may EXTEND a deadline %d %s in the game, once a phase and by at most %d hours.",
		n, report.Plural(n, "time", "times"), int(maxExtend.Hours())), true
}
