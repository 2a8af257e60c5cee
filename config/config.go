// Package config reads judge.conf, the file an operator writes to run gmd.
//
// The file is in the scfg syntax (see Read): one directive per line, a
// name followed by its parameters, with blocks in braces for the mail
// servers:
//
//	judge-name GMD
//	judge-address judge@example.org
//	db /var/lib/gmd/gmd.db
//	admin alice@example.org
//	imap {
//		address imap.example.org:993
//		username judge
//		password "secret"
//	}
//
// judge.conf.example at the top of the repository documents every
// directive. Every mistake is reported with the file and line, and all
// of them at once, so that an operator fixes the file in one go.
package config

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/internal/length"
)

// Config is the judge's configuration.
type Config struct {
	JudgeName string   // in subjects and report headers: "GMD"
	JudgeAddr string   // the judge's own address, the From of every mail it sends
	DB        string   // the bbolt database file; "" if not set
	Templates string   // a directory of templates overriding the built-in ones; "" for none
	Admins    []string // addresses that may act as the master of any game; needs SenderAuth
	// Limits is the limits block, embedded so that a package taking the
	// Config whole (the game engine's engine.Config) reads each bound by
	// its name.
	Limits
	IMAP     *IMAP // where mail comes in; nil if not configured
	SMTP     *SMTP // where mail goes out; nil if not configured
	HTTP     *HTTP // the read-only web pages; nil (the default) for none
	LogLevel slog.Level

	// PasswordCost is the bcrypt cost of new password hashes
	// (password-cost; bcrypt's default unless set).
	PasswordCost int

	// LedgerRetention is how long gmd run keeps the ledger entry of a
	// mail it handled (ledger-retention; DefaultLedgerRetention unless
	// set, never under MinLedgerRetention).
	LedgerRetention time.Duration

	SenderAuth SenderAuth
}

// SenderAuth is what a mail must show of its sender before the judge
// acts on it (see package mail's Authenticate).
type SenderAuth struct {
	// Require is SenderAuthNone (the default: every From is believed),
	// SenderAuthDKIM or SenderAuthDKIMOrSPF.
	Require SenderAuthMode
	// AuthServID is the authserv-id that the receiving mail server
	// writes at the start of its Authentication-Results fields
	// ("mx.example.org"); required for dkim-or-spf. The judge reads mail
	// out of a mailbox, after the server took it in: it cannot check SPF
	// itself, since the connection's IP address is gone, and must take
	// the server's word. Only the topmost field with this authserv-id is
	// read. The server adds its field on top of those the mail came
	// with, any of which the sender may have written, authserv-id and
	// all (RFC 8601 §5 asks the server to remove those, and not every
	// server does).
	AuthServID string
}

// SenderAuthMode is what a mail must show before the judge believes its
// From: judge.conf's require-sender-auth. It is the one type of it, which
// package mail's Authenticate reads too.
type SenderAuthMode string

// The sender authentication requirements.
const (
	// SenderAuthNone believes every From, as mail always did: anyone who
	// knows a player's address and password can act for them.
	SenderAuthNone SenderAuthMode = "none"
	// SenderAuthDKIM wants a valid DKIM signature (RFC 6376) by the domain
	// of the From address or a parent of it, verified by the judge itself.
	SenderAuthDKIM SenderAuthMode = "dkim"
	// SenderAuthDKIMOrSPF takes, short of such a signature, an SPF pass
	// (RFC 7208) for an envelope sender in that domain, as the receiving
	// mail server recorded it in its Authentication-Results (RFC 8601).
	SenderAuthDKIMOrSPF SenderAuthMode = "dkim-or-spf"
)

// Checks reports whether m asks for any check at all ("" is SenderAuthNone).
func (m SenderAuthMode) Checks() bool {
	return m != "" && m != SenderAuthNone
}

