package mail

import (
	"bytes"
	"io"
	"testing"

	gomail "github.com/emersion/go-message/mail"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// TestSendAttachesFiles: a mail that carries files and no maps (the
// master's export) is given to Attach too, and goes with its file.
func TestSendAttachesFiles(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.s.Attach = func(m *state.OutMail) ([]Attachment, error) {
		var atts []Attachment
		for _, f := range m.Files {
			atts = append(atts, Attachment{Name: f.Name, ContentType: f.Type, Data: f.Data})
		}
		return atts, nil
	}
	data := []byte(`{"format": "gmd-game"}`)
	o.queue(&state.OutMail{MessageID: "<gmd.1@example.test>", To: []string{"master@example.test"}, Body: "Your export.\n",
		Files: []state.File{{Name: "dt-master.json", Type: "application/json", Data: data}}})
	o.flush(1, false)
	got := srv.got()
	if len(got) != 1 {
		t.Fatalf("server got %d mails, want 1", len(got))
	}
	parts, names := mailParts(t, got[0].data)
	last := []byte(parts[len(parts)-1])
	if len(names) != 1 || names[0] != "dt-master.json" || !bytes.Equal(last, data) {
		t.Errorf("attachments %v, the last part %q; want dt-master.json holding %q", names, last, data)
	}
}

// mailParts reads a mail as a strict reader does: the body of each part,
// and the file names of its attachments.
func mailParts(t *testing.T, data []byte) (parts, names []string) {
	t.Helper()
	mr, err := gomail.CreateReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return parts, names
		} else if err != nil {
			t.Fatal(err)
		}
		if ah, ok := p.Header.(*gomail.AttachmentHeader); ok {
			name, _ := ah.Filename()
			names = append(names, name)
		}
		b, _ := io.ReadAll(p.Body)
		parts = append(parts, string(b))
	}
}
