// Package daemon is the judge at work, between the mailbox, the game
// master, the outbox and the clock: the judge opened from its config
// (Open), what becomes of each incoming mail (Intake.Take), gmd run's
// parts run together (Run: the poller with its group commit, the
// sender, the clock, the ledger's pruning, the control socket, the web
// pages), and the runs of gmd process and gmd tick (Judge.Tick,
// Judge.Deliver). cmd/gmd only parses flags and wires it.
package daemon

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/session"

	"github.com/gmdjudge/gmd/mail"
)

// Outcome is what became of one incoming mail, for the log of gmd run
// and the standard error of gmd process.
type Outcome struct {
	// unreadable: not even a header with a From could be read, so there
	// is nobody to answer (gmd process exits 65 for it).
	Unreadable bool
	Routine    bool       // handled as usual: nothing to tell but in the log
	Held       uint64     // the ID of the held mail, when it was held
	Level      slog.Level // how much it matters to the admin
	Msg        string     // the log message
	Attrs      []any      // the log's attributes
	Line       string     // what gmd process says of it
}

// Intake is the one place where the intake checks are decided: the
// config of the judge and the DNS lookup of DKIM keys they use.
type Intake struct {
	Config *config.Config
	// LookupTXT looks up the DNS TXT records of DKIM keys; nil is the
	// system's resolver. Tests replace it, and never touch the network.
	LookupTXT func(name string) ([]string, error)
}

// Take is the one intake of gmd run and gmd process: it decides from
// what can be read of the mail d, and from the config, whether it is
// answered, refused or ignored, hands it to the game master, and says
// whose fault a failure is (session.Master.Take). It returns an error only
// when the mail must be offered again later: one for which
// session.JudgesFault holds means the judge cannot take mail now (try this
// one again before any other); one wrapping mail.ErrSetAside means this
// mail is at fault but could not even be held (try the others
// meanwhile). Everything else is done for good, held mails included.
//
// Take is the one panic guard of a mail's intake: a panic in what it
// decides (a hostile mail that trips a bug in its checks) is returned as
// an error wrapping mail.ErrSetAside, so that gmd run sets the mail aside
// and goes on and gmd process has it offered again later. A panic in the
// game master's handling of the mail never reaches it: session.Master.Take
// holds that mail for the admin.
func (j Intake) Take(m Taker, d *mail.Delivery, now time.Time) (res Outcome, err error) {
	defer func() {
		if v := recover(); v != nil {
			res = Outcome{Level: slog.LevelError, Msg: "a mail made the intake panic; it is set aside and tried again later",
				Attrs: []any{"panic", v, "stack", string(debug.Stack())}}
			err = fmt.Errorf("%w: panic: %v\n%s", mail.ErrSetAside, v, debug.Stack())
		}
	}()
	return j.take(m, d, now)
}

