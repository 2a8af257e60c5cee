package mail

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/internal/diskfault"
	"github.com/gmdjudge/gmd/state"
)

// smtpT0 is the fake time the outbox tests start at.
var smtpT0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// smtpServer is an in-process SMTP server that records what it is sent
// and answers as the test says.
type smtpServer struct {
	addr string
	srv  *smtp.Server

	// Set before start.
	tls        config.TLSMode // "", config.TLSStartTLS or config.TLSImplicit
	user, pass string         // AUTH PLAIN required when set
	discard    bool           // keep no mail (for the benchmark)
	// onData, if set, is called with the number of mails read so far
	// after each DATA, before the answer (with no lock held).
	onData func(n int)
	// net, if set, is the in-memory network to listen on, for tests in
	// a synctest bubble; the Sender must dial it (o.s.dialContext).
	net *pipeNet

	mu       sync.Mutex
	sessions int              // connections that got as far as EHLO
	rcpts    int              // RCPT commands
	rcptErr  map[string]error // refusals at RCPT, by address
	dataErr  error            // the answer to the end of DATA
	mails    []smtpGot        // every DATA read, taken or not
}

// smtpGot is a mail as the server read it.
type smtpGot struct {
	from     string
	to       []string
	data     []byte
	tls      bool // over TLS
	accepted bool
}

// startSMTP starts srv on addr ("" for any free port).
func startSMTP(tb testing.TB, addr string, srv *smtpServer) *smtpServer {
	tb.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var ln net.Listener
	if srv.net != nil {
		ln = srv.net.listen(addr)
	} else {
		var err error
		if ln, err = net.Listen("tcp", addr); err != nil {
			tb.Fatal(err)
		}
	}
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		srv.mu.Lock()
		srv.sessions++
		srv.mu.Unlock()
		return &smtpSession{srv: srv, conn: c}, nil
	}))
	s.Domain = "localhost"
	s.ErrorLog = log.New(io.Discard, "", 0)
	s.AllowInsecureAuth = srv.tls == "" // AUTH only over TLS when there is TLS
	switch srv.tls {
	case config.TLSStartTLS:
		s.TLSConfig = smtpServerTLS()
	case config.TLSImplicit:
		ln = tls.NewListener(ln, smtpServerTLS())
	}
	go s.Serve(ln)
	tb.Cleanup(func() { s.Close() })
	srv.addr, srv.srv = ln.Addr().String(), s
	return srv
}

func (srv *smtpServer) got() []smtpGot {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return slices.Clone(srv.mails)
}

func (srv *smtpServer) counts() (sessions, rcpts int) {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.sessions, srv.rcpts
}

func (srv *smtpServer) refuse(addr string, err error) {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.rcptErr == nil {
		srv.rcptErr = make(map[string]error)
	}
	if err == nil {
		delete(srv.rcptErr, addr)
	} else {
		srv.rcptErr[addr] = err
	}
}

