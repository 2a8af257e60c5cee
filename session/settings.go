package session

import (
	"fmt"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // SET ZONE must work on hosts without a zone database

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// maxAbsences is how many absences a player may have pending, and
// maxAbsence how long one may be: njudge's limits, so that nobody can
// hold a game back for long.
const (
	maxAbsences = 3
	maxAbsence  = 15 * 24 * time.Hour
)

// lengthRow returns the row of the SET table for the length of time
// setting (MOVEMENT, RETREAT, ADJUSTMENT, GRACE, REMINDER).
func lengthRow(setting string) parser.SetOption {
	o, ok := parser.LookupSetOption(setting)
	if !ok || o.Max == 0 {
		panic("gm: no length limit for " + setting)
	}
	return o
}

// refuseLength returns why d cannot be set as the length of option o,
// naming the bound it is past, or "".
func refuseLength(o parser.SetOption, d time.Duration) string {
	switch {
	case d == 0 && o.Off:
		return ""
	case d < o.Min:
		return fmt.Sprintf("%s lasts at least %s: %s is too short (%s)", engine.Capitalize(o.What), engine.SpellLength(o.Min), engine.SpellLength(d), lengthBounds(o))
	case d > o.Max:
		return fmt.Sprintf("%s lasts at most %s: %s is too long (%s)", engine.Capitalize(o.What), engine.SpellLength(o.Max), engine.SpellLength(d), lengthBounds(o))
	}
	return ""
}

// lengthBounds writes the range of o's length: "1 hour to 30 days", "0
// (none), or 15 minutes to 14 days".
func lengthBounds(o parser.SetOption) string {
	s := engine.SpellLength(o.Min) + " to " + engine.SpellLength(o.Max)
	if o.Off {
		s = "0 (none), or " + s
	}
	return s
}

// lengthHelp writes the bounds of every length of the SET table for
// HELP, one setting a line: "  SET MOVEMENT  1 hour to 30 days".
func lengthHelp() string {
	var b strings.Builder
	for _, o := range parser.SetOptions() {
		if o.Max > 0 {
			fmt.Fprintf(&b, "  SET %-11s %s\n", o.Name, lengthBounds(o))
		}
	}
	return b.String()
}

// setHandler carries out one option of SET, given the option as written
// (word, in upper case) and the words after it. The master's options are
// checked for the master and a game not over before their handler runs.
type setHandler func(s *session, c *parser.Command, word string, args []string) error

// setHandlers are the handlers of the SET table's options, keyed by the
// rows' names; a test holds the two to one another.
var setHandlers = map[string]setHandler{
	"PASSWORD":   func(s *session, c *parser.Command, _ string, args []string) error { return s.cmdSetPassword(c, args) },
	"WAIT":       func(s *session, c *parser.Command, _ string, _ []string) error { return s.setWait(c, true) },
	"NOWAIT":     func(s *session, c *parser.Command, _ string, _ []string) error { return s.setWait(c, false) },
	"DRAW":       func(s *session, c *parser.Command, _ string, args []string) error { return s.setDraw(c, true, args) },
	"NODRAW":     func(s *session, c *parser.Command, _ string, args []string) error { return s.setDraw(c, false, args) },
	"ABSENCE":    func(s *session, c *parser.Command, _ string, args []string) error { return s.setAbsence(c, args) },
	"NOABSENCE":  func(s *session, c *parser.Command, _ string, _ []string) error { return s.clearAbsences(c) },
	"PREFERENCE": func(s *session, c *parser.Command, _ string, args []string) error { return s.setPreference(c, args) },
	"MAP":        func(s *session, c *parser.Command, _ string, args []string) error { return s.setMyMap(c, true, args) },
	"NOMAP":      func(s *session, c *parser.Command, _ string, args []string) error { return s.setMyMap(c, false, args) },
	"NMR": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.NMR = true
		return "NMR: a power that misses the end of grace goes into civil disorder and the game goes on.", true
	}),
	"NONMR": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.NMR = false
		return "NoNMR: the game waits for a replacement for a power that misses the end of grace.", true
	}),
	"PRESS": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
		if len(args) != 1 {
			if slices.ContainsFunc(args, func(w string) bool { return strings.EqualFold(w, "MOVEMENT") }) {
				// The words of issue 24's example, for njudge's option.
				s.fail(c.Line, "Press during movement phases only is SET NO MINOR PRESS, njudge's words, before the start.")
				return "", false
			}
			s.fail(c.Line, "Use: SET PRESS WHITE, SET PRESS GREY or SET PRESS NONE.")
			return "", false
		}
		switch strings.ToUpper(args[0]) {
		case "WHITE":
			return setPress(st, "white"), true
		case "GREY", "GRAY":
			return setPress(st, "grey"), true
		case "NONE", "NO":
			return setPress(st, "none"), true
		}
		s.fail(c.Line, "Unknown press setting %q: use WHITE, GREY or NONE.", args[0])
		return "", false
	}),
	"WHITE": gameSetting(func(_ *session, _ *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		return setPress(st, "white"), true
	}),
	"GREY": gameSetting(func(_ *session, _ *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		return setPress(st, "grey"), true
	}),
	"NOPRESS": gameSetting(func(_ *session, _ *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		return setPress(st, "none"), true
	}),
	"PARTIAL": gameSetting(func(_ *session, _ *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Partial = true
		return "Partial press is allowed: press may go to some powers only.", true
	}),
	"NOPARTIAL": gameSetting(func(_ *session, _ *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Partial = false
		return "Partial press is not allowed: press between powers must be broadcast.", true
	}),
	"MULTIPLE": gameSetting(func(_ *session, _ *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Multiple = true
		return "One address may now hold more than one seat, the master's included.", true
	}),
	"NOMULTIPLE": gameSetting(func(_ *session, _ *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Multiple = false
		return "One address may hold one seat only, and the master's address none other (seats already held stay).", true
	}),
	"GUNBOAT": gameSetting(func(s *session, c *parser.Command, _ *state.GameSettings, _ []string) (string, bool) {
		return s.setGunboat(c, true)
	}),
	"NOGUNBOAT": gameSetting(func(s *session, c *parser.Command, _ *state.GameSettings, _ []string) (string, bool) {
		return s.setGunboat(c, false)
	}),
	"GAMEMAP": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
		switch strings.ToUpper(strings.Join(args, " ")) {
		case "ON", "YES":
			st.NoMap = false
			return "The results mails carry the map of the phase again (a player may still SET NOMAP).", true
		case "OFF", "NO", "NONE":
			st.NoMap = true
			return "The results mails no longer carry the map of the phase.", true
		}
		s.fail(c.Line, "Use: SET MAP ON or SET MAP OFF, for the whole game.")
		return "", false
	}),
	"ZONE": gameSetting(func(s *session, c *parser.Command, st *state.GameSettings, args []string) (string, bool) {
		if len(args) != 1 {
			s.fail(c.Line, "Use: SET ZONE Area/City, for example SET ZONE Europe/Paris.")
			return "", false
		}
		loc, err := time.LoadLocation(args[0])
		if err != nil || args[0] == "Local" || args[0] == "" {
			s.fail(c.Line, "Unknown time zone %q: use an IANA zone name like Europe/Paris or America/New_York.", args[0])
			return "", false
		}
		st.Zone = loc.String()
		return "Times are now shown in the zone " + st.Zone + ".", true
	}),
	"DEADLINE":   setClock,
	"MOVEMENT":   setClock,
	"RETREAT":    setClock,
	"ADJUSTMENT": setClock,
	"GRACE":      setClock,
	"REMINDER":   setClock,
	"BUILD": func(s *session, c *parser.Command, word string, args []string) error {
		if rule, ok := buildRuleArg(args); ok {
			return s.setBuilds(c, rule)
		}
		return setClock(s, c, word, args)
	},
}

