package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

const (
	// batchCount is how many messages one FETCH asks for: few enough that
	// a crash redoes little, enough that a backlog takes few round trips.
	batchCount = 50
	// batchBytes bounds the bodies one FETCH brings into memory (a
	// message alone is not split, whatever its size).
	batchBytes = 8 << 20
	// dialTimeout bounds the TCP connect to a mail server.
	dialTimeout = 30 * time.Second
)

// errNoHeader is Delivery.DecodeErr for a message too large to read whose
// header cannot be read either.
var errNoHeader = errors.New("mail: no readable header with a From address")

// errClosed is returned when the server closed the connection while the
// poller was waiting for news.
var errClosed = errors.New("imap: connection closed by the server")

// session is one connection to the server, from login to logout.
type session struct {
	p *Poller
	c *imapclient.Client

	// news is signalled (without blocking: it runs on the client's reader
	// goroutine) when the server reports a new message count.
	news chan struct{}

	idle        bool     // the server has IDLE
	move        bool     // the server has MOVE
	uidPlus     bool     // the server has UIDPLUS (UID EXPUNGE)
	uidValidity uint32   // of the selected mailbox
	lastUID     imap.UID // the highest UID done, as stored
	worked      bool     // a poll went through: the server is fine

	// todo are the messages of the poll under way not yet reached:
	// they are handled out of UID order (fair.go), so the place stored
	// must stay below the lowest of them.
	todo map[imap.UID]bool
}

// session runs one connection until ctx is cancelled (nil error) or the
// connection fails. worked says whether it got as far as a complete poll.
func (p *Poller) session(ctx context.Context) (worked bool, err error) {
	s := &session{p: p, news: make(chan struct{}, 1)}
	opts := &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					s.notify()
				}
			},
		},
	}
	c, err := p.dial(ctx, opts)
	if err != nil {
		return false, err
	}
	s.c = c
	defer c.Close()

	// Once ctx ends the session winds down by itself (it checks ctx
	// between messages), but a server that stops answering must not hold
	// up the shutdown: after a grace period the connection is cut. The
	// message being handled is not affected; at worst it is flagged on
	// the next run, and the ledger turns it away then.
	stop := context.AfterFunc(ctx, func() {
		time.AfterFunc(p.shutdownGrace, func() { c.Close() })
	})
	defer stop()

	if err := s.open(); err != nil {
		return false, err
	}
	p.log.Info("reading mail", "uidvalidity", s.uidValidity, "last_uid", s.lastUID, "idle", s.idle)
	err = s.loop(ctx)
	return s.worked, err
}

// dialFunc opens a connection to a mail server, as net.Dialer.DialContext
// does. Tests give one over an in-memory network, on which a synctest
// bubble's fake clock can run.
type dialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// dial connects to the server in the configured TLS mode. It dials
// itself, rather than through imapclient.Dial*, so that ctx can cut a
// connect or handshake that hangs.
func (p *Poller) dial(ctx context.Context, opts *imapclient.Options) (*imapclient.Client, error) {
	if _, _, err := net.SplitHostPort(p.cfg.Addr); err != nil {
		return nil, fmt.Errorf("imap: address %q: %w", p.cfg.Addr, err)
	}
	dial := p.dialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext
	}
	conn, err := dial(ctx, "tcp", p.cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("imap: %w", err)
	}

	if p.cfg.TLS == config.TLSNone {
		// Validate allowed only loopback names ("localhost" among them);
		// make sure the name did not lead elsewhere before the password
		// goes out in clear.
		if a, ok := conn.RemoteAddr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
			conn.Close()
			return nil, fmt.Errorf("imap: %s is %v, not a loopback address: no login without TLS", p.cfg.Addr, conn.RemoteAddr())
		}
		return imapclient.New(conn, opts), nil
	}

	// Neither the TLS handshake nor STARTTLS has a timeout of its own.
	timer := time.AfterFunc(p.cmdTimeout, func() { conn.Close() })
	defer timer.Stop()
	defer context.AfterFunc(ctx, func() { conn.Close() })()

	tc := p.cfg.Server.TLSConfig()
	if p.cfg.TLS == config.TLSImplicit {
		if tc.NextProtos == nil {
			tc.NextProtos = []string{"imap"} // as imapclient.DialTLS does
		}
		tconn := tls.Client(conn, tc)
		if err := tconn.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("imap: TLS with %s: %w", p.cfg.Addr, err)
		}
		return imapclient.New(tconn, opts), nil
	}
	o := *opts
	o.TLSConfig = tc
	c, err := imapclient.NewStartTLS(conn, &o)
	if err != nil {
		return nil, fmt.Errorf("imap: STARTTLS with %s: %w", p.cfg.Addr, err)
	}
	return c, nil
}

