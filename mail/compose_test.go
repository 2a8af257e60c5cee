package mail

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/gmdjudge/gmd/state"
)

var composeTime = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// compose composes m and parses it back with go-message.
func compose(t *testing.T, m *state.OutMail) (raw string, h gomail.Header, body string) {
	t.Helper()
	var b bytes.Buffer
	if err := Compose(&b, m, "judge@example.org", composeTime); err != nil {
		t.Fatal(err)
	}
	raw = b.String()
	mr, err := gomail.CreateReader(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	p, err := mr.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	bb, err := io.ReadAll(p.Body)
	if err != nil {
		t.Fatal(err)
	}
	// Quoted-printable hard line breaks decode as CRLF.
	return raw, mr.Header, strings.ReplaceAll(string(bb), "\r\n", "\n")
}

func TestComposeReply(t *testing.T) {
	long := "Austria: " + strings.Repeat("A Vie - Bud, ", 100) // one line of 1309 bytes
	m := &state.OutMail{
		MessageID: "<gmd.1767366245.7@example.org>",
		To:        []string{"alice@example.com"},
		Subject:   "GMD:dt - S1901M Résultats",
		Body:      "\n:: Judge: GMD  Game: dt\n" + long + "\nFrom here on, =, and ümlauts.\nend",
		InReplyTo: "<abc.123@mail.example.com>",
	}
	raw, h, body := compose(t, m)

	for key, want := range map[string]string{
		"From":                      "<judge@example.org>",
		"To":                        "<alice@example.com>",
		"Date":                      "Fri, 02 Jan 2026 15:04:05 +0000",
		"Message-Id":                "<gmd.1767366245.7@example.org>",
		"In-Reply-To":               "<abc.123@mail.example.com>",
		"References":                "<abc.123@mail.example.com>",
		"Auto-Submitted":            "auto-replied",
		"Mime-Version":              "1.0",
		"Content-Type":              "text/plain; charset=utf-8",
		"Content-Transfer-Encoding": "quoted-printable",
	} {
		if got := h.Get(key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if subject, err := h.Subject(); err != nil || subject != m.Subject {
		t.Errorf("subject %q (%v), want %q", subject, err, m.Subject)
	}
	if strings.Contains(raw, "Résultats") {
		t.Error("the non-ASCII subject is not encoded")
	}
	if want := m.Body + "\n"; body != want {
		t.Errorf("body\n%q\nwant\n%q", body, want)
	}
	// On the wire: CRLF lines of at most 78 characters (RFC 5322 §2.1.1
	// recommends it; quoted-printable makes it so), only ASCII, and no
	// line starting with "From ".
	for i, l := range strings.Split(strings.TrimSuffix(raw, "\r\n"), "\r\n") {
		if len(l) > 78 {
			t.Errorf("line %d is %d long: %q", i+1, len(l), l)
		}
		if strings.ContainsAny(l, "\r\n") {
			t.Errorf("line %d has a bare CR or LF: %q", i+1, l)
		}
		if strings.HasPrefix(l, "From ") {
			t.Errorf("line %d starts with From: %q", i+1, l)
		}
		for _, c := range []byte(l) {
			if c >= 0x80 {
				t.Errorf("line %d is not ASCII: %q", i+1, l)
				break
			}
		}
	}
	if !strings.Contains(raw, "\r\n=46rom here on") {
		t.Error("the From line is not escaped as =46rom")
	}
}

func TestComposeNotice(t *testing.T) {
	m := &state.OutMail{
		MessageID: "<gmd.1.2@example.org>",
		To:        []string{"a@example.com", "b@example.com", "c@example.com"},
		Subject:   "GMD:dt - S1901M Results",
		Body:      "results\n",
	}
	raw, h, body := compose(t, m)
	if got := h.Get("Auto-Submitted"); got != "auto-generated" {
		t.Errorf("Auto-Submitted %q", got)
	}
	if h.Has("In-Reply-To") || h.Has("References") {
		t.Error("threading headers on a mail that answers none")
	}
	if got := h.Get("To"); got != "undisclosed-recipients:;" {
		t.Errorf("To %q", got)
	}
	if strings.Contains(raw, "@example.com") {
		t.Error("a recipient's address is in the message")
	}
	if body != "results\n" {
		t.Errorf("body %q", body)
	}
}

func TestComposeDecodeRoundTrip(t *testing.T) {
	m := &state.OutMail{
		MessageID: "<gmd.1.2@example.org>",
		To:        []string{"p@example.com"},
		Subject:   "Re: orders",
		Body:      "line one\nFrom two\n",
		InReplyTo: "<x@y>",
	}
	var b bytes.Buffer
	if err := Compose(&b, m, "GMD <Judge@Example.ORG>", composeTime); err != nil {
		t.Fatal(err)
	}
	in, err := Decode(&b, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The judge's own mail is flagged as automatic, so that a judge that
	// receives it (a loop, a misdirected copy) does not answer.
	want := Incoming{From: "Judge@example.org", Subject: "Re: orders", Body: m.Body, MessageID: m.MessageID,
		AutoReply: true, AutoReason: "Auto-Submitted: auto-replied"}
	if *in != want {
		t.Errorf("got  %+v\nwant %+v", *in, want)
	}
}

func TestComposeRejectsInjection(t *testing.T) {
	good := func() *state.OutMail {
		return &state.OutMail{MessageID: "<a@b>", To: []string{"p@example.com"}, Subject: "s", Body: "b"}
	}
	tests := []struct {
		name   string
		change func(m *state.OutMail)
		want   string
	}{
		{"subject CRLF", func(m *state.OutMail) { m.Subject = "Re: hi\r\nBcc: victim@example.org" }, `mail: Subject contains a control character ('\r' at byte 6)`},
		{"subject LF", func(m *state.OutMail) { m.Subject = "hi\nBcc: v@x" }, `mail: Subject contains a control character ('\n' at byte 2)`},
		{"subject NUL", func(m *state.OutMail) { m.Subject = "a\x00b" }, `mail: Subject contains a control character ('\x00' at byte 1)`},
		{"to LF", func(m *state.OutMail) { m.To = []string{"p@example.com\nBcc: v@x"} }, `mail: To contains a control character ('\n' at byte 13)`},
		{"second to LF", func(m *state.OutMail) { m.To = []string{"a@x", "p@example.com\r\nX: y"} }, `mail: To contains a control character ('\r' at byte 13)`},
		{"to with a name", func(m *state.OutMail) { m.To = []string{"Eve <e@x>"} }, `mail: bad recipient address "Eve <e@x>"`},
		{"to list", func(m *state.OutMail) { m.To = []string{"a@x, b@y"} }, `mail: bad recipient address "a@x, b@y"`},
		{"no to", func(m *state.OutMail) { m.To = nil }, `mail: message <a@b> has no recipient`},
		{"in-reply-to LF", func(m *state.OutMail) { m.InReplyTo = "<a@b>\r\nBcc: v@x" }, `mail: bad In-Reply-To "<a@b>\r\nBcc: v@x"`},
		{"in-reply-to two ids", func(m *state.OutMail) { m.InReplyTo = "<a@b> <c@d>" }, `mail: bad In-Reply-To "<a@b> <c@d>"`},
		{"message-id", func(m *state.OutMail) { m.MessageID = "a@b" }, `mail: bad Message-ID "a@b"`},
		{"message-id LF", func(m *state.OutMail) { m.MessageID = "<a@b>\nX: y" }, `mail: bad Message-ID "<a@b>\nX: y"`},
	}
	for _, tt := range tests {
		m := good()
		tt.change(m)
		var b bytes.Buffer
		err := Compose(&b, m, "judge@example.org", composeTime)
		if err == nil {
			t.Errorf("%s: no error; wrote\n%s", tt.name, b.String())
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%s: error %q, want %q", tt.name, err, tt.want)
		}
		if b.Len() != 0 {
			t.Errorf("%s: wrote %d bytes despite the error", tt.name, b.Len())
		}
	}
	// The judge's own address comes from judge.conf, and is checked all
	// the same.
	for from, want := range map[string]string{
		"not an address":                                        `mail: judge address "not an address": mail: no angle-addr`,
		"GMD <judge@example.org>\r\nBcc: v@x":                   `mail: judge address "GMD <judge@example.org>\r\nBcc: v@x": mail: expected single address, got "\r\nBcc: v@x"`,
		"judge@example.org\n":                                   `mail: judge address "judge@example.org\n": mail: expected single address, got "\n"`,
		"\"GMD\r\nBcc: v@x\" <judge@example.org>":               `mail: judge address "\"GMD\r\nBcc: v@x\" <judge@example.org>": mail: missing word in phrase: mail: bad character in quoted-string: '\r'`,
		"=?utf-8?q?GMD=0D=0ABcc=3A_v=40x?= <judge@example.org>": `mail: From contains a control character ('\r' at byte 3)`,
		"=?utf-8?q?GMD=00?= <judge@example.org>":                `mail: From contains a control character ('\x00' at byte 3)`,
	} {
		var b bytes.Buffer
		err := Compose(&b, good(), from, composeTime)
		if err == nil || err.Error() != want {
			t.Errorf("judge address %q: error %v, want %s", from, err, want)
		}
		if b.Len() != 0 {
			t.Errorf("judge address %q: wrote %d bytes despite the error", from, b.Len())
		}
	}
	// Every field of every mail the judge sends: none may hold a line
	// break, whatever the field.
	for _, field := range []string{"Subject", "To", "In-Reply-To", "Message-ID"} {
		for _, brk := range []string{"\r", "\n", "\r\n", "\n\r", "\x00", "\x0b", "\x0c", "\x7f"} {
			m := good()
			m.InReplyTo = "<x@y>"
			inject := brk + "Bcc: victim@example.org"
			switch field {
			case "Subject":
				m.Subject += inject
			case "To":
				m.To = []string{"a@example.com", m.To[0] + inject}
			case "In-Reply-To":
				m.InReplyTo = "<x@y>" + inject
			case "Message-ID":
				m.MessageID = "<a@b>" + inject
			}
			var b bytes.Buffer
			if err := Compose(&b, m, "judge@example.org", composeTime); err == nil || b.Len() != 0 {
				t.Errorf("%s with %q: error %v, %d bytes written", field, brk, err, b.Len())
			}
		}
	}
}

func TestValidMsgID(t *testing.T) {
	for id, want := range map[string]bool{
		"<a@b>":                  true,
		"<gmd.1767366245.7@x.y>": true,
		"<a@[127.0.0.1]>":        true,
		"a@b":                    false,
		"<a@b":                   false,
		"<ab>":                   false,
		"<@b>":                   false,
		"<a@>":                   false,
		"<a b@c>":                false,
		"<a@b> ":                 false,
		"<a\"b@c>":               false,
		"<é@b>":                  false,
	} {
		if got := validMsgID(id); got != want {
			t.Errorf("validMsgID(%q) = %v", id, got)
		}
	}
}
