package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// Retry timing of the outbox.
const (
	// retryFirst is the wait after a first failed attempt; each further
	// failure doubles it, up to retryMax.
	retryFirst = 30 * time.Second
	retryMax   = time.Hour
	// pollEvery is the longest Run sleeps, so that a mail queued without
	// a Kick waits no longer than that.
	pollEvery = time.Minute
	// dbRetryFirst is Run's wait after a pass the database failed; each
	// further failure doubles it, up to pollEvery.
	dbRetryFirst = 5 * time.Second
)

// Sender is the outbox worker: it delivers the mails queued in the
// database to the SMTP submission server and removes each from the
// outbox once the server has taken it.
//
// A mail the server refuses for now (a 4xx reply, a network error, a
// server that is down) stays queued and is tried again after a wait that
// doubles from 30 seconds to an hour. A mail it refuses for good (5xx)
// stays too, with OutMail.Failed saying why, for the admin; it is not
// tried again. A failure to set up the session or to have the judge
// accepted as sender never makes a mail fail, whatever its code: a wrong
// password or a sender the server does not like is the configuration's
// fault, so every mail waits, retried with the same backoff, until it is
// fixed (the log says so as an error). Once a session works again after
// such an outage, the mails still waiting out their backoff go with it.
//
// Delivery is at least once: a mail leaves the outbox in a transaction
// committed after the server's 250 to its DATA, so no crash loses it. But
// a crash between that 250 and the commit, or a connection lost after the
// server took the mail and before its 250 arrived, means it is sent again
// later. The copy is the same message, Message-ID and Date
// included (the Date is when the mail was queued), so mail clients can
// tell it for the duplicate it is.
//
// When the database cannot be written (a full disk, a file system
// remounted read-only), the server may take mails that cannot be taken
// out of the outbox. They stay in it, so none is lost; the Sender
// remembers them and sends nothing more until the database takes their
// removal, which it tries again with a backoff, so none goes twice
// either, unless the process stops before the database is mended.
type Sender struct {
	// Now returns the current time; tests set it to move time on. It
	// must not be changed while Run or Flush is running.
	Now func() time.Time
	// Attach returns the attachments of a mail that has some
	// (OutMail.Attaches: maps drawn when the mail is sent, files as kept); nil sends every mail
	// as text alone. Its error costs the mail its attachments only: the
	// text goes all the same, and the log says why. Set it before Run or
	// Flush.
	Attach func(m *state.OutMail) ([]Attachment, error)

	cfg    SMTPConfig
	sender string      // envelope sender: cfg.From's address
	tls    *tls.Config // the server's (config.Server.TLSConfig)
	db     *state.DB
	log    *slog.Logger
	kick   chan struct{}

	// mu makes passes over the outbox take turns: two at once would send
	// the same mails twice.
	mu sync.Mutex
	// down says that the last pass could not set up a session or have
	// the judge accepted as sender. The next one that can also sends the
	// mails still waiting out their backoff: the outage is over, and they
	// would wait up to an hour for nothing.
	down bool
	// unrecorded lists the mails the server took whose removal from the
	// outbox the database refused. They are not sent again; each pass
	// first tries to remove them, and sends nothing while it cannot.
	unrecorded []uint64

	// sentTotal counts the mails the server took, for some recipients
	// at least, since the Sender was made: /metrics shows it.
	sentTotal atomic.Uint64

	dbRetryFirst time.Duration // the first wait after a database failure; shorter in tests
	dialContext  dialFunc      // nil: TCP; an in-memory network in tests
}

// NewSender returns a Sender for the outbox of db. cfg should have passed
// Validate; Run and Flush check it again and refuse to send if not. A nil
// log discards the log.
func NewSender(cfg SMTPConfig, db *state.DB, log *slog.Logger) *Sender {
	cfg.SMTP = cfg.SMTP.WithDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Sender{
		Now:  time.Now,
		cfg:  cfg,
		db:   db,
		log:  log,
		kick: make(chan struct{}, 1),

		dbRetryFirst: dbRetryFirst,
	}
	s.sender, _ = envelopeSender(cfg.From)
	s.tls = cfg.Server.TLSConfig()
	return s
}

// Sent returns how many mails the SMTP server has taken, for some of
// their recipients at least, since the Sender was made.
func (s *Sender) Sent() uint64 { return s.sentTotal.Load() }

// Kick makes Run look at the outbox now rather than at its next planned
// time. The daemon calls it after committing mails to the outbox. It
// never blocks.
func (s *Sender) Kick() {
	select {
	case s.kick <- struct{}{}:
	default: // a pass is due already
	}
}

