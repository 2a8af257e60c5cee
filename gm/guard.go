package gm

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// The limits on password guessing. Anyone can mail the judge a SIGNON
// with a guess, under any From, and a mail costs the attacker nothing;
// bcrypt makes each guess slow for the judge, not rare. So wrong
// passwords are counted per game, in the game's record, and past a few
// the game stops looking at passwords for a while:
//
//   - senderFailures wrong passwords from one address for one game within
//     senderWindow lock that address out of the game's sign-ons for
//     senderLockout: a player who mistyped a few times waits a quarter of
//     an hour, a guesser gets 20 guesses an hour per address.
//   - gameFailures wrong passwords for one game, from any addresses,
//     within gameWindow lock the game's sign-ons for gameLockout from
//     every address but the seat's own: the address on record for the
//     power signed on as, the master's address for the master. Guessing
//     from many addresses (From costs nothing to forge) stops there,
//     while the players, writing from their own addresses, play on: a
//     lock for everyone would let anyone stop a game with 20 mails an
//     hour. A guesser who forges a player's own address is still held to
//     that address's limit.
//
// During a lockout the password is not checked at all, right or wrong,
// so that the lockout gives nothing away; the reply says until when.
// Since anyone can forge a player's address, a lockout of that address
// must not keep the player out: the reply to it (which goes to that
// address, not to the forger) gives a confirmation code, and a mail with
// the code and the right password signs on to the address's own seat
// during the lockout. A guesser, who never sees the code, stays held.
// Sign-ons that check no password (joining a forming game, taking over
// an abandoned power, a first OBSERVE) are not limited. A right password
// forgets the sender's earlier mistakes for the game.
const (
	senderFailures = 5
	senderWindow   = 15 * time.Minute
	senderLockout  = 15 * time.Minute
	gameFailures   = 20
	gameWindow     = time.Hour
	gameLockout    = time.Hour

	// maxFailures bounds the failures kept per game. The limits bound
	// them already (a locked sender's tries are not counted), to about
	// gameFailures plus senderFailures an owner's address per lockout;
	// this is for safety.
	maxFailures = 100
)

// checkSeat checks pw, the password given for a seat of g whose own
// address is owner, against hash, under the limits above; key names the
// seat for session.checkPassword. It returns true for the right password.
// Otherwise the reply says why (wrong, or locked out), the failure is
// recorded in g, and the error is errStop, or a database error.
func (s *session) checkSeat(c *parser.Command, g *state.Game, key string, hash []byte, pw, owner string) (bool, error) {
	sender := strings.ToLower(s.in.From)
	pruneGuard(g, s.now)
	until, gameLock := lockedOut(g, sender, owner, s.now)
	// The seat's own address is locked only by its own lockout, which
	// anyone can bring about with forged mails; a code mailed to it
	// proves the mail comes from there, and lets the password be
	// checked. The lockout stays for the mails without it.
	unlocked := !until.IsZero() && !gameLock && sameAddr(sender, owner) && s.confirmed(g, confirmUnlock, "")
	if !until.IsZero() && !unlocked {
		if gameLock {
			s.fail(c.Line, "Too many wrong passwords for game '%s': its sign-ons are locked until %s, but from the address each seat belongs to. Nothing else in this mail was done.",
				g.Name, lockTime(until, s.now))
		} else {
			s.fail(c.Line, "Too many wrong passwords for game '%s' from you: sign-ons are locked until %s. Nothing else in this mail was done.",
				g.Name, lockTime(until, s.now))
			if sameAddr(sender, owner) {
				if err := s.offerUnlock(c, g); err != nil {
					return false, err
				}
			}
		}
		return false, errStop
	}
	right, err := s.checkPassword(c, key, hash, pw)
	if err != nil {
		return false, err
	}
	if right {
		if unlocked {
			// The mistakes are kept: they may be a guesser's, whom
			// the lockout must go on holding back.
			return true, nil
		}
		n := len(g.FailedSignons)
		g.FailedSignons = slices.DeleteFunc(g.FailedSignons, func(f state.SignonFailure) bool { return f.Addr == sender })
		if len(g.FailedSignons) != n {
			s.dirty = true // the caller signs on to g, which Handle then writes
		}
		return true, nil
	}

	g.FailedSignons = append(g.FailedSignons, state.SignonFailure{Addr: sender, At: s.now})
	if n := len(g.FailedSignons); n > maxFailures {
		g.FailedSignons = slices.Delete(g.FailedSignons, 0, n-maxFailures)
	}
	s.fail(c.Line, "Wrong password for game '%s'. Nothing else in this mail was done.", g.Name)
	mine, all := 0, 0
	for _, f := range g.FailedSignons {
		if f.At.After(s.now.Add(-gameWindow)) {
			all++
		}
		if f.Addr == sender && f.At.After(s.now.Add(-senderWindow)) {
			mine++
		}
	}
	if mine >= senderFailures {
		until := lockEnd(s.now, senderLockout)
		g.SignonLocks = append(g.SignonLocks, state.SignonLock{Addr: sender, Until: until})
		s.printf("Too many wrong passwords for game '%s' from you: sign-ons are locked until %s.", g.Name, lockTime(until, s.now))
		if holdsSeat(g, sender) {
			if err := s.offerUnlock(c, g); err != nil {
				return false, err
			}
		}
	}
	if all >= gameFailures && !slices.ContainsFunc(g.SignonLocks, func(l state.SignonLock) bool { return l.Addr == "" }) {
		until := lockEnd(s.now, gameLockout)
		g.SignonLocks = append(g.SignonLocks, state.SignonLock{Until: until})
		s.printf("Too many wrong passwords for game '%s': its sign-ons are locked until %s, but from the address each seat belongs to.",
			g.Name, lockTime(until, s.now))
	}
	// The session does not sign on to g, so Handle would not write it.
	if err := s.tx.PutGame(g); err != nil {
		return false, err
	}
	return false, errStop
}

