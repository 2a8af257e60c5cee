package judge_test

import (
	"os"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// neutralBoard loads testdata/maps/neutral.map, a tiny board with a
// neutral army in the centre Neutralia and a neutral fleet in the Bay;
// with rebuild false, its map line says "neutrals hold" instead of
// "neutrals rebuild".
func neutralBoard(t *testing.T, rebuild bool) *board {
	t.Helper()
	src, err := os.ReadFile("testdata/maps/neutral.map")
	if err != nil {
		t.Fatal(err)
	}
	if !rebuild {
		src = []byte(strings.Replace(string(src), "neutrals rebuild", "neutrals hold", 1))
	}
	m, err := judge.ParseMap("neutral", src)
	if err != nil {
		t.Fatal(err)
	}
	if m.NeutralsRebuild != rebuild {
		t.Fatalf("NeutralsRebuild %v, want %v", m.NeutralsRebuild, rebuild)
	}
	return &board{t: t, m: m, pos: judge.StartPosition(m)}
}

// neutralAt reports whether a neutral unit of type typ stands in the
// province named.
func (b *board) neutralAt(name string, typ judge.UnitType) bool {
	u, ok := b.pos.UnitAt(b.loc(name))
	return ok && u.Neutral() && u.Type == typ
}

// TestNeutralUnitsStart checks what the map file's "unit -" lines make: two
// neutral units that count as no power's, on a board whose centres they
// hold owned by nobody.
func TestNeutralUnitsStart(t *testing.T) {
	b := neutralBoard(t, true)
	if !b.m.HasNeutrals() {
		t.Error("HasNeutrals false on a map with neutral units")
	}
	if !b.neutralAt("ne", judge.Army) || !b.neutralAt("bay", judge.Fleet) {
		t.Fatal("the neutral army in Neutralia and fleet in the Bay are not on the board")
	}
	if got := b.pos.UnitCount(); got[0] != 2 || got[1] != 2 {
		t.Errorf("unit counts %v, want [2 2]: neutral units are nobody's", got)
	}
	if b.pos.Centers[b.loc("ne")] != judge.NoPower {
		t.Error("Neutralia is owned at the start")
	}
	if got := b.m.UnitOwner(judge.NoPower) + " " + b.m.UnitAdjective(judge.NoPower); got != "Neutral Neutral" {
		t.Errorf("a neutral unit's owner and adjective %q", got)
	}
	for _, name := range []string{"standard", "chaos"} {
		if m, err := variants.Load(name); err != nil || m.HasNeutrals() {
			t.Errorf("%s: %v, or it has neutral units", name, err)
		}
	}
}

// TestNeutralHoldsAgainstLoneAttack: a neutral army holds against an
// unsupported attack, and the attacker bounces.
func TestNeutralHoldsAgainstLoneAttack(t *testing.T) {
	b := neutralBoard(t, true)
	res := b.play("Redland: A rh - ne")
	b.expect(res, "Redland: A rh - ne", judge.Bounced, "")
	if !b.neutralAt("ne", judge.Army) {
		t.Error("the neutral army left Neutralia after a lone attack")
	}
	if len(res.Destroyed) != 0 || len(res.Retreats) != 0 {
		t.Errorf("destroyed %v, retreats %v after a bounce", res.Destroyed, res.Retreats)
	}
}

// TestNeutralFallsToSupportedAttack: a supported attack dislodges a
// neutral army, which is destroyed although it has a place to retreat to
// (Middle is empty): no retreat phase follows, and the attacker's power
// takes the centre at the end of the year.
func TestNeutralFallsToSupportedAttack(t *testing.T) {
	b := neutralBoard(t, false)
	res := b.play("Redland: A rh - ne\nRedland: A rh2 S A rh - ne")
	b.expect(res, "Redland: A rh - ne", judge.Succeeds, "")
	if len(res.Retreats) != 0 || len(res.Next.Dislodged) != 0 {
		t.Fatalf("a neutral unit may retreat: %v", res.Retreats)
	}
	if len(res.Destroyed) != 1 || !res.Destroyed[0].Neutral() || res.Destroyed[0].Loc != b.loc("ne") {
		t.Fatalf("destroyed %v, want the neutral army in Neutralia", res.Destroyed)
	}
	if b.pos.Phase.String() != "F1901M" {
		t.Fatalf("next phase %s, want F1901M: no retreat for a neutral unit", b.pos.Phase)
	}
	if u, _ := b.pos.UnitAt(b.loc("ne")); u.Power != b.power("Redland") {
		t.Fatalf("Neutralia holds %+v, want the Red army", u)
	}
	// Fall: Red holds; the centre becomes Red's and Red builds for it.
	b.play("")
	if b.pos.Centers[b.loc("ne")] != b.power("Redland") {
		t.Error("Red does not own Neutralia after the Fall")
	}
	if b.pos.Phase.String() != "W1901A" {
		t.Fatalf("phase %s after a capture, want W1901A", b.pos.Phase)
	}
	if got := b.pos.UnitCount(); got[0] != 2 {
		t.Errorf("Red has %d units, want 2", got[0])
	}
}

// TestNeutralTakesNoOrders: a power's order for a neutral unit and an
// order that names no power are both void, and the unit holds.
func TestNeutralTakesNoOrders(t *testing.T) {
	b := neutralBoard(t, true)
	res := b.play("Redland: A ne - mid")
	b.expect(res, "Redland: A ne - mid", judge.Void, "Redland does not own the army in Neutralia")
	if !b.neutralAt("ne", judge.Army) {
		t.Error("a power moved the neutral army")
	}
	b = neutralBoard(t, true)
	o := judge.Order{Kind: judge.Move, Power: judge.NoPower, Type: judge.Army, Unit: b.loc("ne"), Dest: b.loc("mid")}
	res = judge.Adjudicate(b.pos, []judge.Order{o}, judge.DefaultRules)
	if r := res.Results[0]; r.Outcome != judge.Void || r.Reason != "the army in Neutralia is neutral: it takes no orders and holds" {
		t.Errorf("an order naming no power for a neutral unit: %v %q", r.Outcome, r.Reason)
	}
	if u, ok := res.Next.UnitAt(b.loc("ne")); !ok || !u.Neutral() {
		t.Error("the neutral army moved on an order naming no power")
	}
	// Nor does a neutral fleet convoy or support.
	b = neutralBoard(t, true)
	o = judge.Order{Kind: judge.SupportHold, Power: judge.NoPower, Type: judge.Fleet, Unit: b.loc("bay"), Target: b.loc("port")}
	res = judge.Adjudicate(b.pos, []judge.Order{o}, judge.DefaultRules)
	if res.Results[0].Outcome != judge.Void {
		t.Errorf("a neutral fleet's support: %v", res.Results[0].Outcome)
	}
}

// TestNeutralSupportedByAPower: any power may support a neutral unit to
// hold, and a power's support counts against a neutral unit like any
// other's: the self-dislodgement rules, which protect a power's own
// units, do not protect a neutral one, and two powers' equal attacks
// leave it standing.
func TestNeutralSupportedByAPower(t *testing.T) {
	b := neutralBoard(t, true)
	res := b.play("Redland: A rh - ne\nRedland: A rh2 S A rh - ne\nBlueland: A bh S A ne")
	b.expect(res, "Redland: A rh - ne", judge.Bounced, "")
	b.expect(res, "Blueland: A bh S A ne", judge.Succeeds, "")
	if !b.neutralAt("ne", judge.Army) {
		t.Error("a neutral army supported to hold was dislodged by an attack of equal strength")
	}

	// Blue's support of Red's attack counts: Blue is not the neutral
	// unit's owner.
	b = neutralBoard(t, true)
	res = b.play("Redland: A rh - ne\nBlueland: A bh S A rh - ne")
	b.expect(res, "Redland: A rh - ne", judge.Succeeds, "")
	if len(res.Destroyed) != 1 || !res.Destroyed[0].Neutral() {
		t.Errorf("destroyed %v, want the neutral army", res.Destroyed)
	}

	// Beleaguered garrison: Red and Blue each attack with one support.
	b = neutralBoard(t, true)
	b.pos.Units[b.loc("mid")] = judge.Unit{Type: judge.Army, Power: b.power("Blueland"), Loc: b.loc("mid")}
	res = b.play("Redland: A rh - ne\nRedland: A rh2 S A rh - ne\nBlueland: A bh - ne\nBlueland: A mid S A bh - ne")
	if !b.neutralAt("ne", judge.Army) {
		t.Error("a beleaguered neutral army was dislodged")
	}
	b.expect(res, "Redland: A rh - ne", judge.Bounced, "")
	b.expect(res, "Blueland: A bh - ne", judge.Bounced, "")
}

// TestNeutralNotCountedInAdjustments: a power with as many centres as
// units of its own has nothing to build or remove, whatever neutral units
// stand on the board, and a Winter of nobody's adjustments is skipped.
func TestNeutralNotCountedInAdjustments(t *testing.T) {
	b := neutralBoard(t, true)
	b.play("")
	b.play("")
	if b.pos.Phase.String() != "S1902M" {
		t.Errorf("phase %s after a quiet year, want S1902M: nobody adjusts", b.pos.Phase)
	}
	// A Winter where Red has a build: the neutral units are not Red's.
	b = neutralBoard(t, true)
	b.pos.Phase = judge.Phase{Season: judge.Winter, Year: 1901, Type: judge.Adjustment}
	b.pos.Units[b.loc("rh2")] = judge.Unit{Loc: judge.NoLoc}
	res := b.play("Redland: build A rh2\nRedland: build A rh2")
	if res.Results[0].Outcome != judge.Built || res.Results[1].Outcome != judge.Void {
		t.Errorf("builds %v %v, want one built and the second void", res.Results[0].Outcome, res.Results[1].Outcome)
	}
}

// TestNeutralRebuild: with "neutrals rebuild", a neutral army destroyed
// comes back as the year ends while its centre is empty and owned by
// nobody; a centre a power took keeps it out, and with "neutrals hold" it
// never comes back. The neutral fleet in the Bay, on no centre, comes
// back whenever its place is empty.
func TestNeutralRebuild(t *testing.T) {
	for _, rebuild := range []bool{true, false} {
		b := neutralBoard(t, rebuild)
		// Spring: Red dislodges the army and moves in; Fall: Red moves
		// back out, leaving Neutralia empty and unowned.
		b.play("Redland: A rh - ne\nRedland: A rh2 S A rh - ne")
		b.play("Redland: A ne - rh")
		if got := b.neutralAt("ne", judge.Army); got != rebuild {
			t.Errorf("rebuild %v: neutral army back in Neutralia: %v", rebuild, got)
		}
		if b.pos.Phase.String() != "S1902M" {
			t.Errorf("rebuild %v: phase %s, want S1902M", rebuild, b.pos.Phase)
		}
	}

	// Taken at the end of a Fall: Red owns it, and no neutral army comes
	// back, even once it is empty again.
	b := neutralBoard(t, true)
	b.play("Redland: A rh - ne\nRedland: A rh2 S A rh - ne")
	b.play("")
	if b.pos.Centers[b.loc("ne")] != b.power("Redland") {
		t.Fatal("Red does not own Neutralia")
	}
	b.play("Redland: build A rh")
	b.play("Redland: A ne - mid")
	b.play("")
	if _, ok := b.pos.UnitAt(b.loc("ne")); ok {
		t.Error("a neutral army came back into a centre Red owns")
	}
}
