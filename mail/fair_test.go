package mail

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// mailFrom returns test mail number n from the address from.
func mailFrom(n int, from string) string {
	return fmt.Sprintf("From: <%s>\r\nTo: judge@example.test\r\nSubject: %s %d\r\n"+
		"Message-ID: <f%d@example.org>\r\nDate: Mon, 05 Jan 2026 12:00:00 +0000\r\n\r\nbody %d\r\n",
		from, from, n, n, n)
}

// TestFairOrder: round-robin by sender, in any case of the address,
// each sender's mails in their order; every UID once.
func TestFairOrder(t *testing.T) {
	from := map[imap.UID]string{1: "a@x", 2: "A@x", 3: "a@x", 4: "b@x", 5: "c@x", 6: "b@x", 7: "", 8: "a@x"}
	uids := []imap.UID{1, 2, 3, 4, 5, 6, 7, 8}
	got := fairOrder(uids, func(u imap.UID) string { return from[u] })
	want := []imap.UID{1, 4, 5, 7, 2, 6, 3, 8}
	if !slices.Equal(got, want) {
		t.Errorf("fairOrder = %v, want %v", got, want)
	}
}

// TestPollerFairBurst performs the attack on intake: a burst of 1,000
// mails from one sender, then one from another. The other's mail is
// handled second, not 1,001st; the burst's mails keep their order, and
// every mail is applied once and flagged \Seen, the place stored past
// them all.
func TestPollerFairBurst(t *testing.T) {
	const burst = 1000
	ts := newTestServer(t, nil)
	for n := 1; n <= burst; n++ {
		ts.deliver("INBOX", mailFrom(n, "burst@example.org"))
	}
	ts.deliver("INBOX", mailFrom(burst+1, "other@example.org"))
	db := openDB(t)
	r := newRecorder(db)
	p := newTestPoller(t, ts, db, r.handle, nil)
	start(t, p)
	var applied []string
	waitLong(t, "the burst applied", 2*time.Minute, func() bool {
		_, applied = r.snapshot()
		return len(applied) >= burst+1
	})
	if i := slices.Index(applied, fmt.Sprintf("other@example.org %d", burst+1)); i != 1 {
		t.Errorf("the other sender's mail was handled %d-th, want second", i+1)
	}
	var own []string
	for _, a := range applied {
		if strings.HasPrefix(a, "burst@") {
			own = append(own, a)
		}
	}
	for i, a := range own {
		if want := fmt.Sprintf("burst@example.org %d", i+1); a != want {
			t.Fatalf("the burst's mail %d is %q, want %q: a sender's mails keep their order", i+1, a, want)
		}
	}
	waitLong(t, "the place stored", time.Minute, func() bool { return meta(t, db, "lastuid") == fmt.Sprint(burst+1) })
	uids := make([]imap.UID, burst+1)
	for i := range uids {
		uids[i] = imap.UID(i + 1)
	}
	allSeen(t, ts, "INBOX", uids...)
}

// TestPollerFairNews: mail that arrives while a burst is being handled
// waits for the batch under way, not for the burst.
func TestPollerFairNews(t *testing.T) {
	const burst = 500
	ts := newTestServer(t, nil)
	for n := 1; n <= burst; n++ {
		ts.deliver("INBOX", mailFrom(n, "burst@example.org"))
	}
	db := openDB(t)
	r := newRecorder(db)
	var once sync.Once
	r.fail = func(d *Delivery) error {
		// The other sender's mail comes while the burst's third is
		// handled.
		if d.UID == 3 {
			once.Do(func() { ts.deliver("INBOX", mailFrom(burst+1, "other@example.org")) })
		}
		return nil
	}
	p := newTestPoller(t, ts, db, r.handle, func(c *IMAPConfig) { c.PollInterval = time.Hour })
	start(t, p)
	var applied []string
	waitLong(t, "the burst applied", 2*time.Minute, func() bool {
		_, applied = r.snapshot()
		return len(applied) >= burst+1
	})
	i := slices.Index(applied, fmt.Sprintf("other@example.org %d", burst+1))
	// The batch under way, then the burst's next mail, which came
	// first (round-robin), then it.
	if i < 0 || i > batchCount+1 {
		t.Errorf("the mail that came during the burst was handled %d-th, want at most %d-th", i+1, batchCount+2)
	}
}

// groupRecorder is recorder's handler with a group commit, as gmd run's
// is (session.Intake): the ledger entries of a batch are written by the
// poller's Commit. commits counts the calls, and seenAtCommit the
// messages the server had flagged \Seen at each.
type groupRecorder struct {
	*recorder
	g       *state.Group
	ts      *testServer
	fail    error // Commit fails with it, once
	commits int
	early   []imap.UID // flagged before their commit
	pending []imap.UID
}

func (r *groupRecorder) handle(_ context.Context, d *Delivery) error {
	r.pending = append(r.pending, imap.UID(d.UID))
	return r.g.Update(func(tx *state.Tx) error {
		for _, k := range d.Keys {
			if seen, err := tx.Seen(k); err != nil || seen {
				return err
			}
		}
		return tx.MarkSeen(d.Keys[0], time.Now())
	})
}

func (r *groupRecorder) commit() error {
	if len(r.pending) == 0 {
		return r.g.Commit() // nothing to write
	}
	r.commits++
	flags := r.ts.flags("INBOX")
	for _, uid := range r.pending {
		if slices.Contains(flags[uid], imap.FlagSeen) {
			r.early = append(r.early, uid)
		}
	}
	if err := r.fail; err != nil {
		r.fail = nil
		r.pending = nil
		return err
	}
	r.pending = nil
	return r.g.Commit()
}

