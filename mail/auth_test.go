package mail

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"net"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"

	"github.com/gmdjudge/gmd/config"
)

// dnsZone is a fake DNS for DKIM keys: TXT records by name. The tests
// never touch the network.
type dnsZone map[string][]string

// lookup answers like net.LookupTXT: a name that is not there is a
// permanent failure, the name "down._domainkey.*" a temporary one.
func (z dnsZone) lookup(name string) ([]string, error) {
	if strings.HasPrefix(name, "down._domainkey.") {
		return nil, &net.DNSError{Err: "server misbehaving", Name: name, IsTemporary: true}
	}
	if txt, ok := z[name]; ok {
		return txt, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

// signer is a DKIM key of a domain, published in a dnsZone.
type signer struct {
	domain, selector string
	key              crypto.Signer
}

// newSigner makes an Ed25519 key (or RSA with rsaKey) for domain and
// publishes it in z under selector.
func newSigner(t *testing.T, z dnsZone, domain, selector string, rsaKey bool) *signer {
	t.Helper()
	s := &signer{domain: domain, selector: selector}
	var record string
	if rsaKey {
		k, err := rsa.GenerateKey(rand.Reader, 1024) // the least DKIM takes; fast
		if err != nil {
			t.Fatal(err)
		}
		der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		s.key, record = k, "v=DKIM1; k=rsa; p="+base64.StdEncoding.EncodeToString(der)
	} else {
		pub, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		s.key, record = k, "v=DKIM1; k=ed25519; p="+base64.StdEncoding.EncodeToString(pub)
	}
	z[selector+"._domainkey."+domain] = []string{record}
	return s
}

// sign returns msg with a DKIM-Signature of s on top, in
// wire form (CRLF).
func (s *signer) sign(t *testing.T, msg string) string {
	t.Helper()
	var b bytes.Buffer
	err := dkim.Sign(&b, bytes.NewReader(toCRLF([]byte(msg))), &dkim.SignOptions{
		Domain: s.domain, Selector: s.selector, Signer: s.key,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed,
		BodyCanonicalization:   dkim.CanonicalizationRelaxed,
		HeaderKeys:             []string{"From", "To", "Subject", "Date", "Message-ID"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

const authMsg = `From: Alice <alice@example.org>
To: judge@example.net
Subject: orders
Date: Mon, 05 Jan 2026 12:00:00 +0000
Message-ID: <a1@example.org>

SIGNON Fdt secret
A Par - Bur
`

func TestAuthenticateDKIM(t *testing.T) {
	z := dnsZone{}
	org := newSigner(t, z, "example.org", "s1", false)
	orgRSA := newSigner(t, z, "example.org", "rsa", true)
	evil := newSigner(t, z, "evil.example", "s1", false)
	tld := newSigner(t, z, "org", "s1", false)
	down := newSigner(t, z, "example.org", "down", false) // its DNS never answers
	gone := &signer{domain: "example.org", selector: "gone", key: org.key}
	p := AuthPolicy{SenderAuth: config.SenderAuth{Require: config.SenderAuthDKIM}, LookupTXT: z.lookup}

	withFrom := func(from string) string { return strings.Replace(authMsg, "Alice <alice@example.org>", from, 1) }
	signed := org.sign(t, authMsg)
	tests := []struct {
		name   string
		raw    string
		ok     bool
		reason string
	}{
		{"signed by the From domain", signed, true, "DKIM signature of example.org"},
		{"RSA", orgRSA.sign(t, authMsg), true, "DKIM signature of example.org"},
		{"bare LF line ends", strings.ReplaceAll(signed, "\r\n", "\n"), true, "DKIM signature of example.org"},
		{"a subdomain's From", org.sign(t, withFrom("bob@mail.example.org")), true, "DKIM signature of example.org"},
		{"another domain's From", org.sign(t, withFrom("carol@example.com")), false, "DKIM signature of example.org, not of example.com"},
		{"a look-alike domain", org.sign(t, withFrom("dave@badexample.org")), false, "DKIM signature of example.org, not of badexample.org"},
		{"a top-level domain's signature", tld.sign(t, authMsg), false, "DKIM signature of org, not of example.org"},
		{"the forger's own signature", evil.sign(t, authMsg), false, "DKIM signature of evil.example, not of example.org"},
		{"no signature", crlf(authMsg), false, "no DKIM signature"},
		{"body changed", strings.Replace(signed, "A Par - Bur", "A Par - Pic", 1), false, "DKIM signature of example.org fails (dkim: body hash did not verify)"},
		{"orders added", signed + "F Bre - Mao\r\n", false, "DKIM signature of example.org fails (dkim: body hash did not verify)"},
		{"From changed", strings.Replace(signed, "alice@example.org", "alicia@example.org", 1), false, "DKIM signature of example.org fails (dkim: signature did not verify"},
		// DKIM signs the last From, the judge reads the first: a mail the
		// forger had signed for their own account at the same provider,
		// with the victim's From put on top, would pass.
		{"a second From on top", "From: victim@example.org\r\n" + org.sign(t, withFrom("eve@example.org")), false, "2 From fields"},
		{"a second From below", strings.Replace(signed, "To: ", "From: victim@example.org\r\nTo: ", 1), false, "2 From fields"},
		{"two addresses", org.sign(t, withFrom("alice@example.org, eve@evil.example")), false, "From is not one address"},
		{"no From", org.sign(t, strings.Replace(authMsg, "From: Alice <alice@example.org>\n", "", 1)), false, "0 From fields"},
		{"key not in DNS", gone.sign(t, authMsg), false, "DKIM signature of example.org fails (dkim: no key for signature"},
		{"DNS down", down.sign(t, authMsg), false, "DKIM signature of example.org fails (dkim: key unavailable"},
		{"header only", signed[:strings.Index(signed, "\r\n\r\n")+4], false, "DKIM signature of example.org fails (dkim: body hash did not verify)"},
		{"garbage", "\x00\x01 not a mail", false, "unreadable header"},
		// One good signature is enough, whatever the others.
		{"two signatures", evil.sign(t, signed), true, "DKIM signature of example.org"},
		{"a broken one too", down.sign(t, signed), true, "DKIM signature of example.org"},
	}
	for _, tt := range tests {
		ok, reason := Authenticate([]byte(tt.raw), p)
		if ok != tt.ok || !strings.HasPrefix(reason, tt.reason) {
			t.Errorf("%s: %v, %q; want %v, %q", tt.name, ok, reason, tt.ok, tt.reason)
		}
	}

	// Without a requirement, everything passes; with one, a message that
	// passes is the same message Decode reads.
	for _, req := range []config.SenderAuthMode{"", config.SenderAuthNone} {
		if ok, _ := Authenticate([]byte("garbage"), AuthPolicy{SenderAuth: config.SenderAuth{Require: req}}); !ok {
			t.Errorf("require %q refuses", req)
		}
	}
	in, err := Decode(strings.NewReader(signed), 0)
	if err != nil || in.From != "alice@example.org" || in.Body != "SIGNON Fdt secret\nA Par - Bur\n" {
		t.Errorf("the signed mail decodes as %+v, %v", in, err)
	}
}

func TestAuthenticateSPF(t *testing.T) {
	z := dnsZone{}
	evil := newSigner(t, z, "evil.example", "s1", false)
	p := AuthPolicy{SenderAuth: config.SenderAuth{Require: config.SenderAuthDKIMOrSPF, AuthServID: "mx.example.net"}, LookupTXT: z.lookup}
	ar := func(v string) string { return "Authentication-Results: " + v + "\r\n" }
	received := "Received: from mail.example.org (mail.example.org [192.0.2.1])\r\n\tby mx.example.net with ESMTPS id 4F2A1; Mon, 05 Jan 2026 12:00:01 +0000\r\n"
	msg := crlf(authMsg)
	tests := []struct {
		name   string
		raw    string
		ok     bool
		reason string
	}{
		{"SPF pass", ar("mx.example.net; spf=pass smtp.mailfrom=alice@example.org") + received + msg,
			true, "SPF pass for example.org (mx.example.net)"},
		{"with comments, folded, and other results", ar("mx.example.net (Postfix);\r\n\tdkim=none (no signatures; found);\r\n\tspf=pass (mx.example.net: domain of alice@example.org designates 192.0.2.1 as permitted sender) smtp.mailfrom=alice@example.org smtp.helo=mail.example.org") + msg,
			true, "SPF pass for example.org"},
		{"a parent domain", ar("mx.example.net; spf=pass smtp.mailfrom=bounces@example.org") + strings.Replace(msg, "alice@example.org", "alice@mail.example.org", 1),
			true, "SPF pass for example.org"},
		{"the authserv-id in another case", ar("MX.Example.NET; spf=pass smtp.mailfrom=alice@example.org") + msg, true, "SPF pass"},
		{"SPF fail", ar("mx.example.net; spf=fail smtp.mailfrom=alice@example.org") + msg,
			false, "no DKIM signature; SPF fail for example.org"},
		{"SPF softfail", ar("mx.example.net; spf=softfail smtp.mailfrom=alice@example.org") + msg, false, "no DKIM signature; SPF softfail"},
		{"pass for another domain", ar("mx.example.net; spf=pass smtp.mailfrom=eve@evil.example") + msg,
			false, "no DKIM signature; SPF pass for evil.example, not for example.org"},
		{"no SPF result", ar("mx.example.net; dkim=none") + msg, false, "no DKIM signature; no SPF result in the Authentication-Results of mx.example.net"},
		{"another server's results", ar("mx.elsewhere.example; spf=pass smtp.mailfrom=alice@example.org") + msg,
			false, "no DKIM signature; no Authentication-Results of mx.example.net"},
		// The sender wrote a pass of their own, with our authserv-id,
		// below the server's: only the topmost counts.
		{"a forged pass below", ar("mx.example.net; spf=fail smtp.mailfrom=alice@example.org") + received + ar("mx.example.net; spf=pass smtp.mailfrom=alice@example.org") + msg,
			false, "no DKIM signature; SPF fail"},
		{"a forged pass above another server's", ar("mx.elsewhere.example; spf=none") + ar("mx.example.net; spf=pass smtp.mailfrom=alice@example.org") + msg,
			true, "SPF pass"},
		// DKIM still counts, and comes first.
		{"DKIM without SPF", newSigner(t, z, "example.org", "s2", false).sign(t, authMsg), true, "DKIM signature of example.org"},
		{"the forger's DKIM and a failed SPF", ar("mx.example.net; spf=fail smtp.mailfrom=alice@example.org") + evil.sign(t, authMsg),
			false, "DKIM signature of evil.example, not of example.org; SPF fail"},
	}
	for _, tt := range tests {
		ok, reason := Authenticate([]byte(tt.raw), p)
		if ok != tt.ok || !strings.HasPrefix(reason, tt.reason) {
			t.Errorf("%s: %v, %q; want %v, %q", tt.name, ok, reason, tt.ok, tt.reason)
		}
	}
	// "dkim" alone does not take SPF, and SPF needs an authserv-id.
	pass := []byte(ar("mx.example.net; spf=pass smtp.mailfrom=alice@example.org") + msg)
	if ok, reason := Authenticate(pass, AuthPolicy{SenderAuth: config.SenderAuth{Require: config.SenderAuthDKIM, AuthServID: "mx.example.net"}, LookupTXT: z.lookup}); ok {
		t.Errorf("require dkim takes an SPF pass: %s", reason)
	}
	if ok, reason := Authenticate(pass, AuthPolicy{SenderAuth: config.SenderAuth{Require: config.SenderAuthDKIMOrSPF}, LookupTXT: z.lookup}); ok || !strings.Contains(reason, "no auth-serv-id") {
		t.Errorf("SPF without an authserv-id: %v, %s", ok, reason)
	}
}

func TestStripComments(t *testing.T) {
	for in, want := range map[string]string{
		"a (b) c":                           "a   c",
		"a (b (nested) c) d":                "a   d",
		`a (b \) still) d`:                  "a   d",
		`a "(not a comment)" b`:             `a "(not a comment)" b`,
		`a "q\"(x)" (c) b`:                  `a "q\"(x)"   b`,
		"spf=pass (x; y) smtp.mailfrom=a@b": "spf=pass   smtp.mailfrom=a@b",
		"unclosed (comment":                 "unclosed  ",
	} {
		if got := stripComments(in); got != want {
			t.Errorf("stripComments(%q) = %q, want %q", in, got, want)
		}
	}
}
