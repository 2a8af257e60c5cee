package mail

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/gmdjudge/gmd/state"
)

// A message whose handling fails for a reason of its own (it needs a
// damaged part of the database, or it trips a bug) holds up no other: the
// messages after it, and those that arrive later, are handled and flagged
// meanwhile; it stays new, is tried again less and less often, and once
// it goes through, everything is applied exactly once and the stored
// place moves past all of it.
//
// It runs in a synctest bubble, on the bubble's clock, so that the
// number of tries in a given time is exact.
func TestPollerHeldMessage(t *testing.T) {
	for _, kind := range []string{"damaged"} {
		t.Run(kind, func(t *testing.T) { synctest.Test(t, func(t *testing.T) { pollerHeldMessage(t, kind) }) })
	}
}

// pollerHeldMessage is TestPollerHeldMessage for one kind of failure:
// "damaged" (a handler's panic is the handler's to guard: see Handler).
func pollerHeldMessage(t *testing.T, kind string) {
	ts := newPipeTestServer(t, nil)
	for n := 1; n <= 4; n++ {
		ts.deliver("INBOX", testMail(n))
	}
	db := openDB(t)
	r := newRecorder(db)
	var failing atomic.Bool
	failing.Store(true)
	var tries atomic.Int32
	r.fail = func(d *Delivery) error {
		if d.In.Subject != "mail 2" || !failing.Load() {
			return nil
		}
		tries.Add(1)
		return fmt.Errorf("game dt: %w", ErrSetAside)
	}
	start(t, newTestPoller(t, ts, db, r.handle, nil))

	if applied := r.waitApplied(t, 3); !slices.Equal(applied, []string{"mail 1", "mail 3", "mail 4"}) {
		t.Fatalf("applied %q", applied)
	}
	ts.deliver("INBOX", testMail(5)) // arrives while mail 2 is held
	r.waitApplied(t, 4)
	waitFor(t, "mail 5 flagged", func() bool { return slices.Contains(ts.flags("INBOX")[5], imap.FlagSeen) })
	flags := ts.flags("INBOX")
	for uid, seen := range map[imap.UID]bool{1: true, 2: false, 3: true, 4: true, 5: true} {
		if slices.Contains(flags[uid], imap.FlagSeen) != seen {
			t.Errorf("UID %d: flags %v, want \\Seen %v", uid, flags[uid], seen)
		}
	}
	if v := meta(t, db, "lastuid"); v != "1" {
		t.Errorf("last UID %q while mail 2 is held, want 1", v)
	}
	// The poll interval is 20 ms: at every poll the held mail
	// would be tried 40 times in 800 ms. Waiting 20, 40, 80,
	// 160 and 320 ms between tries, it is tried 5 times more
	// after the first: 6 in all.
	before := tries.Load()
	time.Sleep(800 * time.Millisecond)
	synctest.Wait()
	if n := tries.Load(); n != 6 {
		t.Errorf("mail 2 tried %d times in 800 ms (%d before the wait), want 6", n, before)
	}

	failing.Store(false)
	applied := r.waitApplied(t, 5)
	waitFor(t, "last UID 5", func() bool { return meta(t, db, "lastuid") == "5" })
	if !slices.Equal(applied, []string{"mail 1", "mail 3", "mail 4", "mail 5", "mail 2"}) {
		t.Errorf("applied %q", applied)
	}
	calls, _ := r.snapshot()
	for _, s := range []string{"mail 1", "mail 3", "mail 4", "mail 5"} {
		if n := count(subjects(calls), s); n != 1 {
			t.Errorf("%s offered %d times", s, n)
		}
	}
	allSeen(t, ts, "INBOX", 1, 2, 3, 4, 5)
}

// count returns how many of ss are s.
func count(ss []string, s string) int {
	n := 0
	for _, x := range ss {
		if x == s {
			n++
		}
	}
	return n
}

