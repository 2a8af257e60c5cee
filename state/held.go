package state

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"time"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// HeldMail is an incoming mail the judge could not handle for a reason
// of its own (a damaged game it needs, a value it could not store, a
// bug it trips): kept whole for the admin, who can run it again once the
// cause is fixed (gmd held retry) or drop it (gmd held drop), while the
// mail after it goes on. Its ledger keys are recorded when it is held,
// so that it is not taken in a second time.
type HeldMail struct {
	ID        uint64    `json:"id"` // assigned by HoldMail, increasing
	From      string    `json:"from"`
	Subject   string    `json:"subject"`
	Body      string    `json:"body"`
	MessageID string    `json:"message_id,omitempty"`
	Ledger    []string  `json:"ledger,omitempty"` // the keys recorded for it besides the Message-ID
	Held      time.Time `json:"held"`             // when it was first held
	Tries     int       `json:"tries"`            // how many times it failed
	LastTry   time.Time `json:"last_try"`
	Error     string    `json:"error"` // why the last try failed, for the admin
}

// migrateHeld adds the bucket of held mails.
func migrateHeld(tx *bbolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketHeld)
	return err
}

// notHeld is the error for a held mail ID that is not there.
type notHeld uint64

func (e notHeld) Error() string { return fmt.Sprintf("no held mail %d", uint64(e)) }

// Unwrap makes errors.Is(err, ErrNotFound) true.
func (e notHeld) Unwrap() error { return ErrNotFound }

// HoldMail stores h as a new held mail, setting h.ID.
func (tx *Tx) HoldMail(h *HeldMail) error {
	b, err := tx.bucket(bucketHeld)
	if err != nil {
		return err
	}
	id, err := b.NextSequence()
	if err != nil {
		return err
	}
	h.ID = id
	return tx.PutHeldMail(h)
}

// PutHeldMail rewrites the held mail h.ID (its tries, its error).
func (tx *Tx) PutHeldMail(h *HeldMail) error {
	b, err := tx.bucket(bucketHeld)
	if err != nil {
		return err
	}
	data, err := encode(h)
	if err != nil {
		return fmt.Errorf("held mail %d: %w", h.ID, err)
	}
	return b.Put(idKey(h.ID), data)
}

// HeldMail returns the held mail id, or an error wrapping ErrNotFound.
func (tx *Tx) HeldMail(id uint64) (*HeldMail, error) {
	b, err := tx.bucket(bucketHeld)
	if err != nil {
		return nil, err
	}
	v := b.Get(idKey(id))
	if v == nil {
		return nil, notHeld(id)
	}
	h := new(HeldMail)
	if err := decode(v, h); err != nil {
		return nil, fmt.Errorf("held mail %d: %w", id, damaged(err))
	}
	return h, nil
}

// HeldMails returns every held mail, in ID order.
func (tx *Tx) HeldMails() ([]*HeldMail, error) {
	b, err := tx.bucket(bucketHeld)
	if err != nil {
		return nil, err
	}
	var out []*HeldMail
	err = b.ForEach(func(k, v []byte) error {
		h := new(HeldMail)
		if err := decode(v, h); err != nil {
			return fmt.Errorf("held mail %s: %w", idName(k), damaged(err))
		}
		out = append(out, h)
		return nil
	})
	return out, err
}

// DeleteHeldMail removes the held mail id. The record is not read, so
// that one too damaged to decode can be dropped too. It returns an error
// wrapping ErrNotFound if there is no such mail.
func (tx *Tx) DeleteHeldMail(id uint64) error {
	b, err := tx.bucket(bucketHeld)
	if err != nil {
		return err
	}
	if b.Get(idKey(id)) == nil {
		return notHeld(id)
	}
	return b.Delete(idKey(id))
}

// DropHeldMails removes the held mails ids in one transaction: a bad ID
// changes nothing. The mails are never handled; their ledger keys stay
// recorded, so that they are not taken in again either.
func (db *DB) DropHeldMails(ids []uint64) (int, error) {
	return db.eachID(ids, (*Tx).DeleteHeldMail)
}

// Transient reports whether err, from a transaction, is the judge's
// trouble rather than the data's: the database file cannot be written
// or read (a full disk, a quota, an I/O error, a file system gone
// read-only), another process holds it, or a damaged page left bbolt
// unusable or unwritable to this process (DB.Broken). Such an error
// would fail any other transaction as well, so what failed must be
// tried again later, in order, and nothing about it blamed on what it
// was handling. Other
// errors (a record that does not decode, a key or value bbolt will not
// store, a value JSON cannot write) belong to what the transaction
// handled.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	var de *DamageError
	if errors.As(err, &de) {
		return de.Wedged || de.Unwritable
	}
	var errno syscall.Errno
	var pe *fs.PathError
	return errors.As(err, &errno) || errors.As(err, &pe) ||
		errors.Is(err, berrors.ErrTimeout) || errors.Is(err, berrors.ErrDatabaseNotOpen) ||
		errors.Is(err, berrors.ErrDatabaseReadOnly) || errors.Is(err, berrors.ErrTxClosed) ||
		errors.Is(err, berrors.ErrTxNotWritable)
}
