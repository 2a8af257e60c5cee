package mail

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"

	"github.com/gmdjudge/gmd/config"
)

// AuthPolicy says how Authenticate checks a mail: judge.conf's
// require-sender-auth and auth-serv-id (config.SenderAuth, whose
// AuthServID says why only the receiving server's own
// Authentication-Results are read), and how to reach the DNS.
type AuthPolicy struct {
	config.SenderAuth

	// LookupTXT returns the DNS TXT records of a name, for the DKIM keys;
	// nil uses the system's resolver, with a timeout of DNSTimeout.
	LookupTXT func(name string) ([]string, error)
}

// DNSTimeout bounds one DNS lookup of a DKIM key.
const DNSTimeout = 10 * time.Second

// maxSignatures is how many DKIM signatures of one mail are checked: each
// costs a DNS lookup and a hash of the body, and a mail has one or two.
const maxSignatures = 5

// Authenticate reports whether raw, a whole message as it was received,
// shows that it comes from the domain of its From address under p, and
// says why or why not in reason, a phrase for the log: "DKIM signature
// of example.org", "no DKIM signature".
//
// The message must have exactly one From field with one address: DKIM
// signs the last From field of a header, and the judge reads the first,
// so a second one could be the forger's.
//
// A DKIM signature counts when it verifies, covers From and the whole
// body (no l= tag), and its domain (d=) is the From address's domain or
// a parent of it: a signature of example.org vouches for
// alice@example.org and for bob@mail.example.org, not for
// carol@example.com. An SPF pass (for config.SenderAuthDKIMOrSPF) counts when its
// envelope sender's domain is aligned in the same way.
//
// A DNS lookup that fails for the time being fails the signature like
// any other failure: a mail that could be held up on purpose by a
// domain whose servers never answer must not hold up the mail queued
// behind it.
func Authenticate(raw []byte, p AuthPolicy) (ok bool, reason string) {
	if !p.Require.Checks() {
		return true, "sender authentication not required"
	}
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return false, "unreadable header: " + err.Error()
	}
	if n := len(h.Values("From")); n != 1 {
		return false, fmt.Sprintf("%d From fields", n)
	}
	mh := gomail.Header{Header: message.Header{Header: h}}
	from, err := mh.AddressList("From")
	if err != nil || len(from) != 1 {
		return false, "From is not one address"
	}
	_, domain, found := strings.Cut(from[0].Address, "@")
	if !found || domain == "" {
		return false, "From has no domain"
	}
	domain = strings.ToLower(domain)

	dkimOK, dkimWhy := checkDKIM(raw, domain, p.LookupTXT)
	if dkimOK || p.Require != config.SenderAuthDKIMOrSPF {
		return dkimOK, dkimWhy
	}
	spfOK, spfWhy := checkSPF(&h, domain, p.AuthServID)
	if spfOK {
		return true, spfWhy
	}
	return false, dkimWhy + "; " + spfWhy
}

// checkDKIM verifies the DKIM signatures of raw, and looks for one
// aligned with domain, the From address's.
func checkDKIM(raw []byte, domain string, lookup func(string) ([]string, error)) (bool, string) {
	if lookup == nil {
		lookup = lookupTXT
	}
	// In a file or a pipe the line ends may be bare LFs; DKIM signs the
	// message as it went over SMTP, with CRLF.
	verifs, err := dkim.VerifyWithOptions(bytes.NewReader(toCRLF(raw)), &dkim.VerifyOptions{
		LookupTXT:        lookup,
		MaxVerifications: maxSignatures,
	})
	if err != nil && err != dkim.ErrTooManySignatures {
		return false, "DKIM: " + err.Error()
	}
	if len(verifs) == 0 {
		return false, "no DKIM signature"
	}
	var why []string
	for _, v := range verifs {
		d := strings.ToLower(strings.TrimSuffix(v.Domain, "."))
		switch {
		case v.Err != nil:
			why = append(why, fmt.Sprintf("DKIM signature of %s fails (%v)", d, v.Err))
		case !aligned(d, domain):
			why = append(why, fmt.Sprintf("DKIM signature of %s, not of %s", d, domain))
		default:
			return true, "DKIM signature of " + d
		}
	}
	return false, strings.Join(why, "; ")
}

// lookupTXT is net.LookupTXT with a timeout.
func lookupTXT(name string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), DNSTimeout)
	defer cancel()
	return net.DefaultResolver.LookupTXT(ctx, name)
}

// checkSPF reads the SPF result of the topmost Authentication-Results
// field of h whose authserv-id is servID, and checks that it passed for
// an envelope sender aligned with domain.
func checkSPF(h *textproto.Header, domain, servID string) (bool, string) {
	if servID == "" {
		return false, "no auth-serv-id to trust Authentication-Results from"
	}
	for _, v := range h.Values("Authentication-Results") {
		id, results, err := authres.Parse(stripComments(v))
		if !strings.EqualFold(id, servID) {
			continue
		}
		if err != nil {
			return false, fmt.Sprintf("Authentication-Results of %s unreadable: %v", servID, err)
		}
		for _, r := range results {
			spf, ok := r.(*authres.SPFResult)
			if !ok {
				continue
			}
			// smtp.mailfrom is an address, or a bare domain when the
			// envelope sender was empty and the HELO name was checked.
			sender := spf.From
			if i := strings.LastIndexByte(sender, '@'); i >= 0 {
				sender = sender[i+1:]
			}
			sender = strings.ToLower(strings.TrimSuffix(sender, "."))
			switch {
			case spf.Value != authres.ResultPass:
				return false, fmt.Sprintf("SPF %s for %s", spf.Value, sender)
			case !aligned(sender, domain):
				return false, fmt.Sprintf("SPF pass for %s, not for %s", sender, domain)
			}
			return true, "SPF pass for " + sender + " (" + servID + ")"
		}
		return false, "no SPF result in the Authentication-Results of " + servID
	}
	return false, "no Authentication-Results of " + servID
}

// stripComments removes the RFC 5322 comments, "(...)" with nesting and
// quoted pairs, from a header value outside quoted strings:
// Authentication-Results fields are full of them ("spf=pass (sender IP
// is 192.0.2.1) smtp.mailfrom=..."), and authres does not skip them.
func stripComments(s string) string {
	var b strings.Builder
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && (depth > 0 || quoted):
			if depth == 0 {
				b.WriteByte(c)
				if i+1 < len(s) {
					b.WriteByte(s[i+1])
				}
			}
			i++
		case depth == 0 && c == '"':
			quoted = !quoted
			b.WriteByte(c)
		case !quoted && c == '(':
			if depth == 0 {
				b.WriteByte(' ')
			}
			depth++
		case !quoted && c == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// aligned reports whether a signing or envelope domain d vouches for
// mail from domain: d is domain itself or a parent of it, and is not a
// top-level domain alone.
func aligned(d, domain string) bool {
	if !strings.Contains(d, ".") {
		return false
	}
	return d == domain || strings.HasSuffix(domain, "."+d)
}
