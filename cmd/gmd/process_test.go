package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"

	"github.com/gmdjudge/gmd/state"
)

// mboxMail is one message of the dry-run output.
type mboxMail struct {
	rcpt   string // from the "From " line
	header gomail.Header
	body   string // decoded, LF line ends
	raw    string
}

// parseMbox splits the dry-run output at its "From " lines and parses
// each message with go-message, as an outside script would.
func parseMbox(t *testing.T, out string) []mboxMail {
	t.Helper()
	if out == "" {
		return nil
	}
	if !strings.HasPrefix(out, "From ") {
		t.Fatalf("output does not start with a From line:\n%s", out)
	}
	var mails []mboxMail
	chunks := strings.Split(out[len("From "):], "\nFrom ")
	for i, chunk := range chunks {
		if i < len(chunks)-1 {
			chunk += "\n" // the line end before the next From line
		}
		rcpt, raw, ok := strings.Cut(chunk, "\n")
		if !ok || strings.ContainsAny(rcpt, " <>") {
			t.Fatalf("bad From line %q", rcpt)
		}
		// Each message is followed by a blank line.
		if !strings.HasSuffix(raw, "\n\n") {
			t.Fatalf("message to %s does not end with a blank line:\n%q", rcpt, raw)
		}
		raw = strings.TrimSuffix(raw, "\n")
		mr, err := gomail.CreateReader(strings.NewReader(raw))
		if err != nil {
			t.Fatalf("message to %s: %v\n%s", rcpt, err, raw)
		}
		p, err := mr.NextPart()
		if err != nil {
			t.Fatalf("message to %s: %v", rcpt, err)
		}
		b, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		mails = append(mails, mboxMail{rcpt: rcpt, header: mr.Header, raw: raw,
			body: strings.ReplaceAll(string(b), "\r\n", "\n")})
	}
	return mails
}

// gmd runs the command line with stdin and returns the exit status and
// the output.
func gmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

// msg is an incoming test mail in wire format.
func msg(from, subject, id, body string, extra ...string) string {
	h := "From: " + from + "\nTo: judge@localhost\nSubject: " + subject + "\n"
	if id != "" {
		h += "Message-ID: " + id + "\n"
	}
	for _, x := range extra {
		h += x + "\n"
	}
	return strings.ReplaceAll(h+"\n"+body, "\n", "\r\n")
}

// codeLine finds the confirmation code in a reply that asks for one.
var codeLine = regexp.MustCompile(`(?m)^  CONFIRM ([A-Z0-9]+)$`)

// processConfirmed pipes a mail with body from addr through gmd process
// -dry-run as someone who reads addr's mail does when the judge asks for
// a confirmation code (CREATE, a join): once, then again with the code
// of the reply (Message-ID id, then a variant of it). It returns the
// mails of the second.
func processConfirmed(t *testing.T, db, addr, id, body string) []mboxMail {
	t.Helper()
	code, out, errs := gmd(t, msg(addr, "confirm", id, body), "process", "-db", db, "-dry-run", "-now", now0)
	if code != 0 {
		t.Fatalf("%s %q: status %d: %s", addr, body, code, errs)
	}
	var confirm []string
	for _, m := range parseMbox(t, out) {
		if c := codeLine.FindStringSubmatch(m.body); m.rcpt == addr && c != nil {
			confirm = c
		}
	}
	if confirm == nil {
		t.Fatalf("no confirmation code for %s in:\n%s", addr, out)
	}
	again := strings.Replace(id, "@", ".confirm@", 1)
	code, out, errs = gmd(t, msg(addr, "confirm", again, "CONFIRM "+confirm[1]+"\n"+body), "process", "-db", db, "-dry-run", "-now", now0)
	if code != 0 {
		t.Fatalf("%s %q confirmed: status %d: %s", addr, body, code, errs)
	}
	return parseMbox(t, out)
}

