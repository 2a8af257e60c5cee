package session

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// The master's commands for the clock and the history. G1's dispatcher
// calls them only for the game's signed-on master. A command the master
// got wrong is reported in the reply and the rest of the mail goes on;
// the error result is for failures of the judge itself, which abort the
// mail's transaction.

// takeover gives the abandoned (or civil-disorder) seat at g.Players[i]
// to the session's sender, with passHash as its password, and tells
// everyone. When no seat is left abandoned, the current phase gets a fresh
// deadline counted from now (never earlier than the one it had), so the
// new player has a whole phase to catch up; but not for a player coming
// back, nor twice in a phase for one seat.
//
// njudge also sets WAIT for every player after a takeover (ml_signon.c),
// so that nothing is processed before the deadline. gmd does not: WAIT is
// each player's own choice, and a phase whose orders are all in may go on
// once the newcomer has sent theirs.
//
// A player who comes back to their own seat (from the address it had) is
// returning, not taking over: they keep their late count, absences and
// the date they joined, and everyone is told that they are back.
func (s *session) takeover(i int, passHash []byte) error {
	g, m := s.game, s.m
	p := &g.Players[i]
	returned := engine.SameAddr(p.Addr, s.in.From)
	m.Event(s.tx, g, m.PhaseOf(g), engine.EventTakeover, "power", p.Power, "was", view.StatusWord(p.Status))
	p.Addr, p.PassHash, p.Status = s.in.From, passHash, state.Playing
	p.Empty = false // held at last (FORCE BEGIN left it empty)
	botHeld := p.Bot
	p.Bot = false // the bot plays it no more (SET BOT)
	engine.ClearVotes(p)
	if !returned {
		p.Late, p.Absences, p.Joined = 0, nil, s.now.UTC()
		// Orders written ahead are the plan of whoever wrote them: a
		// new holder neither inherits them nor reads them in a notice.
		delete(g.Future, p.Power)
		if err := engine.LogSeat(s.tx, g, p, state.SeatTakeover, m.PhaseOf(g), s.now); err != nil {
			return err
		}
	}
	s.dirty = true

	var waiting []string
	for j := range g.Players {
		if g.Players[j].Status == state.Abandoned {
			waiting = append(waiting, g.Players[j].Power)
		}
	}
	// A return moves no deadline: RESIGN and SIGNON again, three times,
	// once kept S1901M of a 72-hour game open for 9 days. A new player
	// gets a fresh deadline once per seat and phase, so that two
	// addresses taking the seat in turn cannot do the same.
	restarted := g.Status == state.Active && len(waiting) == 0 && !returned && p.ClockTurn != g.Turn+1
	if restarted {
		p.ClockTurn = g.Turn + 1
		m.RestartClock(g, s.now)
	}
	data := engine.TakeoverData{HeadLines: m.Head(g), Power: p.Power, Addr: engine.ShownAddr(g, p.Addr), Returned: returned, Restarted: restarted, Waiting: waiting, Bot: botHeld}
	return m.SendGame(s.tx, s.now, g, "takeover", data, m.Recipients(g))
}

// cmdProcess handles PROCESS [phase]: the current phase is processed now,
// with the orders there are. A phase named ("PROCESS S1901M" or "PROCESS
// Spring 1901 Movement") must be the current one, a guard against
// processing twice.
func (s *session) cmdProcess(c *parser.Command) error {
	g := s.game
	if !s.playable(c) {
		return nil
	}
	cur, err := engine.CurrentPhase(g)
	if err != nil {
		return err
	}
	if len(c.Args) > 0 {
		want, err := parsePhaseArgs(c.Args)
		if err != nil {
			s.fail(c.Line, "%v.", err)
			return nil
		}
		if want != cur {
			s.fail(c.Line, "The current phase of '%s' is %s, not %s: nothing was processed.", g.Name, cur, want)
			return nil
		}
	}
	if err := s.m.ProcessPhase(s.tx, g, s.now); err != nil {
		return err
	}
	s.dirty = true
	s.printf("Phase %s of '%s' processed; the results went to everyone.", cur, g.Name)
	return nil
}