type smtpSession struct {
	srv    *smtpServer
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (s *smtpSession) AuthMechanisms() []string {
	if s.srv.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != s.srv.user || pass != s.srv.pass {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.srv.user != "" && !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	s.srv.rcpts++
	if err := s.srv.rcptErr[to]; err != nil {
		return err
	}
	s.to = append(s.to, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.srv.mu.Lock()
	if !s.srv.discard {
		_, isTLS := s.conn.TLSConnectionState()
		s.srv.mails = append(s.srv.mails, smtpGot{
			from: s.from, to: s.to, data: data, tls: isTLS, accepted: s.srv.dataErr == nil,
		})
	}
	n, err, hook := len(s.srv.mails), s.srv.dataErr, s.srv.onData
	s.srv.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	return err
}

func (s *smtpSession) Reset()        { s.from, s.to = "", nil }
func (s *smtpSession) Logout() error { return nil }

// smtpCert is a self-signed certificate for 127.0.0.1 and localhost,
// made once, and a pool that trusts it.
var smtpCert = sync.OnceValues(func() (tls.Certificate, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "gmd test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		panic(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}, pool
})

func smtpServerTLS() *tls.Config {
	cert, _ := smtpCert()
	return &tls.Config{Certificates: []tls.Certificate{cert}}
}

// smtpClientRoots trusts the test server's certificate.
func smtpClientRoots() *x509.CertPool {
	_, pool := smtpCert()
	return pool
}

// outbox is a Sender on a fresh database, with a clock the test moves.
type outbox struct {
	t   *testing.T
	db  *state.DB
	s   *Sender
	now time.Time
	log *syncBuffer
}

func newOutbox(t *testing.T, cfg SMTPConfig) *outbox {
	t.Helper()
	db, err := state.Open(t.TempDir() + "/gmd.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	o := &outbox{t: t, db: db, now: smtpT0, log: new(syncBuffer)}
	o.s = o.sender(cfg)
	return o
}

// sender returns a Sender for o's database, clock and log.
func (o *outbox) sender(cfg SMTPConfig) *Sender {
	if cfg.From == "" {
		cfg.From = "GMD Judge <judge@example.test>"
	}
	if cfg.TLS == "" {
		cfg.TLS = config.TLSNone
	}
	h := slog.NewTextHandler(io.MultiWriter(o.t.Output(), o.log), &slog.HandlerOptions{Level: slog.LevelDebug})
	s := NewSender(cfg, o.db, slog.New(h))
	s.Now = func() time.Time { return o.now }
	return s
}

// messageSeq numbers the Message-IDs queue makes up.
var messageSeq atomic.Int64

// queue puts m in the outbox, filling in what it lacks, and returns its ID.
func (o *outbox) queue(m *state.OutMail) uint64 {
	o.t.Helper()
	if m.MessageID == "" {
		// Not the time alone: in a synctest bubble it stands still.
		m.MessageID = fmt.Sprintf("<gmd.%d.%d@example.test>", time.Now().UnixNano(), messageSeq.Add(1))
	}
	if m.Subject == "" {
		m.Subject = "GMD:test - orders received"
	}
	if m.Body == "" {
		m.Body = "Orders received.\nAustria: A Vienna -> Galicia\n.\nFrom now on, dots and From lines are safe.\n"
	}
	if m.Created.IsZero() {
		m.Created = o.now
	}
	if err := o.db.Update(func(tx *state.Tx) error { return tx.Enqueue(m) }); err != nil {
		o.t.Fatal(err)
	}
	return m.ID
}

func (o *outbox) mails() []*state.OutMail {
	o.t.Helper()
	var all []*state.OutMail
	err := o.db.View(func(tx *state.Tx) error {
		var err error
		all, err = tx.Outbox(0)
		return err
	})
	if err != nil {
		o.t.Fatal(err)
	}
	return all
}

// flush runs one pass and checks how many mails were sent and whether it
// reported mails kept for a retry.
func (o *outbox) flush(wantSent int, wantKept bool) error {
	o.t.Helper()
	before := o.s.Sent()
	sent, err := o.s.Flush(context.Background())
	if sent != wantSent || (err != nil) != wantKept {
		o.t.Fatalf("Flush at %v = %d, %v; want %d sent, error %v", o.now.Sub(smtpT0), sent, err, wantSent, wantKept)
	}
	if got := o.s.Sent() - before; got != uint64(sent) {
		o.t.Fatalf("Sent() went up by %d for a pass that sent %d", got, sent)
	}
	return err
}

// only returns the one mail in the outbox.
func (o *outbox) only() *state.OutMail {
	o.t.Helper()
	all := o.mails()
	if len(all) != 1 {
		o.t.Fatalf("outbox holds %d mails, want 1", len(all))
	}
	return all[0]
}

// checkRetry checks that m waits for its attempts-th retry, due as the
// backoff says.
func (o *outbox) checkRetry(m *state.OutMail, attempts int) {
	o.t.Helper()
	wait := min(retryFirst<<(attempts-1), retryMax)
	if m.Attempts != attempts || m.Failed != "" ||
		m.NextTry.Before(o.now.Add(wait*4/5)) || m.NextTry.After(o.now.Add(wait)) {
		o.t.Fatalf("mail after %d failed attempts: Attempts %d, NextTry now+%v, Failed %q; want NextTry in now+[%v, %v]",
			attempts, m.Attempts, m.NextTry.Sub(o.now), m.Failed, wait*4/5, wait)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// parseGot parses a mail the server got, checking its line ends.
func parseGot(t *testing.T, g smtpGot) (gomail.Header, string) {
	t.Helper()
	if n := bytes.Count(g.data, []byte("\n")); n != bytes.Count(g.data, []byte("\r\n")) {
		t.Errorf("mail has a line that does not end in CRLF:\n%s", g.data)
	}
	mr, err := gomail.CreateReader(bytes.NewReader(g.data))
	if err != nil {
		t.Fatal(err)
	}
	p, err := mr.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(p.Body)
	if err != nil {
		t.Fatal(err)
	}
	return mr.Header, strings.ReplaceAll(string(body), "\r\n", "\n")
}

func TestSendDelivers(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	reply := &state.OutMail{MessageID: "<gmd.1@example.test>", InReplyTo: "<orders.1@player.test>",
		To: []string{"p1@example.test"}}
	results := &state.OutMail{MessageID: "<gmd.2@example.test>", To: []string{"p1@example.test", "p2@example.test"},
		Subject: "GMD:test - S1901M Results", Body: "Results.\n.\nFrom here on.\n"}
	third := &state.OutMail{MessageID: "<gmd.3@example.test>", To: []string{"p2@example.test"}}
	for _, m := range []*state.OutMail{reply, results, third} {
		o.queue(m)
	}
	o.now = smtpT0.Add(time.Minute) // sent a minute after queued

	o.flush(3, false)
	if left := o.mails(); len(left) != 0 {
		t.Errorf("outbox still holds %d mails", len(left))
	}
	if sessions, _ := srv.counts(); sessions != 1 {
		t.Errorf("%d SMTP sessions, want 1 for the batch", sessions)
	}
	got := srv.got()
	if len(got) != 3 {
		t.Fatalf("server got %d mails, want 3", len(got))
	}
	for i, m := range []*state.OutMail{reply, results, third} {
		g := got[i]
		if g.from != "judge@example.test" || !slices.Equal(g.to, m.To) {
			t.Errorf("mail %d: envelope from %q to %q, want judge@example.test to %q", i, g.from, g.to, m.To)
		}
		h, body := parseGot(t, g)
		if id, err := h.MessageID(); err != nil || "<"+id+">" != m.MessageID {
			t.Errorf("mail %d: Message-ID %q (%v), want %s", i, id, err, m.MessageID)
		}
		irt, _ := h.MsgIDList("In-Reply-To")
		wantAuto := "auto-generated"
		if m.InReplyTo != "" {
			wantAuto = "auto-replied"
			if len(irt) != 1 || "<"+irt[0]+">" != m.InReplyTo {
				t.Errorf("mail %d: In-Reply-To %q, want %s", i, irt, m.InReplyTo)
			}
		} else if len(irt) != 0 {
			t.Errorf("mail %d: In-Reply-To %q, want none", i, irt)
		}
		if a := h.Get("Auto-Submitted"); a != wantAuto {
			t.Errorf("mail %d: Auto-Submitted %q, want %q", i, a, wantAuto)
		}
		from, err := h.AddressList("From")
		if err != nil || len(from) != 1 || from[0].Address != "judge@example.test" || from[0].Name != "GMD Judge" {
			t.Errorf("mail %d: From %v (%v), want GMD Judge <judge@example.test>", i, from, err)
		}
		if d, err := h.Date(); err != nil || !d.Equal(smtpT0) {
			t.Errorf("mail %d: Date %v (%v), want the time it was queued, %v", i, d, err, smtpT0)
		}
		if body != m.Body {
			t.Errorf("mail %d: body %q, want %q", i, body, m.Body)
		}
	}

	o.flush(0, false) // nothing left to do
	if sessions, _ := srv.counts(); sessions != 1 {
		t.Errorf("an empty outbox opened a session")
	}
}

func TestSendServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nobody listens there now

	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: addr}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}})
	o.flush(0, true)
	m := o.only()
	o.checkRetry(m, 1)

	o.now = m.NextTry.Add(-time.Second) // not due: not tried
	o.flush(0, false)
	if o.only().Attempts != 1 {
		t.Fatalf("a mail was tried before it was due")
	}
	o.now = m.NextTry
	o.flush(0, true)
	m = o.only()
	o.checkRetry(m, 2) // the wait has doubled

	srv := startSMTP(t, addr, &smtpServer{})
	o.now = m.NextTry
	o.flush(1, false)
	if len(o.mails()) != 0 || len(srv.got()) != 1 {
		t.Fatalf("the mail was not delivered once the server was back")
	}
}

// TestSendAfterOutage checks that once the server is back, the mails that
// waited out the outage go too, without waiting for their next try.
func TestSendAfterOutage(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: addr}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}})
	o.flush(0, true)

	srv := startSMTP(t, addr, &smtpServer{})
	o.now = smtpT0.Add(5 * time.Second)
	o.queue(&state.OutMail{To: []string{"p2@example.test"}})
	o.flush(2, false)
	if len(o.mails()) != 0 || len(srv.got()) != 2 {
		t.Fatalf("outbox %d mails, server got %d, want 0 and 2", len(o.mails()), len(srv.got()))
	}
}

