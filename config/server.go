package config

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// The rules of a mail server block, declared here once: judge.conf's
// reader applies them to the blocks it reads, and package mail's poller
// and sender apply them again to whatever they are given, so that no
// caller can reach a server in a way judge.conf would refuse.

// WithDefaults returns m with the defaults of an imap block filled in:
// TLSImplicit, DefaultMailbox and DefaultPollInterval.
func (m IMAP) WithDefaults() IMAP {
	if m.TLS == "" {
		m.TLS = TLSImplicit
	}
	if m.Mailbox == "" {
		m.Mailbox = DefaultMailbox
	}
	if m.PollInterval <= 0 {
		m.PollInterval = DefaultPollInterval
	}
	return m
}

// WithDefaults returns s with the default of an smtp block filled in:
// TLSImplicit, which RFC 8314 prefers for submission.
func (s SMTP) WithDefaults() SMTP {
	if s.TLS == "" {
		s.TLS = TLSImplicit
	}
	return s
}

// Validate reports what is wrong with m, its defaults applied: the
// server's address, TLS mode and login (see Server.problems), and a
// processed mailbox that is the mailbox read.
func (m IMAP) Validate() error {
	m = m.WithDefaults()
	errs := m.problems("imap", true)
	if m.ProcessedMailbox != "" && SameMailbox(m.ProcessedMailbox, m.Mailbox) {
		errs = append(errs, fmt.Errorf("imap: the processed mailbox %q is the mailbox read", m.ProcessedMailbox))
	}
	return errors.Join(errs...)
}

// Validate reports what is wrong with s, its default applied (see
// Server.problems).
func (s SMTP) Validate() error {
	s = s.WithDefaults()
	return errors.Join(s.problems("smtp", false)...)
}

// SameMailbox compares mailbox names; INBOX is the one name that IMAP
// compares without regard to case (RFC 3501 §5.1).
func SameMailbox(a, b string) bool {
	if strings.EqualFold(a, "INBOX") {
		return strings.EqualFold(b, "INBOX")
	}
	return a == b
}

// problems lists what is wrong with s as the server of the block name
// ("imap", "smtp"): an address that is not host:port, an unknown TLS
// mode, a login that is half there (or missing where needLogin), and a
// password that would cross a network in clear. Each says what to do
// in words for the admin who wrote judge.conf.
func (s *Server) problems(name string, needLogin bool) []error {
	var errs []error
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil || host == "" || port == "" {
		errs = append(errs, fmt.Errorf("%s: address %q is not host:port", name, s.Addr))
	}
	switch s.TLS {
	case TLSImplicit, TLSStartTLS, TLSNone:
	default:
		errs = append(errs, fmt.Errorf("%s: unknown TLS mode %q (want %q, %q or %q)", name, s.TLS, TLSImplicit, TLSStartTLS, TLSNone))
	}
	switch {
	case needLogin && (s.Username == "" || s.Password == ""):
		errs = append(errs, fmt.Errorf("%s: username and password are required", name))
	case s.Username == "" && s.Password != "":
		errs = append(errs, fmt.Errorf("%s: password without username", name))
	case s.Username != "" && s.Password == "":
		errs = append(errs, fmt.Errorf("%s: username without password", name))
	}
	if s.TLS == TLSNone {
		// The password and every player's mail would cross the network
		// readable by anyone on the way.
		if err == nil && !IsLoopbackHost(host) {
			errs = append(errs, fmt.Errorf("%s: tls none would send the password in clear over the network; "+
				"it is allowed only for a loopback address (localhost, 127.0.0.1, ::1)", name))
		}
		if s.InsecureSkipVerify || s.CACert != "" {
			errs = append(errs, fmt.Errorf("%s: ca-cert and insecure-skip-verify need tls implicit or starttls", name))
		}
	}
	return errs
}
