package session

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// This file is the judge's one decision about a mail it failed to
// handle: whose fault it is. gmd run and gmd process both take every
// mail through Take.
//
//   - The judge's fault, or a passing trouble (state.Transient: a full
//     disk, a database another process holds, a damaged page that left
//     bbolt unusable): nothing is recorded, and the mail is tried again
//     later, in order, by the poller, or by the mail server after gmd
//     process exits 75. No mail is lost to it.
//   - The mail's own fault (bad input that got past the checks, a game it
//     needs that is damaged, a bug it trips): the mail is held, kept whole
//     in the database with its error, its sender told, and the intake
//     goes on with the next mail. gmd check lists held mails; gmd held
//     retries or drops them.

// ErrNotHeld is wrapped by Take's error for a mail that failed for a
// reason of its own and could not even be recorded as held (the record
// of it failed too, and not for a passing reason): the caller must keep
// the mail and offer it again later, but may go on with other mails.
var ErrNotHeld = errors.New("the mail failed for a reason of its own and could not be held")

// handlerPanic is a panic of the game master while it handled a mail: a
// bug that this mail trips.
type handlerPanic struct {
	value any
	stack []byte
}

func (e *handlerPanic) Error() string { return fmt.Sprintf("panic: %v", e.value) }

// JudgesFault reports whether err, an error of handling a mail, is the
// judge's trouble or a passing one, which would fail any other mail as
// well, rather than the mail's own.
func JudgesFault(err error) bool {
	return state.Transient(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Taken is what Take did with a mail.
type Taken struct {
	// Before is set when the mail had been taken in before (it is in the
	// ledger: applied and answered, or held), as happens to the mails of
	// the last moments before a crash, offered again: nothing was done.
	Before bool
	Held   uint64 // the held mail's ID, when it failed and is now held
	Cause  error  // why a held mail failed
}

// Take handles the mail in (see Handle) and decides whose fault a
// failure is. It returns:
//   - a zero Taken and nil when the mail was handled;
//   - Taken.Before and nil when it had been taken in before;
//   - the held mail's ID, why it failed (Cause) and nil when it failed
//     for a reason of its own and is now held, its sender told;
//   - an error for which JudgesFault holds when the judge cannot take
//     mail now: nothing is recorded, and the mail must be offered again
//     later, before the mails after it;
//   - an error wrapping ErrNotHeld when it failed for a reason of its
//     own and could not even be held.
func (m *Master) Take(in *Mail, now time.Time) (Taken, error) {
	return m.take(m.db.Update, in, now)
}

// take is Take, its transactions run by update.
func (m *Master) take(update updater, in *Mail, now time.Time) (Taken, error) {
	var before bool
	err := m.guarded(func() (err error) {
		before, err = m.handle(update, in, now)
		return err
	})
	if err == nil || JudgesFault(err) {
		return Taken{Before: before && err == nil}, err
	}
	held, before, herr := m.hold(update, in, err, now.UTC())
	switch {
	case herr == nil:
		return Taken{Held: held, Cause: err, Before: before}, nil
	case JudgesFault(herr):
		return Taken{}, herr
	}
	return Taken{}, fmt.Errorf("%w: %w (holding it: %v)", ErrNotHeld, err, herr)
}

// guarded runs fn, turning a panic into a *handlerPanic error. A damaged
// page of the database does not panic through state's transactions,
// which turn it into an error; what is left is a bug.
func (m *Master) guarded(fn func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &handlerPanic{value: v, stack: debug.Stack()}
		}
	}()
	return fn()
}

// heldData is the data of held.tmpl.
type heldData struct {
	Judge, Addr string
	Subject     string
	Reason      string
	ID          uint64
}

// hold records the mail in as held, for the reason cause, with its
// ledger keys, and tells its sender, all in one transaction. A mail
// whose keys are recorded already was taken in before: nothing is done,
// and 0 and before are returned.
func (m *Master) hold(update updater, in *Mail, cause error, now time.Time) (id uint64, before bool, err error) {
	before, err = m.recordMail(update, in.MessageID, in.LedgerKey(), in.Ledger, now, func(tx *state.Tx) error {
		h := &state.HeldMail{
			From: in.From, Subject: in.Subject, Body: in.Body, MessageID: in.MessageID, Ledger: in.Ledger,
			Held: now, Tries: 1, LastTry: now, Error: adminError(cause),
		}
		if err := tx.HoldMail(h); err != nil {
			return err
		}
		id = h.ID
		if !engine.ValidSender(in.From) || engine.SameAddr(in.From, m.cfg.JudgeAddr) {
			return nil
		}
		d := heldData{
			Judge:   m.cfg.JudgeName,
			Addr:    m.cfg.JudgeAddr,
			Subject: stripSubject(in.Subject, m.cfg.JudgeName),
			Reason:  publicReason(cause),
			ID:      h.ID,
		}
		return m.Send(tx, now, "held", d, []string{in.From}, in.MessageID)
	})
	return id, before, err
}

// adminError is err as the admin sees it: with the stack of a panic,
// which whoever fixes the judge needs.
func adminError(err error) string {
	var hp *handlerPanic
	if errors.As(err, &hp) {
		return fmt.Sprintf("%v\n%s", err, hp.stack)
	}
	return err.Error()
}

// publicReason says why a mail was held in words fit for its sender:
// the error itself, with its file names and internals, is for the admin.
func publicReason(err error) string {
	var hp *handlerPanic
	switch {
	case errors.Is(err, state.ErrDamaged):
		return "The judge's record of a game it needs is damaged."
	case errors.As(err, &hp):
		return "It made the judge fail: a fault in the judge's program."
	}
	return "The judge could not store what it asked for."
}

// RetryHeld runs the held mail id again at now, as if it had just come:
// if it goes through, its reply is queued and it is held no more, in one
// transaction. If it fails again for a reason of its own, it stays held
// with the new error (returned as cause) and a try more, and its sender
// is not told again. err is for what keeps the retry from being made: no
// such held mail, or the judge's trouble (JudgesFault).
func (m *Master) RetryHeld(id uint64, now time.Time) (cause, err error) {
	now = now.UTC()
	err = m.db.View(func(tx *state.Tx) error {
		_, err := tx.HeldMail(id)
		return err
	})
	if err != nil {
		return nil, err
	}
	// As in Handle, the mail's bcrypt work is done with no lock held.
	work := &bcryptWork{}
	for {
		err = m.guarded(func() error {
			return m.db.Update(func(tx *state.Tx) error {
				h, err := tx.HeldMail(id)
				if err != nil {
					return err
				}
				in := &Mail{From: h.From, Subject: h.Subject, Body: h.Body, MessageID: h.MessageID, Ledger: h.Ledger}
				if err := m.apply(tx, in, now, work); err != nil {
					return err
				}
				return tx.DeleteHeldMail(id)
			})
		})
		if !errors.Is(err, errBcryptNeeded) {
			break
		}
		if err = work.do(m.cfg.PasswordCost); err != nil {
			break
		}
	}
	if err == nil || JudgesFault(err) {
		return nil, err
	}
	cause = err
	err = m.db.Update(func(tx *state.Tx) error {
		h, err := tx.HeldMail(id)
		if err != nil {
			return err
		}
		h.Tries++
		h.LastTry, h.Error = now, adminError(cause)
		return tx.PutHeldMail(h)
	})
	return cause, err
}
