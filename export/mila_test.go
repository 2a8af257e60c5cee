package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// gmdDoc is the gmd-game document of a game played by random bots.
func gmdDoc(tb testing.TB, kind, variant string, years int, press []*state.Press) *Game {
	tb.Helper()
	g, recs := playedBy(tb, kind, variant, years)
	if press == nil {
		press = publicAndPrivate(recs[0].Phase, recs[len(recs)-1].Phase)
	}
	doc, err := Build(g, recs, press, view.Settings{})
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// toMILA converts doc and reads it back as MILA's JSON.
func toMILA(tb testing.TB, doc *Game) (*MILA, []byte) {
	tb.Helper()
	mg, err := ToMILA(doc)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := MarshalMILA(mg)
	if err != nil {
		tb.Fatal(err)
	}
	back, err := UnmarshalMILA(data)
	if err != nil {
		tb.Fatal(err)
	}
	return back, data
}

// TestMILARoundTripEveryBoard: on every board MILA has too, a game gmd
// played, written in MILA's format and read back, gives every phase's
// position and orders again, and passes gmd's own check.
func TestMILARoundTripEveryBoard(t *testing.T) {
	for _, v := range MILABoards() {
		t.Run(v, func(t *testing.T) {
			doc := gmdDoc(t, "heuristic", v, 3, nil)
			mg, data := toMILA(t, doc)
			if len(mg.Phases) != len(doc.Phases)+1 || mg.Phases[len(mg.Phases)-1].Name != MILAPhaseCompleted {
				t.Fatalf("MILA game has %d phases ending %s, want %d ending COMPLETED", len(mg.Phases), mg.Phases[len(mg.Phases)-1].Name, len(doc.Phases)+1)
			}
			back, err := FromMILA(mg, "copy", judge.DATC30, engine.ResultsText)
			if err != nil {
				t.Fatalf("gmd's own game, through MILA: %v", err)
			}
			if err := Check(back); err != nil {
				t.Fatalf("the imported game fails the check: %v", err)
			}
			if len(back.Phases) != len(doc.Phases) {
				t.Fatalf("%d phases back, want %d", len(back.Phases), len(doc.Phases))
			}
			for i, ph := range doc.Phases {
				got := back.Phases[i]
				if got.Phase != ph.Phase || !bytes.Equal(got.Position, ph.Position) {
					t.Fatalf("phase %d: %s %s, want %s %s", i, got.Phase, got.Position, ph.Phase, ph.Position)
				}
				if !maps.EqualFunc(got.Orders, ph.Orders, slices.Equal) {
					t.Fatalf("phase %s: orders %v, want %v", ph.Phase, got.Orders, ph.Orders)
				}
			}
			if !bytes.Equal(back.Final, doc.Final) {
				t.Fatalf("final %s, want %s", back.Final, doc.Final)
			}
			// The broadcasts of powers and the master come back; grey press
			// and private press were never written.
			if len(back.Press) != 1 || back.Press[0].From != "Master" || back.Press[0].Text != "Welcome, everyone." {
				t.Errorf("press back %+v, want the master's welcome alone", back.Press)
			}
			if bytes.Contains(data, []byte("PRIVATE-SECRET")) || bytes.Contains(data, []byte("someone speaks")) {
				t.Errorf("the MILA export holds private or grey press")
			}
		})
	}
}

// TestMILAFormat pins the facts of MILA's format in gmd's export of the
// standard opening: names, units, dislodged units with their retreats,
// builds and result codes as MILA writes them.
func TestMILAFormat(t *testing.T) {
	doc := gmdDoc(t, "heuristic", "standard", 6, []*state.Press{})
	mg, data := toMILA(t, doc)
	s0 := mg.Phases[0]
	if s0.Name != "S1901M" || mg.Map != "standard" || mg.ID != "g" {
		t.Fatalf("first phase %s on %s id %s", s0.Name, mg.Map, mg.ID)
	}
	if got := s0.State.Units["RUSSIA"]; !slices.Contains(got, "F STP/SC") || !slices.Contains(got, "A WAR") {
		t.Errorf("Russia's units %v, want F STP/SC and A WAR among them", got)
	}
	if got := s0.State.Centers["TURKEY"]; !slices.Equal(got, []string{"ANK", "CON", "SMY"}) {
		t.Errorf("Turkey's centres %v", got)
	}
	if len(s0.Results) != 22 {
		t.Errorf("%d results in S1901M, want one for each of the 22 units", len(s0.Results))
	}
	var retreats, builds, codes int
	for _, ph := range mg.Phases {
		for pw, us := range ph.State.Units {
			for _, u := range us {
				if strings.HasPrefix(u, "*") {
					retreats++
					if _, ok := ph.State.Retreats[pw][u[1:]]; !ok || !strings.HasSuffix(ph.Name, "R") {
						t.Errorf("%s: dislodged %s has no retreats entry", ph.Name, u)
					}
				}
			}
			for _, o := range ph.Orders[pw] {
				f := strings.Fields(o)
				switch {
				case strings.HasSuffix(ph.Name, "A"):
					builds++
					if o != "WAIVE" && f[len(f)-1] != "B" && f[len(f)-1] != "D" {
						t.Errorf("%s: adjustment %q", ph.Name, o)
					}
				case strings.HasSuffix(ph.Name, "R"):
					if f[2] != "R" && f[2] != "D" {
						t.Errorf("%s: retreat %q", ph.Name, o)
					}
				}
			}
		}
		for _, rs := range ph.Results {
			codes += len(rs)
			for _, r := range rs {
				if !slices.Contains([]string{"", "bounce", "cut", "dislodged", "void", "no convoy", "disrupted", "disband"}, r) {
					t.Errorf("%s: result code %q is not MILA's", ph.Name, r)
				}
			}
		}
	}
	if retreats == 0 || builds == 0 || codes == 0 {
		t.Errorf("six years gave %d dislodged units, %d adjustments, %d result codes: the test game is too quiet", retreats, builds, codes)
	}
	var generic map[string]any
	if err := json.Unmarshal(data, &generic); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "map", "rules", "phases"} {
		if _, ok := generic[k]; !ok {
			t.Errorf("no %q in the document", k)
		}
	}
	t.Logf("%s", data[:min(len(data), 1800)])
}

