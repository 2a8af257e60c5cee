package integration

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDeployAsREADME deploys a judge the way README.md says, running
// README's own commands, read from README.md itself, against the real
// Dovecot and Postfix: the demo line; the install block; the judge.conf of
// "IMAP and a local mail server"; the systemd unit, run as its
// ExecStart and User say (there is no systemd here); a mail to the judge,
// answered; "gmd games" as the gmd user; then the pipe setup, its Postfix
// transport's argv and its cron line. A step README leaves out fails the
// test, since nothing here adds one.
//
// What it changes, and why: the paths /usr/local, /etc/gmd,
// /var/lib/gmd and /etc/systemd/system are moved under a scratch root, so
// that the run touches no installed judge; the example server names,
// ports, address and password are the test servers'; and the imap block
// gets a ca-cert line, as the test servers' certificate is self-signed.
// The gmd system user is made with README's useradd line when it is not
// there yet.
func TestDeployAsREADME(t *testing.T) {
	needServers(t)
	if os.Geteuid() != 0 {
		t.Fatal("the deployment test runs as root, as README's install steps do")
	}
	readme := readREADME(t)
	root, err := os.MkdirTemp(env.dir, "deploy-")
	if err != nil {
		t.Fatal(err)
	}
	// The gmd user must reach the scratch root's directories, as it does
	// /etc and /var/lib.
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	paths := strings.NewReplacer(
		"/usr/local/", root+"/usr/local/",
		"/etc/gmd", root+"/etc/gmd",
		"/var/lib/gmd", root+"/var/lib/gmd",
		"/etc/systemd/system", root+"/etc/systemd/system",
	)
	// README's "gmd version" and "gmd games" find gmd on the PATH, in
	// /usr/local/bin.
	t.Setenv("PATH", filepath.Join(root, "usr/local/bin")+":"+os.Getenv("PATH"))
	for _, d := range []string{"usr/local/bin", "etc/systemd/system", "var/lib"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}

	// Try it: the demo line, stopped by itself.
	demoLine := readme.block(t, "Try it", "go run ./cmd/gmd demo")
	out := sh(t, strings.TrimSpace(demoLine)+" -for 1ms")
	for _, want := range []string{"\n  Web   http://127.0.0.1:", "\n  Mail  mutt -F ", "SIGNON Ademo vienna"} {
		if !strings.Contains(out, want) {
			t.Errorf("the demo printed no %q:\n%s", want, out)
		}
	}

	// Install: README's block, line by line.
	for _, line := range commands(readme.block(t, "Install", "useradd")) {
		if strings.HasPrefix(line, "useradd ") {
			if _, err := user.Lookup("gmd"); err == nil {
				continue // made by an earlier run
			}
			sh(t, line)
			continue
		}
		sh(t, paths.Replace(line))
	}
	gmd := filepath.Join(root, "usr/local/bin/gmd")
	if _, err := os.Stat(filepath.Join(root, "usr/local/share/man/man1/gmd.1")); err != nil {
		t.Errorf("the manual page was not installed: %v", err)
	}

	// judge.conf: "IMAP and a local mail server" is the submission
	// setup's file with the local smtp block.
	full := readme.block(t, "Install", "imap {")
	local := readme.block(t, "Install", "localhost:25")
	i := strings.Index(full, "smtp {")
	if i < 0 {
		t.Fatalf("no smtp block in README's judge.conf:\n%s", full)
	}
	servers := strings.NewReplacer(
		"imap.example.org:993", hostPort(ports.IMAPS),
		"smtp.example.org:465", hostPort(ports.Submission),
		"localhost:25", hostPort(ports.SMTP),
		"judge@example.org", addr(judgeUser),
		"the mailbox password", password(judgeUser),
	)
	cert := filepath.Join(env.servers, "cert.pem")
	withCA := func(conf string) string {
		return strings.Replace(conf, "imap {", "imap {\n\tca-cert "+cert, 1)
	}
	conf := filepath.Join(root, "etc/gmd/judge.conf")
	writeConf(t, conf, withCA(servers.Replace(paths.Replace(full[:i]+local))))
	emptyMailboxes(t, judgeUser, seats[0].User, seats[1].User)

	// The submission setup reads too (its server's TLS differs here:
	// the test's submission port has STARTTLS, not port 465's TLS).
	sub := withCA(servers.Replace(full))
	sub = strings.Replace(sub, "smtp {", "smtp {\n\ttls starttls\n\tca-cert "+cert, 1)
	sub = strings.Replace(sub, "/var/lib/gmd/gmd.db", filepath.Join(root, "submission.db"), 1)
	writeConf(t, filepath.Join(root, "submission.conf"), sub)
	sh(t, gmd+" init -config "+filepath.Join(root, "submission.conf"))

	// Run it under systemd: the unit installed by README's line, then run
	// as systemd would, from its ExecStart and User.
	var unit, games string
	for _, line := range commands(readme.block(t, "Run it under systemd", "systemctl")) {
		switch {
		case strings.HasPrefix(line, "install "):
			sh(t, paths.Replace(line))
			f := strings.Fields(line)
			unit = paths.Replace(f[len(f)-1])
		case strings.HasPrefix(line, "systemctl "), strings.HasPrefix(line, "journalctl "):
			// No systemd on the test machine: startUnit stands in.
		case strings.HasPrefix(line, "sudo -u gmd "):
			games = paths.Replace(strings.TrimPrefix(line, "sudo -u gmd "))
		default:
			t.Fatalf("README's systemd block has a line this test does not know: %q", line)
		}
	}
	stop := startUnit(t, unit, paths)

	// Then mail the judge HELP.
	help := newLetter(seats[0].User, "help", "HELP\n")
	sendAll(t, help)
	reply := replyTo(t, help, time.Minute)
	if !strings.Contains(reply.Body, "SIGNON") || !strings.Contains(reply.Body, "CREATE") {
		t.Errorf("the reply to HELP:\n%s", reply.Body)
	}
	// The games of the running judge, through its control socket.
	if out := asGMD(t, games); !strings.Contains(out, "outbox:") {
		t.Errorf("gmd games printed:\n%s", out)
	}
	stop()

	// The pipe setup: the transport's argv with a mail on standard
	// input, as Postfix's pipe runs it, then the cron line.
	pipeConf := servers.Replace(paths.Replace(full[:strings.Index(full, "imap {")] + local))
	writeConf(t, conf, pipeConf)
	argv := readme.block(t, "Install", "argv=")
	m := regexp.MustCompile(`user=gmd argv=(.*)`).FindStringSubmatch(argv)
	if m == nil {
		t.Fatalf("no argv in README's transport:\n%s", argv)
	}
	piped := newLetter(seats[1].User, "piped help", "HELP\n")
	asGMDWithInput(t, paths.Replace(m[1]), piped.bytes())
	if r := replyTo(t, piped, time.Minute); !strings.Contains(r.Body, "SIGNON") {
		t.Errorf("the reply to the piped HELP:\n%s", r.Body)
	}
	cron := readme.block(t, "Install", "* * * * *")
	cm := regexp.MustCompile(`\* \* \* \* \* gmd (.*)`).FindStringSubmatch(cron)
	if cm == nil {
		t.Fatalf("no command in README's cron line:\n%s", cron)
	}
	asGMD(t, paths.Replace(cm[1]))
}

