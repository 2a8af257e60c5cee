package mail

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// IMAPConfig says where the judge's mail comes in and how to read it:
// judge.conf's imap block (config.IMAP, whose defaults and rules are
// config's: WithDefaults, Validate) and what the poller takes from the
// rest of the configuration.
type IMAPConfig struct {
	// IMAP is the server, its TLS mode (config.TLSNone, which sends the
	// password in clear, only for a loopback address), the login, the
	// mailbox read and the one handled mail is moved to, and the poll
	// interval: how often the mailbox is searched for new mail, the only
	// way to learn of it on a server without IDLE, and a safety net on
	// one with IDLE, which can miss a message (the server may deliver it
	// in the instant before IDLE starts listening). The certificate is
	// checked against the host of the address, with the roots of
	// config.Server.TLSConfig.
	config.IMAP

	// MaxSize is the largest message, in bytes, that is fetched and
	// decoded; a larger one reaches the handler with only its header and
	// Delivery.TooLarge set. No limit when <= 0.
	MaxSize int64

	// MaxAge, if positive, is how long ago a message may have arrived
	// (its INTERNALDATE, by the server's clock) and still be offered. An
	// older one is passed over, left unflagged in the mailbox, with a
	// warning in the log. A judge that prunes its ledger sets it a little
	// under the time it keeps ledger entries: a message older than that
	// may have been handled already, its entries forgotten since, and be
	// offered again only because the mailbox's UIDVALIDITY changed (or
	// the stored place was lost), so it must not be applied.
	MaxAge time.Duration
}

// Delivery is one new message of the mailbox, for the Handler.
type Delivery struct {
	// In is the decoded message. With TooLarge it holds the header only
	// (an empty Body); with DecodeErr it holds what could be read of the
	// header, if anything. It is nil when not even the header could be
	// read, so that there is nobody to answer.
	In *Incoming

	// Keys are the ledger keys of the message, to record in the same
	// transaction as what the message does (session.Mail.Ledger), so that it
	// is never applied twice: "imap/<user>/<mailbox>/<uidvalidity>/<uid>".
	Keys []string

	// TooLarge says the message is over IMAPConfig.MaxSize: its body was
	// not fetched, and the sender should be told so.
	TooLarge bool

	// DecodeErr is why the message could not be read (malformed MIME, no
	// valid From). It is nil when In is complete, or TooLarge with its
	// header read.
	DecodeErr error

	UID  uint32 // the message's IMAP UID, for logs
	Size int64  // its size in bytes, as the server reports it

	// Raw is the message as the server sent it (its header only with
	// TooLarge), for what needs the bytes themselves: the DKIM
	// signatures of Authenticate.
	Raw []byte
}

// A Handler takes one new message. It does the whole of the delivery
// protocol's transaction: it records d.Keys (and the Message-ID) in the
// ledger, applies the message, and queues its replies, all in one
// transaction, or does nothing if any key is already recorded. Every
// message reaches it, including those too large or unreadable: a mail is
// never dropped without a trace.
//
// A nil return means the message is done for good: it is flagged \Seen
// (and moved) and not offered again. An error means nothing was recorded;
// the message stays new and is offered again at the next poll, and the
// messages after it wait: mail is applied in the order it arrived, so a
// handler that always fails on one message holds up all that follow
// (and says so in the log every PollInterval) until it is fixed.
//
// A failure that belongs to the message alone holds up no other: an
// error wrapping ErrSetAside (the handler found the message at fault but
// could not deal with it now). Such a message stays
// new and is tried again after a poll interval, then two, four and so on
// up to an hour, while the messages after it are handled (and flagged)
// meanwhile; the stored place stays below it, so that a restart offers
// it again too. A handler that can record such a message for its admin
// (gmd's held mails) returns nil instead: the message is done.
//
// The poller does not recover a panic of the handler: a handler guards
// its own, and returns an error wrapping ErrSetAside for a message that
// trips a bug (gmd's is daemon.Intake.Take), so that a mail's panic is
// caught in one place.
//
// ctx is cancelled when the poller is told to stop; a handler should
// still finish a delivery it has begun, as the poller waits for it.
type Handler func(ctx context.Context, d *Delivery) error

