package main

import (
	"bytes"
	imagepng "image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/gmdjudge/gmd/demo"
	"github.com/gmdjudge/gmd/mail"
)

// The demo plays its first turn by mail: the players' mails go in by
// SMTP, the judge reads them by IMAP, processes Spring 1901 and mails the
// results out by SMTP, and player1 reads them by IMAP. With -for it then
// stops by itself.
func TestDemo(t *testing.T) {
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	start := time.Now()
	go func() { done <- run([]string{"demo", "-for", "4s"}, nil, &stdout, &stderr) }()

	// The address block is printed once the results are delivered.
	var imapAddr, smtpAddr string
	for imapAddr == "" {
		select {
		case code := <-done:
			t.Fatalf("gmd demo ended early with %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		out := stdout.String()
		if !strings.Contains(out, "Ctrl-C") {
			continue
		}
		m := regexp.MustCompile(`IMAP (\S+), SMTP (\S+),`).FindStringSubmatch(strings.Join(strings.Fields(out), " "))
		if m == nil {
			t.Fatalf("no IMAP address in:\n%s", out)
		}
		imapAddr, smtpAddr = m[1], m[2]
	}
	t.Logf("ready after %v", time.Since(start).Round(time.Millisecond))
	out := stdout.String()
	checkFirstScreen(t, out)
	// The mail line is short: mutt with the muttrc the demo wrote, which
	// reads and sends as player1 on the demo's servers.
	m := regexp.MustCompile(`(?m)^  Mail  mutt -F (\S+/muttrc-player1)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no mutt line in:\n%s", out)
	}
	rc, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`set folder = "imap://player1%40gmd.demo@` + imapAddr + `/"`,
		`set smtp_url = "smtp://player1%40gmd.demo@` + smtpAddr + `/"`,
		`set imap_pass = "player1pass"`, `set from = "player1@gmd.demo"`,
	} {
		if !strings.Contains(string(rc), want) {
			t.Errorf("%s lacks %q:\n%s", m[1], want, rc)
		}
	}
	dir := filepath.Dir(m[1])
	for _, want := range []string{
		"You are player1, Austria",
		"SIGNON Ademo vienna",
		"playerN@gmd.demo (password playerNpass)",
		"The log is in " + filepath.Join(dir, "gmd.log"),
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	// Quiet: the daemon's log went to the file, not to the terminal.
	if log, err := os.ReadFile(filepath.Join(dir, "gmd.log")); err != nil ||
		!strings.Contains(string(log), `msg="phase processed" game=demo phase=S1901M next=F1901M turn=1`) {
		t.Errorf("the log file (%v) lacks the processed phase:\n%s", err, log)
	}
	if strings.Contains(stderr.String(), "level=INFO") {
		t.Errorf("the log reached the terminal:\n%s", stderr.String())
	}

	checkDemoPages(t, out)

	inbox := readInbox(t, imapAddr, demo.Player(1))
	var results *inboxMail
	for i, m := range inbox {
		if strings.Contains(m.Subject, "S1901M Results") {
			results = &inbox[i]
		}
	}
	if results == nil {
		t.Fatalf("no results in player1's INBOX: %q", subjects(inbox))
	}
	for _, want := range []string{
		"Movement results for Spring of 1901.",
		"Austria: Army Vienna -> Galicia. (*bounce*)",
		"Russia: Fleet Sevastopol -> Black Sea. (*bounce*)",
		"France: Army Paris -> Burgundy.",
	} {
		if !strings.Contains(results.Body, want) {
			t.Errorf("results lack %q:\n%s", want, results.Body)
		}
	}

	// The results carry the map of the phase after their text, then
	// the board after it.
	if atts := attachments(t, results.Raw); len(atts) != 2 || atts[0].name != "S1901M.png" || atts[1].name != "S1901M-after.png" {
		t.Errorf("the results carry %d attachments, want S1901M.png and S1901M-after.png", len(atts))
	} else {
		for _, a := range atts {
			if _, err := imagepng.Decode(bytes.NewReader(a.data)); err != nil || a.typ != "image/png" {
				t.Errorf("%s (%s) is no PNG: %v", a.name, a.typ, err)
			}
		}
	}

	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("gmd demo exited with %d\nstderr:\n%s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("gmd demo -for 4s did not stop by itself")
	}
	if stderr.String() != "" {
		t.Errorf("gmd demo wrote to standard error:\n%s", stderr.String())
	}
}

// checkFirstScreen checks that what the demo prints fits a terminal of
// 24 rows and 78 columns, with the web address and the mail client line
// first.
func checkFirstScreen(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) > 23 { // and the cursor's row
		t.Errorf("the demo prints %d lines, more than a screen of 24 rows:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if len(l) > 78 {
			t.Errorf("a line of %d columns: %q", len(l), l)
		}
	}
	web, mail := strings.Index(out, "\n  Web   http://"), strings.Index(out, "\n  Mail  mutt -F ")
	if web < 0 || mail < web || strings.Count(out[:web], "\n") > 4 {
		t.Errorf("the web address and the mail line do not come first:\n%s", out)
	}
}

// With -v, the daemon's log is shown on standard error.
func TestDemoVerbose(t *testing.T) {
	var stdout, stderr syncBuffer
	if code := run([]string{"demo", "-v", "-for", "1ms"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("gmd demo -v: status %d\n%s", code, stderr.String())
	}
	if want := `msg="phase processed" game=demo phase=S1901M next=F1901M turn=1`; !strings.Contains(stderr.String(), want) {
		t.Errorf("the log on standard error lacks %q:\n%s", want, stderr.String())
	}
	if strings.Contains(stdout.String(), "level=") {
		t.Errorf("the log reached standard output:\n%s", stdout.String())
	}
}

// checkDemoPages reads the web address the demo printed, and checks that
// it shows the demo game after its first turn, with a map.
func checkDemoPages(t *testing.T, out string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^  Web   (http://\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no web address in:\n%s", out)
	}
	get := func(url string) (*http.Response, []byte) {
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s %v", url, res.Status, err)
		}
		return res, b
	}
	_, page := get(m[1])
	for _, want := range []string{"<h1>Game demo</h1>", "Fall 1901, movement", `src="demo/F1901M.png"`, "Spring 1901, movement"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the game page lacks %q:\n%s", want, page)
		}
	}
	res, png := get(strings.TrimSuffix(m[1], "demo") + "demo/S1901M.png")
	cfg, err := imagepng.DecodeConfig(bytes.NewReader(png))
	if err != nil || res.Header.Get("Content-Type") != "image/png" || cfg.Width != 1000 {
		t.Errorf("the S1901M map: %v, %s, %d px wide", err, res.Header.Get("Content-Type"), cfg.Width)
	}
}

func TestDemoRefusesOtherAddresses(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"demo", "-imap", "0.0.0.0:0"}, nil, &bytes.Buffer{}, &stderr); code != 1 || !strings.Contains(stderr.String(), "loopback") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// syncBuffer is a bytes.Buffer that a command may write while a test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// inboxMail is a message as a player's mail client shows it.
type inboxMail struct {
	Subject   string
	MessageID string
	InReplyTo string
	Body      string
	Raw       string // the message as the server holds it
}

// readInbox logs in to the IMAP server at addr as a and returns every
// message of the INBOX.
func readInbox(t *testing.T, addr string, a demo.Account) []inboxMail {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(a.Addr, a.Password).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	sec := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(set, &imap.FetchOptions{Envelope: true, BodySection: []*imap.FetchItemBodySection{sec}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []inboxMail
	for _, m := range msgs {
		in, err := mail.Decode(bytes.NewReader(m.FindBodySection(sec)), 0)
		if err != nil {
			t.Fatalf("message %d of %s: %v", m.SeqNum, a.Addr, err)
		}
		irt := ""
		if len(m.Envelope.InReplyTo) > 0 {
			irt = m.Envelope.InReplyTo[0]
		}
		out = append(out, inboxMail{Subject: m.Envelope.Subject, MessageID: m.Envelope.MessageID, InReplyTo: irt, Body: in.Body,
			Raw: string(m.FindBodySection(sec))})
	}
	c.Logout().Wait()
	return out
}

func subjects(mails []inboxMail) []string {
	var s []string
	for _, m := range mails {
		s = append(s, m.Subject)
	}
	return s
}
