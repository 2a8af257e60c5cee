package session

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/players"
	"github.com/gmdjudge/gmd/state"
)

// The registry's commands (issue 23): REGISTER, WHOIS, INFO PLAYER, WHO
// GAME, FORGET ME, SET SHOW|HIDE ADDRESS; and the gates a game's master
// sets on who may join it. A registration is a public name and profile
// kept by address: whatever adds one, shows an address or removes one
// is confirmed with a code mailed to that address, so that a forged
// From line registers, shows or forgets nobody.

// What a registry code confirms (see confirm.go).
const (
	confirmRegister = "register" // the address may be registered under a name (seat: the name's fold)
	confirmShow     = "show"     // the address may be shown to other players
	confirmForget   = "forget"   // the address's registration may be removed
)

// whoisLimit bounds WHOIS's list, whatever the prefix.
const whoisLimit = 20

// maxRegistrationsPerDay bounds the registrations the judge takes in a
// day (UTC), each confirmed from its address: a flood of them, from as
// many mailboxes, would grow the registry without end. Kept in the meta
// bucket as "day count".
const maxRegistrationsPerDay = 200

// registrationsMeta is the Meta key of the day's count.
const registrationsMeta = "gm.registrations"

// registrationsToday returns how many registrations the judge took on
// now's day.
func (s *session) registrationsToday() (int, error) {
	v, err := s.tx.Meta(registrationsMeta)
	if err != nil {
		return 0, err
	}
	day, n, ok := strings.Cut(string(v), " ")
	if !ok || day != strconv.FormatInt(confirmDayOf(s.now), 10) {
		return 0, nil
	}
	return strconv.Atoi(n)
}

// countRegistration adds one to the day's count.
func (s *session) countRegistration() error {
	n, err := s.registrationsToday()
	if err != nil {
		return err
	}
	return s.tx.PutMeta(registrationsMeta, fmt.Appendf(nil, "%d %d", confirmDayOf(s.now), n+1))
}

// registrant returns the registration of addr, nil when it has none.
func (s *session) registrant(addr string) (*state.Registrant, error) {
	r, err := s.tx.RegistrantByAddr(addr)
	if errors.Is(err, state.ErrNotFound) {
		return nil, nil
	}
	return r, err
}

