package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/daemon"
	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/state"
)

func init() {
	commands["process"] = command{
		summary: "run one mail (RFC 5322, on standard input) through the judge",
		run:     runProcess,
	}
}

const processUsage = `usage: gmd process [-config judge.conf] [-db FILE] [-dry-run] [-now 2026-01-02T15:04:05Z] < message.eml

Runs one mail through the judge, as procmail or a .forward pipe would:
the commands and orders in it are applied and the replies queued, all in
one transaction. Without -config the judge is named GMD with the address
judge@localhost; -db overrides the config's database.

Mails sent by machines (bounces, vacation replies, mailing lists: see
Auto-Submitted, Precedence, List-Id, an empty Return-Path) and mails from
the judge's own address are not answered. A mail over the size limit
gets a short reply saying so. With require-sender-auth in the config, a
mail that fails it is not answered either, and not acted upon: its From
may be forged.

With an smtp block in the config, gmd process sends the replies (the
whole outbox) through that server before it exits, for up to 30
seconds: what the server defers waits for the next gmd process or gmd
tick, what it refuses for good stays for the admin (see gmd check).
Without one, the replies stay in the outbox for "gmd run". With -dry-run
they are written to standard output instead, and taken out of the outbox:
every reply as a complete RFC 5322 message, one copy per recipient, each
after a line "From <recipient>" and followed by a blank line, in the
style of an mbox file (LF line ends).

-now sets the judge's clock (RFC 3339); the default is the real time.

The database must exist (gmd init makes one): a missing or empty file
is not taken for a new judge.

A mail that fails for a reason of its own (a game it needs is damaged,
a bug it trips) is held in the database for the admin (see gmd held),
and its sender told.

Exit status, as a mail server reads it: 0 when the mail was handled,
deliberately ignored, refused with an answer, or held; 65 (EX_DATAERR)
when not even its header can be read; 75 (EX_TEMPFAIL) when the judge
could not take it (the configuration, a missing or damaged database, a
full disk, a database held by another process): the mail server keeps
the mail and tries again later, so that no player's orders are lost to a
judge's trouble; 2 for bad flags.

Flags:
`

// The exit statuses of sysexits.h that mail servers act upon.
const (
	exitDataErr  = 65 // the input is wrong: bounce
	exitTempFail = 75 // try again later
)

func runProcess(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		// bbolt panics on a damaged page. Whatever the cause, the mail
		// must not bounce for the judge's trouble: the mail server
		// keeps it for later, when the admin has restored the database.
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "gmd process: %v (is the database damaged? run gmd check)\n%s", v, debug.Stack())
			code = exitTempFail
		}
	}()
	fs := flag.NewFlagSet("gmd process", flag.ContinueOnError)
	var f pipeFlags
	f.register(fs)
	if code, ok := parseFlags(fs, args, stderr, processUsage); !ok {
		return code
	}
	j, err := f.open()
	if err != nil {
		fmt.Fprintf(stderr, "gmd process: %v\n", err)
		return exitTempFail
	}
	defer j.DB.Close()

	// The message is read up to one byte over the size limit: enough to
	// tell one over it, whose header is all that is read.
	raw, err := readLimited(stdin, j.Config.Limits.MaxMailSize)
	if err != nil {
		fmt.Fprintf(stderr, "gmd process: reading the mail: %v\n", err)
		return exitTempFail
	}
	res, err := j.Intake().Take(j.Master, mail.ReadDelivery(raw, int64(len(raw)), j.Config.Limits.MaxMailSize), f.now)
	if err != nil {
		// The judge's trouble, or a mail it could not even hold: the
		// mail server keeps the mail and brings it again later.
		fmt.Fprintf(stderr, "gmd process: %v\n", err)
		return exitTempFail
	}
	if !res.Routine {
		fmt.Fprintf(stderr, "gmd process: %s\n", res.Line)
	}
	if res.Unreadable {
		return exitDataErr
	}
	if err := j.Deliver(f.dryRun, f.now, stdout, stderr, "gmd process"); err != nil {
		fmt.Fprintf(stderr, "gmd process: %v\n", err)
		return exitTempFail
	}
	return 0
}

// readLimited reads r up to one byte over limit (all of it if limit <=
// 0): enough to tell a message over the limit.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	if limit > 0 {
		r = io.LimitReader(r, limit+1)
	}
	return io.ReadAll(r)
}

// pipeFlags are the flags that gmd process and gmd tick share.
type pipeFlags struct {
	config string
	db     string
	dryRun bool
	now    time.Time
}

func (f *pipeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "the config `file` (default: judge GMD <judge@localhost>)")
	fs.StringVar(&f.db, "db", "", "the database `file`, instead of the config's db")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the replies (mbox style) instead of sending them")
	registerNow(fs, &f.now)
}

// registerNow adds the -now flag, the judge's clock, to fs: now is set to
// the real time, and to the flag's time when it is given.
func registerNow(fs *flag.FlagSet, now *time.Time) {
	*now = time.Now().UTC()
	fs.Func("now", "the judge's clock, an RFC 3339 `time` such as 2026-01-02T15:04:05Z (default: the real time)", func(s string) error {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return errors.New("want a time like 2026-01-02T15:04:05Z")
		}
		*now = t.UTC()
		return nil
	})
}

// parseFlags parses args with usage as the help text. ok is false when
// the command must stop, with code as its status.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer, usage string) (code int, ok bool) {
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}

// open reads the configuration and opens the database and the master.
// The database must exist: pipe mode never makes a new judge, so that a
// lost or mistyped file does not swallow the mail (gmd init makes one).
func (f *pipeFlags) open() (*daemon.Judge, error) {
	cfg, err := loadConfig(f.config, f.db)
	if err != nil {
		return nil, err
	}
	// Pipe mode writes nothing on standard error when all went well:
	// cron would mail it to the admin at every tick, and an MTA may put
	// it in a bounce. The games' events are the daemon's log.
	return openJudge(cfg, state.OpenExisting, nil)
}

// dbFlags are the -config and -db flags of the commands that work on a
// judge's database (check, games, held, init, outbox, backup).
type dbFlags struct{ config, db *string }

// databaseFlags registers -config and -db on fs.
func databaseFlags(fs *flag.FlagSet) dbFlags {
	return dbFlags{
		config: fs.String("config", "", "the config `file` naming the database"),
		db:     fs.String("db", "", "the database `file`, instead of the config's db"),
	}
}

// load reads the config the flags name (loadConfig).
func (f dbFlags) load() (*config.Config, error) { return loadConfig(*f.config, *f.db) }

// configDefaults gives the config of a judge run without a config file
// (config.Defaults); the package's tests make its password hashes cheap.
var configDefaults = config.Defaults

// loadConfig reads the config file, or takes the defaults when there is
// none; a db path, if given, replaces the config's.
func loadConfig(file, db string) (*config.Config, error) {
	cfg := configDefaults()
	if file != "" {
		var err error
		if cfg, err = config.Load(file); err != nil {
			return nil, err
		}
	}
	if db != "" {
		cfg.DB = db
	}
	if cfg.DB == "" {
		return nil, errors.New("no database: give -db FILE, or db in the config file")
	}
	return cfg, nil
}