func TestSendRecipientRefused(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	srv.refuse("nobody@example.test", &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{To: []string{"nobody@example.test", "p1@example.test"}})

	o.flush(1, false)
	if len(o.mails()) != 0 {
		t.Errorf("mail still queued")
	}
	if got := srv.got(); len(got) != 1 || !slices.Equal(got[0].to, []string{"p1@example.test"}) {
		t.Errorf("server got %+v, want one mail to p1@example.test", got)
	}
	if l := o.log.String(); !strings.Contains(l, "recipient refused") || !strings.Contains(l, "nobody@example.test") {
		t.Errorf("the refused recipient is not in the log:\n%s", l)
	}
}

func TestSendAllRecipientsRefused(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	for _, a := range []string{"x@example.test", "y@example.test"} {
		srv.refuse(a, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"})
	}
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	bad := o.queue(&state.OutMail{To: []string{"x@example.test", "y@example.test"}})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}}) // goes all the same

	o.flush(1, false)
	all := o.mails()
	if len(all) != 1 || all[0].ID != bad {
		t.Fatalf("outbox holds %+v, want only the refused mail", all)
	}
	m := all[0]
	if m.Attempts != 1 || !strings.Contains(m.Failed, "550") || !strings.Contains(m.Failed, "x@example.test") ||
		!strings.Contains(m.Failed, "y@example.test") || len(m.To) != 2 {
		t.Errorf("refused mail: %+v, want Failed with both 550s and To unchanged", m)
	}
	if got := srv.got(); len(got) != 1 || got[0].to[0] != "p1@example.test" {
		t.Errorf("server got %+v, want one mail to p1@example.test", got)
	}
	if sessions, _ := srv.counts(); sessions != 2 {
		t.Errorf("%d sessions, want 2: a new one after the refused transaction", sessions)
	}

	sessions, rcpts := srv.counts()
	o.now = smtpT0.Add(48 * time.Hour)
	o.flush(0, false)
	if s, r := srv.counts(); s != sessions || r != rcpts {
		t.Errorf("a failed mail was tried again")
	}
	if !strings.Contains(o.log.String(), "level=WARN msg=\"mail failed for good") {
		t.Errorf("the failure is not logged as a warning:\n%s", o.log)
	}
}