// Limits bound what the judge accepts from the outside.
type Limits struct {
	MaxMailSize   int64 // bytes of a whole incoming message; larger ones get a polite refusal
	MaxLineLength int   // bytes of one line of a mail body
	// MaxObservers is how many observers one game may have, and
	// MaxGamesPerMaster how many games not yet over one address may be
	// the master of; 0 means DefaultMaxObservers, DefaultMaxGamesPerMaster.
	MaxObservers      int
	MaxGamesPerMaster int

	// The bounds on what one incoming mail may cost the judge and the
	// addresses it writes to. Replies go to the From line, which anyone
	// can forge, so without them the judge could be turned on a third
	// party: each bound keeps a mail's effect within a fixed multiple of
	// nothing the sender controls.
	MaxReplySize      int   // bytes of the text of one reply; the rest is cut, with a note saying so
	MaxOutputCommands int   // HELP, LIST, HISTORY, SUMMARY and PREDICT answered per mail; later ones are not run
	MaxMailsPerMail   int   // mails one incoming mail may cause, one per recipient address, the reply included
	MaxPressPerMail   int64 // bytes of press text one mail may send
	MaxPressPerPhase  int64 // bytes of press text one sender may send in one phase of a game

	// MaxReplayBytes is the most one file of a game's replay (the whole
	// game as an animated GIF, in the game-over mail and HISTORY game
	// REPLAY) weighs: a larger replay is drawn narrower, then cut into
	// parts of this size, MaxReplayParts at most, else left out.
	MaxReplayBytes int
}

// MaxReplayParts is how many parts a replay is cut into at most: with
// the default MaxReplayBytes a mail of 6M, 8.2M in base64, under the
// 10M that Postfix takes by default (message_size_limit) and most
// providers more.
const MaxReplayParts = 3

// TLSMode is how a connection to a mail server is secured.
type TLSMode string

// The TLS modes.
const (
	TLSImplicit TLSMode = "implicit" // TLS from the first byte (IMAPS 993, SMTPS 465)
	TLSStartTLS TLSMode = "starttls" // plain, then upgraded by STARTTLS (143, 587)
	TLSNone     TLSMode = "none"     // no encryption: loopback only
)

// Server is how to reach and log in to a mail server.
type Server struct {
	Addr     string // host:port
	TLS      TLSMode
	Username string
	Password string
	// CACert is a PEM file of certificates to trust instead of the system's
	// roots, for a server with a private CA or a self-signed certificate.
	CACert string
	// RootCAs holds the certificates read from CACert; nil means the
	// system's roots.
	RootCAs            *x509.CertPool
	InsecureSkipVerify bool // no certificate check at all: for tests only
}

// Host returns the host part of Addr.
func (s *Server) Host() string {
	host, _, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return s.Addr
	}
	return host
}

// TLSConfig returns the TLS client settings for the server.
func (s *Server) TLSConfig() *tls.Config {
	return &tls.Config{
		ServerName:         s.Host(),
		RootCAs:            s.RootCAs,
		InsecureSkipVerify: s.InsecureSkipVerify,
		MinVersion:         tls.VersionTLS12,
	}
}

// IMAP is the mailbox the judge reads.
type IMAP struct {
	Server
	Mailbox          string        // where new mail arrives; default INBOX
	ProcessedMailbox string        // where handled mail is moved; "" leaves it in Mailbox, flagged \Seen
	PollInterval     time.Duration // between checks when the server has no IDLE, and as a safety net; default 60s
}

// SMTP is the submission server the judge sends through.
type SMTP struct {
	Server
}

// The defaults of the settings that have one.
const (
	DefaultJudgeName     = "GMD"
	DefaultJudgeAddr     = "judge@localhost"
	DefaultMaxMailSize   = 1 << 20
	DefaultMaxLineLength = 1000
	DefaultMailbox       = "INBOX"
	DefaultPollInterval  = 60 * time.Second
)