// Run sends queued mails until ctx is done, then returns nil. It goes
// over the outbox at the start, after every Kick, when the earliest mail
// waiting for a retry is due, and at least once a minute. A mail being
// sent when ctx ends gets a few seconds to finish.
//
// Run returns early with an error only when the configuration is
// invalid. A pass the database failed is logged as an error and tried
// again after 5 seconds, doubling up to a minute, Kicks or not: the
// judge goes on reading mail and running its clock meanwhile, and the
// mail it queues once the database is back goes out then. A damaged
// outbox (a record that does not decode, a page bbolt cannot read) is
// such a failure too: nothing is sent until the admin repairs the
// database, but nothing is lost or sent twice.
func (s *Sender) Run(ctx context.Context) error {
	if err := s.cfg.Validate(); err != nil {
		return err
	}
	var dbWait time.Duration // zero while the database works
	for {
		res, err := s.pass(ctx, true)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			dbWait = min(max(2*dbWait, s.dbRetryFirst), pollEvery)
			msg := "the outbox cannot be updated; sending waits until the database can be written"
			if errors.Is(err, state.ErrDamaged) {
				// No waiting cures that: the admin must restore a
				// backup. The error says so.
				msg = "the outbox cannot be read; sending waits until the database is repaired"
			}
			s.log.Error(msg, "err", err, "retry_in", dbWait, "sent_unrecorded", s.unrecordedCount())
			t := time.NewTimer(dbWait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-t.C:
			}
			continue
		}
		if dbWait > 0 {
			s.log.Info("the outbox can be updated again; sending resumes")
			dbWait = 0
		}
		wait := pollEvery
		if !res.next.IsZero() {
			wait = max(min(wait, res.next.Sub(s.Now())), 0)
		}
		kick := s.kick
		if res.stalled {
			// While the server cannot be reached, new mails wait for
			// the next try with the others. Trying it for each would
			// read the whole outbox each time, as fast as mail comes
			// in, while the outbox grows.
			kick = nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-kick:
		case <-t.C:
		}
		t.Stop()
	}
}

// Flush goes over the outbox once, as Run does each time, and returns
// how many mails the server took. Mails kept for a retry make an error
// that says why; mails that failed for good do not (the log says so and
// the outbox keeps them). It is for "gmd process" and tests.
func (s *Sender) Flush(ctx context.Context) (sent int, err error) {
	if err := s.cfg.Validate(); err != nil {
		return 0, err
	}
	res, err := s.pass(ctx, false)
	switch {
	case err != nil:
		return res.sent, err
	case ctx.Err() != nil:
		return res.sent, ctx.Err()
	case res.deferred > 0:
		return res.sent, fmt.Errorf("mail: %d mail(s) left in the outbox for a retry: %w", res.deferred, res.err)
	}
	return res.sent, nil
}

// passResult sums up a pass over the outbox.
type passResult struct {
	sent     int       // mails the server took, for some recipients at least
	deferred int       // mails kept for a retry
	err      error     // the last reason to keep a mail for a retry
	next     time.Time // when the earliest waiting mail is due; zero if none
	stalled  bool      // no session could be had: no mail can go for now
}

// yieldAfter is how many mails a pass of Run sends at least before it
// makes way for a new pass, which reads the whole outbox again: during a
// burst the intake kicks the Sender after every batch, and reading a
// queue of thousands of mails after each mail sent would cost more than
// sending them.
const yieldAfter = 50

// pass sends the mails that are due, over one session as far as it will
// go, round-robin by recipient (fairOutbox). With yield it stops early,
// leaving the rest for the next pass, once a Kick says that new mail was
// queued and it has sent yieldAfter mails: the next pass orders the new
// mail with the rest, so that a reply queued behind a burst to another
// address waits for at most yieldAfter mails, not the burst.
// Its error is the database's; what goes wrong with the server is
// recorded in the outbox and in res.
func (s *Sender) pass(ctx context.Context, yield bool) (res passResult, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()

	if len(s.unrecorded) > 0 {
		// Sent already: they must leave the outbox before anything
		// else is sent, or they would be sent again.
		if err := deleteMails(s.db, s.unrecorded); err != nil {
			return res, fmt.Errorf("mail: removing %d sent mail(s) from the outbox: %w", len(s.unrecorded), err)
		}
		s.log.Info("sent mails removed from the outbox at last", "mails", len(s.unrecorded))
		s.unrecorded = nil
	}

	now := s.Now()
	var queue []*state.OutMail
	err = s.db.View(func(tx *state.Tx) error {
		var err error
		queue, err = tx.Outbox(0)
		return err
	})
	if err != nil {
		return res, fmt.Errorf("mail: reading the outbox: %w", err)
	}
	var due, waiting []*state.OutMail
	for _, m := range queue {
		switch {
		case m.Failed != "":
			// For the admin to look at.
		case m.NextTry.After(now) && !m.NextTry.After(now.Add(retryMax)):
			// (A next try further off than the longest wait means the
			// clock went back: the mail is due.)
			waiting = append(waiting, m)
		default:
			due = append(due, m)
		}
	}
	b := &batch{s: s, ctx: ctx, now: now, jitter: rand.Float64(), res: &res, sent: newRemover(s.db), yield: yield}
	err = b.send(fairOutbox(due), waiting)
	if b.conn != nil {
		b.conn.hangUp()
	}
	left, rerr := b.sent.close()
	s.unrecorded = append(s.unrecorded, left...)
	return res, errors.Join(err, rerr)
}

