package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gmdjudge/gmd/daemon"
	"github.com/gmdjudge/gmd/demo"
	"github.com/gmdjudge/gmd/internal/diskfault"
	"github.com/gmdjudge/gmd/state"
)

// Tests of issue 18's damaged files (items 9 to 11): whatever a damaged
// page holds, gmd check names it and never crashes, and gmd run refuses
// the file before it takes a mail.

// outboxLeaf returns a database at dir/gmd.db with games and an outbox
// of several pages, its page size, and the number of a leaf page of the
// outbox: one the judge reads at every send.
func outboxLeaf(t *testing.T, dir string) (path string, pageSize int, leaf int64) {
	t.Helper()
	path = newDB(t, dir, "dt", "ab")
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *state.Tx) error {
		for range 80 {
			if err := tx.Enqueue(&state.OutMail{MessageID: "<gmd.x@localhost>", To: []string{"p@example.org"}, Subject: "queued", Body: strings.Repeat("x", 200)}); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	pageSize = bdb.Info().PageSize
	err = bdb.View(func(tx *bbolt.Tx) error {
		id := int(tx.Bucket([]byte("outbox")).Root())
		for {
			p, err := tx.Page(id)
			if err != nil {
				return err
			}
			if p.Type == "leaf" {
				leaf = int64(id)
				return nil
			}
			// A branch: its first child, as bbolt lays a branch out (the
			// page header, then pos, ksize and the child's pgid).
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			buf := make([]byte, 32)
			_, err = f.ReadAt(buf, int64(id)*int64(pageSize))
			f.Close()
			if err != nil {
				return err
			}
			id = int(binary.LittleEndian.Uint64(buf[24:]))
		}
	})
	if err != nil || leaf == 0 {
		t.Fatalf("no leaf page of the outbox: %v", err)
	}
	return path, pageSize, leaf
}

// leafDamage are ways a leaf page can be damaged, each writing into the
// page's bytes: the page header is 16 bytes (id, flags, count,
// overflow), each element 16 (flags, pos, ksize, vsize).
var leafDamage = map[string]func(p []byte){
	"key far past the file": func(p []byte) { binary.LittleEndian.PutUint32(p[20:], 0x7ffffff0) },
	"huge key":              func(p []byte) { binary.LittleEndian.PutUint32(p[24:], 0x7fffffff) },
	"huge value":            func(p []byte) { binary.LittleEndian.PutUint32(p[28:], 0x7fffffff) },
	"huge count":            func(p []byte) { binary.LittleEndian.PutUint16(p[10:], 0xffff) },
	"huge overflow":         func(p []byte) { binary.LittleEndian.PutUint32(p[12:], 0x7fffffff) },
	"wrong page id":         func(p []byte) { binary.LittleEndian.PutUint64(p, 1<<40) },
	"branch to nowhere": func(p []byte) {
		binary.LittleEndian.PutUint16(p[8:], 0x01) // a branch, its first child far away
		binary.LittleEndian.PutUint64(p[24:], 1<<40)
	},
	"keys out of order": func(p []byte) {
		pos := 16 + int(binary.LittleEndian.Uint32(p[20:]))
		p[pos] = 0xff // the first key now sorts after the others
	},
	"zeroed": func(p []byte) { clear(p) },
	"random": func(p []byte) {
		r := rand.New(rand.NewPCG(18, 10))
		for i := range p {
			p[i] = byte(r.Uint32())
		}
	},
}

// damage applies fn to page page of the file at path.
func damage(t *testing.T, path string, pageSize int, page int64, fn func([]byte)) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, pageSize)
	if _, err := f.ReadAt(buf, page*int64(pageSize)); err != nil {
		t.Fatal(err)
	}
	fn(buf)
	if _, err := f.WriteAt(buf, page*int64(pageSize)); err != nil {
		t.Fatal(err)
	}
}

// gmdChild runs gmd with args in a child process (the test binary
// playing gmd), so that a crash is seen as one rather than kill the
// tests: it returns the exit status, -1 for a signal, -2 when it has not
// finished after childTimeout (the old check looped for ever on some
// pages), and the output.
func gmdChild(t *testing.T, args ...string) (code int, out string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), childTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestGmdChild$")
	cmd.Env = append(os.Environ(), "GMD_TEST_CHILD_ARGS="+strings.Join(args, "\x1f"))
	b, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return -2, fmt.Sprintf("gmd %s did not finish in %v:\n%s", strings.Join(args, " "), childTimeout, b)
	}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(b)
		}
		t.Fatal(err)
	}
	return 0, string(b)
}

