package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/daemon"
	"github.com/gmdjudge/gmd/state"
)

func init() {
	commands["run"] = command{
		summary: "the daemon: read mail by IMAP, answer by SMTP, run the deadlines",
		run:     runRun,
	}
}

const runUsage = `usage: gmd run [-config judge.conf]

Runs the judge: reads the mailbox of the imap block of judge.conf, handles
each new mail once (orders, commands, press), sends every reply through
the smtp block's server, processes each game's phases at their deadlines,
prunes the ledger of handled mails daily (ledger-retention), and answers
gmd backup, gmd check, gmd outbox and gmd held on the control socket
(the database's path with ".sock" added). Logs go to standard error.

A mail that fails for a reason of its own (a game it needs is damaged,
a bug it trips) is held in the database for the admin (see gmd held),
its sender told, and the mails after it go on. A failure of the judge's
own (a full disk, say) stops the reading of mail until it passes, and
loses nothing: the mail is tried again, in order.

The first gmd run with no database file makes a new judge; an empty
(0-byte) or damaged file is refused: every page is checked, as gmd check
does, before a mail is read.

The config file is -config, else $GMD_CONFIG, else /etc/gmd/judge.conf.
It needs db, imap and smtp; see judge.conf.example.

SIGINT or SIGTERM stops it: the mail being handled and the mail being
sent are finished, then it exits. A second signal kills it at once, which
loses nothing either (see gmd(1)).

Exit status: 0 after a signal; 1 when it could not start or run (the
database, the control socket); 2 for bad flags or a bad config file.

Flags:
`

// defaultConfigFile is where gmd run looks without -config or $GMD_CONFIG.
const defaultConfigFile = "/etc/gmd/judge.conf"

func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal, the default action is back: a second one
	// kills at once, for an operator who will not wait.
	context.AfterFunc(ctx, stop)
	return runCmd(ctx, args, stderr)
}

// runCmd is gmd run, stopped by the end of ctx rather than by a signal.
func runCmd(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd run", flag.ContinueOnError)
	file := fs.String("config", "", "the config `file` (default $GMD_CONFIG, else "+defaultConfigFile+")")
	if code, ok := parseFlags(fs, args, stderr, runUsage); !ok {
		return code
	}
	if *file == "" {
		*file = os.Getenv("GMD_CONFIG")
	}
	if *file == "" {
		*file = defaultConfigFile
	}
	cfg, err := daemon.LoadConfig(*file)
	if err != nil {
		printConfigError(stderr, "gmd run", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	if err := daemon.Run(ctx, cfg, log, daemonOptions()); err != nil {
		log.Error("gmd run stopped", "err", err)
		return 1
	}
	return 0
}

// printConfigError writes err, one line per mistake. A mistake with a
// line number is written bare, "judge.conf:7: ...", as compilers do, so
// that editors can jump to it.
func printConfigError(w io.Writer, cmd string, err error) {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		var ce *config.Error
		if errors.As(e, &ce) {
			fmt.Fprintln(w, ce)
		} else {
			fmt.Fprintf(w, "%s: %v\n", cmd, e)
		}
	}
}

// dkimLookup looks up the DNS TXT records of DKIM keys; nil is the
// system's resolver. Tests replace it, and never touch the network.
var dkimLookup func(name string) ([]string, error)

// daemonOptions are the daemon's options as cmd/gmd wires them: the
// pictures of package picture, and the DNS of dkimLookup.
func daemonOptions() daemon.Options {
	return daemon.Options{Pictures: mapPictures(), LookupTXT: dkimLookup}
}

// openJudge opens the judge cfg names (daemon.Open), with the pictures
// and the DNS of daemonOptions.
func openJudge(cfg *config.Config, open func(string) (*state.DB, error), log *slog.Logger) (*daemon.Judge, error) {
	opt := daemonOptions()
	j, err := daemon.Open(cfg, open, opt.Pictures, log)
	if err != nil {
		return nil, err
	}
	j.LookupTXT = opt.LookupTXT
	return j, nil
}
