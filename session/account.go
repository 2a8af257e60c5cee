package session

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// verifiedPass is an entry of Master.verified: the hash a password was
// checked against, and the SHA-256 of that password. Keeping the hash
// makes the entry stale by itself when the password changes.
type verifiedPass struct {
	hash string
	sum  [sha256.Size]byte
}

// knownPassword reports whether pw was verified against hash for the seat
// key before, in this process: then it is right without bcrypt.
func (m *Master) knownPassword(key string, hash []byte, pw string) bool {
	sum := sha256.Sum256([]byte(pw))
	if v, ok := m.verified.Load(key); ok {
		vp := v.(verifiedPass)
		return vp.hash == string(hash) && subtle.ConstantTimeCompare(vp.sum[:], sum[:]) == 1
	}
	return false
}

// rememberPassword records that pw is the password of hash for the seat
// key, for knownPassword.
func (m *Master) rememberPassword(key string, hash []byte, pw string) {
	m.verified.Store(key, verifiedPass{hash: string(hash), sum: sha256.Sum256([]byte(pw))})
}

// passwordProblem returns why pw cannot be a new password, or "".
func passwordProblem(pw string) string {
	switch {
	case pw == "":
		return "a password is needed"
	case len(pw) > 64:
		return "the password is too long (at most 64 characters)"
	}
	return ""
}

// hashPassword returns the bcrypt hash of a new password, at the cost of
// Config.PasswordCost, or a message for the player when the password
// cannot be used. A mail's commands call session.newPasswordHash instead,
// which keeps bcrypt out of the write transaction.
func (m *Master) hashPassword(pw string) ([]byte, string) {
	if msg := passwordProblem(pw); msg != "" {
		return nil, msg
	}
	h, err := bcrypt.GenerateFromPassword([]byte(pw), m.cfg.PasswordCost)
	if err != nil {
		return nil, "the password cannot be used: " + err.Error()
	}
	return h, ""
}