// childTimeout is how long gmdChild waits: a check of these small files
// takes milliseconds.
const childTimeout = 30 * time.Second

// TestGmdChild is gmd in the child process of gmdChild; alone it does
// nothing.
func TestGmdChild(t *testing.T) {
	args := os.Getenv("GMD_TEST_CHILD_ARGS")
	if args == "" {
		return
	}
	os.Exit(run(strings.Split(args, "\x1f"), os.Stdin, os.Stdout, os.Stderr))
}

// serversWithMail starts a mail and an IMAP server for gmd run, with a
// HELP waiting in the judge's mailbox.
func serversWithMail(t *testing.T) *demo.Servers {
	t.Helper()
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.Send(demo.Player(1), []string{demo.Judge.Addr}, "help", "HELP\n"); err != nil {
		t.Fatal(err)
	}
	return srv
}

// wantRefused runs gmd run on the database in dir and wants it to refuse
// the file at start: exit status 1, the log saying why (with want in
// it), no mail read.
func wantRefused(t *testing.T, dir string, srv *demo.Servers, want string) {
	t.Helper()
	r := startRun(t, writeConf(t, dir, srv, ""))
	select {
	case code := <-r.done:
		r.done <- code // for the cleanup
		log := r.log.String()
		if code != 1 || !strings.Contains(log, "refusing to start") || !strings.Contains(log, want) || strings.Contains(log, `msg="reading mail"`) {
			t.Errorf("gmd run: status %d, log:\n%s", code, log)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("gmd run did not refuse the file:\n%s", r.log)
	}
}

// wantUnread wants the HELP of serversWithMail unread and unanswered.
func wantUnread(t *testing.T, srv *demo.Servers) {
	t.Helper()
	if seen := judgeSeen(t, srv); seen["help"] {
		t.Error("the mail was flagged \\Seen by a judge that refused its database")
	}
	if n := count(readInbox(t, srv.IMAPAddr, demo.Player(1)), "help"); n != 0 {
		t.Errorf("%d replies from a judge that refused its database", n)
	}
}

// A damaged leaf page, in every way the list knows: gmd check exits 1
// with the damage named, and never dies of a signal (bbolt's own page
// check, in a goroutine of its own, died of SIGSEGV on the first), and
// gmd run refuses the file at start with exit status 1, saying why,
// before it reads a mail: the mail stays unread in the mailbox, and no
// reply goes out.
func TestDamagedLeafCheckedAndRefused(t *testing.T) {
	srv := serversWithMail(t)
	for name, fn := range leafDamage {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path, size, leaf := outboxLeaf(t, dir)
			damage(t, path, size, leaf, fn)
			code, out := gmdChild(t, "check", "-db", path)
			if code != 1 || !strings.Contains(out, path+": ") || !strings.Contains(out, fmt.Sprint(leaf)) {
				t.Errorf("gmd check: status %d (want 1; -1 is a signal, -2 a hang), output:\n%s", code, out)
			}
			wantRefused(t, dir, srv, "refusing to start")
		})
	}
	wantUnread(t, srv)
}

// A freelist page whose header is sound and whose list is garbage (page
// numbers past the file, or pages in use): gmd run used to start, answer
// none of the mails, log "imap connection failed; retrying" and never
// exit. It refuses the file at start with exit status 1, naming the
// freelist, before any mail is read; gmd check names it too.
func TestGarbageFreelistRefused(t *testing.T) {
	srv := serversWithMail(t)
	for name, ids := range map[string][]uint64{
		"past the file": {1 << 50, 12345678, 99},
		"in use":        {2, 3, 4},
		"twice":         {0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path, _, _ := outboxLeaf(t, dir)
			page, size, err := diskfault.BoltFreelist(path)
			if err != nil {
				t.Fatal(err)
			}
			damage(t, path, size, page, func(p []byte) {
				free := binary.LittleEndian.Uint16(p[10:])
				for i, id := range ids {
					if id == 0 && free > 0 { // a free page, listed again
						id = binary.LittleEndian.Uint64(p[16:])
					}
					binary.LittleEndian.PutUint64(p[16+8*(int(free)+i):], id)
				}
				binary.LittleEndian.PutUint16(p[10:], free+uint16(len(ids)))
			})
			if code, out := gmdChild(t, "check", "-db", path); code != 1 || !strings.Contains(out, "the freelist") {
				t.Errorf("gmd check: status %d, output:\n%s", code, out)
			}
			wantRefused(t, dir, srv, "the freelist")
		})
	}
	wantUnread(t, srv)
}

