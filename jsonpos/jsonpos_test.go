package jsonpos

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

func mustDecode(t *testing.T, s string) (*judge.Position, judge.Rules) {
	t.Helper()
	pos, rules, err := DecodePosition([]byte(s))
	if err != nil {
		t.Fatalf("DecodePosition(%s): %v", s, err)
	}
	return pos, rules
}

// TestEncodeExact pins the output byte for byte: field order, canonical
// names, and empty lists written as [] and {}.
func TestEncodeExact(t *testing.T) {
	pos, rules := mustDecode(t, `{"phase": "S1902M", "rules": "datc-2.4",
		"units": [{"power": "Russia", "type": "F", "at": "stp/sc"}, {"power": "England", "type": "F", "at": "nth"}]}`)
	got := string(EncodePosition(pos, rules))
	// nth comes before stp in the standard map's place order (seas first).
	want := `{"variant":"standard","rules":"datc-2.4","phase":"S1902M",` +
		`"units":[{"power":"England","type":"F","at":"nth"},{"power":"Russia","type":"F","at":"stp/sc"}],` +
		`"dislodged":[],"bounced":[],"centers":{},"built_centers":[],"pending_centers":[]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestStartPositionRoundTrip(t *testing.T) {
	m := variants.Standard()
	start := judge.StartPosition(m)
	out := EncodePosition(start, judge.DefaultRules)
	pos, rules, err := DecodePosition(out)
	if err != nil {
		t.Fatalf("decoding our own output: %v\n%s", err, out)
	}
	if rules.Name != "datc-3.0" {
		t.Errorf("rules = %q", rules.Name)
	}
	if again := EncodePosition(pos, rules); !bytes.Equal(again, out) {
		t.Errorf("round trip changed the position:\n%s\n%s", out, again)
	}
	for i := range start.Units {
		if pos.Units[i] != start.Units[i] {
			t.Errorf("unit %s: got %+v, want %+v", m.LocName(judge.Loc(i)), pos.Units[i], start.Units[i])
		}
	}
	if !slicesEqual(pos.Centers, start.Centers) {
		t.Error("centres differ after the round trip")
	}
	// encoding/json must read it too, with 22 units and 22 centres.
	var v struct {
		Units   []map[string]string `json:"units"`
		Centers map[string]string   `json:"centers"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Units) != 22 || len(v.Centers) != 22 || v.Centers["stp"] != "Russia" {
		t.Errorf("encoding/json reads %d units, %d centres, stp=%q", len(v.Units), len(v.Centers), v.Centers["stp"])
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAliases: every name the order parser takes is taken, and the output
// uses the canonical ones.
func TestAliases(t *testing.T) {
	pos, rules := mustDecode(t, `{"variant": "Standard", "phase": "f1901r", "rules": "3.0",
		"units": [
			{"power": "e", "type": "Fleet", "at": "mid"},
			{"power": "ENGLISH", "type": "f", "at": "North Sea"},
			{"power": "russia", "type": "F", "at": "St. Petersburg (north coast)"},
			{"power": "Austrian", "type": "army", "at": "Vienna"}],
		"dislodged": [{"power": "T", "type": "F", "at": "Gulf of Lyons", "attacker_from": "Western Mediterranean"},
			{"power": "France", "type": "F", "at": "Mid-Atlantic Ocean"}],
		"bounced": ["Galicia", "gal", "boh"],
		"centers": {"London": "England", "Saint Petersburg": "r"}}`)
	got := string(EncodePosition(pos, rules))
	want := `{"variant":"standard","rules":"datc-3.0","phase":"F1901R",` +
		`"units":[{"power":"England","type":"F","at":"mao"},{"power":"England","type":"F","at":"nth"},` +
		`{"power":"Austria","type":"A","at":"vie"},{"power":"Russia","type":"F","at":"stp/nc"}],` +
		`"dislodged":[{"power":"Turkey","type":"F","at":"gol","attacker_from":"wes"},{"power":"France","type":"F","at":"mao"}],` +
		`"bounced":["boh","gal"],"centers":{"lon":"England","stp":"Russia"},` +
		`"built_centers":[],"pending_centers":[]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if d := pos.Dislodged[1]; d.AttackerFrom != judge.NoLoc {
		t.Errorf("a dislodged unit without attacker_from has AttackerFrom %v, want NoLoc", d.AttackerFrom)
	}
}

// TestErrors: a malformed position is rejected with a message that names
// the field.
func TestErrors(t *testing.T) {
	const u = `{"power": "England", "type": "A", "at": "lon"}`
	for _, tc := range []struct{ in, want string }{
		{`{"units": []}`, `phase: missing (want a phase like S1901M)`},
		{`{"phase": "X1901M"}`, `phase: "X1901M": season must be S, F or W`},
		{`{"phase": "S1901A"}`, `phase: "S1901A": adjustments happen in Winter, and only adjustments`},
		{`{"phase": 1901}`, `phase: want a string, got a number`},
		{`{"phase": "S1901M", "rules": "house"}`, `rules: unknown rule set "house" (want datc-3.0 or datc-2.4)`},
		{`{"phase": "S1901M", "variant": "nosuchmap"}`, `variant: unknown variant "nosuchmap" (known: ` + strings.Join(variants.Names(), ", ") + `)`},
		{`{"phase": "S1901M", "colour": "red"}`, `unknown field "colour"`},
		{`{"phase": "S1901M", "phase": "S1902M"}`, `phase: given twice`},
		{`{"phase": "S1901M", "units": [{"power": "England", "type": "A", "at": "lon", "at": "wal"}]}`, `units[0].at: given twice`},
		{`{"phase": "S1901M", "units": [], "units": []}`, `units: given twice`},
		{`{"phase": "S1901M", "centers": {"lon": "England", "lon": "France"}}`, `centers["lon"]: London is listed twice`},
		{`{"phase": "S1901M", "units": {}}`, `units: want an array, got an object`},
		{`{"phase": "S1901M", "units": [` + u + `, "lon"]}`, `units[1]: want an object, got a string`},
		{`{"phase": "S1901M", "units": [` + u + `, {"power": "England", "type": "A", "at": "lon", "hp": 3}]}`,
			`units[1]: unknown field "hp"`},
		{`{"phase": "S1901M", "units": [{"power": "England", "type": "A", "at": "xyz"}]}`, `units[0].at: unknown province "xyz"`},
		{`{"phase": "S1901M", "units": [{"power": "England", "type": "A"}]}`, `units[0].at: missing`},
		{`{"phase": "S1901M", "units": [{"power": "Ingland", "type": "A", "at": "lon"}]}`, `units[0].power: unknown power "Ingland"`},
		{`{"phase": "S1901M", "units": [{"power": "England", "type": "W", "at": "lon"}]}`,
			`units[0].type: unknown unit type "W" (want "A" or "F")`},
		{`{"phase": "S1901M", "units": [{"power": "England", "type": "A", "at": "lon"}, {"power": "England", "type": "A", "at": "lvp"},` +
			`{"power": "England", "type": "A", "at": "yor"}, {"power": "England", "type": "F", "at": "nth"},` +
			`{"power": "England", "type": "A", "at": "wal"}, {"power": "France", "type": "A", "at": "London"}]}`,
			`units[5]: two units in London`},
		{`{"phase": "S1901M", "units": [` + u + `, {"power": "France", "type": "F", "at": "par"}]}`,
			`units[1]: a fleet cannot stand in Paris, which is inland`},
		{`{"phase": "S1901M", "units": [{"power": "Russia", "type": "F", "at": "stp"}]}`,
			`units[0]: a fleet in St Petersburg needs a coast (stp/nc or stp/sc)`},
		{`{"phase": "S1901M", "units": [{"power": "Russia", "type": "A", "at": "nth"}]}`,
			`units[0]: an army cannot stand in North Sea, which is sea`},
		{`{"phase": "S1901M", "units": [{"power": "Russia", "type": "A", "at": "stp", "attacker_from": "fin"}]}`,
			`units[0]: unknown field "attacker_from" (only dislodged units have it)`},
		{`{"phase": "S1901M", "dislodged": [` + u + `]}`, `dislodged: only a retreat phase has dislodged units`},
		{`{"phase": "W1901A", "bounced": ["gal"]}`, `bounced: only a retreat phase has bounces to remember`},
		{`{"phase": "S1901R", "dislodged": [` + u + `, ` + u + `]}`, `dislodged[1]: two units in London`},
		{`{"phase": "S1901R", "dislodged": [{"power": "England", "type": "A", "at": "lon", "attacker_from": "xyz"}]}`,
			`dislodged[0].attacker_from: unknown province "xyz"`},
		{`{"phase": "S1901R", "bounced": ["gal", 3]}`, `bounced[1]: want a string, got a number`},
		{`{"phase": "S1901R", "bounced": ["gal", "qqq"]}`, `bounced[1]: unknown province "qqq"`},
		{`{"phase": "S1901M", "centers": {"bur": "France"}}`, `centers["bur"]: Burgundy is not a supply centre`},
		{`{"phase": "S1901M", "centers": {"par": "Frankreich"}}`, `centers["par"]: unknown power "Frankreich"`},
		{`{"phase": "S1901M", "centers": {"par": "France", "Paris": "France"}}`, `centers["Paris"]: Paris is listed twice`},
		{`{"phase": "S1901M", "centers": {"par": 1}}`, `centers["par"]: want a string, got a number`},
		{`{"phase": "S1901M", "centers": ["par"]}`, `centers: want an object, got an array`},
		{`{"phase": "S1902M", "pending_centers": [{"power": "England", "at": "yor", "ordered": "W1901A"}]}`,
			`pending_centers: variant standard has no supply centre construction`},
		{`{"phase": "S1902M", "built_centers": ["yor"]}`, `built_centers: variant standard has no supply centre construction`},
		{`{"phase": "S1902M", "built_centers": [], "built_centers": []}`, `built_centers: given twice`},
		// Malformed JSON is located by line and column instead.
		{`{"phase": "S1901M",}`, `JSON syntax error at line 1 col 20: want a field name in double quotes`},
		{"{\"phase\":\n \"S1901M\"\n \"units\": []}", `JSON syntax error at line 3 col 2: want ',' or '}' after the value of "phase"`},
		{`{"phase": "S1901M"} {}`, `JSON syntax error at line 1 col 21: more after the end of the value`},
		{`{"phase": "S1901M`, `JSON syntax error at line 1 col 18: unterminated string`},
		{`{"phase": "S1901M", "units": [` + u + `,]}`, `JSON syntax error at line 1 col 78: want a value after ','`},
		{`{"phase": nul}`, `JSON syntax error at line 1 col 11: invalid literal`},
		{`{"phase": "\x"}`, `JSON syntax error at line 1 col 12: bad escape \x`},
		{``, `want an object, got the end of the input`},
		{`[]`, `want an object, got an array`},
	} {
		_, _, err := DecodePosition([]byte(tc.in))
		if err == nil {
			t.Errorf("%s: no error, want %q", tc.in, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%s:\n got  %q\n want %q", tc.in, err, tc.want)
		}
	}
}

// TestConstructionErrors: built and pending centres must be ones the judge
// could have made, at the time the position says.
func TestConstructionErrors(t *testing.T) {
	pc := func(fields string) string {
		return `{"variant": "343536", "phase": "S1902M", "pending_centers": [` + fields + `]}`
	}
	const yor = `{"power": "England", "at": "yor", "ordered": "W1901A"}`
	for _, tc := range []struct{ in, want string }{
		{pc(`{"power": "England", "at": "yor"}`), `pending_centers[0].ordered: missing (want the phase of the order, like W1901A)`},
		{pc(`{"power": "England", "at": "yor", "ordered": "W1901A", "n": 1}`), `pending_centers[0]: unknown field "n"`},
		{pc(`{"power": "England", "at": "yyy", "ordered": "W1901A"}`), `pending_centers[0].at: unknown province "yyy"`},
		{pc(`{"at": "yor", "ordered": "W1901A"}`), `pending_centers[0].power: missing`},
		{pc(`{"power": "England", "at": "yor", "ordered": "X"}`),
			`pending_centers[0].ordered: "X": want a season letter, a year and a type letter, like S1901M`},
		{pc(`{"power": "England", "at": "alb", "ordered": "W1901A"}`), `pending_centers[0].at: Albania is not in England's home country`},
		{pc(`{"power": "England", "at": "lon", "ordered": "W1901A"}`), `pending_centers[0].at: London is already a supply centre`},
		{pc(yor + `, {"power": "E", "at": "York", "ordered": "W1901A"}`), `pending_centers[1].at: Yorkshire is listed twice`},
		{pc(yor + `, {"power": "England", "at": "wal", "ordered": "W1901A"}`),
			`pending_centers[1].power: England has two constructions: one a year`},
		{pc(`{"power": "England", "at": "yor", "ordered": "S1901M"}`),
			`pending_centers[0].ordered: constructions are ordered in a Winter adjustment phase, not in S1901M`},
		{pc(`{"power": "England", "at": "yor", "ordered": "W1900A"}`),
			`pending_centers[0].ordered: a construction ordered in W1900A is pending from S1901M to F1901R, not in S1902M`},
		{`{"variant": "343536", "phase": "W1902A", "pending_centers": [{"power": "England", "at": "yor", "ordered": "W1901A"}]}`,
			`pending_centers[0].ordered: a construction ordered in W1901A is pending from S1902M to F1902R, not in W1902A`},
		{pc(`{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_by": "Germany"}`),
			`pending_centers[0].spoiled_in: missing (spoiled_by needs the phase it spoiled the construction in)`},
		{pc(`{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_in": "S1902M"}`),
			`pending_centers[0].spoiled_by: missing (spoiled_in needs the power that spoiled the construction)`},
		{pc(`{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_by": "England", "spoiled_in": "S1902M"}`),
			`pending_centers[0].spoiled_by: England's own units do not spoil its construction`},
		{pc(`{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_by": "Prussia", "spoiled_in": "S1902M"}`),
			`pending_centers[0].spoiled_by: unknown power "Prussia"`},
		// Spoiled in the phase of the position itself: not yet played.
		{pc(`{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_by": "Germany", "spoiled_in": "S1902M"}`),
			`pending_centers[0].spoiled_in: S1902M is not a movement or retreat phase of 1902 before S1902M`},
		{`{"variant": "343536", "phase": "F1902M", "pending_centers": [{"power": "England", "at": "yor", "ordered": "W1901A",` +
			` "spoiled_by": "Germany", "spoiled_in": "F1901M"}]}`,
			`pending_centers[0].spoiled_in: F1901M is not a movement or retreat phase of 1902 before F1902M`},
		{`{"variant": "343536", "phase": "F1902M", "built_centers": ["lon"]}`, `built_centers[0]: London is a supply centre of the map`},
		{`{"variant": "343536", "phase": "F1902M", "built_centers": ["alb"]}`,
			`built_centers[0]: Albania is in no power's home country, where centres are built`},
		{`{"variant": "343536", "phase": "F1902M", "built_centers": ["yor", "York"]}`, `built_centers[1]: Yorkshire is listed twice`},
		{`{"variant": "343536", "phase": "F1902M", "built_centers": ["yor", 1]}`, `built_centers[1]: want a string, got a number`},
		{`{"variant": "343536", "phase": "F1902M", "built_centers": ["yor"], "pending_centers": [{"power": "England", "at": "yor", "ordered": "W1901A"}]}`,
			`pending_centers[0].at: Yorkshire is already a supply centre`},
		// A centre must be built before it can be owned.
		{`{"variant": "343536", "phase": "F1902M", "centers": {"yor": "England"}}`, `centers["yor"]: Yorkshire is not a supply centre`},
	} {
		_, _, err := DecodePosition([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got  %v\n want %q", tc.in, err, tc.want)
		}
	}
}

// TestConstructionRoundTrip reads built and pending centres with any names
// the parser takes, writes them canonically, and reads its output back.
func TestConstructionRoundTrip(t *testing.T) {
	pos, rules := mustDecode(t, `{"variant": "34, 35, 36", "phase": "f1902r",
		"units": [{"power": "Russia", "type": "A", "at": "Yorkshire"}],
		"built_centers": ["Wales", "arm"],
		"centers": {"Wales": "England", "Armenia": "Russia", "lon": "England"},
		"pending_centers": [
			{"power": "e", "at": "York", "ordered": "F1901B"},
			{"power": "Russian", "at": "Livonia", "ordered": "w1901a", "spoiled_by": "G", "spoiled_in": "f1902m"},
			{"power": "Turkey", "at": "jor", "ordered": "W1901A", "spoiled_by": "Austria", "spoiled_in": "S1902R"}]}`)
	m := pos.Map
	want := `{"variant":"34-35-36","rules":"datc-3.0","phase":"F1902R",` +
		`"units":[{"power":"Russia","type":"A","at":"yor"}],"dislodged":[],"bounced":[],` +
		`"centers":{"arm":"Russia","lon":"England","wal":"England"},"built_centers":["arm","wal"],` +
		`"pending_centers":[{"power":"England","at":"yor","ordered":"W1901A"},` +
		`{"power":"Russia","at":"lvn","ordered":"W1901A","spoiled_by":"Germany","spoiled_in":"F1902M"},` +
		`{"power":"Turkey","at":"jor","ordered":"W1901A","spoiled_by":"Austria","spoiled_in":"S1902R"}]}`
	out := EncodePosition(pos, rules)
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	again, rules2, err := DecodePosition(out)
	if err != nil {
		t.Fatalf("reading our own output: %v", err)
	}
	if !bytes.Equal(EncodePosition(again, rules2), out) {
		t.Error("the round trip changed the position")
	}
	if !pos.IsCenter(m.Names()["wal"]) || pos.CenterCount()[1] != 2 || pos.VictoryCenters() != 19 {
		t.Errorf("Wales a centre %v, England's centres %d, victory %d", pos.IsCenter(m.Names()["wal"]),
			pos.CenterCount()[1], pos.VictoryCenters())
	}
	lvn := pos.PendingCenters[1]
	if !lvn.Spoiled || m.PowerName(lvn.SpoiledBy) != "Germany" || lvn.SpoiledIn.String() != "F1902M" {
		t.Errorf("Livonia: %+v", lvn)
	}
	// encoding/json reads the same.
	var v struct {
		Built   []string            `json:"built_centers"`
		Pending []map[string]string `json:"pending_centers"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Built) != 2 || v.Pending[1]["spoiled_by"] != "Germany" || v.Pending[0]["spoiled_in"] != "" {
		t.Errorf("encoding/json reads %+v", v)
	}
}

// TestEndedConstructions: a Winter position keeps the constructions that
// ended with the Fall before it, built or spoiled, for the Winter's
// results. The field is read with any names, written canonically and only
// when there are some, and read back.
func TestEndedConstructions(t *testing.T) {
	pos, rules := mustDecode(t, `{"variant": "343536", "phase": "W1902A",
		"units": [{"power": "Russia", "type": "A", "at": "jor"}],
		"built_centers": ["Jordan"],
		"centers": {"jor": "Russia"},
		"ended_constructions": [
			{"power": "E", "at": "Yorkshire", "ordered": "w1901a", "spoiled_by": "German", "spoiled_in": "s1902m"},
			{"power": "Turkey", "at": "jor", "ordered": "W1901A"},
			{"power": "Russia", "at": "lvn", "ordered": "W1901A", "spoiled_by": "Austria", "spoiled_in": "F1902R"}]}`)
	want := `{"variant":"34-35-36","rules":"datc-3.0","phase":"W1902A",` +
		`"units":[{"power":"Russia","type":"A","at":"jor"}],"dislodged":[],"bounced":[],` +
		`"centers":{"jor":"Russia"},"built_centers":["jor"],"pending_centers":[],` +
		`"ended_constructions":[{"power":"England","at":"yor","ordered":"W1901A","spoiled_by":"Germany","spoiled_in":"S1902M"},` +
		`{"power":"Turkey","at":"jor","ordered":"W1901A"},` +
		`{"power":"Russia","at":"lvn","ordered":"W1901A","spoiled_by":"Austria","spoiled_in":"F1902R"}]}`
	out := EncodePosition(pos, rules)
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	again, rules2, err := DecodePosition(out)
	if err != nil {
		t.Fatalf("reading our own output: %v", err)
	}
	if !bytes.Equal(EncodePosition(again, rules2), out) {
		t.Error("the round trip changed the position")
	}
	m := pos.Map
	if len(pos.EndedConstructions) != 3 || !pos.EndedConstructions[0].Spoiled || pos.EndedConstructions[1].Spoiled ||
		m.PowerName(pos.EndedConstructions[2].SpoiledBy) != "Austria" {
		t.Errorf("ended %+v", pos.EndedConstructions)
	}
	// Without any, the field is left out: positions read as before it
	// existed. A Decoder carries none over to the next position.
	var d Decoder
	if _, _, err := d.Position(out); err != nil {
		t.Fatal(err)
	}
	pos, rules, err = d.Position([]byte(`{"variant": "343536", "phase": "W1903A"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(EncodePosition(pos, rules)); len(pos.EndedConstructions) != 0 || strings.Contains(got, "ended_constructions") {
		t.Errorf("no ended constructions, yet: %s", got)
	}

	ec := func(fields string) string {
		return `{"variant": "343536", "phase": "W1902A", "built_centers": ["jor"], "ended_constructions": [` + fields + `]}`
	}
	const yor = `{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_by": "Germany", "spoiled_in": "S1902M"}`
	for _, tc := range []struct{ in, want string }{
		{`{"phase": "W1902A", "ended_constructions": [` + yor + `]}`,
			`ended_constructions: variant standard has no supply centre construction`},
		{`{"variant": "343536", "phase": "S1903M", "ended_constructions": [` + yor + `]}`,
			`ended_constructions: only a Winter adjustment phase has constructions that ended with the Fall before it`},
		{ec(yor + `, 1`), `ended_constructions[1]: want an object, got a number`},
		{ec(`{"power": "England", "at": "yor", "ordered": "W1901A", "built": true}`), `ended_constructions[0]: unknown field "built"`},
		{ec(`{"power": "England", "at": "alb", "ordered": "W1901A"}`), `ended_constructions[0].at: Albania is not in England's home country`},
		{ec(`{"power": "England", "at": "yor"}`), `ended_constructions[0].ordered: missing (want the phase of the order, like W1901A)`},
		{ec(`{"power": "England", "at": "yor", "ordered": "W1900A", "spoiled_by": "Germany", "spoiled_in": "S1902M"}`),
			`ended_constructions[0].ordered: a construction that ended before W1902A was ordered in W1901A, not in W1900A`},
		{ec(yor + `, {"power": "E", "at": "York", "ordered": "W1901A", "spoiled_by": "Germany", "spoiled_in": "S1902M"}`),
			`ended_constructions[1].at: Yorkshire is listed twice`},
		{ec(yor + `, {"power": "England", "at": "wal", "ordered": "W1901A", "spoiled_by": "Germany", "spoiled_in": "S1902M"}`),
			`ended_constructions[1].power: England has two constructions: one a year`},
		{ec(`{"power": "England", "at": "yor", "ordered": "W1901A"}`),
			`ended_constructions[0].at: Yorkshire was built (not spoiled), so built_centers must list it`},
		{ec(`{"power": "Turkey", "at": "jor", "ordered": "W1901A", "spoiled_by": "Russia", "spoiled_in": "S1902M"}`),
			`ended_constructions[0].at: Jordan is a supply centre, yet its construction was spoiled`},
		{ec(`{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_by": "England", "spoiled_in": "S1902M"}`),
			`ended_constructions[0].spoiled_by: England's own units do not spoil its construction`},
		{ec(`{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_by": "Germany"}`),
			`ended_constructions[0].spoiled_in: missing (spoiled_by needs the phase it spoiled the construction in)`},
		{ec(`{"power": "England", "at": "yor", "ordered": "W1901A", "spoiled_by": "Germany", "spoiled_in": "W1901A"}`),
			`ended_constructions[0].spoiled_in: W1901A is not a movement or retreat phase of 1902 before W1902A`},
		{`{"variant": "343536", "phase": "W1902A", "ended_constructions": [], "ended_constructions": []}`,
			`ended_constructions: given twice`},
	} {
		_, _, err := DecodePosition([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got  %v\n want %q", tc.in, err, tc.want)
		}
	}
}

// TestNullAndEscapes: null is an absent field, and JSON escapes work in
// names and keys.
func TestNullAndEscapes(t *testing.T) {
	pos, rules := mustDecode(t, `{"variant": null, "rules": null, "phase": "S1901M", "units": null, "dislodged": null,
		"bounced": null, "centers": null, "built_centers": null, "pending_centers": null}`)
	if rules.Name != "datc-3.0" || pos.Map.Name != "standard" {
		t.Errorf("defaults: rules %q, variant %q", rules.Name, pos.Map.Name)
	}
	pos, rules = mustDecode(t, `{"phase":"S1901M","units":[{"power":"\u0045ngland","type":"\u0046",`+
		`"at":"St. Petersburg \u0028south coast)"}],"centers":{"\u006con":"England"}}`)
	got := string(EncodePosition(pos, rules))
	if !strings.Contains(got, `"units":[{"power":"England","type":"F","at":"stp/sc"}]`) {
		t.Errorf("escapes not decoded: %s", got)
	}
	if !strings.Contains(got, `"centers":{"lon":"England"}`) {
		t.Errorf("escaped key not decoded: %s", got)
	}
}

// TestDecoderReuse: a Decoder used for many positions carries nothing over.
func TestDecoderReuse(t *testing.T) {
	var d Decoder
	first := `{"variant":"34-35-36","phase":"S1901R","units":[{"power":"England","type":"A","at":"lon"}],` +
		`"dislodged":[{"power":"France","type":"A","at":"par"}],"bounced":["gal"],"centers":{"lon":"England","wal":"England"},` +
		`"built_centers":["wal"],"pending_centers":[{"power":"England","at":"yor","ordered":"W1900A"}]}`
	if _, _, err := d.Position([]byte(first)); err != nil {
		t.Fatal(err)
	}
	pos, rules, err := d.Position([]byte(`{"phase":"S1902M"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"variant":"standard","rules":"datc-3.0","phase":"S1902M","units":[],"dislodged":[],"bounced":[],` +
		`"centers":{},"built_centers":[],"pending_centers":[]}`
	if got := string(EncodePosition(pos, rules)); got != want {
		t.Errorf("second position kept data of the first:\n%s", got)
	}
}

func TestDecodeRequest(t *testing.T) {
	pos, _, orders, err := DecodeRequest([]byte(`{"orders": "England: F Lon - Nth\nEngland: A Lvp - Yor",
		"position": {"phase": "S1901M", "units": [{"power": "England", "type": "F", "at": "lon"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if orders != "England: F Lon - Nth\nEngland: A Lvp - Yor" {
		t.Errorf("orders = %q", orders)
	}
	if u, ok := pos.UnitAt(pos.Map.Names()["lon"]); !ok || u.Type != judge.Fleet {
		t.Errorf("position not read: %+v", u)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"position": {"phase": "S1901M"}}`, `orders: missing`},
		{`{"orders": ""}`, `position: missing`},
		{`{"orders": 3, "position": {"phase": "S1901M"}}`, `orders: want a string, got a number`},
		{`{"orders": "", "position": "S1901M"}`, `position: want an object, got a string`},
		{`{"orders": "", "orders": "", "position": {"phase": "S1901M"}}`, `orders: given twice`},
		{`{"orders": "", "position": {"phase": "S1901M"}, "id": 7}`, `unknown field "id" (want "position" and "orders")`},
		// Fields inside the position are named as in a position file.
		{`{"orders": "", "position": {"phase": "S1901M", "units": [{"power": "England", "type": "A", "at": "xyz"}]}}`,
			`units[0].at: unknown province "xyz"`},
	} {
		_, _, _, err := DecodeRequest([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestAppendString: strings are escaped exactly as encoding/json escapes
// them.
func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote`, `back\slash`, "tab\tnl\n\r", "\b\f", "\x00\x1f\x7f",
		"<b>&amp;</b>", "Zürich", "\u2028\u2029", "bad\xffutf8", "\xe2\x82", "日本"} {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("England")
	f.Add("a\"b\\c\u2028\xff<")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// FuzzDecodePosition: no input makes the reader panic, it never accepts
// what is not JSON, and what it accepts survives a round trip.
func FuzzDecodePosition(f *testing.F) {
	f.Add([]byte(`{"phase":"S1901M","units":[{"power":"England","type":"F","at":"nth"}],"centers":{"lon":"E"}}`))
	f.Add([]byte(`{"phase":"F1901R","dislodged":[{"power":"I","type":"A","at":"tri","attacker_from":"vie"}],"bounced":["gal"]}`))
	f.Add([]byte(`{"phase":"S1901M","units":[{"power":"\ud83d\ude00","type":"F","at":"nth"}]}`))
	f.Add([]byte(`{"phase":"S1901M","units":[{"power":"E\u006egland","type":"F","at":"n\/th"}]}`))
	f.Add([]byte(`{"variant":"343536","phase":"W1902A","built_centers":["jor"],"ended_constructions":[` +
		`{"power":"T","at":"jor","ordered":"W1901A"},{"power":"E","at":"yor","ordered":"W1901A","spoiled_by":"G","spoiled_in":"S1902M"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		pos, rules, err := DecodePosition(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		out := EncodePosition(pos, rules)
		if !json.Valid(out) || !utf8.Valid(out) {
			t.Fatalf("wrote invalid JSON %q", out)
		}
		pos2, rules2, err := DecodePosition(out)
		if err != nil {
			t.Fatalf("cannot read back %s: %v", out, err)
		}
		if out2 := EncodePosition(pos2, rules2); !bytes.Equal(out, out2) {
			t.Fatalf("round trip differs:\n%s\n%s", out, out2)
		}
	})
}

// TestNeutralUnits reads and writes neutral units: "Neutral" in any case
// for a unit that belongs to no power, written back as "Neutral", in a
// position and in a result's rulings; a neutral unit among the dislodged
// is refused, since it never retreats, and "Neutral" is no power's name
// for a centre.
func TestNeutralUnits(t *testing.T) {
	pos, rules := mustDecode(t, `{"phase": "S1901M", "units": [{"power": "NEUTRAL", "type": "A", "at": "ser"},
		{"power": "Austria", "type": "A", "at": "bud"}, {"power": "Austria", "type": "A", "at": "tri"}]}`)
	u, ok := pos.UnitAt(pos.Map.Names()["ser"])
	if !ok || !u.Neutral() {
		t.Fatalf("Serbia holds %+v, want a neutral army", u)
	}
	out := string(EncodePosition(pos, rules))
	if !strings.Contains(out, `{"power":"Neutral","type":"A","at":"ser"}`) {
		t.Errorf("neutral army written as %s", out)
	}
	orders, err := parser.ParseOrders("Austria: A bud - ser\nAustria: A tri S A bud - ser", parser.Options{Map: pos.Map, Phase: judge.Movement, Power: judge.NoPower})
	if err != nil {
		t.Fatal(err)
	}
	var os []judge.Order
	for _, o := range orders {
		os = append(os, o.Order)
	}
	res := judge.Adjudicate(pos, os, rules)
	got := string(EncodeResult(pos, res, rules))
	for _, want := range []string{`{"power":"Austria","unit":"bud","order":"A bud - ser","result":"succeeds"}`,
		`"units":[{"power":"Austria","type":"A","at":"ser"}`} {
		if !strings.Contains(got, want) {
			t.Errorf("result %s\nlacks %s", got, want)
		}
	}
	if strings.Contains(got, `"dislodged":[{`) {
		t.Errorf("the neutral army retreats: %s", got)
	}
	// An unsupported attack: the neutral unit's own ruling says Neutral.
	res = judge.Adjudicate(pos, os[:1], rules)
	if got := string(EncodeResult(pos, res, rules)); !strings.Contains(got, `{"power":"Neutral","unit":"ser","order":"A ser H","result":"succeeds"}`) {
		t.Errorf("the neutral army's ruling: %s", got)
	}
	for _, bad := range []struct{ in, want string }{
		{`{"phase": "S1901R", "dislodged": [{"power": "Neutral", "type": "A", "at": "ser"}]}`, "dislodged[0].power: a neutral unit is destroyed when dislodged: it never retreats"},
		{`{"phase": "S1901M", "centers": {"ser": "Neutral"}}`, `centers["ser"]: unknown power "Neutral"`},
	} {
		if _, _, err := DecodePosition([]byte(bad.in)); err == nil || err.Error() != bad.want {
			t.Errorf("%s: error %v, want %s", bad.in, err, bad.want)
		}
	}
}
