package config

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDefaults(t *testing.T) {
	c := Defaults()
	if c.JudgeName != "GMD" || c.JudgeAddr != "judge@localhost" {
		t.Errorf("judge %q <%s>, want GMD <judge@localhost>", c.JudgeName, c.JudgeAddr)
	}
	if c.PasswordCost != 10 {
		t.Errorf("password cost %d, want bcrypt's default 10", c.PasswordCost)
	}
	if c.LedgerRetention != 90*24*time.Hour {
		t.Errorf("ledger retention %v, want 90 days", c.LedgerRetention)
	}
	if c.Limits != (Limits{MaxMailSize: 1 << 20, MaxLineLength: 1000, MaxObservers: 20, MaxGamesPerMaster: 10, MaxReplySize: 64 << 10, MaxOutputCommands: 4,
		MaxMailsPerMail: 50, MaxPressPerMail: 64 << 10, MaxPressPerPhase: 256 << 10, MaxReplayBytes: 2 << 20}) {
		t.Errorf("limits %+v", c.Limits)
	}
	if c.IMAP != nil || c.SMTP != nil || c.DB != "" || c.LogLevel != slog.LevelInfo || c.SenderAuth != (SenderAuth{Require: SenderAuthNone}) {
		t.Errorf("defaults %+v", c)
	}
	// An empty file is the defaults.
	e, err := Parse(strings.NewReader("# nothing\n"), "judge.conf")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e, c) {
		t.Errorf("empty file: %+v, want %+v", e, c)
	}
}

func TestParseFull(t *testing.T) {
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "templates")
	if err := os.Mkdir(tmpl, 0o755); err != nil {
		t.Fatal(err)
	}
	ca := writeCert(t, dir)
	src := `# a whole config
judge-name USDP
judge-address Judge@Example.ORG
db gmd.db
templates templates
admin a@x.org B@Y.org
admin c@z.org
log-level debug
password-cost 12
ledger-retention 30d
require-sender-auth DKIM-or-SPF
auth-serv-id mx.example.org
limits {
	max-mail-size 512K; max-line-length 200; max-observers 5; max-games-per-master 3
	max-reply-size 8K; max-output-commands 2; max-mails-per-mail 12
	max-press-per-mail 2K; max-press-per-phase 1M
	max-replay-size 512K
}
imap {
	address imap.example.org
	tls starttls
	username judge
	password "pa ss#word"
	mailbox Judge
	processed-mailbox Done
	poll-interval 30s
	ca-cert ca.pem
}
smtp {
	address smtp.example.org:2525
	username judge
	password 'x'
	insecure-skip-verify yes
}
`
	c, err := Parse(strings.NewReader(src), filepath.Join(dir, "judge.conf"))
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", what, got, want)
		}
	}
	check("JudgeName", c.JudgeName, "USDP")
	check("JudgeAddr", c.JudgeAddr, "Judge@example.org") // the local part keeps its case
	check("DB", c.DB, filepath.Join(dir, "gmd.db"))
	check("Templates", c.Templates, tmpl)
	check("Admins", c.Admins, []string{"a@x.org", "B@y.org", "c@z.org"})
	check("LogLevel", c.LogLevel, slog.LevelDebug)
	check("PasswordCost", c.PasswordCost, 12)
	check("LedgerRetention", c.LedgerRetention, 30*24*time.Hour)
	check("Limits", c.Limits, Limits{MaxMailSize: 512 << 10, MaxLineLength: 200, MaxObservers: 5, MaxGamesPerMaster: 3,
		MaxReplySize: 8 << 10, MaxOutputCommands: 2, MaxMailsPerMail: 12, MaxPressPerMail: 2 << 10, MaxPressPerPhase: 1 << 20, MaxReplayBytes: 512 << 10})
	check("SenderAuth", c.SenderAuth, SenderAuth{Require: SenderAuthDKIMOrSPF, AuthServID: "mx.example.org"})
	if c.IMAP == nil || c.SMTP == nil {
		t.Fatalf("imap %v smtp %v", c.IMAP, c.SMTP)
	}
	check("IMAP.Addr", c.IMAP.Addr, "imap.example.org:143") // starttls: the plain port
	check("IMAP.TLS", c.IMAP.TLS, TLSStartTLS)
	check("IMAP.Username", c.IMAP.Username, "judge")
	check("IMAP.Password", c.IMAP.Password, "pa ss#word")
	check("IMAP.Mailbox", c.IMAP.Mailbox, "Judge")
	check("IMAP.ProcessedMailbox", c.IMAP.ProcessedMailbox, "Done")
	check("IMAP.PollInterval", c.IMAP.PollInterval, 30*time.Second)
	check("IMAP.CACert", c.IMAP.CACert, ca)
	if c.IMAP.RootCAs == nil || c.IMAP.TLSConfig().RootCAs != c.IMAP.RootCAs {
		t.Error("IMAP.RootCAs not loaded or not used")
	}
	check("IMAP.TLSConfig.ServerName", c.IMAP.TLSConfig().ServerName, "imap.example.org")
	check("SMTP.Addr", c.SMTP.Addr, "smtp.example.org:2525")
	check("SMTP.TLS", c.SMTP.TLS, TLSImplicit) // the default
	check("SMTP.Password", c.SMTP.Password, "x")
	check("SMTP.InsecureSkipVerify", c.SMTP.TLSConfig().InsecureSkipVerify, true)
	check("SMTP.RootCAs", c.SMTP.RootCAs, (*x509.CertPool)(nil))
}

