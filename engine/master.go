// Package engine is the game engine: the life of games that runs without
// a mail (deadlines, processing a phase, time of day, reminders and late
// notices, grace, civil disorder, the end of a game, gunboat reveal) and
// the sending of every mail about a game through the templates. The mail
// session (package session) reads a mail's commands and calls the engine;
// the engine knows nothing of the command language.
//
// Time is always an argument: Tick(now) runs the deadlines. All that one
// call changes, games and queued mails alike, is written in one state
// transaction.
package engine

import (
	"crypto/rand"
	"encoding/base32"
	"log/slog"
	"net/mail"
	"net/netip"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/internal/textsafe"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/templates"
)

// Config is what the master needs to know about the judge it runs in:
// judge.conf's settings whole, as package config reads them, with the
// templates and the log that the daemon opens from them. The master
// reads, of the settings:
//
//   - JudgeName and JudgeAddr, shown in subjects and headers ("GMD",
//     "judge@localhost" when empty);
//   - Admins, who may act as the master of any game: from one of these
//     addresses, SIGNON Mgame needs no password (config allows them only
//     with sender authentication, as the From address is all that tells
//     an admin);
//   - SenderAuth: when it checks (Require.Checks), every mail handed to
//     Handle has passed sender authentication, so that its From is its
//     sender, and the game's limit on wrong passwords spares a seat's own
//     address signing on to that seat (without it, forged mails under the
//     seats' addresses could make every player confirm each mail with a
//     code);
//   - PasswordCost, the bcrypt work factor of new password hashes (0:
//     bcrypt.DefaultCost; hashes already stored keep their cost);
//   - the limits block (config.LimitTable says what each bounds, its
//     default and why): MaxObservers and MaxGamesPerMaster (0: their
//     defaults; judge admins are not held to the second), MaxLineLength
//     (the longest command or order line read, 0 for no limit; press is
//     not held to it) and the bounds on one mail's cost, each 0 for no
//     limit (the session's cost.go says how each is kept). MaxMailSize is
//     the poller's.
type Config struct {
	config.Config

	// Templates are the mails' templates, read from the directory that
	// config.Config's Templates names (this field hides that one);
	// templates.Builtin() when nil.
	Templates *templates.Set

	// Log receives the games' events (a phase processed, a player late,
	// a seat abandoned, in civil disorder or taken over, a game ended),
	// at INFO with the game and its phase as attributes, once the change
	// is committed. Nil logs nothing.
	Log *slog.Logger

	// BotBudget is the number of adjudications the judge's bot spends on
	// a movement phase of a seat it plays (SET BOT); 0 is
	// bot.DefaultBudget. Tests that play many seats lower it.
	BotBudget int
	// BotMaxTime caps the bot's time a phase, as bot.Config.MaxTime does;
	// 0 is bot's default. Its choice depends on its seed and budget only
	// while the cap is not reached: a test of that raises the cap, since
	// a loaded machine under the race detector can reach the default.
	BotMaxTime time.Duration
}

// Master runs games stored in a state.DB. It is safe for concurrent use;
// the database serializes the changes.
type Engine struct {
	db   *state.DB
	cfg  *Config // shared with the session (Config)
	tmpl *templates.Set
}