// unrecordedCount returns how many sent mails wait for their removal
// from the outbox, for the log.
func (s *Sender) unrecordedCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.unrecorded)
}

// deleteMails removes mails from the outbox in one transaction.
func deleteMails(db *state.DB, ids []uint64) error {
	return db.Update(func(tx *state.Tx) error {
		for _, id := range ids {
			if err := tx.DeleteOutMail(id); err != nil {
				return err
			}
		}
		return nil
	})
}

// batch is one pass over the outbox under way.
type batch struct {
	s    *Sender
	ctx  context.Context
	now  time.Time
	conn *conn // nil until needed, and after the session broke
	// jitter is drawn once a pass, so that the mails deferred together
	// come back together (one session), while gmd judges that share a
	// server do not all retry at the same moment.
	jitter float64
	res    *passResult
	sent   *remover // takes the mails the server took out of the outbox
	yield  bool     // stop at a Kick, for a new pass (see Sender.pass)
}

// send sends due, in order, and returns the database's error.
func (b *batch) send(due, waiting []*state.OutMail) error {
	mails := due
	for i := 0; i < len(mails); i++ {
		if b.ctx.Err() != nil {
			return nil // the rest stay as they are
		}
		if b.yield && i >= yieldAfter && len(b.s.kick) > 0 {
			// New mail: Run starts a pass at once (the Kick stays
			// for it), which orders it with what is left here.
			break
		}
		m := mails[i]
		msg, rcpts, err := b.s.message(m, b.now)
		if err != nil {
			if err := b.fail(m, err); err != nil {
				return err
			}
			continue
		}
		if b.conn == nil {
			if b.conn, err = b.s.connect(b.ctx); err != nil {
				if b.ctx.Err() != nil {
					return nil
				}
				b.s.down = true
				return b.holdBack(mails[i:], waiting, err)
			}
			if b.s.down {
				b.s.down = false
				mails = append(mails, waiting...)
				waiting = nil
			}
		}

		o := b.s.deliver(b.conn.c, rcpts, msg)
		if o.broken {
			b.conn.hangUp()
			b.conn = nil
		}
		if b.ctx.Err() != nil && o.err != nil && !o.perm && len(o.delivered) == 0 {
			// Cut short by the shutdown: not the mail's fault, so not
			// counted as an attempt.
			return nil
		}
		if o.session {
			b.s.down = true
			return b.holdBack(mails[i:], waiting, o.err)
		}
		if err := b.settle(m, o); err != nil {
			return err
		}
	}
	for _, m := range waiting {
		b.due(m.NextTry)
	}
	return nil
}

// settle records in the outbox what became of m.
func (b *batch) settle(m *state.OutMail, o outcome) error {
	log := b.s.log.With("id", m.ID, "message_id", m.MessageID)
	for _, d := range o.dropped {
		log.Warn("recipient refused, mail sent to the others only", "rcpt", d.addr, "err", d.err)
	}
	if o.perm {
		return b.fail(m, o.err)
	}
	if len(o.delivered) > 0 {
		b.res.sent++
		b.s.sentTotal.Add(1)
	}
	if len(o.retry) == 0 {
		log.Info("mail sent", "rcpts", len(o.delivered))
		return b.sent.add(m.ID)
	}
	if len(o.delivered) > 0 {
		log.Info("mail sent to some recipients, the others later", "rcpts", len(o.delivered), "left", len(o.retry))
	}
	// Only those left get the retry; the To header of a mail to one
	// recipient names them, which tells them nothing new.
	m.To = o.retry
	m.LastError = b.stamp(o.err)
	d := b.retry(m)
	log.Warn("mail kept for a retry", "attempt", m.Attempts, "retry_in", d.Round(time.Second), "err", o.err)
	b.res.deferred++
	b.res.err = o.err
	return b.put(m)
}

