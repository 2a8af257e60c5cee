package session

import (
	"slices"
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

// setPosition replaces a game's position with one written in the
// jsonpos contract, and drops its pending orders (with their texts as
// written).
func (h *harness) setPosition(name, js string) {
	h.t.Helper()
	pos, rules, err := jsonpos.DecodePosition([]byte(js))
	if err != nil {
		h.t.Fatal(err)
	}
	g := h.game(name)
	g.Position = jsonpos.EncodePosition(pos, rules)
	g.Orders, g.Written = nil, nil
	h.putGame(g)
}

func TestOrdersBadLineKeepsGood(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	// Mail lines: 1 SIGNON, 2 A Par - Bur, 3 A Mar - Mun (cannot), 4 F Bre - Mao,
	// 5 a line that is no order, 6 blank, 7 a place that does not exist.
	r := onlyTo(t, h.orders("dt", "F", "A Par - Bur\nA Mar - Mun\nF Bre - Mao\nF Bre xyzzy plugh\n\nA Par - Burg"), "france@example.org")
	mustContain(t, r.Body,
		"Error (line 3): A Mar - Mun: The army in Marseilles can't get to Munich.",
		"Error (line 5): F Bre xyzzy plugh: ",
		"Error (line 7): A Par - Burg: ",
		"France: Army Paris -> Burgundy.",
		"France: Fleet Brest -> Mid-Atlantic Ocean.",
		"France: Army Marseilles, No Order Processed.",
		"Orders not received for Army Marseilles.",
		"3 errors in this mail")
	mustNotContain(t, r.Body, "Error (line 2)", "Error (line 4)", "late")
	g := h.game("dt")
	if want := []string{"A par - bur", "F bre - mao"}; !slices.Equal(g.Orders["France"], want) {
		t.Fatalf("France's orders %q, want %q", g.Orders["France"], want)
	}
	// The unit still missing an order is missing, nothing more: the good
	// orders stand and the power is not flagged.
	pos, _, _ := h.m.Position(g)
	if h.m.Complete(g, pos, "France") {
		t.Fatal("France complete without an order for Marseilles")
	}
	r = onlyTo(t, h.orders("dt", "F", "A Mar H"), "france@example.org")
	mustContain(t, r.Body, "France's orders are complete.", "France: Army Marseilles HOLD.", "France: Army Paris -> Burgundy.")
	if g := h.game("dt"); !h.m.Complete(g, pos, "France") {
		t.Fatal("France not complete after ordering every unit")
	}
}

func TestOrderReplacement(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.orders("dt", "F", "A Par - Bur\nF Bre - Mao")
	r := onlyTo(t, h.orders("dt", "F", "Army Paris moves to Picardy\nF Bre - Eng\nF Bre - Mao"), "france@example.org")
	mustContain(t, r.Body, "France: Army Paris -> Picardy.", "France: Fleet Brest -> Mid-Atlantic Ocean.")
	mustNotContain(t, r.Body, "Burgundy", "English Channel")
	g := h.game("dt")
	if want := []string{"A par - pic", "F bre - mao"}; !slices.Equal(g.Orders["France"], want) {
		t.Fatalf("France's orders %q, want %q", g.Orders["France"], want)
	}
	// A void replacement leaves the earlier order in place.
	r = onlyTo(t, h.orders("dt", "F", "A Par - Mun"), "france@example.org")
	mustContain(t, r.Body, "Error (line 2): A Par - Mun:", "France: Army Paris -> Picardy.")
	if got := h.game("dt").Orders["France"]; !slices.Contains(got, "A par - pic") {
		t.Fatalf("a void order replaced a good one: %q", got)
	}
}

func TestOrdersForAnotherPower(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", "A Mun - Ruh\nGermany: A Ber - Kie\nGermany:\nF Kie - Den\nF Bre - Mao"), "france@example.org")
	mustContain(t, r.Body,
		"Error (line 2): A Mun - Ruh: France does not own the army in Munich.",
		"Error (line 3): Germany: A Ber - Kie: You are France, not Germany.",
		"Error (line 5): F Kie - Den: You are France, not Germany.",
		"Error (line 6): F Bre - Mao: You are France, not Germany.")
	g := h.game("dt")
	if len(g.Orders["Germany"]) != 0 || len(g.Orders["France"]) != 0 {
		t.Fatalf("orders stored for another power: %q", g.Orders)
	}
}

func TestMasterOrders(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt pw-m\nA Par - Bur\nItaly: A Ven - Tyr\nBECOME France\nF Bre - Mao"), testMaster)
	mustContain(t, r.Body,
		"Error (line 2): A Par - Bur: Say which power",
		"You are acting for France",
		"Movement orders for Spring of 1901. (dt.001)",
		"France: Fleet Brest -> Mid-Atlantic Ocean.")
	mustNotContain(t, r.Body, "Italy: Army Venice")
	g := h.game("dt")
	if !slices.Equal(g.Orders["France"], []string{"F bre - mao"}) || !slices.Equal(g.Orders["Italy"], []string{"A ven - tyr"}) {
		t.Fatalf("orders: %q", g.Orders)
	}
	// Without BECOME the master sees who is done, not what was ordered.
	r = onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt pw-m"), testMaster)
	mustContain(t, r.Body, "Orders status for Spring of 1901. (dt.001)", "France:    incomplete.")
	mustNotContain(t, r.Body, "Mid-Atlantic", "Tyrolia")
}

// winter1901 is an adjustment position: France has 5 centres and 2 units
// (3 builds, 3 free home centres), Germany 2 centres and 3 units (1
// removal), England 3 and 3.
const winter1901 = `{"variant":"standard","phase":"W1901A",
 "units":[{"power":"France","type":"F","at":"mao"},{"power":"France","type":"A","at":"bur"},
  {"power":"Germany","type":"A","at":"ber"},{"power":"Germany","type":"F","at":"kie"},{"power":"Germany","type":"A","at":"mun"},
  {"power":"England","type":"F","at":"lon"},{"power":"England","type":"F","at":"edi"},{"power":"England","type":"A","at":"lvp"}],
 "centers":{"par":"France","bre":"France","mar":"France","spa":"France","por":"France",
  "ber":"Germany","kie":"Germany","lon":"England","edi":"England","lvp":"England"}}`

func TestAdjustmentOrders(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.setPosition("dt", winter1901)

	r := onlyTo(t, h.orders("dt", "F", "Build A Par\nbuild f bre\nBuild A Mun\nBuild F Par"), "france@example.org")
	mustContain(t, r.Body,
		"Adjustment orders for Winter of 1901. (dt.001)",
		"Error (line 4): Build A Mun: Munich is not a home supply centre of France.",
		"Error (line 5): Build F Par: A fleet cannot be built in Paris, which is inland.",
		"France:    Builds an army in Paris.",
		"France:    Builds a fleet in Brest.",
		"France:    1 build pending.")
	if got := h.game("dt").Orders["France"]; !slices.Equal(got, []string{"build A par", "build F bre"}) {
		t.Fatalf("France's builds %q", got)
	}
	// A later build in the same place replaces the earlier one.
	r = onlyTo(t, h.orders("dt", "F", "Build F Mar\nBuild A Mar"), "france@example.org")
	mustContain(t, r.Body, "France:    Builds an army in Marseilles.", "France's orders are complete.")
	mustNotContain(t, r.Body, "a fleet in Marseilles", "pending")
	// Waives count as builds; one beyond those due pushes out the
	// earliest build.
	r = onlyTo(t, h.orders("dt", "F", "waive"), "france@example.org")
	mustContain(t, r.Body, "France:    Build waived.", "France:    Builds an army in Marseilles.", "France's orders are complete.")
	mustNotContain(t, r.Body, "Paris")
	if got := h.game("dt").Orders["France"]; !slices.Equal(got, []string{"build F bre", "build A mar", "waive"}) {
		t.Fatalf("France's adjustments %q", got)
	}
	g := h.game("dt")
	pos, _, _ := h.m.Position(g)
	if !h.m.Complete(g, pos, "France") {
		t.Fatal("France not complete")
	}

	// Germany removes: a bare "A Mun" is a removal for a power that must remove.
	r = onlyTo(t, h.orders("dt", "G", ""), "germany@example.org")
	mustContain(t, r.Body, "Germany:   1 removal pending.")
	r = onlyTo(t, h.orders("dt", "G", "A Mun\nBuild A Ber"), "germany@example.org")
	mustContain(t, r.Body, "Germany:   Removes the army in Munich.", "Germany's orders are complete.", "Error (line 3): Build A Ber: Germany has no builds.")
	// England has nothing to do.
	r = onlyTo(t, h.orders("dt", "E", ""), "england@example.org")
	mustContain(t, r.Body, "England has no adjustments to make in Winter of 1901.")
	g = h.game("dt")
	for _, p := range []string{"France", "Germany", "England", "Italy"} {
		if !h.m.Complete(g, pos, p) {
			t.Errorf("%s not complete", p)
		}
	}
	orders := h.m.PendingOrders(g, pos)
	if len(orders) != 4 || orders[0].Power != 2 || orders[3].Kind != judge.Remove || orders[3].Power != 3 {
		t.Fatalf("pendingOrders: %+v", orders)
	}
}

func TestUnusableBuilds(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	// France has 5 centres and 3 units, but only Paris is free to build in.
	h.setPosition("dt", `{"variant":"standard","phase":"W1901A",
	 "units":[{"power":"France","type":"F","at":"bre"},{"power":"France","type":"A","at":"mar"},{"power":"France","type":"A","at":"spa"}],
	 "centers":{"par":"France","bre":"France","mar":"France","spa":"France","por":"France"}}`)
	r := onlyTo(t, h.orders("dt", "F", ""), "france@example.org")
	mustContain(t, r.Body, "France:    1 unusable build pending.", "France:    1 build pending.")
	g := h.game("dt")
	pos, _, _ := h.m.Position(g)
	if h.m.Complete(g, pos, "France") {
		t.Fatal("complete before building in Paris")
	}
	r = onlyTo(t, h.orders("dt", "F", "build a par"), "france@example.org")
	mustContain(t, r.Body, "France's orders are complete.")
	if g := h.game("dt"); !h.m.Complete(g, pos, "France") {
		t.Fatal("not complete after the one possible build")
	}
}

func TestRetreatOrders(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.setPosition("dt", `{"variant":"standard","phase":"F1901R",
	 "units":[{"power":"Germany","type":"A","at":"bur"},{"power":"France","type":"A","at":"par"},{"power":"France","type":"F","at":"bre"}],
	 "dislodged":[{"power":"France","type":"A","at":"bur","attacker_from":"mun"}],
	 "centers":{"par":"France","bre":"France","mar":"France"}}`)
	r := onlyTo(t, h.orders("dt", "F", ""), "france@example.org")
	mustContain(t, r.Body, "Retreat orders for Fall of 1901. (dt.001)", "France:    Army  Burgundy, No Order Processed (DISBAND).",
		"Orders not received for Army Burgundy.")
	r = onlyTo(t, h.orders("dt", "F", "A Bur - Mun\nF Bre - Eng"), "france@example.org")
	mustContain(t, r.Body, "Error (line 2): A Bur - Mun:", "Error (line 3): F Bre - Eng: There is no dislodged unit in Brest.")
	r = onlyTo(t, h.orders("dt", "F", "A Bur - Gas"), "france@example.org")
	mustContain(t, r.Body, "France:    Army  Burgundy -> Gascony.", "France's orders are complete.")
	r = onlyTo(t, h.orders("dt", "G", ""), "germany@example.org")
	mustContain(t, r.Body, "Germany has no retreats to make in Fall of 1901.")
	g := h.game("dt")
	pos, _, _ := h.m.Position(g)
	if !h.m.Complete(g, pos, "France") || !h.m.Complete(g, pos, "Germany") {
		t.Fatal("retreat orders not complete")
	}
	if got := g.Orders["France"]; !slices.Equal(got, []string{"A bur - gas"}) {
		t.Fatalf("retreat stored as %q", got)
	}
}

func TestStoredOrdersRoundTrip(t *testing.T) {
	mp := variants.Standard()
	tests := []struct {
		phase judge.Phase
		lines string
	}{
		{judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement},
			"A par - bur\nF bre - mao\nA mar S A par - bur\nF nth C A lon - nwy\nA lon - nth - nwy\nA ber H\nF stp/sc - bot\nA mun S A ber\nA lvp - edi via convoy"},
		{judge.Phase{Season: judge.Fall, Year: 1901, Type: judge.Retreat}, "A bur - gas\nF nth disband"},
		{judge.Phase{Season: judge.Winter, Year: 1901, Type: judge.Adjustment}, "build A par\nbuild F stp/nc\nremove F nth\nwaive"},
	}
	for _, tt := range tests {
		pos := judge.NewPosition(mp, tt.phase)
		lines := strings.Split(tt.lines, "\n")
		orders := engine.StoredOrders(pos, 2, lines)
		if len(orders) != len(lines) {
			t.Fatalf("%s: read %d orders from %d lines", tt.phase, len(orders), len(lines))
		}
		for _, o := range orders {
			if o.Power != 2 {
				t.Errorf("%s: power %d", o.Canonical(mp), o.Power)
			}
		}
		if got := engine.CanonicalLines(mp, orders); !slices.Equal(got, lines) {
			t.Errorf("%s: round trip\n got %q\nwant %q", tt.phase, got, lines)
		}
	}
}

