package diskfault

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// errNoDescriptor says the process does not hold the file open.
var errNoDescriptor = errors.New("no descriptor of this process is open on the file")

// sameFile reports whether the descriptor fd refers to the file target.
func sameFile(fd int, target os.FileInfo) bool {
	fi, err := os.Stat(fmt.Sprintf("/proc/self/fd/%d", fd))
	return err == nil && os.SameFile(fi, target)
}

func breakFile(path string) ([]swap, error) {
	target, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	// List the descriptors before making any: a new one may take the
	// number of one the listing saw closed.
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil, err
	}
	var fds []int
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		// The listing's own descriptor is closed by now, and fails the
		// Stat in sameFile.
		if err == nil && sameFile(fd, target) {
			fds = append(fds, fd)
		}
	}
	if len(fds) == 0 {
		return nil, errNoDescriptor
	}
	ro, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(ro)
	var swaps []swap
	for _, fd := range fds {
		saved, err := dupCloexec(fd)
		if err == nil {
			err = syscall.Dup3(ro, fd, syscall.O_CLOEXEC)
			if err != nil {
				syscall.Close(saved)
			}
		}
		if err != nil {
			return nil, errors.Join(err, mend(path, swaps))
		}
		swaps = append(swaps, swap{fd: fd, saved: saved})
	}
	return swaps, nil
}

func mend(path string, swaps []swap) error {
	target, statErr := os.Stat(path)
	var errs []error
	for _, s := range swaps {
		// A descriptor the code under test closed meanwhile may have
		// been reused for another file: only one that still refers to
		// ours is given back.
		if statErr == nil && sameFile(s.fd, target) {
			if err := syscall.Dup3(s.saved, s.fd, syscall.O_CLOEXEC); err != nil {
				errs = append(errs, err)
			}
		}
		if err := syscall.Close(s.saved); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// dupCloexec duplicates fd onto a new descriptor that is closed on exec.
func dupCloexec(fd int) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}