func TestSendRecipientDeferred(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	srv.refuse("p1@example.test", &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 7, 1}, Message: "greylisted"})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}})

	err := o.flush(0, true)
	if !strings.Contains(err.Error(), "451") {
		t.Errorf("Flush error %q does not give the server's answer", err)
	}
	o.checkRetry(o.only(), 1)

	_, rcpts := srv.counts()
	o.now = smtpT0.Add(10 * time.Second)
	o.flush(0, false)
	if _, r := srv.counts(); r != rcpts {
		t.Errorf("the mail was tried again before it was due")
	}

	srv.refuse("p1@example.test", nil)
	o.now = smtpT0.Add(retryFirst)
	o.flush(1, false)
	if len(o.mails()) != 0 || len(srv.got()) != 1 {
		t.Errorf("the mail was not delivered on its retry")
	}
}

// TestSendSomeRecipientsDeferred checks that a mail some recipients got
// is retried for the others only.
func TestSendSomeRecipientsDeferred(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	srv.refuse("p2@example.test", &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 2, 2}, Message: "mailbox full"})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test", "p2@example.test", "p3@example.test"}})

	o.flush(1, true)
	m := o.only()
	o.checkRetry(m, 1)
	if !slices.Equal(m.To, []string{"p2@example.test"}) {
		t.Errorf("mail kept for %q, want p2 only", m.To)
	}

	srv.refuse("p2@example.test", nil)
	o.now = m.NextTry
	o.flush(1, false)
	got := srv.got()
	if len(got) != 2 || !slices.Equal(got[0].to, []string{"p1@example.test", "p3@example.test"}) ||
		!slices.Equal(got[1].to, []string{"p2@example.test"}) {
		t.Errorf("server got %+v, want the mail for p1 and p3, then for p2", got)
	}
	h, _ := parseGot(t, got[1])
	if id, _ := h.MessageID(); "<"+id+">" != m.MessageID {
		t.Errorf("retry has Message-ID <%s>, want %s", id, m.MessageID)
	}
}