// setClock is the handler of the options of the game's clock
// (cmdSetClock).
func setClock(s *session, c *parser.Command, _ string, _ []string) error {
	s.dirty = true
	return s.cmdSetClock(c)
}

// setPress sets the game's press to press ("white", "grey" or "none")
// and says so.
func setPress(st *state.GameSettings, press string) string {
	st.Press = press
	switch press {
	case "white":
		return "Press is white: every press says who sent it."
	case "grey":
		return "Press is grey: press between powers does not say who sent it."
	}
	return "There is no press between powers (press to and from the master is still allowed)."
}

// gameSetting makes the handler of a setting of the game from set, which
// changes the settings and returns the change in a sentence, or reports
// why it cannot (ok false). A setting that was already so changes
// nothing and tells nobody; any other is noted for the mail's one
// "Parameter Change" notice.
func gameSetting(set func(s *session, c *parser.Command, st *state.GameSettings, args []string) (change string, ok bool)) setHandler {
	return func(s *session, c *parser.Command, _ string, args []string) error {
		st := &s.game.Settings
		before := *st
		change, ok := set(s, c, st, args)
		if !ok {
			return nil
		}
		if *st == before {
			s.printf("%s It already was: nothing changed.", change)
			return nil
		}
		s.dirty = true
		s.printf("%s", change)
		return s.parameterChange(change)
	}
}