func TestParseServerDefaults(t *testing.T) {
	c, err := Parse(strings.NewReader("imap { address h; username u; password p }\nsmtp { address [::1]; tls none }\n"), "judge.conf")
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Addr != "h:993" || c.IMAP.TLS != TLSImplicit || c.IMAP.Mailbox != "INBOX" || c.IMAP.PollInterval != time.Minute || c.IMAP.ProcessedMailbox != "" {
		t.Errorf("imap %+v", c.IMAP)
	}
	if c.SMTP.Addr != "[::1]:587" || c.SMTP.Username != "" {
		t.Errorf("smtp %+v", c.SMTP)
	}
}

// writeCert writes a self-signed certificate to dir/ca.pem.
func writeCert(t *testing.T, dir string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "test CA"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IsCA:         true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParseErrors(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "notadir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	const login = "username u; password p; "
	tests := []struct {
		name, in, want string
	}{
		// Unknown directives, with and without a suggestion.
		{"unknown flat imap", "judge-name X\n\n\n\n\n\nimap-adress h:1\n", `judge.conf:7: unknown directive "imap-adress" (did you mean imap?)`},
		{"typo", "judge-adress j@x\n", `judge.conf:1: unknown directive "judge-adress" (did you mean judge-address?)`},
		{"unknown", "frobnicate 1\n", `judge.conf:1: unknown directive "frobnicate"`},
		{"unknown in block", "imap {\n  adress h:1\n}\n", `judge.conf:2: imap: unknown directive "adress" (did you mean address?)`},
		{"unknown in limits", "limits {\n max-size 1M\n}\n", `judge.conf:2: limits: unknown directive "max-size"`},
		// Shape.
		{"duplicate", "judge-name A\njudge-name B\n", "judge.conf:2: judge-name: given twice (first on line 1)"},
		{"duplicate block", "limits {}\nlimits {}\n", "judge.conf:2: limits: given twice (first on line 1)"},
		{"duplicate in block", "imap { address h; address g }\n", "judge.conf:1: imap: address: given twice (first on line 1)"},
		{"too many params", "judge-name A B\n", "judge.conf:1: judge-name: needs 1 parameter, got 2"},
		{"no params", "db\n", "judge.conf:1: db: needs 1 parameter, got 0"},
		{"no admin", "admin\n", "judge.conf:1: admin: needs at least one mail address"},
		{"block expected", "imap h:993\n", "judge.conf:1: imap: needs a block: imap { ... }"},
		{"block params", "imap h {\n}\n", "judge.conf:1: imap: takes no parameters, only a block"},
		{"no block expected", "db x {\n}\n", "judge.conf:1: db: takes no block"},
		{"syntax", "judge-name \"GMD\n", `judge.conf:1: unterminated quoted string (a " is missing)`},
		// Values.
		{"judge address", "\n\njudge-address x\n", `judge.conf:3: judge-address: "x" is not a mail address`},
		{"judge address with name", "judge-address \"J <j@x>\"\n", `judge.conf:1: judge-address: "J <j@x>" is not a mail address`},
		{"admin address", "require-sender-auth dkim\nadmin a@x b\n", `judge.conf:2: admin: "b" is not a mail address`},
		{"judge name", "judge-name \"My Judge\"\n", `judge.conf:1: judge-name: "My Judge" must be 1 to 20 letters, digits, '-' or '_' (it starts every subject, as in "GMD:game - S1901M Results")`},
		{"judge name colon", "judge-name A:B\n", `judge.conf:1: judge-name: "A:B" must be 1 to 20 letters, digits, '-' or '_' (it starts every subject, as in "GMD:game - S1901M Results")`},
		{"empty db", "db \"\"\n", "judge.conf:1: db: empty path"},
		{"templates missing", "templates " + filepath.Join(dir, "nope") + "\n", "judge.conf:1: templates: stat " + filepath.Join(dir, "nope") + ": no such file or directory"},
		{"templates not a dir", "templates " + file + "\n", "judge.conf:1: templates: " + file + " is not a directory"},
		{"admin without sender auth", "judge-name A\nadmin a@x.org\nadmin b@x.org\n", "judge.conf:2: admin: needs require-sender-auth dkim or dkim-or-spf: an admin is known by the From address alone, which anyone can write"},
		{"password cost low", "password-cost 3\n", `judge.conf:1: password-cost: "3" must be a whole number from 4 to 31 (bcrypt's cost; each step doubles the time a new password takes)`},
		{"password cost word", "password-cost high\n", `judge.conf:1: password-cost: "high" must be a whole number from 4 to 31 (bcrypt's cost; each step doubles the time a new password takes)`},
		{"ledger retention short", "ledger-retention 3d\n", `judge.conf:1: ledger-retention: "3d" is not a length of at least 7 days (like 90d, 90 days or 13 weeks)`},
		{"ledger retention hours", "ledger-retention 100h\n", `judge.conf:1: ledger-retention: "100h" is not a length of at least 7 days (like 90d, 90 days or 13 weeks)`},
		{"ledger retention word", "ledger-retention forever\n", `judge.conf:1: ledger-retention: "forever" is not a length of at least 7 days (like 90d, 90 days or 13 weeks)`},
		{"ledger retention bare", "ledger-retention 2160\n", `judge.conf:1: ledger-retention: "2160" needs a unit (like 90d, 30s or 5 minutes)`},
		{"ledger retention empty", "ledger-retention\n", `judge.conf:1: ledger-retention: needs a length of time (write 72h, 3 days, 2 days 4 hours or 90 minutes)`},
		{"ledger retention days", "ledger-retention 1.5d\n", `judge.conf:1: ledger-retention: "1.5d" is not a length of at least 7 days (like 90d, 90 days or 13 weeks)`},
		{"log level", "log-level loud\n", `judge.conf:1: log-level: "loud" is not one of debug, info, warn, error`},
		{"size", "limits {\n max-mail-size 1X\n}\n", `judge.conf:2: limits: max-mail-size: "1X" is not a size of at least 1K (like 1M, 512K or 1048576)`},
		{"size too small", "limits { max-mail-size 100 }\n", `judge.conf:1: limits: max-mail-size: "100" is not a size of at least 1K (like 1M, 512K or 1048576)`},
		{"size overflow", "limits { max-mail-size 99999999999999999G }\n", `judge.conf:1: limits: max-mail-size: "99999999999999999G" is not a size of at least 1K (like 1M, 512K or 1048576)`},
		{"line length", "limits { max-line-length ten }\n", `judge.conf:1: limits: max-line-length: "ten" is not a number of bytes of at least 80`},
		{"observers", "limits { max-observers 0 }\n", `judge.conf:1: limits: max-observers: "0" is not a whole number from 1 to 1000000`},
		{"games per master", "limits { max-games-per-master many }\n", `judge.conf:1: limits: max-games-per-master: "many" is not a whole number from 1 to 1000000`},
		{"reply size", "limits { max-reply-size 1K }\n", `judge.conf:1: limits: max-reply-size: "1K" is not a size of at least 4K (like 64K, 1M or 65536)`},
		{"output commands", "limits { max-output-commands 0 }\n", `judge.conf:1: limits: max-output-commands: "0" is not a whole number from 1 to 1000000`},
		{"mails per mail", "limits { max-mails-per-mail 9 }\n", `judge.conf:1: limits: max-mails-per-mail: "9" is not a whole number from 10 to 1000000`},
		{"press per mail", "limits { max-press-per-mail lots }\n", `judge.conf:1: limits: max-press-per-mail: "lots" is not a size of at least 1K (like 64K, 1M or 65536)`},
		{"press per phase", "limits { max-press-per-phase 100 }\n", `judge.conf:1: limits: max-press-per-phase: "100" is not a size of at least 1K (like 64K, 1M or 65536)`},
		{"replay size", "limits { max-replay-size 10K }\n", `judge.conf:1: limits: max-replay-size: "10K" is not a size of at least 64K (like 64K, 1M or 65536)`},
		{"tls mode", "smtp { address h; tls ssl }\n", `judge.conf:1: smtp: tls: "ssl" is not one of implicit, starttls, none`},
		{"poll interval", "imap { address h; " + login + "poll-interval 10 }\n", `judge.conf:1: imap: poll-interval: "10" needs a unit (like 90d, 30s or 5 minutes)`},
		{"poll interval short", "imap { address h; " + login + "poll-interval 10ms }\n", `judge.conf:1: imap: poll-interval: "10ms" is not a length of at least 1s (like 30s, 5m or 2 minutes)`},
		{"bool", "smtp { address h; insecure-skip-verify maybe }\n", `judge.conf:1: smtp: insecure-skip-verify: "maybe" is not true or false`},
		{"sender auth", "require-sender-auth spf\n", `judge.conf:1: require-sender-auth: "spf" is not one of none, dkim, dkim-or-spf`},
		{"sender auth without id", "\nrequire-sender-auth dkim-or-spf\n", `judge.conf:2: require-sender-auth: dkim-or-spf needs auth-serv-id: the name your mail server writes at the start of its Authentication-Results`},
		{"auth-serv-id", "require-sender-auth dkim-or-spf\nauth-serv-id \"mx; spf=pass\"\n", `judge.conf:2: auth-serv-id: "mx; spf=pass" is not an authserv-id: the host name that starts your mail server's Authentication-Results, like mx.example.org`},
		{"ca-cert missing", "smtp { address h; ca-cert " + filepath.Join(dir, "nope.pem") + " }\n", "judge.conf:1: smtp: ca-cert: open " + filepath.Join(dir, "nope.pem") + ": no such file or directory"},
		{"ca-cert not pem", "smtp { address h; ca-cert " + notPEM + " }\n", "judge.conf:1: smtp: ca-cert: " + notPEM + " holds no PEM certificate"},
		{"empty mailbox", "imap { address h; " + login + "mailbox '' }\n", "judge.conf:1: imap: mailbox: empty name"},
		// Whole blocks.
		{"no address", "imap {\n " + login + "\n}\n", "judge.conf:1: imap: address is required (host:port)"},
		{"bad port", "smtp { address h:smtp }\n", `judge.conf:1: smtp: address "h:smtp": bad port "smtp"`},
		{"port range", "smtp { address h:70000 }\n", `judge.conf:1: smtp: address "h:70000": bad port "70000"`},
		{"no host", "smtp { address :25 }\n", `judge.conf:1: smtp: address ":25": no host`},
		{"ipv6 without brackets", "smtp { address ::1 }\n", `judge.conf:1: smtp: address "::1": write an IPv6 address with its port as [host]:port`},
		{"imap login", "imap { address h; username u }\n", "judge.conf:1: imap: username and password are required"},
		{"smtp password alone", "smtp { address h; password p }\n", "judge.conf:1: smtp: password without username"},
		{"smtp username alone", "smtp { address h; username u }\n", "judge.conf:1: smtp: username without password"},
		{"clear text", "imap { address mail.example.org:143; tls none; " + login + "}\n", "judge.conf:1: imap: tls none would send the password in clear over the network; it is allowed only for a loopback address (localhost, 127.0.0.1, ::1)"},
		{"verify without tls", "smtp { address localhost:25; tls none; insecure-skip-verify true }\n", "judge.conf:1: smtp: ca-cert and insecure-skip-verify need tls implicit or starttls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(strings.NewReader(tt.in), "judge.conf")
			if err == nil {
				t.Fatalf("no error; config %+v", c)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %T is not an *Error", err)
			}
		})
	}
}

