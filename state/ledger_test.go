package state

import (
	"fmt"
	"testing"
	"time"
)

// Pruning removes the entries recorded before the time given and keeps
// the others, whatever the order of their keys; entries whose value is
// not a time are left for gmd check.
func TestPruneLedger(t *testing.T) {
	db := openTemp(t)
	retention := 90 * 24 * time.Hour
	now := t0.Add(365 * 24 * time.Hour)
	ages := map[string]time.Duration{
		"msgid:<old@x>":                    400 * 24 * time.Hour,
		"imap/judge/INBOX/7/1":             retention + time.Second,
		"msgid:<edge@x>":                   retention,
		"imap/judge/INBOX/7/2":             retention - time.Second,
		"msgid:<new@x>":                    time.Hour,
		"imap/judge/INBOX/7/3":             0,
		"msgid:<" + longID('a') + "@x>":    200 * 24 * time.Hour, // stored as its hash
		"msgid:<" + longID('b') + "@x>":    24 * time.Hour,
		"imap/other/Archive/1/99999999999": 91 * 24 * time.Hour,
	}
	update(t, db, func(tx *Tx) error {
		for k, age := range ages {
			if err := tx.MarkSeen(k, now.Add(-age)); err != nil {
				return err
			}
		}
		// A damaged entry: not a time.
		ledger, err := tx.bucket(bucketLedger)
		if err != nil {
			return err
		}
		return ledger.Put([]byte("damaged"), []byte("x"))
	})
	n, err := db.PruneLedger(now.Add(-retention))
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	view(t, db, func(tx *Tx) error {
		for k, age := range ages {
			kept := age <= retention
			if !kept {
				want++
			}
			if seen, err := tx.Seen(k); err != nil || seen != kept {
				t.Errorf("%.40s, %v old: Seen = %v, %v; want %v", k, age, seen, err, kept)
			}
		}
		ledger, _ := tx.bucket(bucketLedger)
		if ledger.Get([]byte("damaged")) == nil {
			t.Error("the damaged entry was removed")
		}
		return nil
	})
	if n != want {
		t.Errorf("PruneLedger removed %d, want %d", n, want)
	}
	// Again: nothing more to remove.
	if n, err := db.PruneLedger(now.Add(-retention)); n != 0 || err != nil {
		t.Errorf("second PruneLedger = %d, %v", n, err)
	}
}

// longID returns a Message-ID local part too long to be a ledger key.
func longID(c byte) string {
	b := make([]byte, ledgerKeyMax+10)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// A large ledger is pruned a batch at a time, each batch taking up from
// where the one before stopped: every old entry goes, every new one
// stays, and each transaction looks at no more than a batch.
func TestPruneLedgerBatches(t *testing.T) {
	defer func(n int) { pruneBatch = n }(pruneBatch)
	pruneBatch = 7
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for i := range 100 {
			at := t0
			if i%3 == 0 {
				at = t0.Add(-48 * time.Hour) // old
			}
			if err := tx.MarkSeen(fmt.Sprintf("msgid:<%03d@x>", i), at); err != nil {
				return err
			}
		}
		return nil
	})

	// One transaction: at most a batch looked at.
	update(t, db, func(tx *Tx) error {
		n, next, err := tx.PruneLedger(t0.Add(-time.Hour), "", 7)
		if err != nil {
			return err
		}
		if n != 3 || next != "msgid:<007@x>" { // 000, 003, 006
			t.Errorf("first batch: removed %d, next %q; want 3, msgid:<007@x>", n, next)
		}
		return nil
	})
	n, err := db.PruneLedger(t0.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if n != 34-3 {
		t.Errorf("PruneLedger removed %d, want %d", n, 34-3)
	}
	view(t, db, func(tx *Tx) error {
		for i := range 100 {
			seen, _ := tx.Seen(fmt.Sprintf("msgid:<%03d@x>", i))
			if seen != (i%3 != 0) {
				t.Errorf("entry %d: seen %v", i, seen)
			}
		}
		return nil
	})
}
