package main

import (
	"bytes"
	imagepng "image/png"
	"io"
	"net/http"
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
	var imapAddr string
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
		m := regexp.MustCompile(`(?m)^  IMAP  (\S+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no IMAP address in:\n%s", out)
		}
		imapAddr = m[1]
	}
	t.Logf("ready after %v", time.Since(start).Round(time.Millisecond))
	out := stdout.String()
	for _, want := range []string{
		"player1@gmd.demo         player1pass     Austria",
		"mutt -f imap://player1%40gmd.demo@" + imapAddr + "/INBOX",
		"S1901M results are waiting",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
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
	if strings.Contains(stderr.String(), "level=ERROR") {
		t.Errorf("errors logged:\n%s", stderr.String())
	}
	// The daemon's master logs the games' events.
	if want := `msg="phase processed" game=demo phase=S1901M next=F1901M turn=1`; !strings.Contains(stderr.String(), want) {
		t.Errorf("the log lacks %q:\n%s", want, stderr.String())
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
