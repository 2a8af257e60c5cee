package state

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"
)

// Seen reports whether a mail ledger key is recorded.
func (tx *Tx) Seen(key string) (bool, error) {
	if key == "" {
		return false, nil
	}
	ledger, err := tx.bucket(bucketLedger)
	if err != nil {
		return false, err
	}
	return ledger.Get(ledgerKey(key)) != nil, nil
}

// MarkSeen records a mail ledger key, with the time it was handled: the
// time PruneLedger goes by.
func (tx *Tx) MarkSeen(key string, at time.Time) error {
	if key == "" {
		return errors.New("state: empty ledger key")
	}
	ledger, err := tx.bucket(bucketLedger)
	if err != nil {
		return err
	}
	k := ledgerKey(key)
	t := encodeTime(at)
	return ledger.Put(k, sealLedger(k, t[:]))
}

// sealLedger seals a ledger entry's time: its seal covers the key too,
// for a key is the entry's whole meaning (a digest of the mail), and a
// bit flipped in it would make a mail handled look new.
func sealLedger(key, t []byte) []byte {
	sealed := seal(append(bytes.Clone(key), t...))
	return append(t[:len(t):len(t)], sealed[len(sealed)-sealSize:]...)
}

// ledgerTime returns the time of the ledger entry key → v: 8 bytes as
// encodeTime wrote them, sealed (sealLedger) or, written before
// checksums, not.
func ledgerTime(key, v []byte) ([]byte, error) {
	switch len(v) {
	case 8:
		return v, nil
	case 8 + sealSize:
		if !bytes.Equal(sealLedger(key, v[:8]), v) {
			return nil, damaged(errChecksum)
		}
		return v[:8], nil
	}
	return nil, damaged(errors.New("the value is not a time"))
}

// PruneLedger forgets the ledger entries recorded before the given time.
// It looks at no more than limit entries (all if limit <= 0), from the
// first key at or after from ("" for the start of the ledger), and
// returns how many it removed and where a further call should start: ""
// once it has reached the end. An entry whose value is not a time is
// left for gmd check to report.
//
// Which time is safe is the caller's to know: an entry must outlive any
// chance of its mail being offered again as new (see DB.PruneLedger).
func (tx *Tx) PruneLedger(before time.Time, from string, limit int) (removed int, next string, err error) {
	ledger, err := tx.bucket(bucketLedger)
	if err != nil {
		return 0, "", err
	}
	end := encodeTime(before)
	var old [][]byte
	c := ledger.Cursor()
	n := 0
	for k, v := c.Seek([]byte(from)); k != nil; k, v = c.Next() {
		if limit > 0 && n == limit {
			next = string(k)
			break
		}
		n++
		if t, err := ledgerTime(k, v); err == nil && bytes.Compare(t, end[:]) < 0 {
			old = append(old, bytes.Clone(k))
		}
	}
	// Deleting under a bbolt cursor can skip keys: collect, then delete.
	for _, k := range old {
		if err := ledger.Delete(k); err != nil {
			return 0, "", err
		}
	}
	return len(old), next, nil
}

// pruneBatch is how many ledger entries one transaction of
// DB.PruneLedger looks at. A first pruning of a large ledger (590,000
// entries for 10,000 games) may remove most of it; in one transaction
// that would hold the write lock, and mail with it, for seconds, and
// dirty a good part of the file at once. A variable so that tests can
// make batches small.
var pruneBatch = 10000

// PruneLedger forgets the ledger entries recorded before the given time,
// pruneBatch entries to a transaction so that the mail handled meanwhile
// waits little, and returns how many it removed. On an error, what the
// transactions before it removed stays removed.
//
// The ledger is what keeps a mail offered twice from being applied twice,
// so an entry may go only once its mail cannot come back as new. The
// IMAP poller offers a mail again after a crash between the commit and
// the \Seen flag, and every mail of the mailbox when its UIDVALIDITY
// changes; a mail server may deliver a copy of a mail again for days.
// gmd run keeps entries for a long time (ledger-retention in judge.conf,
// 90 days by default) and its poller leaves alone the mails that arrived
// before that, whose entries may be gone.
func (db *DB) PruneLedger(before time.Time) (int, error) {
	total, from := 0, ""
	for {
		var n int
		err := db.Update(func(tx *Tx) error {
			var err error
			n, from, err = tx.PruneLedger(before, from, pruneBatch)
			return err
		})
		if err != nil {
			return total, err
		}
		total += n
		if from == "" {
			return total, nil
		}
	}
}

// ledgerKeyMax is the longest ledger key stored as it is. Message-IDs
// come from strangers; a long one is stored as its hash, so that no
// sender can make the ledger write fail (bbolt refuses keys over 32 KiB)
// or bloat the file.
const ledgerKeyMax = 256

// ledgerKey returns the bucket key for a ledger key.
func ledgerKey(key string) []byte {
	if len(key) <= ledgerKeyMax {
		return []byte(key)
	}
	sum := sha256.Sum256([]byte(key))
	return []byte("sha256:" + hex.EncodeToString(sum[:]))
}
