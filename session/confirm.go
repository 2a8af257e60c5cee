package session

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// Confirmation codes. The From line of a mail proves nothing, so what
// would have the judge mail an address that never asked for it (a new
// observer, a new game's master), or hand a seat to an address (a join,
// a takeover), or let an address past a lockout that forged mails
// caused, needs proof that the sender reads that address's mail. The
// judge gives a code in its reply, which goes to that address only; the
// sender sends it back with a line CONFIRM code in the mail that repeats
// the request.
//
// A code is an HMAC, under the game's ConfirmKey (the judge's key, for a
// game yet to be created), of what it confirms (kind, game, address,
// seat) and of the day it was given. Nothing is stored per request:
// forged requests cost no space and cannot push a real one out, and the
// same request gets the same code all day, so a new mail never spoils a
// code already sent. A code is good on the day it was given and the
// next, at least 24 hours, and once: the game counts the codes used for
// each request (Game.CodesUsed), and the count is part of the HMAC, so
// that the code a mail used fits no later mail (a confirming mail sent
// again, with a new Message-ID, re-subscribed an observer who had left)
// and the request's next code is a new one. A game's CREATE code needs
// no count: once used, the name is taken.
const (
	confirmDay = 24 * time.Hour
	// codeLen letters of confirmAlphabet carry 50 bits: a guesser with
	// a thousand forged mails a second would need centuries.
	codeLen         = 10
	confirmAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789" // no I, O, 0, 1
)

// What a code confirms.
const (
	confirmObserve  = "observe"  // the address may get the game's mail as an observer
	confirmTakeover = "takeover" // the address may take over the seat of a power
	confirmUnlock   = "unlock"   // the seat's own address may sign on past its lockout
	confirmJoin     = "join"     // the address may take a seat in a forming game
	confirmCreate   = "create"   // the address may create a game and be its master
	confirmPromote  = "promote"  // the observer accepts to be a co-master (PROMOTE)
)

// judgeKeyMeta is the Meta key of the judge's own confirmation key, for
// the codes about a game that does not exist yet (CREATE): made on first
// need, like a game's ConfirmKey, and never shown.
const judgeKeyMeta = "gm.confirm-key"

// maxCodeUses bounds Game.CodesUsed. Each entry took a code that only
// the address's reader had, so honest games stay far below; past it the
// entry used longest ago goes, and a code it counted (mailed to that
// address, two days old at most) would fit once more.
const maxCodeUses = 500

// confirmCode returns the code for kind, game, addr and seat on day
// (days since the Unix epoch), under key, after used codes for them.
func confirmCode(key []byte, kind, game, addr, seat string, day int64, used int) string {
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s\x00%s\x00%s\x00%s\x00%d", kind, game, strings.ToLower(addr), seat, day)
	if used > 0 {
		// The first code of a request is the one judges before the
		// count gave, so that codes already mailed stay good.
		fmt.Fprintf(mac, "\x00%d", used)
	}
	v := binary.BigEndian.Uint64(mac.Sum(nil))
	code := make([]byte, codeLen)
	for i := range code {
		code[i] = confirmAlphabet[v&31]
		v >>= 5
	}
	return string(code)
}

// confirmDayOf returns the day number of t for confirmCode.
func confirmDayOf(t time.Time) int64 { return t.Unix() / int64(confirmDay/time.Second) }

// normalizeCode returns a code as a player wrote it, in upper case and
// without the spaces or dashes a player or mail client may add.
func normalizeCode(s string) string {
	return strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(s))
}

// cmdConfirm handles CONFIRM code. The codes of a mail are gathered
// before any command runs (see session.run), so that the line may come
// before or after the command it confirms; the command itself does
// nothing more.
func (s *session) cmdConfirm(c *parser.Command) error {
	if len(c.Args) == 0 {
		s.fail(c.Line, "Use: CONFIRM code, with the code the judge mailed to you.")
	}
	return nil
}

// gatherCodes keeps the codes of the CONFIRM lines of a mail, at most a
// few: no honest mail has more than one.
func (s *session) gatherCodes(cmds []parser.Command) {
	for i := range cmds {
		if c := &cmds[i]; c.Name == "CONFIRM" && len(c.Args) > 0 && len(s.codes) < 3 {
			s.codes = append(s.codes, normalizeCode(strings.Join(c.Args, "")))
		}
	}
}

// confirmed reports whether the mail carries a valid code for kind and
// seat in g from its sender, not used yet. The caller that acts on it
// calls useCode in the same transaction.
func (s *session) confirmed(g *state.Game, kind, seat string) bool {
	return s.codeFits(g.ConfirmKey, kind, g.Name, seat, codesUsed(g, codeUseOf(kind, s.in.From, seat), s.now))
}

// useCode records that the code confirmed for kind and seat in g was
// used, so that it fits no later mail.
func (s *session) useCode(g *state.Game, kind, seat string) error {
	of := codeUseOf(kind, s.in.From, seat)
	pruneCodeUses(g, s.now)
	i := slices.IndexFunc(g.CodesUsed, func(u state.CodeUse) bool { return u.Of == of })
	if i < 0 {
		if len(g.CodesUsed) >= maxCodeUses {
			oldest := 0
			for j, u := range g.CodesUsed {
				if u.Last.Before(g.CodesUsed[oldest].Last) {
					oldest = j
				}
			}
			g.CodesUsed = slices.Delete(g.CodesUsed, oldest, oldest+1)
		}
		g.CodesUsed = append(g.CodesUsed, state.CodeUse{Of: of})
		i = len(g.CodesUsed) - 1
	}
	g.CodesUsed[i].N++
	g.CodesUsed[i].Last = s.now.UTC()
	// The session may not sign on to g, and Handle writes only the game
	// signed on to.
	return s.tx.PutGame(g)
}