// outbox returns what the database at path has queued.
func outbox(t *testing.T, path string) []*state.OutMail {
	t.Helper()
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []*state.OutMail
	err = db.View(func(tx *state.Tx) error {
		out, err = tx.Outbox(0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

const now0 = "2026-01-02T15:04:05Z"

// initDB makes a new judge database at path with gmd init, as an admin
// does before the first gmd process, and returns path.
func initDB(t *testing.T, path string) string {
	t.Helper()
	if code, _, errs := gmd(t, "", "init", "-db", path); code != 0 {
		t.Fatalf("gmd init -db %s: status %d: %s", path, code, errs)
	}
	return path
}

func TestProcessDryRunCreate(t *testing.T) {
	db := initDB(t, filepath.Join(t.TempDir(), "gmd.db"))
	in := msg(`"Alice A." <Alice@Example.COM>`, "a new game", "<m1@example.com>", "CREATE ?dt secret\n")
	code, out, errs := gmd(t, in, "process", "-db", db, "-dry-run", "-now", now0)
	if code != 0 {
		t.Fatalf("status %d, stderr:\n%s", code, errs)
	}
	mails := parseMbox(t, out)
	if len(mails) != 1 {
		t.Fatalf("%d mails, want the one reply:\n%s", len(mails), out)
	}
	m := mails[0]
	if m.rcpt != "Alice@example.com" {
		t.Errorf("From line names %q", m.rcpt)
	}
	for key, want := range map[string]string{
		"From":                      `"GMD" <judge@localhost>`,
		"To":                        "<Alice@example.com>",
		"Date":                      "Fri, 02 Jan 2026 15:04:05 +0000",
		"In-Reply-To":               "<m1@example.com>",
		"References":                "<m1@example.com>",
		"Auto-Submitted":            "auto-replied",
		"Mime-Version":              "1.0",
		"Content-Type":              "text/plain; charset=utf-8",
		"Content-Transfer-Encoding": "quoted-printable",
	} {
		if got := m.header.Get(key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if id := m.header.Get("Message-Id"); !strings.HasPrefix(id, "<gmd.") || !strings.HasSuffix(id, "@localhost>") {
		t.Errorf("Message-Id %q", id)
	}
	if subject, _ := m.header.Subject(); !strings.HasPrefix(subject, "Re: GMD") || !strings.HasSuffix(subject, "a new game") {
		t.Errorf("subject %q", subject)
	}
	if !strings.Contains(m.body, "dt") || strings.Contains(m.body, "secret") {
		t.Errorf("body does not name the game, or shows the password:\n%s", m.body)
	}
	if strings.Contains(m.raw, "\r") {
		t.Error("the mbox output has CR line ends")
	}
	if left := outbox(t, db); len(left) != 0 {
		t.Errorf("-dry-run left %d mails in the outbox", len(left))
	}

	// The same mail again is a duplicate: no second reply.
	code, out, errs = gmd(t, in, "process", "-db", db, "-dry-run", "-now", now0)
	if code != 0 || out != "" {
		t.Errorf("duplicate: status %d, output %q, stderr %q", code, out, errs)
	}
}

func TestProcessQueues(t *testing.T) {
	db := initDB(t, filepath.Join(t.TempDir(), "gmd.db"))
	code, out, errs := gmd(t, msg("bob@example.com", "hi", "<m2@example.com>", "HELP\n"), "process", "-db", db, "-now", now0)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	if out != "" {
		t.Errorf("output without -dry-run: %q", out)
	}
	if want := "gmd process: 1 mail queued for gmd run to send\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	q := outbox(t, db)
	if len(q) != 1 || len(q[0].To) != 1 || q[0].To[0] != "bob@example.com" || q[0].InReplyTo != "<m2@example.com>" {
		t.Fatalf("outbox %+v", q)
	}
}

func TestProcessIgnores(t *testing.T) {
	tests := []struct {
		name, mail, stderr string
	}{
		{"vacation", msg("carol@example.com", "Away", "<v@x>", "I am away.\n", "Auto-Submitted: auto-replied"),
			"gmd process: not answering an automatic mail from carol@example.com (Auto-Submitted: auto-replied)\n"},
		{"list", msg("list@example.com", "digest", "", "HELP\n", "Precedence: list"),
			"gmd process: not answering an automatic mail from list@example.com (Precedence: list)\n"},
		{"bounce", msg("MAILER-DAEMON@mx.example.com", "Undelivered", "", "HELP\n", "Return-Path: <>"),
			"gmd process: not answering an automatic mail from MAILER-DAEMON@mx.example.com (empty Return-Path (a bounce))\n"},
		{"itself", msg("Judge@LOCALHOST", "loop", "", "HELP\n"),
			"gmd process: not answering a mail from the judge's own address Judge@localhost\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := initDB(t, filepath.Join(t.TempDir(), "gmd.db"))
			code, out, errs := gmd(t, tt.mail, "process", "-db", db, "-dry-run")
			if code != 0 || out != "" || errs != tt.stderr {
				t.Errorf("status %d, output %q, stderr %q; want 0, nothing, %q", code, out, errs, tt.stderr)
			}
			if q := outbox(t, db); len(q) != 0 {
				t.Errorf("%d mails queued", len(q))
			}
		})
	}
}

func TestProcessTooLarge(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "judge.conf")
	os.WriteFile(conf, []byte("judge-name USDP\njudge-address judge@example.org\ndb gmd.db\nlimits { max-mail-size 2K }\n"), 0o600)
	initDB(t, filepath.Join(dir, "gmd.db"))
	body := strings.Repeat("F Lon - Nth\n", 400)
	code, out, errs := gmd(t, msg("dan@example.com", "orders", "<big@example.com>", body), "process", "-config", conf, "-dry-run", "-now", now0)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	mails := parseMbox(t, out)
	if len(mails) != 1 {
		t.Fatalf("%d mails:\n%s", len(mails), out)
	}
	m := mails[0]
	// The same answer as gmd run's (see take).
	if subject, _ := m.header.Subject(); subject != "Re: USDP orders" {
		t.Errorf("subject %q", subject)
	}
	if m.header.Get("From") != `"USDP" <judge@example.org>` || m.header.Get("In-Reply-To") != "<big@example.com>" || m.rcpt != "dan@example.com" {
		t.Errorf("header %v", m.header.Map())
	}
	if id := m.header.Get("Message-Id"); !strings.HasSuffix(id, "@example.org>") {
		t.Errorf("Message-Id %q", id)
	}
	if !strings.Contains(m.body, "could not be read") || !strings.Contains(m.body, "this judge reads mails of up to 2 KB.") {
		t.Errorf("body:\n%s", m.body)
	}
	if _, err := os.Stat(filepath.Join(dir, "gmd.db")); err != nil {
		t.Errorf("the config's db (relative to the config) was not used: %v", err)
	}
}

func TestProcessErrors(t *testing.T) {
	dir := t.TempDir()
	db := initDB(t, filepath.Join(dir, "gmd.db"))
	bad := filepath.Join(dir, "bad.conf")
	os.WriteFile(bad, []byte("judge-name GMD\n\njudge-address x\n"), 0o600)
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stderr string
	}{
		{"no from", "Subject: x\r\n\r\nHELP\r\n", []string{"-db", db}, 65, "gmd process: mail: no valid From address (\"\")\n"},
		{"config error", "", []string{"-config", bad}, 75, "gmd process: " + bad + ":3: judge-address: \"x\" is not a mail address\n"},
		{"missing config", "", []string{"-config", filepath.Join(dir, "none.conf")}, 75, "gmd process: open " + filepath.Join(dir, "none.conf") + ": no such file or directory\n"},
		{"no db", "", nil, 75, "gmd process: no database: give -db FILE, or db in the config file\n"},
		{"bad now", "", []string{"-db", db, "-now", "yesterday"}, 2, ""},
		{"argument", "", []string{"-db", db, "mail.eml"}, 2, "gmd process: unexpected argument \"mail.eml\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := gmd(t, tt.stdin, append([]string{"process"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("status %d, want %d; stderr %q", code, tt.code, errs)
			}
			if out != "" {
				t.Errorf("output %q", out)
			}
			if tt.stderr != "" && errs != tt.stderr {
				t.Errorf("stderr %q, want %q", errs, tt.stderr)
			}
		})
	}
}

// TestTickDryRun starts a game through the pipe and runs the clock past
// the first deadline.
func TestTickDryRun(t *testing.T) {
	db := initDB(t, filepath.Join(t.TempDir(), "gmd.db"))
	processConfirmed(t, db, "master@example.com", "<c@x>", "CREATE ?dt secret\n")
	// Nothing is due yet.
	code, out, errs := gmd(t, "", "tick", "-db", db, "-dry-run", "-now", now0)
	if code != 0 || out != "" {
		t.Fatalf("tick before the game: status %d, output %q, stderr %q", code, out, errs)
	}
	var started []mboxMail
	for i := range 7 {
		started = processConfirmed(t, db, fmt.Sprintf("p%d@example.com", i), fmt.Sprintf("<j%d@x>", i), fmt.Sprintf("SIGNON ?dt pw%d\n", i))
	}
	if len(started) < 7 {
		t.Fatalf("the seventh sign-on sent %d mails; want at least the game start to every player", len(started))
	}
	// Long after the deadline and the grace, something is due.
	code, out, errs = gmd(t, "", "tick", "-db", db, "-dry-run", "-now", "2026-02-01T00:00:00Z")
	if code != 0 {
		t.Fatalf("tick: status %d, stderr %s", code, errs)
	}
	mails := parseMbox(t, out)
	if len(mails) == 0 {
		t.Fatal("the tick after the deadline sent nothing")
	}
	for _, m := range mails {
		if s, _ := m.header.Subject(); !strings.HasPrefix(s, "GMD:dt") {
			t.Errorf("to %s: subject %q", m.rcpt, s)
		}
		if m.header.Get("To") != "<"+m.rcpt+">" || m.header.Get("Auto-Submitted") != "auto-generated" {
			t.Errorf("to %s: header %v", m.rcpt, m.header.Map())
		}
	}
	if q := outbox(t, db); len(q) != 0 {
		t.Errorf("%d mails left in the outbox", len(q))
	}
}
