// Package diskfault breaks, for tests, the writes a process makes to a
// file it holds open, the way a full disk or a file system remounted
// read-only breaks them, and mends them again, so that tests can show
// what gmd does when its database cannot be written.
//
// It works underneath the code under test, which needs no hook: Break
// finds the process's descriptors for the file and swaps each, with
// dup3(2), for one opened read-only on the same file. Reads, and the
// memory map bbolt reads through, go on working; every write(2),
// pwrite(2) and ftruncate(2) fails (EBADF, EINVAL) until Mend puts the
// original descriptors back. The original open file descriptions are
// kept meanwhile, so locks taken on them (bbolt's flock) stay held.
//
// It is for Linux, where /proc/self/fd lists the descriptors; elsewhere
// Break returns an error wrapping errors.ErrUnsupported and tests skip.
//
// Damage, for its part, damages pages of a file that a program has open
// and reads (bbolt through its memory map), as bit rot or a stray write
// would, and mends them again: for tests of a damaged page that a
// program meets long after it opened the file.
package diskfault

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

// A Fault is a broken file. Mend it before the code under test closes
// the file: a descriptor closed meanwhile is left alone by Mend, but its
// lock lives on until then.
type Fault struct {
	path string

	mu    sync.Mutex
	swaps []swap // nil once mended
}

// swap is one descriptor made read-only, and the duplicate of what it
// was.
type swap struct {
	fd, saved int
}

// Break makes every descriptor this process has open on the file at path
// refuse writes, until Mend. It fails if there is none.
func Break(path string) (*Fault, error) {
	swaps, err := breakFile(path)
	if err != nil {
		return nil, fmt.Errorf("diskfault: %s: %w", path, err)
	}
	return &Fault{path: path, swaps: swaps}, nil
}

// Mend gives back the descriptors their writes. Mending twice does
// nothing.
func (f *Fault) Mend() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.swaps == nil {
		return nil
	}
	err := mend(f.path, f.swaps)
	f.swaps = nil
	if err != nil {
		return fmt.Errorf("diskfault: %s: %w", f.path, err)
	}
	return nil
}

// BreakTest is Break for a test: it skips t where faults cannot be made,
// fails it if Break fails, and mends the fault when t ends (before the
// cleanups registered earlier, such as closing the file, run).
func BreakTest(t testing.TB, path string) *Fault {
	t.Helper()
	f, err := Break(path)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := f.Mend(); err != nil {
			t.Error(err)
		}
	})
	return f
}
