package session

import (
	"strings"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// refusedData is the data of refused.tmpl.
type refusedData struct {
	Judge, Addr string
	Subject     string // without the prefixes of earlier replies
	Reason      string
}

// Refuse answers a mail that could not be read at all (too large, or not
// valid MIME): in one transaction it records the mail's ledger keys and
// Message-ID and queues a reply to from saying why, in reason's words
// (whole sentences). Like Handle it does nothing for a mail already
// recorded, so a mail offered twice is answered once.
//
// Nothing is answered when from is not a plain address (empty, say) or
// is the judge's own address; the mail is only recorded. The caller must
// not Refuse a mail that may not be answered at all (a bounce, an
// auto-reply): Ignore is for those.
func (m *Master) Refuse(from, subject, messageID, reason string, keys []string, now time.Time) (before bool, err error) {
	return m.refuse(m.db.Update, from, subject, messageID, reason, keys, now)
}

// refuse is Refuse, its transaction run by update.
func (m *Master) refuse(update updater, from, subject, messageID, reason string, keys []string, now time.Time) (before bool, err error) {
	now = now.UTC()
	// The reason (with the mail's size in it) stands for the body that
	// was not read.
	key := mailKey(from, messageID, subject, reason)
	return m.recordMail(update, messageID, key, keys, now, func(tx *state.Tx) error {
		if !engine.ValidSender(from) || engine.SameAddr(from, m.cfg.JudgeAddr) {
			return nil
		}
		d := refusedData{
			Judge:   m.cfg.JudgeName,
			Addr:    m.cfg.JudgeAddr,
			Subject: stripSubject(subject, m.cfg.JudgeName),
			Reason:  strings.TrimSpace(reason),
		}
		return m.Send(tx, now, "refused", d, []string{from}, messageID)
	})
}

// Ignore records a mail as handled without doing or answering anything:
// for mail the judge must not answer (bounces, auto-replies, mailing
// lists, its own mail coming back), so that it is not offered again.
// Such a mail is recorded under its keys and under its Message-ID alone,
// as an ignored mail: that key never matches a mail Handle applies.
// before reports that the mail was recorded already.
func (m *Master) Ignore(messageID string, keys []string, now time.Time) (before bool, err error) {
	return m.ignore(m.db.Update, messageID, keys, now)
}

// ignore is Ignore, its transaction run by update.
func (m *Master) ignore(update updater, messageID string, keys []string, now time.Time) (before bool, err error) {
	return m.recordMail(update, messageID, mailKey("", messageID), keys, now.UTC(), nil)
}

// updater runs a change in a transaction of its own (state.DB.Update), or
// as part of a group commit (state.Group.Update, see Intake).
type updater func(func(*state.Tx) error) error

// recordMail runs fn, then records the mail's key (mailKey; none if "")
// and its extra keys in the ledger, all in one transaction. If any of
// them is already recorded, or the mail's Message-ID under legacyKey,
// the mail was seen before and nothing happens: seen says so, so that the
// log after a crash can tell a mail offered again from a new one. update
// runs the transaction.
func (m *Master) recordMail(update updater, messageID, key string, extra []string, now time.Time, fn func(*state.Tx) error) (seen bool, err error) {
	all := make([]string, 0, len(extra)+1)
	for _, k := range append([]string{key}, extra...) {
		if k != "" {
			all = append(all, k)
		}
	}
	err = update(func(tx *state.Tx) error {
		seen = false // a try before a retry of the transaction may have set it
		for _, k := range append([]string{legacyKey(messageID)}, all...) {
			s, err := tx.Seen(k)
			if err != nil || s {
				seen = s
				return err
			}
		}
		if fn != nil {
			if err := fn(tx); err != nil {
				return err
			}
		}
		for _, k := range all {
			if err := tx.MarkSeen(k, now); err != nil {
				return err
			}
		}
		return nil
	})
	return seen && err == nil, err
}

// Intake takes mails in as the Master does (Take, Refuse, Ignore), but
// with a group commit: each mail's transaction (its ledger keys, what it
// changes, its replies) joins the state.Group, atomic on its own, and
// the mails of the group are written to disk together by Commit, one
// fsync for all. A mail is done only once Commit returns nil: before
// that, nothing may be done that says it is (the mail flagged \Seen).
// A mail that fails is undone alone (state.Group). It is for the one
// goroutine that reads the mail, which must Commit promptly, as the open
// group holds the database's write lock.
type Intake struct {
	m *Master
	g *state.Group
}

// Intake returns an Intake of m's into a new group commit on m's
// database.
func (m *Master) Intake() *Intake { return &Intake{m: m, g: m.db.NewGroup()} }

// Take is Master.Take, into the group.
func (i *Intake) Take(in *Mail, now time.Time) (Taken, error) {
	return i.m.take(i.g.Update, in, now)
}

// Refuse is Master.Refuse, into the group.
func (i *Intake) Refuse(from, subject, messageID, reason string, keys []string, now time.Time) (before bool, err error) {
	return i.m.refuse(i.g.Update, from, subject, messageID, reason, keys, now)
}

// Ignore is Master.Ignore, into the group.
func (i *Intake) Ignore(messageID string, keys []string, now time.Time) (before bool, err error) {
	return i.m.ignore(i.g.Update, messageID, keys, now)
}

// Commit writes the mails taken since the last Commit to disk. An error
// means none of them is done, whatever Take said: each must be offered
// again, and the ledger keeps any from being applied twice.
func (i *Intake) Commit() error { return i.g.Commit() }
