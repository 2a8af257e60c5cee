package state

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/diskfault"
)

// A database whose file cannot be written (a full disk, a file system
// remounted read-only) refuses every Update with an error and keeps what
// was committed before, readable all along; once the file can be written
// again, so can the database, and nothing of the refused Updates shows.
func TestWriteFault(t *testing.T) {
	db := openTemp(t)
	var firstID uint64
	update(t, db, func(tx *Tx) error {
		var err error
		firstID, err = tx.NextID()
		if err != nil {
			return err
		}
		return errors.Join(tx.PutGame(sampleGame(t, "kept")), tx.Enqueue(&OutMail{Subject: "kept"}))
	})

	fault := diskfault.BreakTest(t, db.Path())
	big := bytes.Repeat([]byte("x"), 4<<20) // makes the file grow: a failed truncate, not a failed write
	writes := map[string]func(*Tx) error{
		"game": func(tx *Tx) error {
			g := sampleGame(t, "lost")
			return errors.Join(tx.PutGame(g), tx.PutPhase(g.Name, phase(0)))
		},
		"mail": func(tx *Tx) error {
			_, err := tx.NextID()
			return errors.Join(err, tx.Enqueue(&OutMail{Subject: "lost"}), tx.MarkSeen("<m@x>", t0))
		},
		"delete": func(tx *Tx) error { return tx.DeleteGame("kept") },
		"grow":   func(tx *Tx) error { return tx.PutMeta("big", big) },
	}
	for range 3 {
		for name, fn := range writes {
			err := db.Update(fn)
			if err == nil {
				t.Fatalf("%s: Update succeeded on a file that cannot be written", name)
			}
			t.Logf("%s: %v", name, err)
		}
	}
	if err := db.Check(); err != nil {
		t.Errorf("Check while writes fail: %v", err)
	}

	if err := fault.Mend(); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if i == 1 {
			db = reopen(t, db)
		}
		view(t, db, func(tx *Tx) error {
			if _, err := tx.Game("kept"); err != nil {
				t.Errorf("committed game: %v", err)
			}
			if _, err := tx.Game("lost"); !errors.Is(err, ErrNotFound) {
				t.Errorf("game of a refused Update: %v", err)
			}
			if recs, _ := tx.Phases("lost"); len(recs) != 0 {
				t.Errorf("phases of a refused Update: %d", len(recs))
			}
			if seen, _ := tx.Seen("<m@x>"); seen {
				t.Error("ledger key of a refused Update")
			}
			if v, _ := tx.Meta("big"); v != nil {
				t.Error("meta of a refused Update")
			}
			if out, _ := tx.Outbox(0); len(out) != 1 || out[0].Subject != "kept" {
				t.Errorf("outbox %+v, want only the committed mail", out)
			}
			return nil
		})
	}
	// The writes refused go through now, and the sequences went on from
	// where they were.
	for name, fn := range writes {
		if err := db.Update(fn); err != nil {
			t.Errorf("%s after the fault: %v", name, err)
		}
	}
	update(t, db, func(tx *Tx) error {
		if id, _ := tx.NextID(); id != firstID+2 {
			t.Errorf("NextID = %d, want %d: one taken by the mail write after the fault", id, firstID+2)
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

// A database file cut short (a copy that stopped, a full disk) is
// refused by Open and OpenReadOnly with an error saying so, and left as
// it is. Reading it would kill the process: bbolt reads its pages
// through a memory map, and a page past the end of the file is SIGBUS.
func TestTruncatedRejected(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for i := range 40 {
			g := sampleGame(t, fmt.Sprintf("g%02d", i))
			if err := errors.Join(tx.PutGame(g), tx.PutPhase(g.Name, phase(1))); err != nil {
				return err
			}
		}
		return nil
	})
	var need int64
	view(t, db, func(tx *Tx) error { need = tx.tx.Size(); return nil })
	path := db.Path()
	db.Close()
	full, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := int64(os.Getpagesize())
	for _, size := range []int64{need - 1, need - page, need / 2, 3 * page} {
		if err := os.WriteFile(path, full[:size], 0o600); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("%s is damaged: it is %d bytes long, but its pages need %d (cut short?)", path, size, need)
		wantOpenError(t, path, want)
		if db, err := OpenReadOnly(path); err == nil || err.Error() != want {
			if err == nil {
				db.Close()
			}
			t.Errorf("OpenReadOnly of a file cut to %d bytes: %v", size, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, full[:size]) {
			t.Errorf("the file cut to %d bytes was changed", size)
		}
	}
	// Cut to exactly what its pages need, it is whole.
	if err := os.WriteFile(path, full[:need], 0o600); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

// A page of the file overwritten with garbage (bit rot, a stray write)
// never kills the process that opens or checks it: Open refuses the file
// or opens it, and Check lists the damage it reads into, as problems.
// Each page in turn is damaged, in a copy of the file.
func TestDamagedPages(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for i := range 16 {
			g := sampleGame(t, fmt.Sprintf("g%02d", i))
			err := errors.Join(tx.PutGame(g), tx.PutPhase(g.Name, phase(1)), tx.Enqueue(&OutMail{Subject: g.Name}),
				tx.PutUser(&User{Addr: g.Name + "@example.org"}), tx.MarkSeen(g.Name, t0))
			if err != nil {
				return err
			}
		}
		return nil
	})
	var pageSize, pages int
	view(t, db, func(tx *Tx) error {
		pageSize = tx.tx.DB().Info().PageSize
		pages = int(tx.tx.Size()) / pageSize
		return nil
	})
	db.Close()
	full, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}

	rng := rand.New(rand.NewPCG(5, 6))
	dir := t.TempDir()
	found := 0
	for p := 2; p < pages; p++ { // pages 0 and 1 are the meta pages, which bbolt checksums
		data := bytes.Clone(full)
		for i := p * pageSize; i < (p+1)*pageSize; i++ {
			data[i] = byte(rng.Uint32())
		}
		path := filepath.Join(dir, fmt.Sprintf("page%d.db", p))
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if db, err := Open(path); err == nil {
			db.Close()
		} else if !strings.Contains(err.Error(), path+" is damaged: ") {
			t.Errorf("page %d: Open: %v", p, err)
		}
		ro, err := OpenReadOnly(path)
		if err != nil {
			found++
			continue
		}
		err = ro.Check()
		ro.Close()
		var ce *CheckError
		if err != nil && !errors.As(err, &ce) {
			t.Errorf("page %d: Check: %v", p, err)
		}
		if err != nil {
			found++
		}
	}
	// Free pages hold nothing to damage; most pages are in use.
	if found < (pages-2)/2 {
		t.Errorf("damage found in %d of %d pages", found, pages-2)
	}
	t.Logf("damage found in %d of %d pages", found, pages-2)
}
