package integration

import (
	"bytes"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// env is what TestMain set up for the tests.
var env struct {
	// skip, when not empty, is why every test of the package skips.
	skip string

	root    string         // the repository's top directory
	dir     string         // the run's scratch directory, removed at the end
	servers string         // the mail servers' directory: configs, logs, cert.pem, Maildirs
	gmd     string         // the gmd binary built for the run
	roots   *x509.CertPool // trusts the servers' self-signed certificate (servers/cert.pem)
}

// Ports are the loopback ports the servers listen on during the run. They
// are not the script's defaults, so that the tests do not clash with mail
// servers a developer started by hand; MAILTEST_*_PORT in the environment
// overrides them, as it does for scripts/mailservers.
var ports = struct {
	IMAP, IMAPS, SMTP, Submission, LMTP, Auth int
}{
	IMAP:       envPort("MAILTEST_IMAP_PORT", 21143),
	IMAPS:      envPort("MAILTEST_IMAPS_PORT", 21993),
	SMTP:       envPort("MAILTEST_SMTP_PORT", 21025),
	Submission: envPort("MAILTEST_SUBMISSION_PORT", 21587),
	LMTP:       envPort("MAILTEST_LMTP_PORT", 22424),
	Auth:       envPort("MAILTEST_AUTH_PORT", 22345),
}

// envPort returns the port in the environment variable name, or def.
func envPort(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 && n < 65536 {
		return n
	}
	return def
}

// hostPort returns 127.0.0.1:port.
func hostPort(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }

// TestMain starts Dovecot and Postfix for the whole run and builds the
// gmd binary, when GMD_MAILTEST=1, and stops the servers when the tests
// are done, whatever their outcome (and on SIGINT or SIGTERM).
func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	if os.Getenv("GMD_MAILTEST") != "1" {
		env.skip = "the tests against real Dovecot and Postfix run with GMD_MAILTEST=1 (see scripts/integration)"
		return m.Run()
	}
	if err := setUp(); err != nil {
		tearDown()
		var unavailable *serversError
		if !errors.As(err, &unavailable) || os.Getenv("CI") == "true" {
			fmt.Fprintf(os.Stderr, "integration: %v\n", err)
			return 1
		}
		// A developer's machine without the servers (or without root to
		// run them) skips the tests; CI must not.
		env.skip = err.Error()
		return m.Run()
	}
	defer tearDown()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		fmt.Fprintf(os.Stderr, "integration: %v: stopping the mail servers\n", s)
		tearDown()
		os.Exit(1)
	}()
	return m.Run()
}

// serversError is a failure to start the mail servers, as opposed to a
// failure of the project's own code (building gmd).
type serversError struct{ err error }

func (e *serversError) Error() string { return "mail servers unavailable: " + e.err.Error() }
func (e *serversError) Unwrap() error { return e.err }

// stateFile records the servers' directory while they run, so that a run
// killed before it could stop them (a test timeout) has them stopped by
// the next run, which needs the same ports.
func stateFile() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("gmd-integration-%d.dir", ports.IMAP))
}

// setUp builds gmd and starts the servers.
func setUp() error {
	root, err := filepath.Abs("..")
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return fmt.Errorf("the repository is not at %s: %v", root, err)
	}
	env.root = root
	if env.dir, err = os.MkdirTemp("", "gmd-integration-"); err != nil {
		return err
	}
	// The servers run their processes as the users mail and postfix,
	// which must reach the directories below.
	if err := os.Chmod(env.dir, 0o755); err != nil {
		return err
	}

	env.gmd = filepath.Join(env.dir, "gmd")
	args := []string{"build", "-o", env.gmd}
	if raceEnabled() {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "./cmd/gmd")...)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/gmd: %v\n%s", err, out)
	}

	if old, err := os.ReadFile(stateFile()); err == nil {
		if dir := strings.TrimSpace(string(old)); dir != "" {
			fmt.Fprintf(os.Stderr, "integration: stopping the servers a killed run left in %s\n", dir)
			_, _ = mailservers("stop", dir)
		}
		os.Remove(stateFile())
	}
	env.servers = filepath.Join(env.dir, "servers")
	if err := os.WriteFile(stateFile(), []byte(env.servers+"\n"), 0o644); err != nil {
		return err
	}
	if out, err := mailservers("start", env.servers); err != nil {
		return &serversError{fmt.Errorf("scripts/mailservers start: %v\n%s\n%s", err, out, serverLogs())}
	}
	pem, err := os.ReadFile(filepath.Join(env.servers, "cert.pem"))
	if err != nil {
		return &serversError{err}
	}
	env.roots = x509.NewCertPool()
	if !env.roots.AppendCertsFromPEM(pem) {
		return &serversError{errors.New("no certificate in cert.pem")}
	}
	return nil
}