// readmeDoc is README.md cut into its "## " sections.
type readmeDoc map[string]string

func readREADME(t *testing.T) readmeDoc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(env.root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := readmeDoc{}
	name := ""
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			name = strings.TrimSpace(h)
			continue
		}
		doc[name] += line
	}
	return doc
}

// block returns the fenced code block of section that holds what.
func (d readmeDoc) block(t *testing.T, section, what string) string {
	t.Helper()
	text, ok := d[section]
	if !ok {
		t.Fatalf("README.md has no section %q", section)
	}
	var blocks []string
	var cur []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			if in {
				blocks = append(blocks, strings.Join(cur, "\n")+"\n")
				cur = nil
			}
			in = !in
			continue
		}
		if in {
			cur = append(cur, line)
		}
	}
	for _, b := range blocks {
		if strings.Contains(b, what) {
			return b
		}
	}
	t.Fatalf("README.md's section %q has no code block with %q", section, what)
	return ""
}

// commands returns the shell commands of a block: its lines without
// comments and blank lines.
func commands(block string) []string {
	var out []string
	for _, line := range strings.Split(block, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// sh runs a command line with bash in the repository, failing the test
// if it fails, and returns its output.
func sh(t *testing.T, line string) string {
	t.Helper()
	t.Logf("$ %s", line)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", line)
	cmd.Dir = env.root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	return string(out)
}

// writeConf writes a judge.conf as README's install made it: root's,
// readable by the gmd group.
func writeConf(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o640); err != nil {
		t.Fatal(err)
	}
	g := gmdIDs(t)
	if err := os.Chown(path, 0, g.gid); err != nil {
		t.Fatal(err)
	}
}

// ids are a user's numeric user and group.
type ids struct{ uid, gid int }

func gmdIDs(t *testing.T) ids {
	t.Helper()
	u, err := user.Lookup("gmd")
	if err != nil {
		t.Fatalf("the gmd user: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return ids{uid, gid}
}

// asGMD runs a command line (a binary and its arguments, no shell) as
// the gmd user, failing the test if it fails, and returns its output.
func asGMD(t *testing.T, line string) string {
	t.Helper()
	return asGMDWithInput(t, line, nil)
}

func asGMDWithInput(t *testing.T, line string, stdin []byte) string {
	t.Helper()
	t.Logf("(gmd)$ %s", line)
	f := strings.Fields(line)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, f[0], f[1:]...)
	g := gmdIDs(t)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(g.uid), Gid: uint32(g.gid)}}
	cmd.Dir = "/"
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s (as gmd): %v\n%s", line, err, out)
	}
	return string(out)
}

