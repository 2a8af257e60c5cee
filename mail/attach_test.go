package mail

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// TestComposeAttachment makes a results mail with a picture
// multipart/mixed: the text part first, decoding to exactly the text of
// the same mail composed without it, then the picture as an attachment.
func TestComposeAttachment(t *testing.T) {
	m := &state.OutMail{
		MessageID: "<gmd.1767366245.8@example.org>",
		To:        []string{"a@example.com", "b@example.com"},
		Subject:   "GMD:dt - S1901M Results",
		Body: "Movement results for Spring of 1901. (dt.001)\n\nAustria: A Budapest -> Serbia.\n" +
			"From here, a line that mbox would cut, = signs, ümlauts and a long line " +
			strings.Repeat("x", 200) + "\n--" + "\n-- \n",
	}
	_, _, plain := compose(t, m)

	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0, 1, 2, 0xff}, 500)...)
	var b bytes.Buffer
	if err := Compose(&b, m, "judge@example.org", composeTime, Attachment{Name: "S1901M.png", ContentType: "image/png", Data: png}); err != nil {
		t.Fatal(err)
	}
	raw := b.String()
	if strings.Contains(raw, "\r\nFrom ") {
		t.Error("a line of the mail starts with \"From \"")
	}
	mr, err := gomail.CreateReader(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if ct, _, _ := mr.Header.ContentType(); ct != "multipart/mixed" {
		t.Fatalf("Content-Type %q, want multipart/mixed", ct)
	}
	if mr.Header.Get("Subject") != m.Subject || mr.Header.Get("Message-Id") != m.MessageID {
		t.Errorf("header lost: Subject %q, Message-Id %q", mr.Header.Get("Subject"), mr.Header.Get("Message-Id"))
	}

	p, err := mr.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	ih, ok := p.Header.(*gomail.InlineHeader)
	if !ok {
		t.Fatalf("first part is %T, want the inline text", p.Header)
	}
	if ct, params, _ := ih.ContentType(); ct != "text/plain" || params["charset"] != "utf-8" {
		t.Errorf("text part Content-Type %q %v", ct, params)
	}
	text, _ := io.ReadAll(p.Body)
	if got := strings.ReplaceAll(string(text), "\r\n", "\n"); got != plain {
		t.Errorf("text part differs from the text alone:\n%q\nwant\n%q", got, plain)
	}

	p, err = mr.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	ah, ok := p.Header.(*gomail.AttachmentHeader)
	if !ok {
		t.Fatalf("second part is %T, want an attachment", p.Header)
	}
	if name, _ := ah.Filename(); name != "S1901M.png" {
		t.Errorf("attachment file name %q", name)
	}
	if ct, params, _ := ah.ContentType(); ct != "image/png" || params["name"] != "S1901M.png" {
		t.Errorf("attachment Content-Type %q %v", ct, params)
	}
	if d, _, _ := ah.ContentDisposition(); d != "attachment" {
		t.Errorf("attachment Content-Disposition %q", d)
	}
	data, _ := io.ReadAll(p.Body)
	if !bytes.Equal(data, png) {
		t.Errorf("attachment: %d bytes back, want the %d written", len(data), len(png))
	}
	if _, err := mr.NextPart(); err != io.EOF {
		t.Errorf("after the attachment: %v, want the end", err)
	}

	// The same mail composed again is the same message (a resend).
	var again bytes.Buffer
	if err := Compose(&again, m, "judge@example.org", composeTime, Attachment{Name: "S1901M.png", ContentType: "image/png", Data: png}); err != nil {
		t.Fatal(err)
	}
	if again.String() != raw {
		t.Error("composing the mail twice gave two different messages")
	}
}