// take is Take without its panic guard.
func (j Intake) take(m Taker, d *mail.Delivery, now time.Time) (Outcome, error) {
	in := d.In
	authOK, why := true, ""
	if in != nil && !in.AutoReply {
		authOK, why = j.authenticate(d.Raw)
	}
	var (
		res    Outcome
		err    error
		before bool // the mail was taken in before (a crash came before its \Seen)
	)
	switch {
	case in == nil:
		// Not even a From to answer to: recorded, so that it is not
		// offered again, and left for the admin in the mailbox.
		res = Outcome{Unreadable: !d.TooLarge, Level: slog.LevelWarn,
			Msg: "ignoring a mail whose header cannot be read", Attrs: []any{"err", d.DecodeErr},
			Line: fmt.Sprintf("ignoring a mail whose header cannot be read: %v", d.DecodeErr)}
		if res.Unreadable {
			res.Line = d.DecodeErr.Error()
		}
		before, err = m.Ignore("", d.Keys, now)
	case in.AutoReply:
		res = Outcome{Msg: "not answering an automatic mail", Attrs: []any{"from", clip(in.From), "reason", in.AutoReason},
			Line: fmt.Sprintf("not answering an automatic mail from %s (%s)", clip(in.From), in.AutoReason)}
		before, err = m.Ignore(in.MessageID, d.Keys, now)
	case strings.EqualFold(in.From, j.Config.JudgeAddr):
		res = Outcome{Msg: "not answering a mail from the judge's own address",
			Line: "not answering a mail from the judge's own address " + in.From}
		before, err = m.Ignore(in.MessageID, d.Keys, now)
	case !authOK:
		res = Outcome{Level: slog.LevelWarn, Msg: RefusedAuth, Attrs: []any{"from", clip(in.From), "reason", why},
			Line: fmt.Sprintf("%s: from %s: %s", RefusedAuth, clip(in.From), why)}
		// Only the IMAP key is recorded: a forged mail must not use up
		// a Message-ID that the real sender's mail may come with.
		before, err = m.Ignore("", d.Keys, now)
	case d.TooLarge:
		res = Outcome{Msg: "refusing a mail over the size limit", Attrs: []any{"from", clip(in.From), "size", d.Size},
			Line: fmt.Sprintf("refusing a mail of %s from %s: over the size limit", approxSize(d.Size), clip(in.From))}
		reason := fmt.Sprintf("It is %s long; this judge reads mails of up to %s.",
			approxSize(d.Size), size(j.Config.Limits.MaxMailSize))
		before, err = m.Refuse(in.From, in.Subject, in.MessageID, reason, d.Keys, now)
	case d.DecodeErr != nil:
		res = Outcome{Msg: "refusing a mail that cannot be read", Attrs: []any{"from", clip(in.From), "err", d.DecodeErr},
			Line: fmt.Sprintf("refusing a mail from %s that cannot be read: %v", clip(in.From), d.DecodeErr)}
		before, err = m.Refuse(in.From, in.Subject, in.MessageID, "Its MIME structure could not be read.", d.Keys, now)
	default:
		res = Outcome{Routine: true, Msg: "mail handled", Attrs: []any{"from", clip(in.From), "subject", in.Subject}}
		var taken session.Taken
		taken, err = m.Take(&session.Mail{
			From:      in.From,
			Subject:   in.Subject,
			Body:      in.Body,
			MessageID: in.MessageID,
			Ledger:    d.Keys,
		}, now)
		before = taken.Before
		if res.Held = taken.Held; res.Held != 0 {
			res.Routine, res.Level = false, slog.LevelError
			res.Msg = "a mail failed for a reason of its own: it is held for the admin (gmd held), and the next mails go on"
			res.Attrs = append(res.Attrs, "held", res.Held, "err", taken.Cause)
			res.Line = fmt.Sprintf("held mail %d from %s: it failed for a reason of its own (%v); gmd held lists it", res.Held, clip(in.From), taken.Cause)
		}
	}
	switch {
	case err == nil && before:
		// Offered again, as the mails of the moments before a crash are:
		// the ledger has it, so nothing was done, and the log must not
		// say it was handled now.
		res = Outcome{Routine: true, Msg: AlreadyTaken}
		if in != nil {
			res.Attrs = []any{"from", clip(in.From), "subject", in.Subject}
		}
		return res, nil
	case err == nil:
		return res, nil
	case session.JudgesFault(err), errors.Is(err, mail.ErrSetAside):
		return res, err
	}
	// Ignore or Refuse failed for a reason of this mail's own: leave it
	// for a later try, and go on with the others.
	return res, fmt.Errorf("%w: %w", mail.ErrSetAside, err)
}

// Taker takes mails in: the game master itself, each mail in a
// transaction of its own (gmd process), or a session.Intake, the mails of a
// batch in one group commit (gmd run).
type Taker interface {
	Take(in *session.Mail, now time.Time) (session.Taken, error)
	Refuse(from, subject, messageID, reason string, keys []string, now time.Time) (before bool, err error)
	Ignore(messageID string, keys []string, now time.Time) (before bool, err error)
}

// AlreadyTaken is the log's message for a mail offered again that the
// ledger shows was taken in before: applied and its reply queued (or
// refused, ignored or held) by an earlier run, which stopped before the
// mail was flagged \Seen. Nothing is done again.
const AlreadyTaken = "mail already handled before a restart (its reply was queued then): nothing done again"

// clip shortens what a sender wrote (a From, a subject) for the log and
// standard error: a hostile mail's From of 33,000 characters must not
// cost the log as much.
func clip(s string) string {
	const most = 320 // an RFC 5321 path is at most 256 octets
	if len(s) <= most {
		return s
	}
	return strings.ToValidUTF8(s[:most], "") + fmt.Sprintf("... (%d bytes)", len(s))
}

// RefusedAuth is what the log says of a mail that fails the sender
// authentication of judge.conf's require-sender-auth.
const RefusedAuth = "not answering a mail that fails sender authentication: its From may be forged"

// authenticate reports whether raw, a whole message, passes the sender
// authentication the config requires, and if not, why.
//
// A mail that fails is recorded and logged, and never answered: its From
// may name someone who did not write it, and the answer would be
// backscatter, mail to whomever the forger chose. Even a warning to the
// player impersonated would let anyone make the judge mail anyone. The
// log tells the admin.
func (j Intake) authenticate(raw []byte) (ok bool, why string) {
	cfg := j.Config
	if !cfg.SenderAuth.Require.Checks() {
		return true, ""
	}
	return mail.Authenticate(raw, mail.AuthPolicy{
		SenderAuth: cfg.SenderAuth,
		LookupTXT:  j.LookupTXT,
	})
}

// approxSize writes a byte count for a reader: 3.2 MB, 712 KB.
func approxSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", (n+1<<9)>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// size writes a byte count the way an operator wrote it: 1 MB, 512 KB.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