func TestParseReportsEveryError(t *testing.T) {
	_, err := Parse(strings.NewReader("judge-name\nlog-level x\nimap {\n tls bad\n}\nok-not\n"), "j.conf")
	if err == nil {
		t.Fatal("no error")
	}
	want := `j.conf:1: judge-name: needs 1 parameter, got 0
j.conf:2: log-level: "x" is not one of debug, info, warn, error
j.conf:4: imap: tls: "bad" is not one of implicit, starttls, none
j.conf:6: unknown directive "ok-not"`
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
}

// ledger-retention takes a length as people write it (length.Parse),
// from 7 days up, and so does poll-interval, from a second up.
func TestLedgerRetention(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"90 days":        90 * 24 * time.Hour,
		"13 weeks":       91 * 24 * time.Hour,
		"1 week":         7 * 24 * time.Hour,
		"2 weeks 3 days": 17 * 24 * time.Hour,
		"\"36 days\"":    36 * 24 * time.Hour,
		"7d":             7 * 24 * time.Hour,
		"90d":            90 * 24 * time.Hour,
		"365d":           365 * 24 * time.Hour,
		"168h":           7 * 24 * time.Hour,
		"2160h":          90 * 24 * time.Hour,
	} {
		c, err := Parse(strings.NewReader("ledger-retention "+in+"\n"), "judge.conf")
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if c.LedgerRetention != want {
			t.Errorf("%s: %v, want %v", in, c.LedgerRetention, want)
		}
	}
	for in, want := range map[string]time.Duration{
		"30s": 30 * time.Second, "2 minutes": 2 * time.Minute, "1 minute 30 seconds": 90 * time.Second, "1h": time.Hour,
	} {
		c, err := Parse(strings.NewReader("imap { address h; username u; password p; poll-interval "+in+" }\n"), "judge.conf")
		if err != nil {
			t.Errorf("poll-interval %s: %v", in, err)
			continue
		}
		if c.IMAP.PollInterval != want {
			t.Errorf("poll-interval %s: %v, want %v", in, c.IMAP.PollInterval, want)
		}
	}
}

