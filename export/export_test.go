package export

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// played plays years years of variant with random bots and returns the
// finished game and its records, as the engine stores them.
func played(tb testing.TB, variant string, years int) (*state.Game, []*state.PhaseRecord) {
	tb.Helper()
	return playedBy(tb, "random", variant, years)
}

// playedBy is played with bots of the kind given (bot.New).
func playedBy(tb testing.TB, kind, variant string, years int) (*state.Game, []*state.PhaseRecord) {
	tb.Helper()
	m, err := variants.Load(variant)
	if err != nil {
		tb.Fatal(err)
	}
	rules := judge.DATC30
	pos := judge.StartPosition(m)
	players := make([]bot.Player, len(m.Powers))
	for i := range players {
		if players[i], err = bot.New(kind, bot.Config{Rules: rules, Seed: uint64(i + 1)}); err != nil {
			tb.Fatal(err)
		}
	}
	g := &state.Game{Name: "g", Variant: variant, Rules: "datc-3.0", Status: state.Finished, Result: "terminated",
		Settings:   state.GameSettings{Press: "white", Gunboat: true, Movement: state.Duration(72 * time.Hour)},
		MasterAddr: "master@secret.example", MasterHash: []byte("MASTERHASH")}
	for _, pw := range m.Powers {
		g.Players = append(g.Players, state.Player{Power: pw.Name, Addr: strings.ToLower(pw.Name) + "@secret.example",
			PassHash: []byte("PASSHASH-" + pw.Name), Status: state.Playing})
	}
	var recs []*state.PhaseRecord
	last := pos.Phase.Year + years - 1
	for pos.Phase.Year <= last {
		var orders []judge.Order
		for q, p := range players {
			orders = append(orders, p.Orders(pos, judge.Power(q))...)
		}
		res := judge.Adjudicate(pos, orders, rules)
		rec := &state.PhaseRecord{Phase: pos.Phase.String(), Turn: len(recs) + 1,
			Processed: t0.Add(time.Duration(len(recs)) * time.Hour), Position: jsonpos.EncodePosition(pos, rules),
			Orders: map[string][]string{}, Written: map[string][]string{}}
		if rec.Results, err = engine.ResultsText(g.Name, rec.Turn, pos, res); err != nil {
			tb.Fatal(err)
		}
		for _, r := range res.Results {
			if r.Default {
				continue
			}
			name := m.PowerName(r.Order.Power)
			line := r.Order.Canonical(m)
			rec.Orders[name] = append(rec.Orders[name], line)
			rec.Written[name] = append(rec.Written[name], strings.ToUpper(line))
		}
		recs = append(recs, rec)
		pos = res.Next
		if len(res.Winners) > 0 {
			break
		}
	}
	g.Position, g.Turn = jsonpos.EncodePosition(pos, rules), len(recs)
	return g, recs
}

// publicAndPrivate is press of every kind: one broadcast, one grey and
// one fake broadcast are public, the partial press is not.
func publicAndPrivate(first, second string) []*state.Press {
	return []*state.Press{
		{Phase: first, From: "Master", Text: "Welcome, everyone.", Sent: t0},
		{Phase: first, From: "A", To: []string{"B"}, Text: "PRIVATE-SECRET plan", Sent: t0},
		{Phase: second, From: "A", Grey: true, Text: "someone speaks", Sent: t0},
		{Phase: second, From: "A", Claimed: "B", Text: "FAKE-TEXT", Sent: t0},
	}
}