// offerUnlock adds to the reply the code with which the sender, locked
// out of g, may still sign on to their own seat: the reply goes to the
// sender's address only, so whoever forged it to cause the lockout never
// sees the code.
func (s *session) offerUnlock(c *parser.Command, g *state.Game) error {
	return s.askConfirmation(c, g, confirmUnlock, "", fmt.Sprintf("sign on to game '%s' during the lockout", g.Name))
}

// holdsSeat reports whether addr is the address of a seat of g: a
// player's, the master's or an observer's.
func holdsSeat(g *state.Game, addr string) bool {
	return sameAddr(g.MasterAddr, addr) || playerByAddr(g, addr) >= 0 || observerByAddr(g, addr) >= 0
}

// pruneGuard forgets the failures too old to count and the lockouts
// that are over.
func pruneGuard(g *state.Game, now time.Time) {
	g.FailedSignons = slices.DeleteFunc(g.FailedSignons, func(f state.SignonFailure) bool {
		return !f.At.After(now.Add(-gameWindow))
	})
	g.SignonLocks = slices.DeleteFunc(g.SignonLocks, func(l state.SignonLock) bool { return !now.Before(l.Until) })
	if len(g.FailedSignons) == 0 {
		g.FailedSignons = nil
	}
	if len(g.SignonLocks) == 0 {
		g.SignonLocks = nil
	}
}

// lockedOut returns the end of the lockout that keeps sender (lower
// case) from signing on to a seat of g belonging to owner, and whether
// it is the game's lockout; zero if sender may sign on.
func lockedOut(g *state.Game, sender, owner string, now time.Time) (until time.Time, all bool) {
	for _, l := range g.SignonLocks {
		if !now.Before(l.Until) {
			continue
		}
		if l.Addr == sender || l.Addr == "" && !sameAddr(sender, owner) {
			if l.Until.After(until) {
				until, all = l.Until, l.Addr == ""
			}
		}
	}
	return until, all
}

// lockEnd returns when a lockout of d from now ends: rounded up to the
// minute, as the reply shows it.
func lockEnd(now time.Time, d time.Duration) time.Time {
	end := now.Add(d)
	if t := end.Truncate(time.Minute); t.Before(end) {
		end = t.Add(time.Minute)
	}
	return end
}

// lockTime writes the end of a lockout for the reply: "12:45 UTC", with
// the date when it is not today's.
func lockTime(t, now time.Time) string {
	t, now = t.UTC(), now.UTC()
	if y, m, d := t.Date(); y != now.Year() || m != now.Month() || d != now.Day() {
		return t.Format("15:04 UTC on 2 January")
	}
	return t.Format("15:04 UTC")
}
