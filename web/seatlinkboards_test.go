package web

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// TestFogLinksEveryBoard: a fogged game of every board (a twelfth of
// them and the standard board under the race detector, which finds
// nothing more on the others), played four phases by
// the judge's bots, walked under each power's link (walkLinks).
func TestFogLinksEveryBoard(t *testing.T) {
	var (
		mu     sync.Mutex
		hidden int
	)
	t.Cleanup(func() {
		if hidden == 0 {
			t.Error("no unit was out of any power's sight: the test proves nothing")
		}
	})
	for _, variant := range racetest.Spread(variants.Names(), 12, "standard") {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			db, err := state.Open(filepath.Join(t.TempDir(), "gmd.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			var g *state.Game
			if err := db.Update(func(tx *state.Tx) (err error) {
				g, err = putFoggedGame(tx, variant, 4)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			d := &lastDrawn{}
			f := &fixture{db: db, now: fixtureStart}
			f.srv, err = New(Config{DB: db, Overview: func(*state.Game, time.Time) view.GameOverview { return view.GameOverview{} },
				Replay: engine.Replay, Draw: d.draw, FogResults: engine.PhaseResultsFor, Now: f.clock})
			if err != nil {
				t.Fatal(err)
			}
			_, hid := walkLinks(t, f, d, g)
			mu.Lock()
			hidden += hid
			mu.Unlock()
		})
	}
}

// putFoggedGame stores a game of variant under fog of war, played for
// phases phases by the bots, one seat a power.
func putFoggedGame(tx *state.Tx, variant string, phases int) (*state.Game, error) {
	mp, err := variants.Load(variant)
	if err != nil {
		return nil, err
	}
	rules, err := judge.RulesByName("datc-3.0")
	if err != nil {
		return nil, err
	}
	name := "fg"
	pos := judge.StartPosition(mp)
	at := fixtureStart
	for turn := 1; turn <= phases; turn++ {
		var orders []judge.Order
		lines := map[string][]string{}
		for k, p := range mp.Powers {
			kind := "random"
			if k%2 == 0 {
				kind = "heuristic"
			}
			pl, err := bot.New(kind, bot.Config{Rules: rules, Seed: uint64(turn*100 + k)})
			if err != nil {
				return nil, err
			}
			os := pl.Orders(pos, judge.Power(k))
			orders = append(orders, os...)
			lines[p.Name] = engine.CanonicalLines(mp, os)
		}
		res := judge.Adjudicate(pos.Clone(), orders, rules)
		var text bytes.Buffer
		if err := report.WriteResults(&text, pos, res); err != nil {
			return nil, err
		}
		at = at.Add(72 * time.Hour)
		if err := tx.PutPhase(name, &state.PhaseRecord{
			Phase: pos.Phase.String(), Turn: turn, Processed: at,
			Position: jsonpos.EncodePosition(pos, rules), Orders: lines, Results: text.String(),
		}); err != nil {
			return nil, err
		}
		pos = res.Next
	}
	g := &state.Game{
		Name: name, Variant: variant, Rules: "datc-3.0", Status: state.Active, Created: fixtureStart,
		Settings:   state.GameSettings{Fog: true, Zone: "UTC", Movement: state.Duration(72 * time.Hour)},
		MasterAddr: "master@secret.test", MasterHash: []byte("m"),
		Position: jsonpos.EncodePosition(pos, rules), Turn: phases, Deadline: at.Add(72 * time.Hour),
		ConfirmKey: []byte("0123456789abcdef0123456789abcdef"),
	}
	for _, p := range mp.Powers {
		g.Players = append(g.Players, state.Player{Power: p.Name, Addr: fmt.Sprintf("%s@players.test", strings.ToLower(p.Name)),
			PassHash: []byte(p.Name), Status: state.Playing, Joined: fixtureStart})
	}
	return g, tx.PutGame(g)
}
