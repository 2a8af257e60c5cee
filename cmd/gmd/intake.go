package main

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/gm"
	"github.com/gmdjudge/gmd/mail"
)

// intake is what became of one incoming mail, for the log of gmd run
// and the standard error of gmd process.
type intake struct {
	// unreadable: not even a header with a From could be read, so there
	// is nobody to answer (gmd process exits 65 for it).
	unreadable bool
	routine    bool       // handled as usual: nothing to tell but in the log
	held       uint64     // the ID of the held mail, when it was held
	level      slog.Level // how much it matters to the admin
	msg        string     // the log message
	attrs      []any      // the log's attributes
	line       string     // what gmd process says of it
}

// take is the one intake of gmd run and gmd process: it decides from
// what can be read of the mail d, and from the config, whether it is
// answered, refused or ignored, hands it to the game master, and says
// whose fault a failure is (gm.Master.Take). It returns an error only
// when the mail must be offered again later: one for which
// gm.JudgesFault holds means the judge cannot take mail now (try this
// one again before any other); one wrapping mail.ErrSetAside means this
// mail is at fault but could not even be held (try the others
// meanwhile). Everything else is done for good, held mails included.
func (j *judgeEnv) take(m taker, d *mail.Delivery, now time.Time) (intake, error) {
	in := d.In
	authOK, why := true, ""
	if in != nil && !in.AutoReply {
		authOK, why = authenticate(j.cfg, d.Raw)
	}
	var (
		res    intake
		err    error
		before bool // the mail was taken in before (a crash came before its \Seen)
	)
	switch {
	case in == nil:
		// Not even a From to answer to: recorded, so that it is not
		// offered again, and left for the admin in the mailbox.
		res = intake{unreadable: !d.TooLarge, level: slog.LevelWarn,
			msg: "ignoring a mail whose header cannot be read", attrs: []any{"err", d.DecodeErr},
			line: fmt.Sprintf("ignoring a mail whose header cannot be read: %v", d.DecodeErr)}
		if res.unreadable {
			res.line = d.DecodeErr.Error()
		}
		before, err = m.Ignore("", d.Keys, now)
	case in.AutoReply:
		res = intake{msg: "not answering an automatic mail", attrs: []any{"from", clip(in.From), "reason", in.AutoReason},
			line: fmt.Sprintf("not answering an automatic mail from %s (%s)", clip(in.From), in.AutoReason)}
		before, err = m.Ignore(in.MessageID, d.Keys, now)
	case strings.EqualFold(in.From, j.cfg.JudgeAddr):
		res = intake{msg: "not answering a mail from the judge's own address",
			line: "not answering a mail from the judge's own address " + in.From}
		before, err = m.Ignore(in.MessageID, d.Keys, now)
	case !authOK:
		res = intake{level: slog.LevelWarn, msg: refusedAuth, attrs: []any{"from", clip(in.From), "reason", why},
			line: fmt.Sprintf("%s: from %s: %s", refusedAuth, clip(in.From), why)}
		// Only the IMAP key is recorded: a forged mail must not use up
		// a Message-ID that the real sender's mail may come with.
		before, err = m.Ignore("", d.Keys, now)
	case d.TooLarge:
		res = intake{msg: "refusing a mail over the size limit", attrs: []any{"from", clip(in.From), "size", d.Size},
			line: fmt.Sprintf("refusing a mail of %s from %s: over the size limit", approxSize(d.Size), clip(in.From))}
		reason := fmt.Sprintf("It is %s long; this judge reads mails of up to %s.",
			approxSize(d.Size), size(j.cfg.Limits.MaxMailSize))
		before, err = m.Refuse(in.From, in.Subject, in.MessageID, reason, d.Keys, now)
	case d.DecodeErr != nil:
		res = intake{msg: "refusing a mail that cannot be read", attrs: []any{"from", clip(in.From), "err", d.DecodeErr},
			line: fmt.Sprintf("refusing a mail from %s that cannot be read: %v", clip(in.From), d.DecodeErr)}
		before, err = m.Refuse(in.From, in.Subject, in.MessageID, "Its MIME structure could not be read.", d.Keys, now)
	default:
		res = intake{routine: true, msg: "mail handled", attrs: []any{"from", clip(in.From), "subject", in.Subject}}
		var taken gm.Taken
		taken, err = m.Take(&gm.Mail{
			From:      in.From,
			Subject:   in.Subject,
			Body:      in.Body,
			MessageID: in.MessageID,
			Ledger:    d.Keys,
		}, now)
		before = taken.Before
		if res.held = taken.Held; res.held != 0 {
			res.routine, res.level = false, slog.LevelError
			res.msg = "a mail failed for a reason of its own: it is held for the admin (gmd held), and the next mails go on"
			res.attrs = append(res.attrs, "held", res.held, "err", taken.Cause)
			res.line = fmt.Sprintf("held mail %d from %s: it failed for a reason of its own (%v); gmd held lists it", res.held, clip(in.From), taken.Cause)
		}
	}
	switch {
	case err == nil && before:
		// Offered again, as the mails of the moments before a crash are:
		// the ledger has it, so nothing was done, and the log must not
		// say it was handled now.
		res = intake{routine: true, msg: alreadyTaken}
		if in != nil {
			res.attrs = []any{"from", clip(in.From), "subject", in.Subject}
		}
		return res, nil
	case err == nil:
		return res, nil
	case gm.JudgesFault(err), errors.Is(err, mail.ErrSetAside):
		return res, err
	}
	// Ignore or Refuse failed for a reason of this mail's own: leave it
	// for a later try, and go on with the others.
	return res, fmt.Errorf("%w: %w", mail.ErrSetAside, err)
}

// taker takes mails in: the game master itself, each mail in a
// transaction of its own (gmd process), or a gm.Intake, the mails of a
// batch in one group commit (gmd run).
type taker interface {
	Take(in *gm.Mail, now time.Time) (gm.Taken, error)
	Refuse(from, subject, messageID, reason string, keys []string, now time.Time) (before bool, err error)
	Ignore(messageID string, keys []string, now time.Time) (before bool, err error)
}

// alreadyTaken is the log's message for a mail offered again that the
// ledger shows was taken in before: applied and its reply queued (or
// refused, ignored or held) by an earlier run, which stopped before the
// mail was flagged \Seen. Nothing is done again.
const alreadyTaken = "mail already handled before a restart (its reply was queued then): nothing done again"

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
