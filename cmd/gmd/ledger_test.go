package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/daemon"
	"github.com/gmdjudge/gmd/demo"
	"github.com/gmdjudge/gmd/state"
)

// ledgerDB makes a database whose ledger holds an entry of 100 days ago,
// one of 30 days ago and one of yesterday.
func ledgerDB(t *testing.T, dir string) string {
	t.Helper()
	path := newDB(t, dir)
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Now()
	err = db.Update(func(tx *state.Tx) error {
		for key, age := range map[string]int{"msgid:<old@x>": 100, "msgid:<month@x>": 30, "imap/judge/INBOX/1/7": 1} {
			if err := tx.MarkSeen(key, now.AddDate(0, 0, -age)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// seen returns which of keys the ledger of the database at path holds.
func seen(t *testing.T, path string, keys ...string) map[string]bool {
	t.Helper()
	db, err := state.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := map[string]bool{}
	err = db.View(func(tx *state.Tx) error {
		for _, k := range keys {
			s, err := tx.Seen(k)
			if err != nil {
				return err
			}
			got[k] = s
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// gmd run prunes the ledger as it starts, by judge.conf's
// ledger-retention: the entries older than that go, the others stay.
func TestRunPrunesLedger(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, tt := range []struct {
		conf    string
		removed int
		kept    map[string]bool
	}{
		{"", 1, map[string]bool{"msgid:<old@x>": false, "msgid:<month@x>": true, "imap/judge/INBOX/1/7": true}},
		{"ledger-retention 20d\n", 2, map[string]bool{"msgid:<old@x>": false, "msgid:<month@x>": false, "imap/judge/INBOX/1/7": true}},
	} {
		dir := t.TempDir()
		path := ledgerDB(t, dir)
		r := startRun(t, writeConf(t, dir, srv, tt.conf))
		waitLog(t, r, `msg="ledger pruned" removed=`, 1)
		r.stop(t)
		if want := fmt.Sprintf(`msg="ledger pruned" removed=%d `, tt.removed); !strings.Contains(r.log.String(), want) {
			t.Errorf("%q: log lacks %q:\n%s", tt.conf, want, r.log)
		}
		if got := seen(t, path, "msgid:<old@x>", "msgid:<month@x>", "imap/judge/INBOX/1/7"); !equalMaps(got, tt.kept) {
			t.Errorf("%q: ledger after the start: %v, want %v", tt.conf, got, tt.kept)
		}
	}
}

func equalMaps(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v != w {
			return false
		}
	}
	return true
}

// The daemon prunes the ledger again every daemon.PruneEvery, not only at start.
func TestDaemonPrunesPeriodically(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	ledgerDB(t, dir)
	cfg, err := daemon.LoadConfig(writeConf(t, dir, srv, ""))
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		opt := daemonOptions()
		opt.PruneEvery = 50 * time.Millisecond
		done <- daemon.Run(ctx, cfg, slog.New(slog.NewTextHandler(&log, nil)), opt)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(log.String(), `msg="ledger pruned"`) < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s := log.String()
	if strings.Count(s, `msg="ledger pruned"`) < 3 || !strings.Contains(s, `msg="ledger pruned" removed=1 `) ||
		!strings.Contains(s, `msg="ledger pruned" removed=0 `) {
		t.Errorf("log:\n%s", s)
	}
}

// gmd tick, the clock of a judge run from cron, prunes the ledger too,
// but once a day only: the database remembers when it last did.
func TestTickPrunesLedgerDaily(t *testing.T) {
	dir := t.TempDir()
	path := ledgerDB(t, dir)
	now := time.Now().UTC()
	tick := func(at time.Time) string {
		t.Helper()
		code, _, errs := gmd(t, "", "tick", "-db", path, "-now", at.Format(time.RFC3339))
		if code != 0 {
			t.Fatalf("tick at %v: status %d, stderr %q", at, code, errs)
		}
		return errs
	}
	errs := tick(now)
	if !strings.Contains(errs, "gmd tick: 1 ledger entry older than the retention removed\n") {
		t.Errorf("first tick: stderr %q, want one entry removed", errs)
	}
	want := map[string]bool{"msgid:<old@x>": false, "msgid:<month@x>": true, "imap/judge/INBOX/1/7": true}
	if got := seen(t, path, "msgid:<old@x>", "msgid:<month@x>", "imap/judge/INBOX/1/7"); !equalMaps(got, want) {
		t.Errorf("ledger after the first tick: %v, want %v", got, want)
	}

	// 65 days on, the month-old entry is past the 90 days; but the
	// last prune was only an hour before, so this tick leaves it.
	later := now.AddDate(0, 0, 65)
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *state.Tx) error {
		return tx.PutMeta(daemon.PrunedMeta, []byte(later.Add(-time.Hour).Format(time.RFC3339)))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if errs := tick(later); strings.Contains(errs, "ledger") {
		t.Errorf("a tick an hour after a prune pruned again: %q", errs)
	}
	if got := seen(t, path, "msgid:<month@x>"); !got["msgid:<month@x>"] {
		t.Error("the month-old entry went although no prune was due")
	}
	// A day after the last prune, it goes.
	if errs := tick(later.Add(daemon.PruneEvery)); !strings.Contains(errs, "1 ledger entry older than the retention removed") {
		t.Errorf("a tick a day after the last prune: stderr %q, want one entry removed", errs)
	}
	if got := seen(t, path, "msgid:<month@x>"); got["msgid:<month@x>"] {
		t.Error("the month-old entry outlived its retention")
	}
}
