package state

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

func TestCheckClean(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for i := range 20 {
			g := sampleGame(t, fmt.Sprintf("g%d", i))
			if i%3 == 0 {
				g.Wake = time.Time{}
			}
			if err := tx.PutGame(g); err != nil {
				return err
			}
			if err := tx.PutPhase(g.Name, phase(i)); err != nil {
				return err
			}
			if err := tx.PutUser(&User{Addr: fmt.Sprintf("u%d@example.org", i)}); err != nil {
				return err
			}
			if err := tx.Enqueue(&OutMail{Subject: "s"}); err != nil {
				return err
			}
			if err := tx.MarkSeen(fmt.Sprint("<", i, "@x>"), t0); err != nil {
				return err
			}
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// Check finds each kind of damage it knows, and names it.
func TestCheckFindsProblems(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for _, name := range []string{"ok", "moved", "unindexed"} {
			if err := tx.PutGame(&Game{Name: name, Wake: t0}); err != nil {
				return err
			}
		}
		if err := tx.PutPhase("ok", phase(0)); err != nil {
			return err
		}
		return tx.Enqueue(&OutMail{Subject: "s"})
	})
	err := db.bolt.Update(func(tx *bbolt.Tx) error {
		put := func(bucket []byte, k, v []byte) {
			if err := tx.Bucket(bucket).Put(k, v); err != nil {
				t.Fatal(err)
			}
		}
		put(bucketGames, []byte("broken"), []byte("{not json"))
		put(bucketGames, []byte("upper"), []byte(`{"name":"Other"}`))
		put(bucketUsers, []byte("x@y"), []byte(`{"addr":"z@y"}`))
		wake := tx.Bucket(bucketWake)
		wake.Delete(wakeKey(t0, []byte("unindexed")))
		wake.Delete(wakeKey(t0, []byte("moved")))
		put(bucketWake, wakeKey(t0.Add(time.Hour), []byte("moved")), []byte{})
		put(bucketWake, wakeKey(t0, []byte("ghost")), []byte{})
		hist, _ := tx.Bucket(bucketHistory).CreateBucket([]byte("orphan"))
		hist.Put(turnKey(0), []byte(`{"turn":0}`))
		ok := tx.Bucket(bucketHistory).Bucket([]byte("ok"))
		ok.Put(turnKey(5), []byte(`{"turn":6}`))
		put(bucketOutbox, idKey(99), []byte(`{"id":99}`))
		put(bucketLedger, []byte("<m@x>"), []byte("yesterday"))
		put(bucketSettings, settingsKey, []byte(`{"schema_version":0}`))
		_, err := tx.CreateBucket([]byte("stray"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	err = db.Check()
	var ce *CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("Check() = %v, want a *CheckError", err)
	}
	want := []string{
		"game broken:",
		"game upper: stored under the wrong key",
		"user x@y: stored under the wrong key",
		"wake: moved at 2026-01-02T16:04:05Z: the game does not wake then",
		"wake: ghost at 2026-01-02T15:04:05Z: no such game",
		"wake: game unindexed wakes at 2026-01-02T15:04:05Z but is not in the index",
		"wake: game moved wakes at",
		"history: orphan: no such game",
		"history ok: turn 6 stored under key 0000000000000005",
		"outbox mail 99 is beyond the sequence (1)",
		`ledger "<m@x>": the value is not a time`,
		fmt.Sprintf("settings: schema 0, meta says %d", SchemaVersion),
		`unknown bucket "stray"`,
	}
	for _, w := range want {
		found := false
		for _, p := range ce.Problems {
			if strings.Contains(p, w) {
				found = true
			}
		}
		if !found {
			t.Errorf("Check did not report %q", w)
		}
	}
	if len(ce.Problems) != len(want) {
		t.Errorf("Check reported %d problems, want %d:\n%v", len(ce.Problems), len(want), err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, db.Path()+": 13 problems\n\t") {
		t.Errorf("Check error starts %q", msg[:min(len(msg), 80)])
	}
}

func TestCheckErrorBounded(t *testing.T) {
	db := openTemp(t)
	err := db.bolt.Update(func(tx *bbolt.Tx) error {
		for i := range maxProblems + 50 {
			if err := tx.Bucket(bucketUsers).Put(fmt.Appendf(nil, "u%d", i), []byte("{")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var ce *CheckError
	if !errors.As(db.Check(), &ce) {
		t.Fatal("Check found nothing")
	}
	if len(ce.Problems) != maxProblems+1 || ce.Problems[maxProblems] != "and 50 more" {
		t.Errorf("Check listed %d problems, last %q; want %d and \"and 50 more\"", len(ce.Problems), ce.Problems[len(ce.Problems)-1], maxProblems+1)
	}
}