// An empty (0-byte) database file is refused by every command that
// opens one, with the message that says what it is and what to do, not
// bbolt's "write ...: bad file descriptor" of a read-only open.
func TestEmptyDatabaseEveryCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gmd.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	mail := msg("p@example.org", "help", "<help.1@example.org>", "HELP\n")
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"check", "-db", path}},
		{"", []string{"games", "-db", path}},
		{"", []string{"outbox", "-db", path}},
		{"", []string{"outbox", "-db", path, "list"}},
		{"", []string{"held", "-db", path}},
		{"", []string{"held", "-db", path, "list"}},
		{"", []string{"backup", "-db", path, "-o", path + ".copy"}},
		{mail, []string{"process", "-db", path}},
		{mail, []string{"process", "-db", path, "-dry-run"}},
		{"", []string{"tick", "-db", path}},
	} {
		code, _, errs := gmd(t, c.stdin, c.args...)
		if code == 0 || !strings.Contains(errs, path+" is empty (0 bytes), not a gmd database") || strings.Contains(errs, "bad file descriptor") {
			t.Errorf("gmd %s: status %d, stderr:\n%s", strings.Join(c.args, " "), code, errs)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Errorf("the empty file was changed: %v, %v", fi, err)
	}
}

// gmd held list echoes a held mail's sender and error (which may quote
// the mail) to the admin's terminal: no escape sequence or other control
// or bidi character reaches it.
func TestHeldListingClean(t *testing.T) {
	path := newDB(t, t.TempDir(), "dt")
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const x = "\x1b]0;owned\x07\x1b[2J\u202e\x00"
	err = db.Update(func(tx *state.Tx) error {
		return tx.HoldMail(&state.HeldMail{From: "evil" + x + "@example.org", Subject: "s" + x, Body: "b" + x,
			Error: "line" + x + "\nquoted" + x, Held: time.Now(), Tries: 1})
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := gmd(t, "", "held", "-db", path, "list")
	if code != 0 || !strings.Contains(out, "held mail 1") {
		t.Fatalf("gmd held list: status %d, stdout %q, stderr %q", code, out, errs)
	}
	if strings.ContainsFunc(out, func(r rune) bool { return r == 0x1b || r == 0x07 || r == 0 || r == '\u202e' }) {
		t.Errorf("gmd held list writes control characters:\n%q", out)
	}
}

// The attack of issue 18 as it was: a freelist of garbage under a daemon
// that took the file (the page check at start, which now refuses it, is
// skipped). Its first write meets the garbage as it commits. gmd run used
// to answer none of the mails, log "imap connection failed; retrying"
// and never exit; now it stops with exit status 1 and an error saying
// that no write can be trusted, and none of the mails is flagged \Seen
// or answered: they wait in the mailbox for the restored judge.
func TestRunStopsOnUnwritableDatabase(t *testing.T) {
	srv := serversWithMail(t)
	for i := range 4 {
		if err := srv.Send(demo.Player(1), []string{demo.Judge.Addr}, fmt.Sprintf("help %d", i), "HELP\n"); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	// Games and no queued mail: the first write is a mail's.
	names := []string{"dt"}
	for i := range 60 {
		names = append(names, fmt.Sprintf("g%02d", i))
	}
	path := newDB(t, dir, names...)
	page, size, err := diskfault.BoltFreelist(path)
	if err != nil {
		t.Fatal(err)
	}
	// The freelist lists one page, past the file: the first page any
	// write allocates.
	damage(t, path, size, page, func(p []byte) {
		binary.LittleEndian.PutUint64(p[16:], 1<<50)
		binary.LittleEndian.PutUint16(p[10:], 1)
	})
	cfg, err := daemon.LoadConfig(writeConf(t, dir, srv, ""))
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	done := make(chan error, 1)
	go func() {
		opt := daemonOptions()
		opt.NoPageCheck = true
		done <- daemon.Run(context.Background(), cfg, slog.New(slog.NewTextHandler(&log, nil)), opt)
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "no write can be trusted") {
			t.Errorf("gmd run stopped with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("gmd run did not stop on an unwritable database:\n%s", log.String())
	}
	if strings.Contains(log.String(), "imap connection failed") {
		t.Errorf("the database's fault was logged as the IMAP server's:\n%s", log.String())
	}
	seen := judgeSeen(t, srv)
	for subject, s := range seen {
		if s {
			t.Errorf("%q was flagged \\Seen by a judge that could not record it", subject)
		}
	}
	if len(seen) != 5 {
		t.Errorf("%d mails in the judge's mailbox, want 5", len(seen))
	}
	if n := len(readInbox(t, srv.IMAPAddr, demo.Player(1))); n != 0 {
		t.Errorf("%d replies went out", n)
	}
}
