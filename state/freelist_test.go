package state

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/diskfault"
)

// garbleFreelist writes garbage into the freelist page of the closed
// database at path, keeping the page's header so that bbolt still takes
// it for a freelist: ids is what the page lists as free, or nil for
// count random ids.
func garbleFreelist(t *testing.T, path string, count int, ids []uint64) {
	t.Helper()
	page, size, err := diskfault.BoltFreelist(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, size)
	if _, err := f.ReadAt(buf, page*int64(size)); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(count), 18))
	if ids == nil {
		for range count {
			ids = append(ids, r.Uint64())
		}
	}
	binary.LittleEndian.PutUint16(buf[10:], uint16(len(ids)))
	for i, id := range ids {
		binary.LittleEndian.PutUint64(buf[16+8*i:], id)
	}
	if _, err := f.WriteAt(buf, page*int64(size)); err != nil {
		t.Fatal(err)
	}
}

// A freelist page whose header is sound and whose page numbers are
// garbage, under a database opened without the page check (as gmd
// process and the tools open it): the first write meets it as it
// commits. That is no record's damage but the writing's: the error says
// so, is the judge's fault (Transient: the mail is not held, not
// flagged, tried again), Broken is closed so that the daemon stops, and
// every later Update fails at once, writing nothing more into a file
// whose freelist may hand out a page in use. Reads still work.
func TestGarbageFreelistStopsWrites(t *testing.T) {
	for name, ids := range map[string][]uint64{
		"random": nil,
		"in use": {2, 3, 4, 5, 6}, // the meta pages' neighbours, all in use
	} {
		t.Run(name, func(t *testing.T) {
			db := smallGames(t)
			path := db.Path()
			db.Close()
			garbleFreelist(t, path, 20, ids)
			db, err := Open(path)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer db.Close()
			// A write that frees pages, as every game's mail does.
			var werr error
			for i := range 3 {
				werr = db.Update(func(tx *Tx) error {
					return tx.PutGame(&Game{Name: "g00" + string(rune('0'+i)), Variant: "standard", Status: Forming, MasterAddr: strings.Repeat("x", 3000)})
				})
				if werr != nil {
					break
				}
			}
			var de *DamageError
			if !errors.As(werr, &de) || !de.Unwritable || !Transient(werr) {
				t.Fatalf("the write that met the freelist: %v", werr)
			}
			if !strings.Contains(werr.Error(), "no write can be trusted") {
				t.Errorf("the error does not say the writing is broken: %v", werr)
			}
			select {
			case <-db.Broken():
			default:
				t.Fatal("Broken is not closed")
			}
			if err := db.Update(func(*Tx) error { return nil }); !errors.Is(err, de) && err != error(de) {
				t.Errorf("an Update after: %v", err)
			}
			if err := db.View(func(tx *Tx) error { _, err := tx.Game("g050"); return err }); err != nil {
				t.Errorf("a read after: %v", err)
			}
		})
	}
}