// The defaults of the games' sizes and of the bounds on one mail's cost
// (Limits); LimitTable says why each is what it is.
const (
	DefaultMaxObservers      = 20
	DefaultMaxGamesPerMaster = 10
	DefaultMaxReplySize      = 64 << 10
	DefaultMaxOutputCommands = 4
	DefaultMaxMailsPerMail   = 50
	DefaultMaxPressPerMail   = 64 << 10
	DefaultMaxPressPerPhase  = 256 << 10
	DefaultMaxReplayBytes    = 2 << 20
)

// The ledger of handled mails is what keeps a mail offered twice from
// being applied twice, so an entry must outlive every way its mail can
// come back as new:
//
//   - a crash between the commit and the \Seen flag offers the mail
//     again at the next start, however long the judge stays down;
//   - a changed UIDVALIDITY (a mailbox restored or moved to a new server)
//     offers every mail still in the mailbox, and by default handled
//     mail stays there;
//   - a mail server that lost a 250 delivers a copy of the mail again,
//     with the same Message-ID, for up to its queue lifetime (5 days for
//     Postfix and Sendmail).
//
// No retention covers the first two for ever, so gmd run also leaves
// alone any mail that arrived longer ago than the retention (a little
// less, for clocks that disagree): it cannot tell whether it handled it.
// The retention must then be long enough that no mail a player sent is
// that old when the judge reads it: 90 days keeps a judge that was down
// for weeks, or a broken database restored after a month, on the safe
// side, for about 140 bytes a mail. The floor of 7 days covers the mail
// servers' retries with a margin.
const (
	DefaultLedgerRetention = 90 * 24 * time.Hour
	MinLedgerRetention     = 7 * 24 * time.Hour
)

// Defaults returns the configuration used without a config file: judge
// name GMD, address judge@localhost, no mail servers.
func Defaults() *Config {
	return &Config{
		JudgeName:       DefaultJudgeName,
		JudgeAddr:       DefaultJudgeAddr,
		Limits:          DefaultLimits(),
		LogLevel:        slog.LevelInfo,
		PasswordCost:    bcrypt.DefaultCost,
		LedgerRetention: DefaultLedgerRetention,
		SenderAuth:      SenderAuth{Require: SenderAuthNone},
	}
}

// Load reads the config file at path.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a config file from r; file names it in errors, and relative
// paths in it (db, templates, ca-cert) are taken from the directory of
// file, so that a config and its database can move together.
//
// The error, if any, lists every mistake found, each an *Error.
func Parse(r io.Reader, file string) (*Config, error) {
	b, err := Read(r, file)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, dir: filepath.Dir(file)}
	c := Defaults()
	directives(p, b, "", topLevel, c)
	if c.SenderAuth.Require == SenderAuthDKIMOrSPF && !p.authServID {
		p.errorf(p.authLine, "require-sender-auth: dkim-or-spf needs auth-serv-id: the name your mail server writes at the start of its Authentication-Results")
	}
	if len(c.Admins) > 0 && c.SenderAuth.Require == SenderAuthNone {
		p.errorf(p.adminLine, "admin: needs require-sender-auth dkim or dkim-or-spf: an admin is known by the From address alone, which anyone can write")
	}
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return c, nil
}

// parser turns directives into a Config, collecting errors.
type parser struct {
	file string
	dir  string
	in   string // the block being read, "" at the top level
	errs []error

	// The line of require-sender-auth, and whether auth-serv-id was
	// given, checked together once the file is read.
	authLine   int
	authServID bool
	// The line of the first admin, checked against require-sender-auth.
	adminLine int
}

// errorf reports a mistake at line, within the current block.
func (p *parser) errorf(line int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if p.in != "" {
		msg = p.in + ": " + msg
	}
	p.errs = append(p.errs, &Error{File: p.file, Line: line, Msg: msg})
}

// bad reports a mistake in directive d.
func (p *parser) bad(d *Directive, format string, args ...any) {
	p.errorf(d.Line, "%s: %s", d.Name, fmt.Sprintf(format, args...))
}

// spec says what a directive takes and how to apply it to T, the thing
// its block configures (*Config at the top level).
type spec[T any] struct {
	block  bool // takes a block rather than parameters
	repeat bool // may be given more than once
	apply  func(p *parser, d *Directive, into T)
}

