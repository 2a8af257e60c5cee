package session

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode"

	gomail "github.com/emersion/go-message/mail"

	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/state"
)

// checkHeaders fails the test if any queued mail has a control character
// in its Subject, To or In-Reply-To, or if mail.Compose would not write it,
// or if the written mail has header fields the judge does not write.
func checkHeaders(t testing.TB, box []*state.OutMail) {
	t.Helper()
	for _, m := range box {
		fields := append([]string{m.Subject, m.InReplyTo}, m.To...)
		for _, f := range fields {
			if strings.ContainsFunc(f, unicode.IsControl) {
				t.Errorf("mail %d: control character in a header field: %q", m.ID, f)
			}
		}
		var b bytes.Buffer
		if err := mail.Compose(&b, m, "GMD <"+testJudge+">", testStart); err != nil {
			t.Errorf("mail %d (%q to %q): Compose: %v", m.ID, m.Subject, m.To, err)
			continue
		}
		r, err := gomail.CreateReader(&b)
		if err != nil {
			t.Fatal(err)
		}
		hf := r.Header.Fields()
		for hf.Next() {
			switch strings.ToLower(hf.Key()) {
			case "date", "from", "to", "subject", "message-id", "in-reply-to", "references",
				"auto-submitted", "mime-version", "content-type", "content-transfer-encoding":
			default:
				t.Errorf("mail %d: header field %s: %q", m.ID, hf.Key(), hf.Value())
			}
		}
	}
}

// TestHeaderInjection sends, through Handle, every player-supplied text
// that reaches a header with line breaks and other control characters in
// it: subjects, the sender's address, the Message-ID a reply refers to,
// game names, press recipients. No queued mail may carry them into its
// header fields.
func TestHeaderInjection(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	_, fSignon := seatOf("F")
	fSignon = strings.Replace(fSignon, "%s", "dt", 1)

	// A subject is quoted in the reply's: its control characters become
	// spaces.
	for subject, want := range map[string]string{
		"orders\r\nBcc: victim@example.net": "Re: GMD:dt - S1901M orders Bcc: victim@example.net",
		"orders\nBcc: victim@example.net":   "Re: GMD:dt - S1901M orders Bcc: victim@example.net",
		"orders\rBcc: victim@example.net":   "Re: GMD:dt - S1901M orders Bcc: victim@example.net",
		"a\x00b\x1b[2Jc\x7fd\u0085e\u009bf": "Re: GMD:dt - S1901M a b [2Jc d e f",
		"Re: \r\n\tRe: folded":              "Re: GMD:dt - S1901M folded",
	} {
		r := onlyTo(t, h.mail("france@example.org", subject, fSignon+"\nA Par H"), "france@example.org")
		if r.Subject != want {
			t.Errorf("subject %q: reply subject %q, want %q", subject, r.Subject, want)
		}
	}

	// A sender that is not a plain address is not answered at all, and
	// the mail is recorded as done.
	for i, from := range []string{
		"france@example.org\r\nBcc: victim@example.net",
		"france@example.org\nBcc: victim@example.net",
		"france@example.org, victim@example.net",
		"France <france@example.org>",
		"france@example.org\x00",
		"",
	} {
		id := fmt.Sprintf("<inj.from.%d@example.net>", i)
		if got := h.mailID(from, "orders", fSignon+"\nA Par H", id); len(got) != 0 {
			t.Errorf("sender %q: %d mails queued, first to %q", from, len(got), got[0].To)
		}
		if !h.seen(mailKey("", id)) {
			t.Errorf("sender %q: the mail was not recorded as done", from)
		}
	}

	// A Message-ID that is no Message-ID is not referred to.
	for _, id := range []string{"<a@b>\r\nBcc: victim@example.net", "<a@b>\nX: y", "<a b@c>"} {
		r := onlyTo(t, h.mailID("france@example.org", "x", "LIST", id), "france@example.org")
		if r.InReplyTo != "" {
			t.Errorf("Message-ID %q: In-Reply-To %q", id, r.InReplyTo)
		}
	}

	// Game names and press recipients with control characters in them:
	// the line breaks end the command's line, the rest is refused.
	h.mail("newbie@example.org", "new\r\nBcc: victim@example.net", "CREATE ?evil\x0bBcc:victim@example.net pw")
	h.mail("newbie@example.org", "new", "CREATE ?evil\r\nBcc: victim@example.net pw")
	h.mail("newbie@example.org", "new", "SIGNON ?dt\x00 pw\nOBSERVE dt\r\nBcc: x@y pw")
	h.orders("dt", "F", "PRESS TO E\rBcc: victim@example.net\nhi\nENDPRESS")
	h.orders("dt", "F", "PRESS TO E\x00G\nhi\nENDPRESS\nPRESS TO \x1bG\nhi\nENDPRESS")
	h.orders("dt", "F", "PRESS TO E\nhi\r\nBcc: victim@example.net\nENDPRESS")
	h.mail(testMaster, "m\r\nBcc: victim@example.net", "SIGNON Mdt pw-m\nBROADCAST\nx\r\nBcc: y\nENDPRESS\nSET DEADLINE +1h\n")
	if p := h.press("dt"); len(p) < 2 {
		t.Fatalf("only %d press sent: the test did not reach the headers", len(p))
	}
	box := h.outbox()
	checkHeaders(t, box)
	for _, m := range box {
		for _, a := range m.To {
			if strings.Contains(a, "victim") {
				t.Errorf("mail %q to %q", m.Subject, a)
			}
		}
	}
}
