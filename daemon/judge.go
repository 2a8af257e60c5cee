package daemon

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	netmail "net/mail"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/session"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/templates"
	"github.com/gmdjudge/gmd/view"
)

// Judge is an opened judge: its configuration, database and game master,
// as gmd run, gmd process, gmd tick and gmd held use it.
type Judge struct {
	Config *config.Config
	DB     *state.DB
	Master *session.Master
	Maps   Maps // draws the maps that mails carry

	// LookupTXT looks up the DNS TXT records of DKIM keys for the
	// intake's sender authentication; nil is the system's resolver.
	LookupTXT func(name string) ([]string, error)
}

// Pictures is how the judge draws a board: the drawer of PNG pictures
// (package picture's, which cmd/gmd hands in, so that neither gm nor
// this package needs the renderer) and the largest picture a mail may
// carry; and the drawer of a whole game's replay (an animated GIF), for
// the web pages.
type Pictures struct {
	Draw     view.Drawer
	MaxBytes int
	Animate  view.Animator
	// Replay draws the same replay fitted to the mails (the game-over
	// mail, HISTORY game REPLAY), in files of judge.conf's
	// max-replay-size; nil: the mails go without.
	Replay view.ReplayDrawer
}

// Open opens what cfg names: the templates, the database (with open:
// state.Open, or state.OpenExisting where no new judge may be made), and
// the game master over them, which logs the games' events to log (nil:
// not at all). The maps of the mails are drawn with pics.
func Open(cfg *config.Config, open func(string) (*state.DB, error), pics Pictures, log *slog.Logger) (*Judge, error) {
	set, err := templates.Load(cfg.Templates)
	if err != nil {
		return nil, err
	}
	// An operator's template that the master cannot run stops the judge
	// now, naming its file and line, and not the mail queue later.
	if err := session.CheckTemplates(set); err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	db, err := open(cfg.DB)
	if err != nil {
		return nil, err
	}
	m := session.New(db, engine.Config{Config: *cfg, Templates: set, Log: log})
	maps := Maps{Renderer: engine.NewMapRenderer(db, pics.Draw, pics.MaxBytes)}
	if pics.Replay != nil {
		maps.Renderer.SetReplay(pics.Replay, cfg.MaxReplayBytes)
	}
	return &Judge{Config: cfg, DB: db, Master: m, Maps: maps}, nil
}

// Intake is the intake of j's config (Intake.Take).
func (j *Judge) Intake() Intake {
	return Intake{Config: j.Config, LookupTXT: j.LookupTXT}
}

// From is the From of the judge's mails: "GMD <judge@example.org>".
func (j *Judge) From() string {
	return (&netmail.Address{Name: j.Config.JudgeName, Address: j.Config.JudgeAddr}).String()
}

