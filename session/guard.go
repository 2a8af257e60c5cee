package session

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// The limits on password guessing. Anyone can mail the judge a SIGNON
// with a guess, under any From, and a mail costs the attacker nothing;
// bcrypt makes each guess slow for the judge, not rare. So wrong
// passwords are counted per game, in the game's record, and every path
// that checks a password goes through checkSeat, which counts them and
// checks no password past these limits:
//
//   - fewer than senderFailures wrong passwords from the sender's
//     address for the game within the last senderWindow: a player who
//     mistyped a few times waits a little, and a guesser gets 5 guesses
//     per address per quarter of an hour;
//   - fewer than gameFailures wrong passwords for the game, from any
//     addresses, the seats' own included, within the last gameWindow:
//     a game's seats together face at most 20 guesses an hour,
//     whichever addresses and seats the guesser writes from or to. (The
//     seats' own addresses were once spared this limit, and a guesser
//     forging each seat's address in turn got 180 guesses in 49
//     minutes against one game.)
//
// Both are sliding windows: in any hour, at most gameFailures passwords
// of a game are found wrong. During a lockout the password is not
// checked at all, right or wrong, so that the lockout gives nothing
// away; the reply says until when. Since anyone can forge a player's
// address, a lockout must not keep the player out: the reply to a mail
// from a seat's own address (which goes to that address, not to a
// forger) gives a confirmation code, and a mail with the code and the
// password has its password checked during the lockout, once per code
// (codes are used once). A guesser, who never sees the code, stays held.
// Where senders are authenticated (Config.SenderAuth checks), From
// proves the address, and the game's limit spares a seat's own address
// signing on to that seat, which its own limit still holds.
// Sign-ons that check no password (joining a forming game, taking over
// an abandoned power, a first OBSERVE) are not limited: each needs a
// code mailed to the address instead. A right password forgets the
// sender's earlier mistakes for the game.
const (
	senderFailures = 5
	senderWindow   = 15 * time.Minute
	gameFailures   = 20
	gameWindow     = time.Hour

	// maxFailures bounds the failures kept per game. The limits bound
	// them already, to gameFailures an hour and one per unlock code;
	// this is for safety.
	maxFailures = 100
)

// checkSeat checks pw, the password given for a seat of g whose own
// address is owner, against hash, under the limits above; key names the
// seat for session.checkPassword. It is the one place where a mail's
// password is checked. It returns true for the right password.
// Otherwise the reply says why (wrong, or locked out), the failure is
// recorded in g, and the error is errStop, or a database error.
func (s *session) checkSeat(c *parser.Command, g *state.Game, key string, hash []byte, pw, owner string) (bool, error) {
	sender := strings.ToLower(s.in.From)
	pruneGuard(g, s.now)
	own := engine.SameAddr(sender, owner)
	// Only an authenticated From proves that the mail comes from the
	// seat's own address, which the game's limit may then spare.
	spare := own && s.m.cfg.SenderAuth.Require.Checks()
	until, gameLock := lockedOut(g, sender, spare, s.now)
	// The seat's own address may be locked by anyone's forged mails; a
	// code mailed to it proves the mail comes from there, and lets the
	// password be checked, once. The lockout stays for the mails
	// without it.
	unlocked := !until.IsZero() && own && s.confirmed(g, confirmUnlock, "")
	if unlocked {
		if err := s.useCode(g, confirmUnlock, ""); err != nil {
			return false, err
		}
	}
	if !until.IsZero() && !unlocked {
		s.fail(c.Line, "%s. Nothing else in this mail was done.", lockMessage(g, until, gameLock, s.now))
		if own {
			if err := s.offerUnlock(c, g); err != nil {
				return false, err
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
	if until, gameLock := lockedOut(g, sender, spare, s.now); !until.IsZero() {
		s.printf("%s.", lockMessage(g, until, gameLock, s.now))
		if holdsSeat(g, sender) {
			if err := s.offerUnlock(c, g); err != nil {
				return false, err
			}
		}
	}
	// The session does not sign on to g, so Handle would not write it.
	if err := s.tx.PutGame(g); err != nil {
		return false, err
	}
	return false, errStop
}

// lockMessage says why sign-ons are locked, and until when.
func lockMessage(g *state.Game, until time.Time, gameLock bool, now time.Time) string {
	if gameLock {
		return fmt.Sprintf("Too many wrong passwords for game '%s': its sign-ons are locked until %s; a mail from a seat's own address is answered with a code that lets it in",
			g.Name, lockTime(until, now))
	}
	return fmt.Sprintf("Too many wrong passwords for game '%s' from you: sign-ons are locked until %s", g.Name, lockTime(until, now))
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
	return engine.SameAddr(g.MasterAddr, addr) || engine.PlayerByAddr(g, addr) >= 0 || engine.ObserverByAddr(g, addr) >= 0
}

// pruneGuard forgets the failures too old to count, and the lockouts
// that judges before the sliding windows stored.
func pruneGuard(g *state.Game, now time.Time) {
	g.FailedSignons = slices.DeleteFunc(g.FailedSignons, func(f state.SignonFailure) bool {
		return !f.At.After(now.Add(-gameWindow))
	})
	if len(g.FailedSignons) == 0 {
		g.FailedSignons = nil
	}
}

// lockedOut returns when sender (lower case) may have a password for g
// checked again, and whether it is the game's limit that holds it; zero
// if it may now. A limit of n failures within a window holds until the
// n-th latest of them leaves the window. With spare, only the sender's
// own limit holds.
func lockedOut(g *state.Game, sender string, spare bool, now time.Time) (until time.Time, game bool) {
	var mine, all []time.Time
	for _, f := range g.FailedSignons {
		if !f.At.After(now.Add(-gameWindow)) {
			continue
		}
		all = append(all, f.At)
		if f.Addr == sender && f.At.After(now.Add(-senderWindow)) {
			mine = append(mine, f.At)
		}
	}
	slices.SortFunc(all, time.Time.Compare)
	slices.SortFunc(mine, time.Time.Compare)
	if n := len(mine); n >= senderFailures {
		until = mine[n-senderFailures].Add(senderWindow)
	}
	if n := len(all); n >= gameFailures && !spare {
		if t := all[n-gameFailures].Add(gameWindow); t.After(until) {
			until, game = t, true
		}
	}
	return until, game
}

// lockTime writes the end of a lockout for the reply: "12:45 UTC", with
// the date when it is not today's; rounded up to the minute, so that a
// mail sent at the time it says is not refused.
func lockTime(t, now time.Time) string {
	if r := t.Truncate(time.Minute); r.Before(t) {
		t = r.Add(time.Minute)
	}
	t, now = t.UTC(), now.UTC()
	if y, m, d := t.Date(); y != now.Year() || m != now.Month() || d != now.Day() {
		return t.Format("15:04 UTC on 2 January")
	}
	return t.Format("15:04 UTC")
}