func TestComplete(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	g := h.game("dt")
	pos, _, _ := h.m.Position(g)
	g.Orders = map[string][]string{"France": {"A par - bur", "A mar H", "F bre - mao"}, "Italy": {"A ven H"}}
	tests := map[string]bool{"France": true, "Italy": false, "Germany": false, "Nowhere": true}
	for p, want := range tests {
		if got := h.m.Complete(g, pos, p); got != want {
			t.Errorf("complete(%s) = %v, want %v", p, got, want)
		}
	}
	// A power with no unit has nothing to do in a movement phase.
	empty := judge.NewPosition(pos.Map, pos.Phase)
	if !h.m.Complete(g, empty, "Italy") {
		t.Error("a power without units is not complete")
	}
}

func TestOrderErrorsUseMailLines(t *testing.T) {
	// Orders in two blocks: the second block's errors count from its own
	// place in the mail.
	h := newHarness(t)
	h.startStandard("dt")
	body := "\nSET WAIT\nA Par - Bur\n\nSET NOWAIT\n\nF Bre - Kie"
	r := onlyTo(t, h.orders("dt", "F", body), "france@example.org")
	mustContain(t, r.Body, "Error (line 8): F Bre - Kie:")
	cmds := parser.ParseMail("SIGNON Fdt pw-f\n" + body)
	if last := cmds[len(cmds)-1]; last.Name != "ORDERS" || last.BodyLine != 8 {
		t.Fatalf("the test's mail is not read as expected: %+v", last)
	}
	if got := h.game("dt").Orders["France"]; !slices.Equal(got, []string{"A par - bur"}) {
		t.Fatalf("orders %q", got)
	}
}

