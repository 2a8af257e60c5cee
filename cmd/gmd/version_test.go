package main

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

func TestVersionCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"version"}, nil, &out, &errb); code != 0 {
		t.Fatalf("gmd version: status %d, stderr %q", code, errb.String())
	}
	got := out.String()
	if !strings.HasPrefix(got, "gmd ") || !strings.Contains(got, runtime.Version()) || strings.Count(got, "\n") != 1 {
		t.Errorf("gmd version printed %q, want one line: gmd, the module version, the Go release %s", got, runtime.Version())
	}
	if code := run([]string{"version", "extra"}, nil, &out, &errb); code != 2 {
		t.Errorf("gmd version extra: status %d, want 2", code)
	}
}
