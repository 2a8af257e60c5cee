package daemon

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/web"
)

// The daemon serves the pages of judge.conf's http block, with its rate
// limit, and stops serving them when it stops; an address that cannot
// be had stops it at the start.
func TestDaemonWebPages(t *testing.T) {
	cfg := config.Defaults()
	cfg.DB = filepath.Join(t.TempDir(), "gmd.db")
	cfg.HTTP = &config.HTTP{Listen: "127.0.0.1:0", Rate: 1, Burst: 2}
	j, err := Open(cfg, state.Open, Pictures{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.DB.Close()
	// The log is read only while no part of the daemon runs.
	var logs bytes.Buffer
	d := &running{Judge: j, log: slog.New(slog.NewTextHandler(&logs, nil)), stats: new(web.Stats)}
	part, err := d.webPages(nil)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`msg="web pages served" addr=(\S+)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no address logged:\n%s", logs.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- part(ctx) }()
	get := func(path string) (int, string) {
		res, err := http.Get("http://" + m[1] + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, b := get("/"); code != 200 || !strings.Contains(b, "There are no games yet") {
		t.Errorf("/: %d\n%s", code, b)
	}
	if code, b := get("/healthz"); code != 200 || b != "ok\n" {
		t.Errorf("/healthz: %d %q", code, b)
	}
	if code, _ := get("/"); code != http.StatusTooManyRequests {
		t.Errorf("past the rate limit: %d", code)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the pages stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the pages did not stop")
	}
	if _, err := net.Dial("tcp", m[1]); err == nil {
		t.Error("the pages' address still answers")
	}

	// An address in use.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cfg.HTTP.Listen = ln.Addr().String()
	if _, err := d.webPages(nil); err == nil || !strings.Contains(err.Error(), "http:") {
		t.Errorf("an address in use: %v", err)
	}
	// Without the block, nothing is served.
	cfg.HTTP = nil
	logs.Reset()
	part, err = d.webPages(nil)
	if err != nil || part(context.Background()) != nil || strings.Contains(logs.String(), "web pages") {
		t.Errorf("without an http block: %v\n%s", err, logs.String())
	}
}

// The poller leaves alone the mail that arrived before the ledger's
// memory, with an hour to spare for clocks that disagree.
func TestIMAPMaxAge(t *testing.T) {
	cfg := config.Defaults()
	cfg.IMAP = &config.IMAP{Server: config.Server{Addr: "localhost:143", TLS: config.TLSNone, Username: "u", Password: "p"}}
	if got := imapConfig(cfg).MaxAge; got != 90*24*time.Hour-time.Hour {
		t.Errorf("MaxAge %v by default", got)
	}
	cfg.LedgerRetention = 10 * 24 * time.Hour
	if got := imapConfig(cfg).MaxAge; got != 10*24*time.Hour-time.Hour {
		t.Errorf("MaxAge %v with a retention of 10 days", got)
	}
	cfg.LedgerRetention = 0 // a Config not made by config.Defaults
	if got := Retention(cfg); got != config.DefaultLedgerRetention {
		t.Errorf("retention %v of a zero Config", got)
	}
}

func TestDaemonSenderAuth(t *testing.T) {
	lookup, sign := fakeDKIM(t)
	cfg := config.Defaults()
	cfg.JudgeAddr = "judge@example.net"
	cfg.DB = filepath.Join(t.TempDir(), "gmd.db")
	cfg.PasswordCost = bcrypt.MinCost
	cfg.SenderAuth = config.SenderAuth{Require: config.SenderAuthDKIM, AuthServID: "mx.example.net"}
	cfg.SMTP = &config.SMTP{Server: config.Server{Addr: "localhost:2525", TLS: config.TLSNone}}
	j, err := Open(cfg, state.Open, Pictures{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.DB.Close()
	j.LookupTXT = lookup
	var logBuf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logBuf, nil))
	d := &running{Judge: j, log: log, sender: mail.NewSender(smtpConfig(cfg), j.DB, log)}

	deliver := func(raw, key string) {
		t.Helper()
		in, err := mail.Decode(strings.NewReader(raw), 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.handle(context.Background(), &mail.Delivery{In: in, Keys: []string{key}, Raw: []byte(raw)}); err != nil {
			t.Fatal(err)
		}
	}
	seen := func(key string) bool {
		t.Helper()
		var ok bool
		if err := j.DB.View(func(tx *state.Tx) error { ok, err = tx.Seen(key); return err }); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	queued := func() int {
		t.Helper()
		n, err := queued(j.DB)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	// A forged mail: recorded under its IMAP key, not its Message-ID,
	// logged, and not answered.
	forged := msg("alice@example.org", "new game", "<a1@example.org>", "CREATE ?dt "+authPassword+"\n")
	deliver(forged, "imap/judge/INBOX/1/1")
	if n := queued(); n != 0 {
		t.Errorf("%d mails queued for a forged mail", n)
	}
	if !seen("imap/judge/INBOX/1/1") || seen("msgid:<a1@example.org>") {
		t.Errorf("ledger: IMAP key %v, Message-ID %v; want true, false", seen("imap/judge/INBOX/1/1"), seen("msgid:<a1@example.org>"))
	}
	if l := logBuf.String(); !strings.Contains(l, "level=WARN msg=\""+RefusedAuth+"\" from=alice@example.org reason=\"no DKIM signature\"") {
		t.Errorf("log:\n%s", l)
	}
	// The real mail, with the same Message-ID, is then handled.
	deliver(sign(forged), "imap/judge/INBOX/1/2")
	if n := queued(); n != 1 {
		t.Errorf("%d mails queued for the real mail, want 1", n)
	}
	if l := logBuf.String(); !strings.Contains(l, "mail handled") || strings.Contains(l, authPassword) {
		t.Errorf("log:\n%s", l)
	}
}

// authPassword is the password of the mails of TestDaemonSenderAuth,
// which the log must not show.
const authPassword = "Pw-Secret-77"

// fakeDKIM returns a DNS that publishes a new Ed25519 DKIM key of
// example.org, and a function that signs a message with it.
func fakeDKIM(t *testing.T) (lookup func(string) ([]string, error), sign func(msg string) string) {
	t.Helper()
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	lookup = func(name string) ([]string, error) {
		if name == "s1._domainkey.example.org" {
			return []string{record}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	sign = func(msg string) string {
		var b bytes.Buffer
		if err := dkim.Sign(&b, strings.NewReader(msg), &dkim.SignOptions{Domain: "example.org", Selector: "s1", Signer: key}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	return lookup, sign
}

// msg is an incoming test mail in wire format.
func msg(from, subject, id, body string) string {
	h := "From: " + from + "\nTo: judge@localhost\nSubject: " + subject + "\nMessage-ID: " + id + "\n"
	return strings.ReplaceAll(h+"\n"+body, "\n", "\r\n")
}
