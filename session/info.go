package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/internal/version"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/templates"
	"github.com/gmdjudge/gmd/view"
)

// The information commands show only what every player may know: the
// board, the seats and the results of processed phases. None of them
// reads Game.Orders, Game.Written or Game.Press, so none can leak pending
// orders (as read or as written) or partial press, whoever asks.

// historyLimit is how many phases HISTORY shows when not asked for one.
const historyLimit = 12

// gameArg returns the game a command names in its first argument, or the
// game signed on to when it names none.
func (s *session) gameArg(c *parser.Command, use string) (*state.Game, error) {
	if len(c.Args) == 0 {
		if s.game != nil {
			return s.game, nil
		}
		s.fail(c.Line, "Use: %s.", use)
		return nil, nil
	}
	if s.game != nil && strings.EqualFold(c.Args[0], s.game.Name) {
		// The game as changed by this mail so far.
		return s.game, nil
	}
	g, err := s.loadGame(c.Line, c.Args[0])
	if g != nil && s.hidden(g) {
		s.fail(c.Line, "There is no game named '%s'. Send LIST for the games.", g.Name)
		return nil, nil
	}
	return g, err
}

// cmdList handles LIST (every game) and LIST game.
func (s *session) cmdList(c *parser.Command) error {
	if len(c.Args) == 0 {
		return s.listAll()
	}
	g, err := s.gameArg(c, "LIST [game]")
	if g == nil {
		return err
	}
	return s.listGame(g)
}

// errListFull stops listAll's walk over the games once the lines found
// fill the reply: the rest would be cut from it anyway.
var errListFull = errors.New("gm: the list fills the reply")

// listAll writes one line per game.
func (s *session) listAll() error {
	var lines []string
	size := 0
	err := s.tx.ForEachGame(func(g *state.Game) error {
		if s.reply.limit > 0 && size > s.reply.limit-s.reply.Len() {
			return errListFull
		}
		if s.game != nil && g.Name == s.game.Name {
			g = s.game
		}
		if s.hidden(g) {
			return nil
		}
		title, seats := g.Variant, 0
		if mp, err := engine.GameMap(g); err == nil {
			title, seats = mp.Title, len(mp.Powers)
		}
		lines = append(lines, fmt.Sprintf("%-12s  %-10s  %-7s  %-9s %d/%d",
			g.Name, title, s.m.PhaseOf(g), g.Status, len(g.Players), seats))
		size += len(lines[len(lines)-1]) + 1
		return nil
	})
	if err != nil && !errors.Is(err, errListFull) {
		return err
	}
	if len(lines) == 0 {
		s.printf("There are no games on %s. Start one with CREATE ?game password.", s.m.cfg.JudgeName)
		return nil
	}
	s.printf("Games on %s:\n\n", s.m.cfg.JudgeName)
	s.printf("%-12s  %-10s  %-7s  %-9s %s", "Game", "Variant", "Phase", "Status", "Players")
	for _, l := range lines {
		s.printf("%s", l)
	}
	return nil
}

// listGame writes one game's settings, phase, deadline, seats and board.
func (s *session) listGame(g *state.Game) error {
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	st := engine.SettingsOf(g)
	s.printf("Game '%s': %s, rules %s, %s.", g.Name, mp.Title, g.Rules, g.Status)
	if g.Result != "" {
		s.printf("Result: %s.", g.Result)
	}
	s.printf("Settings: %s.", st.Summary())
	s.printf("Clock: %s.", st.Clock())
	s.printf("Phase: %s.", s.m.PhaseOf(g))
	if g.Status == state.Active || g.Status == state.Paused {
		s.printf("Deadline: %s.", engine.FormatDate(g, g.Deadline))
	}
	show := s.seesAddrs(g)
	s.printf("Master: %s.", s.addrFor(g, g.MasterAddr))
	if g.Status == state.Forming {
		s.printf("\nPlayers: %d of %d have joined.", len(g.Players), len(mp.Powers))
		for _, p := range g.Players {
			s.printf("  %s", s.addrFor(g, p.Addr))
		}
	} else {
		s.printf("\nPlayers:")
		col := report.PowerColumn(mp)
		for _, l := range engine.SeatLines(g, show) {
			status := seatStatus(l)
			s.printf("  %s:%s%s%s", l.Power, strings.Repeat(" ", max(1, col-len(l.Power)-1)), l.Addr, status)
		}
	}
	if n := len(g.Observers); n > 0 {
		s.printf("Observers: %d.", n)
	}
	if len(g.Position) == 0 {
		return nil
	}
	if s.fogRefused(g, "the units and centres", true) {
		return nil
	}
	pos, _, err := s.m.Position(g)
	if err != nil {
		return err
	}
	viewer := s.fogViewer(g)
	pos = engine.FogFor(g, pos, viewer)
	s.printf("\nUnits in %s:\n\n", report.Season(pos.Phase))
	for _, l := range engine.UnitLines(pos) {
		s.printf("%s", l)
	}
	for _, d := range pos.Dislodged {
		s.printf("%s: %s %s (dislodged).", mp.Powers[d.Power].Name, d.Type.Word(), mp.FullName(d.Loc))
	}
	s.printf("\nSupply centres: %s.", fogCounts(pos, viewer))
	if len(pos.BuiltCenters) > 0 {
		names := make([]string, len(pos.BuiltCenters))
		for i, l := range pos.BuiltCenters {
			names[i] = mp.FullName(l)
		}
		s.printf("Built during the game: %s.", strings.Join(names, ", "))
	}
	s.constructionState(pos)
	return nil
}

