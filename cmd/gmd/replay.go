package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

func init() {
	commands["replay"] = command{
		summary: "draw a whole game as an animated GIF: each phase with its orders, then the result",
		run:     runReplay,
	}
}

const replayUsage = `usage: gmd replay [-config judge.conf | -db FILE] -game NAME [-o game.gif]

Draws the game NAME as an animated GIF: a title frame, each phase played
with its orders and their outcomes (re-adjudicated from the history, as
the results mails and web pages draw them), the board after the last
phase, and the result with each power's centres. Each phase shows for
1.5 seconds, the result for 6. A game still running is drawn up to its
current phase.

The GIF goes to the -o file, or to standard output. It reads the
database as gmd games does: while the daemon runs, a consistent copy
taken through its control socket.

Exit status: 0; 1 when the database or the game cannot be read or
drawn; 2 for bad flags or a bad config file.

Flags:
`

func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd replay", flag.ContinueOnError)
	dbf := databaseFlags(fs)
	name := fs.String("game", "", "the game's `name`")
	outFile := fs.String("o", "", "write the GIF to `file` rather than standard output")
	if code, ok := parseFlags(fs, args, stderr, replayUsage); !ok {
		return code
	}
	if *name == "" {
		fmt.Fprintln(stderr, "gmd replay: -game is required")
		return 2
	}
	var (
		g    *state.Game
		recs []*state.PhaseRecord
	)
	if code := readGameData(dbf, "gmd replay", stderr, func(tx *state.Tx) error {
		var err error
		g, err = tx.Game(strings.ToLower(*name))
		if errors.Is(err, state.ErrNotFound) {
			return fmt.Errorf("no game %q", strings.ToLower(*name))
		}
		if err != nil {
			return err
		}
		recs, err = tx.Phases(g.Name)
		return err
	}); code != 0 {
		return code
	}
	var out bytes.Buffer
	if err := animate(&out, g, recs); err != nil {
		fmt.Fprintf(stderr, "gmd replay: %v\n", err)
		return 1
	}
	if err := writeOutput(*outFile, out.Bytes(), stdout); err != nil {
		fmt.Fprintf(stderr, "gmd replay: %v\n", err)
		return 1
	}
	return 0
}

// animate is the one replay of a game (view.Animator): gmd replay's,
// and the web pages' through daemon.Pictures, replayGame drawn whole.
// The mails' is the same fitted to their files (mailReplay).
func animate(w io.Writer, g *state.Game, recs []*state.PhaseRecord) error {
	rg, err := replayGame(g, recs)
	if err != nil {
		return err
	}
	if err := picture.Replay(w, rg); err != nil {
		return fmt.Errorf("game %s: %w", g.Name, err)
	}
	return nil
}

// replayGame is game g for a replay: each phase of its history recs
// re-adjudicated as the results mails drew it (engine.Replay), its
// current position, and the result of a finished game. Nothing of its
// players is in it: a replay shows what the game's observers saw, and a
// gunboat game's players are not named.
func replayGame(g *state.Game, recs []*state.PhaseRecord) (picture.ReplayGame, error) {
	rg := picture.ReplayGame{Name: g.Name}
	for _, rec := range recs {
		pos, res, err := engine.Replay(g, rec)
		if err != nil {
			return picture.ReplayGame{}, fmt.Errorf("game %s, %s: %w", g.Name, rec.Phase, err)
		}
		rg.Phases = append(rg.Phases, picture.ReplayPhase{Pos: pos, Res: res})
	}
	if len(g.Position) == 0 {
		return picture.ReplayGame{}, fmt.Errorf("game %s has not started", g.Name)
	}
	var err error
	if rg.Final, _, err = jsonpos.DecodePosition(g.Position); err != nil {
		return picture.ReplayGame{}, fmt.Errorf("game %s: its position: %w", g.Name, err)
	}
	if g.Status == state.Finished {
		rg.Result = "Result: " + g.Result + "."
	}
	return rg, nil
}

// mailReplay is the view.ReplayDrawer of the judge's mails: the game's
// replay fitted to them by picture.ReplayParts.
func mailReplay(g *state.Game, recs []*state.PhaseRecord, maxBytes, maxParts int) ([][]byte, error) {
	rg, err := replayGame(g, recs)
	if err != nil {
		return nil, err
	}
	parts, err := picture.ReplayParts(rg, maxBytes, maxParts)
	if errors.Is(err, picture.ErrReplayTooBig) {
		return nil, fmt.Errorf("%w: %w", view.ErrReplayTooBig, err)
	}
	return parts, err
}