// cmdPredict handles PREDICT: the pending orders are adjudicated as if
// the phase were processed now, and the results go to the master alone,
// in a mail of their own. Nothing is stored.
func (s *session) cmdPredict(c *parser.Command) error {
	g := s.game
	if !s.playable(c) {
		return nil
	}
	pos, rules, err := s.m.Position(g)
	if err != nil {
		return err
	}
	res := judge.Adjudicate(pos, s.m.PendingOrders(g, pos), rules)
	text, err := engine.ResultsText(g.Name, g.Turn+1, pos, res)
	if err != nil {
		return err
	}
	data := engine.PredictData{HeadLines: s.m.HeadFor(g, pos.Phase), Results: text}
	for _, r := range mustPowerRefs(g, s.m.Survey(g, pos).Missing) {
		data.Missing = append(data.Missing, r.Name)
	}
	// To the sender, who signed on with the master's password: the
	// prediction shows every power's orders, so it goes nowhere else.
	if err := s.m.Send(s.tx, s.now, "predict", data, []string{s.in.From}, s.in.MessageID); err != nil {
		return err
	}
	s.printf("The predicted results of %s were sent to you in a separate mail; nothing was processed.", pos.Phase)
	return nil
}

// cmdRollback handles ROLLBACK [phase]: the game goes back to the start of
// the named processed phase (the last one if none is named), as it was
// before its orders; its history from that phase on is deleted, the
// pending orders, WAIT and draw votes are cleared, and the phase gets a
// fresh deadline. A finished game is played again from there.
func (s *session) cmdRollback(c *parser.Command) error {
	g, m := s.game, s.m
	if g.Status == state.Forming {
		s.fail(c.Line, "Game '%s' has not started.", g.Name)
		return nil
	}
	phases, err := s.tx.Phases(g.Name)
	if err != nil {
		return err
	}
	if len(phases) == 0 {
		s.fail(c.Line, "No phase of '%s' has been processed: there is nothing to roll back.", g.Name)
		return nil
	}
	if g.Revealed {
		// REVEAL told everyone who played which power; a rollback
		// would make the game anonymous again in name only, and put
		// a live game's players in every listing.
		s.fail(c.Line, "The players of gunboat game '%s' were revealed: it cannot be rolled back, since nobody can be made to forget who played which power.", g.Name)
		return nil
	}
	rec := phases[len(phases)-1]
	if len(c.Args) > 0 {
		want, err := parsePhaseArgs(c.Args)
		if err != nil {
			s.fail(c.Line, "%v.", err)
			return nil
		}
		rec = nil
		for _, r := range slices.Backward(phases) {
			if p, err := judge.ParsePhase(r.Phase); err == nil && p == want {
				rec = r
				break
			}
		}
		if rec == nil {
			s.fail(c.Line, "Phase %s of '%s' has not been processed: the processed phases are %s.", want, g.Name, phaseList(phases))
			return nil
		}
	}
	pos, rules, err := jsonpos.DecodePosition(rec.Position)
	if err != nil {
		return fmt.Errorf("game %s: history of %s: %w; %w", g.Name, rec.Phase, err, state.ErrDamaged)
	}
	if err := s.tx.DeletePhasesFrom(g.Name, rec.Turn); err != nil {
		return err
	}
	// The pending orders go, and their texts as written with them; the
	// history records deleted above took the later phases' texts.
	g.Position, g.Turn, g.Orders, g.Written = rec.Position, rec.Turn-1, nil, nil
	g.PressSent = nil // the phase is played again, with its limit on press
	g.Proxies = nil   // handed for the phase rolled away, like its orders
	if g.Status == state.Finished {
		g.Status, g.Result = state.Active, ""
	}
	reviveSeats(g, pos)
	for i := range g.Players {
		engine.ClearVotes(&g.Players[i])
	}
	if g.Status == state.Active {
		// The bot's seats get its orders again, as at the phase's
		// start: the same, since its seed is the game's and the phase's.
		m.EnterBots(g, pos, rules)
		m.StartClockFor(g, pos.Phase.Type, s.now)
		m.Refresh(g, pos, s.now)
	}
	s.dirty = true
	data := engine.ControlData{HeadLines: m.HeadFor(g, pos.Phase), Back: pos.Phase.String(),
		Title: report.Season(pos.Phase), What: pos.Phase.Type.String()}
	if err := m.SendGame(s.tx, s.now, g, "rollback", data, m.Recipients(g)); err != nil {
		return err
	}
	s.printf("Game '%s' rolled back to %s; everyone was told.", g.Name, pos.Phase)
	return nil
}

