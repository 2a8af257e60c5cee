package session

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// clockOpening is a Spring 1901 with a bounce, for results worth reading.
func clockOpening() map[string][]string {
	o := clockStartOrders()
	o["Austria"] = []string{"A vie - gal", "A bud - ser", "F tri H"}
	o["Russia"] = []string{"A war - gal", "A mos - ukr", "F sev - bla", "F stp/sc - bot"}
	return o
}

func TestResultsMail(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders = clockOpening() })
	before := e.game("dt").Position
	now := clockT0.Add(2 * time.Hour)
	e.edit("dt", now, func(*state.Game) {})
	e.tick(now)
	got := e.mails()
	if len(got) != 1 {
		t.Fatalf("mails %q", clockSubjects(got))
	}
	m := got[0]
	if m.Subject != "GMD:dt - S1901M Results" || len(m.To) != 8 {
		t.Errorf("subject %q to %q", m.Subject, m.To)
	}
	want := "\n:: Judge: GMD  Game: Dt  Variant: Standard\n:: Deadline: F1901M Thu Mar 05 2026 14:00:00 +0000\n\n" +
		"Movement results for Spring of 1901. (dt.001)\n\nAustria: Army Budapest -> Serbia.\n"
	if !strings.HasPrefix(m.Body, want) {
		t.Errorf("results begin\n%q\nwant\n%q", m.Body[:min(len(m.Body), len(want)+20)], want)
	}
	for _, s := range []string{
		"Austria: Army Vienna -> Galicia. (*bounce*)\n",
		"Russia: Army Warsaw -> Galicia. (*bounce*)\n",
	} {
		if !strings.Contains(m.Body, s) {
			t.Errorf("results lack %q", s)
		}
	}
	wantEnd := "\nThe next phase of 'dt' will be Movement for Fall of 1901.\nThe deadline for orders will be Thu Mar 05 2026 14:00:00 +0000.\n"
	if !strings.HasSuffix(m.Body, wantEnd) {
		t.Errorf("results end\n%q\nwant\n%q", m.Body[max(0, len(m.Body)-len(wantEnd)-20):], wantEnd)
	}

	// The history keeps the position before, the orders and the text.
	recs := e.phases("dt")
	if len(recs) != 1 {
		t.Fatalf("%d history records", len(recs))
	}
	r := recs[0]
	if r.Phase != "S1901M" || r.Turn != 1 || !r.Processed.Equal(now) || !bytes.Equal(r.Position, before) {
		t.Errorf("record %s turn %d at %v, position kept: %v", r.Phase, r.Turn, r.Processed, bytes.Equal(r.Position, before))
	}
	if got := strings.Join(r.Orders["Austria"], "; "); !strings.Contains(got, "A vie - gal") || len(r.Orders["Austria"]) != 3 {
		t.Errorf("Austria's recorded orders: %q", got)
	}
	if !strings.HasPrefix(r.Results, "Movement results for Spring of 1901. (dt.001)\n") || !strings.Contains(m.Body, r.Results) {
		t.Errorf("recorded results:\n%s", r.Results)
	}

	// The record is enough to play the phase again, to the same text.
	pos, rules, err := jsonpos.DecodePosition(r.Position)
	if err != nil {
		t.Fatal(err)
	}
	var orders []judge.Order
	for name, lines := range r.Orders {
		p, _ := pos.Map.PowerByName(name)
		parsed, errs := parser.ParseOrders(strings.Join(lines, "\n"), parser.Options{Map: pos.Map, Power: p})
		if len(errs) > 0 {
			t.Fatalf("recorded orders of %s do not parse: %v", name, errs)
		}
		for _, po := range parsed {
			orders = append(orders, po.Order)
		}
	}
	again, err := engine.ResultsText("dt", 1, pos, judge.Adjudicate(pos, orders, rules))
	if err != nil || again != r.Results {
		t.Errorf("replaying the record gives\n%s\nwant\n%s", again, r.Results)
	}
}

func TestDefaultsNotRecorded(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders = map[string][]string{"France": {"A par - bur"}} })
	e.session("dt", clockMaster, clockT0, func(s *session) error { return s.cmdProcess(clockCmd("PROCESS")) })
	r := e.phases("dt")[0]
	if len(r.Orders) != 1 || len(r.Orders["France"]) != 1 {
		t.Errorf("recorded orders %v, want France's one order and none of the judge's holds", r.Orders)
	}
	if !strings.Contains(r.Results, "England: Fleet London, No Order Processed.") {
		t.Errorf("the results should show the default holds:\n%s", r.Results)
	}
}

// clockNearWin is a Fall 1905 where France, with 17 centres, takes
// Munich.
const clockNearWin = `{"phase":"F1905M","units":[{"power":"France","type":"A","at":"bur"},{"power":"Germany","type":"A","at":"ber"}],
 "centers":{"bre":"France","par":"France","mar":"France","spa":"France","por":"France","bel":"France","hol":"France",
 "lon":"France","lvp":"France","edi":"France","nwy":"France","swe":"France","den":"France","kie":"France",
 "rom":"France","nap":"France","ven":"France","ber":"Germany"}}`

