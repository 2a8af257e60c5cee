package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// SMTPConfig says how the judge reaches its SMTP submission server:
// judge.conf's smtp block (config.SMTP, whose default and rules are
// config's: WithDefaults, Validate) and the judge's own name and address.
type SMTPConfig struct {
	// SMTP is the server, its TLS mode and the login. With
	// config.TLSStartTLS a server that does not offer STARTTLS is an
	// error, never a reason to go on in clear text; config.TLSNone is
	// allowed only for a server on this machine. Username and Password,
	// when set, log in with AUTH PLAIN (after TLS is up, or on the
	// loopback interface). The certificate is checked against the host
	// of the address, with the roots of config.Server.TLSConfig.
	config.SMTP
	// From is the judge's address, "judge@example.org" or
	// "GMD <judge@example.org>": the From header of every mail, and
	// (without the name) the envelope sender.
	From string
	// LocalName is the name the judge gives in EHLO; empty means
	// "localhost". With STARTTLS, the first EHLO, before TLS, always says
	// "localhost": go-smtp has no way to name ourselves before it.
	LocalName string
}

// Validate reports what is wrong with cfg, in words for the admin who
// wrote the configuration: the smtp block's (config.SMTP.Validate), and
// the judge's address and name as the sender gives them.
func (cfg SMTPConfig) Validate() error {
	if err := cfg.SMTP.Validate(); err != nil {
		return err
	}
	if _, err := envelopeSender(cfg.From); err != nil {
		return err
	}
	if strings.ContainsFunc(cfg.LocalName, func(r rune) bool { return r <= ' ' || r >= 0x7f }) {
		return fmt.Errorf("smtp: local name %q may hold only printable ASCII, no spaces", cfg.LocalName)
	}
	return nil
}

// envelopeSender returns the bare address of the judge's From, for MAIL
// FROM. It must be ASCII: a server without SMTPUTF8 would refuse every
// mail of a judge with another address.
func envelopeSender(from string) (string, error) {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return "", fmt.Errorf("smtp: judge address %q: %v", from, err)
	}
	if !isASCII(a.Address) {
		return "", fmt.Errorf("smtp: judge address %q is not ASCII", a.Address)
	}
	return a.Address, nil
}

// conn is an SMTP session, set up and logged in, that carries the mails
// of one pass over the outbox.
type conn struct {
	c    *smtp.Client
	stop func() bool // stops watching for the end of the pass's context
}

// hangUp ends the session, politely if the server still listens.
func (c *conn) hangUp() {
	c.stop()
	// A server that stopped answering gets a few seconds for its 221,
	// not the five minutes a command may take.
	c.c.CommandTimeout = quitTimeout
	if c.c.Quit() != nil {
		c.c.Close()
	}
}

// quitTimeout bounds the wait for the answer to QUIT.
const quitTimeout = 5 * time.Second

// sendGrace is how long a mail being sent when the daemon is told to
// stop may take to finish. After it, the connection is cut: the mail stays
// queued, and a server that no longer answers does not hold up the
// shutdown for the minutes of go-smtp's timeouts.
const sendGrace = 10 * time.Second

// connect sets up an SMTP session as s.cfg says: TCP, TLS, EHLO, AUTH.
// Its errors are *sessionError.
func (s *Sender) connect(ctx context.Context) (*conn, error) {
	dial := s.dialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: dialTimeout}).DialContext
	}
	nc, err := dial(ctx, "tcp", s.cfg.Addr)
	if err != nil {
		return nil, s.sessionErr("connect", err)
	}
	if s.cfg.TLS == config.TLSNone {
		// Validate saw a loopback name; make sure it did not resolve
		// to another machine.
		if a, ok := nc.RemoteAddr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
			nc.Close()
			return nil, s.sessionErr("connect", fmt.Errorf("%v is not a loopback address: no mail without TLS", nc.RemoteAddr()))
		}
	}
	stop := context.AfterFunc(ctx, func() {
		time.AfterFunc(sendGrace, func() { nc.Close() })
	})
	c, err := s.hello(nc)
	if err != nil {
		stop()
		nc.Close()
		return nil, err
	}
	return &conn{c: c, stop: stop}, nil
}