// notify signals news without blocking.
func (s *session) notify() {
	select {
	case s.news <- struct{}{}:
	default:
	}
}

// guard cuts the connection if the command that follows takes longer than
// cmdTimeout: imapclient waits for an answer forever, and a server that
// hangs must not stall the judge. Call the function returned when the
// command is done.
func (s *session) guard() (done func()) {
	t := time.AfterFunc(s.p.cmdTimeout, func() {
		s.p.log.Warn("the server did not answer in time; dropping the connection", "timeout", s.p.cmdTimeout)
		s.c.Close()
	})
	return func() { t.Stop() }
}

// open logs in, makes sure the processed mailbox exists, selects the
// mailbox and finds the place where reading stopped last time.
func (s *session) open() error {
	cfg := &s.p.cfg
	done := s.guard()
	defer done()
	if err := s.c.Login(cfg.Username, cfg.Password).Wait(); err != nil {
		return fmt.Errorf("imap: login as %s: %w", cfg.Username, err)
	}
	caps := s.c.Caps()
	s.idle = caps.Has(imap.CapIdle) && !s.p.noIdle
	s.move = caps.Has(imap.CapMove)
	s.uidPlus = caps.Has(imap.CapUIDPlus)

	if cfg.ProcessedMailbox != "" {
		if err := s.ensureMailbox(cfg.ProcessedMailbox); err != nil {
			return err
		}
	}
	sel, err := s.c.Select(cfg.Mailbox, nil).Wait()
	if err != nil {
		return fmt.Errorf("imap: select %s: %w", cfg.Mailbox, err)
	}
	s.uidValidity = sel.UIDValidity
	if err := s.loadPlace(); err != nil {
		return err
	}
	s.p.resetSetAside(s.uidValidity)
	return nil
}

// ensureMailbox creates the mailbox name unless it exists.
func (s *session) ensureMailbox(name string) error {
	list, err := s.c.List("", name, nil).Collect()
	if err != nil {
		return fmt.Errorf("imap: list %s: %w", name, err)
	}
	for _, l := range list {
		if config.SameMailbox(l.Mailbox, name) {
			return nil
		}
	}
	if err := s.c.Create(name, nil).Wait(); err != nil {
		return fmt.Errorf("imap: create %s: %w", name, err)
	}
	s.p.log.Info("created the processed mailbox", "name", name)
	return nil
}

// metaKey returns the database key of one fact about the mailbox read. It
// names the account as well as the mailbox: another account's INBOX is
// another mailbox, whose UIDs and UIDVALIDITY may well repeat this one's.
func (p *Poller) metaKey(what string) string {
	return "imap/" + p.cfg.Username + "/" + p.cfg.Mailbox + "/" + what
}

// ledgerKey returns the ledger key of the message uid in the selected
// mailbox.
func (s *session) ledgerKey(uid imap.UID) string {
	return fmt.Sprintf("imap/%s/%s/%d/%d", s.p.cfg.Username, s.p.cfg.Mailbox, s.uidValidity, uid)
}

// loadPlace reads the UIDVALIDITY and last UID stored for the mailbox. A
// first visit, or a UIDVALIDITY that changed, starts from UID 0: every
// message in the mailbox is offered, and the handler's ledger turns away
// those it has already applied (by Message-ID, as the UIDs are new).
func (s *session) loadPlace() error {
	kValidity, kLast := s.p.metaKey("uidvalidity"), s.p.metaKey("lastuid")
	var validity, last []byte
	err := s.p.db.View(func(tx *state.Tx) error {
		v, err := tx.Meta(kValidity)
		if err != nil {
			return err
		}
		validity = bytes.Clone(v)
		v, err = tx.Meta(kLast)
		last = bytes.Clone(v)
		return err
	})
	if err != nil {
		return fmt.Errorf("imap: reading the last UID: %w", err)
	}
	stored, verr := strconv.ParseUint(string(validity), 10, 32)
	lastUID, lerr := strconv.ParseUint(string(last), 10, 32)
	switch {
	case validity == nil:
		s.p.log.Info("first visit to this mailbox: every message in it is new")
	case verr != nil || lerr != nil:
		s.p.log.Error("the stored place in the mailbox is damaged; reading it all again (the ledger keeps anything from being applied twice)",
			"uidvalidity", string(validity), "last_uid", string(last))
	case uint32(stored) != s.uidValidity:
		s.p.log.Warn("UIDVALIDITY changed: offering every message again (the ledger keeps anything from being applied twice)",
			"old", stored, "new", s.uidValidity)
	default:
		s.lastUID = imap.UID(lastUID)
		return nil
	}
	s.lastUID = 0
	return s.p.db.Update(func(tx *state.Tx) error {
		if err := tx.PutMeta(kValidity, []byte(strconv.FormatUint(uint64(s.uidValidity), 10))); err != nil {
			return err
		}
		return tx.PutMeta(kLast, []byte("0"))
	})
}

