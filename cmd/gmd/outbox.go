package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gmdjudge/gmd/ctl"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

func init() {
	commands["outbox"] = command{
		summary: "list the mails waiting to be sent; send again or drop those refused",
		run:     runOutbox,
	}
}

const outboxUsage = `usage: gmd outbox [-config judge.conf | -db FILE] [list]
       gmd outbox [-config judge.conf | -db FILE] retry ID... | -all-failed
       gmd outbox [-config judge.conf | -db FILE] drop ID...

Shows the judge's outbox, or acts on it. While the daemon runs it holds
the database, so gmd outbox asks it through its control socket (the
database's path with ".sock" added), as gmd backup does; otherwise it
opens the database itself.

  list    (the default) every mail waiting to be sent: its ID, how long
          it has waited, how many tries it had, whether it is due, waits
          for a retry or was refused for good by the SMTP server (a 5xx
          reply), its recipients and subject, and the last error.
  retry   puts the mails back in the queue as new: one refused for good
          is tried again, one waiting for a retry is tried at once. With
          -all-failed, every mail refused for good. The running daemon
          sends them at once; without it, gmd run does when it starts.
  drop    removes the mails from the outbox: they are never sent.

Several IDs are done together or not at all: an ID that is not in the
outbox changes nothing. Fix the cause first (a recipient's address that
no longer works, a server that refused the judge's mail): a mail tried
again is refused again for the same reason.

Exit status: 0 when done; 1 when the database cannot be read or changed,
or an ID is not in the outbox; 2 for bad flags, an unknown subcommand or
a malformed ID.

Flags:
`

func runOutbox(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd outbox", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	allFailed := fs.Bool("all-failed", false, "with retry: every mail the SMTP server refused for good")
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, outboxUsage)
		fs.PrintDefaults()
	}
	parse := func(args []string) (code int, ok bool) {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return 0, false
			}
			return 2, false
		}
		return 0, true
	}
	if code, ok := parse(args); !ok {
		return code
	}
	verb, rest := "list", fs.Args()
	if len(rest) > 0 {
		// Flags may follow the subcommand too: retry -all-failed.
		verb = rest[0]
		if code, ok := parse(rest[1:]); !ok {
			return code
		}
		rest = fs.Args()
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gmd outbox: "+format+"\n", a...)
		return 2
	}
	ids, err := ctl.ParseMailIDs(rest)
	switch {
	case verb != "list" && verb != "retry" && verb != "drop":
		return usageErr("unknown subcommand %q: want list, retry or drop", verb)
	case err != nil:
		return usageErr("%v", err)
	case *allFailed && verb != "retry":
		return usageErr("-all-failed goes with retry only")
	case verb == "list" && len(ids) > 0:
		return usageErr("list takes no mail IDs")
	case verb == "retry" && *allFailed && len(ids) > 0:
		return usageErr("retry takes mail IDs or -all-failed, not both")
	case verb == "retry" && !*allFailed && len(ids) == 0:
		return usageErr("retry needs mail IDs, or -all-failed")
	case verb == "drop" && len(ids) == 0:
		return usageErr("drop needs mail IDs")
	}
	cfg, err := dbf.load()
	if err != nil {
		return usageErr("%v", err)
	}

	sock := ctl.SocketPath(cfg.DB)
	switch verb {
	case "list":
		mails, err := ctl.Outbox(sock)
		if errors.Is(err, ctl.ErrNoServer) {
			mails, err = readOutbox(cfg.DB)
		}
		if err != nil {
			fmt.Fprintf(stderr, "gmd outbox: %v\n", err)
			return 1
		}
		listOutbox(stdout, mails, time.Now())
	case "retry":
		done, err := ctl.Retry(sock, ids, *allFailed)
		who := "the running daemon sends %s now"
		if errors.Is(err, ctl.ErrNoServer) {
			err = changeOutbox(cfg.DB, func(db *state.DB) (err error) {
				done, err = db.RetryOutMails(ids, *allFailed)
				return err
			})
			who = "gmd run sends %s when it starts"
		}
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "gmd outbox: %v; nothing was changed\n", err)
			return 1
		case len(done) == 0:
			fmt.Fprintln(stdout, "no mail was refused for good: nothing to queue again")
		default:
			fmt.Fprintf(stdout, "queued again: %s %s; "+who+"\n",
				report.Plural(len(done), "mail", "mails"), joinIDs(done), report.Plural(len(done), "it", "them"))
		}
	case "drop":
		n, err := ctl.Drop(sock, ids)
		if errors.Is(err, ctl.ErrNoServer) {
			err = changeOutbox(cfg.DB, func(db *state.DB) (err error) {
				n, err = db.DropOutMails(ids)
				return err
			})
		}
		if err != nil {
			fmt.Fprintf(stderr, "gmd outbox: %v; nothing was changed\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "dropped: %d %s\n", n, report.Plural(n, "mail", "mails"))
	}
	return 0
}

