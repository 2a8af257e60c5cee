package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gmdjudge/gmd/state"
)

func init() {
	commands["init"] = command{
		summary: "create a new, empty judge database",
		run:     runInit,
	}
}

const initUsage = `usage: gmd init [-config judge.conf | -db FILE]

Creates a new judge database, with no games, at the config's db or FILE.
The file must not exist, not even empty: gmd init never replaces a
judge. gmd process, gmd tick and gmd outbox open only a database that
exists, so that a lost or mistyped file is not taken for a new judge and
the mail that arrives is not lost in it; gmd run makes the database
itself the first time it starts, when there is no file at all.

An empty (0-byte) file is a damaged one, a copy or a restore that went
wrong: every gmd command refuses it. Restore the latest backup that gmd
check finds sound, or, for a new judge, remove the file and run gmd init.

Exit status: 0 when the database was created; 1 when it could not be
(the file exists, or the directory cannot be written); 2 for bad flags
or a bad config file.

Flags:
`

func runInit(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd init", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	if code, ok := parseFlags(fs, args, stderr, initUsage); !ok {
		return code
	}
	cfg, err := dbf.load()
	if err != nil {
		fmt.Fprintf(stderr, "gmd init: %v\n", err)
		return 2
	}
	db, err := state.Create(cfg.DB)
	if err != nil {
		fmt.Fprintf(stderr, "gmd init: %v\n", err)
		return 1
	}
	if err := db.Close(); err != nil {
		fmt.Fprintf(stderr, "gmd init: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "created the judge database %s\n", cfg.DB)
	return 0
}