// A held message is still new after a restart: the stored place stayed
// below it. The new poller offers it again, with those after it, which
// the ledger turns away.
func TestPollerHeldRestart(t *testing.T) {
	ts := newTestServer(t, nil)
	for n := 1; n <= 3; n++ {
		ts.deliver("INBOX", testMail(n))
	}
	db := openDB(t)
	r1 := newRecorder(db)
	r1.fail = func(d *Delivery) error {
		if d.In.Subject == "mail 2" {
			return fmt.Errorf("game dt: %w", ErrSetAside)
		}
		return nil
	}
	stop := start(t, newTestPoller(t, ts, db, r1.handle, nil))
	r1.waitApplied(t, 2)
	waitFor(t, "mail 3 flagged", func() bool { return slices.Contains(ts.flags("INBOX")[3], imap.FlagSeen) })
	stop()
	if v := meta(t, db, "lastuid"); v != "1" {
		t.Fatalf("last UID %q with mail 2 held, want 1", v)
	}

	r2 := newRecorder(db)
	start(t, newTestPoller(t, ts, db, r2.handle, nil))
	applied := r2.waitApplied(t, 1)
	waitFor(t, "last UID 3", func() bool { return meta(t, db, "lastuid") == "3" })
	calls, _ := r2.snapshot()
	if !slices.Equal(applied, []string{"mail 2"}) || !slices.Equal(subjects(calls), []string{"mail 2", "mail 3"}) {
		t.Errorf("after the restart: calls %q, applied %q", subjects(calls), applied)
	}
	allSeen(t, ts, "INBOX", 1, 2, 3)
}

// Any other failure still holds up the messages after it, in order: the
// next would fail the same way (TestPollerHandlerError); ownFault tells
// the two apart.
func TestOwnFault(t *testing.T) {
	for err, want := range map[error]bool{
		errors.New("write gmd.db: no space left on device"):              false,
		fmt.Errorf("game dt: %w", state.ErrDamaged):                      false, // the handler decides
		fmt.Errorf("game dt: %w", ErrSetAside):                           true,
		fmt.Errorf("two: %w", errors.Join(errors.New("x"), ErrSetAside)): true,
	} {
		if got := ownFault(err); got != want {
			t.Errorf("ownFault(%v) = %v, want %v", err, got, want)
		}
	}
}

// deliverAt appends a message to mailbox with the given arrival time.
func (ts *testServer) deliverAt(mailbox, raw string, at time.Time) {
	ts.t.Helper()
	if _, err := ts.user.Append(mailbox, bytes.NewReader([]byte(raw)), &imap.AppendOptions{Time: at}); err != nil {
		ts.t.Fatal(err)
	}
}

// With MaxAge, a message that arrived longer ago is passed over: not
// offered, not flagged, and not offered again after a restart, while the
// messages around it are handled as usual.
func TestPollerMaxAge(t *testing.T) {
	ts := newTestServer(t, nil)
	ts.deliver("INBOX", testMail(1))
	ts.deliverAt("INBOX", testMail(2), time.Now().Add(-100*24*time.Hour))
	ts.deliver("INBOX", testMail(3))
	db := openDB(t)
	maxAge := func(c *IMAPConfig) { c.MaxAge = 90 * 24 * time.Hour }
	r := newRecorder(db)
	stop := start(t, newTestPoller(t, ts, db, r.handle, maxAge))
	applied := r.waitApplied(t, 2)
	waitFor(t, "last UID 3", func() bool { return meta(t, db, "lastuid") == "3" })
	stop()
	calls, _ := r.snapshot()
	if !slices.Equal(applied, []string{"mail 1", "mail 3"}) || !slices.Equal(subjects(calls), applied) {
		t.Errorf("calls %q, applied %q", subjects(calls), applied)
	}
	if f := ts.flags("INBOX")[2]; slices.Contains(f, imap.FlagSeen) {
		t.Errorf("the old message was flagged %v", f)
	}

	// Without MaxAge (and the place lost), the same message is offered.
	ts.deliver("INBOX", testMail(4))
	r2 := newRecorder(db)
	err := db.Update(func(tx *state.Tx) error { return tx.PutMeta("imap/"+testUser+"/INBOX/lastuid", []byte("1")) })
	if err != nil {
		t.Fatal(err)
	}
	start(t, newTestPoller(t, ts, db, r2.handle, nil))
	if applied := r2.waitApplied(t, 2); !slices.Equal(applied, []string{"mail 2", "mail 4"}) {
		t.Errorf("without MaxAge: applied %q", applied)
	}
}
