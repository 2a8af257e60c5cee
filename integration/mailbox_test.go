package integration

import (
	"bytes"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"
)

// The mail accounts of the run, all at domain: the judge, the master of
// the games the tests create, and seven players. Every password is the
// user's name followed by "pass".
const domain = "example.test"

var (
	judgeUser  = "judge"
	masterUser = "master"
)

// seat is a player of the standard game the tests play: the mail account,
// the power asked for at sign-on, the game password, a full set of Spring
// 1901 orders (each power's lines unlike any other's), and single-unit
// orders that leave the power's orders incomplete, so that a game
// flooded with them is never processed early.
type seat struct {
	User, Letter, Power, Pass string
	Orders                    string
	Partial                   []string
}

var seats = []seat{
	{"player1", "A", "Austria", "pw-a", "A Vie - Gal\nA Bud - Ser\nF Tri - Alb", []string{"A Vie - Gal", "A Vie - Tyr", "A Vie H"}},
	{"player2", "E", "England", "pw-e", "F Lon - Eng\nF Edi - Nth\nA Lvp - Yor", []string{"F Lon - Eng", "F Lon - Nth", "F Lon H"}},
	{"player3", "F", "France", "pw-f", "A Par - Pic\nA Mar - Spa\nF Bre - Mao", []string{"A Par - Bur", "A Par - Pic", "A Par H"}},
	{"player4", "G", "Germany", "pw-g", "A Ber - Kie\nA Mun - Tyr\nF Kie - Den", []string{"A Mun - Tyr", "A Mun - Bur", "A Mun H"}},
	{"player5", "I", "Italy", "pw-i", "A Ven - Pie\nA Rom - Apu\nF Nap - Ion", []string{"A Ven - Pie", "A Ven - Tyr", "A Ven H"}},
	{"player6", "R", "Russia", "pw-r", "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp/sc - Bot", []string{"A War - Gal", "A War - Ukr", "A War H"}},
	{"player7", "T", "Turkey", "pw-t", "A Con - Bul\nA Smy - Arm\nF Ank - Bla", []string{"A Con - Bul", "A Smy - Arm", "F Ank - Bla"}},
}

// masterPass is the password of the games' master.
const masterPass = "pw-m"

// mailtestUsers is MAILTEST_USERS for scripts/mailservers.
func mailtestUsers() string {
	users := []string{judgeUser, masterUser}
	for _, s := range seats {
		users = append(users, s.User)
	}
	for i, u := range users {
		users[i] = u + ":" + password(u)
	}
	return strings.Join(users, " ")
}

// addr returns the mail address of a user.
func addr(user string) string { return user + "@" + domain }

// password returns the mail password of a user.
func password(user string) string { return user + "pass" }

// letter is a mail a test sends to the judge.
type letter struct {
	From, To  string // users
	Subject   string
	Body      string // LF line ends
	MessageID string // "<...>"
	// HeaderFrom, if set, is the From line instead of From's address,
	// which stays the envelope's sender.
	HeaderFrom string
}

// msgSeq numbers the letters of the run, for unique Message-IDs.
var msgSeq atomic.Int64

// newLetter returns a mail from a user to the judge with a fresh
// Message-ID.
func newLetter(from, subject, body string) *letter {
	return &letter{
		From: from, To: judgeUser, Subject: subject, Body: body,
		MessageID: fmt.Sprintf("<test.%d.%s@%s>", msgSeq.Add(1), token(6), domain),
	}
}