func TestSendDataDeferred(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	srv.dataErr = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test", "p2@example.test"}})

	o.flush(0, true)
	m := o.only()
	o.checkRetry(m, 1)

	srv.mu.Lock()
	srv.dataErr = nil
	srv.mu.Unlock()
	o.now = m.NextTry
	o.flush(1, false)
	got := srv.got()
	if len(got) != 2 || got[0].accepted || !got[1].accepted {
		t.Fatalf("server got %+v, want a refused then an accepted mail", got)
	}
	if !bytes.Equal(got[0].data, got[1].data) {
		t.Errorf("the retry is not the same message:\n%s\n---\n%s", got[0].data, got[1].data)
	}
}

func TestSendDataRefused(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	srv.dataErr = &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "looks like spam"}
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}})

	o.flush(0, false)
	if m := o.only(); !strings.Contains(m.Failed, "554") || !strings.Contains(m.Failed, "looks like spam") {
		t.Errorf("Failed = %q, want the 554", m.Failed)
	}
}

// TestSendConnectionDropped checks that a mail whose session breaks
// (421) waits for a retry while those after it go through a new session.
func TestSendConnectionDropped(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	srv.refuse("p1@example.test", &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 4, 2}, Message: "bye"})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}})
	o.queue(&state.OutMail{To: []string{"p2@example.test"}})

	o.flush(1, true)
	o.checkRetry(o.only(), 1)
	if sessions, _ := srv.counts(); sessions != 2 {
		t.Errorf("%d sessions, want 2", sessions)
	}
}

func TestSendComposeError(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{MessageID: "no angle brackets", To: []string{"p1@example.test"}})

	o.flush(0, false)
	if m := o.only(); !strings.Contains(m.Failed, "Message-ID") {
		t.Errorf("Failed = %q, want the Message-ID error", m.Failed)
	}
	if sessions, _ := srv.counts(); sessions != 0 {
		t.Errorf("a mail that cannot be composed opened a session")
	}
}

func TestSendStartTLSAuth(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{tls: config.TLSStartTLS, user: "judge@example.test", pass: "secret"})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr, TLS: config.TLSStartTLS, RootCAs: smtpClientRoots(), Username: "judge@example.test", Password: "secret"}}, LocalName: "judge.example.test"})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}})

	o.flush(1, false)
	if got := srv.got(); len(got) != 1 || !got[0].tls {
		t.Errorf("server got %+v, want one mail over TLS", got)
	}
}

func TestSendImplicitTLS(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{tls: config.TLSImplicit, user: "judge@example.test", pass: "secret"})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr, TLS: config.TLSImplicit, RootCAs: smtpClientRoots(), Username: "judge@example.test", Password: "secret"}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}})

	o.flush(1, false)
	if got := srv.got(); len(got) != 1 || !got[0].tls {
		t.Errorf("server got %+v, want one mail over TLS", got)
	}
}