// joinIDs writes IDs as "2, 3 and 7".
func joinIDs(ids []uint64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatUint(id, 10)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// readOutbox reads the outbox of the database at path when no daemon
// holds it, read-only: listing must change nothing.
func readOutbox(path string) ([]*state.OutMail, error) {
	db, err := state.OpenReadOnly(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var mails []*state.OutMail
	err = db.View(func(tx *state.Tx) error {
		var err error
		mails, err = tx.Outbox(0)
		return err
	})
	return mails, err
}

// changeOutbox opens the database at path when no daemon holds it, and
// runs change on it. A missing file is an error, not a new database.
func changeOutbox(path string, change func(*state.DB) error) error {
	db, err := state.OpenExisting(path)
	if err != nil {
		return err
	}
	defer db.Close()
	return change(db)
}

// listOutbox writes the outbox as a table, one mail a line, the last
// error of a mail on a line of its own below it, then a count.
func listOutbox(w io.Writer, mails []*state.OutMail, now time.Time) {
	if len(mails) == 0 {
		fmt.Fprintln(w, "the outbox is empty")
		return
	}
	// The rows are aligned on their own: a line without cells between
	// them would make tabwriter start its columns afresh.
	var rows bytes.Buffer
	tw := tabwriter.NewWriter(&rows, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tAGE\tTRIES\tSTATE\tTO\tSUBJECT")
	notes := make([]string, len(mails))
	var due, waiting, failed int
	for i, m := range mails {
		st := "due"
		switch {
		case m.Failed != "":
			st = "failed"
			failed++
			notes[i] = "refused for good: " + oneLineText(m.Failed)
		case m.NextTry.After(now):
			st = "retry in " + approxAge(m.NextTry.Sub(now))
			waiting++
		default:
			due++
		}
		if notes[i] == "" && m.LastError != "" {
			notes[i] = "last try: " + oneLineText(m.LastError)
		}
		age := "?"
		if !m.Created.IsZero() {
			age = approxAge(now.Sub(m.Created))
		}
		// Quoted, so that the table stays a table whatever a subject
		// holds.
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\n", m.ID, age, m.Attempts, st,
			recipients(m.To), strconv.Quote(m.Subject))
	}
	tw.Flush()
	lines := strings.SplitAfter(rows.String(), "\n")
	io.WriteString(w, lines[0])
	for i, note := range notes {
		io.WriteString(w, lines[i+1])
		if note != "" {
			fmt.Fprintf(w, "    %s\n", note)
		}
	}
	fmt.Fprintf(w, "%s: %d due, %d waiting for a retry, %d refused for good\n",
		report.Plural(len(mails), "1 mail", fmt.Sprintf("%d mails", len(mails))), due, waiting, failed)
}

// recipients writes the first recipients of a mail, and how many more:
// a game's results go to every player and observer, and the table would
// be as wide as they are many.
func recipients(to []string) string {
	const shown = 2
	if len(to) <= shown+1 {
		return strings.Join(to, ", ")
	}
	return fmt.Sprintf("%s (+%d)", strings.Join(to[:shown], ", "), len(to)-shown)
}

// oneLineText puts a server's answer, which may span lines, on one.
func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// approxAge writes a duration as a person reads it: 40s, 12m, 5h, 3d.
func approxAge(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(int(d/time.Second), 0))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}
