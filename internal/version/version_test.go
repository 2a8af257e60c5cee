package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/gmdjudge/gmd", Version: "v1.2.0"},
		Settings: []debug.BuildSetting{
			{Key: "GOOS", Value: "linux"},
			{Key: "GOARCH", Value: "arm64"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-24T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	got := FromBuildInfo(bi).String()
	want := "gmd v1.2.0 (revision 0123456789abcdef0123456789abcdef01234567 with local changes, 2026-11-24T10:00:00Z) go1.26.8 linux/arm64"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestFromBuildInfoWithoutVCS(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Settings: []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"}}}
	got := FromBuildInfo(bi).String()
	if want := "gmd (devel) go1.26.8 linux/amd64"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRead checks the test binary's own build information comes through:
// the Go release at least is always recorded.
func TestRead(t *testing.T) {
	in := Read()
	if !strings.HasPrefix(in.Go, "go") || in.Module == "" || !strings.Contains(in.Platform, "/") {
		t.Errorf("Read() = %+v", in)
	}
}
