package ctl

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// The held requests: list (bodies left out), retry through the hook,
// each ID on its own, and drop, all of them or none.
func TestHeldRequests(t *testing.T) {
	db, err := state.Open(filepath.Join(t.TempDir(), "gmd.db"))
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *state.Tx) error {
		return errors.Join(
			tx.HoldMail(&state.HeldMail{From: "a@x.org", Subject: "one", Body: "long body", Error: "game dt: damaged"}),
			tx.HoldMail(&state.HeldMail{From: "b@x.org", Subject: "two", Error: "panic: boom"}),
		)
	})
	if err != nil {
		t.Fatal(err)
	}
	var retried []uint64
	retry := func(id uint64) (cause, err error) {
		retried = append(retried, id)
		switch id {
		case 1:
			return nil, nil
		case 2:
			return errors.New("still broken"), nil
		}
		return nil, errors.New("no held mail")
	}
	sock := SocketPath(db.Path())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeJudge(ctx, sock, db, Hooks{RetryHeld: retry}) }()
	waitFor(t, sock)
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		db.Close()
	}()

	mails, err := Held(sock)
	if err != nil || len(mails) != 2 || mails[0].Subject != "one" || mails[0].Body != "" || mails[1].Error != "panic: boom" {
		t.Fatalf("Held: %+v, %v", mails, err)
	}
	results, err := RetryHeld(sock, []uint64{1, 2, 9})
	want := []HeldRetry{{ID: 1, Handled: true}, {ID: 2, Error: "still broken"}, {ID: 9, Error: "no held mail"}}
	if err != nil || len(results) != 3 || results[0] != want[0] || results[1] != want[1] || results[2] != want[2] {
		t.Errorf("RetryHeld: %+v, %v; want %+v", results, err, want)
	}
	if _, err := DropHeld(sock, []uint64{2, 7}); err == nil || !strings.Contains(err.Error(), "no held mail 7") {
		t.Errorf("DropHeld of an unknown ID: %v", err)
	}
	if n, err := DropHeld(sock, []uint64{1, 2}); n != 2 || err != nil {
		t.Errorf("DropHeld: %d, %v", n, err)
	}
	if mails, err := Held(sock); len(mails) != 0 || err != nil {
		t.Errorf("Held after the drop: %+v, %v", mails, err)
	}
	if _, err := ask(sock, "held frobnicate"); err == nil || !strings.Contains(err.Error(), "unknown held request") {
		t.Errorf("an unknown request: %v", err)
	}
}
