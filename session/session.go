// Package session is the mail session of the judge: one incoming mail's
// commands (sign-on, account, settings, control, information, press,
// orders), parsed, checked against the seat's password and the mail's
// cost, carried out through the game engine (package engine), and
// answered.
//
// Time is always an argument: Handle(mail, now) for one incoming mail.
// All that one call changes, games and queued replies alike, is written
// in one state transaction.
package session

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/templates"
)

// Master reads the judge's mail command language: Handle(mail, now)
// handles one incoming mail, checks its commands and calls the game
// engine it embeds, which runs the life of games (Tick). It is safe for
// concurrent use; the database serializes the changes.
type Master struct {
	*engine.Engine

	db   *state.DB
	cfg  *engine.Config // the engine's (engine.Engine.Config)
	tmpl *templates.Set

	// verified caches passwords already checked against their bcrypt hash
	// in this process, keyed by game/power and holding a SHA-256 of the
	// password: bcrypt is meant to be slow, and players send their
	// password with every mail. Never written anywhere.
	verified sync.Map
}

// New returns a master over db, with the engine's defaults for what cfg
// leaves unset (engine.New).
func New(db *state.DB, cfg engine.Config) *Master {
	e := engine.New(db, cfg)
	return &Master{Engine: e, db: db, cfg: e.Config(), tmpl: e.Config().Templates}
}

// Mail is one incoming mail, already decoded to text.
type Mail struct {
	From      string // the sender's bare address
	Subject   string
	Body      string // the text/plain content
	MessageID string // "<...>" as in the header; may be empty
	// Ledger lists extra keys under which the mail is recorded as handled
	// (the IMAP poller adds "imap/<uidvalidity>/<uid>"); if any key, or the
	// Message-ID, is already recorded, the mail is a duplicate and is
	// ignored.
	Ledger []string
}

// session is the work of one incoming mail: the transaction, who signed
// on, and the reply being written.
type session struct {
	m   *Master
	tx  *state.Tx
	now time.Time
	in  *Mail

	game   *state.Game // the game signed on to, nil before SIGNON
	power  string      // the power signed on as; "Master" for the master; "" for an observer
	master bool        // signed on as the game's master
	// coMaster is set, with master, for a co-master (PROMOTE) signed on
	// with their own password: all the master's commands but those
	// that change who masters.
	coMaster bool
	become   string // the power a master is acting for after BECOME
	// joined is set when the sender signed on, with its password, to
	// their seat in a forming game (SIGNON ?game), and observer when
	// they signed on as an observer: the seat commands act on the seat
	// signed on to and on no other, whatever the From says.
	joined   bool
	observer bool
	exported bool // the mail's EXPORT was done: one a mail

	codes     []string // the codes of the mail's CONFIRM lines
	codeAsked bool     // a command looked for a code

	reply      replyText      // the reply to the sender
	maps       []state.MapRef // the maps the reply carries (HISTORY game phase)
	errors     int            // errors reported in the reply
	dirty      bool           // s.game changed and must be written back
	orderLines int            // lines of orders read so far (maxOrderLines)
	changes    []string       // the settings the master changed, for the one notice (announceChanges)

	work *bcryptWork // the mail's bcrypt work, done outside the transaction

	// What the mail has cost so far, for the bounds of cost.go.
	outputs    int   // commands with output run
	notRun     []int // lines of the commands with output not run
	pressBytes int64 // bytes of press text sent

	// The orders of issue 24: ahead is the phase a PHASE named, whose
	// order lines follow (nil: the current phase; the zero Phase: a PHASE
	// refused, whose lines are not read); conds counts the mail's
	// conditions (parser.MaxConds); previewed is set once a PREVIEW ran.
	ahead     *judge.Phase
	conds     int
	previewed bool
}

// printf adds a line to the reply.
// Lines longer than templates.LineWidth are broken at spaces (RFC 5322's
// 78 characters); text that must stay as it is (the classic layout's
// order lines, a player's own words) goes into s.reply directly.
func (s *session) printf(format string, args ...any) {
	s.reply.WriteString(templates.Wrap(fmt.Sprintf(format, args...)))
	if !strings.HasSuffix(format, "\n") {
		s.reply.WriteByte('\n')
	}
}

// fail reports an error in the reply, naming the line it came from. Like
// printf, it breaks lines that are too long.
func (s *session) fail(line int, format string, args ...any) {
	s.errors++
	where := "Error: "
	if line > 0 {
		where = fmt.Sprintf("Error (line %d): ", line)
	}
	s.reply.WriteString(templates.Wrap(where + fmt.Sprintf(format, args...)))
	s.reply.WriteByte('\n')
}

// isAdmin reports whether addr is one of Config.Admins.
func (m *Master) isAdmin(addr string) bool {
	return slices.ContainsFunc(m.cfg.Admins, func(a string) bool { return engine.SameAddr(a, addr) })
}
