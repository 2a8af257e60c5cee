//go:build !linux

package diskfault

import (
	"errors"
	"runtime"
)

func breakFile(string) ([]swap, error) {
	return nil, errors.Join(errors.ErrUnsupported, errors.New("only on Linux, not "+runtime.GOOS))
}

func mend(string, []swap) error { return nil }
