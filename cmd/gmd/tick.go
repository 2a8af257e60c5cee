package main

import (
	"flag"
	"fmt"
	"io"
)

func init() {
	commands["tick"] = command{
		summary: "run the deadlines (reminders, processing, late notices) due at a time",
		run:     runTick,
	}
}

const tickUsage = `usage: gmd tick [-config judge.conf] [-db FILE] [-dry-run] [-now 2026-01-02T15:04:05Z]

Runs the judge's clock once at -now (default: the real time): every game
whose reminder, deadline, end of grace or late notice is due is dealt
with, in transactions of up to 50 games; a game that fails is dealt with
again in a transaction of its own, so that it holds up no other. With gmd
process, this runs whole games without the daemon, as from cron.

The mails it causes are sent as gmd process sends them: with the smtp
block of the config, the whole outbox, what gmd process could not send
included; without one, they stay in the outbox for "gmd run". With
-dry-run they are printed as gmd process -dry-run prints them (see gmd
process -h). Run from cron every minute, gmd tick is the clock and the
sending retry of a judge without gmd run.

Once a day it also prunes the ledger of handled mails, as gmd run does
(see ledger-retention in judge.conf.example).

Exit status: 0 when every due game was dealt with; 1 when some could not
be (each is named on standard error; the others were done, and their
mails are printed or queued); 2 for bad flags.

Flags:
`

func runTick(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd tick", flag.ContinueOnError)
	var f pipeFlags
	f.register(fs)
	if code, ok := parseFlags(fs, args, stderr, tickUsage); !ok {
		return code
	}
	j, err := f.open()
	if err != nil {
		fmt.Fprintf(stderr, "gmd tick: %v\n", err)
		return 1
	}
	defer j.DB.Close()

	status := 0
	if !j.Tick(f.now, stderr, "gmd tick") {
		status = 1
	}
	// What the games that went well queued goes out all the same.
	if err := j.Deliver(f.dryRun, f.now, stdout, stderr, "gmd tick"); err != nil {
		fmt.Fprintf(stderr, "gmd tick: %v\n", err)
		return 1
	}
	return status
}
