package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/ctl"
	"github.com/gmdjudge/gmd/state"
)

// games returns the names of the games in the database at path.
func games(t *testing.T, path string) []string {
	t.Helper()
	db, err := state.OpenReadOnly(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer db.Close()
	var names []string
	err = db.View(func(tx *state.Tx) error {
		return tx.ForEachGame(func(g *state.Game) error { names = append(names, g.Name); return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func newDB(t *testing.T, dir string, names ...string) string {
	t.Helper()
	path := filepath.Join(dir, "gmd.db")
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *state.Tx) error {
		for _, n := range names {
			if err := tx.PutGame(&state.Game{Name: n, Variant: "standard", Status: state.Forming}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBackupDirect(t *testing.T) {
	dir := t.TempDir()
	path := newDB(t, dir, "dt", "ab")
	out := filepath.Join(dir, "copy.db")
	code, stdout, errs := gmd(t, "", "backup", "-db", path, "-o", out)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	if stdout != "" || !strings.HasSuffix(errs, "to "+out+", from "+path+"\n") {
		t.Errorf("stdout %q, stderr %q", stdout, errs)
	}
	if got := strings.Join(games(t, out), " "); got != "ab dt" {
		t.Errorf("the copy holds %q", got)
	}
	if _, err := os.Stat(out + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("temporary file left: %v", err)
	}
}

func TestBackupThroughDaemon(t *testing.T) {
	dir := t.TempDir()
	path := newDB(t, dir, "dt")
	// The "daemon": this test holds the database open, so gmd backup
	// cannot open it and must go through the socket.
	db := fakeDaemon(t, path, nil)
	// A game added while the daemon runs is in the copy.
	err := db.Update(func(tx *state.Tx) error {
		return tx.PutGame(&state.Game{Name: "live", Variant: "standard", Status: state.Forming})
	})
	if err != nil {
		t.Fatal(err)
	}

	conf := filepath.Join(dir, "judge.conf")
	os.WriteFile(conf, []byte("db gmd.db\n"), 0o600)
	out := filepath.Join(dir, "copy.db")
	code, _, errs := gmd(t, "", "backup", "-config", conf, "-o", out)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	if !strings.HasSuffix(errs, ", through the running daemon\n") {
		t.Errorf("stderr %q", errs)
	}
	if got := strings.Join(games(t, out), " "); got != "dt live" {
		t.Errorf("the copy holds %q", got)
	}
}

func TestBackupErrors(t *testing.T) {
	dir := t.TempDir()
	path := newDB(t, dir, "dt")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no -o", []string{"-db", path}, 2, "gmd backup: -o out.db is required\n"},
		{"no db", []string{"-o", filepath.Join(dir, "x.db")}, 2, "gmd backup: no database: give -db FILE, or db in the config file\n"},
		{"onto itself", []string{"-db", path, "-o", path}, 2, "gmd backup: " + path + " is the database itself\n"},
		{"missing db", []string{"-db", filepath.Join(dir, "none.db"), "-o", filepath.Join(dir, "x.db")}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := gmd(t, "", append([]string{"backup"}, tt.args...)...)
			if code != tt.code || tt.stderr != "" && errs != tt.stderr {
				t.Errorf("status %d, stderr %q; want %d, %q", code, errs, tt.code, tt.stderr)
			}
		})
	}
	// A backup never creates the database it was asked to copy.
	if _, err := os.Stat(filepath.Join(dir, "none.db")); !os.IsNotExist(err) {
		t.Errorf("gmd backup created the missing database: %v", err)
	}
}

// fakeDaemon plays a running gmd run for the commands that go through
// the control socket: it holds the database at path open, so that they
// cannot open it themselves, and serves the socket until the test ends,
// calling kick as the daemon's sender would be kicked. It returns the
// open database.
func fakeDaemon(t *testing.T, path string, kick func()) *state.DB {
	t.Helper()
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ctl.Serve(ctx, ctl.SocketPath(path), db, kick) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		db.Close()
	})
	for range 200 {
		if _, err := os.Stat(ctl.SocketPath(path)); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	return db
}