// directives applies the directives of b following specs. in names the
// enclosing block in messages ("" at the top level).
func directives[T any](p *parser, b Block, in string, specs map[string]spec[T], into T) {
	outer := p.in
	p.in = in
	defer func() { p.in = outer }()
	seen := map[string]int{}
	for _, d := range b {
		s, ok := specs[d.Name]
		if !ok {
			known := make([]string, 0, len(specs))
			for k := range specs {
				known = append(known, k)
			}
			if hint := suggest(d.Name, known); hint != "" {
				p.errorf(d.Line, "unknown directive %q (did you mean %s?)", d.Name, hint)
			} else {
				p.errorf(d.Line, "unknown directive %q", d.Name)
			}
			continue
		}
		if first, dup := seen[d.Name]; dup && !s.repeat {
			p.bad(d, "given twice (first on line %d)", first)
			continue
		}
		seen[d.Name] = d.Line
		switch {
		case s.block && d.Children == nil:
			p.bad(d, "needs a block: %s { ... }", d.Name)
			continue
		case s.block && len(d.Params) > 0:
			p.bad(d, "takes no parameters, only a block")
			continue
		case !s.block && d.Children != nil:
			p.bad(d, "takes no block")
			continue
		}
		s.apply(p, d, into)
	}
}

// one returns the single parameter of d, or reports that there is not
// exactly one.
func (p *parser) one(d *Directive) (string, bool) {
	if len(d.Params) != 1 {
		p.bad(d, "needs 1 parameter, got %d", len(d.Params))
		return "", false
	}
	return d.Params[0], true
}

// length returns the parameters of d that give a length of time, as
// one text: a length may be written in words ("90 days", "2 minutes 30
// seconds"), each a parameter of its own.
func (p *parser) length(d *Directive) (string, bool) {
	if len(d.Params) == 0 {
		p.bad(d, "needs a length of time (%s)", length.Hint)
		return "", false
	}
	v := strings.Join(d.Params, " ")
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		// A bare number is hours to a master (njudge's SET), but in
		// this file it would be a guess: 10 may mean seconds.
		p.bad(d, "%q needs a unit (like 90d, 30s or 5 minutes)", v)
		return "", false
	}
	return v, true
}

// path makes a path from the file absolute against the config's directory.
func (p *parser) path(v string) string {
	if v == "" || filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(p.dir, v)
}