// TestMILAOrders reads every order form MILA writes and refuses what it
// does not, with the reason.
func TestMILAOrders(t *testing.T) {
	m := variants.Standard()
	for _, c := range []struct {
		t    judge.PhaseType
		in   string
		want string // canonical, or the error's words
	}{
		{judge.Movement, "A PAR - BUR", "A par - bur"},
		{judge.Movement, "A PAR H", "A par H"},
		{judge.Movement, "A LON - NWY VIA", "A lon - nwy via convoy"},
		{judge.Movement, "F NTH C A LON - NWY", "F nth C A lon - nwy"},
		{judge.Movement, "A MUN S A BER", "A mun S A ber"},
		{judge.Movement, "A MUN S A BER H", "A mun S A ber"},
		{judge.Movement, "F MAO S F BRE - GAS", "F mao S F bre - gas"},
		{judge.Movement, "F STP/SC - BOT", "F stp/sc - bot"},
		{judge.Movement, "F WES - LYO", "F wes - gol"},
		{judge.Retreat, "A PAR R BUR", "A par - bur"},
		{judge.Retreat, "A PAR D", "A par disband"},
		{judge.Adjustment, "A PAR D", "remove A par"},
		{judge.Adjustment, "F STP/NC B", "build F stp/nc"},
		{judge.Adjustment, "WAIVE", "waive"},
		{judge.Movement, "A PAR - XYZ", "no place XYZ"},
		{judge.Movement, "X PAR H", `unit type "X"`},
		{judge.Movement, "A PAR R BUR", "not an order of a movement phase"},
		{judge.Retreat, "A PAR - BUR", "not an order of a retreat phase"},
		{judge.Movement, "WAIVE", "adjustment order"},
		{judge.Movement, "A PAR S", "not an order MILA writes"},
		{judge.Movement, "A PAR S A BUR - ", "want S A PAR - BUR"},
		{judge.Movement, "A PAR - BUR - MUN - KIE - BER - PRU", "too many words"},
		{judge.Movement, "a par - bur", `unit type "a"`},
		{judge.Movement, "", "want a unit"},
	} {
		o, err := ParseMILAOrder(m, c.t, c.in)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = o.Canonical(m)
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%v %q: %q, want %q", c.t, c.in, got, c.want)
		}
	}
}

