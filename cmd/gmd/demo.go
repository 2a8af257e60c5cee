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
	"github.com/gmdjudge/gmd/demo"
)

func init() {
	commands["demo"] = command{
		summary: "the daemon with its own IMAP and SMTP servers, and a demo game to read in a mail client",
		run:     runDemo,
	}
}

const demoUsage = `usage: gmd demo [-dir DIR] [-imap 127.0.0.1:0] [-smtp 127.0.0.1:0] [-http 127.0.0.1:0] [-for 0] [-q]

Shows the judge at work on one machine, with nothing to install or
configure. It starts an IMAP server and an SMTP server inside the process
(on loopback, mailboxes in memory) with a judge, a master and seven
players on them, runs the judge daemon against them (the same code as
gmd run), and plays the first turn of a game by mail: the master creates
the game, the players join (each confirming their address with the code
the judge mails back) and send their Spring 1901 orders, the judge
processes the phase. Then it prints the servers' addresses and the
passwords: point a mail client at them to read the results and play on.
It serves the judge's web pages too (-http), and prints their address:
open it in a browser to see the game, its map and its history.

Port 0 picks a free port. The database lives in a temporary directory
that is removed at the end, or in -dir, which is kept (the next run then
finds the game there, and plays no first turn). The demo game's clock
ticks every second, so a phase whose orders are all in is processed at
once.

It runs until interrupted (Ctrl-C), or with -for for that long after the
first turn was played.

Flags:
`

// demoClock is how often the demo daemon runs the games' clocks: a
// complete phase is processed while the player watches.
const demoClock = time.Second

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
	quiet := fs.Bool("q", false, "log only warnings and errors")
	if code, ok := parseFlags(fs, args, stderr, demoUsage); !ok {
		return code
	}
	level := slog.LevelInfo
	if *quiet {
		level = slog.LevelWarn
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if err := playDemo(ctx, demoSetup{dir: *dir, imap: *imapAddr, smtp: *smtpAddr, http: *httpAddr, runFor: *runFor}, log, stdout); err != nil {
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
}

// playDemo runs the demo until ctx ends, or for set.runFor after the
// first turn.
func playDemo(ctx context.Context, set demoSetup, log *slog.Logger, stdout io.Writer) (err error) {
	dir := set.dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "gmd-demo-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
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
		daemonErr = runDaemon(ctx, cfg, log, daemonOptions{clockEvery: demoClock, httpListener: pagesLn})
	}()
	// stopDaemon ends the daemon and returns its error.
	stopDaemon := func() error {
		cancel()
		<-exited
		return daemonErr
	}

	if fresh {
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
// without TLS (srv listens on loopback only), polled every second, as
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
		PollInterval: time.Second,
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

// printDemo tells how to reach the demo.
func printDemo(w io.Writer, srv *demo.Servers, pages, dir string, fresh, kept bool) {
	p1 := demo.Seats()[0]
	user := strings.ReplaceAll(p1.Addr, "@", "%40") // the @ of an IMAP URL ends the user name
	fmt.Fprintf(w, `
gmd demo: a judge, an IMAP server and an SMTP server on this machine.

  Web   %sgames/%s   the game, its map and history, in a browser
  IMAP  %s   no encryption, normal password (LOGIN)
  SMTP  %s   no encryption, normal password (AUTH PLAIN), or none

  login = address          mail password   in the game %q
  %-24s %-15s the judge: send it commands and orders
  %-24s %-15s Master, game password %q
`, pages, demo.Game, srv.IMAPAddr, srv.SMTPAddr, demo.Game,
		demo.Judge.Addr, demo.Judge.Password,
		demo.Master.Addr, demo.Master.Password, demo.MasterGamePass)
	for _, s := range demo.Seats() {
		fmt.Fprintf(w, "  %-24s %-15s %s, game password %q\n", s.Addr, s.Password, s.Power, s.GamePass)
	}
	if fresh {
		fmt.Fprintf(w, `
Spring 1901 has been played by mail: the S1901M results are waiting in
each INBOX, with the replies to the sign-ons and orders.
`)
	} else {
		fmt.Fprintf(w, "\nThe game is as the last run in %s left it; the mailboxes start empty.\n", dir)
	}
	fmt.Fprintf(w, `
Point Thunderbird or mutt at these (server 127.0.0.1, the ports above,
the address as user name), for example:

  mutt -f imap://%[1]s@%[2]s/INBOX

and to send as player1 too:

  mutt -e 'set from=%[3]s imap_pass=%[4]s smtp_url=smtp://%[1]s@%[5]s/ smtp_pass=%[4]s ssl_starttls=no ssl_force_tls=no' -f imap://%[1]s@%[2]s/INBOX

To play Fall 1901, mail the judge (%[6]s) as a player:

  SIGNON %[7]s%[8]s %[9]s
  A Ser - Gre

`, user, srv.IMAPAddr, p1.Addr, p1.Password, srv.SMTPAddr, demo.Judge.Addr, p1.Letter, demo.Game, p1.GamePass)
	if kept {
		fmt.Fprintf(w, "The database is in %s and stays there. Ctrl-C stops the demo.\n", dir)
	} else {
		fmt.Fprintln(w, "The mailboxes are in memory and the database in a temporary directory: Ctrl-C stops the demo and forgets it all.")
	}
}