var topLevel = map[string]spec[*Config]{
	"judge-name": {apply: func(p *parser, d *Directive, c *Config) {
		if v, ok := p.one(d); ok {
			if !judgeNameRE.MatchString(v) {
				p.bad(d, "%q must be 1 to 20 letters, digits, '-' or '_' (it starts every subject, as in \"GMD:game - S1901M Results\")", v)
				return
			}
			c.JudgeName = v
		}
	}},
	"judge-address": {apply: func(p *parser, d *Directive, c *Config) {
		if v, ok := p.one(d); ok {
			if a, ok := p.addr(d, v); ok {
				c.JudgeAddr = a
			}
		}
	}},
	"db": {apply: func(p *parser, d *Directive, c *Config) {
		if v, ok := p.one(d); ok {
			if v == "" {
				p.bad(d, "empty path")
				return
			}
			c.DB = p.path(v)
		}
	}},
	"templates": {apply: func(p *parser, d *Directive, c *Config) {
		if v, ok := p.one(d); ok {
			dir := p.path(v)
			if fi, err := os.Stat(dir); err != nil {
				p.bad(d, "%v", err)
			} else if !fi.IsDir() {
				p.bad(d, "%s is not a directory", dir)
			} else {
				c.Templates = dir
			}
		}
	}},
	"admin": {repeat: true, apply: func(p *parser, d *Directive, c *Config) {
		if len(d.Params) == 0 {
			p.bad(d, "needs at least one mail address")
		}
		if p.adminLine == 0 {
			p.adminLine = d.Line
		}
		for _, v := range d.Params {
			if a, ok := p.addr(d, v); ok {
				c.Admins = append(c.Admins, a)
			}
		}
	}},
	"password-cost": {apply: func(p *parser, d *Directive, c *Config) {
		if v, ok := p.one(d); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < bcrypt.MinCost || n > bcrypt.MaxCost {
				p.bad(d, "%q must be a whole number from %d to %d (bcrypt's cost; each step doubles the time a new password takes)", v, bcrypt.MinCost, bcrypt.MaxCost)
				return
			}
			c.PasswordCost = n
		}
	}},
	"ledger-retention": {apply: func(p *parser, d *Directive, c *Config) {
		if v, ok := p.length(d); ok {
			t, err := length.Parse(v)
			if err != nil || t < MinLedgerRetention {
				p.bad(d, "%q is not a length of at least %d days (like 90d, 90 days or 13 weeks)", v, MinLedgerRetention/(24*time.Hour))
				return
			}
			c.LedgerRetention = t
		}
	}},
	"log-level": {apply: func(p *parser, d *Directive, c *Config) {
		if v, ok := p.one(d); ok {
			var l slog.Level
			switch strings.ToLower(v) {
			case "debug":
				l = slog.LevelDebug
			case "info":
				l = slog.LevelInfo
			case "warn", "warning":
				l = slog.LevelWarn
			case "error":
				l = slog.LevelError
			default:
				p.bad(d, "%q is not one of debug, info, warn, error", v)
				return
			}
			c.LogLevel = l
		}
	}},
	"require-sender-auth": {apply: func(p *parser, d *Directive, c *Config) {
		if v, ok := p.one(d); ok {
			switch m := SenderAuthMode(strings.ToLower(v)); m {
			case SenderAuthNone, SenderAuthDKIM, SenderAuthDKIMOrSPF:
				c.SenderAuth.Require, p.authLine = m, d.Line
			default:
				p.bad(d, "%q is not one of none, dkim, dkim-or-spf", v)
			}
		}
	}},
	"auth-serv-id": {apply: func(p *parser, d *Directive, c *Config) {
		p.authServID = true
		if v, ok := p.one(d); ok {
			if !authServIDRE.MatchString(v) {
				p.bad(d, "%q is not an authserv-id: the host name that starts your mail server's Authentication-Results, like mx.example.org", v)
				return
			}
			c.SenderAuth.AuthServID = v
		}
	}},
	"limits": {block: true, apply: func(p *parser, d *Directive, c *Config) {
		directives(p, d.Children, "limits", limitsSpecs, &c.Limits)
	}},
	"imap": {block: true, apply: func(p *parser, d *Directive, c *Config) {
		m := new(IMAP)
		n := len(p.errs)
		directives(p, d.Children, "imap", imapSpecs, m)
		*m = m.WithDefaults()
		if len(p.errs) > n {
			return // the block's own errors say enough
		}
		p.checkServer(d, "imap", &m.Server, 993, 143, true)
		c.IMAP = m
	}},
	"http": {block: true, apply: httpBlock},
	"smtp": {block: true, apply: func(p *parser, d *Directive, c *Config) {
		m := new(SMTP)
		n := len(p.errs)
		directives(p, d.Children, "smtp", serverSpecs[*SMTP](func(m *SMTP) *Server { return &m.Server }), m)
		*m = m.WithDefaults()
		if len(p.errs) > n {
			return
		}
		p.checkServer(d, "smtp", &m.Server, 465, 587, false)
		c.SMTP = m
	}},
}

// judgeNameRE is what a judge name may be: it is written into subjects
// and parsed back by players' filters, so no spaces and no colon.
var judgeNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,20}$`)

// authServIDRE is what an authserv-id may be here: a token of RFC 2045,
// in practice a host name.
var authServIDRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,253}$`)

