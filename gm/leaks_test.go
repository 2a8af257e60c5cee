package gm

import (
	"testing"
)

// Tests of the smaller leaks of issue 11: what a mail gives away that it
// should not, and what a stranger can do to somebody else's mail.

// A game that has not started has no deadline, and its mails say so
// rather than show njudge's epoch, which reads as a deadline long past.
func TestFormingGameShowsNoDeadline(t *testing.T) {
	h := newHarness(t)
	created := onlyTo(t, h.mail(testMaster, "new", "CREATE ?fg "+testMasterPass), testMaster)
	joined := onlyTo(t, h.mail("austria@example.org", "join", "SIGNON ?fg pw-a"), "austria@example.org")
	for _, r := range []string{created.Body, joined.Body} {
		mustContain(t, r, ":: Deadline: S1901M none (the game has not started)")
		mustNotContain(t, r, "1970")
	}
}
