package state

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// The admin's outbox operations: a mail failed for good, or waiting for
// a retry, goes back in the queue as new; a mail is dropped; an ID not in
// the outbox is an error wrapping ErrNotFound and changes nothing, even
// among good IDs; a record too damaged to read can still be dropped.
func TestOutboxAdmin(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		return errors.Join(
			tx.Enqueue(&OutMail{Subject: "waiting", Attempts: 3, NextTry: t0.Add(time.Hour), LastError: "451"}),
			tx.Enqueue(&OutMail{Subject: "failed", Attempts: 1, Failed: "550"}),
			tx.Enqueue(&OutMail{Subject: "fine"}),
			tx.tx.Bucket(bucketOutbox).Put(idKey(9), []byte("{damaged")),
		)
	})
	if _, err := db.RetryOutMails([]uint64{2, 7}, false); !errors.Is(err, ErrNotFound) || err.Error() != "no mail 7 in the outbox" {
		t.Errorf("RetryOutMails with a bad ID: %v", err)
	}
	if _, err := db.DropOutMails([]uint64{3, 8}); !errors.Is(err, ErrNotFound) || err.Error() != "no mail 8 in the outbox" {
		t.Errorf("DropOutMails with a bad ID: %v", err)
	}
	view(t, db, func(tx *Tx) error {
		m, err := tx.OutMail(2)
		if err != nil || m.Failed != "550" {
			t.Errorf("mail 2 after refused operations: %+v, %v", m, err)
		}
		if _, err := tx.OutMail(3); err != nil {
			t.Errorf("mail 3 after a refused drop: %v", err)
		}
		if _, err := tx.OutMail(9); !errors.Is(err, ErrDamaged) {
			t.Errorf("damaged mail 9: %v", err)
		}
		return nil
	})

	// A damaged record stops whatever reads the whole outbox; dropped,
	// it stops nothing any more.
	if _, err := db.RetryOutMails(nil, true); !errors.Is(err, ErrDamaged) {
		t.Errorf("RetryOutMails of all failed, with a damaged record: %v", err)
	}
	if n, err := db.DropOutMails([]uint64{9}); err != nil || n != 1 {
		t.Errorf("DropOutMails(9) = %d, %v", n, err)
	}
	done, err := db.RetryOutMails([]uint64{1, 1}, true)
	if err != nil || !slices.Equal(done, []uint64{1, 2}) {
		t.Fatalf("RetryOutMails(1, all failed) = %v, %v", done, err)
	}
	view(t, db, func(tx *Tx) error {
		for _, id := range []uint64{1, 2} {
			m, err := tx.OutMail(id)
			if err != nil || m.Failed != "" || m.LastError != "" || m.Attempts != 0 || !m.NextTry.IsZero() {
				t.Errorf("mail %d after retry: %+v, %v", id, m, err)
			}
		}
		return nil
	})
	if n, err := db.DropOutMails([]uint64{3}); err != nil || n != 1 {
		t.Errorf("DropOutMails(3) = %d, %v", n, err)
	}
	view(t, db, func(tx *Tx) error {
		mails, err := tx.Outbox(0)
		if err != nil || len(mails) != 2 {
			t.Errorf("outbox after the drop: %d mails, %v", len(mails), err)
		}
		return nil
	})
}