// milaGame is a small MILA saved game written for these tests: France
// opens, Germany bounces Russia in Silesia, and the board after it.
const milaGame = `{"id":"t1","map":"standard","rules":["NO_PRESS"],"phases":[
{"name":"S1901M","state":{"name":"S1901M","units":{"AUSTRIA":["A BUD","A VIE","F TRI"],"ENGLAND":["F EDI","F LON","A LVP"],"FRANCE":["F BRE","A MAR","A PAR"],"GERMANY":["F KIE","A BER","A MUN"],"ITALY":["F NAP","A ROM","A VEN"],"RUSSIA":["A WAR","A MOS","F SEV","F STP/SC"],"TURKEY":["F ANK","A CON","A SMY"]},
 "centers":{"AUSTRIA":["BUD","TRI","VIE"],"ENGLAND":["EDI","LON","LVP"],"FRANCE":["BRE","MAR","PAR"],"GERMANY":["BER","KIE","MUN"],"ITALY":["NAP","ROM","VEN"],"RUSSIA":["MOS","SEV","STP","WAR"],"TURKEY":["ANK","CON","SMY"]}},
 "orders":{"FRANCE":["A PAR - BUR","F BRE - MAO","A MAR S A PAR - BUR"],"GERMANY":["A BER - SIL"],"RUSSIA":["A WAR - SIL"],"AUSTRIA":null},
 "results":{"A PAR":[],"A BER":["bounce"],"A WAR":["bounce"]},
 "messages":[{"sender":"FRANCE","recipient":"GLOBAL","time_sent":1,"phase":"S1901M","message":"Bonjour"},{"sender":"FRANCE","recipient":"ENGLAND","time_sent":2,"phase":"S1901M","message":"PRIVATE"}]},
{"name":"F1901M","state":{"name":"F1901M","units":{"AUSTRIA":["A BUD","A VIE","F TRI"],"ENGLAND":["F EDI","F LON","A LVP"],"FRANCE":["F MAO","A MAR","A BUR"],"GERMANY":["F KIE","A BER","A MUN"],"ITALY":["F NAP","A ROM","A VEN"],"RUSSIA":["A WAR","A MOS","F SEV","F STP/SC"],"TURKEY":["F ANK","A CON","A SMY"]},
 "centers":{"AUSTRIA":["BUD","TRI","VIE"],"ENGLAND":["EDI","LON","LVP"],"FRANCE":["BRE","MAR","PAR"],"GERMANY":["BER","KIE","MUN"],"ITALY":["NAP","ROM","VEN"],"RUSSIA":["MOS","SEV","STP","WAR"],"TURKEY":["ANK","CON","SMY"]}},
 "orders":{},"results":{},"messages":[]}]}`

// TestFromMILA reads the hand-written game: gmd agrees, the public
// message comes in as France's broadcast and the private one stays out.
func TestFromMILA(t *testing.T) {
	mg, err := UnmarshalMILA([]byte(milaGame))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := FromMILA(mg, "", judge.DATC30, engine.ResultsText)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Name != "t1" || len(doc.Phases) != 1 || doc.Phases[0].Phase != "S1901M" {
		t.Fatalf("doc %s with %d phases", doc.Name, len(doc.Phases))
	}
	if got := doc.Phases[0].Written["France"]; !slices.Contains(got, "A PAR - BUR") {
		t.Errorf("France's written orders %v, want MILA's text", got)
	}
	if len(doc.Press) != 1 || doc.Press[0].From != "France" || doc.Press[0].Text != "Bonjour" || doc.Settings.Press != "white" {
		t.Errorf("press %+v under press %q, want France's Bonjour alone, white press", doc.Press, doc.Settings.Press)
	}
	if err := Check(doc); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", doc.Phases[0].Results)
}

