package state

import (
	"fmt"
	"time"
)

// notQueued is the error for a mail ID that is not in the outbox.
type notQueued uint64

func (e notQueued) Error() string { return fmt.Sprintf("no mail %d in the outbox", uint64(e)) }

// Unwrap makes errors.Is(err, ErrNotFound) true.
func (e notQueued) Unwrap() error { return ErrNotFound }

// OutMail returns the queued mail id, or an error wrapping ErrNotFound.
func (tx *Tx) OutMail(id uint64) (*OutMail, error) {
	outbox, err := tx.bucket(bucketOutbox)
	if err != nil {
		return nil, err
	}
	v := outbox.Get(idKey(id))
	if v == nil {
		return nil, notQueued(id)
	}
	m := new(OutMail)
	if err := decode(v, m); err != nil {
		return nil, fmt.Errorf("outbox mail %d: %w", id, damaged(err))
	}
	return m, nil
}

// RetryOutMail puts the queued mail id back in the queue as if new: a
// mail failed for good is tried again, a mail waiting for a retry is due
// at once, and either starts its backoff afresh. It returns an error
// wrapping ErrNotFound if there is no such mail.
func (tx *Tx) RetryOutMail(id uint64) error {
	m, err := tx.OutMail(id)
	if err != nil {
		return err
	}
	m.Failed, m.LastError, m.Attempts, m.NextTry = "", "", 0, time.Time{}
	return tx.PutOutMail(m)
}

// DropOutMail removes the queued mail id, which will never be sent. It
// returns an error wrapping ErrNotFound if there is no such mail, so
// that a mistyped ID is not taken for a mail gone. The record is not
// read, so that a mail too damaged to decode can be dropped too.
func (tx *Tx) DropOutMail(id uint64) error {
	outbox, err := tx.bucket(bucketOutbox)
	if err != nil {
		return err
	}
	if outbox.Get(idKey(id)) == nil {
		return notQueued(id)
	}
	return outbox.Delete(idKey(id))
}

// RetryOutMails does RetryOutMail for each of ids, and with allFailed
// for every mail failed for good as well, in one transaction: a bad ID
// changes nothing. It returns the IDs of the mails queued again.
func (db *DB) RetryOutMails(ids []uint64, allFailed bool) ([]uint64, error) {
	var done []uint64
	err := db.Update(func(tx *Tx) error {
		done = nil
		todo := ids
		if allFailed {
			mails, err := tx.Outbox(0)
			if err != nil {
				return err
			}
			todo = append([]uint64(nil), ids...)
			for _, m := range mails {
				if m.Failed != "" {
					todo = append(todo, m.ID)
				}
			}
		}
		seen := map[uint64]bool{}
		for _, id := range todo {
			if seen[id] {
				continue
			}
			seen[id] = true
			if err := tx.RetryOutMail(id); err != nil {
				return err
			}
			done = append(done, id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return done, nil
}

// DropOutMails does DropOutMail for each of ids in one transaction: a
// bad ID changes nothing. It returns how many mails it removed.
func (db *DB) DropOutMails(ids []uint64) (int, error) {
	return db.eachID(ids, (*Tx).DropOutMail)
}

// eachID runs fn on each distinct ID of ids, all in one transaction: an
// error from any of them (a bad ID) changes nothing. It returns how many
// IDs fn was run on.
func (db *DB) eachID(ids []uint64, fn func(*Tx, uint64) error) (int, error) {
	n := 0
	err := db.Update(func(tx *Tx) error {
		n = 0
		seen := map[uint64]bool{}
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			if err := fn(tx, id); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
