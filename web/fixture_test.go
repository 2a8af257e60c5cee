package web

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/report"
	"github.com/gmdjudge/gmd/session"
	"github.com/gmdjudge/gmd/state"
)

// The fixture: a judge with a game in progress, written straight into a
// database the way the game master leaves it, with every kind of secret
// a game holds, so that the tests can look for each on every page.

// fixtureStart is when the fixture's games were created.
var fixtureStart = time.Date(2026, time.January, 5, 12, 0, 0, 0, time.UTC)

// The secrets of the fixture's game "secrets": none may be on any page.
var secrets = []string{
	"@players.test", "master@secret.test", "watcher@secret.test", "barred@secret.test", "guesser@secret.test",
	"secret-canonical-order", "secret-written-order",
	"secret-partial-press", "secret-observer-press", "secret-grey-partial", "secret-master-private",
	"secret-game-password", "secret-confirm-key",
}

// The public press of the game "secrets": each must be on its press page.
const (
	whiteBroadcast  = "public-white-broadcast from France"
	greyBroadcast   = "public-grey-broadcast"
	masterBroadcast = "public-master-broadcast"
)

// openings are Spring 1901 orders for the standard map, with the demo's
// bounces.
var openings = map[string][]string{
	"Austria": {"A Vie - Gal", "A Bud - Ser", "F Tri - Alb"},
	"England": {"F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"},
	"France":  {"F Bre - Mao", "A Par - Bur", "A Mar - Spa"},
	"Germany": {"F Kie - Den", "A Ber - Kie", "A Mun - Ruh"},
	"Italy":   {"F Nap - Ion", "A Rom - Apu", "A Ven H"},
	"Russia":  {"F Stp/sc - Bot", "A Mos - Ukr", "A War - Gal", "F Sev - Bla"},
	"Turkey":  {"F Ank - Bla", "A Con - Bul", "A Smy - Arm"},
}

// fakeDraw is a view.Drawer that draws a small blank PNG and records what it
// was asked to draw.
type fakeDraw struct {
	mu    sync.Mutex
	calls int
	seen  []string // the orders of each resolution drawn, canonical
	drawn []string // the phase of each position drawn, "+" when with orders
}

func (f *fakeDraw) draw(w io.Writer, pos *judge.Position, res *judge.Resolution) error {
	f.mu.Lock()
	f.calls++
	ph := pos.Phase.String()
	if res != nil {
		ph += "+"
	}
	f.drawn = append(f.drawn, ph)
	if res != nil {
		for _, r := range res.Results {
			f.seen = append(f.seen, r.Order.Canonical(pos.Map))
		}
	}
	f.mu.Unlock()
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	img.Set(int(pos.Phase.Year)%40, 3, color.Black)
	return png.Encode(w, img)
}

// fixture is a judge over a database of test games.
type fixture struct {
	db   *state.DB
	srv  *Server
	draw *fakeDraw
	now  time.Time
	mu   sync.Mutex
}

func (f *fixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fixture) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