// TestSendSessionRefused checks the failures of the session itself: the
// mails wait, none is marked failed, and those an admin must see to are
// logged as errors.
func TestSendSessionRefused(t *testing.T) {
	tests := []struct {
		name    string
		srv     *smtpServer
		cfg     SMTPConfig
		wantErr string
		admin   bool // logged as an error
	}{
		{"no STARTTLS", &smtpServer{},
			SMTPConfig{SMTP: config.SMTP{Server: config.Server{TLS: config.TLSStartTLS, RootCAs: smtpClientRoots()}}}, "STARTTLS", false},
		{"untrusted certificate", &smtpServer{tls: config.TLSStartTLS},
			SMTPConfig{SMTP: config.SMTP{Server: config.Server{TLS: config.TLSStartTLS}}}, "certificate", true},
		{"wrong password", &smtpServer{tls: config.TLSImplicit, user: "judge@example.test", pass: "secret"},
			SMTPConfig{SMTP: config.SMTP{Server: config.Server{TLS: config.TLSImplicit, RootCAs: smtpClientRoots(), Username: "judge@example.test", Password: "guess"}}},
			"535", true},
		{"no login", &smtpServer{tls: config.TLSImplicit, user: "judge@example.test", pass: "secret"},
			SMTPConfig{SMTP: config.SMTP{Server: config.Server{TLS: config.TLSImplicit, RootCAs: smtpClientRoots()}}}, "MAIL FROM", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startSMTP(t, "", tt.srv)
			tt.cfg.Addr = srv.addr
			o := newOutbox(t, tt.cfg)
			o.queue(&state.OutMail{To: []string{"p1@example.test"}})
			o.queue(&state.OutMail{To: []string{"p2@example.test"}})

			err := o.flush(0, true)
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Flush error %q does not say %q", err, tt.wantErr)
			}
			all := o.mails()
			if len(all) != 2 {
				t.Fatalf("outbox holds %d mails, want 2", len(all))
			}
			for _, m := range all {
				o.checkRetry(m, 1)
			}
			if got := strings.Contains(o.log.String(), "level=ERROR"); got != tt.admin {
				t.Errorf("logged as an error: %v, want %v:\n%s", got, tt.admin, o.log)
			}
		})
	}
}

// TestSendFixedPassword checks that mails held back by a wrong password
// go once the configuration is fixed.
func TestSendFixedPassword(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{tls: config.TLSImplicit, user: "judge@example.test", pass: "secret"})
	cfg := SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr, TLS: config.TLSImplicit, RootCAs: smtpClientRoots(), Username: "judge@example.test", Password: "guess"}}}
	o := newOutbox(t, cfg)
	o.queue(&state.OutMail{To: []string{"p1@example.test"}})
	o.flush(0, true)

	cfg.Password = "secret"
	o.s = o.sender(cfg) // the daemon restarted with the fixed configuration
	o.now = o.only().NextTry
	o.flush(1, false)
}

func TestSendCancelled(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.queue(&state.OutMail{To: []string{"p1@example.test"}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if sent, err := o.s.Flush(ctx); sent != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("Flush with a done context = %d, %v; want 0, context.Canceled", sent, err)
	}
	if m := o.only(); m.Attempts != 0 {
		t.Errorf("the shutdown counted as an attempt: %+v", m)
	}
}

// TestRunKick runs in a synctest bubble, on its clock.
func TestRunKick(t *testing.T) { synctest.Test(t, runKick) }

func runKick(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{net: newPipeNet()})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.s.dialContext = srv.net.DialContext
	o.s.Now = time.Now
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- o.s.Run(ctx) }()

	// Run's first pass may or may not see the first mail; the Kick
	// makes sure of it. The second comes in while Run sleeps.
	for i := range 2 {
		o.queue(&state.OutMail{To: []string{"p1@example.test"}})
		o.s.Kick()
		deadline := time.Now().Add(5 * time.Second)
		for len(o.mails()) != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("mail %d not sent 5s after the Kick", i)
			}
			time.Sleep(time.Millisecond)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v, want nil after cancel", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if got := srv.got(); len(got) != 2 {
		t.Errorf("server got %d mails, want 2", len(got))
	}
}

// TestRunStalled checks that while the server cannot be reached, Run
// does not try it again for every new mail. It runs in a synctest
// bubble, so that everything Run would do for the new mails is done
// before the connections are counted.
func TestRunStalled(t *testing.T) { synctest.Test(t, runStalled) }

func runStalled(t *testing.T) {
	pn := newPipeNet()
	ln := pn.listen("")
	var mu sync.Mutex
	accepted := 0
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			accepted++
			mu.Unlock()
			c.Close() // hangs up before the greeting
		}
	}()
	defer ln.Close()

	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: ln.Addr().String()}}})
	o.s.dialContext = pn.DialContext
	o.s.Now = time.Now
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- o.s.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	}()

	o.queue(&state.OutMail{To: []string{"p1@example.test"}})
	o.s.Kick()
	deadline := time.Now().Add(5 * time.Second)
	for o.only().Attempts == 0 {
		if time.Now().After(deadline) {
			t.Fatal("mail not tried 5s after the Kick")
		}
		time.Sleep(time.Millisecond)
	}
	for range 3 {
		o.queue(&state.OutMail{To: []string{"p2@example.test"}})
		o.s.Kick()
	}
	synctest.Wait()
	mu.Lock()
	defer mu.Unlock()
	if accepted != 1 {
		t.Errorf("%d connections, want 1: the new mails should wait for the retry", accepted)
	}
}