// codeUseOf names a request in Game.CodesUsed.
func codeUseOf(kind, addr, seat string) string {
	return kind + " " + strings.ToLower(strings.TrimSpace(addr)) + " " + seat
}

// codesUsed returns how many codes were used for the request of, among
// the uses that still count at now.
func codesUsed(g *state.Game, of string, now time.Time) int {
	for _, u := range g.CodesUsed {
		if u.Of == of && codeUseCounts(u, now) {
			return u.N
		}
	}
	return 0
}

// codeUseCounts reports whether a code u counted could still be good at
// now: one given on the day of the last use or before is good until the
// end of the next day.
func codeUseCounts(u state.CodeUse, now time.Time) bool {
	return confirmDayOf(now) <= confirmDayOf(u.Last)+1
}

// pruneCodeUses forgets the uses whose codes are all too old to fit.
func pruneCodeUses(g *state.Game, now time.Time) {
	g.CodesUsed = slices.DeleteFunc(g.CodesUsed, func(u state.CodeUse) bool { return !codeUseCounts(u, now) })
	if len(g.CodesUsed) == 0 {
		g.CodesUsed = nil
	}
}

// confirmedCreate reports whether the mail carries a valid code from its
// sender for creating the game name.
func (s *session) confirmedCreate(name string) (bool, error) {
	key, err := s.judgeKey(false)
	if err != nil {
		return false, err
	}
	return s.codeFits(key, confirmCreate, name, "", 0), nil
}

// codeFits reports whether one of the mail's codes is the code under key
// for kind, game and seat from the sender after used codes, given today
// or yesterday. A nil key has given no code yet.
func (s *session) codeFits(key []byte, kind, game, seat string, used int) bool {
	s.codeAsked = true
	if len(key) == 0 || len(s.codes) == 0 {
		return false
	}
	day := confirmDayOf(s.now)
	for _, d := range []int64{day, day - 1} {
		want := confirmCode(key, kind, game, s.in.From, seat, d, used)
		for _, got := range s.codes {
			if subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1 {
				return true
			}
		}
	}
	return false
}

// newConfirmKey returns a new secret for confirmation codes.
func newConfirmKey() ([]byte, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return key, nil
}

// judgeKey returns the judge's confirmation key, stored in Meta. With
// create, a judge without one gets one; without, nil is returned then.
func (s *session) judgeKey(create bool) ([]byte, error) {
	key, err := s.tx.Meta(judgeKeyMeta)
	if err != nil || len(key) > 0 || !create {
		return key, err
	}
	if key, err = newConfirmKey(); err != nil {
		return nil, err
	}
	return key, s.tx.PutMeta(judgeKeyMeta, key)
}

// confirmData is the data of confirm.tmpl.
type confirmData struct {
	Judge   string // the judge's address
	Addr    string // the sender's address, which the code proves
	Kind    string // "observe", "takeover", "unlock", "join" or "create"
	What    string // what the code allows, as the end of a sentence: "observe game 'dt'"
	Code    string
	Command string // the line to send with the code: "OBSERVE dt <your password>"
	Wrong   bool   // the mail had a code, wrong or too old
}

// askConfirmation adds to the reply the code that confirms kind and seat
// in g for the sender, with how to use it: command is the command that
// needs it, repeated in the confirming mail with the password left out.
// The reply goes to the sender's address only, which is what makes the
// code a proof.
func (s *session) askConfirmation(c *parser.Command, g *state.Game, kind, seat, what string) error {
	command := c.Name
	if len(c.Args) > 0 {
		command += " " + c.Args[0]
	}
	key, err := s.gameKey(g)
	if err != nil {
		return err
	}
	return s.offerCode(key, kind, g.Name, seat, what, command+" <your password>", codesUsed(g, codeUseOf(kind, s.in.From, seat), s.now))
}

// gameKey returns g's ConfirmKey, which g gets the first time.
func (s *session) gameKey(g *state.Game) ([]byte, error) {
	if len(g.ConfirmKey) > 0 {
		return g.ConfirmKey, nil
	}
	key, err := newConfirmKey()
	if err != nil {
		return nil, err
	}
	g.ConfirmKey = key
	// The session may not sign on to g, and Handle writes only the game
	// signed on to.
	return key, s.tx.PutGame(g)
}

// askCreateConfirmation adds to the reply the code that confirms the
// creation of the game name by the sender; command is the line to send
// with it. The judge gets its key the first time.
func (s *session) askCreateConfirmation(name, command string) error {
	key, err := s.judgeKey(true)
	if err != nil {
		return err
	}
	return s.offerCode(key, confirmCreate, name, "", fmt.Sprintf("create game '%s'", name), command, 0)
}

// offerCode adds to the reply the code under key for kind, game and seat
// after used codes, with what it allows and command, the line to send
// back with it.
func (s *session) offerCode(key []byte, kind, game, seat, what, command string, used int) error {
	_, body, err := s.m.tmpl.Render("confirm", confirmData{
		Judge:   s.m.cfg.JudgeAddr,
		Addr:    s.in.From,
		Kind:    kind,
		What:    what,
		Code:    confirmCode(key, kind, game, s.in.From, seat, confirmDayOf(s.now), used),
		Command: command,
		Wrong:   len(s.codes) > 0,
	})
	if err != nil {
		return err
	}
	s.paragraph()
	s.reply.WriteString(strings.TrimRight(body, "\n"))
	s.reply.WriteByte('\n')
	return nil
}
