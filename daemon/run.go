package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/ctl"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/session"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/web"
)

// LoadConfig reads the config file and checks that it has all the
// daemon needs, which gmd process and gmd tick do without.
func LoadConfig(file string) (*config.Config, error) {
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

// Options are the knobs of the daemon that judge.conf does not have:
// what cmd/gmd hands in (the pictures, the DNS), and what gmd demo turns
// for a demo that moves at once.
type Options struct {
	// Pictures draws the maps of the mails and of the web pages.
	Pictures Pictures
	// LookupTXT looks up DKIM keys for sender authentication; nil is the
	// system's resolver.
	LookupTXT func(name string) ([]string, error)

	ClockEvery time.Duration // between clock runs; ClockEvery when zero
	PruneEvery time.Duration // between prunings of the ledger; PruneEvery when zero
	// HTTPListener is where to serve the web pages, opened by the
	// caller (gmd demo, on a port of its choosing); nil listens on the
	// http block's address, if judge.conf has one.
	HTTPListener net.Listener
	// NoPageCheck takes the database as it is, without the page check
	// at start: for the tests of a damage met while the daemon runs.
	NoPageCheck bool
}

// running is the judge that gmd run runs: the game master between a
// mailbox, an outbox and a clock.
type running struct {
	*Judge
	log    *slog.Logger
	sender *mail.Sender
	stats  *web.Stats // the counters of /metrics
	draw   Pictures

	// intake takes the poller's mails in with a group commit, which
	// the poller commits after each batch (commit); nil takes each
	// mail in a transaction of its own. committed is what to do once
	// the mails handled since the last commit are on disk (log them).
	intake    *session.Intake
	committed []func()
}

// Run runs the judge of cfg until ctx ends, then lets the mail being
// handled and the mail being sent finish, closes the database and
// returns nil. It returns an error when the judge cannot start (the
// database, the templates, the control socket) or must stop (the control
// socket failed, or a damaged page left the database unusable to this
// process); everything else is logged and retried, a database that
// cannot be written included: the mail waits in the mailbox, the games'
// clocks and the outbox wait, and all go on once it can be written. A
// damaged page costs only the mails and games that need it.
func Run(ctx context.Context, cfg *config.Config, log *slog.Logger, opt Options) error {
	if opt.ClockEvery <= 0 {
		opt.ClockEvery = ClockEvery
	}
	if opt.PruneEvery <= 0 {
		opt.PruneEvery = PruneEvery
	}
	// The first gmd run, with no database file at all, makes a new
	// judge; an empty or damaged file is refused.
	j, err := Open(cfg, state.Open, opt.Pictures, log)
	if err != nil {
		return err
	}
	j.LookupTXT = opt.LookupTXT
	// A damaged page found before any mail is taken stops the judge
	// here, rather than fail mail after mail, or a commit halfway (see
	// state.DB.CheckPages): it reads every page once.
	if err := j.DB.CheckPages(); err != nil && !opt.NoPageCheck {
		j.DB.Close()
		return fmt.Errorf("refusing to start: %w\n(restore the latest backup that gmd check finds sound; "+
			"if only a meta page is damaged, gmd backup -db makes a sound copy as of the transaction bbolt fell back to)", err)
	}
	// Closed only once every part below has returned: none of them may
	// be in a transaction by then.
	defer j.DB.Close()

	d := &running{Judge: j, log: log, stats: new(web.Stats), draw: opt.Pictures}
	d.sender = mail.NewSender(smtpConfig(cfg), j.DB, log.With("smtp", cfg.SMTP.Addr))
	d.sender.Attach = j.Maps.Attach
	d.stats.Sent = d.sender.Sent
	pages, err := d.webPages(opt.HTTPListener)
	if err != nil {
		return err
	}
	d.intake = j.Master.Intake()
	poller := mail.NewPoller(imapConfig(cfg), j.DB, d.handle, log)
	poller.Commit = d.commit
	socket := ctl.SocketPath(cfg.DB)

	log.Info("gmd running",
		"judge", j.From(),
		"imap", cfg.IMAP.Addr, "mailbox", cfg.IMAP.Mailbox,
		"smtp", cfg.SMTP.Addr,
		"db", cfg.DB, "socket", socket, "ledger_retention", Retention(cfg))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := make(chan error, 1)
	go func() {
		stopped <- Together(ctx,
			pages,
			poller.Run,
			d.sender.Run,
			Clock{Master: j.Master, Log: log, Ran: d.stats.ClockRan, Kick: d.sender.Kick}.Runner(opt.ClockEvery),
			func(ctx context.Context) error { return PruneLedger(ctx, j.DB, cfg, log, opt.PruneEvery) },
			// A mail the admin puts back in the queue goes out at once,
			// and so does the answer to a held mail run again.
			func(ctx context.Context) error {
				return ctl.ServeJudge(ctx, socket, j.DB, ctl.Hooks{Kick: d.sender.Kick, RetryHeld: d.retryHeld})
			},
		)
	}()
	select {
	case err = <-stopped:
	case <-j.DB.Broken():
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
		err = j.DB.Wedged()
	}
	if err == nil {
		log.Info("gmd stopped")
	}
	return err
}

// wedgedGrace is how long a daemon whose database is wedged waits for
// its parts to stop before it goes without them.
const wedgedGrace = 5 * time.Second

// imapConfig is the poller's view of cfg: the imap block as it is,
// with the size limit and the age the ledger can vouch for.
func imapConfig(cfg *config.Config) mail.IMAPConfig {
	return mail.IMAPConfig{
		IMAP:    *cfg.IMAP,
		MaxSize: cfg.Limits.MaxMailSize,
		// A mail older than the ledger's memory may have been handled
		// already (see config.DefaultLedgerRetention).
		MaxAge: Retention(cfg) - LedgerSkew,
	}
}

// smtpConfig is the sender's view of cfg: the smtp block as it is, with
// the judge's name and address.
func smtpConfig(cfg *config.Config) mail.SMTPConfig {
	j := Judge{Config: cfg}
	return mail.SMTPConfig{SMTP: *cfg.SMTP, From: j.From(), LocalName: domainOf(cfg.JudgeAddr)}
}

// domainOf returns the domain of a mail address.
func domainOf(addr string) string {
	return addr[strings.LastIndexByte(addr, '@')+1:]
}

// handle is the poller's handler: it takes one new mail in (see
// Intake.Take), which records it in the ledger, applies it (or holds it)
// and queues the replies in one transaction, part of the group that
// commit writes. An error leaves the mail new, to be tried again (the
// poller logs it).
func (d *running) handle(_ context.Context, dl *mail.Delivery) error {
	// The handler finishes what it began even when the daemon is
	// stopping: the transaction is short, and the poller waits for it.
	start := time.Now()
	var t Taker = d.Master
	if d.intake != nil {
		t = d.intake
	}
	res, err := d.Intake().Take(t, dl, start.UTC())
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
	cause, err = d.Master.RetryHeld(id, time.Now().UTC())
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

// webPages returns the part of the daemon that serves the read-only web
// pages on ln, or on the http block's address when ln is nil; a part
// that does nothing when there is neither. The address is taken now, so
// that one already in use stops gmd run at its start, not later.
func (d *running) webPages(ln net.Listener) (func(context.Context) error, error) {
	h := d.Config.HTTP
	if ln == nil && h == nil {
		return func(context.Context) error { return nil }, nil
	}
	wc := web.Config{
		DB:         d.DB,
		JudgeName:  d.Config.JudgeName,
		JudgeAddr:  d.Config.JudgeAddr,
		Overview:   d.Master.OverviewOf,
		Replay:     engine.Replay,
		FogResults: engine.PhaseResultsFor,
		Draw:       d.draw.Draw,
		Animate:    d.draw.Animate,
		Stats:      d.stats,
		Log:        d.log,
	}
	if h != nil {
		wc.HTTP = *h
	}
	srv, err := web.New(wc)
	if err != nil {
		return nil, err
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", h.Listen); err != nil {
			return nil, fmt.Errorf("http: %w", err)
		}
	}
	d.log.Info("web pages served", "addr", ln.Addr().String(), "base_url", wc.BaseURL)
	return func(ctx context.Context) error { return web.Serve(ctx, ln, srv, d.log) }, nil
}
