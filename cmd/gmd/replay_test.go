package main

import (
	"bytes"
	"github.com/gmdjudge/gmd/internal/racetest"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/state"
)

// botHistory plays m with the random bot (seeded from seed) from its
// start to the end of lastYear, and returns the phases as the engine
// stores them and the game as picture.Replay takes it, without a result.
func botHistory(t testing.TB, m *judge.Map, lastYear int, seed uint64) ([]*state.PhaseRecord, picture.ReplayGame) {
	t.Helper()
	var players []bot.Player
	for i := range m.Powers {
		p, err := bot.New("random", bot.Config{Rules: judge.DATC30, Seed: uint64(i) + seed})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	var want picture.ReplayGame
	var recs []*state.PhaseRecord
	pos := judge.StartPosition(m)
	for pos.Phase.Year <= lastYear {
		rec := &state.PhaseRecord{Phase: pos.Phase.String(), Turn: len(recs) + 1,
			Position: jsonpos.EncodePosition(pos, judge.DATC30), Orders: map[string][]string{}}
		var orders []judge.Order
		for q, p := range players {
			mine := p.Orders(pos, judge.Power(q))
			for _, o := range mine {
				rec.Orders[m.Powers[q].Name] = append(rec.Orders[m.Powers[q].Name], o.Canonical(m))
			}
			orders = append(orders, mine...)
		}
		res := judge.Adjudicate(pos, orders, judge.DATC30)
		want.Phases = append(want.Phases, picture.ReplayPhase{Pos: pos, Res: res})
		recs = append(recs, rec)
		pos = res.Next
		if len(res.Winners) > 0 {
			break
		}
	}
	want.Final = pos
	return recs, want
}

// replayDB stores a two-year standard game played by the random bot as
// game "rp", finished in a draw, as the engine stores phases; it returns
// the database's path and the game as picture.Replay takes it.
func replayDB(t *testing.T) (string, picture.ReplayGame) {
	t.Helper()
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	recs, want := botHistory(t, m, 1902, 11)
	want.Name, want.Result = "rp", "Result: draw Austria England France Germany Italy Russia Turkey."
	pos := want.Final
	path := filepath.Join(t.TempDir(), "gmd.db")
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *state.Tx) error {
		g := &state.Game{Name: "rp", Variant: "standard", Rules: "datc-3.0", Status: state.Finished,
			Result: "draw Austria England France Germany Italy Russia Turkey", Position: jsonpos.EncodePosition(pos, judge.DATC30)}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		for _, rec := range recs {
			if err := tx.PutPhase("rp", rec); err != nil {
				return err
			}
		}
		return tx.PutGame(&state.Game{Name: "fresh", Variant: "standard", Rules: "datc-3.0", Status: state.Forming})
	})
	if err != nil {
		t.Fatal(err)
	}
	return path, want
}

// TestReplayCommand: gmd replay draws a stored game from its history as
// the picture package draws the game played: the same GIF, byte for
// byte, so the history's orders are re-adjudicated to the same outcomes.
func TestReplayCommand(t *testing.T) {
	racetest.Sequential(t)
	path, want := replayDB(t)
	var direct bytes.Buffer
	if err := picture.Replay(&direct, want); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rp.gif")
	code, stdout, errs := gmd(t, "", "replay", "-db", path, "-game", "RP", "-o", out)
	if code != 0 || stdout != "" || errs != "" {
		t.Fatalf("status %d, stdout %q, stderr %q", code, stdout, errs)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	a, err := gif.DecodeAll(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("the replay is no GIF: %v", err)
	}
	if len(a.Image) != len(want.Phases)+3 {
		t.Errorf("%d frames, want %d", len(a.Image), len(want.Phases)+3)
	}
	if !bytes.Equal(got, direct.Bytes()) {
		t.Errorf("the replay from the database (%d bytes) is not the replay of the game played (%d bytes)", len(got), direct.Len())
	}
	// Without -o the GIF goes to standard output.
	code, stdout, errs = gmd(t, "", "replay", "-db", path, "-game", "rp")
	if code != 0 || stdout != string(got) || errs != "" {
		t.Errorf("to standard output: status %d, %d bytes, stderr %q", code, len(stdout), errs)
	}
}

// TestReplayCommandErrors: a missing game, a game not started and a
// missing -game each get a clear answer and a failing status.
func TestReplayCommandErrors(t *testing.T) {
	path, _ := replayDB(t)
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"-db", path, "-game", "nosuch"}, 1, `no game "nosuch"`},
		{[]string{"-db", path, "-game", "fresh"}, 1, "game fresh has not started"},
		{[]string{"-db", path}, 2, "-game is required"},
	} {
		code, stdout, errs := gmd(t, "", append([]string{"replay"}, c.args...)...)
		if code != c.code || stdout != "" || !strings.Contains(errs, c.says) {
			t.Errorf("%v: status %d, stdout %d bytes, stderr %q; want %d and %q", c.args, code, len(stdout), errs, c.code, c.says)
		}
	}
}
