package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	samplePosition = "../../testdata/s1901/position.json"
	sampleOrders   = "../../testdata/s1901/orders.txt"
)

// gmd runs the command line as main does, with stdin as standard input.
func runGMD(t testing.TB, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// jsonResult is the JSON output, read with encoding/json as an outside program
// would read it.
type jsonResult struct {
	Orders []struct {
		Power, Unit, Order, Result string
	} `json:"orders"`
	Next *jsonPosition `json:"next"`
}

type jsonPosition struct {
	Variant        string            `json:"variant"`
	Rules          string            `json:"rules"`
	Phase          string            `json:"phase"`
	Units          []jsonUnit        `json:"units"`
	Dislodged      []jsonUnit        `json:"dislodged"`
	Bounced        []string          `json:"bounced"`
	Centers        map[string]string `json:"centers"`
	BuiltCenters   []string          `json:"built_centers"`
	PendingCenters []map[string]any  `json:"pending_centers"`
	// EndedConstructions is in Winter positions after a Fall that ended
	// constructions only.
	EndedConstructions []map[string]any `json:"ended_constructions,omitempty"`
}

type jsonUnit struct {
	Power        string `json:"power"`
	Type         string `json:"type"`
	At           string `json:"at"`
	AttackerFrom string `json:"attacker_from,omitempty"`
}

func decodeJSONResult(t testing.TB, s string) jsonResult {
	t.Helper()
	var r jsonResult
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("output is not the contract's JSON: %v\n%s", err, s)
	}
	return r
}

// find returns the result for the unit at place.
func (r jsonResult) find(t testing.TB, place string) (order, outcome string) {
	t.Helper()
	for _, o := range r.Orders {
		if o.Unit == place {
			return o.Order, o.Result
		}
	}
	t.Fatalf("no result for %s in %+v", place, r.Orders)
	return "", ""
}

func (p *jsonPosition) unitAt(place string) (jsonUnit, bool) {
	for _, u := range p.Units {
		if u.At == place {
			return u, true
		}
	}
	return jsonUnit{}, false
}

func writeTemp(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAdjudicateSample(t *testing.T) {
	out, errs, code := runGMD(t, "", "adjudicate", "-position", samplePosition, "-orders", sampleOrders)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	r := decodeJSONResult(t, out)
	if len(r.Orders) != 22 {
		t.Errorf("%d results, want 22", len(r.Orders))
	}
	for _, tc := range []struct{ place, order, result string }{
		{"mun", "A mun - bur", "bounce"},
		{"par", "A par - bur", "succeeds"},
		{"mar", "A mar S A par - bur", "succeeds"},
		{"vie", "A vie - gal", "bounce"},
		{"war", "A war - gal", "bounce"},
		{"sev", "F sev - bla", "bounce"},
		{"ank", "F ank - bla", "bounce"},
		{"bre", "F bre - mao", "succeeds"}, // written "Mid-Atlantic Ocean"
		{"stp/sc", "F stp/sc - bot", "succeeds"},
		{"ven", "A ven H", "succeeds"},
	} {
		order, res := r.find(t, tc.place)
		if order != tc.order || res != tc.result {
			t.Errorf("%s: got %q %q, want %q %q", tc.place, order, res, tc.order, tc.result)
		}
	}
	n := r.Next
	if n.Variant != "standard" || n.Rules != "datc-3.0" || n.Phase != "F1901M" {
		t.Errorf("next is %s %s %s, want standard datc-3.0 F1901M", n.Variant, n.Rules, n.Phase)
	}
	if u, ok := n.unitAt("bur"); !ok || u.Power != "France" || u.Type != "A" {
		t.Errorf("bur: %+v %v", u, ok)
	}
	if _, ok := n.unitAt("par"); ok {
		t.Error("Paris still occupied")
	}
	if len(n.Units) != 22 || len(n.Centers) != 22 || n.Centers["stp"] != "Russia" {
		t.Errorf("next has %d units, %d centres", len(n.Units), len(n.Centers))
	}
	// Empty lists are [] in the output, never null or absent.
	for _, f := range []string{`"dislodged": []`, `"bounced": []`, `"built_centers": []`, `"pending_centers": []`} {
		if !strings.Contains(out, f) {
			t.Errorf("output lacks %s", f)
		}
	}
}

// TestRoundTrip feeds each phase's "next" back in as the position of the
// next phase, through a Fall with a convoy and the Winter builds.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	out, _, _ := runGMD(t, "", "adjudicate", "-position", samplePosition, "-orders", sampleOrders)
	next := decodeJSONResult(t, out).Next
	b, _ := json.Marshal(next)
	fall := writeTemp(t, dir, "f1901.json", string(b))
	out, errs, code := runGMD(t, "", "adjudicate", "-position", fall, "-orders", writeTemp(t, dir, "f1901.txt", fallOrders))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := decodeJSONResult(t, out)
	if _, res := r.find(t, "yor"); res != "succeeds" {
		t.Errorf("convoyed A yor - nwy: %s", res)
	}
	if r.Next.Phase != "W1901A" || r.Next.Centers["nwy"] != "England" || r.Next.Centers["ser"] != "" {
		t.Errorf("after the Fall: phase %s, nwy %q, ser %q", r.Next.Phase, r.Next.Centers["nwy"], r.Next.Centers["ser"])
	}
	b, _ = json.Marshal(r.Next)
	winter := writeTemp(t, dir, "w1901.json", string(b))
	out, errs, code = runGMD(t, "", "adjudicate", "-position", winter, "-orders", writeTemp(t, dir, "w1901.txt", winterOrders))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r = decodeJSONResult(t, out)
	if order, res := r.find(t, "stp/nc"); order != "build F stp/nc" || res != "build" {
		t.Errorf("Russian build: %q %q", order, res)
	}
	if u, ok := r.Next.unitAt("stp/nc"); r.Next.Phase != "S1902M" || !ok || u.Type != "F" {
		t.Errorf("after the Winter: %s, stp/nc %+v", r.Next.Phase, u)
	}
	// Writing a position out and reading it back changes nothing.
	b, _ = json.Marshal(r.Next)
	spring := writeTemp(t, dir, "s1902.json", string(b))
	out, _, code = runGMD(t, "", "adjudicate", "-position", spring)
	if code != 0 {
		t.Fatal(out)
	}
	if again := decodeJSONResult(t, out).Next; len(again.Units) != len(r.Next.Units) || again.Phase != "F1902M" {
		t.Errorf("holding everything lost units: %d, was %d", len(again.Units), len(r.Next.Units))
	}
}

