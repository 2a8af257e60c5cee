package gm

import (
	"strings"
	"time"

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
	now = now.UTC()
	// The reason (with the mail's size in it) stands for the body that
	// was not read.
	key := mailKey(from, messageID, subject, reason)
	return m.recordMail(messageID, key, keys, now, func(tx *state.Tx) error {
		if !validSender(from) || sameAddr(from, m.cfg.JudgeAddr) {
			return nil
		}
		d := refusedData{
			Judge:   m.cfg.JudgeName,
			Addr:    m.cfg.JudgeAddr,
			Subject: stripSubject(subject, m.cfg.JudgeName),
			Reason:  strings.TrimSpace(reason),
		}
		return m.send(tx, now, "refused", d, []string{from}, messageID)
	})
}

// Ignore records a mail as handled without doing or answering anything:
// for mail the judge must not answer (bounces, auto-replies, mailing
// lists, its own mail coming back), so that it is not offered again.
// Such a mail is recorded under its keys and under its Message-ID alone,
// as an ignored mail: that key never matches a mail Handle applies.
// before reports that the mail was recorded already.
func (m *Master) Ignore(messageID string, keys []string, now time.Time) (before bool, err error) {
	return m.recordMail(messageID, mailKey("", messageID), keys, now.UTC(), nil)
}

// recordMail runs fn, then records the mail's key (mailKey; none if "")
// and its extra keys in the ledger, all in one transaction. If any of
// them is already recorded, or the mail's Message-ID under legacyKey,
// the mail was seen before and nothing happens: seen says so, so that the
// log after a crash can tell a mail offered again from a new one.
func (m *Master) recordMail(messageID, key string, extra []string, now time.Time, fn func(*state.Tx) error) (seen bool, err error) {
	all := make([]string, 0, len(extra)+1)
	for _, k := range append([]string{key}, extra...) {
		if k != "" {
			all = append(all, k)
		}
	}
	err = m.db.Update(func(tx *state.Tx) error {
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