// newFixture returns a judge holding the game "secrets", played for
// years years (a Spring and Fall each, and the Winters the openings
// cause) and now in the middle of a phase, and a forming game.
func newFixture(t testing.TB, years int, cfg Config) *fixture {
	t.Helper()
	db, err := state.Open(filepath.Join(t.TempDir(), "gmd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &fixture{db: db, draw: &fakeDraw{}, now: fixtureStart.Add(time.Duration(years) * 365 * 24 * time.Hour)}
	err = db.Update(func(tx *state.Tx) error {
		if err := putPlayedGame(tx, "secrets", years); err != nil {
			return err
		}
		return tx.PutGame(&state.Game{
			Name: "newgame", Variant: "standard", Rules: "datc-3.0", Status: state.Forming, Created: fixtureStart,
			Settings:   state.GameSettings{Press: "white", Partial: true, Zone: "UTC", Movement: state.Duration(72 * time.Hour)},
			MasterAddr: "master@secret.test",
			Players:    []state.Player{{Addr: "waiting@players.test", PassHash: []byte("secret-game-password"), Status: state.Playing}},
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	master := session.New(db, engine.Config{Config: config.Config{JudgeName: "GMD", JudgeAddr: "judge@judge.test"}})
	cfg.DB = db
	cfg.JudgeName = "GMD"
	cfg.JudgeAddr = "judge@judge.test"
	cfg.Overview = master.OverviewOf
	cfg.Replay = engine.Replay
	if cfg.Draw == nil {
		cfg.Draw = f.draw.draw
	}
	cfg.Now = f.clock
	f.srv, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// putPlayedGame stores a standard game played for years years, with its
// history, press of every kind and secrets.
func putPlayedGame(tx *state.Tx, name string, years int) error {
	mp, err := variants.Load("standard")
	if err != nil {
		return err
	}
	rules, err := judge.RulesByName("datc-3.0")
	if err != nil {
		return err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte("secret-game-password"), bcrypt.MinCost)
	if err != nil {
		return err
	}
	pos := judge.StartPosition(mp)
	at := fixtureStart
	turn := 0
	for pos.Phase.Year < mp.StartYear+years {
		var orders []judge.Order
		lines := map[string][]string{}
		written := map[string][]string{}
		for k, p := range mp.Powers {
			var src []string
			switch {
			case pos.Phase.String() == "S1901M":
				src = openings[p.Name]
			case pos.Phase.Type == judge.Movement && turn%2 == 1 && p.Name == "Germany":
				// Something moves every year, so that results differ.
				src = []string{"A Kie - Ber"}
			case pos.Phase.Type == judge.Movement && p.Name == "Germany":
				src = []string{"A Ber - Kie"}
			}
			parsed, errs := parser.ParseOrders(strings.Join(src, "\n"), parser.Options{Map: mp, Phase: pos.Phase.Type, Power: judge.Power(k)})
			if len(errs) > 0 {
				parsed = nil
			}
			for _, po := range parsed {
				po.Order.Power = judge.Power(k)
				orders = append(orders, po.Order)
				lines[p.Name] = append(lines[p.Name], po.Order.Canonical(mp))
				written[p.Name] = append(written[p.Name], strings.ToLower(po.Order.Canonical(mp)))
			}
		}
		res := judge.Adjudicate(pos.Clone(), orders, rules)
		var text bytes.Buffer
		if err := report.WriteResults(&text, pos, res); err != nil {
			return err
		}
		turn++
		at = at.Add(72 * time.Hour)
		err := tx.PutPhase(name, &state.PhaseRecord{
			Phase: pos.Phase.String(), Turn: turn, Processed: at,
			Position: jsonpos.EncodePosition(pos, rules), Orders: lines, Written: written,
			Results: text.String(),
		})
		if err != nil {
			return err
		}
		pos = res.Next
	}
	g := &state.Game{
		Name: name, Variant: "standard", Rules: "datc-3.0", Status: state.Active, Created: fixtureStart,
		Settings: state.GameSettings{
			Press: "grey", Partial: true, Zone: "Europe/Paris",
			Movement: state.Duration(72 * time.Hour), Retreat: state.Duration(24 * time.Hour),
			Adjustment: state.Duration(24 * time.Hour), Grace: state.Duration(48 * time.Hour),
		},
		MasterAddr: "master@secret.test", MasterHash: hash,
		Observers: []state.Observer{{Addr: "watcher@secret.test", PassHash: hash}},
		Position:  jsonpos.EncodePosition(pos, rules),
		Turn:      turn,
		Orders: map[string][]string{
			"Austria": {"A Gal - Sil secret-canonical-order"},
			"England": {"F Nth - Hol"},
		},
		Written:       map[string]map[string]string{"Austria": {"A Gal - Sil secret-canonical-order": "secret-written-order"}},
		Deadline:      at.Add(72 * time.Hour),
		PressSent:     map[string]int64{"Germany": 20},
		ConfirmKey:    []byte("secret-confirm-key"),
		Barred:        []string{"barred@secret.test"},
		FailedSignons: []state.SignonFailure{{Addr: "guesser@secret.test", At: at}},
	}
	for i, p := range mp.Powers {
		pl := state.Player{Power: p.Name, Addr: fmt.Sprintf("%s@players.test", strings.ToLower(p.Name)), PassHash: hash, Status: state.Playing, Joined: fixtureStart}
		if i == 6 {
			pl.Status = state.Disorder
		}
		g.Players = append(g.Players, pl)
	}
	if err := tx.PutGame(g); err != nil {
		return err
	}
	press := []state.Press{
		{From: "France", Text: whiteBroadcast},
		{From: "England", Grey: true, Text: greyBroadcast},
		{From: "Master", Text: masterBroadcast},
		{From: "Germany", To: []string{"Russia"}, Text: "secret-partial-press"},
		{From: "Observer", To: []string{"Master"}, Text: "secret-observer-press"},
		{From: "Italy", To: []string{"Austria", "Turkey"}, Grey: true, Text: "secret-grey-partial"},
		{From: "Master", To: []string{"England"}, Text: "secret-master-private"},
	}
	for i := range press {
		press[i].Phase, press[i].Sent = pos.Phase.String(), at.Add(time.Duration(i)*time.Minute)
		if err := tx.AddPress(name, turn-i%2, &press[i]); err != nil {
			return err
		}
	}
	return nil
}