// cmdRegister handles REGISTER name[, country[, time zone[, level]]].
func (s *session) cmdRegister(c *parser.Command) error {
	line := strings.Join(c.Args, " ")
	parts := strings.Split(line, ",")
	if line == "" || len(parts) > 4 {
		s.fail(c.Line, "Use: REGISTER name[, country[, time zone[, level]]], for example REGISTER Jeanne Dupont, Belgium, Europe/Brussels, expert.")
		return nil
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	parts = append(parts, "", "", "")
	name, country, zone, level := parts[0], parts[1], parts[2], parts[3]
	if r, err := s.registrant(s.in.From); err != nil || r != nil {
		if r != nil {
			s.fail(c.Line, "This address is already registered, as '%s'. FORGET ME removes the registration.", r.Name)
		}
		return err
	}
	if err := players.CheckName(name); err != nil {
		s.fail(c.Line, "%s.", engine.Capitalize(err.Error()))
		return nil
	}
	fold := players.Fold(name)
	if other, err := s.tx.RegistrantByFold(fold); err == nil {
		s.fail(c.Line, "The name '%s' is too like that of the registered player '%s': choose another.", name, other.Name)
		return nil
	} else if !errors.Is(err, state.ErrNotFound) {
		return err
	}
	for _, w := range [][2]string{{"country", country}, {"time zone", zone}, {"level", level}} {
		if err := players.CheckProfileWord(w[0], w[1]); err != nil {
			s.fail(c.Line, "%s.", engine.Capitalize(err.Error()))
			return nil
		}
	}
	if zone != "" {
		loc, err := time.LoadLocation(zone)
		if err != nil || zone == "Local" {
			s.fail(c.Line, "Unknown time zone %q: use an IANA zone name like Europe/Paris.", zone)
			return nil
		}
		zone = loc.String()
	}
	key, err := s.judgeKey(false)
	if err != nil {
		return err
	}
	if !s.codeFits(key, confirmRegister, "", fold, 0) {
		if key, err = s.judgeKey(true); err != nil {
			return err
		}
		s.printf("You are not registered yet.")
		return s.offerCode(key, confirmRegister, "", fold, fmt.Sprintf("register this address as '%s'", name), "REGISTER "+line, 0)
	}
	if n, err := s.registrationsToday(); err != nil {
		return err
	} else if n >= maxRegistrationsPerDay {
		s.fail(c.Line, "The judge takes no more registrations today (at most %d a day): try again tomorrow.", maxRegistrationsPerDay)
		return nil
	}
	id, err := s.tx.NewRegistrantID()
	if err != nil {
		return err
	}
	r := &state.Registrant{ID: id, Name: name, Fold: fold, Country: country, Zone: zone, Level: level,
		Addr: strings.ToLower(strings.TrimSpace(s.in.From)), Registered: s.now.UTC()}
	if err := s.tx.PutRegistrant(r); errors.Is(err, state.ErrTaken) {
		s.fail(c.Line, "The name or the address was taken meanwhile: %v.", err)
		return nil
	} else if err != nil {
		return err
	}
	if err := s.countRegistration(); err != nil {
		return err
	}
	s.printf("You are registered as '%s'. Other players see this name, never your address (unless you SET SHOW ADDRESS).", name)
	return nil
}

// cmdForget handles FORGET ME: the sender's registration goes, with its
// address, once confirmed from that address. The seat logs stay, as the
// games' records do (docs/players.md says why).
func (s *session) cmdForget(c *parser.Command) error {
	if len(c.Args) != 1 || !strings.EqualFold(c.Args[0], "ME") {
		s.fail(c.Line, "Use: FORGET ME.")
		return nil
	}
	r, err := s.registrant(s.in.From)
	if err != nil {
		return err
	}
	if r == nil || !engine.SameAddr(r.Addr, s.in.From) {
		s.fail(c.Line, "This address has no registration.")
		return nil
	}
	key, err := s.judgeKey(true)
	if err != nil {
		return err
	}
	seat := strconv.FormatUint(r.ID, 10)
	if !s.codeFits(key, confirmForget, "", seat, 0) {
		return s.offerCode(key, confirmForget, "", seat, fmt.Sprintf("remove the registration '%s'", r.Name), "FORGET ME", 0)
	}
	if err := s.tx.DeleteRegistrant(r.ID); err != nil {
		return err
	}
	if err := s.markFormer(r); err != nil {
		return err
	}
	s.printf("The registration '%s' and its address are removed from the registry. The games you played keep their records; the finished ones name you \"a former player\".", r.Name)
	return nil
}

// formerPlayer is how WHO GAME and the game pages name the holder of a
// seat marked Former.
const formerPlayer = "a former player"

// markFormer marks the seats that r's addresses held in finished games as
// a former player's (state.Player.Former): the games keep their seats and
// records, and say who held them no longer. A running game's seat stays
// as it is: its holder is still playing it.
func (s *session) markFormer(r *state.Registrant) error {
	seen := map[string]bool{}
	for _, addr := range r.Addrs() {
		events, err := s.tx.SeatEvents(addr)
		if err != nil {
			return err
		}
		for _, ev := range events {
			if seen[ev.Game] {
				continue
			}
			seen[ev.Game] = true
			g := s.game
			if g == nil || g.Name != ev.Game {
				if g, err = s.tx.Game(ev.Game); errors.Is(err, state.ErrNotFound) {
					continue // deleted since
				} else if err != nil {
					return err
				}
			}
			if g.Status != state.Finished {
				continue
			}
			changed := false
			for i := range g.Players {
				if p := &g.Players[i]; !p.Former && slices.ContainsFunc(r.Addrs(), func(a string) bool { return engine.SameAddr(a, p.Addr) }) {
					p.Former, changed = true, true
				}
			}
			if changed {
				if err := s.tx.PutGame(g); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// setShowAddress handles SET SHOW ADDRESS (confirmed from the address,
// as it makes the address public to players) and SET HIDE ADDRESS.
func (s *session) setShowAddress(c *parser.Command, show bool) error {
	r, err := s.registrant(s.in.From)
	if err != nil {
		return err
	}
	if r == nil || !engine.SameAddr(r.Addr, s.in.From) {
		s.fail(c.Line, "This address has no registration: REGISTER first.")
		return nil
	}
	if show && !r.ShowAddr {
		key, err := s.judgeKey(true)
		if err != nil {
			return err
		}
		seat := strconv.FormatUint(r.ID, 10)
		if !s.codeFits(key, confirmShow, "", seat, 0) {
			return s.offerCode(key, confirmShow, "", seat, "show this address to other players", "SET SHOW ADDRESS", 0)
		}
	}
	r.ShowAddr = show
	if err := s.tx.PutRegistrant(r); err != nil {
		return err
	}
	if show {
		s.printf("WHOIS and INFO PLAYER now show your address to other players (never on the web pages).")
	} else {
		s.printf("Your address is shown to no other player.")
	}
	return nil
}

// registrySet reports whether a SET is one of the registry's, which
// need no sign-on to a game: SHOW ADDRESS, HIDE ADDRESS, ADDRESS ....
func registrySet(args []string) bool {
	words := strings.ToUpper(strings.Join(args, " "))
	return words == "SHOW ADDRESS" || words == "HIDE ADDRESS" || len(args) > 1 && strings.EqualFold(args[0], "ADDRESS")
}

// What the codes of SET ADDRESS confirm.
const (
	confirmMoveFrom = "movefrom" // the registration's address asks to move it (seat: the new address)
	confirmMoveTo   = "moveto"   // the new address takes it (seat: the registration's ID)
)

// setAddress handles SET ADDRESS new@address, from the registration's
// address, and SET ADDRESS FROM old@address, from the new one. The move
// is confirmed from both: a code to the old address (the reply to the
// first mail), then, once that came back, one mailed to the new
// address, which only its reader can send back. A forged mail from
// either side moves nothing, and the new address cannot ask for its
// code itself.
func (s *session) setAddress(c *parser.Command, args []string) error {
	if len(args) == 2 && strings.EqualFold(args[0], "FROM") {
		return s.takeAddress(c, strings.ToLower(args[1]))
	}
	if len(args) != 1 {
		s.fail(c.Line, "Use: SET ADDRESS new@address, from the address your registration has.")
		return nil
	}
	to := strings.ToLower(strings.Trim(args[0], "<>"))
	r, err := s.registrant(s.in.From)
	if err != nil {
		return err
	}
	switch {
	case r == nil || !engine.SameAddr(r.Addr, s.in.From):
		s.fail(c.Line, "This address has no registration: REGISTER first.")
		return nil
	case !engine.ValidSender(to):
		s.fail(c.Line, "%q is not a mail address.", to)
		return nil
	case engine.SameAddr(to, s.in.From):
		s.fail(c.Line, "Your registration is at %s already.", to)
		return nil
	}
	if other, err := s.registrant(to); err != nil {
		return err
	} else if other != nil {
		s.fail(c.Line, "%s belongs to a registration already.", to)
		return nil
	}
	key, err := s.judgeKey(true)
	if err != nil {
		return err
	}
	if !s.codeFits(key, confirmMoveFrom, "", to, 0) {
		return s.offerCode(key, confirmMoveFrom, "", to, "move your registration to "+to, "SET ADDRESS "+to, 0)
	}
	id := strconv.FormatUint(r.ID, 10)
	err = s.m.Send(s.tx, s.now, "confirm", confirmData{
		Judge: s.m.cfg.JudgeAddr, Addr: to, Kind: confirmMoveTo,
		What:    fmt.Sprintf("take the registration '%s'", r.Name),
		Code:    confirmCode(key, confirmMoveTo, "", to, id, confirmDayOf(s.now), 0),
		Command: "SET ADDRESS FROM " + r.Addr,
	}, []string{to}, "")
	if err != nil {
		return err
	}
	s.printf("A code went to %s: send it back from there, as that mail says, and the registration moves.", to)
	return nil
}

// takeAddress is the second half of SET ADDRESS, from the new address.
func (s *session) takeAddress(c *parser.Command, from string) error {
	r, err := s.registrant(from)
	if err != nil {
		return err
	}
	key, err := s.judgeKey(false)
	if err != nil {
		return err
	}
	if r == nil || !engine.SameAddr(r.Addr, from) || !s.codeFits(key, confirmMoveTo, "", strconv.FormatUint(r.ID, 10), 0) {
		s.fail(c.Line, "This needs the code the judge mailed to this address after %s asked for the move (SET ADDRESS new@address, from there).", from)
		return nil
	}
	if other, err := s.registrant(s.in.From); err != nil {
		return err
	} else if other != nil {
		s.fail(c.Line, "This address belongs to a registration already.")
		return nil
	}
	r.Former = append(r.Former, r.Addr)
	r.Addr = strings.ToLower(strings.TrimSpace(s.in.From))
	if err := s.tx.PutRegistrant(r); err != nil {
		return err
	}
	s.printf("The registration '%s' answers at %s now. Its games and figures stay with it.", r.Name, r.Addr)
	return nil
}

// figuresOf returns the figures of a registration: of every address it
// answers or answered at.
func (s *session) figuresOf(r *state.Registrant) (players.Figures, error) {
	var t state.Tally
	for _, a := range r.Addrs() {
		at, err := s.tx.Tally(a)
		if err != nil {
			return players.Figures{}, err
		}
		t = t.Plus(at)
	}
	return players.Compute(t), nil
}

// figuresOfAddr returns the figures a join is judged by: those of the
// registration of addr when it has one, of addr alone otherwise.
func (s *session) figuresOfAddr(addr string) (players.Figures, *state.Registrant, error) {
	r, err := s.registrant(addr)
	if err != nil {
		return players.Figures{}, nil, err
	}
	if r != nil {
		f, err := s.figuresOf(r)
		return f, r, err
	}
	t, err := s.tx.Tally(addr)
	return players.Compute(t), nil, err
}

// profileLine is a registration in one line, as WHOIS lists it: the
// address only when its player opted in.
func profileLine(r *state.Registrant) string {
	var bits []string
	for _, w := range []string{r.Country, r.Zone, r.Level} {
		if w != "" {
			bits = append(bits, w)
		}
	}
	line := r.Name
	if len(bits) > 0 {
		line += " (" + strings.Join(bits, ", ") + ")"
	}
	if r.ShowAddr {
		line += " <" + r.Addr + ">"
	}
	return line
}

// cmdWhois handles WHOIS name-or-prefix: the registered players whose
// names begin so, compared by fold, at most whoisLimit.
func (s *session) cmdWhois(c *parser.Command) error {
	prefix := players.Fold(strings.Join(c.Args, " "))
	if prefix == "" {
		s.fail(c.Line, "Use: WHOIS name, or the start of a name.")
		return nil
	}
	found, more, err := s.tx.RegistrantsByFold(prefix, whoisLimit)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		s.printf("No registered player's name begins with %q.", strings.Join(c.Args, " "))
		return nil
	}
	for _, r := range found {
		s.printf("  %s", profileLine(r))
	}
	if more {
		s.printf("(The first %d: give more of the name for the others.)", whoisLimit)
	}
	return nil
}

// cmdInfo handles INFO PLAYER name: a registered player's profile,
// figures and the games that may be linked to them.
func (s *session) cmdInfo(c *parser.Command) error {
	if len(c.Args) < 2 || !strings.EqualFold(c.Args[0], "PLAYER") {
		s.fail(c.Line, "Use: INFO PLAYER name.")
		return nil
	}
	name := strings.Join(c.Args[1:], " ")
	r, err := s.tx.RegistrantByFold(players.Fold(name))
	if errors.Is(err, state.ErrNotFound) {
		s.fail(c.Line, "No registered player is named %q. WHOIS finds names by their start.", name)
		return nil
	} else if err != nil {
		return err
	}
	f, err := s.figuresOf(r)
	if err != nil {
		return err
	}
	s.printf("%s, registered %s.", profileLine(r), r.Registered.Format("2 Jan 2006"))
	s.printf("Seats held %d, to the end of the game %d; phases on time %d, late %d; abandoned %d, civil disorder %d, resigned %d, ejected %d.",
		f.Games, f.Finished, f.OnTime, f.Late, f.Abandoned, f.Disorder, f.Resigned, f.Ejected)
	s.printf("Dedication %d; on-time ratio %s; resignation ratio %s.", f.Dedication, players.Ratio(f.OnTimeRatio), players.Ratio(f.ResignRatio))
	games, err := s.shownGames(r)
	if err != nil {
		return err
	}
	if len(games) > 0 {
		s.printf("Games: %s.", strings.Join(games, ", "))
	}
	return nil
}

// shownGames lists the games and powers of a registration that may be
// linked to it (players.Shown), "dt (France)".
func (s *session) shownGames(r *state.Registrant) ([]string, error) {
	var out []string
	for _, a := range r.Addrs() {
		evs, err := s.tx.SeatEvents(a)
		if err != nil {
			return nil, err
		}
		for _, ev := range evs {
			if ev.Kind != state.SeatJoined && ev.Kind != state.SeatTakeover {
				continue
			}
			g, err := s.tx.Game(ev.Game)
			if err != nil || !players.Shown(g) {
				continue
			}
			if e := fmt.Sprintf("%s (%s)", g.Name, ev.Power); !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// cmdWho handles WHO GAME name: each seat's registered player. A
// gunboat game's players are the master's to know, until the game ends
// and the master reveals them; a private game's, its members'.
func (s *session) cmdWho(c *parser.Command) error {
	if len(c.Args) != 2 || !strings.EqualFold(c.Args[0], "GAME") {
		s.fail(c.Line, "Use: WHO GAME name.")
		return nil
	}
	g, err := s.gameArg(&parser.Command{Line: c.Line, Args: c.Args[1:]}, "WHO GAME name")
	if g == nil {
		return err
	}
	master := s.master && s.game != nil && s.game.Name == g.Name
	if !master && g.Settings.Gunboat && !(g.Status == state.Finished && g.Revealed) {
		s.fail(c.Line, "Game '%s' is a gunboat game: who plays which power is for its master to know, until it ends and the master reveals it.", g.Name)
		return nil
	}
	if len(g.Players) == 0 {
		s.printf("Nobody has joined game '%s' yet.", g.Name)
		return nil
	}
	for i := range g.Players {
		p := &g.Players[i]
		who := "a player who is not registered"
		if p.Empty {
			who = engine.EmptySeat + " (free for takeover)"
		} else if p.Former {
			who = formerPlayer
		} else if r, err := s.registrant(p.Addr); err != nil {
			return err
		} else if r != nil {
			who = profileLine(r)
		}
		seat := p.Power
		if seat == "" {
			seat = "Joined"
		}
		s.printf("  %-10s %s", seat+":", who)
	}
	return nil
}

// admits checks the sender against the gates of g before a join or a
// takeover, and says which gate refuses, with the sender's own figure.
func (s *session) admits(c *parser.Command, g *state.Game) (bool, error) {
	e := g.Entry
	// Invitations close the game, unless it has a join password: then
	// whoever knows it may join too (checked after the gates).
	if len(e.Invited) > 0 && len(e.JoinHash) == 0 && !slices.Contains(e.Invited, strings.ToLower(strings.TrimSpace(s.in.From))) {
		s.fail(c.Line, "Game '%s' is by invitation: its master has not invited this address (INVITE).", g.Name)
		return false, nil
	}
	f, r, err := s.figuresOfAddr(s.in.From)
	if err != nil {
		return false, err
	}
	if refusal := players.Admit(e, r != nil, f); refusal != nil {
		s.fail(c.Line, "You may not join game '%s': %s.", g.Name, refusal.Error())
		return false, nil
	}
	return true, nil
}

// member reports whether addr takes part in g: its master, a player
// (while forming too), an observer, or invited. A private game is shown
// to its members only.
func member(g *state.Game, addr string) bool {
	return engine.SameAddr(g.MasterAddr, addr) || engine.PlayerByAddr(g, addr) >= 0 || engine.ObserverByAddr(g, addr) >= 0 ||
		slices.Contains(g.Entry.Invited, strings.ToLower(strings.TrimSpace(addr)))
}

// hidden reports whether g is private and the sender no member of it:
// then LIST, HISTORY, SUMMARY and WHO answer as for a game that is not
// there.
func (s *session) hidden(g *state.Game) bool {
	return g.Entry.Private && !member(g, s.in.From) && !s.m.isAdmin(s.in.From)
}

// setEntry handles the master's SET options of who may join (the
// caller has checked that the sender is the master): it returns the
// change in words, "" with a refusal already written.
func (s *session) setEntry(c *parser.Command, opt string, args []string) string {
	e := &s.game.Entry
	num := func(what string, min, max float64) (float64, bool) {
		if len(args) != 1 {
			s.fail(c.Line, "Use: SET %s with one number.", what)
			return 0, false
		}
		x, err := strconv.ParseFloat(args[0], 64)
		if err != nil || x < min || x > max || x != x {
			s.fail(c.Line, "SET %s takes a number from %g to %g; %q is not one.", what, min, max, args[0])
			return 0, false
		}
		return x, true
	}
	switch opt {
	case "DEDICATION":
		x, ok := num("DEDICATION", -1e6, 1e6)
		if !ok || x != float64(int(x)) {
			if ok {
				s.fail(c.Line, "SET DEDICATION takes a whole number.")
			}
			return ""
		}
		e.Dedication, e.HasDedication = int(x), true
		return fmt.Sprintf("Players need a dedication of at least %d to join.", e.Dedication)
	case "ONTIMERAT":
		x, ok := num("ONTIMERAT", 0, 1)
		if !ok {
			return ""
		}
		e.OnTime = x
		return "Players need an on-time ratio of at least " + players.Ratio(x) + " to join."
	case "RESRAT":
		x, ok := num("RESRAT", 0, 1)
		if !ok {
			return ""
		}
		e.Resign, e.HasResign = x, true
		return "Players need a resignation ratio of at most " + players.Ratio(x) + " to join."
	case "MINGAMES":
		if len(args) > 0 && strings.EqualFold(args[0], "GAMES") {
			args = args[1:]
		}
		x, ok := num("MIN GAMES", 0, 10000)
		if !ok || x != float64(int(x)) {
			if ok {
				s.fail(c.Line, "SET MIN GAMES takes a whole number.")
			}
			return ""
		}
		e.MinGames = int(x)
		return fmt.Sprintf("Players need at least %d finished games to join.", e.MinGames)
	case "REGISTERED":
		e.Registered = true
		return "Only registered players may join."
	case "NOREGISTERED":
		e.Registered = false
		return "Players need not be registered to join."
	case "PRIVATE":
		e.Private = true
		return "The game is private: LIST and the web pages show it to its members only."
	case "PUBLIC":
		e.Private = false
		return "The game is listed to everyone."
	case "APPROVAL", "NOAPPROVAL":
		if s.game.Status != state.Forming {
			s.fail(c.Line, "Game '%s' has started: SET %s is for a forming game.", s.game.Name, opt)
			return ""
		}
		if e.Approval = opt == "APPROVAL"; e.Approval {
			return "Each join waits for the master's approval (APPROVE), but an invited address's."
		}
		return "Joins need no approval (those waiting still do)."
	}
	return ""
}

// cmdInvite handles INVITE address ...: the master invites addresses,
// which may then join (with the usual confirmation); once anyone is
// invited, nobody else may join.
func (s *session) cmdInvite(c *parser.Command) error {
	g := s.game
	if len(c.Args) == 0 {
		s.fail(c.Line, "Use: INVITE address, with one or more addresses.")
		return nil
	}
	if g.Status == state.Finished {
		s.fail(c.Line, "Game '%s' is over.", g.Name)
		return nil
	}
	const maxInvited = 100
	for _, a := range c.Args {
		a = strings.ToLower(strings.Trim(a, "<>,;"))
		if at := strings.LastIndexByte(a, '@'); at < 1 || at == len(a)-1 || strings.ContainsAny(a, " \t\"") {
			s.fail(c.Line, "%q is not a mail address.", a)
			continue
		}
		if slices.Contains(g.Entry.Invited, a) {
			continue
		}
		if len(g.Entry.Invited) >= maxInvited {
			s.fail(c.Line, "A game invites at most %d addresses.", maxInvited)
			return nil
		}
		g.Entry.Invited = append(g.Entry.Invited, a)
	}
	s.printf("Invited to '%s': %s. Only they may join; each joins with SIGNON ?%s password, and confirms the address.",
		g.Name, strings.Join(g.Entry.Invited, ", "), g.Name)
	return nil
}

// The SET table's registry rows and their handlers, added to
// setHandlers here so that the table's own file stays as it was.
func init() {
	for _, opt := range []string{"DEDICATION", "ONTIMERAT", "RESRAT", "MINGAMES", "REGISTERED", "NOREGISTERED", "PRIVATE", "PUBLIC", "APPROVAL", "NOAPPROVAL"} {
		setHandlers[opt] = func(s *session, c *parser.Command, _ string, args []string) error {
			change := s.setEntry(c, opt, args)
			if change == "" {
				return nil
			}
			s.dirty = true
			s.printf("%s", change)
			return s.parameterChange(change)
		}
	}
	showOrHide := func(s *session, c *parser.Command, word string, args []string) error {
		if len(args) == 1 && strings.EqualFold(args[0], "ADDRESS") {
			return s.setShowAddress(c, word == "SHOW")
		}
		s.fail(c.Line, "Use: SET SHOW ADDRESS or SET HIDE ADDRESS.")
		return nil
	}
	setHandlers["SHOWADDRESS"] = showOrHide
	setHandlers["HIDEADDRESS"] = showOrHide
	setHandlers["JOIN"] = func(s *session, c *parser.Command, _ string, args []string) error { return s.setJoinPassword(c, args) }
	setHandlers["ADDRESS"] = func(s *session, c *parser.Command, _ string, args []string) error { return s.setAddress(c, args) }
}

// maxPending bounds the joins that wait for approval in one game: each
// is a confirmed address, but a master who never answers should not let
// the list grow without end.
const maxPending = 50

// askApproval keeps a confirmed join for the master's approval (SET
// APPROVAL), with the password hash it will join with.
func (s *session) askApproval(c *parser.Command, g *state.Game, hash []byte, prefs string) error {
	addr := strings.ToLower(strings.TrimSpace(s.in.From))
	e := &g.Entry
	e.Pending = slices.DeleteFunc(e.Pending, func(p state.Player) bool { return engine.SameAddr(p.Addr, addr) })
	if len(e.Pending) >= maxPending {
		s.fail(c.Line, "Game '%s' has %d joins waiting for its master's approval already: try again later.", g.Name, maxPending)
		return errStop
	}
	e.Pending = append(e.Pending, state.Player{Addr: addr, PassHash: hash, Status: state.Playing, Preference: prefs, Joined: s.now})
	s.printf("Your join of game '%s' waits for its master's approval. Once approved, LIST %s shows you among its players, and its start mail comes to you.", g.Name, g.Name)
	// The session is signed on to no game: write this one itself.
	return s.tx.PutGame(g)
}

// cmdApprove handles APPROVE address (a join that waits joins) and
// APPROVE alone (the list of those waiting).
func (s *session) cmdApprove(c *parser.Command) error {
	g := s.game
	e := &g.Entry
	watchers := waitingObservers(g)
	if len(c.Args) == 0 {
		if len(e.Pending)+len(watchers) == 0 {
			s.printf("No join of '%s' waits for your approval.", g.Name)
			return nil
		}
		s.printf("Waiting for your approval (APPROVE address):")
		for _, p := range e.Pending {
			s.printf("  %s", p.Addr)
		}
		for _, a := range watchers {
			s.printf("  %s (to observe)", a)
		}
		return nil
	}
	if len(watchers) > 0 {
		// The observers of a fogged game wait whatever the game's
		// status; the joins, only while it forms.
		var rest []string
		for _, a := range c.Args {
			ok, err := s.approveObserver(a)
			if err != nil {
				return err
			}
			if !ok {
				rest = append(rest, a)
			}
		}
		if len(rest) == 0 {
			return nil
		}
		c.Args = rest
	}
	if g.Status != state.Forming {
		s.fail(c.Line, "Game '%s' has started: there is no join to approve.", g.Name)
		return nil
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	for _, a := range c.Args {
		i := slices.IndexFunc(e.Pending, func(p state.Player) bool { return engine.SameAddr(p.Addr, a) })
		if i < 0 {
			s.fail(c.Line, "No join from %s waits for approval.", a)
			continue
		}
		if len(g.Players) >= len(mp.Powers) {
			s.fail(c.Line, "Game '%s' is full.", g.Name)
			return nil
		}
		p := e.Pending[i]
		e.Pending = slices.Delete(e.Pending, i, i+1)
		p.Joined = s.now
		g.Players = append(g.Players, p)
		s.printf("%s has joined game '%s': %d of %d players.", p.Addr, g.Name, len(g.Players), len(mp.Powers))
	}
	if len(e.Pending) == 0 {
		e.Pending = nil
	}
	if len(g.Players) == len(mp.Powers) {
		s.printf("The game is full and starts now.")
		return s.m.StartGame(s.tx, g, s.now)
	}
	return nil
}

// setJoinPassword handles SET JOIN PASSWORD pw and SET JOIN NONE: a
// joiner who is not invited gives pw after their own password, checked
// by the guard like every password.
func (s *session) setJoinPassword(c *parser.Command, args []string) error {
	g := s.game
	if g.Status != state.Forming {
		s.fail(c.Line, "Game '%s' has started: SET JOIN is for a forming game.", g.Name)
		return nil
	}
	var change string
	switch {
	case len(args) == 1 && strings.EqualFold(args[0], "NONE"):
		g.Entry.JoinHash, change = nil, "Joining needs no join password."
	case len(args) == 2 && strings.EqualFold(args[0], "PASSWORD"):
		hash, err := s.passwordHash(c, args[1])
		if err != nil {
			return err
		}
		if hash == nil {
			return nil // refused, and said so
		}
		g.Entry.JoinHash, change = hash, "Joining needs the join password, given after one's own (SIGNON ?"+g.Name+" password joinpassword), unless invited."
	default:
		s.fail(c.Line, "Use: SET JOIN PASSWORD pw, or SET JOIN NONE.")
		return nil
	}
	s.dirty = true
	s.printf("%s", change)
	return s.parameterChange(change)
}

// needsJoinPassword reports whether the sender must give g's join
// password to join it: it has one, and the sender is not invited.
func (s *session) needsJoinPassword(g *state.Game) bool {
	return len(g.Entry.JoinHash) > 0 && !slices.Contains(g.Entry.Invited, strings.ToLower(strings.TrimSpace(s.in.From)))
}

// checkJoinPassword checks the join password of g, the word after the
// joiner's own password, with the guard on guessing like every password.
func (s *session) checkJoinPassword(c *parser.Command, g *state.Game) (bool, error) {
	if len(c.Args) < 3 {
		s.fail(c.Line, "Game '%s' needs its join password after yours: SIGNON ?%s password joinpassword [preferences].", g.Name, g.Name)
		return false, errStop
	}
	return s.checkSeat(c, g, g.Name+"/join", g.Entry.JoinHash, c.Args[2], "")
}

// hasJoinPassword reports whether the forming game a SIGNON ?name
// joins needs a join password: its words after the joiner's password
// are then all hidden in the echo.
func (s *session) hasJoinPassword(name string) bool {
	g, err := s.tx.Game(strings.ToLower(name))
	return err == nil && len(g.Entry.JoinHash) > 0
}