// LimitInfo is one row of LimitTable: one bound of judge.conf's limits
// block.
type LimitInfo struct {
	Key     string // its directive in the limits block
	Default int64  // its value when judge.conf does not set it
	Reason  string // why the judge has the bound, and why that default
	set     func(*Limits, int64)
}

// LimitTable is the one list of the judge's limits, with their defaults
// and reasons: DefaultLimits, the limits block's directives (a test
// checks the two agree) and the documentation read it. Replies go to
// the From line, which anyone can forge, so each bound keeps what one
// mail costs, and what it makes the judge write to others, within a
// fixed multiple of nothing the sender controls.
var LimitTable = []LimitInfo{
	{"max-mail-size", DefaultMaxMailSize, "a larger mail is not read at all, only politely refused: no honest order mail comes near 1M",
		func(l *Limits, n int64) { l.MaxMailSize = n }},
	{"max-line-length", DefaultMaxLineLength, "a longer command or order line is refused and not echoed, so that junk cannot make the reply as large",
		func(l *Limits, n int64) { l.MaxLineLength = int(n) }},
	{"max-observers", DefaultMaxObservers, "every mail of a game is copied to its observers: one sender must not have it copied to hundreds",
		func(l *Limits, n int64) { l.MaxObservers = int(n) }},
	{"max-games-per-master", DefaultMaxGamesPerMaster, "anyone can write any From: one sender must not fill the judge with games",
		func(l *Limits, n int64) { l.MaxGamesPerMaster = int(n) }},
	{"max-reply-size", DefaultMaxReplySize, "64K holds a LIST of about 800 games or a HISTORY of 12 phases with room to spare",
		func(l *Limits, n int64) { l.MaxReplySize = int(n) }},
	{"max-output-commands", DefaultMaxOutputCommands, "4 answers any honest mail of questions (HELP, LIST, HISTORY, SUMMARY)",
		func(l *Limits, n int64) { l.MaxOutputCommands = int(n) }},
	{"max-mails-per-mail", DefaultMaxMailsPerMail, "50 is a broadcast to a full game of seven with observers, plus a few press messages, plus the reply",
		func(l *Limits, n int64) { l.MaxMailsPerMail = int(n) }},
	{"max-press-per-mail", DefaultMaxPressPerMail, "64K of press is a long letter",
		func(l *Limits, n int64) { l.MaxPressPerMail = n }},
	{"max-press-per-phase", DefaultMaxPressPerPhase, "256K is a phase of busy diplomacy for one sender",
		func(l *Limits, n int64) { l.MaxPressPerPhase = n }},
	{"max-replay-size", DefaultMaxReplayBytes, "2M holds the replay of a standard game of about 30 years whole; it goes only to the addresses that get the game's mail",
		func(l *Limits, n int64) { l.MaxReplayBytes = int(n) }},
}

// DefaultLimits returns the limits with LimitTable's defaults.
func DefaultLimits() Limits {
	var l Limits
	for _, r := range LimitTable {
		r.set(&l, r.Default)
	}
	return l
}