// token returns n random bytes in hex.
func token(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// bytes returns the letter as an RFC 5322 message, CRLF line ends.
func (l *letter) bytes() []byte {
	var b bytes.Buffer
	from := addr(l.From)
	if l.HeaderFrom != "" {
		from = l.HeaderFrom
	}
	fmt.Fprintf(&b, "From: %s\r\n", from)
	fmt.Fprintf(&b, "To: %s\r\n", addr(l.To))
	fmt.Fprintf(&b, "Subject: %s\r\n", l.Subject)
	fmt.Fprintf(&b, "Date: %s\r\n", time.Now().Format(time.RFC1123Z))
	fmt.Fprintf(&b, "Message-ID: %s\r\n", l.MessageID)
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	for _, line := range strings.Split(strings.TrimRight(l.Body, "\n"), "\n") {
		b.WriteString(line + "\r\n")
	}
	return b.Bytes()
}

// smtpSender sends letters through Postfix's SMTP port (no TLS, no AUTH,
// as an MTA of the players' would), or with lmtp set straight into
// Dovecot's LMTP port, reusing one connection. A failed send drops the
// connection; the next send makes a new one.
type smtpSender struct {
	lmtp bool
	c    *smtp.Client
}

// senderTimeout bounds each command of a send, so that a server stopped
// in the middle of one cannot hang the sender.
const senderTimeout = 30 * time.Second

// send hands one letter to Postfix, and returns once Postfix has queued
// it (it reaches the judge's mailbox 40 to 130 ms later); or, over LMTP,
// once Dovecot has put it into the mailbox.
func (s *smtpSender) send(l *letter) error {
	if s.c == nil {
		if err := s.connect(); err != nil {
			return fmt.Errorf("sending %q from %s: %w", l.Subject, l.From, err)
		}
	}
	err := s.c.SendMail(addr(l.From), []string{addr(l.To)}, bytes.NewReader(l.bytes()))
	if err != nil {
		s.c.Close()
		s.c = nil
		return fmt.Errorf("sending %q from %s: %w", l.Subject, l.From, err)
	}
	return nil
}

// connect opens the session.
func (s *smtpSender) connect() error {
	port := ports.SMTP
	if s.lmtp {
		port = ports.LMTP
	}
	conn, err := net.DialTimeout("tcp", hostPort(port), senderTimeout)
	if err != nil {
		return err
	}
	c := smtp.NewClient(conn)
	if s.lmtp {
		c = smtp.NewClientLMTP(conn)
	}
	c.CommandTimeout, c.SubmissionTimeout = senderTimeout, senderTimeout
	if err := c.Hello("localhost"); err != nil {
		c.Close()
		return err
	}
	s.c = c
	return nil
}

// close ends the session.
func (s *smtpSender) close() {
	if s.c != nil {
		if s.c.Quit() != nil {
			s.c.Close()
		}
		s.c = nil
	}
}

// sendAll sends letters by SMTP, failing the test on any error.
func sendAll(t testing.TB, letters ...*letter) {
	t.Helper()
	var s smtpSender
	defer s.close()
	for _, l := range letters {
		if err := s.send(l); err != nil {
			t.Fatal(err)
		}
	}
}

// deliverLMTP puts letters straight into their recipients' mailboxes
// through Dovecot's LMTP port: synchronous (each is in its mailbox when
// this returns) and much faster than SMTP, for filling a mailbox in bulk.
// Four connections share the work, as Dovecot spends most of a delivery
// waiting for the disk.
func deliverLMTP(t testing.TB, letters []*letter) {
	t.Helper()
	const conns = 4
	errs := make(chan error, conns)
	for c := range conns {
		var part []*letter
		for i := c; i < len(letters); i += conns {
			part = append(part, letters[i])
		}
		go func() { errs <- lmtp(part) }()
	}
	for range conns {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// lmtp delivers letters over one LMTP connection.
func lmtp(letters []*letter) error {
	s := smtpSender{lmtp: true}
	defer s.close()
	for _, l := range letters {
		if err := s.send(l); err != nil {
			return fmt.Errorf("LMTP delivery: %w", err)
		}
	}
	return nil
}

// received is a mail found in a mailbox.
type received struct {
	UID           imap.UID
	Seen          bool
	From          string // bare address
	Subject       string
	MessageID     string // "<...>"
	InReplyTo     string // "<...>", "" if none
	AutoSubmitted string
	Header        string // the raw header, for Received: lines
	Body          string // decoded text
	Raw           []byte // the whole message, as the server holds it
}

// mailbox reads a user's INBOX (or another folder) over IMAPS, trusting
// the servers' certificate, and keeps what it fetched, so that polling
// fetches only the new messages.
type mailbox struct {
	user   string
	folder string // "INBOX" unless set otherwise before the first use
	// headers, when set, has only the header fields of received fetched
	// (no Body, and only those fields in Header): a mailbox of thousands
	// of replies is listed in a moment. See also withBodies.
	headers bool
	c       *imapclient.Client
	got     map[imap.UID]*received
}

// replyFields are the header fields a mailbox with headers set fetches.
var replyFields = []string{"From", "Subject", "Message-ID", "In-Reply-To", "Auto-Submitted"}

// newMailbox returns a reader of user's INBOX; close it when done.
func newMailbox(user string) *mailbox {
	return &mailbox{user: user, folder: "INBOX", got: map[imap.UID]*received{}}
}

// connect logs in and selects the INBOX, if not done yet.
func (m *mailbox) connect() error {
	if m.c != nil {
		return nil
	}
	c, err := imapclient.DialTLS(hostPort(ports.IMAPS), &imapclient.Options{
		TLSConfig: &tls.Config{RootCAs: env.roots},
	})
	if err != nil {
		return err
	}
	if err := c.Login(addr(m.user), password(m.user)).Wait(); err != nil {
		c.Close()
		return err
	}
	if _, err := c.Select(m.folder, nil).Wait(); err != nil {
		c.Close()
		return err
	}
	m.c = c
	return nil
}

// close logs out.
func (m *mailbox) close() {
	if m.c != nil {
		m.c.Logout().Wait()
		m.c.Close()
		m.c = nil
	}
}

// retry runs fn on a connection, and once more on a new one if it fails:
// the connection may have been cut by a restart of the server since it
// was last used.
func (m *mailbox) retry(fn func() error) error {
	var err error
	for range 2 {
		if err = m.connect(); err != nil {
			return err
		}
		if err = fn(); err == nil {
			return nil
		}
		m.close() // a fresh connection next time
	}
	return err
}

// list returns every message in the mailbox, in UID order, with its
// current \Seen flag.
func (m *mailbox) list() (msgs []*received, err error) {
	err = m.retry(func() error {
		msgs, err = m.refresh()
		return err
	})
	return msgs, err
}

func (m *mailbox) refresh() ([]*received, error) {
	if err := m.c.Noop().Wait(); err != nil {
		return nil, err
	}
	uids, err := m.search(&imap.SearchCriteria{})
	if err != nil {
		return nil, err
	}
	var fresh []imap.UID
	for _, u := range uids {
		if m.got[u] == nil {
			fresh = append(fresh, u)
		}
	}
	if err := m.fetch(fresh, m.headers); err != nil {
		return nil, err
	}
	seenUIDs, err := m.search(&imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}})
	if err != nil {
		return nil, err
	}
	seen := make(map[imap.UID]bool, len(seenUIDs))
	for _, u := range seenUIDs {
		seen[u] = true
	}
	out := make([]*received, 0, len(uids))
	for _, u := range uids {
		if r := m.got[u]; r != nil {
			r.Seen = seen[u]
			out = append(out, r)
		}
	}
	return out, nil
}

// fetch fetches the messages uids, whole or only their replyFields, into
// m.got, replacing what was there.
func (m *mailbox) fetch(uids []imap.UID, headers bool) error {
	if len(uids) == 0 {
		return nil
	}
	sec := &imap.FetchItemBodySection{Peek: true}
	if headers {
		sec = &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierHeader, HeaderFields: replyFields}
	}
	msgs, err := m.c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
		UID: true, BodySection: []*imap.FetchItemBodySection{sec},
	}).Collect()
	if err != nil {
		return err
	}
	for _, msg := range msgs {
		r, err := parseReceived(msg.FindBodySection(sec))
		if err != nil {
			return fmt.Errorf("%s's message UID %d: %v", m.user, msg.UID, err)
		}
		r.UID = msg.UID
		m.got[msg.UID] = r
	}
	return nil
}

