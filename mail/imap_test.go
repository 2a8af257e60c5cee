package mail

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

const (
	testUser = "judge@example.test"
	testPass = "judgepass"
)

// testServer is an in-process IMAP server with one user, whose mailboxes
// outlive the server: stop and start it again to play an outage.
type testServer struct {
	t    testing.TB
	mem  *imapmemserver.Server
	user *imapmemserver.User
	caps imap.CapSet
	tls  *tls.Config // the server's certificate; nil for plain IMAP
	// implicit serves TLS from the first byte; otherwise tls, if set, is
	// offered through STARTTLS.
	implicit bool

	// net, if set, is the in-memory network the server listens on (for
	// tests in a synctest bubble); nil for loopback TCP.
	net *pipeNet

	mu   sync.Mutex
	srv  *imapserver.Server
	addr string
}

// newTestServer starts a server on a free loopback port. caps nil means
// IMAP4rev1 and IMAP4rev2 (which implies MOVE and UIDPLUS).
func newTestServer(t testing.TB, caps imap.CapSet) *testServer {
	ts := newTestServerStopped(t, caps)
	ts.start("127.0.0.1:0")
	return ts
}

// newPipeTestServer is newTestServer on an in-memory network, for tests
// in a synctest bubble; newTestPoller dials it.
func newPipeTestServer(t testing.TB, caps imap.CapSet) *testServer {
	ts := newTestServerStopped(t, caps)
	ts.net = newPipeNet()
	ts.start("")
	return ts
}

// newTestServerStopped is newTestServer without the start, for a test
// to set up TLS first.
func newTestServerStopped(t testing.TB, caps imap.CapSet) *testServer {
	t.Helper()
	if caps == nil {
		caps = imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}}
	}
	mem := imapmemserver.New()
	u := imapmemserver.NewUser(testUser, testPass)
	// A new user has no mailbox at all, not even INBOX.
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	ts := &testServer{t: t, mem: mem, user: u, caps: caps}
	t.Cleanup(ts.stop)
	return ts
}

// start serves on addr ("127.0.0.1:0" for any port).
func (ts *testServer) start(addr string) {
	ts.t.Helper()
	var ln net.Listener
	if ts.net != nil {
		ln = ts.net.listen(addr)
	} else {
		var err error
		if ln, err = net.Listen("tcp", addr); err != nil {
			ts.t.Fatal(err)
		}
	}
	opts := &imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return ts.mem.NewSession(), nil, nil
		},
		Caps:         ts.caps,
		InsecureAuth: ts.tls == nil, // else LOGIN is refused without TLS
		Logger:       log.New(io.Discard, "", 0),
	}
	if ts.tls != nil {
		if ts.implicit {
			ln = tls.NewListener(ln, ts.tls)
		} else {
			opts.TLSConfig = ts.tls
		}
	}
	srv := imapserver.New(opts)
	go srv.Serve(ln)
	ts.mu.Lock()
	ts.srv, ts.addr = srv, ln.Addr().String()
	ts.mu.Unlock()
}

// address returns where the server listens.
func (ts *testServer) address() string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.addr
}

// stop closes the listener and every connection.
func (ts *testServer) stop() {
	ts.mu.Lock()
	srv := ts.srv
	ts.srv = nil
	ts.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// deliver appends a message to mailbox, as an MTA would.
func (ts *testServer) deliver(mailbox, raw string) {
	ts.t.Helper()
	if _, err := ts.user.Append(mailbox, bytes.NewReader([]byte(raw)), &imap.AppendOptions{Time: time.Now()}); err != nil {
		ts.t.Fatal(err)
	}
}

// flags returns the flags of each message of mailbox by UID, read over a
// connection of its own.
func (ts *testServer) flags(mailbox string) map[imap.UID][]imap.Flag {
	ts.t.Helper()
	var c *imapclient.Client
	if ts.net != nil {
		conn, err := ts.net.DialContext(context.Background(), "tcp", ts.address())
		if err != nil {
			ts.t.Fatal(err)
		}
		c = imapclient.New(conn, nil)
	} else {
		var err error
		if c, err = imapclient.DialInsecure(ts.address(), nil); err != nil {
			ts.t.Fatal(err)
		}
	}
	defer c.Close()
	if err := c.Login(testUser, testPass).Wait(); err != nil {
		ts.t.Fatal(err)
	}
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		ts.t.Fatal(err)
	}
	got := map[imap.UID][]imap.Flag{}
	if sel.NumMessages == 0 {
		return got
	}
	all := imap.SeqSet{{Start: 1, Stop: 0}} // 1:*
	msgs, err := c.Fetch(all, &imap.FetchOptions{UID: true, Flags: true}).Collect()
	if err != nil {
		ts.t.Fatal(err)
	}
	for _, m := range msgs {
		got[m.UID] = m.Flags
	}
	return got
}

