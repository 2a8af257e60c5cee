package gm

import (
	"fmt"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // SET ZONE must work on hosts without a zone database

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// defaultSettings are the settings of a new game (contract: press white,
// partial press allowed, NoNMR, UTC, 72h moves, 24h retreats and
// adjustments, 48h grace, a reminder 24h before the deadline).
func defaultSettings() state.GameSettings {
	return state.GameSettings{
		Press:      "white",
		Partial:    true,
		NMR:        false,
		Zone:       "UTC",
		Movement:   state.Duration(72 * time.Hour),
		Retreat:    state.Duration(24 * time.Hour),
		Adjustment: state.Duration(24 * time.Hour),
		Grace:      state.Duration(48 * time.Hour),
		Reminder:   state.Duration(24 * time.Hour),
	}
}

// maxAbsences is how many absences a player may have pending, and
// maxAbsence how long one may be: njudge's limits, so that nobody can
// hold a game back for long.
const (
	maxAbsences = 3
	maxAbsence  = 15 * 24 * time.Hour
)

// lengthLimits are the bounds of every length of time a master may set,
// the one table that SET and HELP read. Without them SET MOVEMENT 1ns was
// taken, and an NMR game then processed a phase, and mailed its results
// to everyone, at every run of the clock, for ever. The floors are what a
// fast game by mail still needs (a phase a player can read and answer);
// the ceilings keep a game from being parked for months by one setting.
// A grace or a reminder of 0 turns it off, which is no risk.
var lengthLimits = []lengthLimit{
	{Setting: "MOVEMENT", What: "a movement phase", Min: 10 * time.Minute, Max: 30 * 24 * time.Hour},
	{Setting: "RETREAT", What: "a retreat phase", Min: 15 * time.Minute, Max: 14 * 24 * time.Hour},
	{Setting: "ADJUSTMENT", What: "an adjustment phase", Min: 15 * time.Minute, Max: 14 * 24 * time.Hour},
	{Setting: "GRACE", What: "the grace", Min: 15 * time.Minute, Max: 14 * 24 * time.Hour, Off: true},
	{Setting: "REMINDER", What: "the reminder", Min: 15 * time.Minute, Max: 7 * 24 * time.Hour, Off: true},
}

// lengthLimit is one row of lengthLimits.
type lengthLimit struct {
	Setting  string // the SET word: "MOVEMENT"
	What     string // the setting in a sentence: "a movement phase"
	Min, Max time.Duration
	Off      bool // 0 is allowed too, and means none
}

// lengthLimitOf returns the row of lengthLimits for setting.
func lengthLimitOf(setting string) lengthLimit {
	for _, l := range lengthLimits {
		if l.Setting == setting {
			return l
		}
	}
	panic("gm: no length limit for " + setting)
}

// refuse returns why d cannot be set, naming the bound it is past, or "".
func (l lengthLimit) refuse(d time.Duration) string {
	switch {
	case d == 0 && l.Off:
		return ""
	case d < l.Min:
		return fmt.Sprintf("%s lasts at least %s: %s is too short (%s)", capitalize(l.What), spellLength(l.Min), spellLength(d), l.bounds())
	case d > l.Max:
		return fmt.Sprintf("%s lasts at most %s: %s is too long (%s)", capitalize(l.What), spellLength(l.Max), spellLength(d), l.bounds())
	}
	return ""
}

// bounds writes the range: "1 hour to 30 days", "0 (none), or 15
// minutes to 14 days".
func (l lengthLimit) bounds() string {
	s := spellLength(l.Min) + " to " + spellLength(l.Max)
	if l.Off {
		s = "0 (none), or " + s
	}
	return s
}

// lengthHelp writes every bound of lengthLimits for HELP, one setting
// a line: "  SET MOVEMENT  1 hour to 30 days".
func lengthHelp() string {
	var b strings.Builder
	for _, l := range lengthLimits {
		fmt.Fprintf(&b, "  SET %-11s %s\n", l.Setting, l.bounds())
	}
	return b.String()
}

// gameSettings are a game's settings written out for templates and
// listings: view's, which the web pages render too.
type gameSettings = view.Settings

// settingsOf returns g's settings for templates.
func settingsOf(g *state.Game) gameSettings {
	st := g.Settings
	zone := st.Zone
	if zone == "" {
		zone = "UTC"
	}
	builds := ""
	if mp, err := gameMap(g); err == nil {
		if r := buildsIn(g, mp); r != judge.BuildHome {
			builds = r.Describe()
		}
	}
	return gameSettings{
		Press: st.Press, Partial: st.Partial, NMR: st.NMR, Zone: zone, Multiple: st.Multiple, Gunboat: st.Gunboat, NoMap: st.NoMap, Builds: builds,
		Movement:   spellLength(time.Duration(st.Movement)),
		Retreat:    spellLength(time.Duration(st.Retreat)),
		Adjustment: spellLength(time.Duration(st.Adjustment)),
		Grace:      spellLength(time.Duration(st.Grace)),
		Reminder:   spellLength(time.Duration(st.Reminder)),

		Reminders: remindersText(&st),

		MovementTimes:   ruleOf(&st, judge.Movement).describe(),
		RetreatTimes:    ruleOf(&st, judge.Retreat).describe(),
		AdjustmentTimes: ruleOf(&st, judge.Adjustment).describe(),
	}
}

// remindersText says how long before the deadline reminders go in a
// game with settings st: "1 day before the deadline" when that holds for
// every phase, otherwise phase type by phase type, "1 day before
// movement deadlines, 8 hours before retreat and adjustment deadlines".
func remindersText(st *state.GameSettings) string {
	rem := time.Duration(st.Reminder)
	var lens []time.Duration
	byLen := map[time.Duration][]string{}
	for _, t := range []struct {
		typ  judge.PhaseType
		name string
	}{{judge.Movement, "movement"}, {judge.Retreat, "retreat"}, {judge.Adjustment, "adjustment"}} {
		d := scaledReminder(rem, phaseLength(st, t.typ))
		if byLen[d] == nil {
			lens = append(lens, d)
		}
		byLen[d] = append(byLen[d], t.name)
	}
	if len(lens) == 1 {
		return spellLength(rem) + " before the deadline"
	}
	parts := make([]string, len(lens))
	for i, d := range lens {
		parts[i] = spellLength(d) + " before " + listNames(byLen[d]) + " deadlines"
		if d <= 0 {
			parts[i] = "none before " + listNames(byLen[d]) + " deadlines"
		}
	}
	return strings.Join(parts, ", ")
}

// buildRuleOf returns the build rule the master chose for g (SET BUILD),
// or BuildsOfMap when the game keeps its variant's: view's, with which
// the web reads positions too. Positions are adjudicated with it
// (Master.position) and orders are counted with it (buildsIn).
func buildRuleOf(g *state.Game) judge.BuildRule { return view.BuildRule(g) }

// buildsIn returns the build rule in force in g, played on mp: the
// master's choice or the variant's.
func buildsIn(g *state.Game, mp *judge.Map) judge.BuildRule {
	return judge.Rules{Builds: buildRuleOf(g)}.BuildsOn(mp)
}

// setOption1 is one row of setTable: an option of SET, the words that
// name it, and how the error messages list it.
type setOption1 struct {
	Opt    string   // the name the handler goes by
	Words  []string // the option's spellings, njudge synonyms included
	Master bool     // the master's alone
	// Shown is how the error messages list the option ("" lists nothing);
	// ShortFor, when Shown is "", is the form that is listed for it
	// ("SET WHITE" is short for "PRESS WHITE|GREY|NONE").
	Shown, ShortFor string
}

// setTable is the one table of SET options: setOptions (what the reader
// accepts) and setAccepted (what an error message lists) are both made
// from it, so an option cannot be accepted and left out of the list (as
// REMINDER was) or listed and refused.
var setTable = []setOption1{
	{Opt: "PASSWORD", Words: []string{"PASSWORD", "PASSWD", "PASS", "PWD"}, Shown: "PASSWORD"},
	{Opt: "WAIT", Words: []string{"WAIT"}, Shown: "WAIT"},
	{Opt: "NOWAIT", Words: []string{"NOWAIT"}, Shown: "NOWAIT"},
	{Opt: "DRAW", Words: []string{"DRAW"}, Shown: "DRAW"},
	{Opt: "NODRAW", Words: []string{"NODRAW"}, Shown: "NODRAW"},
	{Opt: "ABSENCE", Words: []string{"ABSENCE", "HOLIDAY", "VACATION"}, Shown: "ABSENCE"},
	{Opt: "NOABSENCE", Words: []string{"NOABSENCE", "NOHOLIDAY", "NOVACATION"}, Shown: "NOABSENCE"},
	{Opt: "PREFERENCE", Words: []string{"PREFERENCE", "PREFERENCES"}, Shown: "PREFERENCE"},
	{Opt: "MAP", Words: []string{"MAP", "MAPS"}, Shown: "MAP"},
	{Opt: "NOMAP", Words: []string{"NOMAP", "NOMAPS"}, Shown: "NOMAP"},
	{Opt: "NMR", Words: []string{"NMR", "CD"}, Master: true, Shown: "NMR"},
	{Opt: "NONMR", Words: []string{"NONMR", "NOCD"}, Master: true, Shown: "NONMR"},
	{Opt: "PRESS", Words: []string{"PRESS"}, Master: true, Shown: "PRESS WHITE|GREY|NONE"},
	{Opt: "WHITE", Words: []string{"WHITE"}, Master: true, ShortFor: "PRESS WHITE|GREY|NONE"},
	{Opt: "GREY", Words: []string{"GREY", "GRAY"}, Master: true, ShortFor: "PRESS WHITE|GREY|NONE"},
	{Opt: "NOPRESS", Words: []string{"NOPRESS", "NONE"}, Master: true, ShortFor: "PRESS WHITE|GREY|NONE"},
	{Opt: "PARTIAL", Words: []string{"PARTIAL"}, Master: true, Shown: "PARTIAL"},
	{Opt: "NOPARTIAL", Words: []string{"NOPARTIAL"}, Master: true, Shown: "NOPARTIAL"},
	{Opt: "MULTIPLE", Words: []string{"MULTIPLE"}, Master: true, Shown: "MULTIPLE"},
	{Opt: "NOMULTIPLE", Words: []string{"NOMULTIPLE"}, Master: true, Shown: "NOMULTIPLE"},
	{Opt: "GUNBOAT", Words: []string{"GUNBOAT"}, Master: true, Shown: "GUNBOAT"},
	{Opt: "NOGUNBOAT", Words: []string{"NOGUNBOAT"}, Master: true, Shown: "NOGUNBOAT"},
	{Opt: "MAP", Master: true, Shown: "MAP ON|OFF"}, // the words are the player's MAP's
	{Opt: "SHOWADDRESS", Words: []string{"SHOW"}, Shown: "SHOW ADDRESS"},
	{Opt: "ADDRESS", Words: []string{"ADDRESS"}, Shown: "ADDRESS"},
	{Opt: "HIDEADDRESS", Words: []string{"HIDE"}, Shown: "HIDE ADDRESS"},
	{Opt: "DEDICATION", Words: []string{"DEDICATION"}, Master: true, Shown: "DEDICATION"},
	{Opt: "ONTIMERAT", Words: []string{"ONTIMERAT"}, Master: true, Shown: "ONTIMERAT"},
	{Opt: "RESRAT", Words: []string{"RESRAT"}, Master: true, Shown: "RESRAT"},
	{Opt: "MINGAMES", Words: []string{"MIN", "MINGAMES"}, Master: true, Shown: "MIN GAMES"},
	{Opt: "REGISTERED", Words: []string{"REGISTERED"}, Master: true, Shown: "REGISTERED"},
	{Opt: "NOREGISTERED", Words: []string{"NOREGISTERED"}, Master: true, Shown: "NOREGISTERED"},
	{Opt: "PRIVATE", Words: []string{"PRIVATE"}, Master: true, Shown: "PRIVATE"},
	{Opt: "PUBLIC", Words: []string{"PUBLIC", "NOPRIVATE"}, Master: true, Shown: "PUBLIC"},
	{Opt: "ZONE", Words: []string{"ZONE", "TIMEZONE"}, Master: true, Shown: "ZONE"},
	{Opt: "CLOCK", Words: []string{"DEADLINE"}, Master: true, Shown: "DEADLINE"},
	{Opt: "CLOCK", Words: []string{"GRACE"}, Master: true, Shown: "GRACE"},
	{Opt: "CLOCK", Words: []string{"MOVEMENT", "MOVE", "MOVES"}, Master: true, Shown: "MOVEMENT"},
	{Opt: "CLOCK", Words: []string{"RETREAT", "RETREATS"}, Master: true, Shown: "RETREAT"},
	{Opt: "CLOCK", Words: []string{"ADJUSTMENT", "ADJUSTMENTS", "ADJUST"}, Master: true,
		Shown: "ADJUSTMENT (a length, or CLOCK hh:mm and DAYS -MTWTF-)"},
	{Opt: "CLOCK", Words: []string{"REMINDER"}, Master: true, Shown: "REMINDER (a length)"},
	// SET BUILD is an adjustment length, or with HOME, ONE or ANY the build rule.
	{Opt: "CLOCK", Words: []string{"BUILD", "BUILDS"}, Master: true, Shown: "BUILD HOME|ONE|ANY"},
}

// setOptions maps every SET option, with its njudge synonyms, to the name
// the handler goes by; setAccepted is the list of SET options given in
// error messages. Both are made from setTable.
var setOptions, setAccepted = setTables()

// setTables makes setOptions and setAccepted from setTable.
func setTables() (map[string]string, string) {
	opts := map[string]string{}
	var player, master []string
	for _, o := range setTable {
		for _, w := range o.Words {
			opts[w] = o.Opt
		}
		switch {
		case o.Shown == "":
		case o.Master:
			master = append(master, o.Shown)
		default:
			player = append(player, o.Shown)
		}
	}
	return opts, strings.Join(player, ", ") + "; for the master: " + strings.Join(master, ", ")
}

// setOption reads the words of a SET: the option as setOptions names it
// ("" when there is no such option), the option as written, in upper
// case ("NOWAIT", "DEADLINE"), and the words after it. "SET NO
// WAIT" is SET NOWAIT; an option may be followed by a colon or an equals
// sign, spaced or not ("PASSWORD: new", "PASSWORD=new"), and what is
// glued after that is its first argument.
func setOption(args []string) (opt, word string, rest []string) {
	if len(args) == 0 {
		return "", "", nil
	}
	word, rest = args[0], args[1:]
	if i := strings.IndexAny(word, ":="); i >= 0 {
		if glued := word[i+1:]; glued != "" {
			rest = append([]string{glued}, rest...)
		}
		word = word[:i]
	}
	word = strings.ToUpper(word)
	if word == "NO" && len(rest) > 0 { // "SET NO WAIT"
		word, rest = "NO"+strings.ToUpper(rest[0]), rest[1:]
	}
	return setOptions[word], word, rest
}

// setSecret is the secretRule of SET. After a password option, in any
// of its spellings, every word is hidden, and so is what was glued to
// the option ("PASSWORD:new"). After an unknown option, which may be a
// password option misspelt, so are the words after it and what is glued
// to it ("PASWORD:new"). When a password
// option comes after another word, the words are out of order ("SET new
// PASSWORD"), and every word is hidden.
func setSecret(_ *session, args []string) ([]bool, bool, string, error) {
	opt, _, _ := setOption(args)
	if len(args) == 0 || opt != "" && opt != "PASSWORD" {
		return nil, false, "", nil
	}
	first := strings.ContainsAny(args[0], ":=")
	for _, w := range args[1:] {
		if o, _, _ := setOption([]string{w}); o == "PASSWORD" {
			first = true
		}
	}
	hide := make([]bool, len(args))
	for i := range hide {
		hide[i] = i > 0 || first
	}
	return hide, false, "", nil
}

// cmdSet handles every SET command.
func (s *session) cmdSet(c *parser.Command) error {
	if len(c.Args) == 0 {
		s.fail(c.Line, "SET what? The options are %s.", setAccepted)
		return nil
	}
	opt, word, args := setOption(c.Args)
	if opt == "" {
		if hide, _, _, _ := setSecret(s, c.Args); hide[0] {
			word = hiddenWord // it may be a password
		}
		s.fail(c.Line, "Unknown option SET %s. The options are %s.", word, setAccepted)
		return nil
	}
	switch opt {
	case "PASSWORD":
		return s.cmdSetPassword(c, args)
	case "WAIT", "NOWAIT":
		return s.setWait(c, opt == "WAIT")
	case "DRAW", "NODRAW":
		return s.setDraw(c, opt == "DRAW", args)
	case "ABSENCE":
		return s.setAbsence(c, args)
	case "NOABSENCE":
		return s.clearAbsences(c)
	case "PREFERENCE":
		return s.setPreference(c, args)
	case "NOMAP":
		return s.setMyMap(c, false, args)
	case "SHOWADDRESS", "HIDEADDRESS":
		if len(args) == 1 && strings.EqualFold(args[0], "ADDRESS") {
			return s.setShowAddress(c, opt == "SHOWADDRESS")
		}
		s.fail(c.Line, "Use: SET SHOW ADDRESS or SET HIDE ADDRESS.")
		return nil
	case "ADDRESS":
		return s.setAddress(c, args)
	case "MAP":
		if len(args) == 0 {
			return s.setMyMap(c, true, args)
		}
		// SET MAP ON|OFF is the master's, for the whole game.
	}
	// The rest are the master's.
	if !s.master {
		s.fail(c.Line, "Only the master of '%s' may SET %s.", s.game.Name, word)
		return nil
	}
	if s.game.Status == state.Finished {
		s.fail(c.Line, "Game '%s' is over.", s.game.Name)
		return nil
	}
	switch opt {
	case "DEDICATION", "ONTIMERAT", "RESRAT", "MINGAMES", "REGISTERED", "NOREGISTERED", "PRIVATE", "PUBLIC":
		change := s.setEntry(c, opt, args)
		if change == "" {
			return nil
		}
		s.dirty = true
		s.printf("%s", change)
		return s.parameterChange(change)
	}
	st := &s.game.Settings
	before := *st
	var change string
	switch opt {
	case "CLOCK":
		if word == "BUILD" || word == "BUILDS" {
			if rule, ok := buildRuleArg(args); ok {
				return s.setBuilds(c, rule)
			}
		}
		s.dirty = true
		return s.cmdSetClock(c)
	case "NMR":
		st.NMR, change = true, "NMR: a power that misses the end of grace goes into civil disorder and the game goes on."
	case "NONMR":
		st.NMR, change = false, "NoNMR: the game waits for a replacement for a power that misses the end of grace."
	case "PRESS":
		if len(args) != 1 {
			s.fail(c.Line, "Use: SET PRESS WHITE, SET PRESS GREY or SET PRESS NONE.")
			return nil
		}
		switch strings.ToUpper(args[0]) {
		case "WHITE":
			opt = "WHITE"
		case "GREY", "GRAY":
			opt = "GREY"
		case "NONE", "NO":
			opt = "NOPRESS"
		default:
			s.fail(c.Line, "Unknown press setting %q: use WHITE, GREY or NONE.", args[0])
			return nil
		}
		fallthrough
	case "WHITE", "GREY", "NOPRESS":
		switch opt {
		case "WHITE":
			st.Press, change = "white", "Press is white: every press says who sent it."
		case "GREY":
			st.Press, change = "grey", "Press is grey: press between powers does not say who sent it."
		default:
			st.Press, change = "none", "There is no press between powers (press to and from the master is still allowed)."
		}
	case "PARTIAL":
		st.Partial, change = true, "Partial press is allowed: press may go to some powers only."
	case "NOPARTIAL":
		st.Partial, change = false, "Partial press is not allowed: press between powers must be broadcast."
	case "MULTIPLE":
		st.Multiple, change = true, "One address may now hold more than one seat, the master's included."
	case "NOMULTIPLE":
		st.Multiple, change = false, "One address may hold one seat only, and the master's address none other (seats already held stay)."
	case "GUNBOAT", "NOGUNBOAT":
		var ok bool
		if change, ok = s.setGunboat(c, opt == "GUNBOAT"); !ok {
			return nil
		}
	case "MAP":
		switch strings.ToUpper(strings.Join(args, " ")) {
		case "ON", "YES":
			st.NoMap, change = false, "The results mails carry the map of the phase again (a player may still SET NOMAP)."
		case "OFF", "NO", "NONE":
			st.NoMap, change = true, "The results mails no longer carry the map of the phase."
		default:
			s.fail(c.Line, "Use: SET MAP ON or SET MAP OFF, for the whole game.")
			return nil
		}
	case "ZONE":
		if len(args) != 1 {
			s.fail(c.Line, "Use: SET ZONE Area/City, for example SET ZONE Europe/Paris.")
			return nil
		}
		loc, err := time.LoadLocation(args[0])
		if err != nil || args[0] == "Local" || args[0] == "" {
			s.fail(c.Line, "Unknown time zone %q: use an IANA zone name like Europe/Paris or America/New_York.", args[0])
			return nil
		}
		st.Zone = loc.String()
		change = "Times are now shown in the zone " + st.Zone + "."
	}
	if *st == before {
		s.printf("%s It already was: nothing changed.", change)
		return nil
	}
	s.dirty = true
	s.printf("%s", change)
	return s.parameterChange(change)
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
	had := !slices.ContainsFunc(g.NoMap, func(a string) bool { return sameAddr(a, addr) })
	g.NoMap = slices.DeleteFunc(g.NoMap, func(a string) bool { return sameAddr(a, addr) })
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
	mp, err := gameMap(g)
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
	Header Header
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
	return s.m.sendGame(s.tx, s.now, g, "setting", settingData{
		Header: s.m.header(g), Tag: s.m.subjectTag(g), Game: g.Name, Change: change,
	}, s.m.recipients(g))
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
	return &g.Players[playerByPower(g, s.power)]
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
	s.m.ordersChanged(s.game, s.now)
	return nil
}

// setDraw handles SET DRAW and SET NODRAW. Draws are DIAS: the vote is
// for a draw of all the surviving powers, and it stays secret.
func (s *session) setDraw(c *parser.Command, on bool, args []string) error {
	p := s.seat(c, "vote for a draw")
	if p == nil {
		return nil
	}
	if len(args) > 0 {
		s.fail(c.Line, "Draws include every surviving power: use SET DRAW alone.")
		return nil
	}
	if p.Status == state.Eliminated {
		s.fail(c.Line, "%s is out of the game and has no vote.", s.power)
		return nil
	}
	p.Draw, s.dirty = on, true
	if !on {
		s.printf("You no longer vote for a draw.")
		return nil
	}
	s.printf("You vote for a draw of all surviving powers. The game is drawn when every one of them votes for it;")
	s.printf("votes are secret and are cleared each time a phase is processed.")
	return s.m.checkDraw(s.tx, s.game, s.now)
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
	loc := zoneOf(s.game)
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
	case to.After(latestDate(s.now)):
		s.fail(c.Line, "An absence must end within a year from now: %s is too far ahead.", formatDate(s.game, to))
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
	s.printf("Absence noted from %s to %s: no deadline will fall in it.", formatDate(s.game, from), formatDate(s.game, to))
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
	i := playerByAddr(g, s.in.From)
	if g.Status != state.Forming || !s.joined || i < 0 {
		s.fail(c.Line, "Preferences are for players of a game that has not started.")
		return nil
	}
	mp, err := gameMap(g)
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
