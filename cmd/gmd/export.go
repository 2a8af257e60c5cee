package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/export"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/report"
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

const exportUsage = `usage: gmd export [-config judge.conf | -db FILE] -game NAME [-format gmd|mila] [-o FILE]

Writes the game NAME as one JSON document (format "gmd-game", version 1;
docs/export.md): its variant, settings, every phase's position, orders as
written and canonical, results, its broadcast press and its result. It
holds what the game's observers can see only: no addresses, passwords or
private press, and nobody's identity. Without -o it writes to standard
output.

-format mila writes it in the saved-game format of MILA's diplomacy
package instead, which the Diplomacy research tools read: each phase's
board, orders and result codes in MILA's words, and the broadcasts of
the powers and the master. MILA has the boards standard, pure,
ancient-mediterranean, fleet-rome, france-austria and italy-germany.

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
	format := fs.String("format", export.FormatGMD, "the document's `format`: gmd (gmd's own) or mila (MILA's saved game)")
	if code, ok := parseFlags(fs, args, stderr, exportUsage); !ok {
		return code
	}
	if *format != export.FormatGMD && *format != export.FormatMILA {
		fmt.Fprintf(stderr, "gmd export: -format %s: want gmd or mila\n", *format)
		return 2
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
		if *format == export.FormatMILA {
			mg, err := export.ToMILA(doc)
			if err != nil {
				return err
			}
			data, err = export.MarshalMILA(mg)
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
       [-format auto|gmd|mila|godip] [-variant NAME] [-rules datc-3.0|datc-2.4] [-check]

Reads a game into a new finished game in the database, named NAME (1 to
12 letters and digits; by default the game's own name, MILA's id, or the
godip file's name). The file is one of:

  gmd    a game written by gmd export;
  mila   a saved game of MILA's diplomacy package (a .json file, or the
         first game of a .jsonl file), on a board both have;
  godip  a recorded game of godip (variants/*/games/game_N.txt); it does
         not name its board: give -variant.

-format auto (the default) tells them apart. Before anything is stored,
every phase is adjudicated again: gmd's own export with its recorded
orders against its recorded results and positions; MILA's and godip's
games from their first board, each phase's orders played by gmd's rules
(-rules) and the board gmd reaches compared with the board the other
engine recorded next. The first phase that disagrees is named, with
what each engine has, and nothing is imported. -check stops there: it
reads no database and stores nothing, to compare gmd with another engine.
The new game has no players' addresses or passwords: it is there to be
read (HISTORY, the web page) and exported again.

The daemon must not be running: gmd import writes the database itself.

Exit status: 0; 1 when the file is refused, disagrees, or the database
cannot be written; 2 for bad flags or a bad config file.

Flags:
`

func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd import", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	in := fs.String("in", "", "the game's file; - for standard input")
	name := fs.String("game", "", "the new game's `name` (default: the game's own)")
	format := fs.String("format", "auto", "the file's `format`: auto, gmd, mila or godip")
	variant := fs.String("variant", "", "the `board` of a godip game ("+strings.Join(export.GodipBoards(), ", ")+")")
	ruleName := fs.String("rules", "", "the `rules` MILA's and godip's games are played again by: datc-3.0 (the default) or datc-2.4")
	check := fs.Bool("check", false, "check the game against gmd only: read no database, store nothing")
	if code, ok := parseFlags(fs, args, stderr, importUsage); !ok {
		return code
	}
	if *in == "" {
		fmt.Fprintln(stderr, "gmd import: -in is required")
		return 2
	}
	rules, err := judge.RulesByName(*ruleName)
	if err != nil {
		fmt.Fprintf(stderr, "gmd import: -rules: %v\n", err)
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
	if *format == "auto" {
		if *format, err = export.DetectFormat(data); err != nil {
			return fail("%s: %v", source, err)
		}
	}
	if *format != export.FormatGodip && *variant != "" {
		fmt.Fprintf(stderr, "gmd import: -variant is for godip's games, which do not name their board\n")
		return 2
	}
	var doc *export.Game
	switch *format {
	case export.FormatGMD:
		if doc, err = export.Unmarshal(data); err == nil && *name == "" {
			*name = doc.Name
		}
	case export.FormatMILA:
		var mg *export.MILA
		if mg, err = export.UnmarshalMILA(data); err == nil {
			if *name == "" {
				*name = mg.ID
			}
			*name = strings.ToLower(*name)
			if !*check && !session.ValidGameName(*name) {
				return fail("%q is not a game name (1 to 12 letters and digits): give one with -game", *name)
			}
			doc, err = export.FromMILA(mg, *name, rules, engine.ResultsText)
		}
	case export.FormatGodip:
		if *variant == "" {
			fmt.Fprintf(stderr, "gmd import: a godip game does not name its board: give -variant (%s)\n", strings.Join(export.GodipBoards(), ", "))
			return 2
		}
		if *name == "" && *in != "-" {
			*name = gameNameOf(filepath.Base(*in))
		}
		*name = strings.ToLower(*name)
		if !*check && !session.ValidGameName(*name) {
			return fail("%q is not a game name (1 to 12 letters and digits): give one with -game", *name)
		}
		doc, err = export.FromGodip(data, *variant, *name, rules, engine.ResultsText, time.Now())
	default:
		fmt.Fprintf(stderr, "gmd import: -format %s: want auto, gmd, mila or godip\n", *format)
		return 2
	}
	if err != nil {
		if *check {
			return fail("%s: %v", source, err)
		}
		return fail("%s: %v; nothing imported", source, err)
	}
	*name = strings.ToLower(*name)
	if !*check && !session.ValidGameName(*name) {
		return fail("%q is not a game name (1 to 12 letters and digits)", *name)
	}
	if err := export.Check(doc); err != nil {
		if *check {
			return fail("%s: %v", source, err)
		}
		return fail("%s: %v; nothing imported", source, err)
	}
	if *check {
		fmt.Fprintf(stdout, "checked %s (%s, %s): %d %s played again, gmd agrees with every one\n",
			source, *format, doc.Variant, len(doc.Phases), report.Plural(len(doc.Phases), "phase", "phases"))
		return 0
	}
	cfg, err := dbf.load()
	if err != nil {
		fmt.Fprintf(stderr, "gmd import: %v\n", err)
		return 2
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

// gameNameOf makes a game name of a file name: its letters and digits
// before the extension, at most 12 ("game_1.txt" gives game1).
func gameNameOf(file string) string {
	base := strings.TrimSuffix(file, filepath.Ext(file))
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if b.Len() < 12 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// maxImport bounds the file gmd import reads: a long game on a big
// board is a few MB.
const maxImport = 64 << 20
