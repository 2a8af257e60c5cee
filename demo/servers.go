// Package demo is a small mail system that lives inside the process: an
// IMAP server that keeps every mailbox in memory and an SMTP server that
// delivers what it accepts into those mailboxes, both on loopback. "gmd
// demo" runs the judge against it, so that a newcomer can play with a mail
// client and nothing else; the tests of the daemon use it to run the
// whole loop (SMTP in, IMAP to the judge, SMTP out, IMAP to the player)
// without outside servers.
//
// It is not a mail server to rely on: nothing is stored on disk, nothing
// is relayed to the outside, and passwords cross the connection in clear,
// which is why it listens on loopback addresses only.
package demo

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Domain is the mail domain of the demo's accounts.
const Domain = "gmd.demo"

// Account is a mailbox on the servers: its address, which is also the
// login name for IMAP and SMTP, and its password.
type Account struct {
	Addr     string
	Password string
}

// The accounts of Accounts, by role.
var (
	Judge  = Account{"judge@" + Domain, "judgepass"}
	Master = Account{"master@" + Domain, "masterpass"}
)

// Player returns the account of player n (1 to 7).
func Player(n int) Account {
	return Account{fmt.Sprintf("player%d@%s", n, Domain), fmt.Sprintf("player%dpass", n)}
}

// Accounts returns the demo's accounts: the judge, a game master and
// seven players. The passwords are fixed and simple, for typing them into
// a mail client: they guard nothing, as the servers hold nothing and
// listen on loopback only.
func Accounts() []Account {
	accts := []Account{Judge, Master}
	for n := 1; n <= 7; n++ {
		accts = append(accts, Player(n))
	}
	return accts
}

// Servers are the running IMAP and SMTP servers.
type Servers struct {
	IMAPAddr string // host:port of the IMAP server (no TLS; LOGIN in clear)
	SMTPAddr string // host:port of the SMTP server (no TLS; AUTH PLAIN in clear)

	accounts map[string]Account             // by lower-case address
	users    map[string]*imapmemserver.User // by lower-case address
	uidBase  uint32                         // added to every UIDVALIDITY
	imap     *imapserver.Server
	smtp     *smtp.Server
	served   sync.WaitGroup // the Serve goroutines
	// listeners are the servers' listeners, closed by Close too.
	listeners []net.Listener

	mu        sync.Mutex
	delivered map[string][]string // subjects delivered, by lower-case address
	texts     map[string][]string // the decoded texts of the same mails
	news      chan struct{}       // closed and replaced at every delivery
}

// Start starts the servers on imapAddr and smtpAddr (host:port; port 0
// picks a free one, which IMAPAddr and SMTPAddr then tell) with a mailbox
// for each account. Both addresses must be loopback ones.
func Start(imapAddr, smtpAddr string, accounts []Account) (*Servers, error) {
	for _, a := range []string{imapAddr, smtpAddr} {
		if err := checkLoopback(a); err != nil {
			return nil, err
		}
	}
	s := &Servers{
		accounts:  map[string]Account{},
		users:     map[string]*imapmemserver.User{},
		delivered: map[string][]string{},
		texts:     map[string][]string{},
		news:      make(chan struct{}),
	}
	// Mailboxes count their UIDVALIDITY from 1 in imapmemserver, so
	// that every start would give the judge's INBOX the UIDVALIDITY of
	// the one before, and a judge whose database outlived the last
	// servers (gmd demo -dir) would take the new messages for ones it
	// has read. Real servers such as Dovecot start from the time.
	s.uidBase = uint32(time.Now().Unix())
	for _, a := range accounts {
		key := strings.ToLower(a.Addr)
		if _, dup := s.accounts[key]; dup {
			return nil, fmt.Errorf("demo: account %s given twice", a.Addr)
		}
		u := imapmemserver.NewUser(a.Addr, a.Password)
		// A new user has no mailbox at all, not even an INBOX.
		if err := u.Create("INBOX", nil); err != nil {
			return nil, err
		}
		s.accounts[key], s.users[key] = a, u
	}

	imapLn, err := net.Listen("tcp", imapAddr)
	if err != nil {
		return nil, fmt.Errorf("demo: imap: %w", err)
	}
	smtpLn, err := net.Listen("tcp", smtpAddr)
	if err != nil {
		imapLn.Close()
		return nil, fmt.Errorf("demo: smtp: %w", err)
	}
	s.IMAPAddr, s.SMTPAddr = imapLn.Addr().String(), smtpLn.Addr().String()
	s.listeners = []net.Listener{imapLn, smtpLn}

	// Both servers would log every client that hangs up without a
	// goodbye, which the judge does on every shutdown.
	quiet := log.New(io.Discard, "", 0)
	s.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{s: s}, nil, nil
		},
		// imapmemserver implements IMAP4rev2, and so IDLE, MOVE and
		// UIDPLUS, which the judge uses when offered.
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true, // loopback only: see checkLoopback
		Logger:       quiet,
	})
	s.smtp = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{s: s}, nil
	}))
	s.smtp.Domain = "localhost"
	s.smtp.AllowInsecureAuth = true
	s.smtp.MaxMessageBytes = 10 << 20
	s.smtp.MaxRecipients = 100
	s.smtp.ReadTimeout = time.Minute
	s.smtp.WriteTimeout = time.Minute
	s.smtp.ErrorLog = quiet

	s.served.Add(2)
	go func() { defer s.served.Done(); s.imap.Serve(imapLn) }()
	go func() { defer s.served.Done(); s.smtp.Serve(smtpLn) }()
	return s, nil
}