// Poller reads new mail from an IMAP mailbox and hands each message to a
// Handler, exactly once in effect, each sender's in the order of arrival
// (UID order) and the senders' round-robin (fair.go), following the
// delivery protocol:
//
//  1. A message is new if its UID is above the last UID done, stored in
//     the database under the mailbox's UIDVALIDITY.
//  2. The handler records it and applies it in one transaction.
//  3. Only then is it flagged \Seen (and moved to the processed mailbox,
//     if set), and the last UID done moves past it.
//
// A crash before 2 commits loses nothing: the message is still new. A
// crash between 2 and 3 offers the message again, and the handler's
// ledger turns it away. Should the mailbox's UIDVALIDITY change (the
// mailbox was recreated or restored, or the server rebuilt its index),
// the stored UIDs mean nothing any more: every message in the mailbox is
// offered again, and it is the ledger, through the Message-IDs it
// recorded, that keeps anything from being applied twice. The ledger
// must therefore be kept longer than any mail is left in the mailbox.
// UIDVALIDITY is checked at every (re)connection.
//
// The poller keeps one connection. It waits for news with IDLE when the
// server offers it and also searches every PollInterval, as IDLE can miss
// a message; without IDLE it just searches every PollInterval. Any
// network or server error drops the connection and a new one is made
// after a backoff (1 s, doubling up to 5 min, with jitter, back to 1 s
// after a session that worked).
type Poller struct {
	// Commit, when set, makes what the handler did since its last call
	// durable: a handler that commits in groups (session.Intake) returns nil
	// before its work is on disk, and the poller calls Commit after each
	// batch, before it flags any message \Seen, so that a crash (kill
	// -9 included) never leaves a message flagged whose transaction was
	// not committed. An error means none of the batch's messages is
	// done: they stay new and are offered again after PollInterval (the
	// ledger turns away any that was written after all). Set it before
	// Run.
	Commit func() error

	cfg     IMAPConfig
	db      *state.DB
	handler Handler
	log     *slog.Logger

	// setAside are the messages whose handling failed for a reason of their
	// own, by UID under the UIDVALIDITY setAsideValidity, each waiting for
	// its next try. doneAbove are those handled above the lowest set-aside
	// one: the stored last UID cannot pass a message set aside, so these are
	// remembered here instead and not offered again while the process
	// runs (after a restart they are, once, and the ledger turns them
	// away). Only Run's goroutine touches them.
	setAside         map[imap.UID]*setAside
	doneAbove        map[imap.UID]bool
	setAsideValidity uint32
	// senders are the From addresses of the new messages, by UID, for
	// the fair order of fair.go: learned once, forgotten once done.
	senders map[imap.UID]string

	// Knobs for tests.
	minBackoff, maxBackoff time.Duration
	cmdTimeout             time.Duration // after which a command is taken as hung
	shutdownGrace          time.Duration // for the connection to wind down after ctx ends
	noIdle                 bool          // never IDLE, as if the server could not
	dialContext            dialFunc      // nil: TCP; an in-memory network in tests
}

// NewPoller returns a poller reading the mailbox of cfg into h, keeping
// its place in db. Run starts it. A nil log discards the logs.
func NewPoller(cfg IMAPConfig, db *state.DB, h Handler, log *slog.Logger) *Poller {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg.IMAP = cfg.IMAP.WithDefaults()
	return &Poller{
		cfg:           cfg,
		db:            db,
		handler:       h,
		log:           log.With("imap", cfg.Addr, "mailbox", cfg.Mailbox),
		minBackoff:    time.Second,
		maxBackoff:    5 * time.Minute,
		cmdTimeout:    2 * time.Minute,
		shutdownGrace: 10 * time.Second,
	}
}

// Run reads mail until ctx is cancelled, then finishes the message being
// handled, flags what was done, logs out and returns nil. It returns an
// error only for an invalid configuration: connection and server errors
// are logged and retried. Run must not be called again while it runs.
func (p *Poller) Run(ctx context.Context) error {
	if err := p.cfg.IMAP.Validate(); err != nil {
		return err
	}
	if p.handler == nil || p.db == nil {
		return errors.New("imap: poller without a handler or a database")
	}
	backoff := p.minBackoff
	for {
		worked, err := p.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if worked {
			// The server was fine a moment ago: a dropped connection is
			// no reason to wait long before the next.
			backoff = p.minBackoff
		}
		// Jitter, so that many judges on one server do not all come
		// back at once after it restarts.
		wait := backoff/2 + rand.N(backoff/2+1)
		msg := "imap connection failed; retrying"
		if errors.Is(err, state.ErrDamaged) {
			// The session ended on the database (storing its place in
			// the mailbox), not on the server: say so. A damage that
			// stops the writing stops the daemon (state.DB.Broken).
			msg = "the database failed; reading mail again after a pause"
		}
		p.log.Warn(msg, "err", err, "after", wait.Round(time.Millisecond))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		backoff = min(2*backoff, p.maxBackoff)
	}
}
