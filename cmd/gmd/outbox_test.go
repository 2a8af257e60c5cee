package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/demo"
	"github.com/gmdjudge/gmd/state"
)

// listing matches what gmd outbox list shows of checkDB's outbox (the
// ages depend on today's date).
var listing = regexp.MustCompile(`^ID  AGE +TRIES  STATE   TO +SUBJECT
1   \d+d +0      due     p1@example.org +"waiting"
2   \d+d +1      failed  gone@example.org, p2@example.org  "GMD:dt - S1901M Results"
    refused for good: 2026-01-02T15:05:00Z: 550 5.1.1 gone@example.org: no such user
2 mails: 1 due, 0 waiting for a retry, 1 refused for good
$`)

// gmd outbox without a daemon: it reads the database for the list, and
// changes it for retry and drop; an ID not in the outbox is an error
// that changes nothing.
func TestOutboxDirect(t *testing.T) {
	dir := t.TempDir()
	path := checkDB(t, dir)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := gmd(t, "", "outbox", "-db", path)
	if code != 0 || !listing.MatchString(stdout) || errs != "" {
		t.Errorf("list: status %d, stdout:\n%s\nstderr:\n%s", code, stdout, errs)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("gmd outbox list changed the database")
	}

	for _, args := range [][]string{{"retry", "2", "9"}, {"drop", "9", "1"}} {
		code, stdout, errs = gmd(t, "", append([]string{"outbox", "-db", path}, args...)...)
		if code != 1 || stdout != "" || errs != "gmd outbox: no mail 9 in the outbox; nothing was changed\n" {
			t.Errorf("%v: status %d, stdout %q, stderr %q", args, code, stdout, errs)
		}
	}
	mails := outbox(t, path)
	if len(mails) != 2 || mails[1].Failed == "" {
		t.Fatalf("a bad ID changed the outbox: %+v", mails)
	}

	code, stdout, errs = gmd(t, "", "outbox", "-db", path, "retry", "-all-failed")
	if code != 0 || stdout != "queued again: mail 2; gmd run sends it when it starts\n" || errs != "" {
		t.Errorf("retry -all-failed: status %d, stdout %q, stderr %q", code, stdout, errs)
	}
	if m := outbox(t, path)[1]; m.Failed != "" || m.Attempts != 0 {
		t.Errorf("mail 2 after retry: %+v", m)
	}
	code, stdout, _ = gmd(t, "", "outbox", "retry", "-db", path, "-all-failed")
	if code != 0 || stdout != "no mail was refused for good: nothing to queue again\n" {
		t.Errorf("retry -all-failed again: status %d, stdout %q", code, stdout)
	}
	code, stdout, errs = gmd(t, "", "outbox", "-db", path, "drop", "1")
	if code != 0 || stdout != "dropped: 1 mail\n" || errs != "" {
		t.Errorf("drop 1: status %d, stdout %q, stderr %q", code, stdout, errs)
	}
	if mails := outbox(t, path); len(mails) != 1 || mails[0].ID != 2 {
		t.Errorf("after the drop: %+v", mails)
	}
	gmd(t, "", "outbox", "-db", path, "drop", "2")
	if code, stdout, _ := gmd(t, "", "outbox", "-db", path, "list"); code != 0 || stdout != "the outbox is empty\n" {
		t.Errorf("empty outbox: status %d, stdout %q", code, stdout)
	}
}

// Mistakes on the command line are refused with status 2 before
// anything is opened; a database that is not there is status 1, and is
// not created.
func TestOutboxUsage(t *testing.T) {
	dir := t.TempDir()
	path := checkDB(t, dir)
	missing := filepath.Join(dir, "none.db")
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"-db", path, "send"}, 2, `gmd outbox: unknown subcommand "send": want list, retry or drop` + "\n"},
		{[]string{"-db", path, "retry"}, 2, "gmd outbox: retry needs mail IDs, or -all-failed\n"},
		{[]string{"-db", path, "retry", "two"}, 2, `gmd outbox: "two" is not a mail ID (a number, as gmd outbox list shows)` + "\n"},
		{[]string{"-db", path, "retry", "0"}, 2, `gmd outbox: "0" is not a mail ID (a number, as gmd outbox list shows)` + "\n"},
		{[]string{"-db", path, "retry", "-1"}, 2, ""},
		{[]string{"-db", path, "retry", "2", "-all-failed"}, 2, `gmd outbox: "-all-failed" is not a mail ID (a number, as gmd outbox list shows)` + "\n"},
		{[]string{"-db", path, "-all-failed", "retry", "2"}, 2, "gmd outbox: retry takes mail IDs or -all-failed, not both\n"},
		{[]string{"-db", path, "drop"}, 2, "gmd outbox: drop needs mail IDs\n"},
		{[]string{"-db", path, "drop", "-all-failed"}, 2, "gmd outbox: -all-failed goes with retry only\n"},
		{[]string{"-db", path, "list", "1"}, 2, "gmd outbox: list takes no mail IDs\n"},
		{[]string{"retry", "1"}, 2, "gmd outbox: no database: give -db FILE, or db in the config file\n"},
		{[]string{"-db", missing}, 1, ""},
		{[]string{"-db", missing, "retry", "1"}, 1, ""},
	}
	for _, tt := range tests {
		code, _, errs := gmd(t, "", append([]string{"outbox"}, tt.args...)...)
		if code != tt.code || tt.stderr != "" && errs != tt.stderr {
			t.Errorf("%q: status %d, stderr %q; want %d, %q", tt.args, code, errs, tt.code, tt.stderr)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("gmd outbox created the missing database: %v", err)
	}
	if code, out, errs := gmd(t, "", "outbox", "-h"); code != 0 || !strings.Contains(out, "usage: gmd outbox") || errs != "" {
		t.Errorf("-h: status %d, stdout %q, stderr %q", code, out, errs)
	}
}