// reviveSeats gives back their seats to the players of powers that were
// eliminated later than pos.
func reviveSeats(g *state.Game, pos *judge.Position) {
	centers, units := pos.CenterCount(), pos.UnitCount()
	for i := range g.Players {
		p := &g.Players[i]
		if p.Status != state.Eliminated {
			continue
		}
		if pw, ok := pos.Map.PowerByName(p.Power); ok && centers[pw]+units[pw] > 0 {
			p.Status = state.Playing
		}
	}
}

// phaseList names the processed phases for an error message.
func phaseList(phases []*state.PhaseRecord) string {
	names := make([]string, len(phases))
	for i, r := range phases {
		names[i] = r.Phase
	}
	return strings.Join(names, ", ")
}

// cmdPause handles PAUSE: the clock stops; no reminder, deadline or
// processing until RESUME.
func (s *session) cmdPause(c *parser.Command) error {
	g := s.game
	if !s.master {
		return s.playerPause(c)
	}
	if g.Status != state.Active {
		s.fail(c.Line, "Only a game being played can be paused; '%s' is %s.", g.Name, g.Status)
		return nil
	}
	g.Status, g.Wake, s.dirty = state.Paused, time.Time{}, true
	for i := range g.Players {
		g.Players[i].Pause = false // the players' requests are met
	}
	if err := s.m.SendGame(s.tx, s.now, g, "paused", engine.ControlData{HeadLines: s.m.Head(g)}, s.m.Recipients(g)); err != nil {
		return err
	}
	s.printf("Game '%s' is paused.", g.Name)
	return nil
}

// cmdResume handles RESUME: the clock runs again, and the current phase
// gets a fresh deadline from now (never earlier than the one it had).
func (s *session) cmdResume(c *parser.Command) error {
	g := s.game
	if !s.master {
		return s.playerResume(c)
	}
	if g.Status != state.Paused {
		s.fail(c.Line, "Game '%s' is not paused.", g.Name)
		return nil
	}
	return s.resume("")
}

// cmdTerminate handles TERMINATE: the game ends as it stands, and everyone
// gets the final summary.
func (s *session) cmdTerminate(c *parser.Command) error {
	g, m := s.game, s.m
	if g.Status != state.Active && g.Status != state.Paused {
		s.fail(c.Line, "Game '%s' is %s: only a game being played can be terminated.", g.Name, g.Status)
		return nil
	}
	pos, _, err := m.Position(g)
	if err != nil {
		return err
	}
	if err := m.EndGame(s.tx, g, "terminated", s.now); err != nil {
		return err
	}
	s.dirty = true
	if err := m.SendGame(s.tx, s.now, g, "terminated", engine.ControlData{HeadLines: m.HeadFor(g, pos.Phase)}, m.Recipients(g)); err != nil {
		return err
	}
	if err := m.SendGameOver(s.tx, g, pos, s.now); err != nil {
		return err
	}
	s.printf("Game '%s' is terminated.", g.Name)
	return nil
}

