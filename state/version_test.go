package state

import (
	"errors"
	"testing"
)

// TestVersion: reads see the same Version until a write commits, and a
// new one after it; a write that fails changes nothing.
func TestVersion(t *testing.T) {
	db := openTemp(t)
	read := func() (v uint64) {
		db.View(func(tx *Tx) error { v = tx.Version(); return nil })
		return v
	}
	v1 := read()
	if read() != v1 {
		t.Error("two reads of the same database differ")
	}
	if err := db.Update(func(tx *Tx) error { return tx.PutGame(&Game{Name: "dt"}) }); err != nil {
		t.Fatal(err)
	}
	v2 := read()
	if v2 == v1 {
		t.Error("a write left the version as it was")
	}
	db.Update(func(tx *Tx) error {
		tx.PutGame(&Game{Name: "other"})
		return errors.New("refused")
	})
	if read() != v2 {
		t.Error("a failed write changed the version")
	}
}