func TestVictory(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		g.Position = []byte(clockNearWin)
		g.Orders = map[string][]string{"France": {"A bur - mun"}, "Germany": {"A ber H"}}
		g.Turn = 12
	})
	now := clockT0.Add(time.Hour)
	e.edit("dt", now, func(*state.Game) {})
	e.tick(now)
	got := e.mails()
	if len(got) != 2 {
		t.Fatalf("mails %q, want the results and the final summary", clockSubjects(got))
	}
	res, over := got[0], got[1]
	if res.Subject != "GMD:dt - F1905M Results" || over.Subject != "GMD:dt - W1905AX Game Over" {
		t.Errorf("subjects %q", clockSubjects(got))
	}
	for _, s := range []string{"Movement results for Fall of 1905. (dt.013)", "(* VICTORY!! *)", "\nThe game is over.  Thank you for playing.\n", ":: Deadline: W1905AX "} {
		if !strings.Contains(res.Body, s) {
			t.Errorf("results lack %q:\n%s", s, res.Body)
		}
	}
	if strings.Contains(res.Body, "The deadline for orders") {
		t.Errorf("results of a won game name a deadline:\n%s", res.Body)
	}
	for _, s := range []string{"Game 'dt' is over. France has won the game with 18 supply centres.",
		"France           18      1     0  france@example.org\n", "Germany           1      1     0  germany@example.org\n",
		"Austria           0      0     0  austria@example.org (eliminated)\n", "Master: gm@example.org", "Phases played: 13"} {
		if !strings.Contains(over.Body, s) {
			t.Errorf("summary lacks %q:\n%s", s, over.Body)
		}
	}
	g := e.game("dt")
	if g.Status != state.Finished || g.Result != "victory France" || !g.Wake.IsZero() {
		t.Errorf("status %s result %q wake %v", g.Status, g.Result, g.Wake)
	}
	if clockSeat(t, g, "Austria").Status != state.Eliminated || clockSeat(t, g, "Germany").Status != state.Playing {
		t.Error("eliminations not marked")
	}
	e.tick(now.Add(1000 * time.Hour))
	if got := e.mails(); len(got) != 0 {
		t.Errorf("a finished game still ticks: %q", clockSubjects(got))
	}
}

func TestDraw(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		for i := range g.Players {
			g.Players[i].Draw = g.Players[i].Power != "Turkey"
		}
		clockSeat(t, g, "Italy").Status, clockSeat(t, g, "Italy").Draw = state.Disorder, false
		clockSeat(t, g, "Russia").Status = state.Eliminated
	})
	now := clockT0.Add(time.Hour)
	draw := func() {
		err := e.db.Update(func(tx *state.Tx) error {
			g, err := tx.Game("dt")
			if err != nil {
				return err
			}
			if err := e.m.CheckDraw(tx, g, now); err != nil {
				return err
			}
			return tx.PutGame(g)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	draw()
	if g := e.game("dt"); g.Status != state.Active || len(e.mails()) != 0 {
		t.Fatal("a draw without Turkey's vote")
	}
	g := e.game("dt")
	clockSeat(t, g, "Turkey").Draw = true
	e.put(g)
	draw()
	got := e.mails()
	if len(got) != 2 || got[0].Subject != "GMD:dt - S1901MX Draw Declared: AEFGIT" || got[1].Subject != "GMD:dt - S1901MX Game Over" {
		t.Fatalf("mails %q", clockSubjects(got))
	}
	text := "The game was declared a draw between Austria, England, France, Germany, Italy and Turkey."
	if !containsText(got[0].Body, text) || !containsText(got[1].Body, text) {
		t.Errorf("draw mails:\n%s\n%s", got[0].Body, got[1].Body)
	}
	g = e.game("dt")
	if g.Status != state.Finished || g.Result != "draw Austria England France Germany Italy Turkey" || !g.Wake.IsZero() {
		t.Errorf("status %s result %q wake %v", g.Status, g.Result, g.Wake)
	}
}

func TestEliminationAndVotesCleared(t *testing.T) {
	mp := variants.Standard()
	pos := judge.NewPosition(mp, judge.Phase{Season: judge.Spring, Year: 1905, Type: judge.Movement})
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		// Only England has anything left.
		lon, _ := mp.Lookup("lon")
		pos.Units[lon] = judge.Unit{Type: judge.Fleet, Power: 1, Loc: lon}
		pos.Centers[lon] = 1
		g.Position = jsonpos.EncodePosition(pos, judge.DATC30)
		g.Orders = map[string][]string{"England": {"F lon H"}}
		clockSeat(t, g, "England").Draw = true
		clockSeat(t, g, "England").Wait = true
	})
	e.session("dt", clockMaster, clockT0, func(s *session) error { return s.cmdProcess(clockCmd("PROCESS", "S1905M")) })
	g := e.game("dt")
	for _, p := range g.Players {
		want := state.Eliminated
		if p.Power == "England" {
			want = state.Playing
		}
		if p.Status != want || p.Draw || p.Wait {
			t.Errorf("%s: %s draw %v wait %v", p.Power, p.Status, p.Draw, p.Wait)
		}
	}
}