// While a daemon holds the database, gmd outbox goes through its control
// socket: the same listing, the same errors, and a retry kicks the
// daemon's sender.
func TestOutboxThroughDaemon(t *testing.T) {
	dir := t.TempDir()
	path := checkDB(t, dir)
	var kicks atomic.Int32
	db := fakeDaemon(t, path, func() { kicks.Add(1) })

	code, stdout, errs := gmd(t, "", "outbox", "-db", path)
	if code != 0 || !listing.MatchString(stdout) || errs != "" {
		t.Errorf("list: status %d, stdout:\n%s\nstderr:\n%s", code, stdout, errs)
	}
	code, stdout, errs = gmd(t, "", "outbox", "-db", path, "retry", "2", "9")
	if code != 1 || stdout != "" || errs != "gmd outbox: gmd daemon: no mail 9 in the outbox; nothing was changed\n" {
		t.Errorf("retry 2 9: status %d, stdout %q, stderr %q", code, stdout, errs)
	}
	if kicks.Load() != 0 {
		t.Errorf("%d kicks after a refused retry", kicks.Load())
	}
	code, stdout, errs = gmd(t, "", "outbox", "-db", path, "retry", "2")
	if code != 0 || stdout != "queued again: mail 2; the running daemon sends it now\n" || errs != "" {
		t.Errorf("retry 2: status %d, stdout %q, stderr %q", code, stdout, errs)
	}
	if kicks.Load() != 1 {
		t.Errorf("%d kicks after a retry, want 1", kicks.Load())
	}
	code, stdout, _ = gmd(t, "", "outbox", "-db", path, "drop", "1", "2")
	if code != 0 || stdout != "dropped: 2 mails\n" {
		t.Errorf("drop 1 2: status %d, stdout %q", code, stdout)
	}
	err := db.View(func(tx *state.Tx) error {
		mails, err := tx.Outbox(0)
		if len(mails) != 0 {
			t.Errorf("outbox after the drop: %+v", mails)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The whole way, with gmd run: a mail the SMTP server refused for good
// stays in the outbox; gmd outbox retry puts it back in the queue, and
// the running daemon sends it at once (without the kick it would wait
// for the sender's next look, a minute away).
func TestRunOutboxRetry(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	path := newDB(t, dir)
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	player := demo.Player(1)
	err = db.Update(func(tx *state.Tx) error {
		return tx.Enqueue(&state.OutMail{
			MessageID: "<refused.1@gmd.demo>", To: []string{player.Addr}, Subject: "refused once",
			Body: "Sent again by the admin.\n", Created: time.Now().UTC(),
			Attempts: 1, Failed: "2026-01-02T15:05:00Z: 550 mailbox full",
		})
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	conf := writeConf(t, dir, srv, "")
	r := startRun(t, conf)
	waitLog(t, r, `msg="reading mail"`, 1)
	waitLog(t, r, `msg="ledger pruned"`, 1) // the sender has had its first look by now too
	if n := count(readInbox(t, srv.IMAPAddr, player), "refused once"); n != 0 {
		t.Fatalf("a failed mail was sent %d times before the retry", n)
	}

	code, stdout, errs := gmd(t, "", "outbox", "-config", conf, "retry", "1")
	if code != 0 || stdout != "queued again: mail 1; the running daemon sends it now\n" {
		t.Fatalf("retry: status %d, stdout %q, stderr %q", code, stdout, errs)
	}
	start := time.Now()
	waitInbox(t, srv, player, "refused once", r.log)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the retried mail took %v to go", d)
	}
	// The sender removes a mail from the outbox just after the server's
	// 250, so the reply may be in the INBOX a moment before that.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		code, stdout, _ = gmd(t, "", "outbox", "-config", conf)
		if code == 0 && stdout == "the outbox is empty\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("list after the send: status %d, stdout %q", code, stdout)
			break
		}
	}
	r.stop(t)
}