// hello runs the session's opening on nc, up to a successful login.
func (s *Sender) hello(nc net.Conn) (*smtp.Client, error) {
	var c *smtp.Client
	switch s.cfg.TLS {
	case config.TLSNone:
		c = smtp.NewClient(nc)
	case config.TLSStartTLS:
		// Fails, rather than going on in clear text, when the server
		// does not offer STARTTLS: someone on the path could have
		// removed it from the EHLO answer.
		var err error
		if c, err = smtp.NewClientStartTLS(nc, s.tls); err != nil {
			return nil, s.sessionErr("STARTTLS", err)
		}
	default:
		c = smtp.NewClient(tls.Client(nc, s.tls))
	}
	// Hello reads the greeting and sends EHLO, which is also where a TLS
	// handshake happens and fails: every failure to reach a working
	// server shows here, before any mail is at stake.
	name := s.cfg.LocalName
	if name == "" {
		name = "localhost"
	}
	if err := c.Hello(name); err != nil {
		return nil, s.sessionErr("EHLO", err)
	}
	if s.cfg.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password)); err != nil {
			return nil, s.sessionErr("AUTH", err)
		}
	}
	return c, nil
}

// sessionError is a failure to set up the SMTP session or to start a
// mail transaction on it (MAIL FROM names only the judge): it concerns the
// server or the configuration, never one particular mail, so no mail is
// marked failed for it, whatever the reply code.
type sessionError struct {
	addr  string
	stage string // "connect", "STARTTLS", "EHLO", "AUTH" or "MAIL FROM"
	err   error
}

func (s *Sender) sessionErr(stage string, err error) error {
	return &sessionError{addr: s.cfg.Addr, stage: stage, err: err}
}

func (e *sessionError) Error() string {
	return fmt.Sprintf("smtp %s: %s: %v", e.addr, e.stage, e.err)
}

func (e *sessionError) Unwrap() error { return e.err }

// needsAdmin reports whether waiting is unlikely to help: the server
// refused the login or the sender for good, or its certificate is not
// trusted. The mails stay queued all the same, since an admin may fix
// the server rather than the judge, but the log says it louder.
func (e *sessionError) needsAdmin() bool {
	var cert *tls.CertificateVerificationError
	return permanent(e.err) || errors.As(e.err, &cert)
}

// rcptError is a recipient the server refused.
type rcptError struct {
	addr string
	err  error
}

// outcome is what became of one mail on the server.
type outcome struct {
	delivered []string    // the server took the mail for these (250 after DATA)
	dropped   []rcptError // refused for good at RCPT, left out from now on
	retry     []string    // to try again later
	err       error       // why the mail did not reach retry, or any recipient
	perm      bool        // err will not go away: the mail has failed
	session   bool        // err is a *sessionError: no mail can be sent now
	broken    bool        // the session cannot carry another mail
}