// loop polls, then waits for news, until ctx ends or the connection fails.
func (s *session) loop(ctx context.Context) error {
	for {
		if err := s.poll(ctx); err != nil {
			return err
		}
		s.worked = true
		if ctx.Err() != nil {
			break
		}
		if err := s.waitForNews(ctx); err != nil {
			return err
		}
		if ctx.Err() != nil {
			break
		}
	}
	done := s.guard()
	defer done()
	if err := s.c.Logout().Wait(); err != nil {
		s.p.log.Debug("logout", "err", err)
	}
	return nil
}

// waitForNews returns when the server reports new mail, PollInterval has
// passed, or ctx ends.
func (s *session) waitForNews(ctx context.Context) error {
	timer := time.NewTimer(s.p.cfg.PollInterval)
	defer timer.Stop()
	if !s.idle {
		select {
		case <-ctx.Done():
		case <-s.news:
		case <-timer.C:
		case <-s.c.Closed():
			return errClosed
		}
		return nil
	}

	done := s.guard()
	idle, err := s.c.Idle()
	done()
	if err != nil {
		return fmt.Errorf("imap: IDLE: %w", err)
	}
	closed := false
	select {
	case <-ctx.Done():
	case <-s.news:
	case <-timer.C:
	case <-s.c.Closed():
		closed = true
	}
	done = s.guard()
	defer done()
	if err := idle.Close(); err != nil {
		return fmt.Errorf("imap: ending IDLE: %w", err)
	}
	if err := idle.Wait(); err != nil {
		return fmt.Errorf("imap: IDLE: %w", err)
	}
	if closed {
		return errClosed
	}
	return nil
}

// poll hands every new message to the handler, round-robin by sender
// (fair.go). It returns nil, leaving the rest for the next poll, when ctx
// ends or the handler fails, or when new mail came meanwhile, to be
// ordered with the rest; an error means the connection is no good.
func (s *session) poll(ctx context.Context) error {
	// NOOP lets the server tell of messages that arrived since the last
	// command; a SEARCH alone may not see them on every server.
	done := s.guard()
	err := s.c.Noop().Wait()
	done()
	if err != nil {
		return fmt.Errorf("imap: NOOP: %w", err)
	}
	// Whatever news came so far, the search below covers.
	select {
	case <-s.news:
	default:
	}

	uids, err := s.searchNew()
	if err != nil {
		return err
	}
	uids = s.p.pending(uids, time.Now())
	if err := s.fetchSenders(uids); err != nil {
		return err
	}
	s.todo = make(map[imap.UID]bool, len(uids))
	for _, uid := range uids {
		s.todo[uid] = true
	}
	uids = fairOrder(uids, func(uid imap.UID) string { return s.p.senders[uid] })
	for len(uids) > 0 && ctx.Err() == nil {
		n := min(len(uids), batchCount)
		more, err := s.batch(ctx, uids[:n])
		if err != nil || !more {
			return err
		}
		uids = uids[n:]
		if len(uids) > 0 && len(s.news) > 0 {
			// New mail came: the loop polls again at once (the
			// signal stays), and orders it with what is left.
			return nil
		}
	}
	return nil
}

// reached notes that the poll is done with the message uid, for now.
func (s *session) reached(uid imap.UID) {
	delete(s.todo, uid)
}

// below returns the lowest message of the poll not yet reached, 0 if
// none: the stored place must stay below it.
func (s *session) below() imap.UID {
	var low imap.UID
	for uid := range s.todo {
		if low == 0 || uid < low {
			low = uid
		}
	}
	return low
}