// setSecret is the secretRule of SET. After a password option, in any
// of its spellings, every word is hidden, and so is what was glued to
// the option ("PASSWORD:new"). After an unknown option, which may be a
// password option misspelt, so are the words after it and what is glued
// to it ("PASWORD:new"). When a password
// option comes after another word, the words are out of order ("SET new
// PASSWORD"), and every word is hidden.
func setSecret(_ *session, args []string) ([]bool, bool, string, error) {
	opt, _, _, ok := parser.ReadSetOption(args)
	if len(args) == 0 || ok && opt.Name != "PASSWORD" && opt.Name != "JOIN" {
		return nil, false, "", nil
	}
	first := strings.ContainsAny(args[0], ":=")
	for _, w := range args[1:] {
		if o, _, _, _ := parser.ReadSetOption([]string{w}); o.Name == "PASSWORD" {
			first = true
		}
	}
	hide := make([]bool, len(args))
	for i := range hide {
		hide[i] = i > 0 || first
	}
	return hide, false, "", nil
}

// cmdSet handles every SET command: the SET table names the option and
// who may set it, setHandlers carries it out.
func (s *session) cmdSet(c *parser.Command) error {
	if len(c.Args) == 0 {
		s.fail(c.Line, "SET what? The options are %s.", parser.SetList())
		return nil
	}
	opt, word, args, ok := parser.ReadSetOption(c.Args)
	if !ok {
		if hide, _, _, _ := setSecret(s, c.Args); hide[0] {
			word = hiddenWord // it may be a password
		}
		s.fail(c.Line, "Unknown option SET %s. The options are %s.", word, parser.SetList())
		return nil
	}
	if opt.Name == "MAP" && len(args) > 0 {
		// SET MAP ON|OFF is the master's, for the whole game.
		opt, _ = parser.LookupSetOption("GAMEMAP")
	}
	if opt.Who == parser.Master {
		if !s.master {
			s.fail(c.Line, "Only the master of '%s' may SET %s.", s.game.Name, word)
			return nil
		}
		if s.game.Status == state.Finished {
			s.fail(c.Line, "Game '%s' is over.", s.game.Name)
			return nil
		}
	}
	return setHandlers[opt.Name](s, c, word, args)
}

// setMyMap handles SET NOMAP and SET MAP without a word after it: the
// map of the board in the game's mails to the sender's address, whoever
// signed on (a player, an observer or the master), from the next mail
// on.
func (s *session) setMyMap(c *parser.Command, on bool, args []string) error {
	if len(args) > 0 {
		s.fail(c.Line, "Use SET NOMAP or SET MAP alone: they are for you. The master sets the game's with SET MAP ON or SET MAP OFF.")
		return nil
	}
	g := s.game
	addr := strings.ToLower(strings.TrimSpace(s.in.From))
	had := !slices.ContainsFunc(g.NoMap, func(a string) bool { return engine.SameAddr(a, addr) })
	g.NoMap = slices.DeleteFunc(g.NoMap, func(a string) bool { return engine.SameAddr(a, addr) })
	if !on {
		g.NoMap = append(g.NoMap, addr)
	}
	s.dirty = s.dirty || had != on
	switch {
	case !on:
		s.printf("NOMAP set: your mails from '%s' will come without the map of the board. SET MAP brings it back.", g.Name)
	case g.Settings.NoMap:
		s.printf("MAP set: you will get the map of the board, but the master of '%s' has turned the maps off for the game (SET MAP OFF).", g.Name)
	default:
		s.printf("MAP set: your results from '%s' will carry the map of the board.", g.Name)
	}
	return nil
}

// buildRuleArg reads the words after SET BUILD when they name a build
// rule (HOME, ONE or ANY, optionally followed by CENTRES), rather than the
// length or times of the adjustment phase, which SET BUILD also sets.
func buildRuleArg(args []string) (judge.BuildRule, bool) {
	if len(args) == 0 || len(args) > 2 {
		return judge.BuildsOfMap, false
	}
	if len(args) == 2 {
		switch strings.ToUpper(args[1]) {
		case "CENTRES", "CENTERS", "CENTRE", "CENTER":
		default:
			return judge.BuildsOfMap, false
		}
	}
	r, err := judge.ParseBuildRule(args[0])
	return r, err == nil
}

