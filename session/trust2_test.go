package session

import (
	"bytes"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/gmdjudge/gmd/internal/textsafe"
)

// Tests of issue 18's leaks and hygiene (items 12 to 14): what the
// judge's mails give away, whom the judge writes to, and what of a
// player's text reaches other people.

// randomID is the form of every Message-ID the judge writes: a random
// token with no number in it that counts anything.
var randomID = regexp.MustCompile(`^<gmd\.[a-z2-7]{26}@example\.org>$`)

// Two mails of the judge's tell nobody how many it sent between them: a
// player of a gunboat game who gets a mail before and after the others'
// orders must not learn from the Message-Ids that someone sent orders.
// The attack reads the numbers in two ids and subtracts.
func TestMessageIDsCountNothing(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	probe := func() string {
		return replyTo(t, h.mail("observer@example.org", "x", "HELP"), "observer@example.org").MessageID
	}
	first := probe()
	const between = 5
	for i := range between {
		h.mail("someone"+strconv.Itoa(i)+"@example.org", "x", "HELP")
	}
	second := probe()
	seen := make(map[string]bool)
	for _, m := range h.outbox() {
		if !randomID.MatchString(m.MessageID) {
			t.Errorf("mail %d: Message-ID %q is not a random token", m.ID, m.MessageID)
		}
		if seen[m.MessageID] {
			t.Errorf("Message-ID %q used twice", m.MessageID)
		}
		seen[m.MessageID] = true
	}
	// The old ids were <gmd.UNIX.N@domain>, N the judge-wide counter.
	num := func(id string) int {
		digits := regexp.MustCompile(`[0-9]+`).FindAllString(id, -1)
		if len(digits) == 0 {
			return -1
		}
		n, _ := strconv.Atoi(digits[len(digits)-1])
		return n
	}
	if a, b := num(first), num(second); a >= 0 && b-a == between+1 {
		t.Errorf("Message-Ids %s and %s count the %d mails between them", first, second, between)
	}
}

// hostileSenders are From addresses the judge must never write to: IP
// literals and bare IP addresses (the judge's mail server would deliver
// to the loopback or an internal host), and addresses with a bidi
// override or another invisible format character in them.
var hostileSenders = []string{
	"victim@[127.0.0.1]",
	"postmaster@[10.0.0.1]",
	"root@[IPv6:::1]",
	"admin@[192.168.1.1]",
	"victim@127.0.0.1",
	"victim@10.0.0.1",
	"vic\u202etim@example.org",     // right-to-left override
	"\u202dvictim@example.org",     // left-to-right override
	"victim\u2066@example.org",     // left-to-right isolate
	"vic\u200btim@example.org",     // zero-width space
	"victim@exa\u200dmple.org",     // zero-width joiner in the domain
	"victim\u061c@example.org",     // Arabic letter mark
	"victim@example.org\ufeff",     // byte order mark
	"\u200fvictim@example.org",     // right-to-left mark
	"victim\U000e0041@example.org", // a tag character
}

// A mail from an address the judge must not write to is recorded as
// done, logged, and never answered: not by Handle (a HELP, a sign-on),
// not by Refuse (a mail too large to read), not as a held mail.
func TestHostileSendersNotAnswered(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	var log bytes.Buffer
	h.m.cfg.Log = slog.New(slog.NewTextHandler(&log, nil))
	_, fSignon := seatOf("F")
	fSignon = strings.Replace(fSignon, "%s", "dt", 1)
	for i, from := range hostileSenders {
		for j, body := range []string{"HELP", "LIST", fSignon + "\nA Par H", "SIGNON ?dt pw\n", "CREATE ?x" + strconv.Itoa(i) + " pw"} {
			id := fmt.Sprintf("<hostile.%d.%d@example.net>", i, j)
			if got := h.mailID(from, "hello", body, id); len(got) != 0 {
				t.Errorf("sender %q, %q: %d mails queued, to %q", from, body, len(got), got[0].To)
			}
			if !h.seen(mailKey("", id)) {
				t.Errorf("sender %q: the mail was not recorded as done", from)
			}
		}
		before := h.lastID()
		if _, err := h.m.Refuse(from, "big", fmt.Sprintf("<refused.%d@example.net>", i), "It is too large.", nil, h.now); err != nil {
			t.Fatal(err)
		}
		if got := h.since(before); len(got) != 0 {
			t.Errorf("sender %q: Refuse queued %d mails", from, len(got))
		}
		if !strings.Contains(log.String(), "mail ignored") {
			t.Errorf("sender %q: no log line", from)
		}
		log.Reset()
	}
	// Plain addresses with names for domains are still answered, IPv4
	// look-alikes that are names among them.
	for _, from := range []string{"a@example.org", "b@1.2.3.example", "c@xn--bcher-kva.example", "d@müller.example"} {
		if got := h.mail(from, "hello", "HELP"); len(mailsTo(got, from)) != 1 {
			t.Errorf("sender %q: %d replies, want 1", from, len(got))
		}
	}
}

