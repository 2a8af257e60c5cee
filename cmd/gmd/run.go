package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/ctl"
	"github.com/gmdjudge/gmd/daemon"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/session"

	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/templates"
	"github.com/gmdjudge/gmd/web"
)

func init() {
	commands["run"] = command{
		summary: "the daemon: read mail by IMAP, answer by SMTP, run the deadlines",
		run:     runRun,
	}
}

const runUsage = `usage: gmd run [-config judge.conf]

Runs the judge: reads the mailbox of the imap block of judge.conf, handles
each new mail once (orders, commands, press), sends every reply through
the smtp block's server, processes each game's phases at their deadlines,
prunes the ledger of handled mails daily (ledger-retention), and answers
gmd backup, gmd check, gmd outbox and gmd held on the control socket
(the database's path with ".sock" added). Logs go to standard error.

A mail that fails for a reason of its own (a game it needs is damaged,
a bug it trips) is held in the database for the admin (see gmd held),
its sender told, and the mails after it go on. A failure of the judge's
own (a full disk, say) stops the reading of mail until it passes, and
loses nothing: the mail is tried again, in order.

The first gmd run with no database file makes a new judge; an empty
(0-byte) or damaged file is refused: every page is checked, as gmd check
does, before a mail is read.

The config file is -config, else $GMD_CONFIG, else /etc/gmd/judge.conf.
It needs db, imap and smtp; see judge.conf.example.

SIGINT or SIGTERM stops it: the mail being handled and the mail being
sent are finished, then it exits. A second signal kills it at once, which
loses nothing either (see gmd(1)).

Exit status: 0 after a signal; 1 when it could not start or run (the
database, the control socket); 2 for bad flags or a bad config file.

Flags:
`

// defaultConfigFile is where gmd run looks without -config or $GMD_CONFIG.
const defaultConfigFile = "/etc/gmd/judge.conf"

func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal, the default action is back: a second one
	// kills at once, for an operator who will not wait.
	context.AfterFunc(ctx, stop)
	return runCmd(ctx, args, stderr)
}

