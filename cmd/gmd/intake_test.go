package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/state"
)

// A hostile From of 33,000 characters costs the log a few hundred bytes,
// not its own length, and the clipped text says how long it was.
func TestClipLongSender(t *testing.T) {
	long := strings.Repeat("x", 33000) + "@example.org"
	c := clip(long)
	if len(c) > 400 || !strings.HasSuffix(c, "... (33012 bytes)") {
		t.Errorf("clip gave %d bytes ending %q", len(c), c[max(0, len(c)-30):])
	}
	if c := clip("france@example.org"); c != "france@example.org" {
		t.Errorf("clip changed a plain address: %q", c)
	}
}

// A mail offered again after a crash (applied, its reply queued, but not
// yet flagged \Seen) is logged as handled before, not as "mail handled":
// an operator reading the log after a kill -9 must not think it was
// applied twice. Each kind of intake, offered twice under the same IMAP
// key, says so the second time, and queues nothing more.
func TestTakenAgainAfterACrash(t *testing.T) {
	cfg := config.Defaults()
	cfg.DB = filepath.Join(t.TempDir(), "gmd.db")
	cfg.PasswordCost = bcrypt.MinCost
	cfg.Limits.MaxMailSize = 4 << 10
	j, err := openJudge(cfg, state.Open, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.db.Close()
	mails := map[string]struct {
		raw   string
		first string // the log message the first time
	}{
		"handled": {"From: a@example.org\r\nSubject: hi\r\nMessage-ID: <1@example.org>\r\n\r\nHELP\r\n", "mail handled"},
		"refused": {"From: a@example.org\r\nSubject: big\r\nMessage-ID: <2@example.org>\r\n\r\n" + strings.Repeat("x", 5<<10) + "\r\n", "refusing a mail over the size limit"},
		"ignored": {"From: judge@localhost\r\nSubject: me\r\nMessage-ID: <3@example.org>\r\n\r\nHELP\r\n", "not answering a mail from the judge's own address"},
		"auto":    {"From: a@example.org\r\nSubject: away\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <4@example.org>\r\n\r\nI am away.\r\n", "not answering an automatic mail"},
	}
	uid := 0
	for name, m := range mails {
		uid++
		raw := []byte(m.raw)
		d := func() *mail.Delivery {
			d := mail.ReadDelivery(raw, int64(len(raw)), cfg.Limits.MaxMailSize)
			d.Keys = []string{fmt.Sprintf("imap/judge/INBOX/1/%d", uid)}
			return d
		}
		now := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
		res, err := j.take(j.master, d(), now)
		if err != nil || res.msg != m.first {
			t.Errorf("%s: first time %q, %v; want %q", name, res.msg, err, m.first)
		}
		queued := outboxLen(t, j)
		res, err = j.take(j.master, d(), now.Add(time.Minute))
		if err != nil || res.msg != alreadyTaken || !res.routine {
			t.Errorf("%s: again %+v, %v; want %q", name, res, err, alreadyTaken)
		}
		if n := outboxLen(t, j); n != queued {
			t.Errorf("%s: taken again, the outbox went from %d to %d mails", name, queued, n)
		}
	}
}

// outboxLen is how many mails wait in j's outbox.
func outboxLen(t *testing.T, j *judgeEnv) int {
	t.Helper()
	var n int
	err := j.db.View(func(tx *state.Tx) error {
		box, err := tx.Outbox(0)
		n = len(box)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
