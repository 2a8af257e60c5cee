package demo

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

func start(t *testing.T) *Servers {
	t.Helper()
	s, err := Start("127.0.0.1:0", "127.0.0.1:0", Accounts())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A mail sent through the SMTP server is in the recipient's INBOX, as
// IMAP shows it, under a UIDVALIDITY that is not imapmemserver's 1.
func TestSMTPIntoIMAP(t *testing.T) {
	s := start(t)
	p1 := Player(1)
	if err := s.Send(Master, []string{p1.Addr, Judge.Addr}, "hello", "Hi there.\n"); err != nil {
		t.Fatal(err)
	}
	if got := s.Subjects(p1.Addr); len(got) != 1 || got[0] != "hello" {
		t.Errorf("delivered to player1: %q", got)
	}
	if got := s.Subjects(Judge.Addr); len(got) != 1 {
		t.Errorf("delivered to the judge: %q", got)
	}

	c, err := imapclient.DialInsecure(s.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(p1.Addr, p1.Password).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages != 1 || sel.UIDValidity < 1000 {
		t.Errorf("INBOX: %d messages, UIDVALIDITY %d", sel.NumMessages, sel.UIDValidity)
	}
	sec := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{Envelope: true, BodySection: []*imap.FetchItemBodySection{sec}}).Collect()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("fetch: %d messages, %v", len(msgs), err)
	}
	raw := string(msgs[0].FindBodySection(sec))
	if msgs[0].Envelope.Subject != "hello" || !strings.HasPrefix(raw, "Return-Path: <master@gmd.demo>\r\n") || !strings.HasSuffix(raw, "\r\n\r\nHi there.\r\n") {
		t.Errorf("subject %q, message:\n%s", msgs[0].Envelope.Subject, raw)
	}

	c2, err := imapclient.DialInsecure(s.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := c2.Login(p1.Addr, "wrong").Wait(); err == nil {
		t.Error("LOGIN with a wrong password worked")
	}
	if err := c2.Login("nobody@gmd.demo", "x").Wait(); err == nil {
		t.Error("LOGIN as nobody worked")
	}
}

func TestSMTPRefusals(t *testing.T) {
	s := start(t)
	// Mail for nobody here: 550 at RCPT.
	err := s.Send(Player(1), []string{"someone@example.org"}, "out", "x")
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 550 {
		t.Errorf("relay: %v", err)
	}
	// A wrong password: 535.
	err = s.Send(Account{Player(1).Addr, "wrong"}, []string{Judge.Addr}, "x", "x")
	if !errors.As(err, &se) || se.Code != 535 {
		t.Errorf("bad login: %v", err)
	}
	// No login at all is fine: the server is the accounts' MX too.
	c, err := smtp.Dial(s.SMTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	msg := Message("someone@example.org", []string{Judge.Addr}, "from outside", "x")
	if err := c.SendMail("someone@example.org", []string{Judge.Addr}, strings.NewReader(string(msg))); err != nil {
		t.Errorf("mail without AUTH: %v", err)
	}
	if err := c.Auth(sasl.NewPlainClient("", Judge.Addr, Judge.Password)); err != nil {
		t.Errorf("AUTH after a mail: %v", err)
	}
	if got := s.Subjects(Judge.Addr); len(got) != 1 || got[0] != "from outside" {
		t.Errorf("judge's mail: %q", got)
	}
}

func TestOnlyLoopback(t *testing.T) {
	if _, err := Start("0.0.0.0:0", "127.0.0.1:0", Accounts()); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("Start on 0.0.0.0: %v", err)
	}
}

func TestWaitFor(t *testing.T) {
	s := start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go func() {
		time.Sleep(10 * time.Millisecond)
		s.Send(Master, []string{Player(1).Addr}, "first", "x")
		s.Send(Master, []string{Player(2).Addr}, "GMD:demo - S1901M Results", "x")
		s.Send(Master, []string{Player(1).Addr}, "GMD:demo - S1901M Results", "x")
	}()
	if err := s.WaitFor(ctx, "S1901M Results", Player(1).Addr, Player(2).Addr); err != nil {
		t.Fatal(err)
	}
	short, cancel2 := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel2()
	if err := s.WaitFor(short, "S1901M Results", Player(3).Addr); err == nil || !strings.Contains(err.Error(), "player3@gmd.demo") {
		t.Errorf("WaitFor for a mail that never comes: %v", err)
	}
}

// TestCloseAtOnce closes the servers the moment they started, before
// their Serve goroutines may have taken in the listeners: Close must
// return all the same (it once waited for ever, now and then).
func TestCloseAtOnce(t *testing.T) {
	for range 300 {
		s, err := Start("127.0.0.1:0", "127.0.0.1:0", Accounts()[:1])
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- s.Close() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("Close did not return")
		}
	}
}