// Deliver deals with the outbox after a run of gmd process or gmd tick:
// with dryRun, it writes every queued mail to w as an mbox and empties
// the outbox; else, with an smtp block in the config, it sends the
// outbox (see Send); without one it says on stderr how many mails wait
// for gmd run. now is the judge's clock; cmd names the command in what
// it writes on stderr.
func (j *Judge) Deliver(dryRun bool, now time.Time, w, stderr io.Writer, cmd string) error {
	if !dryRun && j.Config.SMTP != nil {
		j.Send(now, stderr, cmd)
		return nil
	}
	if !dryRun {
		n, err := queued(j.DB)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s: %d %s queued for gmd run to send\n", cmd, n, report.Plural(n, "mail", "mails"))
		return nil
	}
	// Compose everything and empty the outbox in one transaction; write
	// only after it committed, so that a failure leaves the outbox as it
	// was and prints nothing.
	// The maps are drawn first, each in a read transaction of its own,
	// as when they are sent.
	atts, err := j.drawAll(stderr, cmd)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	err = j.DB.Update(func(tx *state.Tx) error {
		out, err := tx.Outbox(0)
		if err != nil {
			return err
		}
		for _, m := range out {
			if err := writeMbox(&buf, m, j.From(), now, atts[m.ID]...); err != nil {
				return err
			}
			if err := tx.DeleteOutMail(m.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// writeMbox writes one copy of m per recipient, each after a "From
// <recipient>" line and followed by a blank line, with LF line ends as
// mbox files have them. Compose never lets a body line start with
// "From ", so the messages need no further quoting.
func writeMbox(w *bytes.Buffer, m *state.OutMail, from string, now time.Time, atts ...mail.Attachment) error {
	date := m.Created
	if date.IsZero() {
		date = now
	}
	for _, rcpt := range m.To {
		one := *m
		one.To = []string{rcpt}
		var msg bytes.Buffer
		if err := mail.Compose(&msg, &one, from, date, atts...); err != nil {
			return fmt.Errorf("outbox mail %d: %w", m.ID, err)
		}
		fmt.Fprintf(w, "From %s\n", rcpt)
		w.Write(bytes.ReplaceAll(msg.Bytes(), []byte("\r\n"), []byte("\n")))
		w.WriteByte('\n')
	}
	return nil
}

// drawAll draws the maps of every mail in the outbox, by mail ID, for
// -dry-run. A map that cannot be drawn is left out, as when it is sent,
// and stderr says why; the error is the database's.
func (j *Judge) drawAll(stderr io.Writer, cmd string) (map[uint64][]mail.Attachment, error) {
	var out []*state.OutMail
	err := j.DB.View(func(tx *state.Tx) error {
		var err error
		out, err = tx.Outbox(0)
		return err
	})
	if err != nil {
		return nil, err
	}
	atts := make(map[uint64][]mail.Attachment)
	for _, m := range out {
		if !m.Attaches() {
			continue
		}
		if atts[m.ID], err = j.Maps.Attach(m); err != nil {
			fmt.Fprintf(stderr, "%s: mail %d goes without its map: %v\n", cmd, m.ID, err)
		}
	}
	return atts, nil
}

// Tick runs the clock once at now for a judge run from cron, without
// gmd run: the games' deadlines (Master.Tick), then the ledger's pruning
// when a day has passed since the last (PruneIfDue), each reported on
// stderr as cmd. It returns false when some of it failed; what went well
// stays done, and the mails it queued are for Deliver.
func (j *Judge) Tick(now time.Time, stderr io.Writer, cmd string) (ok bool) {
	ok = true
	if err := j.Master.Tick(now); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		ok = false
	}
	// gmd run prunes the ledger itself; from cron, this is its place.
	if n, ran, err := PruneIfDue(j.DB, j.Config, now); err != nil {
		fmt.Fprintf(stderr, "%s: pruning the ledger: %v\n", cmd, err)
		ok = false
	} else if ran && n > 0 {
		fmt.Fprintf(stderr, "%s: %d ledger %s older than the retention removed\n", cmd, n, report.Plural(n, "entry", "entries"))
	}
	return ok
}

// sendTimeout bounds the sending of gmd process and gmd tick.
// The database stays locked meanwhile, and the next gmd process waits
// for it only a second before it asks the mail server to try later; what
// is not sent by then goes at the next run.
const sendTimeout = 30 * time.Second

// Send hands the outbox to the smtp server of the config, once, for a
// judge run from a mail server's pipe and from cron, without gmd run.
// It reports on stderr and returns nothing: the mail that caused the
// replies was handled already, and a mail server told to try it again
// would bring it a second time. A mail the server defers stays queued
// for the next gmd process or gmd tick, with the backoff gmd run gives
// it; one it refuses for good stays in the outbox for the admin (gmd
// check).
func (j *Judge) Send(now time.Time, stderr io.Writer, cmd string) {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := mail.NewSender(smtpConfig(j.Config), j.DB, log)
	s.Attach = j.Maps.Attach
	// The judge's clock, so that the backoff of a deferred mail is
	// counted on the clock that -now sets for the rest of the run.
	s.Now = func() time.Time { return now }
	ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
	defer cancel()
	sent, err := s.Flush(ctx)
	left, verr := queued(j.DB)
	if verr != nil && err == nil {
		err = verr
	}
	fmt.Fprintf(stderr, "%s: %d %s sent, %d left in the outbox\n", cmd, sent, report.Plural(sent, "mail", "mails"), left)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
	}
}

// queued is how many mails wait in the outbox of db.
func queued(db *state.DB) (int, error) {
	var n int
	err := db.View(func(tx *state.Tx) error {
		out, err := tx.Outbox(0)
		n = len(out)
		return err
	})
	return n, err
}
