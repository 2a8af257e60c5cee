package main

import (
	"bytes"
	"strings"
	"testing"
)

// Help asked for goes to standard output with status 0, for every
// command and every way of asking: gmd help COMMAND, gmd COMMAND -h (or
// -help, --help, after other flags too). It is the command's own usage,
// with its flags.
func TestHelpOnStdout(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{
			{"help", name}, {name, "-h"}, {name, "-help"}, {name, "--help"}, {"-h", name},
			{name, "-config", "/nonexistent/judge.conf", "-h"},
		} {
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			out := stdout.String()
			if code != 0 || stderr.Len() != 0 || !strings.HasPrefix(out, "usage: gmd "+name) {
				t.Errorf("gmd %s: status %d, stderr %q, stdout %q; want 0, nothing, and the usage of %s",
					strings.Join(args, " "), code, stderr.String(), out[:min(len(out), 80)], name)
			}
		}
	}
	// The list of commands, asked for.
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
			t.Errorf("gmd %s: status %d, stderr %q", args[0], code, stderr.String())
		}
		for name := range commands {
			if !strings.Contains(stdout.String(), "  "+name+" ") {
				t.Errorf("gmd %s does not list %s:\n%s", args[0], name, stdout.String())
			}
		}
	}
	// Not asked for: a mistake, on standard error.
	for _, args := range [][]string{nil, {"nosuch"}, {"help", "nosuch"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != 2 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "usage: gmd") {
			t.Errorf("gmd %q: status %d, stdout %q, stderr %q; want 2 and the usage on stderr", args, code, stdout.String(), stderr.String())
		}
	}
}