// search returns the UIDs of the messages that meet criteria, as a
// compact set where the server can (ESEARCH): a mailbox of thousands.
func (m *mailbox) search(criteria *imap.SearchCriteria) ([]imap.UID, error) {
	var opts *imap.SearchOptions
	if m.c.Caps().Has(imap.CapESearch) {
		opts = &imap.SearchOptions{ReturnAll: true}
	}
	data, err := m.c.UIDSearch(criteria, opts).Wait()
	if err != nil {
		return nil, err
	}
	return data.AllUIDs(), nil
}

// withBodies fetches whole, for a mailbox with headers set, the messages
// listed already whose body holds text (by the server's SEARCH BODY,
// which ignores case), so that their received.Body is there to check.
func (m *mailbox) withBodies(text string) error {
	return m.retry(func() error {
		uids, err := m.search(&imap.SearchCriteria{Body: []string{text}})
		if err != nil {
			return err
		}
		uids = slices.DeleteFunc(uids, func(u imap.UID) bool { return m.got[u] == nil })
		return m.fetch(uids, false)
	})
}

// counts returns how many messages the mailbox holds and how many of them
// are flagged \Seen, without fetching any.
func (m *mailbox) counts() (total, seen int, err error) {
	err = m.retry(func() error {
		if err := m.c.Noop().Wait(); err != nil {
			return err
		}
		if total, err = m.count(&imap.SearchCriteria{}); err != nil {
			return err
		}
		seen, err = m.count(&imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}})
		return err
	})
	return total, seen, err
}