// constructionState writes, for a variant with supply-centre construction,
// the centres under construction in pos and the victory count, which
// change during the game; nothing for other variants.
func (s *session) constructionState(pos *judge.Position) {
	mp := pos.Map
	if len(pos.PendingCenters) > 0 {
		var parts []string
		for _, pc := range pos.PendingCenters {
			part := mp.FullName(pc.Loc) + " (" + mp.PowerName(pc.Power)
			if pc.Spoiled {
				part += ", spoiled by " + mp.PowerName(pc.SpoiledBy) + " in " + pc.SpoiledIn.String()
			}
			parts = append(parts, part+")")
		}
		s.printf("Under construction: %s.", strings.Join(parts, ", "))
	}
	if mp.DynamicVictory {
		s.printf("Victory needs %d of the %d supply centres.", pos.VictoryCenters(), len(pos.CenterList()))
	}
	if note := report.LeadNote(pos); note != "" {
		s.printf("%s", note)
	}
}

// centreCounts writes "Austria 3, England 3, ..." for the powers that own
// any centre.
func centreCounts(pos *judge.Position) string {
	var parts []string
	for k, n := range pos.CenterCount() {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", pos.Map.Powers[k].Name, n))
		}
	}
	return strings.Join(parts, ", ")
}

// cmdHistory handles HISTORY game [phase]: the results of processed
// phases, as they were mailed; for one phase named, the orders as the
// players wrote them too (writtenOrders).
func (s *session) cmdHistory(c *parser.Command) error {
	if len(c.Args) > 0 && s.game != nil && slices.Contains([]string{"PRESS", "FROM", "TO", "REPLAY"}, strings.ToUpper(c.Args[0])) {
		// HISTORY PRESS after a sign-on: the game signed on to.
		cc := *c
		cc.Args = append([]string{s.game.Name}, c.Args...)
		c = &cc
	}
	g, err := s.gameArg(c, "HISTORY game [phase]")
	if g == nil {
		return err
	}
	next := ""
	if len(c.Args) > 1 {
		next = strings.ToUpper(c.Args[1])
	}
	if next == "PRESS" {
		return s.historyPress(c, g)
	}
	if next == "REPLAY" {
		s.historyReplay(c, g)
		return nil
	}
	if s.fogRefused(g, "its history", false) {
		return nil
	}
	recs, err := s.tx.Phases(g.Name)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		s.printf("No phase of '%s' has been processed yet.", g.Name)
		return nil
	}
	if next == "FROM" || next == "TO" {
		return s.historyRange(c, g, recs)
	}
	if len(c.Args) > 2 {
		s.fail(c.Line, "Use: HISTORY game [phase], HISTORY game FROM phase TO phase, HISTORY game PRESS, or HISTORY game REPLAY.")
		return nil
	}
	if len(c.Args) > 1 {
		ph, err := judge.ParsePhase(strings.ToUpper(c.Args[1]))
		if err != nil {
			s.fail(c.Line, "%q is not a phase: use one like S1901M, F1901R or W1901A.", c.Args[1])
			return nil
		}
		i := slices.IndexFunc(recs, func(r *state.PhaseRecord) bool { return r.Phase == ph.String() })
		if i < 0 {
			s.fail(c.Line, "Phase %s of '%s' has not been processed.", ph, g.Name)
			return nil
		}
		recs = recs[i : i+1]
	} else if len(recs) > historyLimit {
		var earlier []string
		for _, r := range recs[:len(recs)-historyLimit] {
			earlier = append(earlier, r.Phase)
		}
		s.printf("The last %d phases of '%s'; for an earlier one send HISTORY %s <phase>, one of:", historyLimit, g.Name, g.Name)
		s.printf("%s.", strings.Join(earlier, " "))
		recs = recs[len(recs)-historyLimit:]
	}
	for _, r := range recs {
		s.printf("\n%s (%s.%03d), processed %s:\n\n", r.Phase, g.Name, r.Turn, engine.FormatDate(g, r.Processed))
		text, err := s.resultsOf(g, r)
		if err != nil {
			return err
		}
		s.reply.WriteString(strings.TrimRight(text, "\n"))
		s.reply.WriteByte('\n')
		if len(c.Args) > 1 {
			// One phase asked for: the orders as written too, which
			// would double the length of the whole history, and the
			// map.
			if err := s.writtenOrders(g, r); err != nil {
				return err
			}
			s.attachMap(g, r)
			return nil
		}
	}
	return nil
}

