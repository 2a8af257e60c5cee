package integration

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/session"
	"github.com/gmdjudge/gmd/state"
)

// judge is one gmd daemon under test, with a directory of its own for
// its config, database and log (kept with GMD_MAILTEST_KEEP=1). The judge's mailbox is shared by the
// tests, so it is emptied first: a new database reads every message in
// it.
type judge struct {
	t    testing.TB
	dir  string
	conf string
	db   string
	log  string // the daemon's standard error, over all its starts

	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited; err is then set
	err    error
	starts int
}

// judgeOptions change the judge's config.
type judgeOptions struct {
	// smtp replaces the smtp block's body (the submission port with
	// STARTTLS and AUTH): a server that is not there keeps every reply
	// in the outbox.
	smtp string
	// processed, if set, is the imap block's processed-mailbox: the
	// folder the judge moves the mail it handled to, rather than leaving
	// it in the INBOX flagged \Seen (judge.conf.example's setting). The
	// test must delete the folder when done (deleteFolder).
	processed string
}

// newJudge writes the config of a judge reading the judge's INBOX with
// STARTTLS on the IMAP port and sending through the submission port with
// STARTTLS and AUTH PLAIN, both trusting the servers' certificate; the
// daemon is not started. It is stopped when the test ends, and its log
// is shown if the test failed.
func newJudge(t testing.TB, opts ...judgeOptions) *judge {
	t.Helper()
	needServers(t)
	emptyMailboxes(t, judgeUser)
	// Not t.TempDir: under the run's directory, which GMD_MAILTEST_KEEP=1
	// keeps for a look at the logs.
	dir, err := os.MkdirTemp(env.dir, strings.ReplaceAll(t.Name(), "/", "_")+"-")
	if err != nil {
		t.Fatal(err)
	}
	j := &judge{
		t:    t,
		dir:  dir,
		conf: filepath.Join(dir, "judge.conf"),
		db:   filepath.Join(dir, "gmd.db"),
		log:  filepath.Join(dir, "gmd.log"),
	}
	cert := filepath.Join(env.servers, "cert.pem")
	smtpBlock := fmt.Sprintf(`
	address %s
	tls starttls
	username %s
	password %s
	ca-cert %s`, hostPort(ports.Submission), addr(judgeUser), password(judgeUser), cert)
	imapExtra := ""
	for _, o := range opts {
		if o.smtp != "" {
			smtpBlock = o.smtp
		}
		if o.processed != "" {
			imapExtra = "\n\tprocessed-mailbox " + o.processed
		}
	}
	conf := fmt.Sprintf(`# written by gmd's integration tests
judge-name GMD
judge-address %s
db %s
log-level info
imap {
	address %s
	tls starttls
	username %s
	password %s
	ca-cert %s
	poll-interval 1s%s
}
smtp {%s
}
`, addr(judgeUser), j.db, hostPort(ports.IMAP), addr(judgeUser), password(judgeUser), cert, imapExtra, smtpBlock)
	if err := os.WriteFile(j.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	// gmd process makes no database: seedGame needs one before the
	// daemon's first start.
	if out, err := exec.Command(env.gmd, "init", "-config", j.conf).CombinedOutput(); err != nil {
		t.Fatalf("gmd init: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if j.running() {
			j.stop()
		}
		if n := j.logCount("WARNING: DATA RACE"); n > 0 {
			t.Errorf("the race detector found %d data races in the judge; see its log", n)
		}
		if t.Failed() {
			t.Logf("--- gmd log (end)\n%s\n%s", tail(j.log, 60), serverLogs())
		}
	})
	return j
}

// start starts the daemon.
func (j *judge) start() {
	j.t.Helper()
	if j.running() {
		j.t.Fatal("the judge is running already")
	}
	j.starts++
	logf, err := os.OpenFile(j.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		j.t.Fatal(err)
	}
	defer logf.Close()
	fmt.Fprintf(logf, "=== start %d at %s\n", j.starts, time.Now().Format(time.StampMilli))
	cmd := exec.Command(env.gmd, "run", "-config", j.conf)
	cmd.Stdout, cmd.Stderr = logf, logf
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		j.t.Fatal(err)
	}
	j.cmd = cmd
	j.exited = make(chan struct{})
	go func(exited chan struct{}) {
		j.err = cmd.Wait()
		close(exited)
	}(j.exited)
}

// running reports whether the daemon was started and has not exited.
func (j *judge) running() bool {
	if j.cmd == nil {
		return false
	}
	select {
	case <-j.exited:
		return false
	default:
		return true
	}
}

// stop stops the daemon as an operator would, with SIGTERM, and fails the
// test unless it exits with status 0 within 30 seconds.
func (j *judge) stop() {
	j.t.Helper()
	if !j.running() {
		j.t.Fatalf("stopping the judge: it is not running (exit: %v)", j.err)
	}
	// An operator stops a daemon that has started. A SIGTERM in the first
	// moments of a process, before the Go runtime has run main and
	// installed the handler, kills it as SIGKILL does (the soak kills it
	// that way on purpose too); on a loaded machine those moments, with
	// the race detector's start-up, can last past the soak's shortest
	// gap between a start and a stop. So wait for this start's "gmd
	// running" line first.
	for wait := time.Now().Add(30 * time.Second); j.logCount(`msg="gmd running"`) < j.starts && j.running() && time.Now().Before(wait); {
		time.Sleep(10 * time.Millisecond)
	}
	j.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-j.exited:
	case <-time.After(30 * time.Second):
		j.cmd.Process.Kill()
		<-j.exited
		j.t.Fatal("the judge did not stop within 30 s of SIGTERM")
	}
	if j.err != nil {
		j.t.Errorf("the judge exited with %v after SIGTERM, want status 0", j.err)
	}
}

