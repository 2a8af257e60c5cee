package session

import (
	"errors"
	"fmt"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
)

// maxBcryptPerMail is how many bcrypt operations one mail may cost: a new
// password hashed, or a password checked against its hash. bcrypt is
// slow on purpose (about 50 to 100 ms each at the default cost), and a
// mail that sets its password 99 times used to cost 7 to 11 s. An honest
// mail needs two at most: a sign-on's check, and a SET PASSWORD or a new
// seat's password. The ones beyond are refused with a line saying so.
const maxBcryptPerMail = 2

// bcryptHash and bcryptCompare are the bcrypt functions a mail's work
// calls; tests replace them to count and watch that work.
var (
	bcryptHash    = bcrypt.GenerateFromPassword
	bcryptCompare = bcrypt.CompareHashAndPassword
)

// errBcryptNeeded abandons the transaction of a mail whose commands need
// a bcrypt operation not done yet (bcryptWork.need): Handle does it with
// no lock held and runs the mail again.
var errBcryptNeeded = errors.New("gm: a password must be hashed or checked first")

// bcryptWork is the bcrypt work of one mail, done outside the database's
// write transaction: bcrypt under the lock held every other mail (and
// gmd process would give up on the lock, exit 75, and be retried). Handle
// runs the mail; where a command needs an operation not yet done, it
// sets need and returns errBcryptNeeded, which abandons the transaction;
// Handle then does the operation and runs the mail again, which finds the
// result here. Each run adds a result, and need is only set while fewer
// than maxBcryptPerMail are done, so a mail runs at most that many times
// more.
type bcryptWork struct {
	hashes map[string][]byte    // a new password → its hash
	checks map[bcryptCheck]bool // a password and hash → whether they match
	need   *bcryptJob
}

// bcryptCheck is a password to check against a hash.
type bcryptCheck struct{ hash, pw string }

// bcryptJob is one bcrypt operation a run asked for: a check when hash is
// set, a new hash otherwise.
type bcryptJob struct {
	hash []byte
	pw   string
}

// done returns how many operations were done for the mail.
func (w *bcryptWork) done() int { return len(w.hashes) + len(w.checks) }

// do does the operation asked for, at cost for a new hash; the caller
// holds no lock.
func (w *bcryptWork) do(cost int) error {
	j := w.need
	w.need = nil
	if j == nil {
		return errors.New("gm: a mail asked for bcrypt work and named none")
	}
	if j.hash != nil {
		if w.checks == nil {
			w.checks = map[bcryptCheck]bool{}
		}
		w.checks[bcryptCheck{string(j.hash), j.pw}] = bcryptCompare(j.hash, []byte(j.pw)) == nil
		return nil
	}
	h, err := bcryptHash([]byte(j.pw), cost)
	if err != nil {
		// Not the mail's fault: passwordProblem let the password in.
		return err
	}
	if w.hashes == nil {
		w.hashes = map[string][]byte{}
	}
	w.hashes[j.pw] = h
	return nil
}

// bcryptSpent is the reason given when a mail asks for more bcrypt work
// than maxBcryptPerMail.
var bcryptSpent = fmt.Sprintf("one mail may set or check at most %d passwords", maxBcryptPerMail)

// newPasswordHash returns the hash of the new password pw, or a message
// for the player when it cannot be used (a bad password, or the mail has
// had its bcrypt work), or errBcryptNeeded when the hash is still to be
// made.
func (s *session) newPasswordHash(pw string) ([]byte, string, error) {
	if msg := passwordProblem(pw); msg != "" {
		return nil, msg, nil
	}
	if h, ok := s.work.hashes[pw]; ok {
		return h, "", nil
	}
	if s.work.done() >= maxBcryptPerMail {
		return nil, bcryptSpent + ": this password was not set", nil
	}
	s.work.need = &bcryptJob{pw: pw}
	return nil, "", errBcryptNeeded
}

// passwordHash is newPasswordHash for command c: a password the judge
// refuses is reported on c's line, and the hash is nil then.
func (s *session) passwordHash(c *parser.Command, pw string) ([]byte, error) {
	hash, msg, err := s.newPasswordHash(pw)
	if err == nil && msg != "" {
		s.fail(c.Line, "%s.", engine.Capitalize(msg))
	}
	return hash, err
}

// checkPassword reports whether pw is the password of hash, for the seat
// key (Master.verified); errBcryptNeeded when bcrypt must check it first;
// errStop, with the reason in the reply, when the mail has had its bcrypt
// work.
func (s *session) checkPassword(c *parser.Command, key string, hash []byte, pw string) (bool, error) {
	if s.m.knownPassword(key, hash, pw) {
		return true, nil
	}
	if len(hash) == 0 {
		return false, nil
	}
	if ok, done := s.work.checks[bcryptCheck{string(hash), pw}]; done {
		if ok {
			s.m.rememberPassword(key, hash, pw)
		}
		return ok, nil
	}
	if s.work.done() >= maxBcryptPerMail {
		s.fail(c.Line, "The password was not checked: %s. Nothing else in this mail was done.", bcryptSpent)
		return false, errStop
	}
	s.work.need = &bcryptJob{hash: hash, pw: pw}
	return false, errBcryptNeeded
}