// New returns a master over db.
func New(db *state.DB, cfg Config) *Engine {
	if cfg.JudgeName == "" {
		cfg.JudgeName = "GMD"
	}
	if cfg.JudgeAddr == "" {
		cfg.JudgeAddr = "judge@localhost"
	}
	if cfg.Templates == nil {
		cfg.Templates = templates.Builtin()
	}
	if cfg.PasswordCost == 0 {
		cfg.PasswordCost = bcrypt.DefaultCost
	}
	if cfg.MaxObservers == 0 {
		cfg.MaxObservers = config.DefaultMaxObservers
	}
	if cfg.MaxGamesPerMaster == 0 {
		cfg.MaxGamesPerMaster = config.DefaultMaxGamesPerMaster
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Engine{db: db, cfg: &cfg, tmpl: cfg.Templates}
}

// DB returns the database the master works on.
func (m *Engine) DB() *state.DB { return m.db }

// Config returns the engine's configuration, with New's defaults filled
// in. It is the one the engine reads, shared with the mail session that
// embeds the engine, so that both run by one configuration; it is not to
// be changed once mail is handled.
func (m *Engine) Config() *Config { return m.cfg }

// Send renders template name with data and queues the mail to every
// address in to, in the current transaction. inReplyTo is the Message-ID
// the mail answers, or "".
func (m *Engine) Send(tx *state.Tx, now time.Time, name string, data any, to []string, inReplyTo string) error {
	return m.SendMaps(tx, now, name, data, to, inReplyTo, nil)
}

// SendMaps is send for a mail that carries the pictures of maps after
// its text.
func (m *Engine) SendMaps(tx *state.Tx, now time.Time, name string, data any, to []string, inReplyTo string, maps []state.MapRef) error {
	return m.enqueue(tx, now, name, data, to, inReplyTo, maps, nil)
}

// SendFiles is send for a mail that carries files after its text, kept
// whole in the outbox (state.OutMail.Files).
func (m *Engine) SendFiles(tx *state.Tx, now time.Time, name string, data any, to []string, inReplyTo string, files []state.File) error {
	return m.enqueue(tx, now, name, data, to, inReplyTo, nil, files)
}

// enqueue is every Send: the mail rendered from template name, to the
// addresses of to that are plain addresses, with its maps and files.
func (m *Engine) enqueue(tx *state.Tx, now time.Time, name string, data any, to []string, inReplyTo string, maps []state.MapRef, files []state.File) error {
	// Every address was a sender's once (ValidSender let it in); one
	// that is not a plain address now is dropped rather than left to
	// fail in the outbox.
	to = slices.DeleteFunc(slices.Clone(to), func(a string) bool { return !ValidSender(a) })
	if len(to) == 0 {
		return nil
	}
	subject, body, err := m.tmpl.Render(name, data)
	if err != nil {
		return err
	}
	if !validMsgID(inReplyTo) {
		inReplyTo = ""
	}
	return tx.Enqueue(&state.OutMail{
		MessageID: newMessageID(domainOf(m.cfg.JudgeAddr)),
		To:        to,
		Subject:   headerText(subject),
		Body:      textsafe.Clean(body),
		InReplyTo: inReplyTo,
		Created:   now,
		Maps:      maps,
		Files:     files,
	})
}

// SendGame is send for a mail about game g to the addresses in to, which
// answers no mail. In a gunboat game each address gets a copy of its own,
// so that nothing in one copy's headers or envelope (a To, a relay's
// "for <address>") can name another of the game's players.
func (m *Engine) SendGame(tx *state.Tx, now time.Time, g *state.Game, name string, data any, to []string) error {
	if !g.Settings.Gunboat {
		return m.Send(tx, now, name, data, to, "")
	}
	for _, a := range to {
		if err := m.Send(tx, now, name, data, []string{a}, ""); err != nil {
			return err
		}
	}
	return nil
}

// sendResults is SendGame for a phase's results, which carry two
// pictures to the addresses that want them (WantsMap): the phase with
// its orders and their outcomes, ref, and the board after it, so that a
// player plans on the board as it now stands.
func (m *Engine) sendResults(tx *state.Tx, now time.Time, g *state.Game, data any, to []string, ref state.MapRef) error {
	after := ref
	after.After = true
	return m.sendWithMaps(tx, now, g, "results", data, to, []state.MapRef{ref, after})
}

// sendWithMaps is SendGame for a mail that carries maps (pictures, a
// replay) to the addresses that want them (WantsMap); those that do not
// get the same mail without, as a mail of its own.
func (m *Engine) sendWithMaps(tx *state.Tx, now time.Time, g *state.Game, name string, data any, to []string, maps []state.MapRef) error {
	var with, without []string
	for _, a := range to {
		if WantsMap(g, a) && len(maps) > 0 {
			with = append(with, a)
		} else {
			without = append(without, a)
		}
	}
	for _, group := range []struct {
		to   []string
		maps []state.MapRef
	}{{with, maps}, {without, nil}} {
		if len(group.to) == 0 {
			continue
		}
		if !g.Settings.Gunboat {
			if err := m.SendMaps(tx, now, name, data, group.to, "", group.maps); err != nil {
				return err
			}
			continue
		}
		for _, a := range group.to {
			if err := m.SendMaps(tx, now, name, data, []string{a}, "", group.maps); err != nil {
				return err
			}
		}
	}
	return nil
}

// headerText makes text fit for a header field: control characters,
// line breaks among them, become spaces, runs of white space one space,
// and what else textsafe.Clean takes out of a player's text (a bidi
// override) goes. Subjects quote players' subjects and names; a CR or LF
// kept there would let a player write header fields of their own (a
// Bcc) into the judge's mail, and mail.Compose would refuse the mail for
// good.
func headerText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(textsafe.Clean(s)), " ")
}