// hostileText is what a player may write to act on another's terminal or
// mail reader: NUL, BEL, VT, FF, an ANSI escape that clears the screen,
// DEL, a C1 control, and the bidi and zero-width format characters.
const hostileText = "\x00\x07\x0b\x0c\x1b[2J\x7f\u0085\u009b\u202e\u2066\u200b\ufeff\u200f"

// Every path that echoes a player's text into a mail, in one game: the
// reply's subject, press bodies of every kind (to powers, broadcast, to
// the master, the master's), order lines and commands quoted in errors,
// game names and arguments quoted back, a refused mail's subject. No
// queued mail, of any of them, carries a control or format character in
// its subject or body; what is left of the text (the "[2J" of the
// escape) still arrives.
func TestNoControlCharactersEchoed(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	x := hostileText
	_, fSignon := seatOf("F")
	fSignon = strings.Replace(fSignon, "%s", "dt", 1)
	h.mail("france@example.org", "orders"+x, fSignon+"\n"+
		"PRESS TO E\nhello"+x+"\nENDPRESS\n"+
		"PRESS TO EG\nto two"+x+"\nENDPRESS\n"+
		"BROADCAST\nto all"+x+"\nENDPRESS\n"+
		"PRESS TO M\nto the master"+x+"\nENDPRESS\n"+
		"A Par - Bur"+x+"\n"+
		"A P"+x+"ar H\n"+
		"F Bre - Mid"+x+"Atlantic\n"+
		x+"FROBNICATE now\n"+
		"SET NMR"+x+"\n"+
		"PRESS TO "+x+"\nnobody\nENDPRESS\n")
	h.mail(testMaster, "master"+x, "SIGNON Mdt "+testMasterPass+"\n"+
		"BROADCAST\nfrom the master"+x+"\nENDPRESS\n"+
		"SET DEADLINE "+x+"\n"+
		"EJECT "+x+"\n"+
		"BECOME "+x+"\n")
	h.mail("newbie@example.org", "new"+x, "SIGNON ?dt"+x+" pw\nOBSERVE dt"+x+" pw\nCREATE ?x"+x+" pw\nLIST dt"+x+"\nHISTORY dt"+x+"\nHELP "+x+"\n")
	if _, err := h.m.Refuse("stranger@example.org", "too big"+x, "<big@example.org>", "It is too large.", nil, h.now); err != nil {
		t.Fatal(err)
	}
	h.advance(80 * time.Hour)
	h.tick()

	box := h.outbox()
	arrived := false
	for _, m := range box {
		for field, text := range map[string]string{"subject": m.Subject, "body": m.Body} {
			if clean := textsafe.Clean(text); clean != text {
				t.Errorf("mail %d to %q: its %s holds %q", m.ID, m.To, field, firstDiff(text, clean))
			}
		}
		if strings.ContainsFunc(m.Subject, unicode.IsControl) {
			t.Errorf("mail %d: control character in the subject %q", m.ID, m.Subject)
		}
		arrived = arrived || strings.Contains(m.Body, "hello[2J")
	}
	if !arrived {
		t.Fatal("the press never arrived: the test did not reach the echo paths")
	}
	if len(h.press("dt")) < 4 {
		t.Fatalf("only %d press stored", len(h.press("dt")))
	}
}

// firstDiff returns text from where clean first differs from it, a few
// characters of it.
func firstDiff(text, clean string) string {
	i := 0
	for i < len(clean) && text[i] == clean[i] {
		i++
	}
	return text[max(0, i-8):min(len(text), i+8)]
}