// count returns how many messages meet criteria.
func (m *mailbox) count(criteria *imap.SearchCriteria) (int, error) {
	if !m.c.Caps().Has(imap.CapESearch) {
		uids, err := m.search(criteria)
		return len(uids), err
	}
	data, err := m.c.UIDSearch(criteria, &imap.SearchOptions{ReturnCount: true}).Wait()
	if err != nil {
		return 0, err
	}
	return int(data.Count), nil
}

// parseReceived decodes a raw message.
func parseReceived(raw []byte) (*received, error) {
	if raw == nil {
		return nil, fmt.Errorf("no body fetched")
	}
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) {
		return nil, err
	}
	h := gomail.Header{Header: e.Header}
	r := &received{AutoSubmitted: h.Get("Auto-Submitted"), Raw: raw}
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		r.Header = string(raw[:i])
	}
	if from, err := h.AddressList("From"); err == nil && len(from) > 0 {
		r.From = from[0].Address
	}
	r.Subject, _ = h.Subject()
	if id, err := h.MessageID(); err == nil && id != "" {
		r.MessageID = "<" + id + ">"
	}
	if ids, err := h.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		r.InReplyTo = "<" + ids[0] + ">"
	}
	body, err := io.ReadAll(e.Body)
	if err != nil {
		return nil, err
	}
	r.Body = strings.ReplaceAll(string(body), "\r\n", "\n")
	return r, nil
}

// waitFor polls user's INBOX until done is content with the messages in
// it, and returns them; it fails the test if that does not happen within
// timeout. what says what is awaited, for the failure message.
func waitFor(t testing.TB, user string, timeout time.Duration, what string, done func([]*received) bool) []*received {
	t.Helper()
	m := newMailbox(user)
	defer m.close()
	deadline := time.Now().Add(timeout)
	for {
		msgs, err := m.list()
		if err == nil && done(msgs) {
			return msgs
		}
		if time.Now().After(deadline) {
			if err != nil {
				t.Fatalf("%s's INBOX, waiting for %s: %v", user, what, err)
			}
			t.Fatalf("%s's INBOX: no %s within %v; it holds:\n%s", user, what, timeout, describe(msgs))
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// replyTo waits for the judge's reply to l in its sender's INBOX and
// returns it: the first message whose In-Reply-To is l's Message-ID.
func replyTo(t testing.TB, l *letter, timeout time.Duration) *received {
	t.Helper()
	var reply *received
	waitFor(t, l.From, timeout, "reply to "+strings.TrimSpace(l.Subject), func(msgs []*received) bool {
		for _, m := range msgs {
			if m.InReplyTo == l.MessageID {
				reply = m
				return true
			}
		}
		return false
	})
	return reply
}

// describe lists messages one a line, for failure messages.
func describe(msgs []*received) string {
	if len(msgs) == 0 {
		return "  (nothing)"
	}
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "  UID %d from %s: %q (in reply to %s)\n", m.UID, m.From, m.Subject, m.InReplyTo)
	}
	return b.String()
}

// emptyMailboxes deletes every message in the users' INBOXes, so that a
// test starts from empty mailboxes: the judge's especially, as a judge
// with a new database reads every message in it.
func emptyMailboxes(t testing.TB, users ...string) {
	t.Helper()
	for _, u := range users {
		if err := empty(u); err != nil {
			t.Fatalf("emptying %s's INBOX: %v", u, err)
		}
	}
}

// deleteFolder deletes user's folder and every message in it; a folder
// that is not there is not an error.
func deleteFolder(user, folder string) error {
	m := newMailbox(user)
	defer m.close()
	if err := m.connect(); err != nil {
		return err
	}
	err := m.c.Delete(folder).Wait()
	if e := (*imap.Error)(nil); errors.As(err, &e) && e.Code == imap.ResponseCodeNonExistent {
		return nil
	}
	return err
}

// empty deletes every message in user's INBOX.
func empty(user string) error {
	m := newMailbox(user)
	defer m.close()
	if err := m.connect(); err != nil {
		return err
	}
	uids, err := m.search(&imap.SearchCriteria{})
	if err != nil || len(uids) == 0 {
		return err
	}
	err = m.c.Store(imap.UIDSetNum(uids...), &imap.StoreFlags{
		Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted},
	}, nil).Close()
	if err != nil {
		return err
	}
	return m.c.Expunge().Close()
}