// maxReplyMaps is how many maps one reply carries: each is up to
// picture.MaxPNGBytes (200K), and one mail of HISTORY commands must not make a mail of
// megabytes.
const maxReplyMaps = 3

// attachMap has the reply carry the map of the processed phase r of
// game g, unless the sender turned the game's maps off (SET NOMAP), or
// its master did (SET MAP OFF), or the reply carries enough maps.
//
// A map goes only to an address the game mails already (recipients: its
// players, observers and master), each of which proved it reads its mail
// when it joined (a confirmation code, or the master's password). The
// From line proves nothing, and a picture is up to picture.MaxPNGBytes (200K): to any
// other address a 171-byte forged HISTORY mail made a reply of 417 KB.
// Counting maps against Config.MaxReplySize instead would have ended
// them altogether (one map is larger than the 64 KB default), while
// these addresses get every phase's map with its results anyway.
func (s *session) attachMap(g *state.Game, r *state.PhaseRecord) {
	ref := engine.MapRef(g, r)
	ref.Viewer = s.fogViewer(g)
	switch why := s.noMaps(g); {
	case why == noMapWanted:
		return
	case why != "":
		s.printf("\nNo map of %s: %s", r.Phase, why)
		return
	case slices.ContainsFunc(s.maps, func(m state.MapRef) bool { return engine.SameRef(m, ref) }):
		return
	case len(s.maps) >= maxReplyMaps:
		s.printf("\nNo map of %s: a reply carries at most %d.", r.Phase, maxReplyMaps)
		return
	}
	s.maps = append(s.maps, ref)
	s.printf("\nThe map of %s is attached: %s.png.", r.Phase, r.Phase)
}

// noMapWanted is noMaps's answer when the sender or the master turned
// the maps off: the reply then says nothing of maps.
const noMapWanted = "off"

// noMaps returns why no map of g goes with the sender's reply
// (attachMap), or "" if maps may: noMapWanted, or a sentence.
func (s *session) noMaps(g *state.Game) string {
	switch {
	case !engine.WantsMap(g, s.in.From):
		return noMapWanted
	case !slices.ContainsFunc(s.m.Recipients(g), func(a string) bool { return engine.SameAddr(a, s.in.From) }):
		return "maps go only to the addresses that get the game's mail (its players, observers and master)."
	}
	return ""
}