// stamp writes err with the time of the pass, as OutMail.Failed and
// OutMail.LastError hold it.
func (b *batch) stamp(err error) string {
	return b.now.UTC().Format(time.RFC3339) + ": " + err.Error()
}

// fail marks m as failed for good.
func (b *batch) fail(m *state.OutMail, err error) error {
	m.Attempts++
	m.Failed = b.stamp(err)
	b.s.log.Warn("mail failed for good, left in the outbox for the admin",
		"id", m.ID, "message_id", m.MessageID, "err", err)
	return b.put(m)
}

// holdBack keeps mails for a retry after a failure of the session:
// none of them was tried, but each counts the attempt, so that a server
// that stays down is tried less and less often.
func (b *batch) holdBack(mails, waiting []*state.OutMail, err error) error {
	var wait time.Duration
	for _, m := range mails {
		m.LastError = b.stamp(err)
		if d := b.retry(m); wait == 0 || d < wait {
			wait = d
		}
	}
	for _, m := range waiting {
		b.due(m.NextTry)
	}
	level := slog.LevelWarn
	if se := (*sessionError)(nil); errors.As(err, &se) && se.needsAdmin() {
		level = slog.LevelError // check the SMTP settings
	}
	b.s.log.Log(b.ctx, level, "cannot send, mails stay queued",
		"mails", len(mails), "retry_in", wait.Round(time.Second), "err", err)
	b.res.deferred += len(mails)
	b.res.err = err
	b.res.stalled = true
	return b.put(mails...)
}

// retry counts an attempt at m and sets its next try, returning the wait.
func (b *batch) retry(m *state.OutMail) time.Duration {
	m.Attempts++
	d := retryMax
	if m.Attempts <= 8 { // 30s << 7 is past the hour already
		d = min(retryFirst<<(m.Attempts-1), retryMax)
	}
	d -= time.Duration(b.jitter * float64(d) / 5) // up to a fifth earlier
	m.NextTry = b.now.Add(d)
	b.due(m.NextTry)
	return d
}

// due notes that a mail is due at t.
func (b *batch) due(t time.Time) {
	if b.res.next.IsZero() || t.Before(b.res.next) {
		b.res.next = t
	}
}

// put writes mails back to the outbox in one transaction. A mail that is
// no longer there (an admin removed it) stays removed.
func (b *batch) put(mails ...*state.OutMail) error {
	err := b.s.db.Update(func(tx *state.Tx) error {
		for _, m := range mails {
			if err := tx.PutOutMail(m); err != nil && !errors.Is(err, state.ErrNotFound) {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("mail: updating the outbox: %w", err)
	}
	return nil
}

// remover deletes sent mails from the outbox in the background, while the
// next ones are being sent. Each transaction deletes the mails whose 250
// came during the one before, so the deletes cost one fsync per mail only
// as long as that is faster than the server, and a crash resends no more
// mails than with a delete right after each 250: those whose delete was
// not yet committed.
type remover struct {
	db   *state.DB
	wake chan struct{}
	done chan struct{}

	mu  sync.Mutex
	ids []uint64 // sent, not yet deleted
	err error    // of the first failed transaction
}

func newRemover(db *state.DB) *remover {
	r := &remover{db: db, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go r.run()
	return r
}

// add has mail id deleted. It returns the error of an earlier delete, to
// stop the pass: the database cannot record what is sent, so nothing more
// may be sent. The mail is kept for close to return all the same.
func (r *remover) add(id uint64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ids = append(r.ids, id)
	if r.err != nil {
		return r.err
	}
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return nil
}

// close waits until every mail added is deleted, or a delete failed, and
// ends r. It returns the mails not deleted, with the error that stopped
// it.
func (r *remover) close() (left []uint64, err error) {
	close(r.wake)
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ids, r.err
}

func (r *remover) run() {
	defer close(r.done)
	for range r.wake {
		r.mu.Lock()
		ids := r.ids
		r.ids = nil
		r.mu.Unlock()
		if len(ids) == 0 {
			continue
		}
		if err := deleteMails(r.db, ids); err != nil {
			r.mu.Lock()
			r.err = fmt.Errorf("mail: removing %d sent mail(s) from the outbox: %w", len(ids), err)
			r.ids = append(ids, r.ids...)
			r.mu.Unlock()
			return
		}
	}
}
