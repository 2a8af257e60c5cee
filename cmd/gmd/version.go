package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gmdjudge/gmd/internal/version"
)

func init() {
	commands["version"] = command{
		summary: "print gmd's version, VCS revision and Go release",
		run:     runVersion,
	}
}

const versionUsage = `usage: gmd version

Prints the module version (v1.2.0 when installed with go install …@v1.2.0,
"(devel)" for a build from a clone), the VCS revision and commit time the
binary was built from, whether the tree had local changes, and the Go
release and platform that built it.

`

func runVersion(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd version", flag.ContinueOnError)
	if code, ok := parseFlags(fs, args, stderr, versionUsage); !ok {
		return code
	}
	fmt.Fprintln(stdout, version.Read())
	return 0
}