// deliver sends msg to rcpts in one mail transaction on c. A recipient
// refused for good (5xx) is dropped and the others still get the mail; a
// recipient refused for now (4xx) is kept for a retry.
func (s *Sender) deliver(c *smtp.Client, rcpts []string, msg []byte) (o outcome) {
	var opts *smtp.MailOptions
	if !allASCII(rcpts) {
		if ok, _ := c.Extension("SMTPUTF8"); !ok {
			o.err, o.perm = errors.New("smtp: the server cannot take a non-ASCII address (no SMTPUTF8)"), true
			return o
		}
		opts = &smtp.MailOptions{UTF8: true}
	}
	if limit, ok := c.MaxMessageSize(); ok && limit > 0 && len(msg) > limit {
		o.err, o.perm = fmt.Errorf("smtp: the mail has %d bytes, the server takes at most %d", len(msg), limit), true
		return o
	}

	if err := c.Mail(s.sender, opts); err != nil {
		o.err, o.session, o.broken = s.sessionErr("MAIL FROM", err), true, broken(err)
		return o
	}
	var accepted []string
	for i, rcpt := range rcpts {
		err := c.Rcpt(rcpt, nil)
		switch {
		case err == nil:
			accepted = append(accepted, rcpt)
		case broken(err):
			// Nobody got the mail: all but the dropped try again.
			o.err, o.broken = err, true
			o.retry = slices.Concat(accepted, o.retry, rcpts[i:])
			return o
		case permanent(err):
			o.dropped = append(o.dropped, rcptError{rcpt, err})
		default:
			o.retry = append(o.retry, rcpt)
			o.err = err
		}
	}
	if len(accepted) == 0 {
		// The transaction is still open. Rather than RSET (after which
		// go-smtp sends EHLO again), the next mail gets a new session:
		// this is rare, and a new session is a state we know.
		o.broken = true
		if len(o.retry) == 0 {
			o.perm = true
			msgs := make([]string, len(o.dropped))
			for i, d := range o.dropped {
				msgs[i] = fmt.Sprintf("<%s>: %v", d.addr, d.err)
			}
			o.err = errors.New(strings.Join(msgs, "; "))
		}
		return o
	}

	later := o.retry
	fail := func(err error) outcome {
		o.err, o.perm = err, permanent(err)
		if !o.perm {
			o.retry = slices.Concat(accepted, later)
		}
		return o
	}
	w, err := c.Data()
	if err != nil {
		o.broken = true // the transaction may still be open: see above
		return fail(err)
	}
	if _, err := w.Write(msg); err != nil {
		o.broken = true
		return fail(err)
	}
	if err := w.Close(); err != nil {
		o.broken = broken(err)
		return fail(err)
	}
	o.delivered = accepted
	return o
}

// permanent reports whether err is a 5xx reply: sending the same again
// would get the same answer.
func permanent(err error) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code >= 500
}

// broken reports whether the session is unusable after err: anything that
// is not a reply from the server (a network or TLS error) or is a 421,
// which the server sends as it hangs up.
func broken(err error) bool {
	var se *smtp.SMTPError
	return !errors.As(err, &se) || se.Code == 421
}

// message composes m as it goes on the wire, and returns it with the
// envelope recipients. The Date is the time m was queued, so every
// attempt sends the same bytes.
func (s *Sender) message(m *state.OutMail, now time.Time) ([]byte, []string, error) {
	date := m.Created
	if date.IsZero() {
		date = now
	}
	var b bytes.Buffer
	if err := Compose(&b, m, s.cfg.From, date, s.attachments(m)...); err != nil {
		return nil, nil, err
	}
	rcpts := make([]string, 0, len(m.To))
	seen := make(map[string]bool, len(m.To))
	for _, to := range m.To {
		a, err := mail.ParseAddress(to)
		if err != nil {
			return nil, nil, fmt.Errorf("mail: bad recipient address %q", to)
		}
		if key := strings.ToLower(a.Address); !seen[key] {
			seen[key] = true
			rcpts = append(rcpts, a.Address)
		}
	}
	return toCRLF(b.Bytes()), rcpts, nil
}

// attachments returns what m carries after its text, as Attach draws
// it. A picture that cannot be drawn (its phase rolled back, the game
// gone) is no reason to hold back the text: the mail goes without it.
func (s *Sender) attachments(m *state.OutMail) []Attachment {
	if !m.Attaches() || s.Attach == nil {
		return nil
	}
	atts, err := s.Attach(m)
	if err != nil {
		s.log.Warn("mail sent without its map", "id", m.ID, "message_id", m.MessageID, "err", err)
	}
	// One that Compose would refuse would keep the mail from going.
	return slices.DeleteFunc(atts, func(a Attachment) bool {
		if err := a.check(); err != nil {
			s.log.Error("attachment dropped", "id", m.ID, "message_id", m.MessageID, "err", err)
			return true
		}
		return false
	})
}

// toCRLF ends every line of b with CRLF, as SMTP wants: go-smtp's DATA
// writer escapes dots but leaves line ends alone.
func toCRLF(b []byte) []byte {
	bare := bytes.Count(b, []byte("\n")) - bytes.Count(b, []byte("\r\n"))
	if bare == 0 {
		return b
	}
	out := make([]byte, 0, len(b)+bare)
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func allASCII(ss []string) bool {
	for _, s := range ss {
		if !isASCII(s) {
			return false
		}
	}
	return true
}
