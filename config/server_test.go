package config

import (
	"strings"
	"testing"
)

// A server block is judged by one set of rules: what Parse says of a
// block in judge.conf is what Validate says of the same block built by
// a program (package mail checks it so), for every rule, and a block
// Parse takes passes Validate.
func TestServerRulesOnce(t *testing.T) {
	for _, tc := range []struct {
		name, block string // the block as judge.conf has it
		parsed      IMAP   // the same block as a program builds it
		err         string // "" for none
	}{
		{"good", "imap { address imap.example.org:993; username u; password p }",
			IMAP{Server: Server{Addr: "imap.example.org:993", Username: "u", Password: "p"}}, ""},
		{"starttls", "imap { address imap.example.org:143; tls starttls; username u; password p }",
			IMAP{Server: Server{Addr: "imap.example.org:143", TLS: TLSStartTLS, Username: "u", Password: "p"}}, ""},
		{"none on loopback", "imap { address 127.0.0.1:143; tls none; username u; password p }",
			IMAP{Server: Server{Addr: "127.0.0.1:143", TLS: TLSNone, Username: "u", Password: "p"}}, ""},
		{"none over the network", "imap { address 192.0.2.1:143; tls none; username u; password p }",
			IMAP{Server: Server{Addr: "192.0.2.1:143", TLS: TLSNone, Username: "u", Password: "p"}},
			"imap: tls none would send the password in clear over the network; it is allowed only for a loopback address (localhost, 127.0.0.1, ::1)"},
		{"no login", "imap { address imap.example.org:993; username u }",
			IMAP{Server: Server{Addr: "imap.example.org:993", Username: "u"}}, "imap: username and password are required"},
		{"verify without TLS", "imap { address localhost:143; tls none; insecure-skip-verify true; username u; password p }",
			IMAP{Server: Server{Addr: "localhost:143", TLS: TLSNone, InsecureSkipVerify: true, Username: "u", Password: "p"}},
			"imap: ca-cert and insecure-skip-verify need tls implicit or starttls"},
	} {
		_, perr := Parse(strings.NewReader(tc.block+"\n"), "judge.conf")
		verr := tc.parsed.Validate()
		switch {
		case tc.err == "" && (perr != nil || verr != nil):
			t.Errorf("%s: Parse %v, Validate %v; want neither", tc.name, perr, verr)
		case tc.err != "" && (perr == nil || perr.Error() != "judge.conf:1: "+tc.err):
			t.Errorf("%s: Parse %v, want %q", tc.name, perr, tc.err)
		case tc.err != "" && (verr == nil || verr.Error() != tc.err):
			t.Errorf("%s: Validate %v, want %q", tc.name, verr, tc.err)
		}
	}
	// SMTP's login may be absent, but not half there.
	for _, s := range []SMTP{
		{Server: Server{Addr: "smtp.example.org:465", Username: "u"}},
		{Server: Server{Addr: "smtp.example.org:465", Password: "p"}},
	} {
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "without") {
			t.Errorf("%+v: Validate %v", s, err)
		}
	}
	if err := (SMTP{Server: Server{Addr: "smtp.example.org:465"}}).Validate(); err != nil {
		t.Errorf("an smtp block without a login: %v", err)
	}
}

// The defaults of a block are the same whoever fills them in.
func TestServerDefaultsOnce(t *testing.T) {
	c, err := Parse(strings.NewReader("imap { address h; username u; password p }\nsmtp { address h }\n"), "judge.conf")
	if err != nil {
		t.Fatal(err)
	}
	m := IMAP{}.WithDefaults()
	if c.IMAP.TLS != m.TLS || c.IMAP.Mailbox != m.Mailbox || c.IMAP.PollInterval != m.PollInterval ||
		m.TLS != TLSImplicit || m.Mailbox != DefaultMailbox || m.PollInterval != DefaultPollInterval {
		t.Errorf("imap defaults: parsed %+v, WithDefaults %+v", c.IMAP, m)
	}
	if s := (SMTP{}).WithDefaults(); c.SMTP.TLS != s.TLS || s.TLS != TLSImplicit {
		t.Errorf("smtp defaults: parsed %q, WithDefaults %q", c.SMTP.TLS, s.TLS)
	}
	if !SameMailbox("INBOX", "inbox") || SameMailbox("Judge", "judge") || SameMailbox("INBOX", "Done") {
		t.Error("SameMailbox: INBOX is the one name compared without regard to case")
	}
}
