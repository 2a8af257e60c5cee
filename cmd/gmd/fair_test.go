package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/demo"
)

// TestRunFairBurst is the attack on fairness end to end: 1,000 mails
// from one player, then one from another, all in the judge's INBOX
// before gmd run starts. The other's mail is handled second, and its
// reply is among the first few the judge sends, not behind the burst's
// thousand.
func TestRunFairBurst(t *testing.T) {
	const burst = 1000
	srv, err := demo.Start("127.0.0.1:0", "127.0.0.1:0", demo.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	conf := writeConf(t, dir, srv, "")
	flooder, other := demo.Player(1), demo.Player(2)
	for i := range burst {
		if err := srv.Send(flooder, []string{demo.Judge.Addr}, fmt.Sprintf("burst %d", i), "VERSION\n"); err != nil {
			t.Fatal(err)
		}
	}
	if err := srv.Send(other, []string{demo.Judge.Addr}, "the other sender", "VERSION\n"); err != nil {
		t.Fatal(err)
	}
	r := startRun(t, conf)
	inbox := waitInbox(t, srv, other, "the other sender", r.log)
	i := slices.IndexFunc(inbox, func(m inboxMail) bool { return strings.Contains(m.Subject, "the other sender") })
	reply := inbox[i].MessageID

	// The log says in what order the mails were handled and sent.
	var handled, sent []string
	deadline := time.Now().Add(15 * time.Second)
	for {
		log := r.log.String()
		handled = regexp.MustCompile(`msg="mail handled" from=(\S+)`).FindAllString(log, -1)
		sent = regexp.MustCompile(`msg="mail sent".*message_id=(\S+)`).FindAllString(log, -1)
		if slices.ContainsFunc(sent, func(s string) bool { return strings.Contains(s, reply) }) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the reply %s is not in the log as sent:\n%s", reply, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	h := slices.IndexFunc(handled, func(s string) bool { return strings.Contains(s, other.Addr) })
	if h != 1 {
		t.Errorf("the other sender's mail was handled %d-th, want second", h+1)
	}
	// The first batch's replies are queued together, and a pass sends
	// round-robin: among the first few.
	s := slices.IndexFunc(sent, func(s string) bool { return strings.Contains(s, reply) })
	if s > 3 {
		t.Errorf("the reply to the other sender was sent %d-th, want among the first few", s+1)
	}
	t.Logf("of %d mails, the other sender's was handled in place %d and answered in place %d", burst+1, h+1, s+1)
	r.exit(t)
}