// testMail returns test mail number n.
func testMail(n int) string {
	return fmt.Sprintf("From: Player %d <player%d@example.org>\r\n"+
		"To: judge@example.test\r\n"+
		"Subject: mail %d\r\n"+
		"Message-ID: <m%d@example.org>\r\n"+
		"Date: Mon, 05 Jan 2026 12:00:00 +0000\r\n"+
		"\r\n"+
		"body %d\r\n", n, n, n, n, n)
}

// recorder is a test Handler with a ledger in the poller's database, as
// session.Master.Handle keeps it: a delivery whose key or Message-ID is
// recorded is accepted and not applied again.
type recorder struct {
	db *state.DB

	mu      sync.Mutex
	calls   []*Delivery // every call, in order
	applied []string    // the subjects (or "uid N") applied, in order
	// fail, if set, may refuse a delivery (before anything is recorded).
	fail func(d *Delivery) error
	// after, if set, is called once a delivery is committed.
	after func(d *Delivery)
}

func newRecorder(db *state.DB) *recorder { return &recorder{db: db} }

func (r *recorder) handle(ctx context.Context, d *Delivery) error {
	r.mu.Lock()
	r.calls = append(r.calls, d)
	fail := r.fail
	r.mu.Unlock()
	if fail != nil {
		if err := fail(d); err != nil {
			return err
		}
	}
	keys := slices.Clone(d.Keys)
	name := fmt.Sprintf("uid %d", d.UID)
	if d.In != nil {
		name = d.In.Subject
		if d.In.MessageID != "" {
			keys = append(keys, "msgid:"+d.In.MessageID)
		}
	}
	applied := false
	err := r.db.Update(func(tx *state.Tx) error {
		for _, k := range keys {
			if seen, err := tx.Seen(k); err != nil || seen {
				return err
			}
		}
		for _, k := range keys {
			if err := tx.MarkSeen(k, time.Now()); err != nil {
				return err
			}
		}
		applied = true
		return nil
	})
	if err == nil && applied {
		r.mu.Lock()
		r.applied = append(r.applied, name)
		after := r.after
		r.mu.Unlock()
		if after != nil {
			after(d)
		}
	}
	return err
}

// snapshot returns copies of the calls and the applied names.
func (r *recorder) snapshot() ([]*Delivery, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls), slices.Clone(r.applied)
}

// subjects returns the subjects of the deliveries ("?" without one).
func subjects(ds []*Delivery) []string {
	var s []string
	for _, d := range ds {
		if d.In == nil {
			s = append(s, "?")
		} else {
			s = append(s, d.In.Subject)
		}
	}
	return s
}

// mails returns the subjects "mail from" to "mail to".
func mails(from, to int) []string {
	var s []string
	for n := from; n <= to; n++ {
		s = append(s, fmt.Sprintf("mail %d", n))
	}
	return s
}

// waitApplied waits until r applied n deliveries.
func (r *recorder) waitApplied(t *testing.T, n int) []string {
	t.Helper()
	var applied []string
	waitFor(t, fmt.Sprintf("%d applied", n), func() bool {
		_, applied = r.snapshot()
		return len(applied) >= n
	})
	return applied
}

// waitFor polls cond until it holds, failing the test after 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	waitLong(t, what, 5*time.Second, cond)
}