// startUnit runs the unit file's ExecStart as its User, as systemd
// would, and returns a function that stops it with SIGTERM, as systemd
// does (and checks that it stopped with status 0). The daemon's output,
// its journal, is shown if the test fails.
func startUnit(t *testing.T, unit string, paths *strings.Replacer) (stop func()) {
	t.Helper()
	f, err := os.Open(unit)
	if err != nil {
		t.Fatalf("the unit README installs: %v", err)
	}
	defer f.Close()
	keys := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok && !strings.HasPrefix(k, "#") {
			keys[k] = v
		}
	}
	if keys["User"] != "gmd" || keys["ExecStart"] == "" {
		t.Fatalf("the unit's User %q and ExecStart %q", keys["User"], keys["ExecStart"])
	}
	exe := strings.Fields(paths.Replace(keys["ExecStart"]))
	cmd := exec.Command(exe[0], exe[1:]...)
	g := gmdIDs(t)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(g.uid), Gid: uint32(g.gid)}}
	cmd.Dir = "/"
	var journal bytes.Buffer
	cmd.Stdout, cmd.Stderr = &journal, &journal
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("--- the judge's journal\n%s", journal.String())
		}
	})
	return func() {
		if stopped {
			return
		}
		stopped = true
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the judge stopped with %v", err)
			}
		case <-time.After(2 * time.Minute):
			cmd.Process.Kill()
			t.Errorf("the judge did not stop on SIGTERM")
		}
		if !strings.Contains(journal.String(), `msg="mail handled"`) {
			t.Errorf("the journal has no handled mail:\n%s", journal.String())
		}
	}
}
