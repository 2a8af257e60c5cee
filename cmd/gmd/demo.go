package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/daemon"
	"github.com/gmdjudge/gmd/demo"
	"github.com/gmdjudge/gmd/templates"
)

func init() {
	commands["demo"] = command{
		summary: "the daemon with its own IMAP and SMTP servers, and a demo game to read in a mail client",
		run:     runDemo,
	}
}

const demoUsage = `usage: gmd demo [-dir DIR] [-imap 127.0.0.1:0] [-smtp 127.0.0.1:0] [-http 127.0.0.1:0] [-for 0] [-v]

Shows the judge at work on one machine, with nothing to install or
configure. It starts an IMAP server and an SMTP server inside the process
(on loopback, mailboxes in memory) with a judge, a master and seven
players on them, runs the judge daemon against them (the same code as
gmd run), and plays the first turn of a game by mail: the master creates
the game, the players join (each confirming their address with the code
the judge mails back) and send their Spring 1901 orders, the judge
processes the phase. Then it prints, on one screen, the address of the
game's web pages, a mutt command that opens player 1's mailbox (it
writes a muttrc for each account in its directory), and the servers'
ports and passwords for any other mail client.

Port 0 picks a free port. The database, the muttrc files and the log
(gmd.log) live in a temporary directory that is removed at the end, or
in -dir, which is kept (the next run then finds the game there, and
plays no first turn). The daemon logs to that file; -v shows the log
here instead, and warnings and errors are shown here in any case. The
demo game's clock ticks every second, so a phase whose orders are all
in is processed at once.

It runs until interrupted (Ctrl-C), or with -for for that long after the
first turn was played.

Flags:
`

// demoClock is how often the demo daemon runs the games' clocks: a
// complete phase is processed while the player watches. demoPoll is how
// often it looks in the judge's mailbox, as the in-memory server can let
// IDLE miss a message (demoConfig). The first turn waits on both, about
// a second for each round trip of mail; the tests shorten them, which
// otherwise waited six seconds for each demo they ran.
var demoClock, demoPoll = time.Second, time.Second

// demoWait bounds the first turn: on a machine where it takes longer,
// something is wrong.
const demoWait = time.Minute

func runDemo(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop)
	return demoCmd(ctx, args, stdout, stderr)
}

// demoCmd is gmd demo, stopped by the end of ctx rather than by a signal.
func demoCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd demo", flag.ContinueOnError)
	dir := fs.String("dir", "", "keep the database in `DIR` (default: a temporary directory, removed at the end)")
	imapAddr := fs.String("imap", "127.0.0.1:0", "the IMAP server's `address` (loopback only)")
	smtpAddr := fs.String("smtp", "127.0.0.1:0", "the SMTP server's `address` (loopback only)")
	httpAddr := fs.String("http", "127.0.0.1:0", "the web pages' `address`")
	runFor := fs.Duration("for", 0, "stop this long after the demo is ready (0: run until interrupted)")
	verbose := fs.Bool("v", false, "show the judge's log here rather than only in DIR/gmd.log")
	fs.Bool("q", true, "(the default) log to DIR/gmd.log, showing only warnings and errors here")
	if code, ok := parseFlags(fs, args, stderr, demoUsage); !ok {
		return code
	}
	set := demoSetup{dir: *dir, imap: *imapAddr, smtp: *smtpAddr, http: *httpAddr, runFor: *runFor, verbose: *verbose, stderr: stderr}
	if err := playDemo(ctx, set, stdout); err != nil {
		fmt.Fprintf(stderr, "gmd demo: %v\n", err)
		return 1
	}
	return 0
}

// demoSetup is what the flags of gmd demo say.
type demoSetup struct {
	dir              string
	imap, smtp, http string
	runFor           time.Duration
	verbose          bool      // the log on stderr, not in DIR/gmd.log
	stderr           io.Writer // where the log goes with verbose, and warnings without
}

// demoLog is the file in the demo's directory that its log goes to.
const demoLog = "gmd.log"

// demoLogger returns the demo daemon's logger: on stderr with -v;
// otherwise into dir/gmd.log, warnings and errors on stderr as well, so
// that the first screen holds the banner and not 60 lines of routine.
// The closer closes the log file.
func demoLogger(set demoSetup, dir string) (*slog.Logger, func() error, error) {
	if set.verbose {
		return slog.New(slog.NewTextHandler(set.stderr, nil)), func() error { return nil }, nil
	}
	f, err := os.OpenFile(filepath.Join(dir, demoLog), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, err
	}
	h := slog.NewMultiHandler(
		slog.NewTextHandler(f, nil),
		slog.NewTextHandler(set.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}),
	)
	return slog.New(h), f.Close, nil
}