// searchNew returns the UIDs above the last one done, in order.
func (s *session) searchNew() ([]imap.UID, error) {
	done := s.guard()
	defer done()
	crit := &imap.SearchCriteria{UID: []imap.UIDSet{{{Start: s.lastUID + 1, Stop: 0}}}}
	data, err := s.c.UIDSearch(crit, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("imap: UID SEARCH: %w", err)
	}
	// "n:*" always matches the highest UID of the mailbox, even when it
	// is below n (RFC 3501 §6.4.8): keep only what is really new.
	uids := slices.DeleteFunc(data.AllUIDs(), func(u imap.UID) bool { return u <= s.lastUID })
	slices.Sort(uids)
	return uids, nil
}

// batch hands the messages uids (in the order given, at most
// batchCount) to the handler, has what it did committed
// (Poller.Commit), then flags those done and stores the new last UID.
// more is false if it stopped early: ctx ended, the handler failed for
// a reason that is not the message's own (see ownFault), or the commit
// failed.
func (s *session) batch(ctx context.Context, uids []imap.UID) (more bool, err error) {
	info, err := s.fetchInfo(uids)
	if err != nil {
		return false, err
	}
	var handled []imap.UID // handled, so to flag \Seen
	var done []imap.UID    // handled, or passed over as too old
	last := s.lastUID      // the highest UID reached
	lost := false          // a commit failed: nothing of the batch is surely on disk
	// flush commits what the handler did so far, if it commits in
	// groups: at the end, and before the server is asked for more, as
	// the open group holds the database's write lock, which must not
	// wait on the network.
	flush := func() bool {
		lost = lost || !s.commit(handled)
		return !lost
	}
	defer func() {
		if !flush() {
			// Not all the handler did in this batch is on disk:
			// none of it counts as done, and all is offered again
			// (the ledger turns away what was written).
			for _, uid := range handled {
				s.todo[uid] = true
			}
			done = slices.DeleteFunc(done, func(uid imap.UID) bool { return slices.Contains(handled, uid) })
			handled = nil
			more = false
		}
		for _, uid := range done {
			delete(s.p.senders, uid)
		}
		// The messages done above the place are noted as done
		// (doneAbove) only once they are flagged: should the
		// connection fail first, the next session must offer them
		// again, for the ledger to turn away and the flag to be set.
		// With the fair order many are above the place at any time.
		before := maps.Clone(s.p.doneAbove)
		ferr := s.finish(handled, s.p.settle(last, done, s.below()))
		if ferr != nil {
			s.p.doneAbove = before
		}
		if err == nil {
			err = ferr
		}
	}()

	for len(uids) > 0 {
		// One FETCH for as many bodies as fit in batchBytes. Oversized
		// and too old messages do not count: only the header of the
		// one is fetched, nothing of the other.
		n, total := 0, int64(0)
		var small []imap.UID
		for ; n < len(uids); n++ {
			m, ok := info[uids[n]]
			if !ok || s.tooLarge(m.size) || s.tooOld(m.arrived) {
				continue
			}
			if total+m.size > batchBytes && len(small) > 0 {
				break
			}
			total += m.size
			small = append(small, uids[n])
		}
		group := uids[:n]
		uids = uids[n:]

		if !flush() {
			return false, nil
		}
		bodies, err := s.fetchBodies(small, &imap.FetchItemBodySection{Peek: true})
		if err != nil {
			return false, err
		}
		for _, uid := range group {
			if ctx.Err() != nil {
				return false, nil
			}
			m, ok := info[uid]
			var raw []byte
			switch {
			case ok && s.tooOld(m.arrived):
				s.p.log.Warn("passing over a message that arrived too long ago to tell whether it was handled already; it stays in the mailbox, unread",
					"uid", uid, "arrived", m.arrived, "max_age", s.p.cfg.MaxAge)
				done = append(done, uid)
				last = max(last, uid)
				s.reached(uid)
				continue
			case ok && s.tooLarge(m.size):
				hdr := &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true}
				var h map[imap.UID][]byte
				if !flush() {
					return false, nil
				}
				if h, err = s.fetchBodies([]imap.UID{uid}, hdr); err != nil {
					return false, err
				}
				raw, ok = h[uid]
			case ok:
				raw, ok = bodies[uid]
				delete(bodies, uid) // let it go once handled
			}
			if !ok {
				// UID FETCH passes over expunged messages in silence
				// (RFC 3501 §6.4.8): another client deleted it.
				s.p.log.Warn("a new message vanished before it could be read", "uid", uid)
				delete(s.p.setAside, uid)
				delete(s.p.senders, uid)
				last = max(last, uid)
				s.reached(uid)
				continue
			}
			d := s.delivery(uid, m.size, raw)
			err := s.handle(ctx, d)
			switch {
			case err == nil:
				delete(s.p.setAside, uid)
				handled = append(handled, uid)
				done = append(done, uid)
				last = max(last, uid)
				s.reached(uid)
			case ownFault(err):
				wait := s.p.hold(uid, time.Now())
				s.p.log.Error("handling a message failed for a reason of its own; it stays new and will be tried again later, and the messages after it go on",
					append(deliveryAttrs(d), "err", err, "tries", s.p.setAside[uid].tries, "retry_in", wait)...)
				last = max(last, uid) // settle keeps the stored place below it
				s.reached(uid)
			default:
				s.p.log.Error("handling a message failed; it stays new and will be tried again",
					append(deliveryAttrs(d), "err", err, "retry_in", s.p.cfg.PollInterval)...)
				// It stays in todo: the place stays below it.
				return false, nil
			}
		}
	}
	return true, nil
}

