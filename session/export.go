package session

import (
	"fmt"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/export"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

// EXPORT: the master's export of a game (package export, Options.Master),
// by mail. The web pages are read-only and know no one, so the master
// asks here, after SIGNON Mgame with the master's password (checkSeat:
// limited against guessing, as every password). The export goes in a
// mail of its own to the address of the master who signed on (the
// creator's address on record, or the co-master's own), never to the
// From line, which proves nothing: a forged mail that knows the password
// still cannot send the game to another address.

func init() {
	commands["EXPORT"] = command{run: (*session).cmdExport, mails: true} // a line in the reply; the export goes in a mail of its own
}

// maxExportBytes bounds the export a mail carries: a 20-year standard
// game is under half a megabyte; one past this is for the operator's
// gmd export.
const maxExportBytes = 4 << 20

// exportData is the data of export.tmpl.
type exportData struct {
	engine.HeadLines
	File    string // the attachment's name
	Phases  int    // the phases in it
	Running bool   // the game is not over: the pending orders are in it
	Named   bool   // it names the registered players
	Gunboat bool   // the game is gunboat and its players not revealed
}

// PhaseCount is Phases in words: "1 phase", "58 phases".
func (d exportData) PhaseCount() string {
	return fmt.Sprintf("%d %s", d.Phases, report.Plural(d.Phases, "phase", "phases"))
}

// cmdExport handles EXPORT: the master's export of the game signed on
// to, mailed to the master's address.
func (s *session) cmdExport(c *parser.Command) error {
	g := s.game
	if g.Status == state.Forming {
		s.fail(c.Line, "Game '%s' has not started: there is nothing to export yet.", g.Name)
		return nil
	}
	if s.exported {
		s.fail(c.Line, "One export a mail: the one above is on its way.")
		return nil
	}
	doc, err := export.Load(s.tx, g, engine.SettingsOf(g), export.Options{Master: true})
	if err != nil {
		return err
	}
	data, err := export.Marshal(doc)
	if err != nil {
		return err
	}
	if len(data) > maxExportBytes {
		s.fail(c.Line, "The export of '%s' is %.1f MB, more than a mail of this judge carries (%d MB): its operator can write it with gmd export.",
			g.Name, float64(len(data))/(1<<20), maxExportBytes>>20)
		return nil
	}
	named := false
	for _, seat := range doc.Seats {
		named = named || seat.Player != ""
	}
	file := g.Name + "-master.json"
	tmpl := exportData{HeadLines: s.m.Head(g), File: file, Phases: len(doc.Phases), Running: g.Status != state.Finished,
		Named: named, Gunboat: g.Settings.Gunboat && !g.Revealed}
	to := g.MasterAddr
	if i := coMasterSeat(g, s.in.From); s.coMaster && i >= 0 {
		to = g.Observers[i].Addr // the co-master's own, as recorded
	}
	if !engine.ValidSender(to) {
		// An imported game has no master; an admin who signed on to it
		// has gmd export.
		s.fail(c.Line, "Game '%s' has no master's address to mail its export to: the judge's operator can write it with gmd export.", g.Name)
		return nil
	}
	err = s.m.SendFiles(s.tx, s.now, "export", tmpl, []string{to}, s.in.MessageID, []state.File{{Name: file, Type: "application/json", Data: data}})
	if err != nil {
		return err
	}
	s.exported = true
	s.printf("The master's export of '%s' (%d %s) was mailed to the master's address on record, in a mail of its own.",
		g.Name, len(doc.Phases), report.Plural(len(doc.Phases), "phase", "phases"))
	return nil
}
