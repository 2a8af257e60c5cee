package ctl

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// serveKick is serve with a kick that counts its calls.
func serveKick(t *testing.T) (db *state.DB, sock string, kicks *atomic.Int32) {
	t.Helper()
	db, err := state.Open(filepath.Join(t.TempDir(), "gmd.db"))
	if err != nil {
		t.Fatal(err)
	}
	kicks = new(atomic.Int32)
	sock = SocketPath(db.Path())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, sock, db, func() { kicks.Add(1) }) }()
	waitFor(t, sock)
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		db.Close()
	})
	return db, sock, kicks
}

// queue puts mails 1 (waiting for a retry), 2 and 3 (failed for good)
// in db's outbox.
func queue(t *testing.T, db *state.DB) {
	t.Helper()
	at := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	err := db.Update(func(tx *state.Tx) error {
		return errors.Join(
			tx.Enqueue(&state.OutMail{To: []string{"a@x.org"}, Subject: "one", Body: "long body", Created: at,
				Attempts: 2, NextTry: at.Add(time.Hour), LastError: "451 later"}),
			tx.Enqueue(&state.OutMail{To: []string{"b@x.org"}, Subject: "two", Created: at, Attempts: 1, Failed: "550 no"}),
			tx.Enqueue(&state.OutMail{To: []string{"c@x.org"}, Subject: "three", Created: at, Attempts: 1, Failed: "550 no"}),
		)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// outboxNow reads db's outbox.
func outboxNow(t *testing.T, db *state.DB) []*state.OutMail {
	t.Helper()
	var mails []*state.OutMail
	err := db.View(func(tx *state.Tx) error {
		var err error
		mails, err = tx.Outbox(0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return mails
}

// The daemon lists its outbox without the bodies, puts mails back in the
// queue and kicks its sender, and drops mails; a bad ID is an error that
// changes nothing, and does not kick.
func TestOutboxRequests(t *testing.T) {
	db, sock, kicks := serveKick(t)
	if mails, err := Outbox(sock); err != nil || len(mails) != 0 {
		t.Fatalf("empty outbox: %v, %v", mails, err)
	}
	queue(t, db)

	mails, err := Outbox(sock)
	if err != nil {
		t.Fatal(err)
	}
	if len(mails) != 3 || mails[0].Subject != "one" || mails[0].Body != "" || mails[0].LastError != "451 later" ||
		mails[2].Failed != "550 no" || !slices.Equal(mails[1].To, []string{"b@x.org"}) {
		t.Errorf("listing: %+v", mails)
	}

	for _, bad := range []struct {
		ids  []uint64
		want string
	}{
		{[]uint64{2, 9}, "gmd daemon: no mail 9 in the outbox"},
	} {
		if _, err := Retry(sock, bad.ids, false); err == nil || err.Error() != bad.want {
			t.Errorf("Retry(%v): %v, want %q", bad.ids, err, bad.want)
		}
		if _, err := Drop(sock, bad.ids); err == nil || err.Error() != bad.want {
			t.Errorf("Drop(%v): %v, want %q", bad.ids, err, bad.want)
		}
	}
	if got := outboxNow(t, db); got[1].Failed == "" || len(got) != 3 {
		t.Errorf("a bad ID changed the outbox: %+v", got)
	}
	if kicks.Load() != 0 {
		t.Errorf("%d kicks before anything was queued again", kicks.Load())
	}

	done, err := Retry(sock, nil, true)
	if err != nil || !slices.Equal(done, []uint64{2, 3}) {
		t.Fatalf("Retry of the failed mails: %v, %v", done, err)
	}
	if kicks.Load() != 1 {
		t.Errorf("%d kicks after a retry, want 1", kicks.Load())
	}
	for _, m := range outboxNow(t, db)[1:] {
		if m.Failed != "" || m.Attempts != 0 || !m.NextTry.IsZero() {
			t.Errorf("mail %d after retry: %+v", m.ID, m)
		}
	}
	if done, err := Retry(sock, []uint64{1}, false); err != nil || !slices.Equal(done, []uint64{1}) {
		t.Fatalf("Retry(1): %v, %v", done, err)
	}
	if m := outboxNow(t, db)[0]; !m.NextTry.IsZero() || m.Attempts != 0 || m.LastError != "" || m.Body != "long body" {
		t.Errorf("mail 1 after retry: %+v", m)
	}
	if done, err := Retry(sock, nil, true); err != nil || len(done) != 0 {
		t.Errorf("Retry with no failed mail: %v, %v", done, err)
	}

	if n, err := Drop(sock, []uint64{3, 1, 3}); err != nil || n != 2 {
		t.Fatalf("Drop(3, 1, 3): %d, %v", n, err)
	}
	if got := outboxNow(t, db); len(got) != 1 || got[0].ID != 2 {
		t.Errorf("after the drop: %+v", got)
	}
}

// Requests that make no sense are refused with a message.
func TestOutboxBadRequests(t *testing.T) {
	_, sock, _ := serveKick(t)
	for req, want := range map[string]string{
		"outbox retry":          "gmd daemon: outbox retry needs mail IDs, or failed",
		"outbox retry x1":       `gmd daemon: "x1" is not a mail ID (a number, as gmd outbox list shows)`,
		"outbox retry 0":        `gmd daemon: "0" is not a mail ID (a number, as gmd outbox list shows)`,
		"outbox retry 1 failed": `gmd daemon: "failed" is not a mail ID (a number, as gmd outbox list shows)`,
		"outbox drop":           "gmd daemon: outbox drop needs mail IDs",
		"outbox list 1":         "gmd daemon: outbox list takes no arguments",
		"outbox send 1":         `gmd daemon: unknown outbox request "send"`,
		"outboxes":              `gmd daemon: unknown command "outboxes"`,
	} {
		if _, err := ask(sock, req); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", req, err, want)
		}
	}
	if _, err := Retry(sock, []uint64{1}, true); err == nil || !strings.Contains(err.Error(), "at once") {
		t.Errorf("Retry of IDs and all failed: %v", err)
	}
	if _, err := Outbox(filepath.Join(t.TempDir(), "none.sock")); !errors.Is(err, ErrNoServer) {
		t.Errorf("Outbox without a daemon: %v", err)
	}
}
