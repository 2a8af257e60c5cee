package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/session"
	"github.com/gmdjudge/gmd/view"
)

func init() {
	commands["games"] = command{
		summary: "list the games: phase, deadline, players, late and abandoned seats",
		run:     runGames,
	}
}

const gamesUsage = `usage: gmd games [-config judge.conf | -db FILE] [-now 2026-01-02T15:04:05Z]

Lists the judge's games, one a line: the variant, the current phase, the
status (with the result of a finished game), the deadline of the current
phase in UTC, how many seats a player holds (how many have joined, while
the game forms), and the powers that hold the game up: late (orders
missing after the deadline, counted at -now), abandoned (free for
takeover; a NoNMR game waits for them) and in civil disorder. A last
line counts the mails in the outbox, queued and refused for good (gmd
outbox lists them), and the mails held back for the admin (gmd held
lists them).

It reads the database as gmd check does: while the daemon runs, a
consistent copy taken through its control socket; otherwise the file
itself, without changing it.

Exit status: 0; 1 when the database cannot be read; 2 for bad flags or a
bad config file.

Flags:
`

func runGames(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd games", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	var now time.Time
	registerNow(fs, &now)
	if code, ok := parseFlags(fs, args, stderr, gamesUsage); !ok {
		return code
	}
	cfg, err := dbf.load()
	if err != nil {
		fmt.Fprintf(stderr, "gmd games: %v\n", err)
		return 2
	}
	db, err := openSnapshot(cfg.DB, "gmd games: reading", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "gmd games: %v\n", err)
		return 1
	}
	defer db.Close()
	games, err := session.New(db.DB, engine.Config{}).Overview(now)
	if err != nil {
		fmt.Fprintf(stderr, "gmd games: %v\n", err)
		return 1
	}
	n, err := census(db.DB)
	if err != nil {
		fmt.Fprintf(stderr, "gmd games: %v\n", err)
		return 1
	}
	writeGames(stdout, games)
	fmt.Fprintf(stdout, "\noutbox: %d queued, %d refused for good\nheld mails: %d\n", n.queued, len(n.failed), len(n.held))
	return 0
}

// writeGames writes the table of gmd games.
func writeGames(w io.Writer, games []view.GameOverview) {
	if len(games) == 0 {
		fmt.Fprintln(w, "no games")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tVARIANT\tPHASE\tSTATUS\tDEADLINE (UTC)\tPLAYERS\tLATE\tABANDONED\tCIVIL DISORDER")
	for _, g := range games {
		status := string(g.Status)
		if g.Result != "" {
			status += ": " + g.Result
		}
		deadline := "-"
		if !g.Deadline.IsZero() {
			deadline = g.Deadline.UTC().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\n",
			g.Name, g.Variant, g.Phase, status, deadline, g.Players, g.Seats,
			powerList(g.Late), powerList(g.Abandoned), powerList(g.Disorder))
	}
	tw.Flush()
}

// powerList writes powers as "France,Italy", or "-" for none.
func powerList(powers []string) string {
	if len(powers) == 0 {
		return "-"
	}
	return strings.Join(powers, ",")
}
