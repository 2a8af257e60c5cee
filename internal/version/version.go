// Package version tells which gmd is running: the module version, the
// VCS revision it was built from, and the Go release that built it, as
// the Go toolchain records them in the binary (runtime/debug.ReadBuildInfo).
// An admin reporting a bug, and a player asking the judge, see the same
// text.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Info is what the build recorded about the running binary.
type Info struct {
	// Module is the main module's version: "v1.2.0" when installed with
	// go install …@v1.2.0, a pseudo-version for a commit, and "(devel)"
	// for a build from a clone, where the revision says more.
	Module string
	// Revision is the VCS commit the binary was built from, empty when
	// the build had no VCS information (go run, -buildvcs=false).
	Revision string
	// Time is the commit's time as the VCS gave it (RFC 3339), or empty.
	Time string
	// Modified says the working tree differed from Revision.
	Modified bool
	// Go is the Go release that built the binary ("go1.26.8").
	Go string
	// Platform is GOOS/GOARCH.
	Platform string
}

// Read returns the running binary's Info.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		// A binary built without module support: only the runtime knows
		// anything.
		return Info{Module: "unknown", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	}
	return FromBuildInfo(bi)
}

// FromBuildInfo extracts the Info from build information.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Module: bi.Main.Version, Go: bi.GoVersion}
	if in.Module == "" {
		in.Module = "(devel)"
	}
	var goos, goarch string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	if goos == "" {
		goos = runtime.GOOS
	}
	if goarch == "" {
		goarch = runtime.GOARCH
	}
	in.Platform = goos + "/" + goarch
	return in
}

// String is the one-line form, "gmd v1.2.0 (revision 0123abcd…, 2026-11-24T10:00:00Z) go1.26.8 linux/amd64".
func (in Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gmd %s", in.Module)
	if in.Revision != "" {
		fmt.Fprintf(&b, " (revision %s", in.Revision)
		if in.Modified {
			b.WriteString(" with local changes")
		}
		if in.Time != "" {
			fmt.Fprintf(&b, ", %s", in.Time)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, " %s %s", in.Go, in.Platform)
	return b.String()
}
