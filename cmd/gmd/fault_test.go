package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
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
	// Tried at once, and again at each poll (every second): the mail's
	// transaction is made, and its group commit fails.
	waitLog(t, r, `level=ERROR msg="committing the mails handled failed; they stay new and will be tried again"`, 2)
	select {
	case code := <-r.done:
		t.Fatalf("gmd run exited with %d while the database could not be written:\n%s", code, r.log)
	default:
	}
	if n := count(readInbox(t, srv.IMAPAddr, player), "help while the disk is full"); n != 0 {
		t.Fatalf("%d replies while the database could not be written", n)
	}
	// The write fails, or the growth of the file before it, as the
	// group commit's transaction may need more pages.
	if log := r.log.String(); !strings.Contains(log, "bad file descriptor") && !strings.Contains(log, "truncate "+filepath.Join(dir, "gmd.db")) {
		t.Errorf("the log does not say what failed:\n%s", r.log)
	}

	if err := fault.Mend(); err != nil {
		t.Fatal(err)
	}
	waitInbox(t, srv, player, "help while the disk is full", r.log)
	r.exit(t)
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
	if code != exitTempFail || !strings.HasPrefix(errs, "gmd process: ") || !strings.Contains(errs, "the database is damaged: run gmd check") {
		t.Errorf("gmd process: status %d, stderr:\n%s", code, errs)
	}
}

// A page of the database damaged long after gmd run started, under one
// game: a mail for that game fails for a reason of its own, so it is
// held in the database, logged at ERROR with the mail, its sender told,
// and flagged done; the mails for other games are answered meanwhile,
// and the daemon keeps running. Once the page is mended (as a restored
// backup would), gmd held retry, through the control socket, runs it:
// it is answered once, and held no more.
func TestRunDamagedGame(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	// Small games around dt, so that the games bucket has many pages and
	// the one of dt holds no other game the test asks for.
	names := []string{"ab", "dt"}
	for i := range 40 {
		names = append(names, fmt.Sprintf("c%02d", i), fmt.Sprintf("e%02d", i))
	}
	path := newDB(t, dir, names...)
	r := startRun(t, writeConf(t, dir, srv, ""))
	waitLog(t, r, `msg="reading mail"`, 1)

	rot := diskfault.DamageTest(t, path, os.Getpagesize(), `"name":"dt"`)
	player := demo.Player(1)
	if err := srv.Send(player, []string{demo.Judge.Addr}, "list dt", "LIST dt\n"); err != nil {
		t.Fatal(err)
	}
	const held = `level=ERROR msg="a mail failed for a reason of its own: it is held for the admin (gmd held), and the next mails go on" from=player1@gmd.demo subject="list dt" held=1 err=`
	waitLog(t, r, held, 1)
	if !strings.Contains(r.log.String(), "the database is damaged: run gmd check, and restore the latest backup it finds sound") {
		t.Errorf("the log does not say what to do:\n%s", r.log)
	}
	waitInbox(t, srv, player, "list dt", r.log) // the notice
	if err := srv.Send(player, []string{demo.Judge.Addr}, "list ab", "LIST ab\n"); err != nil {
		t.Fatal(err)
	}
	waitInbox(t, srv, player, "list ab", r.log)
	select {
	case code := <-r.done:
		t.Fatalf("gmd run exited with %d with a damaged page:\n%s", code, r.log)
	default:
	}
	if seen := judgeSeen(t, srv); !seen["list dt"] || !seen["list ab"] {
		t.Errorf("\\Seen in the judge's INBOX: %v; want both: the held mail is done with in the mailbox", seen)
	}
	if code, out, _ := gmd(t, "", "held", "-db", path); code != 0 || !strings.Contains(out, "held mail 1, held ") {
		t.Errorf("gmd held list through the daemon: status %d:\n%s", code, out)
	}

	if err := rot.Mend(); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := gmd(t, "", "held", "-db", path, "retry", "1"); code != 0 || out != "held mail 1: handled; its answer is queued\n" {
		t.Fatalf("gmd held retry through the daemon: status %d, stdout %q, stderr %q", code, out, errs)
	}
	waitLog(t, r, `msg="a held mail was run again and handled" held=1`, 1)
	waitLog(t, r, `msg="mail sent" smtp=`+srv.SMTPAddr+` id=3 `, 1) // the answer
	r.exit(t)
	inbox := readInbox(t, srv.IMAPAddr, player)
	if n := count(inbox, "list dt"); n != 2 {
		t.Errorf("%d replies to \"list dt\", want 2: the notice, then the answer", n)
	}
	if n := count(inbox, "list ab"); n != 1 {
		t.Errorf("%d replies to \"list ab\", want 1", n)
	}
	if code, stdout, _ := gmd(t, "", "check", "-db", path); code != 0 || strings.Contains(stdout, "held") {
		t.Errorf("gmd check once mended and retried: status %d\n%s", code, stdout)
	}
}

// judgeSeen returns, by subject, whether each mail of the judge's INBOX
// is flagged \Seen.
func judgeSeen(t *testing.T, srv *demo.Servers) map[string]bool {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(demo.Judge.Addr, demo.Judge.Password).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	if sel.NumMessages == 0 {
		return seen
	}
	msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{Envelope: true, Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		seen[m.Envelope.Subject] = slices.Contains(m.Flags, imap.FlagSeen)
	}
	return seen
}

// A damaged freelist page, met by gmd run's next commit, leaves bbolt
// without its write lock for good (state.DB.Broken): the daemon stops
// at once with exit status 1 and says why, rather than hang. Started
// again, it would refuse the file and name the damage, until the admin
// restores a backup.
func TestRunWedged(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	path := newDB(t, dir, "dt")
	conf := writeConf(t, dir, srv, "")
	r := startRun(t, conf)
	waitLog(t, r, `msg="reading mail"`, 1)
	waitLog(t, r, `msg="ledger pruned"`, 1)

	page, size, err := diskfault.BoltFreelist(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := diskfault.DamagePage(path, size, page); err != nil {
		t.Fatal(err)
	}
	if err := srv.Send(demo.Player(1), []string{demo.Judge.Addr}, "help", "HELP\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-r.done:
		r.done <- code // for the cleanup
		if code != 1 {
			t.Errorf("gmd run exited with %d, want 1", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("gmd run did not stop with its database wedged:\n%s", r.log)
	}
	if log := r.log.String(); !strings.Contains(log, `msg="gmd run stopped"`) || !strings.Contains(log, "this process can no longer use the database") {
		t.Errorf("log:\n%s", log)
	}

	// This process keeps the file locked (bbolt never let go of it); a
	// new one would open it as this copy.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "gmd.db")
	if err := os.WriteFile(again, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if db, err := state.Open(again); err == nil || !strings.Contains(err.Error(), again+" is damaged") {
		if err == nil {
			db.Close()
		}
		t.Errorf("Open of the wedged database, as a restart would: %v", err)
	}
}