func TestLoopbackPlain(t *testing.T) {
	for _, host := range []string{"localhost:1143", "127.0.0.1:1143", "[::1]:1143", "LOCALHOST:25"} {
		c, err := Parse(strings.NewReader("imap { address "+host+"; tls none; username u; password p }\n"), "j.conf")
		if err != nil {
			t.Errorf("%s: %v", host, err)
			continue
		}
		if c.IMAP.TLS != TLSNone {
			t.Errorf("%s: tls %s", host, c.IMAP.TLS)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "judge.conf")
	if err := os.WriteFile(path, []byte("db data/gmd.db\njudge-address j@x.org\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "data", "gmd.db"); c.DB != want {
		t.Errorf("DB %q, want %q (relative to the config file)", c.DB, want)
	}
	if _, err := Load(filepath.Join(dir, "missing.conf")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"imap", "smtp", "judge-name", "judge-address", "db", "admin", "log-level"}
	for name, want := range map[string]string{
		"imap-adress":  "imap",
		"smtp.address": "smtp",
		"imap":         "imap",
		"imapp":        "imap",
		"admins":       "admin",
		"loglevel":     "log-level",
		"judgename":    "judge-name",
		"dbx":          "db",
		"xyz":          "",
		"database":     "",
		"templates":    "",
	} {
		if got := suggest(name, known); got != want {
			t.Errorf("suggest(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestExample checks that judge.conf.example is a valid config and that
// it documents every directive there is.
func TestExample(t *testing.T) {
	const path = "../judge.conf.example"
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP == nil || c.SMTP == nil || c.DB == "" {
		t.Errorf("the example leaves out settings: %+v", c)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Directives, commented out or not, start their line.
	written := map[string]bool{}
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if f := strings.Fields(strings.TrimPrefix(l, "#")); len(f) > 0 && !strings.HasPrefix(l, "# ") {
			written[f[0]] = true
		}
	}
	var all []string
	for k := range topLevel {
		all = append(all, k)
	}
	for k := range limitsSpecs {
		all = append(all, k)
	}
	for k := range imapSpecs {
		all = append(all, k)
	}
	for k := range httpSpecs {
		all = append(all, k)
	}
	for _, k := range all {
		if !written[k] {
			t.Errorf("judge.conf.example does not show %s", k)
		}
	}
}

// TestIsLoopbackHost is the one loopback rule of tls none, which judge.conf
// and package mail both apply; judge.conf once refused "localhost." that
// mail took.
func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LocalHost": true, "localhost.": true,
		"127.0.0.1": true, "127.9.9.9": true, "::1": true,
		"example.org": false, "localhost.example.org": false, "10.0.0.1": false,
		"::": false, "": false, "0.0.0.0": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestSenderAuthChecks: only dkim and dkim-or-spf check anything.
func TestSenderAuthChecks(t *testing.T) {
	for m, want := range map[SenderAuthMode]bool{"": false, SenderAuthNone: false, SenderAuthDKIM: true, SenderAuthDKIMOrSPF: true} {
		if m.Checks() != want {
			t.Errorf("%q.Checks() = %v, want %v", m, !want, want)
		}
	}
}

// TestLimitTableIsTheLimits checks that LimitTable, the limits block's
// directives and the Limits type name the same bounds: every directive
// has a row with a default and a reason, every row a directive, and every
// field of Limits is set by exactly one row.
func TestLimitTableIsTheLimits(t *testing.T) {
	keys := map[string]bool{}
	for _, r := range LimitTable {
		if keys[r.Key] {
			t.Errorf("%s has two rows", r.Key)
		}
		keys[r.Key] = true
		if _, ok := limitsSpecs[r.Key]; !ok {
			t.Errorf("LimitTable has %s, which the limits block does not read", r.Key)
		}
		if r.Default <= 0 || r.Reason == "" {
			t.Errorf("%s: default %d, reason %q; want both", r.Key, r.Default, r.Reason)
		}
		// The row sets one field, to its default, and the directive
		// reads that field back from the same value.
		var one Limits
		r.set(&one, r.Default)
		set := 0
		v := reflect.ValueOf(one)
		for i := range v.NumField() {
			if !v.Field(i).IsZero() {
				set++
				if v.Field(i).Convert(reflect.TypeFor[int64]()).Int() != r.Default {
					t.Errorf("%s sets %s to %v, not its default %d", r.Key, v.Type().Field(i).Name, v.Field(i), r.Default)
				}
			}
		}
		if set != 1 {
			t.Errorf("%s sets %d fields of Limits, want 1", r.Key, set)
		}
	}
	for k := range limitsSpecs {
		if !keys[k] {
			t.Errorf("the limits block reads %s, which LimitTable lacks (no default, no reason)", k)
		}
	}
	d := reflect.ValueOf(DefaultLimits())
	for i := range d.NumField() {
		if d.Field(i).IsZero() {
			t.Errorf("no row of LimitTable sets Limits.%s", d.Type().Field(i).Name)
		}
	}
	if Defaults().Limits != DefaultLimits() {
		t.Errorf("Defaults().Limits = %+v, want DefaultLimits() %+v", Defaults().Limits, DefaultLimits())
	}
}
