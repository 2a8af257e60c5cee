package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/demo"
)

// sendConf writes the config file name into dir, with the database
// gmd.db beside it and an smtp block for smtpAddr, and returns its path.
func sendConf(t *testing.T, dir, name, smtpAddr string) string {
	t.Helper()
	src := fmt.Sprintf(`judge-address %s
db gmd.db
password-cost 4
smtp {
	address %s
	tls none
	username %s
	password %s
}
`, demo.Judge.Addr, smtpAddr, demo.Judge.Addr, demo.Judge.Password)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gmd.db")); err != nil {
		initDB(t, filepath.Join(dir, "gmd.db"))
	}
	return path
}

// repliesFor returns the subjects of the mails in a's INBOX that end in
// subject.
func repliesFor(t *testing.T, srv *demo.Servers, a demo.Account, subject string) []string {
	t.Helper()
	var out []string
	for _, m := range readInbox(t, srv.IMAPAddr, a) {
		if strings.HasSuffix(m.Subject, subject) {
			out = append(out, m.Subject)
		}
	}
	return out
}

// TestPipeSend runs a judge without gmd run: gmd process, with an smtp
// block in its config, answers a mail through the server at once; when
// the server is down the reply stays queued, the mail still counts as
// handled (status 0, so that the mail server does not bring it again),
// and the next gmd tick delivers it.
func TestPipeSend(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	up := sendConf(t, dir, "up.conf", srv.SMTPAddr)
	// A port nobody listens on: taken from the kernel, then let go.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	down := sendConf(t, dir, "down.conf", dead) // the same gmd.db
	p1 := demo.Player(1)

	code, out, errs := gmd(t, msg(p1.Addr, "help at once", "<s1@example.org>", "HELP\n"),
		"process", "-config", up)
	if code != 0 || out != "" {
		t.Fatalf("process: status %d, stdout %q, stderr %q", code, out, errs)
	}
	if want := "gmd process: 1 mail sent, 0 left in the outbox\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	if got := repliesFor(t, srv, p1, "help at once"); len(got) != 1 {
		t.Errorf("player1 got %d replies to the first mail, want 1: %q", len(got), got)
	}
	if n := len(outbox(t, filepath.Join(dir, "gmd.db"))); n != 0 {
		t.Errorf("%d mails left in the outbox after sending", n)
	}

	// The server is down: handled all the same, the reply kept.
	code, _, errs = gmd(t, msg(p1.Addr, "help while down", "<s2@example.org>", "HELP\n"),
		"process", "-config", down, "-now", "2026-03-01T12:00:00Z")
	if code != 0 {
		t.Fatalf("process with the server down: status %d (the mail would come again), stderr %q", code, errs)
	}
	if !strings.Contains(errs, "gmd process: 0 mails sent, 1 left in the outbox\n") || !strings.Contains(errs, "retry") {
		t.Errorf("stderr does not say the reply waits for a retry: %q", errs)
	}
	if n := len(outbox(t, filepath.Join(dir, "gmd.db"))); n != 1 {
		t.Fatalf("%d mails in the outbox, want the one reply", n)
	}
	if got := repliesFor(t, srv, p1, "help while down"); len(got) != 0 {
		t.Fatalf("a reply arrived through a closed port: %q", got)
	}

	// The next run from cron, an hour on, sends it.
	code, _, errs = gmd(t, "", "tick", "-config", up, "-now", "2026-03-01T13:00:00Z")
	if code != 0 {
		t.Fatalf("tick: status %d, stderr %q", code, errs)
	}
	if want := "gmd tick: 1 mail sent, 0 left in the outbox\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	if got := repliesFor(t, srv, p1, "help while down"); len(got) != 1 {
		t.Errorf("player1 got %d replies to the second mail, want 1: %q", len(got), got)
	}
}

// TestPipeDryRunDoesNotSend checks that -dry-run prints the replies and
// sends nothing, even with an smtp block in the config: it is how a
// script looks at what the judge would send.
func TestPipeDryRunDoesNotSend(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	conf := sendConf(t, dir, "judge.conf", srv.SMTPAddr)
	p1 := demo.Player(1)
	code, out, errs := gmd(t, msg(p1.Addr, "help on paper", "<d1@example.org>", "HELP\n"), "process", "-config", conf, "-dry-run")
	if code != 0 || !strings.HasPrefix(out, "From "+p1.Addr+"\n") {
		t.Fatalf("process -dry-run: status %d, stdout %.80q, stderr %q", code, out, errs)
	}
	if got := repliesFor(t, srv, p1, "help on paper"); len(got) != 0 {
		t.Errorf("-dry-run sent %d replies: %q", len(got), got)
	}
	if n := len(outbox(t, filepath.Join(dir, "gmd.db"))); n != 0 {
		t.Errorf("-dry-run left %d mails in the outbox", n)
	}
}
