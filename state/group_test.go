package state

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// groupMeta returns the Meta values of keys, "" for one not there.
func groupMeta(t *testing.T, db *DB, keys ...string) []string {
	t.Helper()
	out := make([]string, len(keys))
	err := db.View(func(tx *Tx) error {
		for i, k := range keys {
			v, err := tx.Meta(k)
			if err != nil {
				return err
			}
			out[i] = string(v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// put is a change that writes key=value and marks a ledger key, as a
// mail's transaction does.
func put(key, value string) func(*Tx) error {
	return func(tx *Tx) error {
		if err := tx.MarkSeen("ledger/"+key, time.Unix(0, 0)); err != nil {
			return err
		}
		return tx.PutMeta(key, []byte(value))
	}
}

// TestGroupCommitsTogether: the changes of a group are written by its
// Commit, all of them, and not before.
func TestGroupCommitsTogether(t *testing.T) {
	db := openTemp(t)
	g := db.NewGroup()
	for i := range 5 {
		if err := g.Update(put(fmt.Sprint("k", i), "v")); err != nil {
			t.Fatal(err)
		}
	}
	if g.Pending() != 5 {
		t.Errorf("Pending() = %d, want 5", g.Pending())
	}
	if got := groupMeta(t, db, "k0", "k4"); got[0] != "" || got[1] != "" {
		t.Errorf("before Commit a reader sees %q", got)
	}
	if err := g.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := groupMeta(t, db, "k0", "k1", "k2", "k3", "k4"); fmt.Sprint(got) != "[v v v v v]" {
		t.Errorf("after Commit: %q", got)
	}
	if g.Pending() != 0 {
		t.Errorf("Pending() = %d after Commit", g.Pending())
	}
	// A Commit with nothing pending does nothing.
	if err := g.Commit(); err != nil {
		t.Error(err)
	}
}

// TestGroupFailureUndoesOnlyItself: a change that fails, by an error or
// a panic, is undone alone, after writing part of what it meant to; the
// changes before it are written at once, and those after go on in the
// group.
func TestGroupFailureUndoesOnlyItself(t *testing.T) {
	for _, how := range []string{"error", "panic"} {
		t.Run(how, func(t *testing.T) {
			db := openTemp(t)
			g := db.NewGroup()
			for _, k := range []string{"a", "b"} {
				if err := g.Update(put(k, "ok")); err != nil {
					t.Fatal(err)
				}
			}
			boom := errors.New("boom")
			bad := func(tx *Tx) error {
				if err := put("bad", "written")(tx); err != nil {
					return err
				}
				if how == "panic" {
					panic(boom)
				}
				return boom
			}
			func() {
				defer func() {
					v := recover()
					if how != "panic" {
						return
					}
					gp, ok := v.(*GroupPanic)
					if !ok || gp.Value != boom || !strings.Contains(string(gp.Stack), "TestGroupFailureUndoesOnlyItself") {
						t.Errorf("recovered %v, want the change's own panic with the stack it came from", v)
					}
				}()
				if err := g.Update(bad); how == "error" && err != boom {
					t.Errorf("Update of a failing change: %v, want its error", err)
				}
			}()
			// What came before is on disk already; nothing of the
			// failed change is, its ledger key included.
			if got := groupMeta(t, db, "a", "b", "bad"); fmt.Sprint(got) != "[ok ok ]" {
				t.Errorf("after the failure: %q", got)
			}
			if err := g.Update(put("c", "ok")); err != nil {
				t.Fatal(err)
			}
			if err := g.Commit(); err != nil {
				t.Fatal(err)
			}
			if got := groupMeta(t, db, "a", "b", "bad", "c"); fmt.Sprint(got) != "[ok ok  ok]" {
				t.Errorf("after Commit: %q", got)
			}
			var seen bool
			db.View(func(tx *Tx) error { seen, _ = tx.Seen("ledger/bad"); return nil })
			if seen {
				t.Error("the failed change's ledger key was written")
			}
		})
	}
}

// TestGroupReplayFails: a change that worked once and fails when the
// group makes it again (after another's failure) loses the group's
// changes, and Commit says so: none of them is written, so that each is
// offered again rather than taken for done.
func TestGroupReplayFails(t *testing.T) {
	db := openTemp(t)
	g := db.NewGroup()
	runs := 0
	flaky := func(tx *Tx) error {
		if runs++; runs > 1 {
			return errors.New("not the same the second time")
		}
		return put("flaky", "ok")(tx)
	}
	if err := g.Update(put("a", "ok")); err != nil {
		t.Fatal(err)
	}
	if err := g.Update(flaky); err != nil {
		t.Fatal(err)
	}
	if err := g.Update(func(*Tx) error { return errors.New("fails") }); err == nil {
		t.Fatal("a failing change returned nil")
	}
	if err := g.Commit(); !errors.Is(err, errGroupReplay) {
		t.Errorf("Commit: %v, want errGroupReplay", err)
	}
	if got := groupMeta(t, db, "a", "flaky"); fmt.Sprint(got) != "[ ]" {
		t.Errorf("written after a failed replay: %q", got)
	}
	// The group works again.
	if err := g.Update(put("b", "ok")); err != nil {
		t.Fatal(err)
	}
	if err := g.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := groupMeta(t, db, "b"); got[0] != "ok" {
		t.Errorf("after the group was lost, a new change: %q", got)
	}
}

// TestGroupHoldsTheWriteLock: while a group has changes pending, another
// writer waits, and goes on once the group commits: the group must be
// committed promptly (the poller does, after each batch).
func TestGroupHoldsTheWriteLock(t *testing.T) {
	db := openTemp(t)
	g := db.NewGroup()
	if err := g.Update(put("a", "1")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- db.Update(put("a", "2")) }()
	select {
	case err := <-done:
		t.Fatalf("another writer went through an open group: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	if err := g.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := groupMeta(t, db, "a"); got[0] != "2" {
		t.Errorf("a = %q, want the other writer's, after the group's", got[0])
	}
}
