package session

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// The clock side's tests build games straight through the state API and
// drive them with a fake clock: plain time values given to Tick and to the
// master's commands.

// clockT0 is the fake clock's start: the game starts then.
var clockT0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// clockEnv is a master over a fresh database on disk.
type clockEnv struct {
	t  testing.TB
	m  *Master
	db *state.DB
}

func newClockEnv(t testing.TB) *clockEnv {
	db, err := state.Open(filepath.Join(t.TempDir(), "gmd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &clockEnv{t: t, m: New(db, engine.Config{Config: config.Config{PasswordCost: bcrypt.MinCost}}), db: db}
}

// clockAddr is the address of a power's player in the test games.
func clockAddr(power string) string { return strings.ToLower(power) + "@example.org" }

const clockMaster = "gm@example.org"

// newGame stores an active standard game named name, started at now with
// its clock running, after edit (if any) changed it.
func (e *clockEnv) newGame(name string, now time.Time, edit func(*state.Game)) {
	e.t.Helper()
	mp := variants.Standard()
	g := &state.Game{
		Name: name, Variant: "standard", Status: state.Active, Created: now,
		Settings:   engine.DefaultSettings(),
		MasterAddr: clockMaster,
		Position:   jsonpos.EncodePosition(judge.StartPosition(mp), judge.DATC30),
	}
	for _, p := range mp.Powers {
		g.Players = append(g.Players, state.Player{Power: p.Name, Addr: clockAddr(p.Name), Status: state.Playing, Joined: now})
	}
	if edit != nil {
		edit(g)
	}
	e.m.StartClock(g, now)
	e.put(g)
}

func (e *clockEnv) put(g *state.Game) {
	e.t.Helper()
	if err := e.db.Update(func(tx *state.Tx) error { return tx.PutGame(g) }); err != nil {
		e.t.Fatal(err)
	}
}

func (e *clockEnv) game(name string) *state.Game {
	e.t.Helper()
	var g *state.Game
	err := e.db.View(func(tx *state.Tx) error {
		var err error
		g, err = tx.Game(name)
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return g
}

func (e *clockEnv) phases(name string) []*state.PhaseRecord {
	e.t.Helper()
	var recs []*state.PhaseRecord
	err := e.db.View(func(tx *state.Tx) error {
		var err error
		recs, err = tx.Phases(name)
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return recs
}

// edit changes a stored game, as a mail would, and tells the clock.
func (e *clockEnv) edit(name string, now time.Time, fn func(*state.Game)) {
	e.t.Helper()
	err := e.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game(name)
		if err != nil {
			return err
		}
		fn(g)
		e.m.OrdersChanged(g, now)
		return tx.PutGame(g)
	})
	if err != nil {
		e.t.Fatal(err)
	}
}

// tick runs the clock at now and fails the test on an error.
func (e *clockEnv) tick(now time.Time) {
	e.t.Helper()
	if err := e.m.Tick(now); err != nil {
		e.t.Fatalf("Tick(%v): %v", now, err)
	}
}

// mails takes every mail out of the outbox.
func (e *clockEnv) mails() []*state.OutMail {
	e.t.Helper()
	var out []*state.OutMail
	err := e.db.Update(func(tx *state.Tx) error {
		var err error
		if out, err = tx.Outbox(0); err != nil {
			return err
		}
		for _, m := range out {
			if err := tx.DeleteOutMail(m.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// session runs fn as a command of the game's signed-on master in a mail
// from from, and returns the reply text.
func (e *clockEnv) session(name, from string, now time.Time, fn func(s *session) error) string {
	e.t.Helper()
	var reply string
	err := e.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game(name)
		if err != nil {
			return err
		}
		s := &session{m: e.m, tx: tx, now: now, in: &Mail{From: from, Subject: "cmd", MessageID: "<in@x>"},
			game: g, power: "Master", master: true}
		if err := fn(s); err != nil {
			return err
		}
		if err := s.announceChanges(); err != nil { // as Master.apply does at the end of a mail
			return err
		}
		reply = s.reply.String()
		return tx.PutGame(g)
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return reply
}

// clockHolds returns hold orders for every unit of pos, by power name.
func clockHolds(pos *judge.Position) map[string][]string {
	out := map[string][]string{}
	for _, u := range pos.Units {
		if u.Type == judge.NoUnit {
			continue
		}
		o := judge.Order{Kind: judge.Hold, Power: u.Power, Type: u.Type, Unit: u.Loc}
		name := pos.Map.Powers[u.Power].Name
		out[name] = append(out[name], o.Canonical(pos.Map))
	}
	return out
}

// clockStartOrders returns hold orders for every unit of the start position,
// for the powers named (all if none).
func clockStartOrders(powers ...string) map[string][]string {
	all := clockHolds(judge.StartPosition(variants.Standard()))
	if len(powers) == 0 {
		return all
	}
	out := map[string][]string{}
	for _, p := range powers {
		out[p] = all[p]
	}
	return out
}

// clockAllBut returns the standard powers except those named.
func clockAllBut(except ...string) []string {
	var out []string
	for _, p := range variants.Standard().Powers {
		if !slices.Contains(except, p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}

// seat returns the player of power in g.
func clockSeat(t *testing.T, g *state.Game, power string) *state.Player {
	t.Helper()
	i := engine.PlayerByPower(g, power)
	if i < 0 {
		t.Fatalf("no seat %s", power)
	}
	return &g.Players[i]
}

// clockAbout returns the mails whose subject contains s.
func clockAbout(mails []*state.OutMail, s string) []*state.OutMail {
	var out []*state.OutMail
	for _, m := range mails {
		if strings.Contains(m.Subject, s) {
			out = append(out, m)
		}
	}
	return out
}

// subjects lists the mails' subjects, for failure messages.
func clockSubjects(mails []*state.OutMail) []string {
	out := make([]string, len(mails))
	for i, m := range mails {
		out[i] = m.Subject + " -> " + strings.Join(m.To, ",")
	}
	return out
}

// cmd is a parsed master command line.
func clockCmd(name string, args ...string) *parser.Command {
	return &parser.Command{Line: 1, Name: name, Args: args, Text: strings.Join(append([]string{name}, args...), " ")}
}

// clockPhase returns the id of the stored game's current phase.
func clockPhase(t *testing.T, g *state.Game) string {
	t.Helper()
	p, err := engine.CurrentPhase(g)
	if err != nil {
		t.Fatal(err)
	}
	return p.String()
}

// clockDump writes the mails out in full, for failure messages.
func clockDump(mails []*state.OutMail) string {
	var b strings.Builder
	for _, m := range mails {
		b.WriteString("=== " + m.Subject + " -> " + strings.Join(m.To, ",") + "\n" + m.Body)
	}
	return b.String()
}