// kill kills the daemon with SIGKILL, as a crash would, and waits for it.
func (j *judge) kill() {
	j.t.Helper()
	if !j.running() {
		j.t.Fatalf("killing the judge: it is not running (exit: %v)", j.err)
	}
	j.cmd.Process.Kill()
	<-j.exited
}

// process runs a letter through "gmd process" on the judge's database, as
// a mail server's pipe would: a quick way to set a game up before the
// daemon starts. The replies wait in the outbox for the daemon.
func (j *judge) process(l *letter) {
	j.t.Helper()
	cmd := exec.Command(env.gmd, "process", "-config", j.conf)
	cmd.Stdin = bytes.NewReader(l.bytes())
	if out, err := cmd.CombinedOutput(); err != nil {
		j.t.Fatalf("gmd process (%q from %s): %v\n%s", l.Subject, l.From, err, out)
	}
}

// processConfirmed runs l through gmd process, then, as its sender
// does when the judge asks them to confirm their address (CREATE, a
// join), a second letter with the code of the reply and l's body. The
// first run is a dry run, which prints the reply rather than sending it
// (gmd process sends what it queues, with the config's smtp block), so
// that the code can be read from it. It returns the body of the second
// letter, the confirming mail.
func (j *judge) processConfirmed(l *letter) string {
	j.t.Helper()
	cmd := exec.Command(env.gmd, "process", "-config", j.conf, "-dry-run")
	cmd.Stdin = bytes.NewReader(l.bytes())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		j.t.Fatalf("gmd process -dry-run (%q from %s): %v\n%s", l.Subject, l.From, err, stderr.Bytes())
	}
	code := confirmCode(stdout.String())
	if code == "" {
		j.t.Fatalf("no confirmation code in the reply to %q from %s:\n%s", l.Subject, l.From, stdout.Bytes())
	}
	body := "CONFIRM " + code + "\n" + l.Body
	j.process(newLetter(l.From, l.Subject, body))
	return body
}

// seedGame has the master create a standard game and the seven players
// join it, each asking for the power of their seat, through gmd process:
// the game is under way when the daemon starts.
func (j *judge) seedGame(game string) {
	j.t.Helper()
	j.processConfirmed(newLetter(masterUser, "new game", fmt.Sprintf("CREATE ?%s %s", game, masterPass)))
	for _, s := range seats {
		j.processConfirmed(newLetter(s.User, "join", fmt.Sprintf("SIGNON ?%s %s %s", game, s.Pass, s.Letter)))
	}
	j.view(func(tx *state.Tx) error {
		g, err := tx.Game(game)
		if err != nil {
			return err
		}
		if g.Status != state.Active {
			return fmt.Errorf("game %s is %s after seven sign-ons", game, g.Status)
		}
		return nil
	})
}

// view opens the database of the stopped daemon read-only and runs fn in a
// read transaction; an error fails the test.
func (j *judge) view(fn func(tx *state.Tx) error) {
	j.t.Helper()
	if j.running() {
		j.t.Fatal("reading the database of a running judge")
	}
	db, err := state.OpenReadOnly(j.db)
	if err != nil {
		j.t.Fatal(err)
	}
	defer db.Close()
	if err := db.View(fn); err != nil {
		j.t.Fatal(err)
	}
}

// outbox returns the mails waiting in the stopped judge's outbox.
func (j *judge) outbox() []*state.OutMail {
	j.t.Helper()
	var out []*state.OutMail
	j.view(func(tx *state.Tx) error {
		var err error
		out, err = tx.Outbox(0)
		return err
	})
	return out
}

// handled checks in the stopped judge's ledger that every letter was
// recorded as handled.
func (j *judge) handled(letters []*letter) {
	j.t.Helper()
	var missing []string
	j.view(func(tx *state.Tx) error {
		for _, l := range letters {
			seen, err := tx.Seen(l.ledgerKey(j.t))
			if err != nil {
				return err
			}
			if !seen {
				missing = append(missing, l.Subject)
			}
		}
		return nil
	})
	if len(missing) > 0 {
		j.t.Errorf("%d of %d mails not in the ledger: %s", len(missing), len(letters), strings.Join(missing, ", "))
	}
}

// ledgerKey returns the key under which the judge records l as handled,
// reading l as the judge does.
func (l *letter) ledgerKey(t testing.TB) string {
	t.Helper()
	in, err := mail.Decode(bytes.NewReader(l.bytes()), 0)
	if err != nil {
		t.Fatalf("decoding %q: %v", l.Subject, err)
	}
	return (&session.Mail{From: in.From, Subject: in.Subject, Body: in.Body, MessageID: in.MessageID}).LedgerKey()
}

// logCount returns how many lines of the daemon's log contain s.
func (j *judge) logCount(s string) int {
	b, err := os.ReadFile(j.log)
	if err != nil {
		return 0
	}
	return bytes.Count(b, []byte(s))
}

// errNotRunning is returned by peakRSS for a daemon that is not running.
var errNotRunning = errors.New("the judge is not running")

// peakRSS returns the daemon's peak resident memory in bytes.
func (j *judge) peakRSS() (int64, error) {
	if !j.running() {
		return 0, errNotRunning
	}
	return peakRSS(j.cmd.Process.Pid)
}
