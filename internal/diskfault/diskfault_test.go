//go:build linux

package diskfault

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestBreakAndMend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}

	fault := BreakTest(t, path)
	if _, err := f.WriteAt([]byte("J"), 0); !errors.Is(err, syscall.EBADF) {
		t.Errorf("write while broken: %v, want EBADF", err)
	}
	if err := f.Truncate(100); err == nil {
		t.Error("truncate while broken succeeded")
	}
	buf := make([]byte, 5)
	if _, err := f.ReadAt(buf, 0); err != nil || string(buf) != "hello" {
		t.Errorf("read while broken: %q, %v", buf, err)
	}
	// The lock is still held: another description cannot take it.
	other, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Errorf("flock of another description while broken: %v, want EWOULDBLOCK", err)
	}

	if err := fault.Mend(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("J"), 0); err != nil {
		t.Errorf("write after Mend: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "Jello" {
		t.Errorf("file holds %q after the write, want Jello", got)
	}
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Errorf("flock of another description after Mend: %v, want EWOULDBLOCK", err)
	}
	if err := fault.Mend(); err != nil {
		t.Errorf("second Mend: %v", err)
	}
}

func TestBreakFileNotOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Break(path); err == nil {
		t.Error("Break of a file nobody holds open succeeded")
	}
	if _, err := Break(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Break of a missing file succeeded")
	}
}

// Every descriptor on the file is broken and mended, however many there
// are and whatever their numbers (the new descriptors Break makes take
// numbers it saw free, or saw in use by its own listing).
func TestManyDescriptors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	var files []*os.File
	for range 12 {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		files = append(files, f)
	}
	for round := range 3 {
		fault := BreakTest(t, path)
		for i, f := range files {
			if _, err := f.WriteAt([]byte("y"), 0); err == nil {
				t.Errorf("round %d: descriptor %d writes while broken", round, i)
			}
		}
		if err := fault.Mend(); err != nil {
			t.Fatal(err)
		}
		for i, f := range files {
			if _, err := f.WriteAt([]byte("y"), 0); err != nil {
				t.Errorf("round %d: descriptor %d after Mend: %v", round, i, err)
			}
		}
	}
}