// setBuilds handles SET BUILD HOME|ONE|ANY: where powers may build, fixed
// once the game has started since every Winter must be played by one
// rule.
func (s *session) setBuilds(c *parser.Command, rule judge.BuildRule) error {
	g := s.game
	if g.Status != state.Forming {
		s.fail(c.Line, "The build rule of '%s' is fixed once the game has started.", g.Name)
		return nil
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	change := fmt.Sprintf("Builds (SET BUILD %s): a power builds %s.", strings.ToUpper(rule.String()), rule.Describe())
	if mp.Builds != rule {
		change += fmt.Sprintf(" The %s variant's own rule is %s.", mp.Title, strings.ToUpper(mp.Builds.String()))
	}
	if g.Settings.Builds == rule.String() {
		s.printf("%s It already was: nothing changed.", change)
		return nil
	}
	g.Settings.Builds, s.dirty = rule.String(), true
	s.printf("%s", change)
	return s.parameterChange(change)
}

// settingData is the data of setting.tmpl, the "Parameter Change" notice.
type settingData struct {
	Header engine.Header
	Tag    string // "GMD:dt - S1901M"
	Game   string
	Change string // what changed: a sentence, or several, a paragraph each
}

// parameterChange notes that the master changed a setting, in a
// sentence, for the one "Parameter Change" notice of the mail
// (announceChanges): njudge tells the game of every SET but the personal
// ones, and a master who sends four SET lines in one mail means one
// notice, not four.
func (s *session) parameterChange(change string) error {
	s.changes = append(s.changes, change)
	return nil
}

// announceChanges sends the one "Parameter Change" notice of the mail to
// everyone in the game, listing every change the mail made, each as a
// paragraph of its own, in the order of the SET lines.
func (s *session) announceChanges() error {
	g := s.game
	if len(s.changes) == 0 || g == nil {
		return nil
	}
	change := strings.Join(s.changes, "\n\n")
	s.changes = nil
	return s.m.SendGame(s.tx, s.now, g, "setting", settingData{
		Header: s.m.Header(g), Tag: s.m.SubjectTag(g), Game: g.Name, Change: change,
	}, s.m.Recipients(g))
}

// seat returns the signed-on player's seat in a game being played, or
// reports why there is none.
func (s *session) seat(c *parser.Command, what string) *state.Player {
	g := s.game
	switch {
	case s.power == "" || s.master:
		s.fail(c.Line, "Only a player signed on as a power may %s.", what)
		return nil
	case g.Status == state.Forming:
		s.fail(c.Line, "Game '%s' has not started.", g.Name)
		return nil
	case g.Status == state.Finished:
		s.fail(c.Line, "Game '%s' is over.", g.Name)
		return nil
	}
	return &g.Players[engine.PlayerByPower(g, s.power)]
}

// setWait handles SET WAIT and SET NOWAIT.
func (s *session) setWait(c *parser.Command, on bool) error {
	p := s.seat(c, "SET WAIT")
	if p == nil {
		return nil
	}
	p.Wait, s.dirty = on, true
	if on {
		s.printf("WAIT set: '%s' will not be processed before its deadline.", s.game.Name)
	} else {
		s.printf("WAIT cleared: '%s' may be processed as soon as all orders are in.", s.game.Name)
	}
	s.m.OrdersChanged(s.game, s.now)
	return nil
}

// setDraw handles SET DRAW and SET NODRAW. Alone, the vote is for a
// draw of all the surviving powers; with powers, in a game without DIAS,
// for a draw among them (drawWith). It stays secret.
func (s *session) setDraw(c *parser.Command, on bool, args []string) error {
	p := s.survivor(c, "vote for a draw")
	if p == nil {
		return nil
	}
	if len(args) > 0 && on {
		return s.drawWith(c, p, args)
	}
	if len(args) > 0 {
		s.fail(c.Line, "Use SET NODRAW alone.")
		return nil
	}
	p.Draw, p.DrawWith, s.dirty = on, nil, true
	if !on {
		s.printf("You no longer vote for a draw.")
		return nil
	}
	s.printf("You vote for a draw of all surviving powers. The game is drawn when every one of them votes for it;")
	s.printf("votes are secret and are cleared each time a phase is processed.")
	return s.m.CheckDraw(s.tx, s.game, s.now)
}

// setAbsence handles SET ABSENCE from [TO to]: a planned absence during
// which no deadline falls. Dates are read in the game's time zone; an
// absence runs from the start of its first day to the end of its last.
func (s *session) setAbsence(c *parser.Command, args []string) error {
	p := s.seat(c, "SET ABSENCE")
	if p == nil {
		return nil
	}
	fromText, toText := strings.Join(args, " "), ""
	for i, a := range args {
		if strings.EqualFold(a, "TO") {
			fromText, toText = strings.Join(args[:i], " "), strings.Join(args[i+1:], " ")
			break
		}
	}
	if toText == "" {
		toText = fromText
	}
	loc := engine.ZoneOf(s.game)
	from, err := parseDate(fromText, loc, s.now)
	if err != nil {
		s.fail(c.Line, "%v. Use: SET ABSENCE 24 Dec TO 2 Jan (or 2026-12-24).", err)
		return nil
	}
	to, err := parseDate(toText, loc, from)
	if err != nil {
		s.fail(c.Line, "%v. Use: SET ABSENCE 24 Dec TO 2 Jan (or 2026-12-24).", err)
		return nil
	}
	to = to.AddDate(0, 0, 1) // to the end of the last day
	switch {
	case !to.After(s.now):
		s.fail(c.Line, "That absence is over already.")
		return nil
	case to.Sub(from) > maxAbsence:
		s.fail(c.Line, "An absence may last at most %d days.", int(maxAbsence/(24*time.Hour)))
		return nil
	case to.After(engine.LatestDate(s.now)):
		s.fail(c.Line, "An absence must end within a year from now: %s is too far ahead.", engine.FormatDate(s.game, to))
		return nil
	}
	var pending []state.Absence
	for _, a := range p.Absences {
		if a.To.After(s.now) {
			pending = append(pending, a)
		}
	}
	if len(pending) >= maxAbsences {
		s.fail(c.Line, "You already have %d absences pending, the most allowed. SET NOABSENCE clears them.", maxAbsences)
		return nil
	}
	p.Absences, s.dirty = append(pending, state.Absence{From: from.UTC(), To: to.UTC()}), true
	s.printf("Absence noted from %s to %s: no deadline will fall in it.", engine.FormatDate(s.game, from), engine.FormatDate(s.game, to))
	return nil
}

// clearAbsences handles SET NOABSENCE.
func (s *session) clearAbsences(c *parser.Command) error {
	p := s.seat(c, "SET NOABSENCE")
	if p == nil {
		return nil
	}
	p.Absences, s.dirty = nil, true
	s.printf("Your absences are cleared.")
	return nil
}

// setPreference handles SET PREFERENCE list, for a player of a forming
// game.
func (s *session) setPreference(c *parser.Command, args []string) error {
	g := s.game
	i := engine.PlayerByAddr(g, s.in.From)
	if g.Status != state.Forming || !s.joined || i < 0 {
		s.fail(c.Line, "Preferences are for players of a game that has not started.")
		return nil
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	prefs, msg := parsePreference(mp, strings.Join(args, ""))
	if msg != "" {
		s.fail(c.Line, "%s", msg)
		return nil
	}
	g.Players[i].Preference, s.dirty = prefs, true
	if prefs == "" {
		s.printf("No preference: your power will be chosen at random.")
	} else {
		s.printf("Preference set: %s.", prefs)
	}
	return nil
}

// dateLayouts are the forms SET ABSENCE reads, after commas are dropped
// and spaces collapsed; the second list has no year.
var (
	dateLayouts       = []string{"2006-01-02", "2 Jan 2006", "Jan 2 2006", "2 January 2006", "January 2 2006", "Mon Jan 2 2006", "Mon 2 Jan 2006"}
	dateLayoutsNoYear = []string{"2 Jan", "Jan 2", "2 January", "January 2", "Mon Jan 2", "Mon 2 Jan"}
)

// parseDate reads a date in loc and returns the start of that day. A date
// without a year is the first such day not before the day of after.
func parseDate(text string, loc *time.Location, after time.Time) (time.Time, error) {
	text = strings.Join(strings.Fields(strings.ReplaceAll(text, ",", " ")), " ")
	if text == "" {
		return time.Time{}, fmt.Errorf("a date is missing")
	}
	for _, l := range dateLayouts {
		if t, err := time.ParseInLocation(l, text, loc); err == nil {
			return t, nil
		}
	}
	a := after.In(loc)
	today := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, loc)
	for _, l := range dateLayoutsNoYear {
		if t, err := time.ParseInLocation(l, text, loc); err == nil {
			t = time.Date(a.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
			if t.Before(today) {
				t = t.AddDate(1, 0, 0)
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date", text)
}