// checkLoopback refuses a listening address that is not on loopback.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("demo: %q is not host:port", addr)
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("demo: %s is not a loopback address: the demo servers take passwords in clear, so they listen on 127.0.0.1 or ::1 only", addr)
	}
	return nil
}

// Close stops both servers and cuts their connections.
func (s *Servers) Close() error {
	// The listeners first, and the servers' own Close only once Serve
	// has returned: go-smtp's and go-imap's Close close just the
	// listeners their Serve has taken in, so a Close right after Start
	// left Serve waiting in Accept for ever; and calling it while Serve
	// is still starting is a data race inside those libraries.
	for _, ln := range s.listeners {
		ln.Close()
	}
	s.served.Wait()
	return errors.Join(s.imap.Close(), s.smtp.Close())
}

// deliver puts a message into the INBOX of addr, an account's address.
func (s *Servers) deliver(addr string, raw []byte) error {
	key := strings.ToLower(addr)
	u := s.users[key]
	if u == nil {
		return fmt.Errorf("demo: no mailbox %s", addr)
	}
	if _, err := u.Append("INBOX", bytes.NewReader(raw), &imap.AppendOptions{Time: time.Now()}); err != nil {
		return err
	}
	subject, text := "", ""
	if m, err := netmail.ReadMessage(bytes.NewReader(raw)); err == nil {
		subject, _ = new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		text = decodeText(m)
	}
	s.mu.Lock()
	s.delivered[key] = append(s.delivered[key], subject)
	s.texts[key] = append(s.texts[key], text)
	close(s.news)
	s.news = make(chan struct{})
	s.mu.Unlock()
	return nil
}

// decodeText returns the text of a single-part mail, undoing its
// transfer encoding; "" for one it cannot read.
func decodeText(m *netmail.Message) string {
	var r io.Reader = m.Body
	switch strings.ToLower(m.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return ""
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

// Delivered returns how many mails have been delivered to addr so far.
func (s *Servers) Delivered(addr string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.delivered[strings.ToLower(addr)])
}

// WaitForText waits until a mail delivered to addr after the first
// skip of them has a text that find finds something in, and returns
// what it found, or an error once ctx ends.
func (s *Servers) WaitForText(ctx context.Context, addr string, skip int, find func(text string) string) (string, error) {
	key := strings.ToLower(addr)
	for {
		s.mu.Lock()
		news := s.news
		texts := s.texts[key]
		s.mu.Unlock()
		for i := skip; i < len(texts); i++ {
			if found := find(texts[i]); found != "" {
				return found, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("demo: no such mail for %s: %w", addr, ctx.Err())
		case <-news:
		}
	}
}

// Subjects returns the subjects of the mails delivered to addr so far,
// in order.
func (s *Servers) Subjects(addr string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.delivered[strings.ToLower(addr)]...)
}

// WaitFor waits until every one of addrs has been delivered a mail whose
// subject contains substr, or ctx ends.
func (s *Servers) WaitFor(ctx context.Context, substr string, addrs ...string) error {
	for {
		s.mu.Lock()
		news := s.news
		var missing []string
		for _, a := range addrs {
			found := false
			for _, subj := range s.delivered[strings.ToLower(a)] {
				if strings.Contains(subj, substr) {
					found = true
					break
				}
			}
			if !found {
				missing = append(missing, a)
			}
		}
		s.mu.Unlock()
		if len(missing) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("demo: no mail %q for %s: %w", substr, strings.Join(missing, ", "), ctx.Err())
		case <-news:
		}
	}
}