// commit has what the handler did for the messages handled committed,
// when the handler commits in groups (Poller.Commit), before they are
// flagged; it reports false when the commit failed.
func (s *session) commit(handled []imap.UID) bool {
	if s.p.Commit == nil {
		return true
	}
	if err := s.p.Commit(); err != nil {
		s.p.log.Error("committing the mails handled failed; they stay new and will be tried again",
			"mails", len(handled), "err", err, "retry_in", s.p.cfg.PollInterval)
		return false
	}
	return true
}

// deliveryAttrs returns what the log says of a delivery: its UID and,
// when its header could be read, its sender, subject and Message-ID.
func deliveryAttrs(d *Delivery) []any {
	attrs := []any{"uid", d.UID}
	if d.In != nil {
		attrs = append(attrs, "from", d.In.From, "subject", d.In.Subject, "message_id", d.In.MessageID)
	}
	return attrs
}

// tooLarge reports whether a message of size bytes is over the limit.
func (s *session) tooLarge(size int64) bool {
	return s.p.cfg.MaxSize > 0 && size > s.p.cfg.MaxSize
}

// tooOld reports whether a message that arrived then is past
// IMAPConfig.MaxAge. A server that gives no arrival time makes none too
// old.
func (s *session) tooOld(arrived time.Time) bool {
	return s.p.cfg.MaxAge > 0 && !arrived.IsZero() && time.Since(arrived) > s.p.cfg.MaxAge
}

// msgInfo is what the poller learns of a message before its body.
type msgInfo struct {
	size    int64
	arrived time.Time // INTERNALDATE; zero if the server sent none
}

// fetchInfo returns the size and arrival time of the messages uids that
// still exist.
func (s *session) fetchInfo(uids []imap.UID) (map[imap.UID]msgInfo, error) {
	done := s.guard()
	defer done()
	opts := &imap.FetchOptions{UID: true, RFC822Size: true, InternalDate: true}
	msgs, err := s.c.Fetch(imap.UIDSetNum(uids...), opts).Collect()
	if err != nil {
		return nil, fmt.Errorf("imap: UID FETCH sizes: %w", err)
	}
	info := make(map[imap.UID]msgInfo, len(msgs))
	for _, m := range msgs {
		if m.UID != 0 && slices.Contains(uids, m.UID) {
			info[m.UID] = msgInfo{size: m.RFC822Size, arrived: m.InternalDate}
		}
	}
	return info, nil
}

