package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/export"
	"github.com/gmdjudge/gmd/session"
	"github.com/gmdjudge/gmd/state"
)

func init() {
	commands["export"] = command{
		summary: "write a whole game as one JSON document (docs/export.md)",
		run:     runExport,
	}
	commands["import"] = command{
		summary: "read a game's JSON export back into a new finished game, re-adjudicating it",
		run:     runImport,
	}
}

const exportUsage = `usage: gmd export [-config judge.conf | -db FILE] -game NAME [-o FILE]

Writes the game NAME as one JSON document (format "gmd-game", version 1;
docs/export.md): its variant, settings, every phase's position, orders as
written and canonical, results, its broadcast press and its result. It
holds what the game's observers can see only: no addresses, passwords or
private press, and nobody's identity. Without -o it writes to standard
output.

It reads the database as gmd games does: while the daemon runs, a
consistent copy taken through its control socket.

Exit status: 0; 1 when the game cannot be read or the file written; 2
for bad flags or a bad config file.

Flags:
`

func runExport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd export", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	name := fs.String("game", "", "the game to export")
	out := fs.String("o", "", "write to `file` rather than standard output")
	if code, ok := parseFlags(fs, args, stderr, exportUsage); !ok {
		return code
	}
	if *name == "" {
		fmt.Fprintln(stderr, "gmd export: -game is required")
		return 2
	}
	var data []byte
	if code := readGameData(dbf, "gmd export", stderr, func(tx *state.Tx) error {
		g, err := tx.Game(*name)
		if err != nil {
			return err
		}
		doc, err := export.Load(tx, g, engine.SettingsOf(g), export.Options{})
		if err != nil {
			return err
		}
		data, err = export.Marshal(doc)
		return err
	}); code != 0 {
		return code
	}
	if err := writeOutput(*out, data, stdout); err != nil {
		fmt.Fprintf(stderr, "gmd export: %v\n", err)
		return 1
	}
	return 0
}

const importUsage = `usage: gmd import [-config judge.conf | -db FILE] -in FILE [-game NAME]

Reads a game written by gmd export into a new finished game in the
database, named NAME (1 to 12 letters and digits; the exported game's
name by default). Before anything is stored, every phase is adjudicated
again from the first position with the recorded canonical orders; the
first phase whose orders, results or next position disagree with the
file is named and nothing is imported. The new game has no players'
addresses or passwords: it is there to be read (HISTORY, the web page)
and exported again.

The daemon must not be running: gmd import writes the database itself.

Exit status: 0; 1 when the file is refused or the database cannot be
written; 2 for bad flags or a bad config file.

Flags:
`

func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd import", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	in := fs.String("in", "", "the exported game (JSON); - for standard input")
	name := fs.String("game", "", "the new game's `name` (default: the exported game's)")
	if code, ok := parseFlags(fs, args, stderr, importUsage); !ok {
		return code
	}
	if *in == "" {
		fmt.Fprintln(stderr, "gmd import: -in is required")
		return 2
	}
	cfg, err := dbf.load()
	if err != nil {
		fmt.Fprintf(stderr, "gmd import: %v\n", err)
		return 2
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "gmd import: "+format+"\n", args...)
		return 1
	}
	src, source := stdin, "standard input"
	if *in != "-" {
		source = *in
		f, err := os.Open(*in)
		if err != nil {
			return fail("%v", err)
		}
		defer f.Close()
		src = f
	}
	data, err := readLimited(src, maxImport)
	if err != nil {
		return fail("%v", err)
	}
	if len(data) > maxImport {
		return fail("%s is over %d MB", source, maxImport>>20)
	}
	doc, err := export.Unmarshal(data)
	if err != nil {
		return fail("%s: %v", source, err)
	}
	if *name == "" {
		*name = doc.Name
	}
	*name = strings.ToLower(*name)
	if !session.ValidGameName(*name) {
		return fail("%q is not a game name (1 to 12 letters and digits)", *name)
	}
	if err := export.Check(doc); err != nil {
		return fail("%s: %v; nothing imported", source, err)
	}
	db, err := state.OpenExisting(cfg.DB)
	if err != nil {
		return fail("%v", err)
	}
	defer db.Close()
	g, recs, press, turns := export.Records(doc, *name)
	err = db.Update(func(tx *state.Tx) error {
		if has, err := tx.HasGame(g.Name); err != nil {
			return err
		} else if has {
			return fmt.Errorf("there is already a game %s (choose another name with -game)", g.Name)
		}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		for _, r := range recs {
			if err := tx.PutPhase(g.Name, r); err != nil {
				return err
			}
		}
		for i, p := range press {
			if err := tx.AddPress(g.Name, turns[i], p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "imported %s: %s, %d phases, checked phase by phase\n", g.Name, g.Variant, len(recs))
	return 0
}

// maxImport bounds the file gmd import reads: a long game on a big
// board is a few MB.
const maxImport = 64 << 20