const fallOrders = `England: F Nth C A Yor - Nwy
England: A Yor - Nwy via convoy
England: F Nwg S A Yor - Nwy
France: A Bur - Bel
France: F Mao - Por
France: A Mar - Spa
Germany: F Den H
Germany: A Kie - Hol
Germany: A Mun - Ruh
Italy: F Ion - Tun
Italy: A Apu H
Italy: A Ven H
Austria: A Ser - Gre
Austria: F Alb S A Ser - Gre
Austria: A Vie - Gal
Russia: F Bot - Swe
Russia: A Ukr - Rum
Russia: A War - Gal
Russia: F Sev S A Ukr - Rum
Turkey: A Bul H
Turkey: F Ank - Bla
Turkey: A Arm - Sev
`

const winterOrders = `Austria: Build A Bud
England: Build F Lon
France: Build F Bre
France: Build A Par
France: Waive
Germany: Build A Ber
Germany: Build F Kie
Italy: Build F Nap
Russia: Build A Mos
Russia: Build F St. Petersburg (north coast)
Turkey: Build F Ank
`

// TestAliases: positions and orders may use any name; the output uses the
// canonical ones.
func TestAliases(t *testing.T) {
	pos := `{"phase": "S1901M", "units": [
		{"power": "france", "type": "Fleet", "at": "Mid-Atlantic Ocean"},
		{"power": "R", "type": "F", "at": "St. Petersburg (north coast)"},
		{"power": "English", "type": "army", "at": "York"}],
		"centers": {"London": "E"}}`
	orders := "France: F mid - Spain (north coast)\nRussia: F stp - Barents Sea\n"
	out, errs, code := runGMD(t, orders, "adjudicate", "-position", writeTemp(t, t.TempDir(), "p.json", pos), "-orders", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := decodeJSONResult(t, out)
	for _, tc := range []struct{ place, order, result string }{
		{"mao", "F mao - spa/nc", "succeeds"},
		{"stp/nc", "F stp/nc - bar", "succeeds"},
		{"yor", "A yor H", "succeeds"},
	} {
		if order, res := r.find(t, tc.place); order != tc.order || res != tc.result {
			t.Errorf("%s: got %q %q, want %q %q", tc.place, order, res, tc.order, tc.result)
		}
	}
	for _, want := range []string{"spa/nc", "bar", "yor"} {
		if _, ok := r.Next.unitAt(want); !ok {
			t.Errorf("next has no unit at %s: %+v", want, r.Next.Units)
		}
	}
	if r.Next.Centers["lon"] != "England" {
		t.Errorf("centers: %v", r.Next.Centers)
	}
	if strings.Contains(out, "Mid-Atlantic") || strings.Contains(out, "St. Petersburg") {
		t.Errorf("output kept a long name:\n%s", out)
	}
}

// TestMalformedPosition: exit status 2, nothing on standard output, and a
// message that names the file and the field.
func TestMalformedPosition(t *testing.T) {
	dir := t.TempDir()
	const a = `{"power": "England", "type": "A", "at": "lon"}`
	for _, tc := range []struct{ pos, want string }{
		{`{"phase": "S1901M", "units": [` + a + `, {"power": "England", "type": "A", "at": "xyz"}]}`,
			`units[1].at: unknown province "xyz"`},
		{`{"phase": "S1901M", "units": [` + a + `, {"power": "France", "type": "A", "at": "London"}]}`,
			`units[1]: two units in London`},
		{`{"phase": "S1901M", "units": [` + a + `, {"power": "France", "type": "F", "at": "par"}]}`,
			`units[1]: a fleet cannot stand in Paris, which is inland`},
		{`{"phase": "1901", "units": []}`, `phase: "1901": season must be S, F or W`},
		{`{"units": []}`, `phase: missing`},
		{`{"phase": "S1901M", "rules": "house"}`, `rules: unknown rule set "house"`},
		{`{"phase": "S1901M", "unit": []}`, `unknown field "unit"`},
		{`{"phase": "S1901M", "units": [{"power": "England", "type": "A", "at": "lon", "owner": "x"}]}`,
			`units[0]: unknown field "owner"`},
		{`{"phase": "S1901M"`, `JSON syntax error at line 1 col 19`},
	} {
		p := writeTemp(t, dir, "pos.json", tc.pos)
		out, errs, code := runGMD(t, "", "adjudicate", "-position", p, "-orders", sampleOrders)
		if code != 2 || out != "" {
			t.Errorf("%s: exit %d, stdout %q; want 2 and nothing", tc.pos, code, out)
		}
		if !strings.Contains(errs, p+": "+tc.want) {
			t.Errorf("%s: stderr %q, want it to say %q", tc.pos, errs, tc.want)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-orders", sampleOrders}, "-position is required"},
		{[]string{"-position", "-", "-orders", "-"}, "cannot both read standard input"},
		{[]string{"-position", samplePosition, "-format", "xml"}, `-format "xml"`},
		{[]string{"-position", "no/such/file.json"}, "no such file"},
		{[]string{"-position", samplePosition, "-orders", "no/such/orders.txt"}, "no such file"},
		{[]string{"-batch", "-position", samplePosition}, "drop -position"},
		{[]string{"-batch", "-format", "text"}, "JSON lines only"},
		{[]string{"-position", samplePosition, "extra"}, `unexpected argument "extra"`},
		{[]string{"-nosuchflag"}, "flag provided but not defined"},
	} {
		out, errs, code := runGMD(t, "", append([]string{"adjudicate"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
	if out, errs, code := runGMD(t, "", "adjudicate", "-h"); code != 0 || !strings.Contains(out, "Exit status") || errs != "" {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestBadOrderLine: a line that does not parse is reported and dropped;
// its unit holds, the rest is adjudicated, and the exit status is 1.
func TestBadOrderLine(t *testing.T) {
	orders := "France: A Par - Bur\nGermany: A Mun - Burgundyy\nGermany: A Ber - Kie\n"
	out, errs, code := runGMD(t, orders, "adjudicate", "-position", samplePosition, "-orders", "-")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.HasPrefix(errs, "<stdin>: line 2 col ") || strings.Count(errs, "\n") != 1 {
		t.Errorf("stderr %q, want one error on line 2", errs)
	}
	r := decodeJSONResult(t, out)
	if order, res := r.find(t, "mun"); order != "A mun H" || res != "succeeds" {
		t.Errorf("the unit of the bad line: %q %q, want it to hold", order, res)
	}
	if _, res := r.find(t, "par"); res != "succeeds" {
		t.Errorf("A par - bur: %s; the dropped German order must not bounce it", res)
	}
	if order, _ := r.find(t, "ber"); order != "A ber - kie" {
		t.Errorf("the line after the bad one was lost: %q", order)
	}
}

func TestTextFormat(t *testing.T) {
	out, errs, code := runGMD(t, "", "adjudicate", "-position", samplePosition, "-orders", sampleOrders, "-format", "text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, line := range []string{
		"Movement results for Spring of 1901.\n\nAustria: ",
		"\nAustria: Army Budapest -> Serbia.\n",
		"\nGermany: Army Munich -> Burgundy. (*bounce*)\n",
		"\nFrance: Army Marseilles SUPPORT Army Paris -> Burgundy.\n",
		"\nRussia: Fleet St Petersburg (south coast) -> Gulf of Bothnia.\n",
		"\nItaly: Army Venice HOLD.\n",
		"\n\nThe next phase will be Movement for Fall of 1901.\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("text output lacks %q:\n%s", line, out)
		}
	}
}

// TestRetreatPhase goes through a dislodgement and its retreat.
func TestRetreatPhase(t *testing.T) {
	pos := `{"phase": "F1901M", "units": [
		{"power": "Austria", "type": "A", "at": "bud"}, {"power": "Austria", "type": "A", "at": "ser"},
		{"power": "Turkey", "type": "A", "at": "rum"}],
		"centers": {"bud": "Austria", "rum": "Turkey"}}`
	dir := t.TempDir()
	out, errs, code := runGMD(t, "Austria: A bud - rum\nAustria: A ser S A bud - rum\n", "adjudicate",
		"-position", writeTemp(t, dir, "p.json", pos), "-orders", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := decodeJSONResult(t, out)
	if _, res := r.find(t, "rum"); res != "dislodged" {
		t.Errorf("A rum: %s", res)
	}
	n := r.Next
	if n.Phase != "F1901R" || len(n.Dislodged) != 1 || n.Dislodged[0] != (jsonUnit{"Turkey", "A", "rum", "bud"}) {
		t.Fatalf("next: %+v", n)
	}
	b, _ := json.Marshal(n)
	out, errs, code = runGMD(t, "Turkey: A rum - ukr\n", "adjudicate", "-position", writeTemp(t, dir, "r.json", string(b)),
		"-orders", "-", "-format", "text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, line := range []string{"Retreat results for Fall of 1901.", "Turkey:    Army  Rumania -> Ukraine.",
		"Ownership of supply centers:", "Austria:   Budapest, Rumania, Serbia.",
		"Turkey:    0 Supply centers,  1 Unit:   Removes  1 unit."} {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("missing %q:\n%s", line, out)
		}
	}
}

// TestConstruction plays a "34, 35, 36" construction through a year, each
// phase's next position fed back in: ordered in the Winter, spoiled by a
// German move in the Spring, given up as the Fall ends.
func TestConstruction(t *testing.T) {
	dir := t.TempDir()
	next := `{"variant": "34-35-36", "phase": "W1901A", "units": [
		{"power": "Russia", "type": "A", "at": "mos"}, {"power": "Germany", "type": "A", "at": "pru"}],
		"centers": {"mos": "Russia", "war": "Russia", "ber": "Germany"}}`
	// The Fall of 1902 ends Livonia's construction: the Winter position
	// keeps it for the Winter's results, and the Spring's has none.
	for i, step := range []struct{ orders, pending, ended string }{
		{"Russia: s.c. Livonia\n", "Russia lvn W1901A  ", ""},
		{"Germany: A pru - lvn\n", "Russia lvn W1901A Germany S1902M", ""},
		{"", "", "Russia lvn W1901A Germany S1902M"},
		{"", "", ""},
	} {
		file := writeTemp(t, dir, "p.json", next)
		out, errs, code := runGMD(t, step.orders, "adjudicate", "-position", file, "-orders", "-")
		if code != 0 {
			t.Fatalf("step %d: exit %d: %s", i, code, errs)
		}
		r := decodeJSONResult(t, out)
		if i == 0 {
			if order, res := r.find(t, "lvn"); order != "build sc lvn" || res != "build" {
				t.Errorf("construction: %q %q", order, res)
			}
		}
		list := func(pcs []map[string]any) string {
			var s []string
			for _, pc := range pcs {
				s = append(s, fmt.Sprint(pc["power"], " ", pc["at"], " ", pc["ordered"], " ",
					strOr(pc["spoiled_by"]), " ", strOr(pc["spoiled_in"])))
			}
			return strings.Join(s, "; ")
		}
		if got := list(r.Next.PendingCenters); got != step.pending || r.Next.BuiltCenters == nil || len(r.Next.BuiltCenters) != 0 {
			t.Errorf("step %d: pending %q, built %q; want pending %q and none built", i, got, r.Next.BuiltCenters, step.pending)
		}
		if got := list(r.Next.EndedConstructions); got != step.ended {
			t.Errorf("step %d: ended %q, want %q", i, got, step.ended)
		}
		if i == 2 {
			// The text of the Fall says why Livonia was not built.
			out, errs, _ = runGMD(t, step.orders, "adjudicate", "-position", file, "-orders", "-", "-format", "text")
			if !strings.Contains(out, "\nRussia's supply centre in Livonia was not built: a German unit was ordered\nthere in S1902M.\n") ||
				!strings.Contains(out, "\nVictory needs 18 of the 34 supply centres.\n") {
				t.Errorf("text output:\n%s%s", out, errs)
			}
		}
		if i == 3 {
			// So do the Winter's, from the position the Fall handed over.
			out, errs, _ = runGMD(t, step.orders, "adjudicate", "-position", file, "-orders", "-", "-format", "text")
			if !strings.Contains(out, "\nSupply centres started in Winter of 1901:\n\nRussia's supply centre in Livonia "+
				"was not built: a German unit was ordered\nthere in S1902M.\n") {
				t.Errorf("text output of the Winter:\n%s%s", out, errs)
			}
		}
		b, err := json.Marshal(r.Next)
		if err != nil {
			t.Fatal(err)
		}
		next = string(b)
	}
}

// strOr returns v as a string, or "" for nil.
func strOr(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// TestBatch: one output line per input line, in order; a bad line gives an
// error object there and the batch goes on.
func TestBatch(t *testing.T) {
	posData, err := os.ReadFile(samplePosition)
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, posData); err != nil {
		t.Fatal(err)
	}
	ordData, _ := os.ReadFile(sampleOrders)
	ordJSON, _ := json.Marshal(string(ordData))
	good := `{"position": ` + compact.String() + `, "orders": ` + string(ordJSON) + `}`
	bad := `{"position": {"phase": "S1901M", "units": [{"power": "England", "type": "A", "at": "lon"},` +
		`{"power": "England", "type": "F", "at": "xyz"}]}, "orders": ""}`
	badOrders := `{"position": ` + compact.String() + `, "orders": "France: A Par - Bur\nFrance: A Mar S Qqq"}`
	in := good + "\n" + bad + "\n\n" + "not json\n" + badOrders + "\n" + good + "\n"
	out, errs, code := runGMD(t, in, "adjudicate", "-batch")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d output lines, want 5 (the blank input line is skipped):\n%s", len(lines), out)
	}
	single, _, _ := runGMD(t, "", "adjudicate", "-position", samplePosition, "-orders", sampleOrders)
	var want bytes.Buffer
	json.Compact(&want, []byte(single))
	if lines[0] != want.String() || lines[4] != want.String() {
		t.Errorf("batch output differs from single-phase output:\n%s\n%s", lines[0], want.String())
	}
	if lines[1] != `{"error":"line 2: units[1].at: unknown province \"xyz\""}` {
		t.Errorf("bad line: %s", lines[1])
	}
	if !strings.HasPrefix(lines[2], `{"error":"line 4: JSON syntax error at line 1 col 1: `) {
		t.Errorf("not json: %s", lines[2])
	}
	r := decodeJSONResult(t, lines[3])
	if _, res := r.find(t, "par"); res != "succeeds" {
		t.Errorf("line with a bad order: A par - bur %s", res)
	}
	if !strings.HasPrefix(errs, "line 5: orders: line 2 col ") {
		t.Errorf("stderr %q, want the bad order of line 5", errs)
	}
	// A clean batch exits 0.
	if _, errs, code := runGMD(t, good+"\n"+good+"\n", "adjudicate", "-batch"); code != 0 || errs != "" {
		t.Errorf("clean batch: exit %d, %q", code, errs)
	}
}

func TestIndentJSON(t *testing.T) {
	in := `{"a":[{"x":"1","y":"]"}],"b":{"c":[]},"d":"e\"{"}`
	want := "{\n  \"a\": [\n    {\"x\":\"1\",\"y\":\"]\"}\n  ],\n  \"b\": {\n    \"c\": []\n  },\n  \"d\": \"e\\\"{\"\n}"
	if got := string(indentJSON([]byte(in))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// batchInput returns JSON lines for a typical mix of phases: the Spring
// opening, a Fall with a convoy and a dislodgement-free ending, the Winter
// builds and a retreat.
func batchInput(b *testing.B) []byte {
	dir := b.TempDir()
	line := func(pos, orders string) string {
		o, _ := json.Marshal(orders)
		var c bytes.Buffer
		if err := json.Compact(&c, []byte(pos)); err != nil {
			b.Fatal(err)
		}
		return `{"position":` + c.String() + `,"orders":` + string(o) + "}\n"
	}
	posData, _ := os.ReadFile(samplePosition)
	ordData, _ := os.ReadFile(sampleOrders)
	var lines []string
	lines = append(lines, line(string(posData), string(ordData)))
	next := func(pos, orders string) string {
		out, errs, code := runGMD(b, orders, "adjudicate", "-position", writeTemp(b, dir, "p.json", pos), "-orders", "-")
		if code != 0 {
			b.Fatal(errs)
		}
		nb, _ := json.Marshal(decodeJSONResult(b, out).Next)
		return string(nb)
	}
	fall := next(string(posData), string(ordData))
	lines = append(lines, line(fall, fallOrders))
	winter := next(fall, fallOrders)
	lines = append(lines, line(winter, winterOrders))
	retreat := `{"phase":"F1901R","units":[{"power":"Austria","type":"A","at":"rum"},{"power":"Austria","type":"A","at":"ser"}],` +
		`"dislodged":[{"power":"Turkey","type":"A","at":"rum","attacker_from":"bud"}],"centers":{"bud":"Austria"}}`
	lines = append(lines, line(retreat, "Turkey: A rum - ukr"))
	return []byte(strings.Join(lines, ""))
}

// BenchmarkBatch measures gmd adjudicate -batch end to end: JSON in,
// orders parsed, adjudicated, JSON out.
func BenchmarkBatch(b *testing.B) {
	one := batchInput(b)
	const reps = 250 // 1000 phases per run
	in := bytes.Repeat(one, reps)
	phases := bytes.Count(in, []byte("\n"))
	var stderr bytes.Buffer
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if code := run([]string{"adjudicate", "-batch"}, bytes.NewReader(in), discardWriter{}, &stderr); code != 0 {
			b.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
	b.ReportMetric(float64(b.N*phases)/b.Elapsed().Seconds(), "phases/s")
}

type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// TestBatchOrder: across many batches and workers, output lines and error
// messages stay in input order.
func TestBatchOrder(t *testing.T) {
	var in, want strings.Builder
	var wantErrs strings.Builder
	const lines = 5*batchLines + 7
	for i := 1; i <= lines; i++ {
		switch i % 3 {
		case 0: // a bad position: its error names its line
			fmt.Fprintf(&in, `{"position": {"phase": "S1901M", "bad%d": 1}, "orders": ""}`+"\n", i)
			fmt.Fprintf(&want, `{"error":"line %d: unknown field \"bad%d\""}`+"\n", i, i)
		default: // a phase whose year shows in the output, with a bad order line
			fmt.Fprintf(&in, `{"position": {"phase": "S%dM", "units": [{"power": "E", "type": "A", "at": "lon"}]},`+
				` "orders": "England: A Lon - Wal\nEngland: A Lon - Qqq%d"}`+"\n", 1900+i, i)
			fmt.Fprintf(&want, `"phase":"F%dM"`+"\n", 1900+i)
			fmt.Fprintf(&wantErrs, "line %d: orders: line 2 col ", i)
		}
	}
	out, errs, code := runGMD(t, in.String(), "adjudicate", "-batch")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	wantLines := strings.Split(strings.TrimSuffix(want.String(), "\n"), "\n")
	if len(got) != lines {
		t.Fatalf("%d output lines, want %d", len(got), lines)
	}
	for i := range got {
		if w := wantLines[i]; !strings.Contains(got[i], w) && got[i] != w {
			t.Fatalf("output line %d: %s\nwant it to contain %s", i+1, got[i], w)
		}
	}
	var gotErrs strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
		if i := strings.Index(l, " col "); i >= 0 {
			gotErrs.WriteString(l[:i+5])
		}
	}
	if gotErrs.String() != wantErrs.String() {
		t.Errorf("stderr out of order:\n%s", errs)
	}
}
