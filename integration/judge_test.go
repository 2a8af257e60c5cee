package integration

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// roundTrip bounds one mail's trip from a player to the judge and back:
// Postfix, LMTP, the judge's IDLE (Dovecot announces new mail after about
// half a second) or its poll, submission, Postfix again. A second or two
// in practice.
const roundTrip = 30 * time.Second

// codeLine is the line of a reply that gives a confirmation code.
var codeLine = regexp.MustCompile(`(?m)^  CONFIRM ([A-Z0-9]+)\r?$`)

// confirmCode returns the confirmation code a reply's body gives, or "".
func confirmCode(body string) string {
	if m := codeLine.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// confirmed waits for the judge's reply to l, which asks its sender to
// confirm their address (CREATE, a join), and returns the letter that
// does: the code of the reply, then l's body again.
func confirmed(t testing.TB, l *letter) *letter {
	t.Helper()
	r := replyTo(t, l, roundTrip)
	code := confirmCode(r.Body)
	if code == "" {
		t.Fatalf("no confirmation code in the reply to %q from %s:\n%s", l.Subject, l.From, r.Body)
	}
	return newLetter(l.From, l.Subject, "CONFIRM "+code+"\n"+l.Body)
}

// TestOrderAck sends a player's mail through the whole chain: SMTP into
// Postfix, LMTP into Dovecot, the judge reading it by IMAP (STARTTLS),
// its reply going out by submission (STARTTLS, AUTH PLAIN) through
// Postfix into the player's INBOX.
func TestOrderAck(t *testing.T) {
	j := newJudge(t)
	emptyMailboxes(t, "player1")
	j.start()

	game := "ack" + token(2)
	first := newLetter("player1", "a new game", fmt.Sprintf("CREATE ?%s sesame42", game))
	sendAll(t, first)
	// The judge asks the sender to confirm the address first.
	l := confirmed(t, first)
	sendAll(t, l)
	r := replyTo(t, l, roundTrip)

	if r.From != addr(judgeUser) {
		t.Errorf("reply from %q, want the judge's address %s", r.From, addr(judgeUser))
	}
	if !strings.HasPrefix(r.Subject, "Re: GMD") || !strings.HasSuffix(r.Subject, " a new game") {
		t.Errorf("reply subject %q, want Re: GMD... a new game", r.Subject)
	}
	if r.AutoSubmitted != "auto-replied" {
		t.Errorf("reply Auto-Submitted %q, want auto-replied", r.AutoSubmitted)
	}
	if !strings.HasSuffix(r.MessageID, "@"+domain+">") {
		t.Errorf("reply Message-ID %q is not in the judge's domain", r.MessageID)
	}
	// Postfix writes "with ESMTPSA" for mail submitted over TLS (S) by an
	// authenticated (A) client: the judge used the submission port as
	// configured.
	if !strings.Contains(r.Header, "(Postfix) with ESMTPSA") {
		t.Errorf("the reply did not come through authenticated submission over TLS; its header:\n%s", r.Header)
	}
	mustContain(t, r.Body,
		fmt.Sprintf("> CREATE ?%s ********", game),
		fmt.Sprintf("Game '%s' created", game),
		"SIGNON M"+game)
	if strings.Contains(r.Body, "sesame42") {
		t.Errorf("the reply gives the password away:\n%s", r.Body)
	}

	// The judge flagged the mail \Seen once it was handled.
	waitFor(t, judgeUser, 5*time.Second, "the CREATE mails flagged \\Seen", func(msgs []*received) bool {
		return len(msgs) == 2 && msgs[0].MessageID == first.MessageID && msgs[1].MessageID == l.MessageID && msgs[0].Seen && msgs[1].Seen
	})

	j.stop()
	j.handled([]*letter{first, l})
	if out := j.outbox(); len(out) != 0 {
		t.Errorf("%d mails left in the outbox, want none", len(out))
	}
}

// TestWholeTurn plays Spring 1901 by mail: a master creates a game, seven
// players join it, everyone orders, the master processes the phase, and
// every player and the master receive the results.
func TestWholeTurn(t *testing.T) {
	j := newJudge(t)
	everyone := []string{masterUser}
	for _, s := range seats {
		everyone = append(everyone, s.User)
	}
	emptyMailboxes(t, everyone...)
	j.start()
	game := "turn" + token(2)
	tag := "GMD:" + game + " - S1901M"

	// Each confirms their address with the code of the first reply.
	create := newLetter(masterUser, "new game", fmt.Sprintf("CREATE ?%s %s", game, masterPass))
	sendAll(t, create)
	create = confirmed(t, create)
	sendAll(t, create)
	mustContain(t, replyTo(t, create, roundTrip).Body, fmt.Sprintf("Game '%s' created", game))

	var joins []*letter
	for _, s := range seats {
		joins = append(joins, newLetter(s.User, "join", fmt.Sprintf("SIGNON ?%s %s %s", game, s.Pass, s.Letter)))
	}
	sendAll(t, joins...)
	for i, l := range joins {
		joins[i] = confirmed(t, l)
	}
	sendAll(t, joins...)
	for _, l := range joins {
		mustContain(t, replyTo(t, l, roundTrip).Body, fmt.Sprintf("joined game '%s'", game))
	}
	for i, u := range everyone {
		msgs := waitFor(t, u, roundTrip, "the game start", func(msgs []*received) bool {
			return len(withSubject(msgs, tag+" Game Starting")) > 0
		})
		start := withSubject(msgs, tag+" Game Starting")
		if len(start) != 1 {
			t.Errorf("%s got %d game start mails, want 1", u, len(start))
		}
		if i > 0 {
			mustContain(t, start[0].Body, "You have been selected as "+seats[i-1].Power)
		}
	}

	var orders []*letter
	for _, s := range seats {
		orders = append(orders, newLetter(s.User, "orders", fmt.Sprintf("SIGNON %s%s %s\n%s", s.Letter, game, s.Pass, s.Orders)))
	}
	sendAll(t, orders...)
	for _, l := range orders {
		r := replyTo(t, l, roundTrip)
		if strings.Contains(r.Body, "Error") {
			t.Errorf("the orders of %s were refused:\n%s", l.From, r.Body)
		}
		if !strings.HasPrefix(r.Subject, "Re: "+tag) {
			t.Errorf("order acknowledgement subject %q, want Re: %s ...", r.Subject, tag)
		}
	}

	// PROCESS S1901M rather than PROCESS: with every order in, the
	// daemon's clock (every 30 s) may process the phase first, and the
	// master's command must not then process Fall 1901 too.
	process := newLetter(masterUser, "process", fmt.Sprintf("SIGNON M%s %s\nPROCESS S1901M", game, masterPass))
	sendAll(t, process)
	pr := replyTo(t, process, roundTrip)
	switch {
	case strings.Contains(pr.Body, fmt.Sprintf("Phase S1901M of '%s' processed", game)):
	case strings.Contains(pr.Body, "not S1901M: nothing was processed"):
		t.Log("the clock processed the phase before the master's PROCESS")
	default:
		t.Errorf("PROCESS reply:\n%s", pr.Body)
	}

	results := map[string]bool{} // Message-IDs of the results mails
	for i, u := range everyone {
		msgs := waitFor(t, u, roundTrip, "the S1901M results", func(msgs []*received) bool {
			return len(withSubject(msgs, tag+" Results")) > 0
		})
		got := withSubject(msgs, tag+" Results")
		if len(got) != 1 {
			t.Errorf("%s got %d results mails, want 1", u, len(got))
		}
		r := got[0]
		results[r.MessageID] = true
		mustContain(t, r.Body,
			"Movement results for Spring of 1901.",
			"Austria: Army Vienna -> Galicia. (*bounce*)",
			"Russia: Army Warsaw -> Galicia. (*bounce*)",
			"France: Army Paris -> Picardy.",
			"Turkey: Fleet Ankara -> Black Sea. (*bounce*)",
			"The next phase of '"+game+"' will be Movement for Fall of 1901.")
		if strings.Contains(r.Body, "No Order Processed") {
			t.Errorf("%s's results show orders missing:\n%s", everyone[i], r.Body)
		}
	}
	if len(results) != 1 {
		t.Errorf("the results went out as %d different mails, want one to all: %v", len(results), results)
	}

	j.stop()
	if out := j.outbox(); len(out) != 0 {
		t.Errorf("%d mails left in the outbox, want none", len(out))
	}
}

// withSubject returns the messages with exactly this subject.
func withSubject(msgs []*received, subject string) []*received {
	var out []*received
	for _, m := range msgs {
		if m.Subject == subject {
			out = append(out, m)
		}
	}
	return out
}

// mustContain fails the test unless text holds every one of wants.
func mustContain(t testing.TB, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}