// Send mails subject and body from the account from to the addresses to,
// through the SMTP server, logged in as from: the way a player's mail
// program would.
func (s *Servers) Send(from Account, to []string, subject, body string) error {
	return s.SendRaw(from, to, Message(from.Addr, to, subject, body))
}

// SendRaw mails msg, a whole message with CRLF line ends, as Send does.
func (s *Servers) SendRaw(from Account, to []string, msg []byte) error {
	c, err := smtp.Dial(s.SMTPAddr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return err
	}
	if err := c.Auth(sasl.NewPlainClient("", from.Addr, from.Password)); err != nil {
		return err
	}
	if err := c.SendMail(from.Addr, to, bytes.NewReader(msg)); err != nil {
		return err
	}
	return c.Quit()
}

// Message composes a plain-text mail with the headers a mail program
// writes, CRLF line ends as SMTP wants them.
func Message(from string, to []string, subject, body string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\n", from)
	fmt.Fprintf(&b, "To: %s\r\n", strings.Join(to, ", "))
	fmt.Fprintf(&b, "Subject: %s\r\n", subject)
	fmt.Fprintf(&b, "Date: %s\r\n", time.Now().Format(time.RFC1123Z))
	fmt.Fprintf(&b, "Message-ID: <%s@%s>\r\n", rand.Text(), Domain)
	b.WriteString("MIME-Version: 1.0\r\n")
	b.WriteString("Content-Type: text/plain; charset=utf-8\r\n")
	b.WriteString("\r\n")
	body = strings.ReplaceAll(body, "\r\n", "\n")
	b.WriteString(strings.ReplaceAll(body, "\n", "\r\n"))
	if !strings.HasSuffix(body, "\n") {
		b.WriteString("\r\n")
	}
	return []byte(b.String())
}

// session is one SMTP connection. Mail for the demo's own addresses is
// taken, from anyone: it is the judge's and the players' MX. Mail for
// anyone else is refused with 550, as the demo has nowhere to send it.
// AUTH is optional, but a login must be right.
type session struct {
	s    *Servers
	from string
	to   []string
}

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		a, ok := ss.s.accounts[strings.ToLower(username)]
		if !ok || a.Password != password || (identity != "" && identity != username) {
			return smtp.ErrAuthFailed
		}
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if _, ok := ss.s.accounts[strings.ToLower(to)]; !ok {
		return &smtp.SMTPError{
			Code:         550,
			EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message:      fmt.Sprintf("<%s>: no such mailbox here, and the demo relays nowhere", to),
		}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	// What a real MTA adds, so that the judge sees a Return-Path as it
	// would in a real mailbox.
	raw = append([]byte("Return-Path: <"+ss.from+">\r\n"), raw...)
	for _, rcpt := range ss.to {
		if err := ss.s.deliver(rcpt, raw); err != nil {
			return err
		}
	}
	return nil
}

func (ss *session) Reset() { ss.from, ss.to = "", nil }

func (ss *session) Logout() error { return nil }

// imapSession is an IMAP connection: imapmemserver's session, with the
// login checked against the accounts and every UIDVALIDITY shifted by
// Servers.uidBase. (The UIDVALIDITY in the answer to MOVE is not
// shifted, as imapmemserver writes it itself; the judge does not read
// it.)
type imapSession struct {
	*imapmemserver.UserSession // nil until logged in
	s                          *Servers
}

func (ss *imapSession) Login(username, password string) error {
	u := ss.s.users[strings.ToLower(username)]
	if u == nil {
		return imapserver.ErrAuthFailed
	}
	if err := u.Login(username, password); err != nil {
		return err
	}
	ss.UserSession = imapmemserver.NewUserSession(u)
	return nil
}

func (ss *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	d, err := ss.UserSession.Select(name, options)
	if d != nil {
		d.UIDValidity += ss.s.uidBase
	}
	return d, err
}

func (ss *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	d, err := ss.UserSession.Status(name, options)
	if d != nil && d.UIDValidity != 0 {
		d.UIDValidity += ss.s.uidBase
	}
	return d, err
}

func (ss *imapSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	d, err := ss.UserSession.Append(mailbox, r, options)
	if d != nil {
		d.UIDValidity += ss.s.uidBase
	}
	return d, err
}

func (ss *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	d, err := ss.UserSession.Copy(numSet, dest)
	if d != nil {
		d.UIDValidity += ss.s.uidBase
	}
	return d, err
}