// waitLong is waitFor for work that takes long (a burst of a thousand
// mails under the race detector): it fails the test after limit.
func waitLong(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// openDB opens a new database in t's temporary directory.
func openDB(t testing.TB) *state.DB {
	t.Helper()
	db, err := state.Open(filepath.Join(t.TempDir(), "gmd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newTestPoller returns a poller on ts with fast timings; edit may change
// the configuration.
func newTestPoller(t testing.TB, ts *testServer, db *state.DB, h Handler, edit func(*IMAPConfig)) *Poller {
	cfg := IMAPConfig{IMAP: config.IMAP{
		Server:       config.Server{Addr: ts.address(), TLS: config.TLSNone, Username: testUser, Password: testPass},
		PollInterval: 20 * time.Millisecond,
	}}
	if edit != nil {
		edit(&cfg)
	}
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
	p := NewPoller(cfg, db, h, logger)
	if ts.net != nil {
		p.dialContext = ts.net.DialContext
	}
	p.minBackoff, p.maxBackoff = 5*time.Millisecond, 40*time.Millisecond
	p.shutdownGrace = 2 * time.Second
	return p
}

// start runs p until the returned stop is called (or the test ends), and
// checks that Run then returns nil promptly.
func start(t testing.TB, p *Poller) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("Run did not return after cancel")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// meta reads a value of the poller's place in db.
func meta(t *testing.T, db *state.DB, what string) string {
	t.Helper()
	var v []byte
	err := db.View(func(tx *state.Tx) error {
		b, err := tx.Meta("imap/" + testUser + "/INBOX/" + what)
		v = bytes.Clone(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(v)
}

// allSeen checks that the messages of mailbox are exactly uids, all \Seen.
func allSeen(t *testing.T, ts *testServer, mailbox string, uids ...imap.UID) {
	t.Helper()
	flags := ts.flags(mailbox)
	if len(flags) != len(uids) {
		t.Errorf("%s holds %d messages, want %d: %v", mailbox, len(flags), len(uids), flags)
	}
	for _, uid := range uids {
		if f, ok := flags[uid]; !ok || !slices.Contains(f, imap.FlagSeen) {
			t.Errorf("%s UID %d: flags %v (present %v), want \\Seen", mailbox, uid, f, ok)
		}
	}
}

func TestPollerBacklog(t *testing.T) {
	ts := newTestServer(t, nil)
	for n := 1; n <= 5; n++ {
		ts.deliver("INBOX", testMail(n))
	}
	db := openDB(t)
	r := newRecorder(db)
	stop := start(t, newTestPoller(t, ts, db, r.handle, nil))
	r.waitApplied(t, 5)
	waitFor(t, "last UID 5", func() bool { return meta(t, db, "lastuid") == "5" })
	stop()

	calls, applied := r.snapshot()
	if !slices.Equal(applied, mails(1, 5)) || !slices.Equal(subjects(calls), mails(1, 5)) {
		t.Fatalf("calls %q, applied %q", subjects(calls), applied)
	}
	for i, d := range calls {
		key := fmt.Sprintf("imap/%s/INBOX/1/%d", testUser, i+1)
		if d.UID != uint32(i+1) || !slices.Equal(d.Keys, []string{key}) || d.TooLarge || d.DecodeErr != nil {
			t.Errorf("delivery %d: %+v, want UID %d and key %s", i, d, i+1, key)
		}
		if d.In.From != fmt.Sprintf("player%d@example.org", i+1) || d.In.Body != fmt.Sprintf("body %d\n", i+1) {
			t.Errorf("delivery %d: %+v", i, d.In)
		}
	}
	allSeen(t, ts, "INBOX", 1, 2, 3, 4, 5)
	if v := meta(t, db, "uidvalidity"); v != "1" {
		t.Errorf("stored UIDVALIDITY %q", v)
	}
}

// TestPollerIdle has new mail arrive while the poller idles, with a poll
// interval too long to find it: only IDLE can.
// It runs in a synctest bubble: the mail must arrive long before the
// one-minute poll on the bubble's clock, so through IDLE.
func TestPollerIdle(t *testing.T) { synctest.Test(t, pollerIdle) }

func pollerIdle(t *testing.T) {
	ts := newPipeTestServer(t, nil)
	db := openDB(t)
	r := newRecorder(db)
	p := newTestPoller(t, ts, db, r.handle, func(c *IMAPConfig) { c.PollInterval = time.Minute })
	start(t, p)
	waitFor(t, "the first poll", func() bool { return meta(t, db, "uidvalidity") != "" })
	for n := 1; n <= 3; n++ {
		// imapmemserver can miss a message appended in the instant IDLE
		// starts (mail-test-servers.md, gotcha 8); the poll would find
		// it, but here it must be IDLE: wait until the poller is idle.
		synctest.Wait()
		sent := time.Now()
		ts.deliver("INBOX", testMail(n))
		r.waitApplied(t, n)
		if d := time.Since(sent); d >= time.Minute {
			t.Errorf("mail %d applied %v after it arrived: found by the poll, not IDLE", n, d)
		}
	}
	if _, applied := r.snapshot(); !slices.Equal(applied, mails(1, 3)) {
		t.Fatalf("applied %q", applied)
	}
}

// TestPollerPoll is TestPollerIdle for a server without IDLE.
func TestPollerPoll(t *testing.T) {
	ts := newTestServer(t, nil)
	db := openDB(t)
	r := newRecorder(db)
	p := newTestPoller(t, ts, db, r.handle, nil)
	p.noIdle = true
	start(t, p)
	for n := 1; n <= 3; n++ {
		ts.deliver("INBOX", testMail(n))
		r.waitApplied(t, n)
	}
	ts.deliver("INBOX", testMail(4))
	ts.deliver("INBOX", testMail(5))
	if applied := r.waitApplied(t, 5); !slices.Equal(applied, mails(1, 5)) {
		t.Fatalf("applied %q", applied)
	}
}

func TestPollerHandlerError(t *testing.T) {
	ts := newTestServer(t, nil)
	for n := 1; n <= 3; n++ {
		ts.deliver("INBOX", testMail(n))
	}
	db := openDB(t)
	r := newRecorder(db)
	var failing atomic.Bool
	failing.Store(true)
	var failures atomic.Int32
	r.fail = func(d *Delivery) error {
		if d.In.Subject == "mail 2" && failing.Load() {
			failures.Add(1)
			return errors.New("database is on fire")
		}
		return nil
	}
	start(t, newTestPoller(t, ts, db, r.handle, nil))

	// Mail 2 is tried again and again; mail 3 waits behind it.
	waitFor(t, "two failures", func() bool { return failures.Load() >= 2 })
	flags := ts.flags("INBOX")
	if !slices.Contains(flags[1], imap.FlagSeen) || slices.Contains(flags[2], imap.FlagSeen) || slices.Contains(flags[3], imap.FlagSeen) {
		t.Errorf("flags while mail 2 fails: %v", flags)
	}
	if v := meta(t, db, "lastuid"); v != "1" {
		t.Errorf("last UID %q while mail 2 fails, want 1", v)
	}
	failing.Store(false)
	applied := r.waitApplied(t, 3)
	waitFor(t, "last UID 3", func() bool { return meta(t, db, "lastuid") == "3" })
	if !slices.Equal(applied, mails(1, 3)) {
		t.Fatalf("applied %q", applied)
	}
	calls, _ := r.snapshot()
	var order []string
	for _, s := range subjects(calls) {
		if len(order) == 0 || order[len(order)-1] != s {
			order = append(order, s)
		}
	}
	if !slices.Equal(order, mails(1, 3)) {
		t.Errorf("calls out of order: %q", subjects(calls))
	}
	allSeen(t, ts, "INBOX", 1, 2, 3)
}

func TestPollerRestart(t *testing.T) {
	ts := newTestServer(t, nil)
	ts.deliver("INBOX", testMail(1))
	ts.deliver("INBOX", testMail(2))
	db := openDB(t)
	r1 := newRecorder(db)
	stop := start(t, newTestPoller(t, ts, db, r1.handle, nil))
	r1.waitApplied(t, 2)
	waitFor(t, "last UID 2", func() bool { return meta(t, db, "lastuid") == "2" })
	stop()

	ts.deliver("INBOX", testMail(3))
	r2 := newRecorder(db)
	start(t, newTestPoller(t, ts, db, r2.handle, nil))
	r2.waitApplied(t, 1)
	calls, applied := r2.snapshot()
	if !slices.Equal(subjects(calls), mails(3, 3)) || !slices.Equal(applied, mails(3, 3)) {
		t.Fatalf("after the restart: calls %q, applied %q", subjects(calls), applied)
	}
}

// TestPollerCrashWindow cuts the connection after the handler committed
// but before the messages were flagged: they are offered again, turned
// away by the ledger, and flagged in the end.
func TestPollerCrashWindow(t *testing.T) {
	ts := newTestServer(t, nil)
	for n := 1; n <= 3; n++ {
		ts.deliver("INBOX", testMail(n))
	}
	db := openDB(t)
	r := newRecorder(db)
	var once sync.Once
	r.after = func(d *Delivery) {
		if d.In.Subject == "mail 2" {
			once.Do(func() {
				addr := ts.address()
				ts.stop()
				ts.start(addr)
			})
		}
	}
	start(t, newTestPoller(t, ts, db, r.handle, nil))
	r.waitApplied(t, 3)
	waitFor(t, "last UID 3", func() bool { return meta(t, db, "lastuid") == "3" })
	calls, applied := r.snapshot()
	if !slices.Equal(applied, mails(1, 3)) {
		t.Fatalf("applied %q", applied)
	}
	if s := subjects(calls); len(s) <= 3 || !slices.Equal(s[:2], mails(1, 2)) {
		t.Errorf("calls %q: want mails 1 and 2 offered again", s)
	}
	allSeen(t, ts, "INBOX", 1, 2, 3)
}

// TestPollerUIDValidityChange recreates the mailbox with the same mail in
// it (a restore from backup): the UIDs are new, so every message is
// offered again, and only the ledger keeps them from being applied twice.
func TestPollerUIDValidityChange(t *testing.T) {
	ts := newTestServer(t, nil)
	for n := 1; n <= 3; n++ {
		ts.deliver("INBOX", testMail(n))
	}
	db := openDB(t)
	r := newRecorder(db)
	stop := start(t, newTestPoller(t, ts, db, r.handle, nil))
	r.waitApplied(t, 3)
	waitFor(t, "last UID 3", func() bool { return meta(t, db, "lastuid") == "3" })
	stop()

	if err := ts.user.Delete("INBOX"); err != nil {
		t.Fatal(err)
	}
	if err := ts.user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 4; n++ {
		ts.deliver("INBOX", testMail(n))
	}
	r2 := newRecorder(db)
	start(t, newTestPoller(t, ts, db, r2.handle, nil))
	applied := r2.waitApplied(t, 1)
	waitFor(t, "last UID 4", func() bool { return meta(t, db, "lastuid") == "4" })
	calls, _ := r2.snapshot()
	if !slices.Equal(subjects(calls), mails(1, 4)) || !slices.Equal(applied, mails(4, 4)) {
		t.Fatalf("after the UIDVALIDITY change: calls %q, applied %q", subjects(calls), applied)
	}
	if v := meta(t, db, "uidvalidity"); v != "2" {
		t.Errorf("stored UIDVALIDITY %q, want 2", v)
	}
	if k := calls[3].Keys[0]; k != "imap/"+testUser+"/INBOX/2/4" {
		t.Errorf("key %q", k)
	}
	allSeen(t, ts, "INBOX", 1, 2, 3, 4)
}

// TestPollerReconnect takes the server away and brings it back on the same
// address: the poller reconnects and goes on where it was.
// It runs in a synctest bubble, where the reconnects' backoff takes no
// real time.
func TestPollerReconnect(t *testing.T) { synctest.Test(t, pollerReconnect) }

func pollerReconnect(t *testing.T) {
	ts := newPipeTestServer(t, nil)
	ts.deliver("INBOX", testMail(1))
	db := openDB(t)
	r := newRecorder(db)
	start(t, newTestPoller(t, ts, db, r.handle, nil))
	r.waitApplied(t, 1)
	waitFor(t, "last UID 1", func() bool { return meta(t, db, "lastuid") == "1" })

	addr := ts.address()
	ts.stop()
	ts.deliver("INBOX", testMail(2))  // while the server is down
	time.Sleep(60 * time.Millisecond) // a few failed reconnects
	ts.start(addr)
	ts.deliver("INBOX", testMail(3))

	applied := r.waitApplied(t, 3)
	calls, _ := r.snapshot()
	if !slices.Equal(applied, mails(1, 3)) || !slices.Equal(subjects(calls), mails(1, 3)) {
		t.Fatalf("calls %q, applied %q", subjects(calls), applied)
	}
	waitFor(t, "last UID 3", func() bool { return meta(t, db, "lastuid") == "3" })
	allSeen(t, ts, "INBOX", 1, 2, 3)
}

// TestPollerProcessedMailbox moves handled mail to a mailbox it creates,
// with MOVE and with the COPY, STORE, EXPUNGE of a server without it.
func TestPollerProcessedMailbox(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps imap.CapSet
	}{
		{"MOVE", nil},
		{"UIDPLUS", imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapUIDPlus: {}}},
		{"COPY", imap.CapSet{imap.CapIMAP4rev1: {}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServer(t, tc.caps)
			for n := 1; n <= 3; n++ {
				ts.deliver("INBOX", testMail(n))
			}
			db := openDB(t)
			r := newRecorder(db)
			start(t, newTestPoller(t, ts, db, r.handle, func(c *IMAPConfig) { c.ProcessedMailbox = "Done" }))
			r.waitApplied(t, 3)
			waitFor(t, "last UID 3", func() bool { return meta(t, db, "lastuid") == "3" })
			ts.deliver("INBOX", testMail(4))
			if applied := r.waitApplied(t, 4); !slices.Equal(applied, mails(1, 4)) {
				t.Fatalf("applied %q", applied)
			}
			waitFor(t, "last UID 4", func() bool { return meta(t, db, "lastuid") == "4" })
			allSeen(t, ts, "INBOX")
			allSeen(t, ts, "Done", 1, 2, 3, 4)
		})
	}
}

func TestPollerTooLarge(t *testing.T) {
	ts := newTestServer(t, nil)
	big := strings.Replace(testMail(2), "body 2\r\n", strings.Repeat("A Par - Bur\r\n", 1000), 1)
	bigNoFrom := strings.Replace(big, "From:", "X-From:", 1)
	ts.deliver("INBOX", testMail(1))
	ts.deliver("INBOX", big)
	ts.deliver("INBOX", testMail(3))
	ts.deliver("INBOX", bigNoFrom)
	db := openDB(t)
	r := newRecorder(db)
	start(t, newTestPoller(t, ts, db, r.handle, func(c *IMAPConfig) { c.MaxSize = 2000 }))
	waitFor(t, "4 calls", func() bool { calls, _ := r.snapshot(); return len(calls) >= 4 })
	calls, _ := r.snapshot()

	if d := calls[1]; !d.TooLarge || d.DecodeErr != nil || d.In == nil || d.Size != int64(len(big)) ||
		d.In.From != "player2@example.org" || d.In.Subject != "mail 2" || d.In.MessageID != "<m2@example.org>" || d.In.Body != "" {
		t.Errorf("too large: %+v %+v", d, d.In)
	}
	if d := calls[3]; !d.TooLarge || d.DecodeErr == nil || d.In != nil {
		t.Errorf("too large without From: %+v", d)
	}
	for _, i := range []int{0, 2} {
		if d := calls[i]; d.TooLarge || d.DecodeErr != nil || d.In.Body != fmt.Sprintf("body %d\n", i+1) {
			t.Errorf("delivery %d: %+v %+v", i, d, d.In)
		}
	}
	// The raw message, for sender authentication: whole, or the header
	// of one too large.
	if got, want := string(calls[0].Raw), testMail(1); got != want {
		t.Errorf("raw message %q, want %q", got, want)
	}
	if raw := string(calls[1].Raw); !strings.HasPrefix(big, raw) || !strings.HasSuffix(raw, "\r\n\r\n") || strings.Contains(raw, "A Par") {
		t.Errorf("raw message of one too large: %q", raw)
	}
	waitFor(t, "last UID 4", func() bool { return meta(t, db, "lastuid") == "4" })
	allSeen(t, ts, "INBOX", 1, 2, 3, 4)
}

func TestPollerUndecodable(t *testing.T) {
	ts := newTestServer(t, nil)
	ts.deliver("INBOX", "From: player1@example.org\r\nSubject: broken\r\n"+
		"Content-Type: multipart/mixed; boundary=\"zz\"\r\n\r\nno boundary here\r\n")
	ts.deliver("INBOX", "Subject: nobody\r\n\r\nwho sent this?\r\n")
	db := openDB(t)
	r := newRecorder(db)
	start(t, newTestPoller(t, ts, db, r.handle, nil))
	waitFor(t, "2 calls", func() bool { calls, _ := r.snapshot(); return len(calls) >= 2 })
	calls, _ := r.snapshot()
	if d := calls[0]; d.DecodeErr == nil || d.In == nil || d.In.From != "player1@example.org" || d.In.Subject != "broken" {
		t.Errorf("bad MIME: %+v %+v", d, d.In)
	}
	if d := calls[1]; d.DecodeErr == nil || d.In != nil {
		t.Errorf("no From: %+v", d)
	}
	waitFor(t, "last UID 2", func() bool { return meta(t, db, "lastuid") == "2" })
	allSeen(t, ts, "INBOX", 1, 2)
}

// TestPollerShutdown cancels the poller while a message is being handled:
// that one is finished and flagged, the next is left for later.
// It runs in a synctest bubble, so that the cancel has landed, every
// goroutine blocked, before the handler is let go.
func TestPollerShutdown(t *testing.T) { synctest.Test(t, pollerShutdown) }

func pollerShutdown(t *testing.T) {
	ts := newPipeTestServer(t, nil)
	for n := 1; n <= 3; n++ {
		ts.deliver("INBOX", testMail(n))
	}
	db := openDB(t)
	r := newRecorder(db)
	entered, release := make(chan struct{}), make(chan struct{})
	r.fail = func(d *Delivery) error {
		if d.In.Subject == "mail 1" {
			close(entered)
			<-release
		}
		return nil
	}
	stop := start(t, newTestPoller(t, ts, db, r.handle, nil))
	<-entered
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	synctest.Wait() // the cancel lands first
	close(release)
	<-stopped

	calls, applied := r.snapshot()
	if !slices.Equal(subjects(calls), mails(1, 1)) || !slices.Equal(applied, mails(1, 1)) {
		t.Fatalf("calls %q, applied %q", subjects(calls), applied)
	}
	if v := meta(t, db, "lastuid"); v != "1" {
		t.Errorf("last UID %q, want 1", v)
	}
	flags := ts.flags("INBOX")
	if !slices.Contains(flags[1], imap.FlagSeen) || slices.Contains(flags[2], imap.FlagSeen) {
		t.Errorf("flags %v", flags)
	}
}

func TestIMAPConfigValidate(t *testing.T) {
	good := IMAPConfig{IMAP: config.IMAP{Server: config.Server{Addr: "imap.example.org:993", Username: "u", Password: "p"}}}
	for _, tc := range []struct {
		edit func(*IMAPConfig)
		err  string // "" for none
	}{
		{func(*IMAPConfig) {}, ""},
		{func(c *IMAPConfig) { c.TLS = config.TLSStartTLS }, ""},
		{func(c *IMAPConfig) { c.TLS, c.Addr = config.TLSNone, "127.0.0.1:143" }, ""},
		{func(c *IMAPConfig) { c.TLS, c.Addr = config.TLSNone, "[::1]:143" }, ""},
		{func(c *IMAPConfig) { c.TLS, c.Addr = config.TLSNone, "localhost:143" }, ""},
		{func(c *IMAPConfig) { c.TLS, c.Addr = config.TLSNone, "imap.example.org:143" }, "loopback"},
		{func(c *IMAPConfig) { c.TLS, c.Addr = config.TLSNone, "192.0.2.1:143" }, "loopback"},
		{func(c *IMAPConfig) { c.TLS = "ssl" }, "unknown TLS mode"},
		{func(c *IMAPConfig) { c.Addr = "imap.example.org" }, "host:port"},
		{func(c *IMAPConfig) { c.Password = "" }, "password"},
		{func(c *IMAPConfig) { c.ProcessedMailbox = "inbox" }, "is the mailbox read"},
		{func(c *IMAPConfig) { c.Mailbox, c.ProcessedMailbox = "Judge", "Judge" }, "is the mailbox read"},
		{func(c *IMAPConfig) { c.ProcessedMailbox = "Done" }, ""},
	} {
		cfg := good
		tc.edit(&cfg)
		err := cfg.Validate()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v: error %v, want %q", cfg, err, tc.err)
		}
	}

	// Run refuses it too, before connecting anywhere.
	cfg := IMAPConfig{IMAP: config.IMAP{Server: config.Server{Addr: "192.0.2.1:143", TLS: config.TLSNone, Username: "u", Password: "p"}}}
	err := NewPoller(cfg, openDB(t), func(context.Context, *Delivery) error { return nil }, nil).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("Run with TLS none to 192.0.2.1: %v", err)
	}
}

// testCert returns a self-signed certificate for 127.0.0.1 and a pool
// that trusts it.
func testCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// TestPollerTLS reads mail over implicit TLS and STARTTLS, and refuses a
// certificate it has no reason to trust.
func TestPollerTLS(t *testing.T) {
	cert, pool := testCert(t)
	for _, mode := range []config.TLSMode{config.TLSImplicit, config.TLSStartTLS} {
		t.Run(string(mode), func(t *testing.T) {
			ts := newTestServerStopped(t, nil)
			ts.tls = &tls.Config{Certificates: []tls.Certificate{cert}}
			ts.implicit = mode == config.TLSImplicit
			ts.start("127.0.0.1:0")
			ts.deliver("INBOX", testMail(1))
			db := openDB(t)

			// The system's roots do not know the test certificate.
			r := newRecorder(db)
			p := newTestPoller(t, ts, db, r.handle, func(c *IMAPConfig) { c.TLS = mode })
			c, err := p.dial(context.Background(), &imapclient.Options{})
			if err == nil {
				c.Close()
				t.Fatal("dial trusted a self-signed certificate")
			}
			var uerr x509.UnknownAuthorityError
			if !errors.As(err, &uerr) {
				t.Errorf("dial with an unknown certificate: %v", err)
			}

			p = newTestPoller(t, ts, db, r.handle, func(c *IMAPConfig) {
				c.TLS = mode
				c.RootCAs = pool
			})
			start(t, p)
			if applied := r.waitApplied(t, 1); !slices.Equal(applied, mails(1, 1)) {
				t.Fatalf("applied %q", applied)
			}
		})
	}
}

// BenchmarkPoller measures a backlog of b.N mails read through the
// in-process server into a handler that keeps a ledger (one bbolt
// transaction, so one fsync, per mail, as the game master's).
func BenchmarkPoller(b *testing.B) {
	ts := newTestServer(b, nil)
	for n := 1; n <= b.N; n++ {
		ts.deliver("INBOX", testMail(n))
	}
	db := openDB(b)
	r := newRecorder(db)
	p := newTestPoller(b, ts, db, r.handle, nil)
	p.log = slog.New(slog.DiscardHandler)
	b.ResetTimer()
	stop := start(b, p)
	for {
		if _, applied := r.snapshot(); len(applied) == b.N {
			break
		}
		time.Sleep(time.Millisecond)
	}
	b.StopTimer()
	stop()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}