var teardownOnce sync.Once

// tearDown stops the servers and removes the scratch directory; it may be
// called more than once. GMD_MAILTEST_KEEP=1 keeps the directory (logs,
// Maildirs, the judges' databases) for a look after the run.
func tearDown() {
	teardownOnce.Do(func() {
		if env.servers != "" {
			if out, err := mailservers("stop", env.servers); err != nil {
				fmt.Fprintf(os.Stderr, "integration: scripts/mailservers stop: %v\n%s", err, out)
			}
			os.Remove(stateFile())
		}
		if env.dir == "" {
			return
		}
		if os.Getenv("GMD_MAILTEST_KEEP") == "1" {
			fmt.Fprintf(os.Stderr, "integration: kept %s\n", env.dir)
			return
		}
		os.RemoveAll(env.dir)
	})
}

// mailservers runs scripts/mailservers with the run's ports and users.
func mailservers(args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(env.root, "scripts", "mailservers"), args...)
	cmd.Env = append(os.Environ(),
		"MAILTEST_IMAP_PORT="+strconv.Itoa(ports.IMAP),
		"MAILTEST_IMAPS_PORT="+strconv.Itoa(ports.IMAPS),
		"MAILTEST_SMTP_PORT="+strconv.Itoa(ports.SMTP),
		"MAILTEST_SUBMISSION_PORT="+strconv.Itoa(ports.Submission),
		"MAILTEST_LMTP_PORT="+strconv.Itoa(ports.LMTP),
		"MAILTEST_AUTH_PORT="+strconv.Itoa(ports.Auth),
		"MAILTEST_DOMAIN="+domain,
		"MAILTEST_USERS="+mailtestUsers(),
	)
	// Not CombinedOutput: Dovecot's log process would keep a pipe open
	// for as long as it runs (the script redirects it, but a file makes
	// sure nothing here waits for it).
	out, err := os.CreateTemp(env.dir, "mailservers-*.out")
	if err != nil {
		return nil, err
	}
	defer os.Remove(out.Name())
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	err = cmd.Run()
	b, _ := os.ReadFile(out.Name())
	return bytes.TrimSpace(b), err
}

// raceEnabled says gmd is built with the race detector
// (GMD_MAILTEST_RACE=1), so that the daemon's goroutines (poller, sender,
// clock, control socket) are checked under real servers, crashes and
// outages; a race makes it exit with status 66. It makes the suite three
// times slower (bcrypt, above all), so it is not the default.
func raceEnabled() bool { return os.Getenv("GMD_MAILTEST_RACE") == "1" }

// needServers skips the test unless the servers run.
func needServers(t testing.TB) {
	t.Helper()
	if env.skip != "" {
		t.Skip(env.skip)
	}
}

// serverLogs returns the end of the servers' logs, for a failed test.
func serverLogs() string {
	var b strings.Builder
	for _, name := range []string{"dovecot.out", "dovecot.log", "postfix.log"} {
		fmt.Fprintf(&b, "--- %s (end)\n%s\n", name, tail(filepath.Join(env.servers, name), 40))
	}
	return b.String()
}

// tail returns the last n lines of a file.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