// writtenOrders writes the orders of the processed phase r as the players
// wrote them, power by power in the map's order, each order on a line of
// its own: "England:" then "  a lvp supports a yor". They are as public as
// the results, which show the same orders as the judge read them. An
// order whose text was not kept (given before gmd kept them) shows as
// stored, marked "(as stored)"; the orders the judge supplied itself are
// not there, as they were never written. A record made before gmd kept
// the texts gets a line saying so.
func (s *session) writtenOrders(g *state.Game, r *state.PhaseRecord) error {
	ordered := false
	for _, lines := range r.Orders {
		ordered = ordered || len(lines) > 0
	}
	if !ordered {
		return nil
	}
	if len(r.Written) == 0 {
		s.printf("\nThe orders as written were not kept for %s.", r.Phase)
		return nil
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	s.printf("\nOrders as written:\n\n")
	viewer := s.fogViewer(g)
	for _, p := range mp.Powers {
		lines := r.Orders[p.Name]
		if len(lines) == 0 || viewer != "" && p.Name != viewer {
			continue
		}
		s.printf("%s:", p.Name)
		texts := r.Written[p.Name]
		for i, l := range lines {
			if i < len(texts) && texts[i] != "" {
				// The player's own words, not broken.
				s.reply.WriteString("  " + texts[i] + "\n")
			} else {
				s.printf("  %s  (as stored)", l)
			}
		}
	}
	return nil
}

// cmdSummary handles SUMMARY game: the seats, the state of the game and
// the supply centres of each power after every Fall played.
func (s *session) cmdSummary(c *parser.Command) error {
	g, err := s.gameArg(c, "SUMMARY game")
	if g == nil {
		return err
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	s.printf("Summary of game '%s': %s, rules %s, %s, phase %s.", g.Name, mp.Title, g.Rules, g.Status, s.m.PhaseOf(g))
	if g.Result != "" {
		s.printf("Result: %s.", g.Result)
	}
	s.printf("Master: %s.", s.addrFor(g, g.MasterAddr))
	if g.Status == state.Forming {
		s.printf("Forming: %d of %d players have joined.", len(g.Players), len(mp.Powers))
		return nil
	}
	s.printf("\nPlayers:")
	col := report.PowerColumn(mp)
	for _, l := range engine.SeatLines(g, s.seesAddrs(g)) {
		status := seatStatus(l)
		s.printf("  %s:%s%s%s", l.Power, strings.Repeat(" ", max(1, col-len(l.Power)-1)), l.Addr, status)
	}
	if all, _ := s.fogSees(g); !all {
		// A power's own column would do, but its counts are in its
		// results mails already; the others' are its rivals' secret.
		s.printf("\nGame '%s' is played under fog of war: the supply centres of each power are told when it ends.", g.Name)
		return nil
	}
	recs, err := s.tx.Phases(g.Name)
	if err != nil {
		return err
	}
	h, err := view.CentresByYear(mp, recs, g.Position)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(h.Years, func(y view.CentreYear) bool { return !y.Start }) {
		s.printf("\nNo Fall has been played yet.")
		return nil
	}
	s.printf("\nSupply centres after each Fall:\n\n")
	for _, l := range centreTable(mp, h.Years) {
		s.printf("%s", l)
	}
	if len(h.Built) > 0 {
		parts := make([]string, len(h.Built))
		for i, c := range h.Built {
			parts[i] = fmt.Sprintf("%s (%s, %d)", mp.FullName(c.Loc), mp.PowerName(mp.Locs[c.Loc].Home), c.Year)
		}
		s.printf("\nSupply centres built: %s.", strings.Join(parts, ", "))
	}
	if len(g.Position) > 0 {
		pos, _, err := s.m.Position(g)
		if err != nil {
			return err
		}
		s.constructionState(pos)
	}
	return nil
}

// The table of centres after each Fall: a year column, then one column
// per power headed by its letter.
const (
	yearColumn  = 6
	powerWidth  = 4
	tablePowers = (templates.LineWidth - yearColumn) / powerWidth // power columns that fit in a line
)

// centreTable lays out the centres each power owned after each Fall in
// years (the start left out), one line a year, a column a power. A variant with more powers
// than fit in 78 columns (Chaos has 34) gets the table in blocks of
// columns of about equal width, one under the other with a blank line
// between, each with its letters above it, rather than lines that the
// reply would break in the middle of a row.
func centreTable(mp *judge.Map, years []view.CentreYear) []string {
	n := len(mp.Powers)
	blocks := (n + tablePowers - 1) / tablePowers
	per := (n + blocks - 1) / max(blocks, 1)
	var out []string
	for from := 0; from < n; from += per {
		to := min(from+per, n)
		if from > 0 {
			out = append(out, "")
		}
		var head strings.Builder
		head.WriteString(strings.Repeat(" ", yearColumn))
		for _, p := range mp.Powers[from:to] {
			fmt.Fprintf(&head, "%*c", powerWidth, p.Letter)
		}
		out = append(out, head.String())
		for _, y := range years {
			if y.Start {
				continue
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%*d", yearColumn, y.Year)
			for _, c := range y.Counts[from:to] {
				fmt.Fprintf(&b, "%*d", powerWidth, c)
			}
			out = append(out, b.String())
		}
	}
	return out
}

// helpData is the data of help.tmpl.
type helpData struct {
	Judge    string
	Addr     string
	Commands []helpCommand // the commands of the command table for anyone and for players, in its order
	Master   []helpCommand // those for the game's master
	Variants []string      // the variants CREATE takes
	Lengths  string        // the bounds of the master's lengths of time, a line each (lengthHelp)
}

// helpCommand is one command of the command table, as HELP shows it.
type helpCommand struct {
	Name  string
	Forms []parser.Form
	Also  []string // its synonyms
	// Lines are the forms in two columns, the usage and what it does,
	// indented, within templates.LineWidth, each ending in a newline;
	// the synonyms end the last.
	Lines string
}

// helpColumn is the column, from 0, where HELP's descriptions start. A
// longer usage has its description on the lines below it.
const helpColumn = 34

// newHelpData returns the data of help.tmpl, from the command table.
func newHelpData(judgeName, addr string) helpData {
	d := helpData{Judge: judgeName, Addr: addr, Variants: variants.Names(), Lengths: lengthHelp()}
	// The master's SET options follow the master's commands, as a
	// command of their own: the command table's SET row has the players'.
	master := parser.CommandInfo{Name: "SET", Who: parser.Master, Forms: parser.SetForms(parser.Master)}
	for _, c := range append(parser.Commands(), master) {
		h := helpCommand{Name: c.Name, Forms: c.Forms, Also: c.Synonyms}
		var b strings.Builder
		for i, f := range c.Forms {
			words := strings.Fields(f.Help)
			if i == len(c.Forms)-1 && len(c.Synonyms) > 0 {
				// A synonym of two words ("SIGN ON") stays on one line.
				words = append(words, "(also")
				for j, syn := range c.Synonyms {
					sep := ","
					if j == len(c.Synonyms)-1 {
						sep = ")"
					}
					words = append(words, syn+sep)
				}
			}
			b.WriteString(helpColumns(f.Usage, words))
		}
		h.Lines = b.String()
		if c.Who == parser.Master {
			d.Master = append(d.Master, h)
		} else {
			d.Commands = append(d.Commands, h)
		}
	}
	return d
}

// helpColumns lays out usage, indented by two, and the words of its
// description from helpColumn, broken between words to fit
// templates.LineWidth; the description starts on the next line when
// usage leaves it no room.
func helpColumns(usage string, words []string) string {
	var b strings.Builder
	line := "  " + usage
	if len(line)+2 > helpColumn {
		b.WriteString(line + "\n")
		line = ""
	}
	line += strings.Repeat(" ", helpColumn-len(line))
	for i, w := range words {
		if i > 0 && len(line)+1+len(w) > templates.LineWidth {
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", helpColumn)
		} else if i > 0 {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}

// cmdHelp handles HELP: the help text goes into the reply.
func (s *session) cmdHelp(c *parser.Command) error {
	_, body, err := s.m.tmpl.Render("help", newHelpData(s.m.cfg.JudgeName, s.m.cfg.JudgeAddr))
	if err != nil {
		return err
	}
	s.reply.WriteString(strings.TrimRight(body, "\n"))
	s.reply.WriteByte('\n')
	return nil
}

// cmdVersion handles VERSION: the judge's program, its version and the Go
// release that built it, as gmd version prints them.
func (s *session) cmdVersion(c *parser.Command) error {
	s.printf("This judge runs %s.", version.Read())
	return nil
}

// cmdEndPress handles an ENDPRESS outside a press: there is nothing to
// end, and the player may have meant a PRESS that the judge did not see.
func (s *session) cmdEndPress(c *parser.Command) error {
	s.fail(c.Line, "There is no PRESS or BROADCAST to end here: ENDPRESS ends the text of one, on a line of its own.")
	return nil
}

// seatStatus is a seat's status after its address in LIST and SUMMARY:
// "  (abandoned, played by the judge's bot)", "" for a seat played.
func seatStatus(l engine.SeatLine) string {
	status := l.Status
	if l.Bot {
		status += ", " + view.BotWords
	}
	if status == "" {
		return ""
	}
	return "  (" + status + ")"
}
