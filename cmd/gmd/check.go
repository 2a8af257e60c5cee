package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/ctl"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
)

func init() {
	commands["check"] = command{
		summary: "verify the database; list the mails refused for good, and those held",
		run:     runCheck,
	}
}

const checkUsage = `usage: gmd check [-config judge.conf | -db FILE]

Verifies the judge's database without changing it: every page (both meta
pages, saying when bbolt fell back to the older one; every page of the
tree once; the freelist), read so that no damage can crash it, then every
record's checksum, every record read back and checked against its key, the
wake index against the games, the history against the games, every
stored position decoded (the current one and each processed phase's),
the outbox and the ledger. While the daemon runs it holds the database, so gmd check
has it send a consistent copy through its control socket, as gmd backup
does, and checks the copy.

It prints "ok: N games, M phases, K queued mails" when all is well, else
each problem found. Either way it then lists the mails that the SMTP
server refused for good (a 5xx reply): they wait in the outbox for the
admin, each with the server's answer, and are not tried again unless
gmd outbox retry puts them back in the queue (gmd outbox drop removes
them). Then it lists the incoming mails held for a fault of their own
(see gmd held), each with its error.

Exit status: 0 when the database is sound (mails refused for good are
not a fault of the database); 1 when it has problems, or cannot be read
as a gmd database at all (damaged, not a gmd database, missing, or held
by another process); 2 for bad flags or a bad config file.

Flags:
`

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd check", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	if code, ok := parseFlags(fs, args, stderr, checkUsage); !ok {
		return code
	}
	cfg, err := dbf.load()
	if err != nil {
		fmt.Fprintf(stderr, "gmd check: %v\n", err)
		return 2
	}

	db, err := openSnapshot(cfg.DB, "gmd check: checking", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "gmd check: %v\n", err)
		return 1
	}
	defer db.Close()

	status := 0
	err = db.Check()
	var ce *state.CheckError
	if err == nil || errors.As(err, &ce) {
		// What only the game master can read: the positions.
		var more []string
		verr := db.View(func(tx *state.Tx) (err error) {
			more, err = engine.CheckGames(tx)
			return err
		})
		if verr != nil {
			more = append(more, "games: "+verr.Error())
		}
		if len(more) > 0 {
			if ce == nil {
				ce = &state.CheckError{}
			}
			ce.Problems = append(ce.Problems, more...)
			err = ce
		}
	}
	switch {
	case errors.As(err, &ce):
		ce.Path = cfg.DB // not the copy's name
		fmt.Fprintln(stdout, ce)
		status = 1
	case err != nil:
		fmt.Fprintf(stderr, "gmd check: %v\n", err)
		return 1
	}

	n, err := census(db.DB)
	switch {
	case err != nil && status == 0:
		// Check passed, so this is no damage it knows: say so all the
		// same.
		fmt.Fprintf(stdout, "%s: %v\n", cfg.DB, err)
		status = 1
	case err == nil && status == 0:
		fmt.Fprintf(stdout, "ok: %d %s, %d %s, %d queued %s\n",
			n.games, report.Plural(n.games, "game", "games"), n.phases, report.Plural(n.phases, "phase", "phases"),
			n.queued, report.Plural(n.queued, "mail", "mails"))
	}
	// The refused mails are worth listing even in a damaged database,
	// as far as it can be read.
	if len(n.failed) > 0 {
		fmt.Fprintf(stdout, "\n%d %s refused for good by the SMTP server, kept in the outbox for the admin:\n",
			len(n.failed), report.Plural(len(n.failed), "mail", "mails"))
		for _, m := range n.failed {
			fmt.Fprintf(stdout, "  mail %d, queued %s, to %s: %q\n    %s\n",
				m.ID, m.Created.UTC().Format(time.RFC3339), strings.Join(m.To, ", "), m.Subject, m.Failed)
		}
		fmt.Fprintln(stdout, "Once the cause is fixed, gmd outbox retry ID sends one again; gmd outbox drop ID removes it.")
	}
	if len(n.held) > 0 {
		fmt.Fprintf(stdout, "\n%d incoming %s held for a fault of %s own, kept for the admin:\n",
			len(n.held), report.Plural(len(n.held), "mail", "mails"), report.Plural(len(n.held), "its", "their"))
		for _, m := range n.held {
			fmt.Fprintf(stdout, "  held mail %d, held %s, from %s: %q\n    %s\n",
				m.ID, m.Held.UTC().Format(time.RFC3339), m.From, m.Subject, firstLine(m.Error))
		}
		fmt.Fprintln(stdout, "Once the cause is fixed, gmd held retry ID runs one again; gmd held drop ID drops it; gmd held list shows the errors in full.")
	}
	return status
}

// counts is what gmd check counts in a database.
type counts struct {
	games, phases, queued int
	failed                []*state.OutMail // refused for good
	held                  []*state.HeldMail
}

// census counts the games, their processed phases and the queued mails,
// and lists the mails that failed for good. It stops at the first record
// it cannot read, with what it found so far; a damaged page, on which
// bbolt panics or faults, is such a record.
func census(db *state.DB) (n counts, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("cannot be read: %v", v)
		}
	}()
	err = db.View(func(tx *state.Tx) error {
		mails, err := tx.Outbox(0)
		if err != nil {
			return err
		}
		n.queued = len(mails)
		for _, m := range mails {
			if m.Failed != "" {
				n.failed = append(n.failed, m)
			}
		}
		if n.held, err = tx.HeldMails(); err != nil {
			return err
		}
		return tx.ForEachGame(func(g *state.Game) error {
			n.games++
			k, err := tx.CountPhases(g.Name)
			n.phases += k
			return err
		})
	})
	return n, err
}

// snapshot is a database opened read-only by openSnapshot; Close also
// removes the copy taken through the daemon, if it is one.
type snapshot struct {
	*state.DB
	cleanup func()
}

// Close closes the database and removes the copy.
func (s *snapshot) Close() error {
	err := s.DB.Close()
	s.cleanup()
	return err
}

// openSnapshot opens the database at dbPath read-only, as gmd check and
// gmd games read it: a consistent copy taken through the control socket
// while a daemon holds the database, and the file itself otherwise. When
// it reads a copy, it says so on stderr after what ("gmd games: reading").
func openSnapshot(dbPath, what string, stderr io.Writer) (*snapshot, error) {
	path, cleanup, err := checkCopy(dbPath)
	if err != nil {
		return nil, err
	}
	if path != dbPath {
		fmt.Fprintf(stderr, "%s a copy of %s taken through the running daemon\n", what, dbPath)
	}
	db, err := state.OpenReadOnly(path)
	if err != nil {
		cleanup()
		return nil, err
	}
	return &snapshot{DB: db, cleanup: cleanup}, nil
}

// checkCopy returns the file gmd check should read for the database at
// dbPath: a consistent copy taken through the control socket while a
// daemon holds the database, else the database itself. cleanup removes
// the copy.
func checkCopy(dbPath string) (path string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "gmd-check-")
	if err != nil {
		// The database itself, then: OpenReadOnly will say whether a
		// daemon holds it.
		return dbPath, func() {}, nil
	}
	cleanup = func() { os.RemoveAll(dir) }
	copyPath := filepath.Join(dir, "gmd.db")
	_, err = viaDaemon(ctl.SocketPath(dbPath), copyPath)
	switch {
	case errors.Is(err, ctl.ErrNoServer):
		return dbPath, cleanup, nil
	case err != nil:
		cleanup()
		return "", nil, fmt.Errorf("taking a copy through the running daemon: %w", err)
	}
	return copyPath, cleanup, nil
}
