package ctl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// serve opens a database in a temporary directory and serves it; the
// returned stop function ends Serve and checks that it returned nil.
func serve(t *testing.T) (db *state.DB, sock string, stop func()) {
	t.Helper()
	dir := t.TempDir()
	db, err := state.Open(filepath.Join(dir, "gmd.db"))
	if err != nil {
		t.Fatal(err)
	}
	sock = SocketPath(db.Path())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, sock, db, nil) }()
	waitFor(t, sock)
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return after cancel")
		}
	}
	t.Cleanup(func() { stop(); db.Close() })
	return db, sock, stop
}

// waitFor waits until the socket accepts connections.
func waitFor(t *testing.T, sock string) {
	t.Helper()
	for range 200 {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s", sock)
}

func putGames(t *testing.T, db *state.DB, from, to int) {
	t.Helper()
	err := db.Update(func(tx *state.Tx) error {
		for i := from; i < to; i++ {
			g := &state.Game{Name: fmt.Sprintf("g%d", i), Status: state.Forming, Variant: "standard"}
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestBackupWhileWriting(t *testing.T) {
	db, sock, _ := serve(t)
	// Enough data for several chunks.
	putGames(t, db, 0, 2000)

	// Another goroutine keeps adding games during the backups.
	var written atomic.Int64
	written.Store(2000)
	ctx, cancel := context.WithCancel(context.Background())
	writerDone := make(chan error, 1)
	go func() {
		for i := 2000; ctx.Err() == nil; i++ {
			err := db.Update(func(tx *state.Tx) error {
				return tx.PutGame(&state.Game{Name: fmt.Sprintf("g%d", i), Status: state.Forming, Variant: "standard"})
			})
			if err != nil {
				writerDone <- err
				return
			}
			written.Store(int64(i + 1))
		}
		writerDone <- nil
	}()

	dir := t.TempDir()
	for k := range 3 {
		before := written.Load()
		var buf bytes.Buffer
		n, err := Backup(sock, &buf)
		if err != nil {
			t.Fatal(err)
		}
		if n != int64(buf.Len()) || n < 100<<10 {
			t.Fatalf("Backup returned %d, wrote %d", n, buf.Len())
		}
		// The copy is a database that opens and holds the games.
		path := filepath.Join(dir, fmt.Sprintf("copy%d.db", k))
		if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		cp, err := state.OpenReadOnly(path)
		if err != nil {
			t.Fatalf("the copy does not open: %v", err)
		}
		games := 0
		err = cp.View(func(tx *state.Tx) error {
			return tx.ForEachGame(func(*state.Game) error { games++; return nil })
		})
		cp.Close()
		if err != nil {
			t.Fatal(err)
		}
		if int64(games) < before {
			t.Errorf("backup %d holds %d games; %d were written before it started", k, games, before)
		}
	}
	cancel()
	if err := <-writerDone; err != nil {
		t.Fatal(err)
	}
	if written.Load() <= 2000 {
		t.Error("the writer never wrote during the backups")
	}
}

func TestNoServer(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	_, err := Backup(filepath.Join(dir, "none.sock"), &buf)
	if !errors.Is(err, ErrNoServer) {
		t.Errorf("no socket file: %v, want ErrNoServer", err)
	}
	// A socket file nobody listens on, as a crashed daemon leaves.
	stale := filepath.Join(dir, "stale.sock")
	ln, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := Backup(stale, &buf); !errors.Is(err, ErrNoServer) {
		t.Errorf("stale socket: %v, want ErrNoServer", err)
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %d bytes", buf.Len())
	}

	// Serve replaces the stale socket.
	db, err := state.Open(filepath.Join(dir, "gmd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, stale, db, nil) }()
	waitFor(t, stale)
	if _, err := Backup(stale, &buf); err != nil {
		t.Errorf("backup after replacing the stale socket: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}

func TestServeSocket(t *testing.T) {
	db, sock, stop := serve(t)
	fi, err := os.Stat(sock)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("socket mode %o, want 600", perm)
	}
	// A second daemon on the same socket is refused.
	if err := Serve(context.Background(), sock, db, nil); err == nil || !strings.Contains(err.Error(), "already listens") {
		t.Errorf("second Serve: %v", err)
	}
	// Nor does Serve remove something that is not a socket.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o600)
	if err := Serve(context.Background(), file, db, nil); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Serve on a file: %v", err)
	}
	stop()
	if _, err := os.Stat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is still there after Serve returned: %v", err)
	}
}

func TestUnknownCommand(t *testing.T) {
	_, sock, _ := serve(t)
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "restore /etc/passwd\n")
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if want := "error unknown command \"restore /etc/passwd\"\n"; line != want {
		t.Errorf("answer %q, want %q", line, want)
	}
}

func TestShutdownCutsSlowClient(t *testing.T) {
	db, sock, stop := serve(t)
	putGames(t, db, 0, 5000)
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Ask for a backup and never read it: the daemon blocks writing.
	fmt.Fprintf(c, "backup\n")
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	stop()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("shutdown took %v", d)
	}
}