// TestDatabaseError checks that the remover hands back the mails it
// could not take out of the outbox, and that Run, on a database it
// cannot use at all, sends nothing, says so, and still stops when told.
// It runs in a synctest bubble, where Run's 50 ms take no real time.
func TestDatabaseError(t *testing.T) { synctest.Test(t, databaseError) }

func databaseError(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{net: newPipeNet()})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.s.dialContext = srv.net.DialContext
	id := o.queue(&state.OutMail{To: []string{"p1@example.test"}})

	r := newRemover(o.db)
	o.db.Close()
	if err := r.add(id); err != nil {
		t.Fatalf("add = %v; the error should show on the next add or close", err)
	}
	left, err := r.close()
	if err == nil || !strings.Contains(err.Error(), "removing 1 sent mail(s)") || !slices.Equal(left, []uint64{id}) {
		t.Errorf("remover.close = %v, %v; want [%d] and the failed delete", left, err, id)
	}

	o.s.dbRetryFirst = time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := o.s.Run(ctx); err != nil {
		t.Errorf("Run on a closed database = %v, want nil once cancelled", err)
	}
	if len(srv.got()) != 0 {
		t.Errorf("mail sent without a database to record it")
	}
	if l := o.log.String(); !strings.Contains(l, `level=ERROR msg="the outbox cannot be updated`) {
		t.Errorf("the database error is not logged:\n%s", l)
	}
}

// TestSendWriteFault checks the outbox while the database cannot be
// written (a full disk): a mail the server took but the outbox could not
// drop stays queued, so it is not lost, and is not sent again; nothing
// more is sent until the database can be written; Run keeps trying, and
// once the database is back every mail has gone exactly once. It runs in
// a synctest bubble, where Run's retries take no real time.
func TestSendWriteFault(t *testing.T) { synctest.Test(t, sendWriteFault) }

func sendWriteFault(t *testing.T) {
	srv := startSMTP(t, "", &smtpServer{net: newPipeNet()})
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr}}})
	o.s.dialContext = srv.net.DialContext
	o.s.Now = time.Now
	o.s.dbRetryFirst = 5 * time.Millisecond
	var ids []uint64
	for i := range 5 {
		ids = append(ids, o.queue(&state.OutMail{To: []string{fmt.Sprintf("p%d@example.test", i)}}))
	}
	fault := diskfault.BreakTest(t, o.db.Path())

	sent, err := o.s.Flush(context.Background())
	if sent == 0 || err == nil || !strings.Contains(err.Error(), "removing") {
		t.Fatalf("Flush on a database that cannot be written = %d, %v; want some sent and the failed removal", sent, err)
	}
	got := srv.got()
	if len(got) != sent || len(o.mails()) != len(ids) {
		t.Fatalf("server got %d mails, Flush said %d; outbox holds %d of %d", len(got), sent, len(o.mails()), len(ids))
	}
	if sent, err := o.s.Flush(context.Background()); sent != 0 || err == nil {
		t.Errorf("second Flush while the database cannot be written = %d, %v; want nothing sent and an error", sent, err)
	}
	if n := len(srv.got()); n != len(got) {
		t.Errorf("the second Flush sent %d mails more", n-len(got))
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.s.Run(ctx) }()
	waitFor(t, "Run to log the database error", func() bool {
		return strings.Count(o.log.String(), `level=ERROR msg="the outbox cannot be updated`) >= 2
	})
	if n := len(srv.got()); n != len(got) {
		t.Errorf("Run sent %d mails while the database cannot be written", n-len(got))
	}
	if err := fault.Mend(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the outbox to empty", func() bool { return len(o.mails()) == 0 })
	waitFor(t, "Run to log the end of the fault", func() bool { return strings.Contains(o.log.String(), "sending resumes") })
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}

	count := map[string]int{}
	for _, g := range srv.got() {
		h, _ := parseGot(t, g)
		id, _ := h.MessageID()
		count[id]++
	}
	if len(count) != len(ids) {
		t.Errorf("server got %d different mails, want %d", len(count), len(ids))
	}
	for id, n := range count {
		if n != 1 {
			t.Errorf("mail %s sent %d times", id, n)
		}
	}
}