func export(tb testing.TB, g *state.Game, recs []*state.PhaseRecord, press []*state.Press) []byte {
	tb.Helper()
	doc, err := Build(g, recs, press, view.Settings{Press: g.Settings.Press, Movement: "3 days"})
	if err != nil {
		tb.Fatal(err)
	}
	b, err := Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestRoundTripEveryVariant: on every board, export, check, import and
// export again gives the same bytes.
func TestRoundTripEveryVariant(t *testing.T) {
	for _, v := range variants.Names() {
		t.Run(v, func(t *testing.T) {
			g, recs := played(t, v, 2)
			press := publicAndPrivate(recs[0].Phase, recs[len(recs)-1].Phase)
			first := export(t, g, recs, press)
			doc, err := Unmarshal(first)
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(doc); err != nil {
				t.Fatalf("the judge's own game fails the check: %v", err)
			}
			g2, recs2, press2, turns := Records(doc, "copy")
			if g2.Name != "copy" || g2.Status != state.Finished || len(recs2) != len(recs) {
				t.Fatalf("imported game %s %s with %d phases, want copy finished with %d", g2.Name, g2.Status, len(recs2), len(recs))
			}
			if turns[0] != 0 || turns[len(turns)-1] != len(recs)-1 {
				t.Errorf("press turns %v: want the first at 0 and the last at %d", turns, len(recs)-1)
			}
			g2.Name = g.Name
			second := export(t, g2, recs2, press2)
			if !bytes.Equal(first, second) {
				t.Fatalf("export, import, export differ:\n%s\n----\n%s", first, second)
			}
		})
	}
}

// TestPrivacy: no address, password hash, private press or the true
// sender of fake press appears in an export of a gunboat game.
func TestPrivacy(t *testing.T) {
	g, recs := played(t, "standard", 1)
	g.Observers = []state.Observer{{Addr: "watcher@secret.example", PassHash: []byte("OBSHASH")}}
	g.Entry.JoinHash = []byte("JOINHASH")
	g.Entry.Invited = []string{"invited@secret.example"}
	press := publicAndPrivate(recs[0].Phase, recs[1].Phase)
	press[3].From = "Austria"
	press[3].Claimed = "England"
	out := export(t, g, recs, press)
	for _, secret := range []string{"secret.example", "HASH", "PRIVATE-SECRET", "master_addr", "pass_hash", `"from": "Austria"`} {
		if bytes.Contains(out, []byte(secret)) {
			t.Errorf("the export contains %q", secret)
		}
	}
	for _, public := range []string{"Welcome, everyone.", "FAKE-TEXT", "\"England\"", "someone speaks", `"format": "gmd-game"`} {
		if !bytes.Contains(out, []byte(public)) {
			t.Errorf("the export lacks the public %q", public)
		}
	}
	t.Logf("%s", out[:min(len(out), 1500)])
}

// TestTamperedOrder: changing one order of a phase makes the check fail
// naming that phase, on every board.
func TestTamperedOrder(t *testing.T) {
	for _, v := range variants.Names() {
		t.Run(v, func(t *testing.T) {
			g, recs := played(t, v, 2)
			doc, err := Unmarshal(export(t, g, recs, nil))
			if err != nil {
				t.Fatal(err)
			}
			// Each order of each movement phase in turn becomes a hold;
			// one of them must change the game, and the check must then
			// name its phase.
			err = nil
			k := 0
			for k = range doc.Phases {
				for p, lines := range doc.Phases[k].Orders {
					for i, l := range lines {
						f := strings.Fields(l)
						if !strings.HasSuffix(doc.Phases[k].Phase, "M") || len(f) < 3 || f[2] == "H" || err != nil {
							continue
						}
						doc.Phases[k].Orders[p][i] = f[0] + " " + f[1] + " H"
						err = Check(doc)
						doc.Phases[k].Orders[p][i] = l
					}
				}
				if err != nil {
					break
				}
			}
			if err == nil || !strings.HasPrefix(err.Error(), "phase "+doc.Phases[k].Phase+":") {
				t.Fatalf("Check of a tampered game = %v, want an error naming %s", err, doc.Phases[k].Phase)
			}
			t.Log(err)
		})
	}
}

// TestRefusesOtherFormats: a document of another format or version is
// refused with a message saying so.
func TestRefusesOtherFormats(t *testing.T) {
	for in, want := range map[string]string{
		`{"format":"mila","version":1}`:     `format is "mila"`,
		`{"format":"gmd-game","version":2}`: "version 2",
		`not json`:                          "not a gmd game export",
	} {
		if _, err := Unmarshal([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Unmarshal(%s) = %v, want %q", in, err, want)
		}
	}
}

// TestTamperedResultsAndPositions: an edited results text, a results text
// of another turn, an edited position and a non-canonical order line are
// each refused, naming the phase.
func TestTamperedResultsAndPositions(t *testing.T) {
	g, recs := played(t, "standard", 1)
	data := export(t, g, recs, nil)
	for _, c := range []struct {
		name, want string
		edit       func(d *Game)
	}{
		{"results", "phase F1901M: its orders do not give the results recorded", func(d *Game) {
			d.Phases[1].Results = strings.Replace(d.Phases[1].Results, "Army", "Fleet", 1)
		}},
		{"turn", "phase S1901M: its orders do not give the results recorded", func(d *Game) {
			d.Phases[0].Results = strings.Replace(d.Phases[0].Results, "(g.001)", "(g.002)", 1)
		}},
		{"position", "phase S1901M: adjudicating its orders does not give the position of F1901M", func(d *Game) {
			d.Phases[1].Position = []byte(strings.Replace(string(d.Phases[1].Position), `"bre":"France"`, `"bre":"England"`, 1))
		}},
		{"final", "does not give the final position", func(d *Game) {
			d.Final = d.Phases[0].Position
		}},
		{"order", `not canonical (it reads "A vie H")`, func(d *Game) {
			d.Phases[0].Orders["Austria"] = append(d.Phases[0].Orders["Austria"], "a vienna holds")
		}},
	} {
		doc, err := Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		c.edit(doc)
		if err := Check(doc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want %q", c.name, err, c.want)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
}
