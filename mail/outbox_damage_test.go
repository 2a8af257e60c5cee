package mail

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/internal/diskfault"
	"github.com/gmdjudge/gmd/state"
)

// A temporary refusal is kept with the mail (OutMail.LastError), for
// gmd outbox to show; so is the failure of a whole session.
func TestSendLastError(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	srv.refuse("slow@example.test", &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{To: []string{"slow@example.test"}})
	o.flush(0, true)
	m := o.only()
	if !strings.HasPrefix(m.LastError, smtpT0.Format(time.RFC3339)+": ") || !strings.Contains(m.LastError, "451") || m.Failed != "" {
		t.Errorf("LastError %q, Failed %q", m.LastError, m.Failed)
	}
}

// A damaged outbox page makes every pass fail with an error wrapping
// state.ErrDamaged, and Run say so and wait, sending nothing and losing
// nothing; once the page is mended (a backup restored), the mails go.
func TestSendDamagedOutbox(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}, Subject: "on a page soon damaged"})
	rot := diskfault.DamageTest(t, o.db.Path(), os.Getpagesize(), "on a page soon damaged")
	if _, err := o.s.Flush(context.Background()); !errors.Is(err, state.ErrDamaged) {
		t.Fatalf("Flush of a damaged outbox: %v", err)
	}
	o.s.dbRetryFirst = time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	o.s.Run(ctx)
	if l := o.log.String(); !strings.Contains(l, `level=ERROR msg="the outbox cannot be read; sending waits until the database is repaired"`) {
		t.Errorf("log:\n%s", l)
	}
	if len(srv.got()) != 0 {
		t.Fatal("mail sent from a damaged outbox")
	}
	if err := rot.Mend(); err != nil {
		t.Fatal(err)
	}
	o.flush(1, false)
}