func TestRunBadConfig(t *testing.T) {
	o := newOutbox(t, SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: "smtp.example.test:25"}}}) // TLS none
	if err := o.s.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("Run = %v, want the configuration error", err)
	}
}

func TestSMTPConfigValidate(t *testing.T) {
	ok := SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: "smtp.example.test:465"}}, From: "GMD <judge@example.test>"}
	tests := []struct {
		name    string
		change  func(*SMTPConfig)
		wantErr string // "" if valid
	}{
		{"default", func(*SMTPConfig) {}, ""},
		{"starttls with login", func(c *SMTPConfig) {
			c.TLS, c.Username, c.Password = config.TLSStartTLS, "judge", "pw"
		}, ""},
		{"none on loopback", func(c *SMTPConfig) { c.TLS, c.Addr = config.TLSNone, "127.0.0.1:25" }, ""},
		{"none on localhost", func(c *SMTPConfig) { c.TLS, c.Addr = config.TLSNone, "localhost:25" }, ""},
		{"none on ::1", func(c *SMTPConfig) { c.TLS, c.Addr = config.TLSNone, "[::1]:25" }, ""},
		{"none over the network", func(c *SMTPConfig) { c.TLS = config.TLSNone }, "loopback"},
		{"none to a LAN address", func(c *SMTPConfig) { c.TLS, c.Addr = config.TLSNone, "192.168.1.2:25" }, "loopback"},
		{"unknown TLS", func(c *SMTPConfig) { c.TLS = "ssl" }, "TLS mode"},
		{"no port", func(c *SMTPConfig) { c.Addr = "smtp.example.test" }, "host:port"},
		{"no host", func(c *SMTPConfig) { c.Addr = ":25" }, "host:port"},
		{"password without user", func(c *SMTPConfig) { c.Password = "pw" }, "password without username"},
		{"user without password", func(c *SMTPConfig) { c.Username = "judge" }, "password"},
		{"no From", func(c *SMTPConfig) { c.From = "" }, "judge address"},
		{"bad From", func(c *SMTPConfig) { c.From = "judge" }, "judge address"},
		{"non-ASCII From", func(c *SMTPConfig) { c.From = "jüdge@example.test" }, "ASCII"},
		{"local name with a space", func(c *SMTPConfig) { c.LocalName = "a b" }, "local name"},
	}
	for _, tt := range tests {
		cfg := ok
		tt.change(&cfg)
		err := cfg.Validate()
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: Validate() = %v, want error containing %q", tt.name, err, tt.wantErr)
		}
	}
}

func TestToCRLF(t *testing.T) {
	for in, want := range map[string]string{
		"":               "",
		"a\r\nb\r\n":     "a\r\nb\r\n",
		"a\nb\n":         "a\r\nb\r\n",
		"\na\r\nb\nc":    "\r\na\r\nb\r\nc",
		"a\r\n\nb\r\r\n": "a\r\n\r\nb\r\r\n",
	} {
		if got := string(toCRLF([]byte(in))); got != want {
			t.Errorf("toCRLF(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkSend sends 1000 queued mails to an in-process server over one
// session, each removed from the outbox in its own transaction (with
// bbolt's fsync) after the server's 250.
func BenchmarkSend(b *testing.B) {
	const n = 1000
	srv := startSMTP(b, "", &smtpServer{discard: true})
	db, err := state.Open(b.TempDir() + "/gmd.db")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s := NewSender(SMTPConfig{SMTP: config.SMTP{Server: config.Server{Addr: srv.addr, TLS: config.TLSNone}}, From: "judge@example.test"}, db, nil)
	body := strings.Repeat("Austria: A Vienna -> Galicia (*bounce*)\n", 40)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		err := db.Update(func(tx *state.Tx) error {
			for j := range n {
				err := tx.Enqueue(&state.OutMail{
					MessageID: fmt.Sprintf("<gmd.%d.%d@example.test>", i, j),
					To:        []string{fmt.Sprintf("p%d@example.test", j%7)},
					Subject:   "GMD:bench - S1901M Results",
					Body:      body,
					Created:   smtpT0,
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if sent, err := s.Flush(context.Background()); sent != n || err != nil {
			b.Fatalf("Flush = %d, %v", sent, err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "mails/s")
}