// fetchBodies returns the body section sec of the messages uids that still
// exist. A message the server answers for without the section is an
// error: it is there, and must not be taken for gone.
func (s *session) fetchBodies(uids []imap.UID, sec *imap.FetchItemBodySection) (map[imap.UID][]byte, error) {
	if len(uids) == 0 {
		return nil, nil
	}
	done := s.guard()
	defer done()
	opts := &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{sec}}
	msgs, err := s.c.Fetch(imap.UIDSetNum(uids...), opts).Collect()
	if err != nil {
		return nil, fmt.Errorf("imap: UID FETCH: %w", err)
	}
	bodies := make(map[imap.UID][]byte, len(msgs))
	answered := make(map[imap.UID]bool, len(msgs))
	for _, m := range msgs {
		// A flag change by another client can come as a FETCH of its
		// own for the same message, without the body.
		answered[m.UID] = true
		if b := m.FindBodySection(sec); b != nil {
			bodies[m.UID] = b
		}
	}
	for _, uid := range uids {
		if _, ok := bodies[uid]; !ok && answered[uid] {
			return nil, fmt.Errorf("imap: the server sent message UID %d without its content", uid)
		}
	}
	return bodies, nil
}

// delivery decodes the message uid for the handler. raw is the whole
// message, or only its header if it is too large.
func (s *session) delivery(uid imap.UID, size int64, raw []byte) *Delivery {
	d := ReadDelivery(raw, size, s.p.cfg.MaxSize)
	d.Keys, d.UID = []string{s.ledgerKey(uid)}, uint32(uid)
	return d
}

// handle calls the handler. It does not recover a panic: the handler
// guards its own (see Handler), so that a mail's panic is caught in one
// place.
func (s *session) handle(ctx context.Context, d *Delivery) error {
	if err := s.p.handler(ctx, d); err != nil {
		return err
	}
	attrs := []any{"uid", d.UID, "size", d.Size}
	if d.In != nil {
		attrs = append(attrs, "from", d.In.From, "message_id", d.In.MessageID)
	}
	s.p.log.Debug("message handled", attrs...)
	return nil
}

// finish flags the handled messages \Seen and moves them to the processed
// mailbox, then stores last as the last UID done. A connection failure
// before the store leaves the messages to be offered again, so that they
// are flagged and moved in the end (the handler does nothing the second
// time). A refusal by the server is only logged: the messages were
// handled, and asking again would not change its mind.
func (s *session) finish(handled []imap.UID, last imap.UID) error {
	if len(handled) > 0 {
		set := imap.UIDSetNum(handled...)
		done := s.guard()
		err := s.c.Store(set, &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen},
		}, nil).Close()
		done()
		if err != nil {
			if !refused(err) {
				return fmt.Errorf("imap: flagging \\Seen: %w", err)
			}
			s.p.log.Warn("the server would not flag handled messages \\Seen", "uids", set.String(), "err", err)
		}
		if dest := s.p.cfg.ProcessedMailbox; dest != "" {
			if err := s.moveTo(set, dest); err != nil {
				if !refused(err) {
					return fmt.Errorf("imap: moving to %s: %w", dest, err)
				}
				s.p.log.Warn("the server would not move handled messages", "uids", set.String(), "to", dest, "err", err)
			}
		}
	}
	if last <= s.lastUID {
		return nil
	}
	err := s.p.db.Update(func(tx *state.Tx) error {
		return tx.PutMeta(s.p.metaKey("lastuid"), []byte(strconv.FormatUint(uint64(last), 10)))
	})
	if err != nil {
		return fmt.Errorf("imap: storing the last UID: %w", err)
	}
	s.lastUID = last
	return nil
}

// moveTo moves the messages set to the mailbox dest: with MOVE if the
// server has it, else by COPY, \Deleted and EXPUNGE. Without UIDPLUS that
// EXPUNGE removes every message flagged \Deleted in the mailbox, not only
// these: a mailbox the judge reads is the judge's own.
func (s *session) moveTo(set imap.UIDSet, dest string) error {
	done := s.guard()
	defer done()
	if s.move {
		_, err := s.c.Move(set, dest).Wait()
		return err
	}
	// Step by step, rather than imapclient's own fallback, which sends
	// all three at once: a failed COPY must not be followed by a delete.
	if _, err := s.c.Copy(set, dest).Wait(); err != nil {
		return err
	}
	err := s.c.Store(set, &imap.StoreFlags{
		Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted},
	}, nil).Close()
	if err != nil {
		return err
	}
	if s.uidPlus {
		return s.c.UIDExpunge(set).Close()
	}
	return s.c.Expunge().Close()
}

// refused reports whether err is the server saying no to a command, as
// opposed to the connection failing.
func refused(err error) bool {
	var ie *imap.Error
	return errors.As(err, &ie) && (ie.Type == imap.StatusResponseTypeNo || ie.Type == imap.StatusResponseTypeBad)
}