func TestCompleteOrdersProcessEarly(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	for _, s := range standardSeats {
		if s.Letter == "T" {
			continue
		}
		h.orders("dt", s.Letter, secretOrders[s.Letter])
	}
	h.advance(time.Hour)
	if got := h.tick(); len(got) != 0 {
		t.Fatalf("processed with Turkey's orders missing: %d mails", len(got))
	}
	r := onlyTo(t, h.orders("dt", "T", "A Con - Bul\nA Smy - Arm"), "turkey@example.org")
	mustContain(t, r.Body, "Orders not received for Fleet Ankara.", "Time to deadline: 2 days 23 hours.")
	h.orders("dt", "T", "F Ank - Bla")
	got := h.tick()
	var results *state.OutMail
	for _, m := range got {
		if m.Subject == "GMD:dt - S1901M Results" {
			results = m
		}
	}
	if results == nil {
		t.Fatalf("no results after complete orders; queued %d mails", len(got))
	}
	mustContain(t, results.Body, "France: Army Paris -> Picardy.", "Turkey: Fleet Ankara -> Black Sea. (*bounce*)")
	g := h.game("dt")
	if len(g.Orders["France"]) != 0 || g.Turn != 1 {
		t.Fatalf("after processing: turn %d, France's orders %q", g.Turn, g.Orders["France"])
	}
	r = onlyTo(t, h.orders("dt", "F", ""), "france@example.org")
	mustContain(t, r.Body, ":: Deadline: F1901M", "Movement orders for Fall of 1901. (dt.002)", "France: Army Picardy, No Order Processed.")
}
