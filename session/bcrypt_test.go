package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// watchBcrypt replaces the bcrypt functions for the test: each call is
// counted, and first commits a transaction of its own on m's database,
// which it could not do while the mail's transaction held the write
// lock. The counts are of hashes and of checks.
func watchBcrypt(t *testing.T, m *Master) (hashes, checks *int) {
	hashes, checks = new(int), new(int)
	hash, compare := bcryptHash, bcryptCompare
	t.Cleanup(func() { bcryptHash, bcryptCompare = hash, compare })
	unlocked := func() {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- m.DB().Update(func(*state.Tx) error { return nil }) }()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(30 * time.Second): // a deadlock, not a slow disk
			t.Fatal("bcrypt ran while the mail's transaction held the database")
		}
	}
	bcryptHash = func(pw []byte, cost int) ([]byte, error) {
		*hashes++
		unlocked()
		return hash(pw, cost)
	}
	bcryptCompare = func(h, pw []byte) error {
		*checks++
		unlocked()
		return compare(h, pw)
	}
	return hashes, checks
}

// OBSERVE and 99 SET PASSWORD cost 100 bcrypt hashes, under the write
// lock. Now a mail gets two, done with no lock held, and every later SET
// PASSWORD is refused with a line saying so.
func TestBcryptPerMail(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	hashes, checks := watchBcrypt(t, h.m)
	// The observer's address is confirmed first: that costs no bcrypt.
	code := codeIn(t, replyTo(t, h.mail("watcher@example.org", "w", "OBSERVE dt first"), "watcher@example.org").Body)
	var b strings.Builder
	b.WriteString("CONFIRM " + code + "\nOBSERVE dt first\n")
	for i := range 99 {
		fmt.Fprintf(&b, "SET PASSWORD pw%d\n", i)
	}
	r := replyTo(t, h.mail("watcher@example.org", "w", b.String()), "watcher@example.org")
	if *hashes != 2 || *checks != 0 {
		t.Errorf("%d hashes and %d checks for the mail, want 2 and 0", *hashes, *checks)
	}
	if n := strings.Count(r.Body, "Error (line "); n != 98 {
		t.Errorf("%d lines refused, want 98:\n%s", n, r.Body)
	}
	mustContain(t, r.Body, "Error (line 4): One mail may set or check at most 2 passwords: this password was not set.")

	// The one password set is the first.
	*hashes = 0
	r = replyTo(t, h.mail("watcher@example.org", "w", "OBSERVE dt pw0\n"), "watcher@example.org")
	mustContain(t, r.Body, "You are observing game 'dt'.")
	if *checks != 1 || *hashes != 0 {
		t.Errorf("a sign-on cost %d checks and %d hashes, want 1 and 0", *checks, *hashes)
	}
	// A check and a hash: the sign-on and a new password; the rest refused.
	*checks = 0
	r = replyTo(t, h.orders("dt", "F", "SET PASSWORD new-f\nSET PASSWORD newer-f\n"), "france@example.org")
	if *checks != 1 || *hashes != 1 {
		t.Errorf("a sign-on and two new passwords cost %d checks and %d hashes, want 1 and 1", *checks, *hashes)
	}
	mustContain(t, r.Body, "Password changed.", "One mail may set or check at most 2 passwords: this password was not set.")
}