// TestComposeBadAttachment refuses names and types that would break the
// part's header.
func TestComposeBadAttachment(t *testing.T) {
	m := &state.OutMail{MessageID: "<gmd.1.1@example.org>", To: []string{"a@example.com"}, Subject: "s", Body: "b"}
	for _, a := range []Attachment{
		{Name: "", ContentType: "image/png"},
		{Name: "a\r\nBcc: x@y", ContentType: "image/png"},
		{Name: "../x.png", ContentType: "image/png"},
		{Name: "x.png", ContentType: "png"},
		{Name: "x.png", ContentType: "image/png; x=\"y\""},
	} {
		if err := Compose(io.Discard, m, "judge@example.org", composeTime, a); err == nil {
			t.Errorf("Compose with attachment %q %q succeeded", a.Name, a.ContentType)
		}
	}
}

// TestSendAttaches draws a mail's maps when it sends it, and sends the
// text alone, and says so in the log, when the drawing fails.
func TestSendAttaches(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	var asked []state.MapRef
	o.s.Attach = func(m *state.OutMail) ([]Attachment, error) {
		asked = append(asked, m.Maps...)
		if m.Maps[0].Turn == 2 {
			return nil, errors.New("phase 2 rolled back")
		}
		return []Attachment{
			{Name: m.Maps[0].Phase + ".png", ContentType: "image/png", Data: png},
			{Name: "bad\nname", ContentType: "image/png", Data: png}, // dropped, not the mail
		}, nil
	}
	body := "Results.\n.\nFrom here on.\n"
	with := &state.OutMail{MessageID: "<gmd.1@example.test>", To: []string{"p1@example.test"}, Body: body,
		Maps: []state.MapRef{{Game: "dt", Turn: 1, Phase: "S1901M"}}}
	failing := &state.OutMail{MessageID: "<gmd.2@example.test>", To: []string{"p1@example.test"}, Body: body,
		Maps: []state.MapRef{{Game: "dt", Turn: 2, Phase: "F1901M"}}}
	without := &state.OutMail{MessageID: "<gmd.3@example.test>", To: []string{"p1@example.test"}, Body: body}
	for _, m := range []*state.OutMail{with, failing, without} {
		o.queue(m)
	}
	o.flush(3, false)
	if len(asked) != 2 {
		t.Errorf("Attach asked for %v, want the two mails with maps only", asked)
	}
	got := srv.got()
	if len(got) != 3 {
		t.Fatalf("server got %d mails, want 3", len(got))
	}
	for i, wantParts := range []int{2, 1, 1} {
		parts, _ := mailParts(t, got[i].data)
		if len(parts) != wantParts {
			t.Errorf("mail %d has %d parts, want %d", i, len(parts), wantParts)
			continue
		}
		if strings.ReplaceAll(parts[0], "\r\n", "\n") != body {
			t.Errorf("mail %d text %q, want %q", i, parts[0], body)
		}
		if wantParts == 2 && parts[1] != string(png) {
			t.Errorf("mail %d attachment %q", i, parts[1])
		}
	}
	if log := o.log.String(); !strings.Contains(log, "mail sent without its map") || !strings.Contains(log, "phase 2 rolled back") {
		t.Errorf("the log does not say that a map was left out:\n%s", log)
	}
}

// BenchmarkComposeMap measures a results mail with a map of 150 KB, the
// work the sender does per recipient group on top of the drawing.
func BenchmarkComposeMap(b *testing.B) {
	m := &state.OutMail{MessageID: "<gmd.1767366245.8@example.org>", To: []string{"a@example.com", "b@example.com"},
		Subject: "GMD:dt - S1901M Results", Body: strings.Repeat("Austria: Army Vienna -> Galicia. (*bounce*)\n", 40)}
	att := Attachment{Name: "S1901M.png", ContentType: "image/png", Data: bytes.Repeat([]byte{0x89, 'P', 'N', 'G', 1, 2, 3}, 150<<10/7)}
	b.ReportAllocs()
	for b.Loop() {
		if err := Compose(io.Discard, m, "judge@example.org", composeTime, att); err != nil {
			b.Fatal(err)
		}
	}
}