var limitsSpecs = map[string]spec[*Limits]{
	"max-mail-size": {apply: func(p *parser, d *Directive, l *Limits) {
		if v, ok := p.one(d); ok {
			n, err := parseSize(v)
			if err != nil || n < 1024 {
				p.bad(d, "%q is not a size of at least 1K (like 1M, 512K or 1048576)", v)
				return
			}
			l.MaxMailSize = n
		}
	}},
	"max-line-length": {apply: func(p *parser, d *Directive, l *Limits) {
		if v, ok := p.one(d); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 80 {
				p.bad(d, "%q is not a number of bytes of at least 80", v)
				return
			}
			l.MaxLineLength = n
		}
	}},
	"max-observers": {apply: func(p *parser, d *Directive, l *Limits) {
		if n, ok := p.countAtLeast(d, 1); ok {
			l.MaxObservers = n
		}
	}},
	"max-games-per-master": {apply: func(p *parser, d *Directive, l *Limits) {
		if n, ok := p.countAtLeast(d, 1); ok {
			l.MaxGamesPerMaster = n
		}
	}},
	"max-reply-size": {apply: func(p *parser, d *Directive, l *Limits) {
		if n, ok := p.sizeAtLeast(d, 4<<10); ok {
			l.MaxReplySize = int(min(n, 1<<30))
		}
	}},
	"max-output-commands": {apply: func(p *parser, d *Directive, l *Limits) {
		if n, ok := p.countAtLeast(d, 1); ok {
			l.MaxOutputCommands = n
		}
	}},
	"max-mails-per-mail": {apply: func(p *parser, d *Directive, l *Limits) {
		// Below 10 a broadcast in a game of seven could never go out.
		if n, ok := p.countAtLeast(d, 10); ok {
			l.MaxMailsPerMail = n
		}
	}},
	"max-press-per-mail": {apply: func(p *parser, d *Directive, l *Limits) {
		if n, ok := p.sizeAtLeast(d, 1<<10); ok {
			l.MaxPressPerMail = n
		}
	}},
	"max-press-per-phase": {apply: func(p *parser, d *Directive, l *Limits) {
		if n, ok := p.sizeAtLeast(d, 1<<10); ok {
			l.MaxPressPerPhase = n
		}
	}},
	"max-replay-size": {apply: func(p *parser, d *Directive, l *Limits) {
		// Below 64K even the parts of a short game's replay would not fit.
		if n, ok := p.sizeAtLeast(d, 64<<10); ok {
			l.MaxReplayBytes = int(min(n, 1<<30))
		}
	}},
}

// sizeAtLeast reads the one value of d as a size (parseSize) of at least
// least bytes, reporting it when it is not one.
func (p *parser) sizeAtLeast(d *Directive, least int64) (int64, bool) {
	v, ok := p.one(d)
	if !ok {
		return 0, false
	}
	n, err := parseSize(v)
	if err != nil || n < least {
		p.bad(d, "%q is not a size of at least %dK (like 64K, 1M or 65536)", v, least>>10)
		return 0, false
	}
	return n, true
}

// countAtLeast reads the one value of d as a whole number of at least
// least, reporting it when it is not one.
func (p *parser) countAtLeast(d *Directive, least int) (int, bool) {
	v, ok := p.one(d)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < least || n > 1_000_000 {
		p.bad(d, "%q is not a whole number from %d to 1000000", v, least)
		return 0, false
	}
	return n, true
}

// parseSize reads "1048576", "512K", "1M" or "1G" (powers of 1024).
func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K") || strings.HasSuffix(s, "k"):
		mult = 1 << 10
	case strings.HasSuffix(s, "M") || strings.HasSuffix(s, "m"):
		mult = 1 << 20
	case strings.HasSuffix(s, "G") || strings.HasSuffix(s, "g"):
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, errors.New("not a size")
	}
	return n * mult, nil
}

// serverSpecs are the directives of a mail server block; server finds the
// Server inside the block's value.
func serverSpecs[T any](server func(T) *Server) map[string]spec[T] {
	str := func(set func(s *Server, v string)) spec[T] {
		return spec[T]{apply: func(p *parser, d *Directive, into T) {
			if v, ok := p.one(d); ok {
				set(server(into), v)
			}
		}}
	}
	return map[string]spec[T]{
		"address": {apply: func(p *parser, d *Directive, into T) {
			if v, ok := p.one(d); ok {
				server(into).Addr = v // checked with the TLS mode, for the default port
			}
		}},
		"tls": {apply: func(p *parser, d *Directive, into T) {
			if v, ok := p.one(d); ok {
				switch m := TLSMode(strings.ToLower(v)); m {
				case TLSImplicit, TLSStartTLS, TLSNone:
					server(into).TLS = m
				default:
					p.bad(d, "%q is not one of implicit, starttls, none", v)
				}
			}
		}},
		"username": str(func(s *Server, v string) { s.Username = v }),
		"password": str(func(s *Server, v string) { s.Password = v }),
		"ca-cert": {apply: func(p *parser, d *Directive, into T) {
			v, ok := p.one(d)
			if !ok {
				return
			}
			path := p.path(v)
			pem, err := os.ReadFile(path)
			if err != nil {
				p.bad(d, "%v", err)
				return
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				p.bad(d, "%s holds no PEM certificate", path)
				return
			}
			s := server(into)
			s.CACert, s.RootCAs = path, pool
		}},
		"insecure-skip-verify": {apply: func(p *parser, d *Directive, into T) {
			if v, ok := p.one(d); ok {
				b, err := parseBool(v)
				if err != nil {
					p.bad(d, "%q is not true or false", v)
					return
				}
				server(into).InsecureSkipVerify = b
			}
		}},
	}
}

