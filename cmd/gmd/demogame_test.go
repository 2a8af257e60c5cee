package main

import (
	"bytes"
	"flag"
	"github.com/gmdjudge/gmd/internal/racetest"
	"image/gif"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/demo"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/export"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// The demo game played on, for README's replay and the browser test of
// a finished game's page: gmd demo's game, its Spring 1901 the demo's
// mailed openings (demo.Seats), the rest played by the heuristic bot
// for every power to the end of demoLastYear, when the survivors agree a
// draw. testdata/demo-game.json is its export, made by
//
//	go test ./cmd/gmd -run TestDemoGameFile -update
//
// and docs/img/replay.gif its replay (scripts/demo-replay).

var update = flag.Bool("update", false, "write testdata/demo-game.json again")

// demoGameFile is the demo game's export, beside this test.
const demoGameFile = "testdata/demo-game.json"

// demoLastYear is the last year the demo game plays: a replay of six
// years stays well under README's 1.5 MB.
const demoLastYear = 1906

// demoGame plays the demo game and returns its export.
func demoGame(t *testing.T) *export.Game {
	t.Helper()
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	rules := judge.DATC30
	g := &state.Game{Name: demo.Game, Variant: "standard", Rules: "datc-3.0", Status: state.Finished, Settings: engine.DefaultSettings()}
	players := make([]bot.Player, len(m.Powers))
	for i := range players {
		if players[i], err = bot.New("heuristic", bot.Config{Rules: rules, Seed: uint64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, time.January, 5, 12, 0, 0, 0, time.UTC)
	pos := judge.StartPosition(m)
	var recs []*state.PhaseRecord
	for pos.Phase.Year <= demoLastYear {
		rec := &state.PhaseRecord{Phase: pos.Phase.String(), Turn: len(recs) + 1, Processed: at,
			Position: jsonpos.EncodePosition(pos, rules), Orders: map[string][]string{}, Written: map[string][]string{}}
		var orders []judge.Order
		for q, p := range players {
			if len(recs) > 0 {
				orders = append(orders, p.Orders(pos, judge.Power(q))...)
				continue
			}
			seat := demo.Seats()[q]
			parsed, errs := parser.ParseOrders(strings.Join(seat.Opening, "\n"), parser.Options{Map: m, Phase: pos.Phase.Type, Power: judge.Power(q)})
			if len(errs) > 0 || seat.Power != m.Powers[q].Name {
				t.Fatalf("the demo's opening of %s: %v", seat.Power, errs)
			}
			for i, po := range parsed {
				po.Order.Power = judge.Power(q)
				orders = append(orders, po.Order)
				rec.Written[seat.Power] = append(rec.Written[seat.Power], seat.Opening[i])
			}
		}
		res := judge.Adjudicate(pos, orders, rules)
		for _, r := range res.Results {
			if !r.Default {
				name := m.PowerName(r.Order.Power)
				rec.Orders[name] = append(rec.Orders[name], r.Order.Canonical(m))
			}
		}
		if len(rec.Written) == 0 {
			rec.Written = nil
		}
		if rec.Results, err = engine.ResultsText(g.Name, rec.Turn, pos, res); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
		pos, at = res.Next, at.Add(72*time.Hour)
		if len(res.Winners) > 0 {
			t.Fatalf("%s won the demo game in %s: it ends in a draw", m.PowerName(res.Winners[0]), rec.Phase)
		}
	}
	var survivors []string
	for k, n := range pos.CenterCount() {
		g.Players = append(g.Players, state.Player{Power: m.Powers[k].Name, Status: state.Playing})
		if n > 0 {
			survivors = append(survivors, m.Powers[k].Name)
		} else {
			g.Players[k].Status = state.Eliminated
		}
	}
	g.Result = "draw " + strings.Join(survivors, " ")
	g.Position, g.Turn = jsonpos.EncodePosition(pos, rules), len(recs)
	doc, err := export.Build(g, recs, nil, engine.SettingsOf(g))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestDemoGameFile: testdata/demo-game.json is a finished game that
// gmd import takes (every phase adjudicated again gives what it
// records), which opens with the demo's mailed Spring 1901 orders and
// plays to demoLastYear; with -update it is written again first.
func TestDemoGameFile(t *testing.T) {
	if *update {
		data, err := export.Marshal(demoGame(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(demoGameFile, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(demoGameFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := export.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := export.Check(doc); err != nil {
		t.Fatalf("%s does not import: %v", demoGameFile, err)
	}
	if doc.Name != demo.Game || doc.Status != "finished" || !strings.HasPrefix(doc.Result, "draw ") {
		t.Errorf("%s: game %s, %s, %q; want %s, finished in a draw", demoGameFile, doc.Name, doc.Status, doc.Result, demo.Game)
	}
	if last := doc.Phases[len(doc.Phases)-1].Phase; !strings.HasSuffix(last, "1906A") && !strings.HasSuffix(last, "1906M") {
		t.Errorf("the last phase is %s, want one of %d", last, demoLastYear)
	}
	for _, s := range demo.Seats() {
		if got := doc.Phases[0].Written[s.Power]; !slices.Equal(got, s.Opening) {
			t.Errorf("%s's Spring 1901 is %q, want the demo's %q", s.Power, got, s.Opening)
		}
	}
}

// TestDemoGameReplay: the demo game, imported as gmd import does,
// replays through gmd replay as an animated GIF of a frame per phase
// and three more, within README's 1.5 MB. The GIF goes to
// $GMD_DEMO_REPLAY when it is set (scripts/demo-replay).
func TestDemoGameReplay(t *testing.T) {
	racetest.Sequential(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "gmd.db")
	gifFile := filepath.Join(dir, "replay.gif")
	for _, args := range [][]string{
		{"init", "-db", db},
		{"import", "-db", db, "-in", demoGameFile},
		{"replay", "-db", db, "-game", demo.Game, "-o", gifFile},
	} {
		var out, errs bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errs); code != 0 {
			t.Fatalf("gmd %s: status %d: %s", strings.Join(args, " "), code, errs.String())
		}
	}
	data, err := os.ReadFile(gifFile)
	if err != nil {
		t.Fatal(err)
	}
	a, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(demoGameFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := export.Unmarshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Image) != len(doc.Phases)+3 || len(data) > 1536<<10 {
		t.Errorf("the demo's replay: %d frames, %d bytes; want %d frames, at most 1.5 MB", len(a.Image), len(data), len(doc.Phases)+3)
	}
	t.Logf("the demo game's replay: %d phases, %d frames, %d bytes", len(doc.Phases), len(a.Image), len(data))
	if out := os.Getenv("GMD_DEMO_REPLAY"); out != "" {
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