// ValidSender reports whether addr is a bare mail address ("a@b.c")
// with nothing around it, within the lengths of RFC 5321: the judge
// answers only such senders, and writes only such addresses into the To
// of its mail and into its records.
func ValidSender(addr string) bool { return SenderFault(addr) == "" }

// SenderFault says why the judge does not write to addr, in a few words
// for the log, or "" if it does. Besides a plain address within RFC
// 5321's lengths, the judge wants a domain that is a name: an IP address
// ("victim@[127.0.0.1]", "postmaster@[10.0.0.1]", "a@10.0.0.1") would
// have the judge's mail server deliver to the loopback or an internal
// host, at a stranger's word. And no format character (Unicode Cf: a
// right-to-left override, a zero-width space) anywhere: such an address
// shows as another in a listing, and no one needs one.
func SenderFault(addr string) string {
	if addr == "" {
		return "no address"
	}
	if !withinRFC5321(addr) {
		return "not an address within RFC 5321's lengths"
	}
	if strings.ContainsFunc(addr, unicode.IsControl) {
		return "a control character in the address"
	}
	if strings.ContainsFunc(addr, isFormatChar) {
		return "a format character (bidi override, zero-width) in the address"
	}
	a, err := mail.ParseAddress(addr)
	if err != nil || a.Name != "" || a.Address != addr {
		return "not a bare mail address"
	}
	domain := addr[strings.LastIndexByte(addr, '@')+1:]
	if strings.HasPrefix(domain, "[") {
		return "an IP address literal for a domain"
	}
	if _, err := netip.ParseAddr(domain); err == nil {
		return "an IP address for a domain"
	}
	return ""
}

// isFormatChar reports whether r is a Unicode format character (Cf),
// such as the bidi controls and the zero-width characters: invisible,
// they make a text show as something else.
func isFormatChar(r rune) bool { return unicode.Is(unicode.Cf, r) }

// The longest local part, domain and path (the address between "<" and
// ">") that RFC 5321 §4.5.3.1 lets a mail server refuse beyond. No
// server would deliver to a longer address, so it is nobody's; and the
// address is a key of the judge's records, which must stay small.
const (
	maxLocalPart = 64
	maxDomain    = 255
	maxPath      = 256
)

// withinRFC5321 reports whether addr keeps to the lengths of RFC 5321.
func withinRFC5321(addr string) bool {
	at := strings.LastIndexByte(addr, '@')
	return at >= 0 && at <= maxLocalPart && len(addr)-at-1 <= maxDomain && len("<"+addr+">") <= maxPath
}

// validMsgID reports whether id may be quoted as the In-Reply-To of a
// reply ("" means none): "<left@right>" in the printable ASCII that RFC
// 5322 §3.6.4 allows there, as mail.Compose checks it. An id it would
// refuse would keep the reply from ever being sent.
func validMsgID(id string) bool {
	if id == "" {
		return true
	}
	if len(id) < 5 || len(id) > 998 || id[0] != '<' || id[len(id)-1] != '>' {
		return false
	}
	inner := id[1 : len(id)-1]
	if at := strings.LastIndexByte(inner, '@'); at <= 0 || at == len(inner)-1 {
		return false
	}
	return !strings.ContainsFunc(inner, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune(`<>"\,;`, r)
	})
}

// newMessageID returns a Message-ID for a mail of the judge at domain:
// "<gmd." 26 random base32 characters (128 bits) "@domain>". It holds
// nothing else, no counter and no time, so that two mails tell nobody
// how many the judge sent between them (in a gunboat game, that someone
// just sent orders). Exactly-once needs no deterministic id: the id is
// made once, in the transaction that records the mail it answers, and
// stored in the outbox with the mail, so a mail sent again after a
// failure carries the same id.
func newMessageID(domain string) string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand, Go 1.24 on)
	return "<gmd." + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])) + "@" + domain + ">"
}

// domainOf returns the domain of a mail address, or "localhost".
func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 && i+1 < len(addr) {
		return strings.Trim(addr[i+1:], "<> ")
	}
	return "localhost"
}