// imapSpecs are the server directives plus the mailbox ones.
var imapSpecs = func() map[string]spec[*IMAP] {
	m := serverSpecs[*IMAP](func(m *IMAP) *Server { return &m.Server })
	m["mailbox"] = spec[*IMAP]{apply: func(p *parser, d *Directive, m *IMAP) {
		if v, ok := p.one(d); ok {
			if v == "" {
				p.bad(d, "empty name")
				return
			}
			m.Mailbox = v
		}
	}}
	m["processed-mailbox"] = spec[*IMAP]{apply: func(p *parser, d *Directive, m *IMAP) {
		if v, ok := p.one(d); ok {
			m.ProcessedMailbox = v
		}
	}}
	m["poll-interval"] = spec[*IMAP]{apply: func(p *parser, d *Directive, m *IMAP) {
		if v, ok := p.length(d); ok {
			t, err := length.Parse(v)
			if err != nil || t < time.Second {
				p.bad(d, "%q is not a length of at least 1s (like 30s, 5m or 2 minutes)", v)
				return
			}
			m.PollInterval = t
		}
	}}
	return m
}()

func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off":
		return false, nil
	}
	return false, errors.New("not a boolean")
}

// checkServer checks a server block as a whole, once its directives are
// read: the address (given the default port for the TLS mode), the
// credentials, and that no password crosses a network in clear.
func (p *parser) checkServer(d *Directive, name string, s *Server, implicitPort, plainPort int, needLogin bool) {
	if s.Addr == "" {
		p.errorf(d.Line, "%s: address is required (host:port)", name)
		return
	}
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		// No port: the usual one for the TLS mode.
		host, port = s.Addr, strconv.Itoa(plainPort)
		if s.TLS == TLSImplicit {
			port = strconv.Itoa(implicitPort)
		}
		if strings.Contains(host, ":") && !strings.HasPrefix(host, "[") {
			p.errorf(d.Line, "%s: address %q: write an IPv6 address with its port as [host]:port", name, s.Addr)
			return
		}
		host = strings.Trim(host, "[]")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		p.errorf(d.Line, "%s: address %q: bad port %q", name, s.Addr, port)
		return
	}
	if host == "" {
		p.errorf(d.Line, "%s: address %q: no host", name, s.Addr)
		return
	}
	s.Addr = net.JoinHostPort(host, port)
	for _, err := range s.problems(name, needLogin) {
		p.errorf(d.Line, "%v", err)
	}
}

// IsLoopbackHost reports whether host names the local machine: a loopback
// IP address, or "localhost" (with or without its final dot). It is the one
// rule for tls none (Server.problems); the
// address actually connected to must be checked again, as a name could
// resolve elsewhere.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// addr checks a mail address given as a parameter and returns it as a
// bare addr-spec with the domain in lower case.
func (p *parser) addr(d *Directive, v string) (string, bool) {
	a, err := mail.ParseAddress(v)
	if err != nil || a.Name != "" || strings.ContainsAny(v, "<>") || !strings.Contains(a.Address, "@") {
		p.bad(d, "%q is not a mail address", v)
		return "", false
	}
	at := strings.LastIndexByte(a.Address, '@')
	return a.Address[:at] + strings.ToLower(a.Address[at:]), true
}