// cmdEject handles EJECT power: the power's player loses the seat, which
// becomes abandoned and free for takeover. The player gets the notice
// too, since an abandoned seat's address no longer gets the game's mail.
// EJECT address removes an observer instead.
func (s *session) cmdEject(c *parser.Command) error {
	g, m := s.game, s.m
	if len(c.Args) == 1 && strings.Contains(c.Args[0], "@") {
		return s.ejectObserver(c, c.Args[0])
	}
	if g.Status != state.Active && g.Status != state.Paused {
		s.fail(c.Line, "Game '%s' is %s: nobody can be ejected.", g.Name, g.Status)
		return nil
	}
	if len(c.Args) == 0 {
		s.fail(c.Line, "Use: EJECT power (its name or letter), or EJECT address for an observer.")
		return nil
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	pw, ok := engine.PowerNamed(mp, c.Args)
	i := -1
	if ok {
		i = engine.PlayerByPower(g, mp.Powers[pw].Name)
	}
	if i < 0 {
		s.fail(c.Line, "There is no power %q in '%s'.", strings.Join(c.Args, " "), g.Name)
		return nil
	}
	p := &g.Players[i]
	if p.Status != state.Playing && p.Status != state.Disorder {
		s.fail(c.Line, "%s is %s in '%s': there is nobody to eject.", p.Power, view.StatusWord(p.Status), g.Name)
		return nil
	}
	to := append(m.Recipients(g), p.Addr)
	p.Status = state.Abandoned
	engine.ClearVotes(p)
	m.Event(s.tx, g, m.PhaseOf(g), engine.EventAbandoned, "power", p.Power, "why", "ejected")
	if err := engine.LogSeat(s.tx, g, p, state.SeatEjected, m.PhaseOf(g), s.now); err != nil {
		return err
	}
	s.dirty = true
	refs, letters := engine.PowerRefs(mp, g, []int{i})
	data := engine.AbandonedData{HeadLines: m.Head(g), Powers: refs, Letters: letters, Ejected: true}
	if err := m.SendGame(s.tx, s.now, g, "abandoned", data, to); err != nil {
		return err
	}
	// The seat keeps its address, which the listings and REVEAL show as
	// who played it, but not its password, and the address is barred:
	// the ejected player cannot sign on with the old password ("welcome
	// back"), nor take the seat over again with a code, until the master
	// lets the address back with ADMIT.
	p.PassHash = nil
	s.bar(p.Addr)
	s.printf("%s is ejected from '%s' and free for takeover; %s may not take a seat in it again unless you ADMIT it.", p.Power, g.Name, p.Addr)
	m.OrdersChanged(g, s.now)
	// The draw may pass without the ejected player's vote.
	return m.CheckDraw(s.tx, g, s.now)
}

// maxBarred bounds Game.Barred; past it the oldest entries go.
const maxBarred = 200

// ejectedData is the data of ejected.tmpl.
type ejectedData struct {
	engine.HeadLines
	Addr string // the observer's address
}

// ejectObserver handles EJECT address: the observer at addr stops
// getting the game's mail and may not observe it again. They are told
// so, once.
func (s *session) ejectObserver(c *parser.Command, addr string) error {
	g := s.game
	i := engine.ObserverByAddr(g, addr)
	if i < 0 {
		s.fail(c.Line, "Nobody observes '%s' from %s.", g.Name, addr)
		return nil
	}
	if s.coMaster && coMasterSeat(g, addr) >= 0 {
		// Who masters the game is its creator's to decide.
		s.fail(c.Line, "%s is a co-master of '%s': only its creator may remove them (DEMOTE, then EJECT).", g.Observers[i].Addr, g.Name)
		return nil
	}
	addr = g.Observers[i].Addr
	g.Observers = slices.Delete(g.Observers, i, i+1)
	s.bar(addr)
	s.printf("%s no longer observes '%s', and may not observe it again.", addr, g.Name)
	return s.m.Send(s.tx, s.now, "ejected", ejectedData{HeadLines: s.m.Head(g), Addr: addr}, []string{addr}, "")
}

// bar adds addr to the session's game's Barred: the addresses the master
// removed, which may neither observe the game nor take a seat of it.
func (s *session) bar(addr string) {
	g := s.game
	if addr = strings.ToLower(addr); !slices.Contains(g.Barred, addr) {
		g.Barred = append(g.Barred, addr)
	}
	if n := len(g.Barred); n > maxBarred {
		g.Barred = slices.Delete(g.Barred, 0, n-maxBarred)
	}
	s.dirty = true
}

// barred reports whether the master removed addr from g (Game.Barred).
func barred(g *state.Game, addr string) bool {
	return slices.Contains(g.Barred, strings.ToLower(strings.TrimSpace(addr)))
}

// cmdAdmit handles ADMIT address: the master lets an address that EJECT
// removed take a seat of the game again (a takeover, with a code mailed
// to it and a new password) or observe it.
func (s *session) cmdAdmit(c *parser.Command) error {
	g := s.game
	if len(c.Args) != 1 || !strings.Contains(c.Args[0], "@") {
		s.fail(c.Line, "Use: ADMIT address, an address that EJECT removed from the game.")
		return nil
	}
	addr := strings.ToLower(c.Args[0])
	if !barred(g, addr) {
		s.fail(c.Line, "%s was not removed from '%s': there is nothing to admit.", c.Args[0], g.Name)
		return nil
	}
	g.Barred = slices.DeleteFunc(g.Barred, func(a string) bool { return a == addr })
	s.dirty = true
	s.printf("%s may take a seat in '%s' again, or observe it: a takeover needs a new password and a code mailed to it.", addr, g.Name)
	return nil
}

// cmdSetClock handles the master's SET DEADLINE, SET GRACE, SET
// MOVEMENT/RETREAT/ADJUSTMENT (a length, or CLOCK and DAYS: see
// setDeadlineTimes) and SET REMINDER. A new deadline applies
// to the current phase, announced as a "Deadline Adjustment"; a new grace
// applies to it too ("Grace Adjustment"); new phase lengths apply from the
// next phase on; a new reminder time from the next reminder on.
func (s *session) cmdSetClock(c *parser.Command) error {
	g, m := s.game, s.m
	if len(c.Args) == 0 {
		s.fail(c.Line, "SET what?")
		return nil
	}
	word, value := strings.ToUpper(c.Args[0]), strings.Join(c.Args[1:], " ")
	if value == "" {
		s.fail(c.Line, "SET %s needs a value.", word)
		return nil
	}
	if (g.Status == state.Forming || g.Status == state.Finished) && word == "DEADLINE" {
		s.fail(c.Line, "Game '%s' has no deadline now.", g.Name)
		return nil
	}
	st := &g.Settings
	switch word {
	case "DEADLINE":
		d, err := engine.ParseDeadline(value, engine.ZoneOf(g), s.now)
		if err != nil {
			s.fail(c.Line, "%v.", err)
			return nil
		}
		if !d.After(s.now) {
			s.fail(c.Line, "The deadline %s is not in the future.", engine.FormatDate(g, d))
			return nil
		}
		if d.After(engine.LatestDate(s.now)) {
			s.fail(c.Line, "The deadline %s is more than a year ahead.", engine.FormatDate(g, d))
			return nil
		}
		m.SetDeadline(g, d, s.now)
		m.OrdersChanged(g, s.now)
		s.dirty = true
		s.printf("The deadline of '%s' is now %s.", g.Name, engine.FormatDate(g, g.Deadline))
		return m.SendGame(s.tx, s.now, g, "deadline", engine.ControlData{HeadLines: m.Head(g), What: "Deadline", When: g.Deadline}, m.Recipients(g))
	case "GRACE":
		d, err := engine.ParseLength(value)
		if err != nil {
			s.fail(c.Line, "%v.", err)
			return nil
		}
		if msg := refuseLength(lengthRow("GRACE"), d); msg != "" {
			s.fail(c.Line, "%s.", msg)
			return nil
		}
		st.Grace = state.Duration(d)
		engine.Schedule(g, s.now)
		s.dirty = true
		if g.Status == state.Forming {
			// No deadline yet: the grace is a setting like the others.
			change := fmt.Sprintf("The grace is now %s: late orders are waited for that long after each deadline.", engine.SpellLength(d))
			s.printf("%s", change)
			return s.parameterChange(change)
		}
		s.printf("The grace of '%s' is now %s: it ends at %s.", g.Name, engine.SpellLength(d), engine.FormatDate(g, engine.GraceEnd(g)))
		return m.SendGame(s.tx, s.now, g, "deadline", engine.ControlData{HeadLines: m.Head(g), What: "Grace", When: engine.GraceEnd(g), Len: engine.SpellLength(d)}, m.Recipients(g))
	}
	if t, ok := engine.PhaseTypes[word]; ok && engine.IsTimesWord(c.Args[1]) {
		return s.setDeadlineTimes(c, t, c.Args[1:])
	}
	d, err := engine.ParseLength(value)
	if err != nil {
		s.fail(c.Line, "%v.", err)
		return nil
	}
	var (
		what    string
		setting *state.Duration
	)
	switch word {
	case "MOVEMENT", "MOVE", "MOVES":
		setting, what, word = &st.Movement, "Movement phases", "MOVEMENT"
	case "RETREAT", "RETREATS":
		setting, what, word = &st.Retreat, "Retreat phases", "RETREAT"
	case "ADJUSTMENT", "ADJUSTMENTS", "ADJUST", "BUILD", "BUILDS":
		setting, what, word = &st.Adjustment, "Adjustment phases", "ADJUSTMENT"
	case "REMINDER":
		if msg := refuseLength(lengthRow("REMINDER"), d); msg != "" {
			s.fail(c.Line, "%s.", msg)
			return nil
		}
		st.Reminder = state.Duration(d)
		engine.Schedule(g, s.now)
		s.dirty = true
		change := fmt.Sprintf("Reminders now go out %s.", engine.RemindersText(st))
		if d == 0 {
			change = "No more reminders are sent before the deadline."
		}
		s.printf("%s", change)
		return s.parameterChange(change)
	default:
		s.fail(c.Line, "Unknown clock setting SET %s: use DEADLINE, GRACE, MOVEMENT, RETREAT, ADJUSTMENT (a length, or CLOCK hh:mm, DAYS -MTWTF-) or REMINDER.", word)
		return nil
	}
	if msg := refuseLength(lengthRow(word), d); msg != "" {
		s.fail(c.Line, "%s.", msg)
		return nil
	}
	*setting, s.dirty = state.Duration(d), true
	change := fmt.Sprintf("%s now last %s, from the next phase on.", what, engine.SpellLength(d))
	s.printf("%s", change)
	return s.parameterChange(change)
}

// playable reports whether the game can be processed or predicted, and
// says why not in the reply.
func (s *session) playable(c *parser.Command) bool {
	switch s.game.Status {
	case state.Active, state.Paused:
		return true
	case state.Forming:
		s.fail(c.Line, "Game '%s' has not started.", s.game.Name)
	default:
		s.fail(c.Line, "Game '%s' is over.", s.game.Name)
	}
	return false
}

// parsePhaseArgs reads a phase as the master names it: "S1901M", or
// "Spring 1901 Movement" (only the first letters of the season and the
// type count, as in njudge: "F 1901 B" is the Winter adjustments).
func parsePhaseArgs(args []string) (judge.Phase, error) {
	var id string
	switch len(args) {
	case 1:
		id = args[0]
	case 3:
		id = args[0][:1] + args[1] + args[2][:1]
	default:
		return judge.Phase{}, fmt.Errorf("cannot read the phase %q (write S1901M or Spring 1901 Movement)", strings.Join(args, " "))
	}
	p, err := judge.ParsePhase(strings.ToUpper(id))
	if err != nil {
		return judge.Phase{}, fmt.Errorf("cannot read the phase %q (write S1901M or Spring 1901 Movement)", strings.Join(args, " "))
	}
	return p, nil
}

// mustPowerRefs is PowerRefs without the letters, on the game's map.
func mustPowerRefs(g *state.Game, seats []int) []engine.PowerRef {
	refs, _ := engine.PowerRefs(engine.MapOrNil(g), g, seats)
	return refs
}

// setDeadlineTimes handles SET MOVE|RETREAT|ADJUST followed by CLOCK
// hh:mm and DAYS -MTWTF-, one or both. NONE (or -1, njudge's value)
// takes the time of day away, and ALL the restriction on days. Like the
// phase lengths, the new times apply from the next phase on.
func (s *session) setDeadlineTimes(c *parser.Command, t judge.PhaseType, args []string) error {
	use := "Use: SET MOVE CLOCK 21:00, SET MOVE DAYS -MTWTF- (or RETREAT, ADJUST; CLOCK NONE and DAYS ALL take them away)."
	if len(args)%2 != 0 {
		s.fail(c.Line, "SET %s %s needs a value. %s", c.Args[0], strings.ToUpper(args[len(args)-1]), use)
		return nil
	}
	st := &s.game.Settings
	dt := *engine.TimesOf(st, t)
	for i := 0; i < len(args); i += 2 {
		key, value := strings.ToUpper(args[i]), args[i+1]
		switch {
		case key == "CLOCK" && (strings.EqualFold(value, "NONE") || value == "-1"):
			dt.Clock = ""
		case key == "CLOCK":
			clock, err := engine.ParseClock(value)
			if err != nil {
				s.fail(c.Line, "%v.", err)
				return nil
			}
			dt.Clock = fmt.Sprintf("%02d:%02d", int(clock/time.Hour), int(clock%time.Hour/time.Minute))
		case key == "DAYS" && (strings.EqualFold(value, "ALL") || value == engine.DayLetters):
			dt.Days = ""
		case key == "DAYS":
			if _, err := engine.ParseDays(value); err != nil {
				s.fail(c.Line, "%v.", err)
				return nil
			}
			dt.Days = value
		default:
			s.fail(c.Line, "Unknown deadline setting %q. %s", args[i], use)
			return nil
		}
	}
	*engine.TimesOf(st, t) = dt
	s.dirty = true
	what := map[judge.PhaseType]string{judge.Movement: "Movement", judge.Retreat: "Retreat", judge.Adjustment: "Adjustment"}[t]
	change := fmt.Sprintf("%s deadlines may fall at any time, from the next phase on.", what)
	if rule := engine.RuleOf(st, t).Describe(); rule != "" {
		change = fmt.Sprintf("%s deadlines now fall %s (%s time), from the next phase on.", what, rule, engine.ZoneOf(s.game))
	}
	s.printf("%s", change)
	return s.parameterChange(change)
}