// validGameName reports whether name may name a game: 1 to 12 lower case
// letters and digits.
func validGameName(name string) bool {
	if name == "" || len(name) > 12 {
		return false
	}
	for _, c := range name {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// loadGame returns the named game, or reports that there is none.
func (s *session) loadGame(line int, name string) (*state.Game, error) {
	name = strings.ToLower(name)
	if !validGameName(name) {
		s.fail(line, "%q is not a game name (1 to 12 letters and digits).", name)
		return nil, nil
	}
	g, err := s.tx.Game(name)
	if errors.Is(err, state.ErrNotFound) {
		s.fail(line, "There is no game named '%s'. Send LIST for the games.", name)
		return nil, nil
	}
	return g, err
}

// alreadySignedOn refuses a second SIGNON, CREATE or OBSERVE in one mail:
// every later command would be ambiguous about the game it is for.
func (s *session) alreadySignedOn(c *parser.Command) bool {
	if s.game == nil {
		return false
	}
	s.fail(c.Line, "Only one SIGNON, CREATE or OBSERVE per mail: you are already signed on to '%s'.", s.game.Name)
	return true
}

// noteUser records that the sender takes part in game.
func (s *session) noteUser(game string) error {
	u, err := s.tx.User(s.in.From)
	if errors.Is(err, state.ErrNotFound) {
		u, err = &state.User{Addr: strings.ToLower(s.in.From), Created: s.now}, nil
	}
	if err != nil {
		return err
	}
	for _, g := range u.Games {
		if g == game {
			return nil
		}
	}
	u.Games = append(u.Games, game)
	return s.tx.PutUser(u)
}

// secondSeat says why the sender may not take a seat of g, or returns ""
// when they may. One address holds one seat, and the master's address
// none: two seats in one mailbox share what each power knows, and a
// master who plays knows every power's orders. The master may allow it
// (SET MULTIPLE), for a house game. taking is the seat being taken over,
// which its last holder may take back, or -1 for a new one; a seat its
// holder gave up (abandoned) is not held.
func (s *session) secondSeat(g *state.Game, taking int) string {
	if g.Settings.Multiple {
		return ""
	}
	const allow = "unless the master allows it (SET MULTIPLE)"
	if engine.SameAddr(g.MasterAddr, s.in.From) {
		return fmt.Sprintf("You are the master of '%s': the master does not also play in the game %s.", g.Name, allow)
	}
	for i := range g.Players {
		p := &g.Players[i]
		if i == taking || p.Status == state.Abandoned || !engine.SameAddr(p.Addr, s.in.From) {
			continue
		}
		held := "a seat"
		if p.Power != "" {
			held = p.Power
		}
		return fmt.Sprintf("Your address already holds %s in '%s': one address holds one seat %s.", held, g.Name, allow)
	}
	return ""
}

// cmdCreate handles CREATE ?game password [variant] [rules] [gunboat]: a new forming
// game with the sender as its master.
func (s *session) cmdCreate(c *parser.Command) error {
	if s.alreadySignedOn(c) {
		return nil
	}
	if len(c.Args) < 2 {
		s.fail(c.Line, "Use: CREATE ?game password [variant] [rules] [gunboat].")
		return nil
	}
	// njudge's "gunboat" may come anywhere after the password.
	args, gunboat := slices.Clone(c.Args[:2]), false
	for _, w := range c.Args[2:] {
		if engine.IsGunboatWord(w) {
			gunboat = true
		} else {
			args = append(args, w)
		}
	}
	name := strings.ToLower(strings.TrimPrefix(args[0], "?"))
	if !validGameName(name) {
		s.fail(c.Line, "%q is not a game name: use 1 to 12 letters and digits.", name)
		return nil
	}
	if _, err := s.tx.Game(name); err == nil {
		s.fail(c.Line, "A game named '%s' already exists.", name)
		return nil
	} else if !errors.Is(err, state.ErrNotFound) {
		return err
	}
	variant, rulesName := "standard", ""
	if len(args) > 2 {
		variant = strings.ToLower(args[2])
	}
	if len(args) > 3 {
		rulesName = strings.ToLower(args[3])
	}
	if len(args) > 4 {
		s.fail(c.Line, "Too many words: use CREATE ?game password [variant] [rules] [gunboat].")
		return nil
	}
	mp, err := variants.Load(variant)
	if err != nil {
		s.fail(c.Line, "Unknown variant %q; the variants are: %s.", variant, strings.Join(variants.Names(), ", "))
		return nil
	}
	rules, err := judge.RulesByName(rulesName)
	if err != nil {
		s.fail(c.Line, "Unknown rules %q; use %s or %s.", rulesName, judge.DATC30.Name, judge.DATC24.Name)
		return nil
	}
	if full, err := s.mastersTooMany(c.Line); err != nil || full {
		return err
	}
	if msg := passwordProblem(args[1]); msg != "" {
		s.fail(c.Line, "%s.", engine.Capitalize(msg))
		return nil
	}
	// A forged From would make a stranger the master of a game, and
	// have the judge mail them: the address confirms first, and nothing
	// is stored (nor any password hashed) before it has.
	if ok, err := s.confirmedCreate(name); err != nil {
		return err
	} else if !ok {
		command := "CREATE ?" + name + " <your password>"
		if len(args) > 2 {
			command += " " + mp.Name
		}
		if len(args) > 3 {
			command += " " + rules.Name
		}
		if gunboat {
			command += " gunboat"
		}
		s.printf("Game '%s' is not created yet.", name)
		if err := s.askCreateConfirmation(name, command); err != nil {
			return err
		}
		return errStop
	}
	hash, err := s.passwordHash(c, c.Args[1])
	if err != nil {
		return err
	}
	if hash == nil {
		return nil // refused, and said so
	}
	g := &state.Game{
		Name:       name,
		Variant:    mp.Name,
		Rules:      rules.Name,
		Status:     state.Forming,
		Created:    s.now,
		Settings:   engine.DefaultSettings(),
		MasterAddr: s.in.From,
		MasterHash: hash,
	}
	if gunboat {
		g.Settings.Gunboat, g.Settings.Press = true, "none"
	}
	s.game, s.master, s.power, s.dirty = g, true, "Master", true
	s.printf("Game '%s' created: %s, rules %s, %s.", name, mp.Title, rules.Name, engine.SettingsOf(g).Summary())
	s.printf("You are its master: sign on with SIGNON M%s and your password.", name)
	s.printf("Players join with SIGNON ?%s password; the game starts when %d have joined.", name, len(mp.Powers))
	return s.noteUser(name)
}

// mastersTooMany reports, in the reply, whether the sender is already the
// master of Config.MaxGamesPerMaster games that are not over, the most
// one address may create. Judge admins may create any number.
func (s *session) mastersTooMany(line int) (bool, error) {
	if s.m.isAdmin(s.in.From) {
		return false, nil
	}
	// The sender's user record lists the games they take part in, which
	// is fewer to read than every game of the judge.
	u, err := s.tx.User(s.in.From)
	if errors.Is(err, state.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	n := 0
	for _, name := range u.Games {
		g, err := s.tx.Game(name)
		if errors.Is(err, state.ErrNotFound) || errors.Is(err, state.ErrDamaged) {
			continue // a damaged game is held apart, and not counted
		} else if err != nil {
			return false, err
		}
		if g.Status != state.Finished && engine.SameAddr(g.MasterAddr, s.in.From) {
			n++
		}
	}
	if n < s.m.cfg.MaxGamesPerMaster {
		return false, nil
	}
	s.fail(line, "You are already the master of %d games that are not over, the most this judge allows one address.", n)
	return true, nil
}

// cmdSignon handles the three kinds of SIGNON: ?game (join a forming
// game), Pgame (a power, or take over an abandoned one), Mgame (the
// master); Ogame is OBSERVE.
func (s *session) cmdSignon(c *parser.Command) error {
	if s.alreadySignedOn(c) {
		return nil
	}
	if len(c.Args) > 0 && len(c.Args[0]) > 1 && strings.EqualFold(c.Args[0][:1], "M") && s.m.isAdmin(s.in.From) {
		return s.adminSignon(c, c.Args[0][1:])
	}
	if len(c.Args) < 2 {
		s.fail(c.Line, "Use: SIGNON Pgame password (P is your power's letter), or SIGNON ?game password to join.")
		return errStop
	}
	who, pw := c.Args[0], c.Args[1]
	if strings.HasPrefix(who, "?") {
		return s.join(c, strings.ToLower(who[1:]), pw, strings.Join(c.Args[2:], ""))
	}
	if len(c.Args) > 2 {
		s.fail(c.Line, "Too many words: use SIGNON %s password.", who)
		return errStop
	}
	if len(who) < 2 {
		s.fail(c.Line, "%q names no game: use SIGNON Pgame password, P being your power's letter.", who)
		return errStop
	}
	letter := strings.ToUpper(who[:1])[0]
	g, err := s.loadGame(c.Line, who[1:])
	if g == nil {
		if err == nil {
			err = errStop
		}
		return err
	}
	switch letter {
	case 'M':
		if i := coMasterSeat(g, s.in.From); i >= 0 {
			return s.coMasterSignon(c, g, i, pw)
		}
		if ok, err := s.checkSeat(c, g, g.Name+"/M", g.MasterHash, pw, g.MasterAddr); !ok {
			return err
		}
		s.game, s.master, s.power = g, true, "Master"
		s.printf("Signed on as the master of '%s'.", g.Name)
		s.fogLink(g, view.MasterLink(g))
		return s.noteUser(g.Name)
	case 'O':
		return s.observe(c, g, pw)
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	k := engine.PowerByLetter(mp, letter)
	if k < 0 {
		s.fail(c.Line, "There is no power %c in %s: the powers are %s.", letter, mp.Title, powerLetters(mp))
		return errStop
	}
	power := mp.Powers[k].Name
	if g.Status == state.Forming {
		s.fail(c.Line, "Game '%s' has not started yet: join it with SIGNON ?%s password.", g.Name, g.Name)
		return errStop
	}
	i := engine.PlayerByPower(g, power)
	if i < 0 {
		s.fail(c.Line, "Nobody plays %s in '%s'.", power, g.Name)
		return errStop
	}
	p := &g.Players[i]
	if (p.Status == state.Abandoned || p.Status == state.Disorder) && g.Status != state.Finished {
		// A seat nobody looks after is free to anyone, with a new
		// password, once they prove that the address the game's mail
		// will go to is theirs, and unless that address holds another
		// seat of the game.
		if msg := s.secondSeat(g, i); msg != "" {
			s.fail(c.Line, "%s", msg)
			return errStop
		}
		// An ejected player comes back only if the master allows it.
		if barred(g, s.in.From) {
			s.fail(c.Line, "The master of '%s' has removed this address from the game: it may take no seat of it unless the master lets it back (ADMIT).", g.Name)
			return errStop
		}
		// A newcomer passes the game's gates as a joiner does.
		if !engine.SameAddr(p.Addr, s.in.From) {
			if ok, err := s.admits(c, g); !ok {
				if err == nil {
					err = errStop
				}
				return err
			}
		}
		// A code mailed to the sender's address gives the seat to it,
		// with the password of this mail. Without one, the seat's own
		// address with the seat's own password is the player coming
		// back: the password proves it, checked as at any sign-on,
		// under the limits on guessing.
		back := false
		if !s.confirmed(g, confirmTakeover, power) {
			if engine.SameAddr(p.Addr, s.in.From) && len(p.PassHash) > 0 {
				ok, err := s.checkSeat(c, g, g.Name+"/"+string(letter), p.PassHash, pw, p.Addr)
				if err != nil && !errors.Is(err, errStop) {
					return err
				}
				back = ok
			}
			if !back {
				s.printf("%s in game '%s' is free for takeover.", power, g.Name)
				if err := s.askConfirmation(c, g, confirmTakeover, power, fmt.Sprintf("take over %s in game '%s'", power, g.Name)); err != nil {
					return err
				}
				return errStop
			}
		}
		hash, err := s.passwordHash(c, pw)
		if err != nil {
			return err
		}
		if hash == nil {
			return errStop // refused, and said so
		}
		if !back {
			if err := s.useCode(g, confirmTakeover, power); err != nil {
				return err
			}
		}
		s.game, s.power = g, power
		returned := engine.SameAddr(p.Addr, s.in.From)
		if err := s.takeover(i, hash); err != nil {
			return err
		}
		s.dirty = true
		if returned {
			s.printf("Welcome back: you play %s in game '%s' again; your password is the one you just used.", power, g.Name)
		} else {
			s.printf("You have taken over %s in game '%s'; your password is the one you just used.", power, g.Name)
		}
		s.fogLink(g, view.PowerLink(g, power))
		return s.noteUser(g.Name)
	}
	if ok, err := s.checkSeat(c, g, g.Name+"/"+string(letter), p.PassHash, pw, p.Addr); !ok {
		return err
	}
	s.game, s.power = g, power
	s.printf("Signed on as %s in game '%s'.", power, g.Name)
	s.fogLink(g, view.PowerLink(g, power))
	return s.noteUser(g.Name)
}

// adminSignon signs a judge admin on as the master of the game name,
// without a password: the way to rescue a game whose master has gone.
// The sender was authenticated before the mail got here (an admin
// without require-sender-auth is a config error). The admin is not
// recorded as taking part in the game: LIST shows their own games.
func (s *session) adminSignon(c *parser.Command, name string) error {
	g, err := s.loadGame(c.Line, name)
	if g == nil {
		if err == nil {
			err = errStop
		}
		return err
	}
	s.game, s.master, s.power = g, true, "Master"
	s.printf("Signed on as the master of '%s', as an admin of this judge (no password needed).", g.Name)
	return nil
}

// firstForming returns the game "SIGNON ?" joins: the first forming game
// the sender is not in, or nil.
func (s *session) firstForming() (*state.Game, error) {
	var g *state.Game
	err := s.tx.ForEachGame(func(x *state.Game) error {
		if x.Status == state.Forming && engine.PlayerByAddr(x, s.in.From) < 0 {
			g = x
			return errFound // the rest of the games need not be read
		}
		return nil
	})
	if errors.Is(err, errFound) {
		err = nil
	}
	return g, err
}

// errFound ends a walk over the games once what it looked for is found.
var errFound = errors.New("gm: found")

// join handles SIGNON ?game password [preferences]: the sender joins a
// forming game, which starts when it is full. "SIGNON ? password" joins
// the first forming game the sender is not in.
func (s *session) join(c *parser.Command, name, pw, prefs string) error {
	var g *state.Game
	if name == "" {
		var err error
		if g, err = s.firstForming(); err != nil {
			return err
		}
		if g == nil {
			s.fail(c.Line, "No game is forming. Start one with CREATE ?game password.")
			return errStop
		}
	} else {
		var err error
		if g, err = s.loadGame(c.Line, name); g == nil {
			if err == nil {
				err = errStop
			}
			return err
		}
	}
	if g.Status != state.Forming {
		s.fail(c.Line, "Game '%s' has already started: sign on with your power's letter, SIGNON P%s password.", g.Name, g.Name)
		return errStop
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	joinPassword := s.needsJoinPassword(g)
	if joinPassword && len(c.Args) > 2 {
		prefs = strings.Join(c.Args[3:], "") // the word before them is the join password
	}
	prefs, msg := parsePreference(mp, prefs)
	if msg != "" {
		s.fail(c.Line, "%s", msg)
		return errStop
	}
	if i := engine.PlayerByAddr(g, s.in.From); i >= 0 {
		// Joining again is signing on to the seat already held; a code
		// with it is the confirming mail sent twice, and worth no remark.
		s.codeAsked = true
		if ok, err := s.checkSeat(c, g, g.Name+"/?"+strings.ToLower(s.in.From), g.Players[i].PassHash, pw, g.Players[i].Addr); !ok {
			return err
		}
		s.game, s.joined = g, true
		if prefs != "" {
			g.Players[i].Preference, s.dirty = prefs, true
		}
		s.printf("You are already in game '%s' (%d of %d players).", g.Name, len(g.Players), len(mp.Powers))
		return nil
	}
	if msg := s.secondSeat(g, -1); msg != "" {
		s.fail(c.Line, "%s", msg)
		return errStop
	}
	if ok, err := s.admits(c, g); !ok {
		if err == nil {
			err = errStop
		}
		return err
	}
	if joinPassword {
		if ok, err := s.checkJoinPassword(c, g); !ok {
			return err
		}
	}
	if msg := passwordProblem(pw); msg != "" {
		s.fail(c.Line, "%s.", engine.Capitalize(msg))
		return errStop
	}
	// A forged From would give a stranger's address a seat, and the
	// game's mail once it starts: the address confirms first, and
	// nothing of the seat is stored (nor its password hashed) before.
	if !s.confirmed(g, confirmJoin, "") {
		key, err := s.gameKey(g)
		if err != nil {
			return err
		}
		// The preferences read as preferences for the game's map, so
		// they are no part of a password (only passwords are secret).
		command := strings.TrimSpace("SIGNON ?" + g.Name + " <your password> " + prefs)
		s.printf("You have not joined game '%s' yet.", g.Name)
		used := codesUsed(g, codeUseOf(confirmJoin, s.in.From, ""), s.now)
		if err := s.offerCode(key, confirmJoin, g.Name, "", fmt.Sprintf("join game '%s'", g.Name), command, used); err != nil {
			return err
		}
		return errStop
	}
	hash, err := s.passwordHash(c, pw)
	if err != nil {
		return err
	}
	if hash == nil {
		return errStop // refused, and said so
	}
	if err := s.useCode(g, confirmJoin, ""); err != nil {
		return err
	}
	if g.Entry.Approval && !slices.Contains(g.Entry.Invited, strings.ToLower(strings.TrimSpace(s.in.From))) {
		return s.askApproval(c, g, hash, prefs)
	}
	g.Players = append(g.Players, state.Player{
		Addr: s.in.From, PassHash: hash, Status: state.Playing, Preference: prefs, Joined: s.now,
	})
	s.game, s.joined, s.dirty = g, true, true
	if err := s.noteUser(g.Name); err != nil {
		return err
	}
	if len(g.Players) < len(mp.Powers) {
		more := len(mp.Powers) - len(g.Players)
		verb := report.Plural(more, "has", "have")
		s.printf("You have joined game '%s': %d of %d players. It starts when %d more %s joined.",
			g.Name, len(g.Players), len(mp.Powers), more, verb)
		return nil
	}
	s.printf("You have joined game '%s', its last player: the game starts now.", g.Name)
	if err := s.m.StartGame(s.tx, g, s.now); err != nil {
		return err
	}
	i := engine.PlayerByAddr(g, s.in.From)
	s.power = g.Players[i].Power
	s.printf("You are %s; sign on from now on with SIGNON %c%s password.", s.power, mp.Powers[engine.PowerIndex(mp, s.power)].Letter, g.Name)
	return nil
}

// parsePreference reads a preference list: power letters in order ("EFG"),
// njudge's groups ("E[FGR][TAI]", taken in the order written), or "*" for
// none. It returns the letters, upper case, or a message.
func parsePreference(mp *judge.Map, text string) (string, string) {
	var b strings.Builder
	for _, c := range strings.ToUpper(text) {
		switch {
		case c == '[' || c == ']' || c == ',' || c == ' ' || c == '*':
			continue
		case c < 128 && engine.PowerByLetter(mp, byte(c)) >= 0:
			if !strings.ContainsRune(b.String(), c) {
				b.WriteRune(c)
			}
		default:
			return "", fmt.Sprintf("%q is not a power letter in preferences: use %s.", c, powerLetters(mp))
		}
	}
	return b.String(), ""
}

// powerLetters lists the letters of the map's powers: "A, E, F, G, I, R, T".
func powerLetters(mp *judge.Map) string {
	ls := make([]string, len(mp.Powers))
	for k, p := range mp.Powers {
		ls[k] = string(p.Letter)
	}
	return strings.Join(ls, ", ")
}

// cmdObserve handles OBSERVE game password.
func (s *session) cmdObserve(c *parser.Command) error {
	if s.alreadySignedOn(c) {
		return nil
	}
	if len(c.Args) != 2 {
		s.fail(c.Line, "Use: OBSERVE game password.")
		return errStop
	}
	g, err := s.loadGame(c.Line, c.Args[0])
	if g == nil {
		if err == nil {
			err = errStop
		}
		return err
	}
	return s.observe(c, g, c.Args[1])
}

// observe signs the sender on as an observer of g; a second OBSERVE from
// the same address checks the password. The first one only asks the
// address to confirm (double opt-in): the judge mails no game to an
// address before a mail with the code it was sent, which only the
// address's reader has. Nothing is stored until then.
func (s *session) observe(c *parser.Command, g *state.Game, pw string) error {
	if i := engine.ObserverByAddr(g, s.in.From); i >= 0 {
		if ok, err := s.checkSeat(c, g, g.Name+"/O/"+strings.ToLower(s.in.From), g.Observers[i].PassHash, pw, g.Observers[i].Addr); !ok {
			return err
		}
		s.game, s.observer = g, true
		s.printf("You are observing game '%s'.", g.Name)
		if engine.ObserverWaits(g, &g.Observers[i]) {
			s.printf("The game is played under fog of war: you get nothing of it until its master approves you (APPROVE).")
		} else {
			s.fogLink(g, view.ObserverLink(g, s.in.From))
		}
		return nil
	}
	switch {
	case barred(g, s.in.From):
		s.fail(c.Line, "The master of '%s' has removed this address from the game.", g.Name)
		return errStop
	case s.hidden(g):
		// A private game is watched by its members and the invited.
		s.fail(c.Line, "There is no game named '%s'. Send LIST for the games.", g.Name)
		return errStop
	case len(g.Observers) >= s.m.cfg.MaxObservers:
		s.fail(c.Line, "Game '%s' has %d observers, the most this judge allows.", g.Name, len(g.Observers))
		return errStop
	case !s.confirmed(g, confirmObserve, ""):
		s.printf("You are not observing game '%s' yet.", g.Name)
		if err := s.askConfirmation(c, g, confirmObserve, "", fmt.Sprintf("observe game '%s'", g.Name)); err != nil {
			return err
		}
		return errStop
	}
	hash, err := s.passwordHash(c, pw)
	if err != nil {
		return err
	}
	if hash == nil {
		return errStop // refused, and said so
	}
	if err := s.useCode(g, confirmObserve, ""); err != nil {
		return err
	}
	g.Observers = append(g.Observers, state.Observer{Addr: s.in.From, PassHash: hash})
	s.game, s.observer, s.dirty = g, true, true
	if o := &g.Observers[len(g.Observers)-1]; engine.ObserverWaits(g, o) {
		if err := s.fogObserving(g, o); err != nil {
			return err
		}
	} else {
		s.printf("You are now observing game '%s': you will receive its results and broadcasts.", g.Name)
	}
	return s.noteUser(g.Name)
}

// cmdSetPassword handles SET PASSWORD new, for the seat signed on to
// with its password in this mail; args are the words after the option.
func (s *session) cmdSetPassword(c *parser.Command, args []string) error {
	if len(args) != 1 {
		s.fail(c.Line, "Use: SET PASSWORD newpassword (one word).")
		return nil
	}
	hash, err := s.passwordHash(c, args[0])
	if err != nil {
		return err
	}
	if hash == nil {
		return nil // refused, and said so
	}
	g := s.game
	switch {
	case s.coMaster:
		// A co-master's password is their own, the observer's seat's.
		g.Observers[engine.ObserverByAddr(g, s.in.From)].PassHash = hash
	case s.master:
		g.MasterHash = hash
	case s.power != "":
		g.Players[engine.PlayerByPower(g, s.power)].PassHash = hash
	case s.joined && g.Status == state.Forming:
		g.Players[engine.PlayerByAddr(g, s.in.From)].PassHash = hash
	case s.observer:
		g.Observers[engine.ObserverByAddr(g, s.in.From)].PassHash = hash
	default:
		s.fail(c.Line, "You hold no seat in '%s' to set a password for.", g.Name)
		return nil
	}
	s.dirty = true
	s.printf("Password changed.")
	return nil
}

// resignData is the data of resign.tmpl.
type resignData struct {
	Header engine.Header
	Tag    string // "GMD:dt - S1901M"
	Game   string
	Power  string // the power given up
	Letter string // its letter
	Phase  string
}

// cmdResign handles RESIGN: the seat is given up (abandoned, free for a
// takeover) and everyone is told; a player of a forming game just leaves
// it, an observer stops observing. Nothing after it in the mail is done.
func (s *session) cmdResign(c *parser.Command) error {
	g := s.game
	switch {
	case s.coMaster:
		return s.stepDown(c)
	case s.master:
		s.fail(c.Line, "A master cannot resign: TERMINATE the game, or EJECT players.")
		return nil
	case s.power != "":
		if g.Status == state.Finished {
			s.fail(c.Line, "Game '%s' is over.", g.Name)
			return nil
		}
		i := engine.PlayerByPower(g, s.power)
		g.Players[i].Status = state.Abandoned
		engine.ClearVotes(&g.Players[i])
		s.m.Event(s.tx, g, s.m.PhaseOf(g), engine.EventAbandoned, "power", s.power, "why", "resigned")
		if err := engine.LogSeat(s.tx, g, &g.Players[i], state.SeatResigned, s.m.PhaseOf(g), s.now); err != nil {
			return err
		}
		s.dirty = true
		s.printf("You have resigned %s in game '%s'. Thank you for playing.", s.power, g.Name)
		mp, err := engine.GameMap(g)
		if err != nil {
			return err
		}
		letter := string(mp.Powers[engine.PowerIndex(mp, s.power)].Letter)
		if err := s.m.SendGame(s.tx, s.now, g, "resign", resignData{
			Header: s.m.Header(g), Tag: s.m.SubjectTag(g), Game: g.Name, Power: s.power, Letter: letter, Phase: s.m.PhaseOf(g),
		}, s.m.Recipients(g)); err != nil {
			return err
		}
		s.power = ""
		s.m.OrdersChanged(g, s.now)
		// The seat no longer votes: the others may now agree a draw.
		if err := s.m.CheckDraw(s.tx, g, s.now); err != nil {
			return err
		}
	case s.joined && g.Status == state.Forming:
		i := engine.PlayerByAddr(g, s.in.From)
		g.Players = append(g.Players[:i], g.Players[i+1:]...)
		s.dirty = true
		s.printf("You have left game '%s'.", g.Name)
	case s.observer:
		i := engine.ObserverByAddr(g, s.in.From)
		g.Observers = append(g.Observers[:i], g.Observers[i+1:]...)
		s.dirty = true
		s.printf("You no longer observe game '%s'.", g.Name)
	default:
		s.fail(c.Line, "You hold no seat in '%s'.", g.Name)
		return nil
	}
	return errStop
}