// playDemo runs the demo until ctx ends, or for set.runFor after the
// first turn.
func playDemo(ctx context.Context, set demoSetup, stdout io.Writer) (err error) {
	dir := set.dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "gmd-demo-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	log, closeLog, err := demoLogger(set, dir)
	if err != nil {
		return err
	}
	defer closeLog()
	srv, err := demo.Start(set.imap, set.smtp, demo.Accounts())
	if err != nil {
		return err
	}
	// Closed after the daemon stopped, so that it logs out rather than
	// seeing its connections cut.
	defer srv.Close()

	// The pages' address is taken before the daemon starts, so that the
	// port it picked can be printed.
	if set.http == "" {
		set.http = "127.0.0.1:0"
	}
	pagesLn, err := net.Listen("tcp", set.http)
	if err != nil {
		return fmt.Errorf("http: %w", err)
	}
	pagesURL := "http://" + pagesLn.Addr().String() + "/"

	cfg := demoConfig(srv, filepath.Join(dir, "gmd.db"))
	fresh := true
	if _, err := os.Stat(cfg.DB); err == nil {
		fresh = false // a game from an earlier run, in -dir
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var daemonErr error
	exited := make(chan struct{}) // closed when the daemon has returned daemonErr
	go func() {
		defer close(exited)
		opt := daemonOptions()
		opt.ClockEvery, opt.HTTPListener = demoClock, pagesLn
		daemonErr = daemon.Run(ctx, cfg, log, opt)
	}()
	// stopDaemon ends the daemon and returns its error.
	stopDaemon := func() error {
		cancel()
		<-exited
		return daemonErr
	}

	if err := writeMuttrcs(dir, srv); err != nil {
		return errors.Join(err, stopDaemon())
	}
	if fresh {
		// A line at once, so that the few seconds of the first turn are
		// not silent; the banner follows when it is played.
		fmt.Fprintln(stdout, "gmd demo: the judge is running; playing the first turn by mail...")
		if err := firstTurn(ctx, srv, exited); err != nil {
			if ctx.Err() != nil {
				return stopDaemon() // interrupted: not a failure
			}
			return errors.Join(err, stopDaemon())
		}
	}
	printDemo(stdout, srv, pagesURL, dir, fresh, set.dir != "")

	var timeout <-chan time.Time
	if set.runFor > 0 {
		timeout = time.After(set.runFor)
	}
	select {
	case <-ctx.Done():
	case <-timeout:
	case <-exited:
		// It stopped by itself: something broke.
	}
	return stopDaemon()
}

// demoConfig is the judge.conf of the demo: the judge's mailbox on srv,
// without TLS (srv listens on loopback only), polled every demoPoll, as
// the in-memory server can let IDLE miss a message.
func demoConfig(srv *demo.Servers, db string) *config.Config {
	cfg := config.Defaults()
	cfg.JudgeAddr = demo.Judge.Addr
	cfg.DB = db
	cfg.IMAP = &config.IMAP{
		Server: config.Server{
			Addr:     srv.IMAPAddr,
			TLS:      config.TLSNone,
			Username: demo.Judge.Addr,
			Password: demo.Judge.Password,
		},
		Mailbox:      config.DefaultMailbox,
		PollInterval: demoPoll,
	}
	cfg.SMTP = &config.SMTP{Server: config.Server{
		Addr:     srv.SMTPAddr,
		TLS:      config.TLSNone,
		Username: demo.Judge.Addr,
		Password: demo.Judge.Password,
	}}
	// The demo's database is thrown away and its passwords are printed
	// for all to see: bcrypt's cheapest cost keeps its start quick.
	cfg.PasswordCost = bcrypt.MinCost
	return cfg
}

// firstTurn mails the demo game's creation, sign-ons and Spring 1901
// orders to the judge and waits until the results reached every player.
// exited is closed should the daemon stop meanwhile.
func firstTurn(ctx context.Context, srv *demo.Servers, exited <-chan struct{}) error {
	judge := demo.Judge.Addr
	var players []string
	for _, p := range demo.Seats() {
		players = append(players, p.Addr)
	}
	ctx, cancel := context.WithTimeout(ctx, demoWait)
	defer cancel()
	waited := make(chan error, 1)
	go func() {
		// The creation and the sign-ons wait for the judge's replies,
		// which give the codes that confirm the addresses.
		if err := srv.CreateGame(ctx, judge); err != nil {
			waited <- err
			return
		}
		if err := srv.SendOpenings(judge); err != nil {
			waited <- err
			return
		}
		waited <- srv.WaitFor(ctx, "S1901M Results", players...)
	}()
	select {
	case err := <-waited:
		return err
	case <-exited:
		return errors.New("the judge stopped before the first turn was played")
	}
}

// muttrcName is the name of the muttrc the demo writes for account a,
// in its directory: "muttrc-player1", "muttrc-master".
func muttrcName(a demo.Account) string {
	user, _, _ := strings.Cut(a.Addr, "@")
	return "muttrc-" + user
}

// writeMuttrcs writes, in dir, a muttrc for each account but the judge's:
// mutt -F with it reads and sends as that account, so that the line the
// banner prints is short.
func writeMuttrcs(dir string, srv *demo.Servers) error {
	for _, a := range demo.Accounts() {
		if a == demo.Judge {
			continue
		}
		user := strings.ReplaceAll(a.Addr, "@", "%40") // the @ of a URL ends the user name
		rc := fmt.Sprintf(`# mutt's settings for %[1]s on the gmd demo's servers (gmd demo wrote this)
set folder = "imap://%[2]s@%[3]s/"
set spoolfile = "+INBOX"
set imap_pass = "%[4]s"
set from = "%[1]s"
set use_from = yes
set smtp_url = "smtp://%[2]s@%[5]s/"
set smtp_pass = "%[4]s"
set ssl_starttls = no
set ssl_force_tls = no
set imap_check_subscribed = no
set mail_check = 5
`, a.Addr, user, srv.IMAPAddr, a.Password, srv.SMTPAddr)
		if err := os.WriteFile(filepath.Join(dir, muttrcName(a)), []byte(rc), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// printDemo tells how to reach the demo, on one screen of 24 rows and
// 78 columns: the web pages and the mail client first, where the eye
// starts, then how to play on, then what other mail clients need.
func printDemo(w io.Writer, srv *demo.Servers, pages, dir string, fresh, kept bool) {
	p1 := demo.Seats()[0]
	fmt.Fprintf(w, `
gmd demo is ready: a judge with its own IMAP and SMTP servers, on loopback.

  Web   %sgames/%s
  Mail  mutt -F %s
`, pages, demo.Game, filepath.Join(dir, muttrcName(p1.Account)))
	if fresh {
		fmt.Fprintf(w, `
Spring 1901 has been played by mail: the results, with their map, are in
every player's INBOX. You are player1, %s: to play Fall 1901, mail
%s (in mutt: m) these lines:

  SIGNON %s%s %s
  A Ser - Gre
`, p1.Power, demo.Judge.Addr, p1.Letter, demo.Game, p1.GamePass)
	} else {
		fmt.Fprintf(w, "\nThe game is as the last run in %s left it; the mailboxes start empty.\n", dir)
	}
	fmt.Fprintf(w, "\n%s", templates.Wrap(fmt.Sprintf(
		"Other mail clients: IMAP %s, SMTP %s, no encryption, normal password, the address as user name. "+
			"playerN@%s (password playerNpass) plays, for N = 1 to 7, %s (power and game password); "+
			"master@%s (masterpass) is the master, game password %s. Each has a muttrc beside player1's.",
		srv.IMAPAddr, srv.SMTPAddr, demo.Domain, seatList(), demo.Domain, demo.MasterGamePass))+"\n")
	fmt.Fprintf(w, "\nThe log is in %s (-v shows it here).\n", filepath.Join(dir, demoLog))
	if kept {
		fmt.Fprintf(w, "The game stays in %s. Ctrl-C stops the demo.\n", dir)
	} else {
		fmt.Fprintln(w, "Ctrl-C stops the demo and forgets it all.")
	}
}

// seatList names the demo's seats in order, with their game passwords:
// "Austria vienna, England london, ...".
func seatList() string {
	var s []string
	for _, p := range demo.Seats() {
		s = append(s, p.Power+" "+p.GamePass)
	}
	return strings.Join(s, ", ")
}
