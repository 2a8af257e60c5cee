package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gmdjudge/gmd/demo"
	"github.com/gmdjudge/gmd/internal/diskfault"
	"github.com/gmdjudge/gmd/state"
)

// While its database cannot be written (a full disk, a file system
// remounted read-only), gmd run keeps running: a new mail stays new in
// the mailbox, the log says why at each try, and no reply goes out. Once
// the database can be written again, the mail is handled and answered
// once, without a restart.
func TestRunWriteFault(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	r := startRun(t, writeConf(t, dir, srv, ""))
	waitLog(t, r, `msg="reading mail"`, 1)

	fault := diskfault.BreakTest(t, filepath.Join(dir, "gmd.db"))
	player := demo.Player(1)
	if err := srv.Send(player, []string{demo.Judge.Addr}, "help while the disk is full", "HELP\n"); err != nil {
		t.Fatal(err)
	}
	// Tried at once, and again at each poll (every second).
	waitLog(t, r, `level=ERROR msg="handling a message failed; it stays new and will be tried again"`, 2)
	select {
	case code := <-r.done:
		t.Fatalf("gmd run exited with %d while the database could not be written:\n%s", code, r.log)
	default:
	}
	if n := count(readInbox(t, srv.IMAPAddr, player), "help while the disk is full"); n != 0 {
		t.Fatalf("%d replies while the database could not be written", n)
	}
	if !strings.Contains(r.log.String(), "bad file descriptor") {
		t.Errorf("the log does not say what failed:\n%s", r.log)
	}

	if err := fault.Mend(); err != nil {
		t.Fatal(err)
	}
	waitInbox(t, srv, player, "help while the disk is full", r.log)
	r.cancel()
	select {
	case code := <-r.done:
		r.done <- code // for the cleanup
		if code != 0 {
			t.Fatalf("gmd run exited with %d:\n%s", code, r.log)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("gmd run did not stop:\n%s", r.log)
	}
	if n := count(readInbox(t, srv.IMAPAddr, player), "help while the disk is full"); n != 1 {
		t.Errorf("%d replies to the mail, want 1", n)
	}
	if !strings.Contains(r.log.String(), `msg="mail handled" from=player1@gmd.demo subject="help while the disk is full"`) {
		t.Errorf("log:\n%s", r.log)
	}
}

// waitLog waits until the daemon's log holds substr n times.
func waitLog(t *testing.T, r *daemonRun, substr string, n int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for strings.Count(r.log.String(), substr) < n {
		if time.Now().After(deadline) {
			t.Fatalf("log does not hold %q %d times:\n%s", substr, n, r.log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A database with a damaged page past those Open reads: gmd check names
// the damage and exits 1; gmd process, which runs into it as it queues
// the reply, exits 75 (EX_TEMPFAIL), so that the mail server keeps the
// mail for later rather than bounce it, and does not crash.
func TestDamagedPage(t *testing.T) {
	dir := t.TempDir()
	path := newDB(t, dir, "dt")
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *state.Tx) error {
		for range 50 { // enough for the outbox to have pages of its own
			if err := tx.Enqueue(&state.OutMail{To: []string{"p@example.org"}, Subject: "queued", Body: strings.Repeat("x", 200)}); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	bdb, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	bdb.View(func(tx *bbolt.Tx) error {
		root, pageSize = int64(tx.Bucket([]byte("outbox")).Root()), int64(bdb.Info().PageSize)
		return nil
	})
	bdb.Close()
	if root == 0 {
		t.Fatal("the outbox has no page of its own")
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteAt(bytes.Repeat([]byte{0xA5}, int(pageSize)), root*pageSize)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, errs := gmd(t, "", "check", "-db", path)
	if code != 1 || !strings.HasPrefix(stdout, path+": ") || !strings.Contains(stdout, "\toutbox: cannot be read: ") {
		t.Errorf("gmd check: status %d, stdout:\n%s\nstderr:\n%s", code, stdout, errs)
	}
	code, _, errs = gmd(t, msg("p@example.org", "help", "<help.1@example.org>", "HELP\n"), "process", "-db", path)
	if code != exitTempFail || !strings.HasPrefix(errs, "gmd process: ") || !strings.Contains(errs, "is the database damaged? run gmd check") {
		t.Errorf("gmd process: status %d, stderr:\n%s", code, errs)
	}
}
