package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/ctl"
	"github.com/gmdjudge/gmd/internal/textsafe"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

func init() {
	commands["held"] = command{
		summary: "list the mails held for a fault of their own; run them again or drop them",
		run:     runHeld,
	}
}

const heldUsage = `usage: gmd held [-config judge.conf | -db FILE] [list]
       gmd held [-config judge.conf | -db FILE] retry ID...
       gmd held [-config judge.conf | -db FILE] drop ID...

A mail the judge could not handle for a reason of its own (a game it
needs is damaged, a value it could not store, a bug it trips) is held:
kept whole in the database with its error, its sender told, while the
mails after it are handled. gmd check lists them too. A failure of the
judge's own (a full disk, a database held by another process) holds no
mail: the mail waits and is tried again, in order.

While the daemon runs it holds the database, so gmd held asks it through
its control socket, as gmd outbox does; otherwise it opens the database
itself.

  list    (the default) every held mail: its ID, when it was held, how
          many times it failed, its sender and subject, and the last
          error, in full.
  retry   runs each mail again, as if it had just come, once the cause
          is fixed (a backup restored, gmd upgraded): one that goes
          through gets its usual answer and is held no more; one that
          fails again stays held with the new error.
  drop    removes the mails: they are never handled.

Exit status: 0 when done, and every mail retried went through; 1 when
the database cannot be read or changed, an ID is not held, or a mail
retried failed again; 2 for bad flags, an unknown subcommand or a
malformed ID.

Flags:
`

func runHeld(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd held", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, heldUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	verb, rest := "list", fs.Args()
	if len(rest) > 0 {
		verb, rest = rest[0], rest[1:]
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gmd held: "+format+"\n", a...)
		return 2
	}
	ids, err := ctl.ParseMailIDs(rest)
	switch {
	case verb != "list" && verb != "retry" && verb != "drop":
		return usageErr("unknown subcommand %q: want list, retry or drop", verb)
	case err != nil:
		return usageErr("%v", err)
	case verb == "list" && len(ids) > 0:
		return usageErr("list takes no mail IDs")
	case verb != "list" && len(ids) == 0:
		return usageErr("%s needs mail IDs", verb)
	}
	cfg, err := dbf.load()
	if err != nil {
		return usageErr("%v", err)
	}
	sock := ctl.SocketPath(cfg.DB)
	switch verb {
	case "list":
		mails, err := ctl.Held(sock)
		if errors.Is(err, ctl.ErrNoServer) {
			mails, err = readHeld(cfg.DB)
		}
		if err != nil {
			fmt.Fprintf(stderr, "gmd held: %v\n", err)
			return 1
		}
		listHeld(stdout, mails)
	case "retry":
		results, err := ctl.RetryHeld(sock, ids)
		if errors.Is(err, ctl.ErrNoServer) {
			results, err = retryHeldHere(cfg, ids)
		}
		if err != nil {
			fmt.Fprintf(stderr, "gmd held: %v\n", err)
			return 1
		}
		status := 0
		for _, r := range results {
			if r.Handled {
				fmt.Fprintf(stdout, "held mail %d: handled; its answer is queued\n", r.ID)
			} else {
				fmt.Fprintf(stdout, "held mail %d: not handled: %s\n", r.ID, firstLine(r.Error))
				status = 1
			}
		}
		return status
	case "drop":
		n, err := ctl.DropHeld(sock, ids)
		if errors.Is(err, ctl.ErrNoServer) {
			err = changeOutbox(cfg.DB, func(db *state.DB) (err error) {
				n, err = db.DropHeldMails(ids)
				return err
			})
		}
		if err != nil {
			fmt.Fprintf(stderr, "gmd held: %v; nothing was changed\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "dropped: %d held %s\n", n, report.Plural(n, "mail", "mails"))
	}
	return 0
}

// readHeld reads the held mails of the database at path when no daemon
// holds it, read-only.
func readHeld(path string) ([]*state.HeldMail, error) {
	db, err := state.OpenReadOnly(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var mails []*state.HeldMail
	err = db.View(func(tx *state.Tx) (err error) {
		mails, err = tx.HeldMails()
		return err
	})
	return mails, err
}

// retryHeldHere runs held mails again on the database when no daemon
// holds it, with the judge the config describes; the answers wait in
// the outbox for gmd run (or the next gmd process).
func retryHeldHere(cfg *config.Config, ids []uint64) ([]ctl.HeldRetry, error) {
	j, err := openJudge(cfg, state.OpenExisting, nil)
	if err != nil {
		return nil, err
	}
	defer j.DB.Close()
	return ctl.RetryEach(ids, func(id uint64) (cause, err error) {
		return j.Master.RetryHeld(id, time.Now().UTC())
	}), nil
}

// listHeld writes the held mails, each with its error in full below it.
func listHeld(w io.Writer, mails []*state.HeldMail) {
	if len(mails) == 0 {
		fmt.Fprintln(w, "no mail is held")
		return
	}
	for _, m := range mails {
		// The sender's words reach the admin's terminal: quoted, or
		// cleaned of what would act on it (an escape sequence).
		fmt.Fprintf(w, "held mail %d, held %s, %d %s, from %s: %s\n", m.ID, m.Held.UTC().Format(time.RFC3339),
			m.Tries, report.Plural(m.Tries, "try", "tries"), textsafe.Clean(m.From), strconv.Quote(m.Subject))
		fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(strings.TrimRight(textsafe.Clean(m.Error), "\n"), "\n", "\n    "))
	}
	fmt.Fprintf(w, "%s held. Once the cause is fixed, gmd held retry ID runs one again; gmd held drop ID drops it.\n",
		report.Plural(len(mails), "1 mail", fmt.Sprintf("%d mails", len(mails))))
}

// firstLine is the first line of s.
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