// TestFromMILADisagreement: where MILA's record is not what gmd rules,
// the first phase that differs is named with what each engine has.
func TestFromMILADisagreement(t *testing.T) {
	for _, c := range []struct{ name, from, to, want string }{
		{"moved unit", `"FRANCE":["F MAO","A MAR","A BUR"]`, `"FRANCE":["F MAO","A MAR","A PAR"]`,
			"phase S1901M: gmd and MILA end it on different boards: in bur MILA has nothing, gmd France A bur; in par MILA has France A par, gmd nothing"},
		{"phase", `"name":"F1901M","state":{"name":"F1901M"`, `"name":"F1902M","state":{"name":"F1902M"`,
			"phase S1901M: after it MILA plays F1902M, gmd F1901M"},
		{"build any", `"rules":["NO_PRESS"]`, `"rules":["NO_PRESS","BUILD_ANY"]`, "MILA rule BUILD_ANY"},
		{"map", `"map":"standard"`, `"map":"modern"`, `MILA map "modern": gmd has no such board`},
		{"power", `"FRANCE":["A PAR - BUR"`, `"PRUSSIA":["A PAR - BUR"`, `phase S1901M: orders of "PRUSSIA": no such power on standard`},
		{"order", `"A PAR - BUR",`, `"A PAR - BUR - MUN",`, `phase S1901M: France's order "A PAR - BUR - MUN": not an order MILA writes`},
		{"unit", `"F BRE","A MAR","A PAR"`, `"F BRE","A MAR","A PAR","F MUN"`, `France's unit "F MUN": a fleet cannot stand in Munich`},
		{"two dislodged", `"name":"F1901M","state":{"name":"F1901M","units":{"AUSTRIA":["A BUD"`, `"name":"S1901R","state":{"name":"S1901R","units":{"AUSTRIA":["*A BER","*F BER","A BUD"`, "two units dislodged from Berlin"},
		{"army convoys", `"GERMANY":["A BER - SIL"]`, `"GERMANY":["A BER - SIL","A MUN C A BER - SIL"]`, `phase S1901M: Germany's order "A mun C A ber - sil" (MILA's "A MUN C A BER - SIL"): gmd cannot take it: line 1 col 1: only a fleet can convoy`},
		{"state name", `"name":"S1901M","state":{"name":"S1901M"`, `"name":"S1901M","state":{"name":"F1901M"`, `its state is of phase "F1901M"`},
		{"centre", `"TURKEY":["ANK","CON","SMY"]}},
 "orders":{},`, `"TURKEY":["ANK","CON","SMY","GRE"]}},
 "orders":{},`, "the centre gre is Turkey's for MILA, nobody's for gmd"},
	} {
		in := strings.Replace(milaGame, c.from, c.to, 1)
		if in == milaGame {
			t.Fatalf("%s: the edit did not apply", c.name)
		}
		mg, err := UnmarshalMILA([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		_, err = FromMILA(mg, "", judge.DATC30, engine.ResultsText)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
}

// TestMILATimes: MILA's times in microseconds come in as such, and a
// time JSON could not write back is none.
func TestMILATimes(t *testing.T) {
	for us, want := range map[int64]string{
		1537459322922097:   "2018-09-20T16:02:02.922097Z",
		0:                  "0001-01-01T00:00:00Z",
		-5:                 "0001-01-01T00:00:00Z",
		1 << 62:            "0001-01-01T00:00:00Z",
		253402300799999999: "9999-12-31T23:59:59.999999Z",
	} {
		got, err := microTime(us).MarshalText()
		if err != nil || string(got) != want {
			t.Errorf("microTime(%d) = %s, %v; want %s", us, got, err, want)
		}
	}
}

// TestMILALimits: a MILA file past the bounds on phases, units and orders
// is refused, saying which, before it is played.
func TestMILALimits(t *testing.T) {
	phase := `{"name":"S1901M","state":{"units":{"FRANCE":[%s]}},"orders":{"FRANCE":[%s]}}`
	many := func(n int, s string) string {
		return strings.TrimSuffix(strings.Repeat(s+",", n), ",")
	}
	for _, c := range []struct{ name, doc, want string }{
		{"phases", `{"id":"x","map":"pure","phases":[` + many(maxSourcePhases+1, fmt.Sprintf(phase, `"A PAR"`, "")) + `]}`,
			"MILA game has 2001 phases, more than the 2000 gmd reads"},
		// Units are bounded by the board: a second unit in a province is
		// refused at once.
		{"units", `{"id":"x","map":"pure","phases":[` + fmt.Sprintf(phase, many(100000, `"A PAR"`), "") + `]}`,
			`France's unit "A PAR": two units in Paris`},
		{"orders", `{"id":"x","map":"pure","phases":[` + fmt.Sprintf(phase, `"A PAR"`, many(maxSourceOrders+1, `"A PAR H"`)) + `]}`,
			"401 orders, more than the 400 gmd reads in one phase"},
	} {
		mg, err := UnmarshalMILA([]byte(c.doc))
		if err == nil {
			_, err = FromMILA(mg, "x", judge.DATC30, engine.ResultsText)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
}

// TestFromMILAWrongType: an order that names the wrong type of unit is
// void, and stays so in gmd's document: its canonical line keeps the
// type written, so that Check reads back the ruling recorded.
func TestFromMILAWrongType(t *testing.T) {
	mg, err := UnmarshalMILA([]byte(strings.Replace(milaGame, `"A MAR S A PAR - BUR"`, `"F MAR S A PAR - BUR"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := FromMILA(mg, "", judge.DATC30, engine.ResultsText)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(doc.Phases[0].Orders["France"], "F mar S A par - bur") || !strings.Contains(doc.Phases[0].Results, "Burgundy. (*void*)") {
		t.Fatalf("orders %v, results\n%s\nwant the fleet's support kept and void", doc.Phases[0].Orders, doc.Phases[0].Results)
	}
	if err := Check(doc); err != nil {
		t.Fatal(err)
	}
}

// TestToMILABoards: a game on a board MILA does not have is refused,
// naming the boards it has; every board gmd has is one or the other.
func TestToMILABoards(t *testing.T) {
	shared := 0
	for _, v := range variants.Names() {
		_, err := ToMILA(gmdDoc(t, "random", v, 1, []*state.Press{}))
		switch {
		case slices.Contains(MILABoards(), v):
			shared++
			if err != nil {
				t.Errorf("%s: %v", v, err)
			}
		case err == nil || !strings.Contains(err.Error(), "MILA's package has no "+v+" board (it has standard, pure,"):
			t.Errorf("%s: %v, want a refusal naming MILA's boards", v, err)
		}
	}
	if shared != len(MILABoards()) {
		t.Errorf("%d of MILA's %d boards are gmd's", shared, len(MILABoards()))
	}
}
