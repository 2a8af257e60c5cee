package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/demo"
)

// writeConf writes a judge.conf for the judge on srv into dir, with
// extra directives at its end, and returns its path.
func writeConf(t *testing.T, dir string, srv *demo.Servers, extra string) string {
	t.Helper()
	conf := fmt.Sprintf(`judge-name GMD
judge-address %[1]s
db gmd.db
log-level debug
password-cost 4
imap {
	address %[2]s
	tls none
	username %[1]s
	password %[3]s
	poll-interval 1s
}
smtp {
	address %[4]s
	tls none
	username %[1]s
	password %[3]s
}
%[5]s`, demo.Judge.Addr, srv.IMAPAddr, demo.Judge.Password, srv.SMTPAddr, extra)
	path := filepath.Join(dir, "judge.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// daemonRun is gmd run in a goroutine.
type daemonRun struct {
	cancel context.CancelFunc
	done   chan int
	log    *syncBuffer
}

// startRun starts gmd run -config conf.
func startRun(t *testing.T, conf string) *daemonRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &daemonRun{cancel: cancel, done: make(chan int, 1), log: &syncBuffer{}}
	go func() { r.done <- runCmd(ctx, []string{"-config", conf}, r.log) }()
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	return r
}

// stop stops the daemon as SIGTERM would and checks that it exits 0 in
// good time, having logged no error.
func (r *daemonRun) stop(t *testing.T) {
	t.Helper()
	r.exit(t)
	if log := r.log.String(); !strings.Contains(log, "gmd stopped") || strings.Contains(log, "level=ERROR") {
		t.Errorf("log:\n%s", log)
	}
}

// exit stops the daemon as SIGTERM would and checks that it exits 0 in
// good time; its log may hold errors (the fault tests cause them).
func (r *daemonRun) exit(t *testing.T) {
	t.Helper()
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
}

// waitInbox polls a's INBOX by IMAP until it holds a message whose
// subject contains substr, and returns the INBOX.
func waitInbox(t *testing.T, srv *demo.Servers, a demo.Account, substr string, log *syncBuffer) []inboxMail {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		inbox := readInbox(t, srv.IMAPAddr, a)
		for _, m := range inbox {
			if strings.Contains(m.Subject, substr) {
				return inbox
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q in %s's INBOX: %q\nlog:\n%s", substr, a.Addr, subjects(inbox), log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// count returns how many mails have a subject containing substr.
func count(inbox []inboxMail, substr string) int {
	n := 0
	for _, m := range inbox {
		if strings.Contains(m.Subject, substr) {
			n++
		}
	}
	return n
}

// gmd run against the in-process servers: mails in by SMTP and IMAP,
// acknowledgements out by SMTP, into the players' INBOXes; a clean stop,
// and a restart on the same database that handles no mail twice.
func TestRun(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	conf := writeConf(t, dir, srv, "limits { max-mail-size 4K }\n")
	judge := demo.Judge.Addr
	seats := demo.Seats()
	p1, p2, p3 := seats[0], seats[1], seats[2]

	r := startRun(t, conf)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := srv.CreateGame(ctx, judge); err != nil {
		t.Fatal(err)
	}
	waitInbox(t, srv, p1.Account, "Game Starting", r.log)
	if err := srv.Send(p1.Account, []string{judge}, "my orders", p1.OrdersMail("A Vie - Gal", "A Bud - Ser")); err != nil {
		t.Fatal(err)
	}
	inbox := waitInbox(t, srv, p1.Account, "my orders", r.log)
	var ack inboxMail
	for _, m := range inbox {
		if strings.Contains(m.Subject, "my orders") {
			ack = m
		}
	}
	if ack.Subject != "Re: GMD:demo - S1901M my orders" || !strings.Contains(ack.Body, "Army Vienna -> Galicia") {
		t.Errorf("acknowledgement %q:\n%s", ack.Subject, ack.Body)
	}
	log := r.log.String()
	for _, want := range []string{
		`msg="gmd running" judge="\"GMD\" <judge@gmd.demo>" imap=` + srv.IMAPAddr + " mailbox=INBOX smtp=" + srv.SMTPAddr,
		"socket=" + filepath.Join(dir, "gmd.db.sock"),
		`msg="mail handled" from=player1@gmd.demo subject="my orders"`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	r.stop(t)
	if _, err := os.Stat(filepath.Join(dir, "gmd.db.sock")); !os.IsNotExist(err) {
		t.Errorf("control socket left behind: %v", err)
	}

	// Mail that comes while the judge is down waits in its INBOX.
	if err := srv.Send(p2.Account, []string{judge}, "orders while down", p2.OrdersMail("F Lon - Nth")); err != nil {
		t.Fatal(err)
	}
	// A mail over max-mail-size gets a refusal naming the limit; an
	// automatic reply gets nothing at all.
	big := p3.OrdersMail("A Par - Bur") + strings.Repeat("Lorem ipsum dolor sit amet.\n", 200)
	if err := srv.Send(p3.Account, []string{judge}, "long letter", big); err != nil {
		t.Fatal(err)
	}
	auto := demo.Message(p3.Addr, []string{judge}, "Out of office", "I am away.\n")
	auto = append([]byte("Auto-Submitted: auto-replied\r\n"), auto...)
	if err := srv.SendRaw(p3.Account, []string{judge}, auto); err != nil {
		t.Fatal(err)
	}
	if err := srv.Send(p3.Account, []string{judge}, "after the vacation", p3.OrdersMail("A Mar - Spa")); err != nil {
		t.Fatal(err)
	}

	r = startRun(t, conf)
	waitInbox(t, srv, p2.Account, "orders while down", r.log)
	p3inbox := waitInbox(t, srv, p3.Account, "after the vacation", r.log)
	r.stop(t)

	if n := count(p3inbox, "long letter"); n != 1 {
		t.Errorf("%d replies to the long letter: %q", n, subjects(p3inbox))
	}
	for _, m := range p3inbox {
		if strings.Contains(m.Subject, "long letter") && !strings.Contains(m.Body, "this judge reads mails of up to 4 KB") {
			t.Errorf("refusal:\n%s", m.Body)
		}
	}
	if n := count(p3inbox, "Out of office"); n != 0 {
		t.Errorf("the auto-reply was answered: %q", subjects(p3inbox))
	}

	// Every mail was answered once, over both runs: the CREATE and the
	// joins were sent twice, the second time with the code the first
	// reply gave.
	checks := []struct {
		who     demo.Account
		subject string
		want    int
	}{
		{demo.Master, "a game to show", 2},
		{p1.Account, "joining", 2},
		{p1.Account, "my orders", 1},
		{p2.Account, "orders while down", 1},
		{p1.Account, "Game Starting", 1},
	}
	for _, c := range checks {
		inbox := readInbox(t, srv.IMAPAddr, c.who)
		if n := count(inbox, c.subject); n != c.want {
			t.Errorf("%s has %d mails about %q, want %d: %q", c.who.Addr, n, c.subject, c.want, subjects(inbox))
		}
		ids := map[string]bool{}
		for _, m := range inbox {
			if ids[m.MessageID] {
				t.Errorf("%s got %s twice", c.who.Addr, m.MessageID)
			}
			ids[m.MessageID] = true
		}
	}
}

// A mistake in judge.conf is reported with its file and line, and gmd
// run exits 2 without starting.
func TestRunConfigErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "judge.conf")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	gmd := func(args ...string) (int, string) {
		var stderr bytes.Buffer
		code := run(append([]string{"run"}, args...), nil, &bytes.Buffer{}, &stderr)
		return code, stderr.String()
	}

	write("judge-name GMD\ndb gmd.db\nimap {\n\tadress imap.example.org\n}\nsmtp {\n\taddress smtp.example.org\n}\n")
	code, errs := gmd("-config", path)
	if code != 2 || !strings.HasPrefix(errs, path+`:4: imap: unknown directive "adress" (did you mean address?)`) {
		t.Errorf("typo: exit %d, stderr:\n%s", code, errs)
	}

	// $GMD_CONFIG names the file when -config does not.
	write("judge-name GMD\n")
	t.Setenv("GMD_CONFIG", path)
	code, errs = gmd()
	for _, want := range []string{path + ": db is required", path + ": an imap block is required", path + ": an smtp block is required"} {
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("no db, imap, smtp: exit %d, want %q in stderr:\n%s", code, want, errs)
		}
	}

	code, errs = gmd("-config", filepath.Join(dir, "missing.conf"))
	if code != 2 || !strings.Contains(errs, "gmd run: open "+filepath.Join(dir, "missing.conf")) {
		t.Errorf("missing file: exit %d, stderr:\n%s", code, errs)
	}

	if code, _ := gmd("-config"); code != 2 {
		t.Errorf("-config without a value: exit %d", code)
	}
}

// A database that cannot be opened stops gmd run with exit 1, after it
// says why.
func TestRunBadDatabase(t *testing.T) {
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "gmd.db"), 0o700); err != nil { // a directory, not a file
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := run([]string{"run", "-config", writeConf(t, dir, srv, "")}, nil, &bytes.Buffer{}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), `msg="gmd run stopped"`) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
}

// SIGTERM stops gmd run, which finds its config through $GMD_CONFIG, with
// exit status 0. The test binary plays gmd in a child process.
func TestRunSignal(t *testing.T) {
	if os.Getenv("GMD_TEST_RUN_MAIN") == "1" {
		os.Exit(run([]string{"run"}, os.Stdin, os.Stdout, os.Stderr))
	}
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	conf := writeConf(t, t.TempDir(), srv, "")

	cmd := exec.Command(os.Args[0], "-test.run=^TestRunSignal$")
	cmd.Env = append(os.Environ(), "GMD_TEST_RUN_MAIN=1", "GMD_CONFIG="+conf)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// A HELP needs no password, so the child's bcrypt cost is no matter.
	if err := srv.Send(demo.Player(1), []string{demo.Judge.Addr}, "help?", "HELP\n"); err != nil {
		t.Fatal(err)
	}
	waitInbox(t, srv, demo.Player(1), "help?", &stderr)

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Errorf("gmd run after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("gmd run did not stop on SIGTERM:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), `msg="gmd stopped"`) {
		t.Errorf("log:\n%s", stderr.String())
	}
}
