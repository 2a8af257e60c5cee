package state

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/internal/diskfault"
)

// smallGames opens a database holding games g000 to g099, small enough
// that many share a leaf page and the games bucket has several.
func smallGames(t *testing.T) *DB {
	t.Helper()
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for i := range 100 {
			if err := tx.PutGame(&Game{Name: fmt.Sprintf("g%03d", i), Variant: "standard", Status: Forming}); err != nil {
				return err
			}
		}
		return nil
	})
	return db
}

// A page damaged while the database is open, and read for the first time
// long after Open: the transaction that reads it fails with a
// *DamageError, which wraps ErrDamaged, rather than panic; the other
// pages, and writes that do not touch the damaged one, work as before,
// and so does the page once mended.
func TestDamagedPageLate(t *testing.T) {
	db := smallGames(t)
	rot := diskfault.DamageTest(t, db.Path(), db.bolt.Info().PageSize, `"name":"g050"`)

	for name, fn := range map[string]func() error{
		"View":   func() error { return db.View(func(tx *Tx) error { _, err := tx.Game("g050"); return err }) },
		"Update": func() error { return db.Update(func(tx *Tx) error { _, err := tx.Game("g050"); return err }) },
		"ForEachGame": func() error {
			return db.View(func(tx *Tx) error { return tx.ForEachGame(func(*Game) error { return nil }) })
		},
	} {
		err := fn()
		var de *DamageError
		if !errors.As(err, &de) || !errors.Is(err, ErrDamaged) {
			t.Fatalf("%s of the damaged game: %v (%T), want a *DamageError", name, err, err)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, db.Path()+": bbolt could not read a page (") || !strings.Contains(msg, "run gmd check") {
			t.Errorf("%s: message %q", name, msg)
		}
		if len(de.Stack) == 0 {
			t.Errorf("%s: no stack", name)
		}
	}
	// The rest goes on: reads and writes of another game, a new mail.
	update(t, db, func(tx *Tx) error {
		g, err := tx.Game("g010")
		if err != nil {
			return err
		}
		g.Status = Active
		return errors.Join(tx.PutGame(g), tx.Enqueue(&OutMail{Subject: "after"}), tx.MarkSeen("msgid:<after@x>", t0))
	})
	view(t, db, func(tx *Tx) error {
		if g, err := tx.Game("g010"); err != nil || g.Status != Active {
			t.Errorf("g010 after the damage: %v, %v", g, err)
		}
		return nil
	})
	var ce *CheckError
	if err := db.Check(); !errors.As(err, &ce) {
		t.Errorf("Check of the damaged database: %v", err)
	}

	if err := rot.Mend(); err != nil {
		t.Fatal(err)
	}
	view(t, db, func(tx *Tx) error {
		_, err := tx.Game("g050")
		return err
	})
	if err := db.Check(); err != nil {
		t.Errorf("Check once mended: %v", err)
	}
}

// A file cut short under the open database: a read of a page past the
// new end of the file faults (SIGBUS), which View turns into a
// *DamageError as well, instead of the process dying.
func TestCutShortLate(t *testing.T) {
	db := smallGames(t)
	full, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	// Cut at the page of the last game: the pages from there on are gone
	// from the file, though bbolt's memory map still covers them.
	page := int64(bytes.Index(full, []byte(`"name":"g099"`)) / db.bolt.Info().PageSize)
	if err := os.Truncate(db.Path(), page*int64(db.bolt.Info().PageSize)); err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error { return tx.ForEachGame(func(*Game) error { return nil }) })
	var de *DamageError
	if !errors.As(err, &de) {
		t.Fatalf("reading past the end of the file: %v (%T), want a *DamageError", err, err)
	}
	if _, ok := de.Value.(interface{ Addr() uintptr }); !ok {
		t.Errorf("the damage is %T %v, want the runtime's fault", de.Value, de.Value)
	}
	if err := os.WriteFile(db.Path(), full, 0o600); err != nil {
		t.Fatal(err)
	}
	view(t, db, func(tx *Tx) error { return tx.ForEachGame(func(*Game) error { return nil }) })
}

