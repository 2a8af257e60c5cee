package diskfault

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
)

// Rot is damage done by Damage to the pages of a file: what bit rot, a
// stray write or a failing disk does to a database long after it was
// opened. Unlike Break it needs nothing of the operating system but
// plain writes, so it works everywhere.
type Rot struct {
	path string
	size int64 // of a page

	mu    sync.Mutex
	saved map[int64][]byte // what each damaged page held, by page number
}

// Damage zeroes, behind the back of whoever has the file at path open,
// every page of pageSize bytes that holds needle, and returns the
// damage, to mend with Mend. It fails if needle is nowhere in the file.
//
// A program that reads the file through a shared memory map, as bbolt
// does, sees the zeroes at its next read of the page; a page zeroed
// whole is one whose header no longer names it, which bbolt takes for
// damage. Pages that hold needle but are free (an older copy of a
// record) are zeroed too, which does no harm: whoever reuses one writes
// it whole.
func Damage(path string, pageSize int, needle []byte) (*Rot, error) {
	if pageSize <= 0 || len(needle) == 0 {
		return nil, errors.New("diskfault: Damage needs a page size and something to look for")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("diskfault: %w", err)
	}
	r := &Rot{path: path, size: int64(pageSize), saved: map[int64][]byte{}}
	for off := 0; ; {
		i := bytes.Index(data[off:], needle)
		if i < 0 {
			break
		}
		page := int64(off+i) / r.size
		if _, ok := r.saved[page]; !ok {
			start := page * r.size
			r.saved[page] = bytes.Clone(data[start:min(start+r.size, int64(len(data)))])
		}
		off += i + 1
	}
	if len(r.saved) == 0 {
		return nil, fmt.Errorf("diskfault: %s: %q is in no page", path, needle)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("diskfault: %w", err)
	}
	defer f.Close()
	for page, old := range r.saved {
		if _, err := f.WriteAt(make([]byte, len(old)), page*r.size); err != nil {
			return nil, fmt.Errorf("diskfault: %w", err)
		}
	}
	return r, nil
}

// Pages returns the numbers of the pages damaged, in order.
func (r *Rot) Pages() []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	pages := make([]int64, 0, len(r.saved))
	for p := range r.saved {
		pages = append(pages, p)
	}
	slices.Sort(pages)
	return pages
}

// Mend writes back what the damaged pages held, except in those that
// are no longer zero: the program reused them meanwhile, and what it
// wrote there is what counts now. Mending twice does nothing.
func (r *Rot) Mend() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.saved == nil {
		return nil
	}
	f, err := os.OpenFile(r.path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("diskfault: %w", err)
	}
	defer f.Close()
	for page, old := range r.saved {
		now := make([]byte, len(old))
		if _, err := f.ReadAt(now, page*r.size); err != nil {
			return fmt.Errorf("diskfault: %w", err)
		}
		if !bytes.Equal(now, make([]byte, len(now))) {
			continue // reused
		}
		if _, err := f.WriteAt(old, page*r.size); err != nil {
			return fmt.Errorf("diskfault: %w", err)
		}
	}
	r.saved = nil
	return f.Sync()
}

// DamageTest is Damage for a test, failing t if it fails. The damage is
// not mended when t ends: the file belongs to the test.
func DamageTest(t testing.TB, path string, pageSize int, needle string) *Rot {
	t.Helper()
	r, err := Damage(path, pageSize, []byte(needle))
	if err != nil {
		t.Fatal(err)
	}
	return r
}