// runCmd is gmd run, stopped by the end of ctx rather than by a signal.
func runCmd(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd run", flag.ContinueOnError)
	file := fs.String("config", "", "the config `file` (default $GMD_CONFIG, else "+defaultConfigFile+")")
	if code, ok := parseFlags(fs, args, stderr, runUsage); !ok {
		return code
	}
	if *file == "" {
		*file = os.Getenv("GMD_CONFIG")
	}
	if *file == "" {
		*file = defaultConfigFile
	}
	cfg, err := loadDaemonConfig(*file)
	if err != nil {
		printConfigError(stderr, "gmd run", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	if err := runDaemon(ctx, cfg, log, daemonOptions{}); err != nil {
		log.Error("gmd run stopped", "err", err)
		return 1
	}
	return 0
}

// loadDaemonConfig reads the config file and checks that it has all the
// daemon needs, which gmd process and gmd tick do without.
func loadDaemonConfig(file string) (*config.Config, error) {
	cfg, err := config.Load(file)
	if err != nil {
		return nil, err
	}
	var errs []error
	if cfg.DB == "" {
		errs = append(errs, fmt.Errorf("%s: db is required for gmd run", file))
	}
	if cfg.IMAP == nil {
		errs = append(errs, fmt.Errorf("%s: an imap block is required for gmd run: it is where the mail comes in", file))
	}
	if cfg.SMTP == nil {
		errs = append(errs, fmt.Errorf("%s: an smtp block is required for gmd run: it is how the replies go out", file))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// What the mail package checks besides the config's own checks.
	for _, err := range []error{imapConfig(cfg).Validate(), smtpConfig(cfg).Validate()} {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", file, err))
		}
	}
	return cfg, errors.Join(errs...)
}

// printConfigError writes err, one line per mistake. A mistake with a
// line number is written bare, "judge.conf:7: ...", as compilers do, so
// that editors can jump to it.
func printConfigError(w io.Writer, cmd string, err error) {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		var ce *config.Error
		if errors.As(e, &ce) {
			fmt.Fprintln(w, ce)
		} else {
			fmt.Fprintf(w, "%s: %v\n", cmd, e)
		}
	}
}

// daemonOptions are the knobs of the daemon that judge.conf does not
// have: gmd demo turns them for a demo that moves at once.
type daemonOptions struct {
	clockEvery time.Duration // between clock runs; daemon.ClockEvery when zero
	pruneEvery time.Duration // between prunings of the ledger; daemon.PruneEvery when zero
	// httpListener is where to serve the web pages, opened by the
	// caller (gmd demo, on a port of its choosing); nil listens on the
	// http block's address, if judge.conf has one.
	httpListener net.Listener
	// noPageCheck takes the database as it is, without the page check
	// at start: for the tests of a damage met while the daemon runs.
	noPageCheck bool
}

// running is the judge that gmd run runs: the game master between a
// mailbox, an outbox and a clock.
type running struct {
	*judgeEnv
	log    *slog.Logger
	sender *mail.Sender
	stats  *web.Stats // the counters of /metrics

	// intake takes the poller's mails in with a group commit, which
	// the poller commits after each batch (commit); nil takes each
	// mail in a transaction of its own. committed is what to do once
	// the mails handled since the last commit are on disk (log them).
	intake    *session.Intake
	committed []func()
}

// runDaemon runs the judge of cfg until ctx ends, then lets the mail
// being handled and the mail being sent finish, closes the database and
// returns nil. It returns an error when the judge cannot start (the
// database, the templates, the control socket) or must stop (the control
// socket failed, or a damaged page left the database unusable to this
// process); everything else is logged and retried, a database that
// cannot be written included: the mail waits in the mailbox, the games'
// clocks and the outbox wait, and all go on once it can be written. A
// damaged page costs only the mails and games that need it.
func runDaemon(ctx context.Context, cfg *config.Config, log *slog.Logger, opt daemonOptions) error {
	if opt.clockEvery <= 0 {
		opt.clockEvery = daemon.ClockEvery
	}
	if opt.pruneEvery <= 0 {
		opt.pruneEvery = daemon.PruneEvery
	}
	// The first gmd run, with no database file at all, makes a new
	// judge; an empty or damaged file is refused.
	j, err := openJudge(cfg, state.Open, log)
	if err != nil {
		return err
	}
	// A damaged page found before any mail is taken stops the judge
	// here, rather than fail mail after mail, or a commit halfway (see
	// state.DB.CheckPages): it reads every page once.
	if err := j.db.CheckPages(); err != nil && !opt.noPageCheck {
		j.db.Close()
		return fmt.Errorf("refusing to start: %w\n(restore the latest backup that gmd check finds sound; "+
			"if only a meta page is damaged, gmd backup -db makes a sound copy as of the transaction bbolt fell back to)", err)
	}
	// Closed only once every part below has returned: none of them may
	// be in a transaction by then.
	defer j.db.Close()

	d := &running{judgeEnv: j, log: log, stats: new(web.Stats)}
	d.sender = mail.NewSender(smtpConfig(cfg), j.db, log.With("smtp", cfg.SMTP.Addr))
	d.sender.Attach = j.maps.Attach
	d.stats.Sent = d.sender.Sent
	pages, err := d.webPages(opt.httpListener)
	if err != nil {
		return err
	}
	d.intake = j.master.Intake()
	poller := mail.NewPoller(imapConfig(cfg), j.db, d.handle, log)
	poller.Commit = d.commit
	socket := ctl.SocketPath(cfg.DB)

	log.Info("gmd running",
		"judge", j.from(),
		"imap", cfg.IMAP.Addr, "mailbox", cfg.IMAP.Mailbox,
		"smtp", cfg.SMTP.Addr,
		"db", cfg.DB, "socket", socket, "ledger_retention", daemon.Retention(cfg))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := make(chan error, 1)
	go func() {
		stopped <- daemon.Together(ctx,
			pages,
			poller.Run,
			d.sender.Run,
			daemon.Clock{Master: j.master, Log: log, Ran: d.stats.ClockRan, Kick: d.sender.Kick}.Runner(opt.clockEvery),
			func(ctx context.Context) error { return daemon.PruneLedger(ctx, j.db, cfg, log, opt.pruneEvery) },
			// A mail the admin puts back in the queue goes out at once,
			// and so does the answer to a held mail run again.
			func(ctx context.Context) error {
				return ctl.ServeJudge(ctx, socket, j.db, ctl.Hooks{Kick: d.sender.Kick, RetryHeld: d.retryHeld})
			},
		)
	}()
	select {
	case err = <-stopped:
	case <-j.db.Broken():
		// A damaged page made bbolt lose its own locks (see
		// state.DB.Broken): nothing more can be done with the database
		// in this process. Stop, so that the service manager starts gmd
		// again and Open names the damage. A part that was waiting for
		// bbolt's lock then waits for ever: the others get a moment to
		// finish, and the process goes without it.
		cancel()
		select {
		case <-stopped:
		case <-time.After(wedgedGrace):
		}
		err = j.db.Wedged()
	}
	if err == nil {
		log.Info("gmd stopped")
	}
	return err
}

// wedgedGrace is how long a daemon whose database is wedged waits for
// its parts to stop before it goes without them.
const wedgedGrace = 5 * time.Second

// openJudge opens what cfg names: the templates, the database (with
// open: state.Open, or state.OpenExisting where no new judge may be
// made), and the game master over them, which logs the games' events to
// log (nil: not at all).
func openJudge(cfg *config.Config, open func(string) (*state.DB, error), log *slog.Logger) (*judgeEnv, error) {
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
	m := session.New(db, engine.Config{
		JudgeName: cfg.JudgeName,
		JudgeAddr: cfg.JudgeAddr,
		Admins:    cfg.Admins,
		// authenticate drops every mail that fails before Handle.
		SendersAuthenticated: cfg.SenderAuth.Require.Checks(),
		Templates:            set,
		PasswordCost:         cfg.PasswordCost,
		Limits:               cfg.Limits,
		Log:                  log,
	})
	return &judgeEnv{cfg: cfg, db: db, master: m, maps: daemon.Maps{Renderer: newMapRenderer(db)}}, nil
}

// imapConfig is the poller's view of cfg.
func imapConfig(cfg *config.Config) mail.IMAPConfig {
	c := cfg.IMAP
	return mail.IMAPConfig{
		Addr:             c.Addr,
		TLS:              c.TLS,
		Username:         c.Username,
		Password:         c.Password,
		Mailbox:          c.Mailbox,
		ProcessedMailbox: c.ProcessedMailbox,
		PollInterval:     c.PollInterval,
		TLSConfig:        c.TLSConfig(),
		MaxSize:          cfg.Limits.MaxMailSize,
		// A mail older than the ledger's memory may have been handled
		// already (see config.DefaultLedgerRetention).
		MaxAge: daemon.Retention(cfg) - daemon.LedgerSkew,
	}
}

// dkimLookup looks up the DNS TXT records of DKIM keys; nil is the
// system's resolver. Tests replace it, and never touch the network.
var dkimLookup func(name string) ([]string, error)

// smtpConfig is the sender's view of cfg.
func smtpConfig(cfg *config.Config) mail.SMTPConfig {
	c := cfg.SMTP
	j := judgeEnv{cfg: cfg}
	return mail.SMTPConfig{
		Addr:      c.Addr,
		TLS:       c.TLS,
		Username:  c.Username,
		Password:  c.Password,
		TLSConfig: c.TLSConfig(),
		From:      j.from(),
		LocalName: domainOf(cfg.JudgeAddr),
	}
}

// domainOf returns the domain of a mail address.
func domainOf(addr string) string {
	return addr[strings.LastIndexByte(addr, '@')+1:]
}

// handle is the poller's handler: it takes one new mail in (see take),
// which records it in the ledger, applies it (or holds it) and queues
// the replies in one transaction, part of the group that commit writes.
// An error leaves the mail new, to be tried again (the poller logs it).
func (d *running) handle(_ context.Context, dl *mail.Delivery) error {
	// The handler finishes what it began even when the daemon is
	// stopping: the transaction is short, and the poller waits for it.
	start := time.Now()
	var t daemon.Taker = d.master
	if d.intake != nil {
		t = d.intake
	}
	res, err := d.intakeChecks().Take(t, dl, start.UTC())
	if err != nil {
		return err
	}
	took := time.Since(start)
	attrs := append(res.Attrs, "uid", dl.UID)
	if dl.In != nil {
		attrs = append(attrs, "message_id", dl.In.MessageID)
	}
	done := func() {
		d.stats.MailHandled(took)
		d.log.Log(context.Background(), res.Level, res.Msg, attrs...)
	}
	if d.intake == nil {
		done()
		d.sender.Kick()
		return nil
	}
	d.committed = append(d.committed, done)
	return nil
}

// commit is the poller's Commit: it writes the mails handled since the
// last commit to disk in one transaction, then logs them and has their
// replies sent. If it fails, none of them was taken in: the poller
// offers them again.
func (d *running) commit() error {
	done := d.committed
	d.committed = nil
	if err := d.intake.Commit(); err != nil {
		return err
	}
	for _, f := range done {
		f()
	}
	if len(done) > 0 {
		d.sender.Kick()
	}
	return nil
}

// retryHeld runs the held mail id again, for gmd held retry through the
// control socket, and has its answer sent at once.
func (d *running) retryHeld(id uint64) (cause, err error) {
	cause, err = d.master.RetryHeld(id, time.Now().UTC())
	switch {
	case err != nil:
		d.log.Error("a held mail could not be run again", "held", id, "err", err)
	case cause != nil:
		d.log.Warn("a held mail failed again; it stays held", "held", id, "err", cause)
	default:
		d.log.Info("a held mail was run again and handled", "held", id)
		d.sender.Kick()
	}
	return cause, err
}