// TestPollerGroupCommit: with a group commit, no message is flagged
// \Seen before the commit of its batch, and a commit that fails leaves
// the whole batch new, offered again and then done.
func TestPollerGroupCommit(t *testing.T) {
	const n = 120
	ts := newTestServer(t, nil)
	for i := 1; i <= n; i++ {
		ts.deliver("INBOX", testMail(i))
	}
	db := openDB(t)
	r := &groupRecorder{recorder: newRecorder(db), g: db.NewGroup(), ts: ts, fail: errors.New("disk full")}
	p := newTestPoller(t, ts, db, r.handle, nil)
	p.Commit = r.commit
	start(t, p)
	waitFor(t, "every message handled", func() bool { return meta(t, db, "lastuid") == fmt.Sprint(n) })
	uids := make([]imap.UID, n)
	for i := range uids {
		uids[i] = imap.UID(i + 1)
	}
	allSeen(t, ts, "INBOX", uids...)
	if len(r.early) > 0 {
		t.Errorf("flagged \\Seen before their commit: %v", r.early)
	}
	// The first batch went twice: once into the failed commit.
	if want := (n+batchCount-1)/batchCount + 1; r.commits < want || r.commits > want+2 {
		t.Errorf("%d commits for %d messages, want about %d", r.commits, n, want)
	}
	err := db.View(func(tx *state.Tx) error {
		for _, uid := range uids {
			if seen, err := tx.Seen(fmt.Sprintf("imap/%s/INBOX/%s/%d", testUser, meta(t, db, "uidvalidity"), uid)); err != nil || !seen {
				return fmt.Errorf("UID %d not in the ledger (%v)", uid, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// queueBurst puts n replies to burst@example.test in o's outbox, in one
// transaction.
func queueBurst(t *testing.T, o *outbox, n int) {
	t.Helper()
	err := o.db.Update(func(tx *state.Tx) error {
		for i := range n {
			err := tx.Enqueue(&state.OutMail{MessageID: fmt.Sprintf("<burst.%d@example.test>", i),
				To: []string{"burst@example.test"}, Subject: "GMD - reply", Body: "Your mail had no commands in it.\n", Created: o.now})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// rcptOrder returns the position of the first mail the server got for
// addr, -1 if none.
func rcptOrder(got []smtpGot, addr string) int {
	return slices.IndexFunc(got, func(g smtpGot) bool { return slices.Contains(g.to, addr) })
}

// TestSendFairBurst performs the attack on the outbox: 1,000 replies to
// one address queued, then one to another. The other goes second, not
// 1,001st, and every mail goes once.
func TestSendFairBurst(t *testing.T) {
	const burst = 1000
	srv := startSMTP(t, "", &smtpServer{})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	queueBurst(t, o, burst)
	o.queue(&state.OutMail{To: []string{"other@example.test"}})
	o.flush(burst+1, false)
	got := srv.got()
	if i := rcptOrder(got, "other@example.test"); i != 1 {
		t.Errorf("the other address's mail went %d-th, want second", i+1)
	}
	if len(got) != burst+1 || len(o.mails()) != 0 {
		t.Errorf("the server got %d mails, %d left in the outbox; want %d and none", len(got), len(o.mails()), burst+1)
	}
}

// TestRunFairKick: a reply queued while Run sends a burst goes after the
// pass under way has sent yieldAfter mails and the burst's next one, not
// after the burst.
func TestRunFairKick(t *testing.T) {
	const burst = 300
	srv := &smtpServer{}
	var once sync.Once
	var o *outbox
	srv.onData = func(n int) {
		if n == 3 {
			once.Do(func() {
				o.queue(&state.OutMail{To: []string{"other@example.test"}})
				o.s.Kick()
			})
		}
	}
	startSMTP(t, "", srv)
	o = newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.s.Now = time.Now
	queueBurst(t, o, burst)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.s.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	waitLong(t, "every mail sent", time.Minute, func() bool { return len(srv.got()) == burst+1 })
	// yieldAfter mails, then the burst's next (due first in the new
	// pass, as it was queued first), then the new one.
	if i := rcptOrder(srv.got(), "other@example.test"); i != yieldAfter+1 {
		t.Errorf("the mail queued during the burst went %d-th, want %d-th", i+1, yieldAfter+2)
	}
}

// TestPollerFairFlagLost: the connection fails as the poller flags a
// batch handled out of UID order (the other sender's mail, above the
// place, among them). The next session offers the batch again, and
// every message ends flagged \Seen, each applied once: none is taken
// for flagged when it was not.
func TestPollerFairFlagLost(t *testing.T) {
	n := batchCount + 10
	ts := newTestServer(t, nil)
	for i := 1; i < n; i++ {
		ts.deliver("INBOX", mailFrom(i, "burst@example.org"))
	}
	ts.deliver("INBOX", mailFrom(n, "other@example.org"))
	db := openDB(t)
	r := newRecorder(db)
	var once sync.Once
	addr := ts.address()
	r.after = func(d *Delivery) {
		// The last of the first batch: the server goes away before the
		// batch is flagged, and comes back a moment later.
		if d.UID == batchCount-1 {
			once.Do(func() {
				ts.stop()
				go func() {
					time.Sleep(50 * time.Millisecond)
					ts.start(addr)
				}()
			})
		}
	}
	p := newTestPoller(t, ts, db, r.handle, nil)
	start(t, p)
	r.waitApplied(t, n)
	waitLong(t, "every message flagged", 30*time.Second, func() bool {
		flags := ts.flags("INBOX")
		for uid := 1; uid <= n; uid++ {
			if !slices.Contains(flags[imap.UID(uid)], imap.FlagSeen) {
				return false
			}
		}
		return true
	})
	if _, applied := r.snapshot(); len(applied) != n {
		t.Errorf("%d applied, want %d: each once", len(applied), n)
	}
}
