package mail

import (
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// crlf turns a readable test message into wire format.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func decode(t *testing.T, msg string) *Incoming {
	t.Helper()
	in, err := Decode(strings.NewReader(crlf(msg)), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestDecodePlain(t *testing.T) {
	in := decode(t, `From: "Alice A." <Alice.Smith@Example.COM>
To: judge@example.org
Subject: orders
	for dt
Message-ID: <abc.123@mail.example.com>
Date: Fri, 02 Jan 2026 15:04:05 +0000

SIGNON Fdt secret
F Bre - Mao
END
`)
	want := Incoming{
		From:      "Alice.Smith@example.com",
		Subject:   "orders for dt",
		Body:      "SIGNON Fdt secret\nF Bre - Mao\nEND\n",
		MessageID: "<abc.123@mail.example.com>",
	}
	if *in != want {
		t.Errorf("got  %+v\nwant %+v", *in, want)
	}
}

func TestDecodeMultipartAlternative(t *testing.T) {
	in := decode(t, `From: bob@example.com
Subject: =?UTF-8?Q?Ordres_pour_l=E2=80=99=C3=A9t=C3=A9?=
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="b1"

--b1
Content-Type: text/html; charset=utf-8

<div>HTML version</div>
--b1
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 7bit

plain version
--b1--
`)
	if in.Body != "plain version\n" {
		t.Errorf("body %q, want the text/plain part", in.Body)
	}
	if in.Subject != "Ordres pour l’été" {
		t.Errorf("subject %q", in.Subject)
	}
	if in.MessageID != "" {
		t.Errorf("message id %q for a mail without one", in.MessageID)
	}
}

func TestDecodeHTMLOnly(t *testing.T) {
	in := decode(t, `From: carol@example.com
Subject: orders
Content-Type: text/html; charset=utf-8

<html><head><title>x</title><style>div { color: red }</style></head>
<body><div dir="ltr">SIGNON Edt pw<div>F Lon -&gt; Nth</div><div>A&nbsp;Lvp  Yor<br>F Edi - Nwg<br></div><div><br></div>
<p class=MsoNormal>Caf&eacute; &amp; <b>bold</b><o:p></o:p></p>
<!-- a comment <div>hidden</div> --><script>alert("<div>")</script>
<ul><li>one</li><li>two</li></ul></div></body></html>
`)
	want := "SIGNON Edt pw\nF Lon -> Nth\nA Lvp Yor\nF Edi - Nwg\n\nCafé & bold\none\ntwo\n"
	if in.Body != want {
		t.Errorf("body\n%q\nwant\n%q", in.Body, want)
	}
}

func TestDecodeBase64(t *testing.T) {
	// "SIGNON Gdt pw\nA Ber - Kie\nPRESS TO E\nGrüße\nENDPRESS\n"
	in := decode(t, `From: dave@example.com
Subject: x
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: base64

U0lHTk9OIEdkdCBwdwpBIEJlciAtIEtpZQpQUkVTUyBUTyBFCkdyw7zDn2UKRU5EUFJFU1MK
`)
	if want := "SIGNON Gdt pw\nA Ber - Kie\nPRESS TO E\nGrüße\nENDPRESS\n"; in.Body != want {
		t.Errorf("body %q, want %q", in.Body, want)
	}
}

func TestDecodeQuotedPrintable(t *testing.T) {
	in := decode(t, `From: erin@example.com
Subject: x
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

PRESS TO ALL
A very long line that the sender's client wrapped with a soft line brea=
k in the middle, and an =C3=A9 in it, and an equals sign: 1+1=3D2
ENDPRESS
`)
	want := "PRESS TO ALL\nA very long line that the sender's client wrapped with a soft line break in the middle, and an é in it, and an equals sign: 1+1=2\nENDPRESS\n"
	if in.Body != want {
		t.Errorf("body\n%q\nwant\n%q", in.Body, want)
	}
}

func TestDecodeLatin1(t *testing.T) {
	in := decode(t, `From: =?ISO-8859-1?Q?Fran=E7ois?= <francois@example.fr>
Subject: =?ISO-8859-1?Q?ordres_d'=E9t=E9?=
Content-Type: text/plain; charset=ISO-8859-1
Content-Transfer-Encoding: quoted-printable

A Par - Bur
PRESS TO G
caf=E9 cr=E8me
ENDPRESS
`)
	if in.Subject != "ordres d'été" {
		t.Errorf("subject %q", in.Subject)
	}
	if want := "A Par - Bur\nPRESS TO G\ncafé crème\nENDPRESS\n"; in.Body != want {
		t.Errorf("body %q, want %q", in.Body, want)
	}
	if in.From != "francois@example.fr" {
		t.Errorf("from %q", in.From)
	}
}

func TestDecodeUndeclaredCharset(t *testing.T) {
	// No Content-Type at all, and 8-bit bytes that are not UTF-8: read as
	// Windows-1252, the usual culprit (0x80 is the euro sign there).
	msg := crlf("From: x@example.com\nSubject: s\n\ncaf\xe9 \x80\n")
	in, err := Decode(strings.NewReader(msg), 0)
	if err != nil {
		t.Fatal(err)
	}
	if in.Body != "café €\n" {
		t.Errorf("body %q", in.Body)
	}
	// An unknown declared charset keeps the text readable too.
	msg = crlf("From: x@example.com\nSubject: s\nContent-Type: text/plain; charset=x-klingon\n\ncaf\xe9\n")
	if in, err = Decode(strings.NewReader(msg), 0); err != nil {
		t.Fatal(err)
	}
	if in.Body != "café\n" {
		t.Errorf("unknown charset: body %q", in.Body)
	}
}

func TestDecodeAttachmentsIgnored(t *testing.T) {
	in := decode(t, `From: frank@example.com
Subject: x
Content-Type: multipart/mixed; boundary="outer"

--outer
Content-Type: text/plain; name="notes.txt"
Content-Disposition: attachment; filename="notes.txt"

SIGNOFF (in an attachment: not read)
--outer
Content-Type: multipart/alternative; boundary="inner"

--inner
Content-Type: text/plain; charset=utf-8

the body
--inner
Content-Type: text/html; charset=utf-8

<p>the html body</p>
--inner--
--outer
Content-Type: application/pdf
Content-Transfer-Encoding: base64
Content-Disposition: attachment; filename="map.pdf"

JVBERi0xLjQK
--outer--
`)
	if in.Body != "the body\n" {
		t.Errorf("body %q", in.Body)
	}
}

func TestDecodeHTMLWithAttachment(t *testing.T) {
	in := decode(t, `From: g@example.com
Subject: x
Content-Type: multipart/mixed; boundary="o"

--o
Content-Type: text/html; charset=utf-8
Content-Transfer-Encoding: quoted-printable

<p>F Tri H<br>A Ven - Tyr</p>
--o
Content-Type: image/png
Content-Disposition: attachment
Content-Transfer-Encoding: base64

iVBORw0KGgo=
--o--
`)
	if in.Body != "F Tri H\nA Ven - Tyr\n" {
		t.Errorf("body %q", in.Body)
	}
}

func TestDecodeFlowed(t *testing.T) {
	in := decode(t, "From: h@example.com\nSubject: x\nContent-Type: text/plain; charset=utf-8; format=flowed\n\n"+
		"PRESS TO ALL\nThis is one long line that the \nclient wrapped.\n From space-stuffed.\n-- \nsig\n")
	want := "PRESS TO ALL\nThis is one long line that the client wrapped.\nFrom space-stuffed.\n-- \nsig\n"
	if in.Body != want {
		t.Errorf("body %q, want %q", in.Body, want)
	}
	in = decode(t, "From: h@example.com\nSubject: x\nContent-Type: text/plain; format=flowed; delsp=yes\n\nab \ncd\n")
	if in.Body != "abcd\n" {
		t.Errorf("delsp: body %q", in.Body)
	}
}

func TestDecodeAutoReply(t *testing.T) {
	tests := []struct {
		header string
		auto   bool
		reason string
	}{
		{"", false, ""},
		{"Auto-Submitted: no\n", false, ""},
		{"Auto-Submitted: auto-replied\n", true, "Auto-Submitted: auto-replied"},
		{"Auto-Submitted: Auto-Generated\n", true, "Auto-Submitted: auto-generated"},
		{"Precedence: bulk\n", true, "Precedence: bulk"},
		{"Precedence: JUNK\n", true, "Precedence: junk"},
		{"Precedence: list\n", true, "Precedence: list"},
		{"Precedence: first-class\n", false, ""},
		{"List-Id: <diplomacy.lists.example.org>\n", true, "List-Id"},
		{"Return-Path: <>\n", true, "empty Return-Path (a bounce)"},
		{"Return-Path: <player@example.com>\n", false, ""},
		{"X-Autoreply: yes\n", true, "X-Autoreply"},
		{"Content-Type: multipart/report; report-type=delivery-status; boundary=x\n", true, "multipart/report (a delivery or read report)"},
	}
	for _, tt := range tests {
		in := decode(t, "From: p@example.com\nSubject: s\n"+tt.header+"\n--x\n\nbody\n--x--\n")
		if in.AutoReply != tt.auto || in.AutoReason != tt.reason {
			t.Errorf("%q: AutoReply %v %q, want %v %q", tt.header, in.AutoReply, in.AutoReason, tt.auto, tt.reason)
		}
	}
	in := decode(t, "From: MAILER-DAEMON@mx.example.com\nSubject: Undelivered Mail\n\nsorry\n")
	if !in.AutoReply {
		t.Error("a mail from MAILER-DAEMON is not flagged")
	}
}

// countingReader counts what was read from it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestDecodeTooLarge(t *testing.T) {
	msg := crlf("From: big@Example.com\nSubject: huge orders\nMessage-ID: <big@example.com>\n\n") +
		strings.Repeat("A Par - Bur\r\n", 1000)
	r := &countingReader{r: strings.NewReader(msg)}
	in, err := Decode(r, 4096)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("error %v, want ErrTooLarge", err)
	}
	if err.Error() != "mail: message too large: over 4096 bytes" {
		t.Errorf("error text %q", err)
	}
	if r.n != int64(len(msg)) {
		t.Errorf("read %d bytes of %d: the rest must be drained", r.n, len(msg))
	}
	if in == nil || in.From != "big@example.com" || in.Subject != "huge orders" || in.MessageID != "<big@example.com>" || in.Body != "" {
		t.Errorf("incoming %+v, want the headers to reply to", in)
	}
	// Exactly at the limit is fine.
	if _, err := Decode(strings.NewReader(msg), int64(len(msg))); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	// A header that does not even fit gives no Incoming.
	in, err = Decode(strings.NewReader(msg), 20)
	if !errors.Is(err, ErrTooLarge) || in != nil {
		t.Errorf("header over the limit: %+v, %v", in, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	for name, msg := range map[string]string{
		"no from":  "Subject: x\n\nbody\n",
		"bad from": "From: not an address\nSubject: x\n\nbody\n",
		"garbage":  "\x00\x01\x02 this is not a mail",
	} {
		if in, err := Decode(strings.NewReader(crlf(msg)), 0); err == nil {
			t.Errorf("%s: no error, got %+v", name, in)
		}
	}
}

func TestDecodeMessageID(t *testing.T) {
	for id, want := range map[string]string{
		"<a.b@c.d>":         "<a.b@c.d>",
		" <x@y>  (comment)": "<x@y>",
		"no-brackets@x":     "",
		"<no-at-sign>":      "",
	} {
		in := decode(t, "From: p@example.com\nMessage-ID: "+id+"\n\nbody\n")
		if in.MessageID != want {
			t.Errorf("Message-ID %q: got %q, want %q", id, in.MessageID, want)
		}
	}
}

func TestDecodeSubjectInjection(t *testing.T) {
	// An encoded word can hide a line break; it must not survive into the
	// subject that replies quote.
	in := decode(t, "From: p@example.com\nSubject: =?utf-8?q?hi=0D=0ABcc:_victim@example.org?=\n\nbody\n")
	if strings.ContainsAny(in.Subject, "\r\n") || in.Subject != "hi Bcc: victim@example.org" {
		t.Errorf("subject %q", in.Subject)
	}
}

// A Subject of any length is cut to maxSubject bytes, at a rune
// boundary: replies quote it, and nothing the judge does depends on it.
func TestDecodeLongSubject(t *testing.T) {
	words := strings.Repeat("é word ", 5000) // folded over many lines
	in := decode(t, "From: a@example.org\nSubject: "+strings.ReplaceAll(words, " ", "\n ")+"\n\nHELP\n")
	if len(in.Subject) > maxSubject || !strings.HasPrefix(in.Subject, "é word é word") || !utf8.ValidString(in.Subject) {
		t.Errorf("subject of %d bytes (valid UTF-8: %v), want at most %d: %.40q", len(in.Subject), utf8.ValidString(in.Subject), maxSubject, in.Subject)
	}
}