// A record that does not decode is an error wrapping ErrDamaged, naming
// the record.
func TestUndecodableRecordDamaged(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		return errors.Join(
			tx.tx.Bucket(bucketGames).Put([]byte("bad"), []byte("{not json")),
			tx.tx.Bucket(bucketUsers).Put([]byte("bad@x"), []byte("[")),
			tx.tx.Bucket(bucketOutbox).Put(idKey(7), []byte("nope")),
		)
	})
	view(t, db, func(tx *Tx) error {
		_, gerr := tx.Game("bad")
		_, uerr := tx.User("bad@x")
		_, oerr := tx.Outbox(0)
		ferr := tx.ForEachGame(func(*Game) error { return nil })
		for prefix, err := range map[string]error{"game bad: ": gerr, "user bad@x: ": uerr, "outbox mail 7: ": oerr, "game bad: invalid": ferr} {
			if !errors.Is(err, ErrDamaged) || !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("%q: %v", prefix, err)
			}
		}
		return nil
	})
}

// A panic that does not come from a damaged page, a bug, still reaches
// the caller of View, as it does the caller of Update
// (TestUpdateRollback).
func TestViewPanicPassesThrough(t *testing.T) {
	db := openTemp(t)
	defer func() {
		if v := recover(); v != "a bug" {
			t.Errorf("recovered %v, want the panic of the function", v)
		}
	}()
	db.View(func(*Tx) error { panic("a bug") })
}

// A damaged freelist page is read again when bbolt rolls back a write
// transaction that failed in its commit, and its panic there leaves
// bbolt's write lock held for ever. The database is then wedged: the
// write that met the damage says so, every later call returns that
// error at once instead of waiting for ever, Broken is closed, and Close
// returns rather than wait for the lock.
func TestDamagedFreelistWedges(t *testing.T) {
	db := smallGames(t)
	page, size, err := diskfault.BoltFreelist(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := diskfault.DamagePage(db.Path(), size, page); err != nil {
		t.Fatal(err)
	}
	select {
	case <-db.Broken():
		t.Fatal("broken before anything was read")
	default:
	}
	// An Update that commits nothing still writes a new freelist, and
	// frees the old one, which bbolt reads for that.
	err = db.Update(func(tx *Tx) error { return tx.PutMeta("k", []byte("v")) })
	var de *DamageError
	if !errors.As(err, &de) || !de.Wedged || !strings.Contains(err.Error(), "this process can no longer use the database") {
		t.Fatalf("the commit that met the damaged freelist: %v", err)
	}
	select {
	case <-db.Broken():
	default:
		t.Fatal("Broken is not closed")
	}
	done := make(chan []error, 1)
	go func() {
		_, berr := db.Backup(io.Discard)
		done <- []error{
			db.Update(func(*Tx) error { return nil }),
			db.View(func(*Tx) error { return nil }),
			berr,
			db.Close(),
		}
	}()
	select {
	case errs := <-done:
		for i, err := range errs {
			if !errors.As(err, &de) || !de.Wedged {
				t.Errorf("call %d after the wedge: %v", i, err)
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("calls after the wedge wait")
	}
}

// Both meta pages damaged under the open database: bbolt panics as the
// next transaction begins, holding a lock it never releases. That
// transaction and every later call return the wedging error at once.
// (One damaged meta page bbolt survives: it uses the other.)
func TestDamagedMetaPagesWedge(t *testing.T) {
	db := smallGames(t)
	size := db.bolt.Info().PageSize
	for page := range int64(2) {
		if _, err := diskfault.DamagePage(db.Path(), size, page); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan []error, 1)
	go func() {
		done <- []error{
			db.View(func(*Tx) error { return nil }),
			db.View(func(*Tx) error { return nil }),
			db.Update(func(*Tx) error { return nil }),
		}
	}()
	select {
	case errs := <-done:
		for i, err := range errs {
			var de *DamageError
			if !errors.As(err, &de) || !de.Wedged {
				t.Errorf("call %d: %v", i, err)
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("calls after the meta pages were damaged wait")
	}
}
