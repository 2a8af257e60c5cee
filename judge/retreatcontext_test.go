package judge_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// playPhase parses the "Power: order" lines for pos's phase and
// adjudicates them under the DATC 3.0 rules.
func playPhase(t *testing.T, pos *judge.Position, orders ...string) *judge.Resolution {
	t.Helper()
	m := pos.Map
	var os []judge.Order
	for _, line := range orders {
		name, text, _ := strings.Cut(line, ":")
		p, ok := m.PowerByName(strings.TrimSpace(name))
		if !ok {
			t.Fatalf("%q: unknown power", line)
		}
		o, err := parser.ParseOrder(strings.TrimSpace(text), parser.Options{Map: m, Phase: pos.Phase.Type, Power: p})
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		o.Power = p
		os = append(os, o)
	}
	return judge.Adjudicate(pos, os, judge.DATC30)
}

// positionOf builds a Spring 1901 movement position from "Power: A xxx" lines.
func positionOf(t *testing.T, units ...string) *judge.Position {
	t.Helper()
	m := variants.Standard()
	pos := judge.NewPosition(m, judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement})
	copy(pos.Centers, m.StartCenters)
	for _, line := range units {
		name, rest, _ := strings.Cut(line, ":")
		f := strings.Fields(rest)
		p, ok := m.PowerByName(strings.TrimSpace(name))
		l, ok2 := m.Lookup(f[1])
		if !ok || !ok2 || len(f) != 2 {
			t.Fatalf("bad unit %q", line)
		}
		typ := judge.Army
		if f[0] == "F" {
			typ = judge.Fleet
		}
		if err := pos.Place(judge.Unit{Type: typ, Power: p, Loc: l}); err != nil {
			t.Fatal(err)
		}
	}
	return pos
}

func locNames(m *judge.Map, ls []judge.Loc) []string {
	out := []string{}
	for _, l := range ls {
		out = append(out, m.LocName(l))
	}
	slices.Sort(out)
	return out
}

func resultOf(t *testing.T, res *judge.Resolution, m *judge.Map, unit string) judge.OrderResult {
	t.Helper()
	for _, r := range res.Results {
		if m.LocName(r.Order.Unit) == unit {
			return r
		}
	}
	t.Fatalf("no ruling for the unit in %s", unit)
	return judge.OrderResult{}
}

// TestHeadToHeadLoserMakesNoStandoff plays DATC 6.H.9 as a game does: the
// movement, then the retreat from the judge's own next position. The
// Russian army that lost the head-to-head battle for Berlin made no
// stand-off there, so the German fleet dislodged from Kiel retreats to it.
func TestHeadToHeadLoserMakesNoStandoff(t *testing.T) {
	pos := positionOf(t, "England: F hel", "England: F den", "Germany: A ber", "Germany: F kie",
		"Germany: A sil", "Russia: A pru")
	res := playPhase(t, pos,
		"England: F hel - kie", "England: F den S F hel - kie",
		"Germany: A ber - pru", "Germany: F kie H", "Germany: A sil S A ber - pru",
		"Russia: A pru - ber")
	m := pos.Map
	next := res.Next
	if got := locNames(m, next.Bounced); len(got) != 0 {
		t.Fatalf("stand-offs %v, want none", got)
	}
	var disl []string
	for _, d := range next.Dislodged {
		disl = append(disl, m.LocName(d.Loc))
	}
	if slices.Sort(disl); !slices.Equal(disl, []string{"kie", "pru"}) {
		t.Fatalf("dislodged %v, want the fleet in Kiel and the army in Prussia", disl)
	}
	ret := playPhase(t, next, "Germany: F kie - ber")
	if r := resultOf(t, ret, m, "kie"); r.Outcome != judge.Succeeds {
		t.Fatalf("F kie - ber: %s (%s), want succeeds", r.Outcome, r.Reason)
	}
	if u, ok := ret.Next.UnitAt(mustLoc(t, m, "ber")); !ok || u.Type != judge.Fleet {
		t.Fatalf("Berlin after the retreat: %+v, want the German fleet", u)
	}
}

// TestStandoffBesideHeadToHead: a real stand-off still blocks a retreat
// when the loser of a head-to-head battle also moved there. Austria and
// Russia bounce in Berlin, which the Russian army from Prussia also tried
// to enter, losing to the German army coming out.
func TestStandoffBesideHeadToHead(t *testing.T) {
	pos := positionOf(t, "England: F hel", "England: F den", "Germany: A ber", "Germany: F kie",
		"Germany: A sil", "Russia: A pru", "Russia: F bal", "Austria: A mun")
	res := playPhase(t, pos,
		"England: F hel - kie", "England: F den S F hel - kie",
		"Germany: A ber - pru", "Germany: F kie H", "Germany: A sil S A ber - pru",
		"Russia: A pru - ber", "Russia: F bal - ber", "Austria: A mun - ber")
	m := pos.Map
	for _, u := range []string{"mun", "bal"} {
		if r := resultOf(t, res, m, u); r.Outcome != judge.Bounced {
			t.Errorf("the move from %s: %s, want bounce", u, r.Outcome)
		}
	}
	if got := locNames(m, res.Next.Bounced); !slices.Equal(got, []string{"ber"}) {
		t.Fatalf("stand-offs %v, want [ber]", got)
	}
	ret := playPhase(t, res.Next, "Germany: F kie - ber")
	if r := resultOf(t, ret, m, "kie"); r.Outcome != judge.Void {
		t.Fatalf("F kie - ber: %s, want void (Berlin was a stand-off)", r.Outcome)
	}
}

// TestArmyRetreatNamesCoast: an army's retreat that names a coast goes to
// the province, as the same text does as a move (DATC 4.B.6).
func TestArmyRetreatNamesCoast(t *testing.T) {
	pos := positionOf(t, "England: A nwy", "Russia: A swe", "Russia: F ska", "Russia: A fin")
	res := playPhase(t, pos, "England: A nwy H", "Russia: A swe - nwy", "Russia: F ska S A swe - nwy", "Russia: A fin H")
	m := pos.Map
	next := res.Next
	if len(next.Dislodged) != 1 {
		t.Fatalf("dislodged %+v, want the army in Norway", next.Dislodged)
	}
	ret := playPhase(t, next, "England: A nwy - stp/sc")
	r := resultOf(t, ret, m, "nwy")
	if r.Outcome != judge.Succeeds {
		t.Fatalf("A nwy - stp/sc: %s (%s), want succeeds", r.Outcome, r.Reason)
	}
	if u, ok := ret.Next.UnitAt(mustLoc(t, m, "stp")); !ok || u.Type != judge.Army || u.Loc != mustLoc(t, m, "stp") {
		t.Fatalf("St Petersburg after the retreat: %+v, want an army in stp", u)
	}
}
