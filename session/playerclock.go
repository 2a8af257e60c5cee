package session

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// The players' own clock (issue 24), where the master allows it: PAUSE
// from every active player pauses the game (SET PLAYER PAUSE), and
// EXTEND moves a deadline on (SET EXTENSIONS n). Both are the seat's
// own, signed on with its password; both are announced to the game.

// maxExtend is the most one EXTEND moves a deadline: two days, a
// weekend away, and little enough that SET EXTENSIONS n bounds what the
// players can add to a game to n times two days a power.
const maxExtend = 48 * time.Hour

func init() {
	// The command table's rows (parser/table.go) are run from here,
	// beside their code, in the one map of handlers.
	commands["EXTEND"] = command{run: (*session).cmdExtend, mails: true}
}

// playerPause handles a player's PAUSE: the seat asks for a pause,
// which comes when every active player (a seat someone plays) has
// asked. The requests are secret, like draw votes, and are cleared
// each time a phase is processed.
func (s *session) playerPause(c *parser.Command) error {
	g := s.game
	if !g.Settings.PlayerPause {
		s.fail(c.Line, "Only the master may pause '%s': the master has not let the players pause it (SET PLAYER PAUSE).", g.Name)
		return nil
	}
	p := s.survivor(c, "ask for a pause")
	if p == nil {
		return nil
	}
	if g.Status != state.Active {
		s.fail(c.Line, "Game '%s' is paused already.", g.Name)
		return nil
	}
	p.Pause, s.dirty = true, true
	for i := range g.Players {
		if q := &g.Players[i]; q.Status == state.Playing && !q.Pause {
			s.printf("You ask for a pause of '%s'. It pauses when every active player asks for it; requests are secret and are cleared each time a phase is processed.", g.Name)
			return nil
		}
	}
	g.Status, g.Wake, g.PlayersPaused = state.Paused, time.Time{}, true
	for i := range g.Players {
		g.Players[i].Pause = false
	}
	if err := s.m.SendGame(s.tx, s.now, g, "paused", engine.ControlData{HeadLines: s.m.Head(g), By: "its players"}, s.m.Recipients(g)); err != nil {
		return err
	}
	s.printf("Every active player asked for a pause: game '%s' is paused, and everyone was told. Any player, or the master, may RESUME it.", g.Name)
	return nil
}

// playerResume handles a player's RESUME: a game its players paused may
// be resumed by any of them, as the master's pause by the master only.
func (s *session) playerResume(c *parser.Command) error {
	g := s.game
	switch {
	case s.power == "":
		s.fail(c.Line, "Only the master, or a player of a game its players paused, may RESUME '%s'.", g.Name)
		return nil
	case g.Status != state.Paused:
		s.fail(c.Line, "Game '%s' is not paused.", g.Name)
		return nil
	case !g.PlayersPaused:
		s.fail(c.Line, "The master paused '%s': only the master may resume it.", g.Name)
		return nil
	}
	if p := s.survivor(c, "resume the game"); p == nil {
		return nil
	}
	return s.resume(s.power)
}

// resume starts the clock of the paused session's game again, with a
// fresh deadline from now (never earlier than the one it had), and tells
// everyone; by is the power that resumed it, "" for the master.
func (s *session) resume(by string) error {
	g, m := s.game, s.m
	g.Status, g.PlayersPaused, s.dirty = state.Active, false, true
	m.RestartClock(g, s.now)
	m.OrdersChanged(g, s.now)
	if err := m.SendGame(s.tx, s.now, g, "resumed", engine.ControlData{HeadLines: m.Head(g), By: by}, m.Recipients(g)); err != nil {
		return err
	}
	s.printf("Game '%s' is resumed; the deadline is %s.", g.Name, engine.FormatDate(g, g.Deadline))
	return nil
}

// cmdExtend handles EXTEND hours: the player's power moves the current
// phase's deadline on by that many hours, at most maxExtend, once a
// phase, and as many times in the game as the master allowed (SET
// EXTENSIONS). A deadline already past is extended from now. Everyone
// is told, and which power asked.
func (s *session) cmdExtend(c *parser.Command) error {
	g, m := s.game, s.m
	max := int(maxExtend / time.Hour)
	if g.Settings.Extensions == 0 {
		s.fail(c.Line, "The master of '%s' allows no extensions (SET EXTENSIONS).", g.Name)
		return nil
	}
	p := s.survivor(c, "EXTEND a deadline")
	if p == nil {
		return nil
	}
	hours, err := 0, fmt.Errorf("no hours")
	if len(c.Args) > 0 {
		hours, err = strconv.Atoi(strings.TrimSuffix(strings.ToLower(c.Args[0]), "h"))
	}
	switch {
	case err != nil || len(c.Args) > 2 || len(c.Args) == 2 && !isHoursWord(c.Args[1]):
		s.fail(c.Line, "Use: EXTEND hours, from 1 to %d: EXTEND 24.", max)
		return nil
	case hours < 1 || hours > max:
		s.fail(c.Line, "An extension is from 1 to %d hours: %d is not.", max, hours)
		return nil
	case g.Status != state.Active:
		s.fail(c.Line, "Game '%s' is paused: there is no deadline to extend.", g.Name)
		return nil
	case p.ExtendTurn == g.Turn+1:
		s.fail(c.Line, "%s has extended this phase's deadline already: once a phase.", s.power)
		return nil
	case p.Extended >= g.Settings.Extensions:
		s.fail(c.Line, "%s has used its %d %s in this game.", s.power, g.Settings.Extensions, report.Plural(g.Settings.Extensions, "extension", "extensions"))
		return nil
	}
	d := time.Duration(hours) * time.Hour
	from := g.Deadline
	if from.Before(s.now) {
		from = s.now
	}
	m.SetDeadline(g, from.Add(d), s.now)
	m.OrdersChanged(g, s.now)
	p.Extended, p.ExtendTurn, s.dirty = p.Extended+1, g.Turn+1, true
	left := g.Settings.Extensions - p.Extended
	s.printf("The deadline of '%s' is now %s; everyone was told. %s has %d %s left in this game.",
		g.Name, engine.FormatDate(g, g.Deadline), s.power, left, report.Plural(left, "extension", "extensions"))
	return m.SendGame(s.tx, s.now, g, "deadline", engine.ControlData{
		HeadLines: m.Head(g), What: "Deadline", When: g.Deadline, Len: engine.SpellLength(d), By: s.power,
	}, m.Recipients(g))
}

// isHoursWord reports whether w is the unit after EXTEND's number:
// "EXTEND 24 hours".
func isHoursWord(w string) bool {
	switch strings.ToLower(w) {
	case "h", "hour", "hours":
		return true
	}
	return false
}
