package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	berrors "go.etcd.io/bbolt/errors"

	"github.com/gmdjudge/gmd/internal/diskfault"
	"github.com/gmdjudge/gmd/state"
)

// heldMails returns what the database holds.
func (h *harness) heldMails() []*state.HeldMail {
	h.t.Helper()
	var out []*state.HeldMail
	err := h.m.DB().View(func(tx *state.Tx) (err error) {
		out, err = tx.HeldMails()
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// damagePosition changes a byte of the stored position of game, the
// JSON still valid, and returns a function that puts it back.
func (h *harness) damagePosition(game string) (mend func()) {
	h.t.Helper()
	g := h.game(game)
	good := g.Position
	g.Position = bytes.Replace(good, []byte(`"par"`), []byte(`"pbr"`), 1)
	if bytes.Equal(g.Position, good) {
		h.t.Fatal("no par in the position")
	}
	h.putGame(g)
	return func() {
		g := h.game(game)
		g.Position = good
		h.putGame(g)
	}
}

// A mail that fails for a reason of its own (here a game it needs whose
// position is damaged) is held: recorded in the database with its error
// and its ledger keys, its sender told, and Take returns no error, so
// that the intake goes on. Offered again, it is not held twice. Once the
// cause is mended, RetryHeld runs it: the usual reply goes out, and it
// is held no more.
func TestTakeHoldsTheMailsOwnFault(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	mend := h.damagePosition("dt")
	addr, signon := seatOf("F")
	in := &Mail{From: addr, Subject: "orders", MessageID: "<held.1@example.org>",
		Body: fmt.Sprintf(signon, "dt") + "\nA Par - Bur\n", Ledger: []string{"imap/judge/INBOX/1/9"}}

	before := h.lastID()
	taken, err := h.m.Take(in, h.now)
	id := taken.Held
	if err != nil || id == 0 {
		t.Fatalf("Take of a mail for a damaged game: held %d, %v; want it held and no error", id, err)
	}
	r := onlyTo(t, h.since(before), addr)
	mustContain(t, r.Body, "could not be handled, so nothing in it was done")
	mustContain(t, r.Body, fmt.Sprintf("as held mail %d", id))
	if strings.Contains(r.Body, "pbr") || strings.Contains(r.Body, ".db") {
		t.Errorf("the reply shows the judge's internals:\n%s", r.Body)
	}
	held := h.heldMails()
	if len(held) != 1 || held[0].ID != id || held[0].Body != in.Body || held[0].From != addr ||
		!strings.Contains(held[0].Error, "game dt: stored position") || held[0].Tries != 1 {
		t.Fatalf("held mails %+v", held)
	}

	before = h.lastID()
	if again, err := h.m.Take(in, h.now); again.Held != 0 || !again.Before || err != nil {
		t.Errorf("Take of the same mail again: %+v, %v; want nothing done, and Before", again, err)
	}
	if n := len(h.heldMails()); n != 1 || len(h.since(before)) != 0 {
		t.Errorf("offered again: %d held, %d mails queued; want 1 and none", n, len(h.since(before)))
	}

	// Retried while the cause is still there: still held, a try more,
	// nobody told again.
	cause, err := h.m.RetryHeld(id, h.now)
	if err != nil || !errors.Is(cause, state.ErrDamaged) {
		t.Errorf("RetryHeld before the mend: cause %v, err %v", cause, err)
	}
	if held := h.heldMails(); len(held) != 1 || held[0].Tries != 2 || len(h.since(before)) != 0 {
		t.Errorf("after a failed retry: %+v, %d mails queued", held, len(h.since(before)))
	}

	mend()
	if cause, err := h.m.RetryHeld(id, h.now); cause != nil || err != nil {
		t.Fatalf("RetryHeld once mended: cause %v, err %v", cause, err)
	}
	mustContain(t, onlyTo(t, h.since(before), addr).Body, "Army Paris -> Burgundy")
	if n := len(h.heldMails()); n != 0 {
		t.Errorf("%d mails still held after a retry that went through", n)
	}
	if _, err := h.m.RetryHeld(id, h.now); !errors.Is(err, state.ErrNotFound) {
		t.Errorf("RetryHeld of a mail no longer held: %v, want ErrNotFound", err)
	}
}

// While the database cannot be written, a mail is the judge's trouble:
// Take returns an error JudgesFault knows, and nothing is held or
// recorded, so that the mail is offered again, in order.
func TestTakeJudgesFault(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	in := &Mail{From: "france@example.org", Subject: "orders", MessageID: "<tf.1@example.org>",
		Body: "SIGNON Fdt pw-f\nA Par - Bur\n"}
	fault := diskfault.BreakTest(t, h.m.DB().Path())
	taken, err := h.m.Take(in, h.now)
	if err == nil || !JudgesFault(err) || taken != (Taken{}) {
		t.Errorf("Take on a database that cannot be written: %+v, %v; want an error of the judge's", taken, err)
	}
	if err := fault.Mend(); err != nil {
		t.Fatal(err)
	}
	if n := len(h.heldMails()); n != 0 {
		t.Errorf("%d mails held for the judge's own trouble", n)
	}
	if taken, err := h.m.Take(in, h.now); taken != (Taken{}) || err != nil {
		t.Errorf("Take once mended: %+v, %v", taken, err)
	}
}

// JudgesFault tells the judge's troubles from the mail's.
func TestJudgesFault(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&fs.PathError{Op: "write", Path: "gmd.db", Err: syscall.ENOSPC}, true},
		{fmt.Errorf("commit: %w", syscall.EIO), true},
		{berrors.ErrTimeout, true},
		{berrors.ErrDatabaseReadOnly, true},
		{context.Canceled, true},
		{&state.DamageError{Wedged: true}, true},
		{&state.DamageError{}, false},
		{fmt.Errorf("game dt: %w", state.ErrDamaged), false},
		{berrors.ErrKeyTooLarge, false},
		{berrors.ErrValueTooLarge, false},
		{errors.New("json: error calling MarshalJSON for type time.Time"), false},
		{&handlerPanic{value: "boom"}, false},
	} {
		if got := JudgesFault(c.err); got != c.want {
			t.Errorf("JudgesFault(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
