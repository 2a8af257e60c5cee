package jsonpos

import (
	"encoding/json"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestAppendCanonical holds appendCanonical to judge.Order.Canonical for
// every kind of order.
func TestAppendCanonical(t *testing.T) {
	m := variants.Standard()
	l := func(s string) judge.Loc { return m.Names()[s] }
	orders := []judge.Order{
		{Kind: judge.Hold, Type: judge.Army, Unit: l("par")},
		{Kind: judge.Hold, Unit: l("par")},
		{Kind: judge.Move, Type: judge.Fleet, Unit: l("stp/sc"), Target: l("bot")},
		{Kind: judge.Move, Type: judge.Army, Unit: l("lon"), Target: l("nwy"), Route: []judge.Loc{l("nth"), l("nwg")}, ViaConvoy: true},
		{Kind: judge.Move, Type: judge.Army, Unit: l("lon"), Target: l("bel"), ViaConvoy: true},
		{Kind: judge.SupportHold, Type: judge.Army, Unit: l("mun"), TargetType: judge.Army, Target: l("ber")},
		{Kind: judge.SupportHold, Unit: l("mun"), Target: l("ber")},
		{Kind: judge.SupportMove, Type: judge.Fleet, Unit: l("mao"), TargetType: judge.Fleet, Target: l("gas"), Dest: l("spa/nc")},
		{Kind: judge.Convoy, Type: judge.Fleet, Unit: l("nth"), TargetType: judge.Army, Target: l("lon"), Dest: l("nwy")},
		{Kind: judge.Disband, Type: judge.Army, Unit: l("war")},
		{Kind: judge.Build, Type: judge.Fleet, Unit: l("stp/nc")},
		{Kind: judge.Remove, Type: judge.Army, Unit: l("ukr")},
		{Kind: judge.Waive, Unit: judge.NoLoc},
		{Kind: judge.Construct, Unit: l("yor")},
		{Kind: 0, Unit: l("par")},
		{Kind: judge.Move, Type: judge.Army, Unit: l("par"), Target: judge.NoLoc},
	}
	for i := range orders {
		o := &orders[i]
		want := o.Canonical(m)
		if got := string(appendCanonical(nil, m, o)); got != want {
			t.Errorf("appendCanonical = %q, Canonical = %q", got, want)
		}
	}
}

func TestAppendPhase(t *testing.T) {
	for _, p := range []judge.Phase{
		{Season: judge.Spring, Year: 1901, Type: judge.Movement},
		{Season: judge.Fall, Year: 1999, Type: judge.Retreat},
		{Season: judge.Winter, Year: 12345, Type: judge.Adjustment},
		{},
	} {
		if got := string(appendPhase(nil, p)); got != p.String() {
			t.Errorf("appendPhase = %q, String = %q", got, p.String())
		}
	}
}

// TestEncodeResult: one entry per ruling, in order, with the unit's exact
// place, the canonical order with the unit's type filled in, and the
// outcome's name.
func TestEncodeResult(t *testing.T) {
	m := variants.Standard()
	l := func(s string) judge.Loc { return m.Names()[s] }
	pos := judge.StartPosition(m)
	eng, _ := m.PowerByName("England")
	fra, _ := m.PowerByName("France")
	res := &judge.Resolution{
		Phase: pos.Phase,
		Results: []judge.OrderResult{
			// "F stp - bot", written without the coast: unit is stp/sc.
			{Order: judge.Order{Kind: judge.Move, Power: judge.NoPower, Type: judge.NoUnit, Unit: l("stp"), Target: l("bot")},
				Outcome: judge.Succeeds},
			{Order: judge.Order{Kind: judge.Hold, Power: eng, Type: judge.Army, Unit: l("lvp")}, Outcome: judge.Dislodged,
				Default: true, Dislodged: true, Failed: judge.Succeeds},
			// An order for a unit that is not there stays as written.
			{Order: judge.Order{Kind: judge.Move, Power: fra, Type: judge.Army, Unit: l("gas"), Target: l("spa")},
				Outcome: judge.Void},
			// The wrong unit type is not corrected either.
			{Order: judge.Order{Kind: judge.Hold, Power: fra, Type: judge.Fleet, Unit: l("par")}, Outcome: judge.Void},
		},
		Next: judge.StartPosition(m),
	}
	res.Next.Phase = judge.Phase{Season: judge.Fall, Year: 1901, Type: judge.Movement}
	var got struct {
		Orders []map[string]string `json:"orders"`
		Next   map[string]any      `json:"next"`
	}
	out := EncodeResult(pos, res, judge.DATC24)
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []map[string]string{
		{"power": "Russia", "unit": "stp/sc", "order": "F stp/sc - bot", "result": "succeeds"},
		{"power": "England", "unit": "lvp", "order": "A lvp H", "result": "dislodged"},
		{"power": "France", "unit": "gas", "order": "A gas - spa", "result": "void"},
		{"power": "France", "unit": "par", "order": "F par H", "result": "void"},
	}
	if len(got.Orders) != len(want) {
		t.Fatalf("%d orders, want %d: %s", len(got.Orders), len(want), out)
	}
	for i := range want {
		for k, v := range want[i] {
			if got.Orders[i][k] != v {
				t.Errorf("orders[%d].%s = %q, want %q", i, k, got.Orders[i][k], v)
			}
		}
	}
	if got.Next["phase"] != "F1901M" || got.Next["rules"] != "datc-2.4" {
		t.Errorf("next: %v", got.Next)
	}
	// A resolution without orders still writes a list.
	empty := EncodeResult(pos, &judge.Resolution{Next: pos}, judge.DATC30)
	if string(empty[:len(`{"orders":[],"next":{`)]) != `{"orders":[],"next":{` {
		t.Errorf("no orders: %s", empty)
	}
}

// TestConstructResult: a construction's unit is its province, its result
// "build" like a unit build's, and the next position carries it.
func TestConstructResult(t *testing.T) {
	m, err := variants.Load("34-35-36")
	if err != nil {
		t.Fatal(err)
	}
	pos := judge.NewPosition(m, judge.Phase{Season: judge.Winter, Year: 1901, Type: judge.Adjustment})
	eng, _ := m.PowerByName("England")
	for _, c := range []string{"lon", "edi", "lvp", "nwy"} {
		pos.Centers[m.Names()[c]] = eng
	}
	pos.Units[m.Names()["nwy"]] = judge.Unit{Type: judge.Army, Power: eng, Loc: m.Names()["nwy"]}
	res := judge.Adjudicate(pos, []judge.Order{{Kind: judge.Construct, Power: eng, Unit: m.Names()["yor"]}}, judge.DATC30)
	want := `{"orders":[{"power":"England","unit":"yor","order":"build sc yor","result":"build"}],"next":` +
		`{"variant":"34-35-36","rules":"datc-3.0","phase":"S1902M","units":[{"power":"England","type":"A","at":"nwy"}],` +
		`"dislodged":[],"bounced":[],"centers":{"edi":"England","lon":"England","lvp":"England","nwy":"England"},` +
		`"built_centers":[],"pending_centers":[{"power":"England","at":"yor","ordered":"W1901A"}]}}`
	if got := string(EncodeResult(pos, res, judge.DATC30)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestWaiveUnit: a waive has no place; its unit is "".
func TestWaiveUnit(t *testing.T) {
	m := variants.Standard()
	pos := judge.StartPosition(m)
	pos.Phase = judge.Phase{Season: judge.Winter, Year: 1901, Type: judge.Adjustment}
	fra, _ := m.PowerByName("France")
	res := &judge.Resolution{Results: []judge.OrderResult{{Order: judge.Order{Kind: judge.Waive, Power: fra, Unit: judge.NoLoc},
		Outcome: judge.Waived}}, Next: pos}
	want := `{"orders":[{"power":"France","unit":"","order":"waive","result":"waived"}],"next":`
	if got := string(EncodeResult(pos, res, judge.DATC30)); got[:len(want)] != want {
		t.Errorf("got %s", got)
	}
}
