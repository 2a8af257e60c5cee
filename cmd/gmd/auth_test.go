package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"

	"github.com/gmdjudge/gmd/daemon"
)

// fakeDKIM publishes a new Ed25519 DKIM key of example.org in a fake DNS
// for the test's length, and returns a function that signs a message
// with it.
func fakeDKIM(t *testing.T) func(msg string) string {
	t.Helper()
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	old := dkimLookup
	dkimLookup = func(name string) ([]string, error) {
		if name == "s1._domainkey.example.org" {
			return []string{record}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	t.Cleanup(func() { dkimLookup = old })
	return func(msg string) string {
		var b bytes.Buffer
		if err := dkim.Sign(&b, strings.NewReader(msg), &dkim.SignOptions{Domain: "example.org", Selector: "s1", Signer: key}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
}

// authConf writes a judge.conf requiring sender authentication.
func authConf(t *testing.T, require string) string {
	dir := t.TempDir()
	conf := filepath.Join(dir, "judge.conf")
	src := "judge-address judge@example.net\ndb gmd.db\npassword-cost 4\nrequire-sender-auth " + require + "\nauth-serv-id mx.example.net\n" +
		"smtp { address localhost:2525; tls none }\n"
	if err := os.WriteFile(conf, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	initDB(t, filepath.Join(dir, "gmd.db"))
	return conf
}

const authPassword = "Pw-Secret-77"

func TestProcessSenderAuth(t *testing.T) {
	sign := fakeDKIM(t)
	plain := msg("alice@example.org", "new game", "<a1@example.org>", "CREATE ?dt "+authPassword+"\n")
	ar := func(v string) string { return "Authentication-Results: " + v + "\r\n" }
	tests := []struct {
		name, require, mail string
		handled             bool
		stderr              string // for a mail refused
	}{
		{"none", "none", plain, true, ""},
		{"signed", "dkim", sign(plain), true, ""},
		{"unsigned", "dkim", plain, false, "no DKIM signature"},
		{"signed, then changed", "dkim", strings.Replace(sign(plain), "CREATE ?dt", "CREATE ?xx", 1), false, "DKIM signature of example.org fails (dkim: body hash did not verify)"},
		{"SPF pass", "dkim-or-spf", ar("mx.example.net; spf=pass smtp.mailfrom=alice@example.org") + plain, true, ""},
		{"SPF pass, dkim only", "dkim", ar("mx.example.net; spf=pass smtp.mailfrom=alice@example.org") + plain, false, "no DKIM signature"},
		{"a forged SPF pass", "dkim-or-spf", ar("mx.example.net; spf=none smtp.mailfrom=alice@example.org") + ar("mx.example.net; spf=pass smtp.mailfrom=alice@example.org") + plain,
			false, "no DKIM signature; SPF none for example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conf := authConf(t, tt.require)
			code, out, errs := gmd(t, tt.mail, "process", "-config", conf, "-now", now0)
			if code != 0 || out != "" {
				t.Fatalf("status %d, output %q, stderr %q", code, out, errs)
			}
			q := outbox(t, filepath.Join(filepath.Dir(conf), "gmd.db"))
			if tt.handled {
				if len(q) != 1 || q[0].To[0] != "alice@example.org" || !strings.Contains(q[0].Body, "Game 'dt' is not created yet.") {
					t.Errorf("outbox %+v; stderr %q", q, errs)
				}
				return
			}
			want := "gmd process: " + daemon.RefusedAuth + ": from alice@example.org: " + tt.stderr
			if len(q) != 0 || !strings.HasPrefix(errs, want) {
				t.Errorf("%d mails queued, stderr %q; want none, %q", len(q), errs, want)
			}
			if strings.Contains(errs, authPassword) {
				t.Errorf("the password is in the log: %q", errs)
			}
		})
	}
}
