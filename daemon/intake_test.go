package daemon

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/session"
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
	j := openJudge(t, cfg)
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
		res, err := j.Take(j.master, d(), now)
		if err != nil || res.Msg != m.first {
			t.Errorf("%s: first time %q, %v; want %q", name, res.Msg, err, m.first)
		}
		queued := outboxLen(t, j)
		res, err = j.Take(j.master, d(), now.Add(time.Minute))
		if err != nil || res.Msg != AlreadyTaken || !res.Routine {
			t.Errorf("%s: again %+v, %v; want %q", name, res, err, AlreadyTaken)
		}
		if n := outboxLen(t, j); n != queued {
			t.Errorf("%s: taken again, the outbox went from %d to %d mails", name, queued, n)
		}
	}
}

// testJudge is a game master over a new database, with the intake of
// the config it was made with.
type testJudge struct {
	Intake
	db     *state.DB
	master *session.Master
}

// openJudge makes a judge of cfg in a new database (Open), closed when t
// ends.
func openJudge(t *testing.T, cfg *config.Config) *testJudge {
	t.Helper()
	j, err := Open(cfg, state.Open, Pictures{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.DB.Close() })
	return &testJudge{Intake: j.Intake(), db: j.DB, master: j.Master}
}

// outboxLen is how many mails wait in j's outbox.
func outboxLen(t *testing.T, j *testJudge) int {
	t.Helper()
	n, err := queued(j.db)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// panicker is a Taker with a bug that every mail trips.
type panicker struct{}

func (panicker) Take(*session.Mail, time.Time) (session.Taken, error) { panic("a bug in Take") }
func (panicker) Refuse(string, string, string, string, []string, time.Time) (bool, error) {
	panic("a bug in Refuse")
}
func (panicker) Ignore(string, []string, time.Time) (bool, error) { panic("a bug in Ignore") }

// A panic in the intake of a mail, whichever way the decision goes
// (taken, refused, ignored, unreadable), is caught once, by Take: it
// comes back as an error wrapping mail.ErrSetAside, so that the poller
// (which recovers no panic) sets the mail aside and goes on with the
// others, and gmd process has it offered again; it is not the judge's
// fault, which would hold up every mail behind it.
func TestTakeGuardsAPanic(t *testing.T) {
	cfg := config.Defaults()
	cfg.Limits.MaxMailSize = 4 << 10
	j := Intake{Config: cfg}
	for name, raw := range map[string]string{
		"taken":      "From: a@example.org\r\nSubject: hi\r\n\r\nHELP\r\n",
		"refused":    "From: a@example.org\r\nSubject: big\r\n\r\n" + strings.Repeat("x", 5<<10) + "\r\n",
		"ignored":    "From: judge@localhost\r\nSubject: me\r\n\r\nHELP\r\n",
		"auto":       "From: a@example.org\r\nAuto-Submitted: auto-replied\r\n\r\naway\r\n",
		"unreadable": "\x00\x01 not a header\r\n",
	} {
		d := mail.ReadDelivery([]byte(raw), int64(len(raw)), cfg.Limits.MaxMailSize)
		res, err := j.Take(panicker{}, d, time.Now())
		if !errors.Is(err, mail.ErrSetAside) || session.JudgesFault(err) || !strings.Contains(err.Error(), "a bug in ") {
			t.Errorf("%s: error %v, want one wrapping mail.ErrSetAside that names the panic", name, err)
		}
		if res.Level != slog.LevelError || res.Routine {
			t.Errorf("%s: outcome %+v, want an error for the log", name, res)
		}
	}
}
