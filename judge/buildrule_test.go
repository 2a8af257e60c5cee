package judge_test

// Tests of the build rules (njudge's HOME, ONE and ANY CENTRES): where a
// Winter build may go, under the map's rule or the game's.

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
)

// playWith adjudicates orders on b's position under rules and moves b on.
func (b *board) playWith(orders string, rules judge.Rules) *judge.Resolution {
	b.t.Helper()
	parsed, errs := parser.ParseOrders(orders, parser.Options{Map: b.m, Phase: b.pos.Phase.Type, Power: judge.NoPower})
	if len(errs) > 0 {
		b.t.Fatalf("%s: %v", orders, errs)
	}
	var os []judge.Order
	for _, o := range parsed {
		os = append(os, o.Order)
	}
	res := judge.Adjudicate(b.pos, os, rules)
	b.pos = res.Next
	return res
}

// englandAbroad is a Winter where England owns London, Belgium and Norway,
// London empty, and two units: it has one build.
func englandAbroad(t *testing.T) *board {
	b := newBoard(t, "standard", "W1901A", "England F nth", "England A yor")
	return b.own("England", "lon", "bel", "nwy")
}

func withBuilds(r judge.BuildRule) judge.Rules {
	rules := judge.DefaultRules
	rules.Builds = r
	return rules
}

func TestBuildRules(t *testing.T) {
	const homeOnly = "Belgium is not a home supply centre of England"
	for _, tc := range []struct {
		rule    judge.BuildRule
		order   string
		out     judge.Outcome
		reason  string
		sites   []string
		lostAll bool // England owns none of its home centres, and Denmark
	}{
		{judge.BuildsOfMap, "England: build A bel", judge.Void, homeOnly, []string{"lon"}, false},
		{judge.BuildHome, "England: build A bel", judge.Void, homeOnly, []string{"lon"}, false},
		{judge.BuildHome, "England: build F lon", judge.Built, "", []string{"lon"}, false},
		{judge.BuildOne, "England: build A bel", judge.Built, "", []string{"bel", "lon", "nwy"}, false},
		{judge.BuildAny, "England: build F nwy", judge.Built, "", []string{"bel", "lon", "nwy"}, false},
		{judge.BuildAny, "England: build A yor", judge.Void, "Yorkshire is not a supply centre", []string{"bel", "lon", "nwy"}, false},
		{judge.BuildAny, "England: build A par", judge.Void, "England does not own Paris", []string{"bel", "lon", "nwy"}, false},
		{judge.BuildOne, "England: build A bel", judge.Void,
			"England holds none of its home centres, and may build only while it holds one", nil, true},
		{judge.BuildAny, "England: build A bel", judge.Built, "", []string{"bel", "den", "nwy"}, true},
	} {
		b := englandAbroad(t)
		if tc.lostAll {
			b.own("France", "lon").own("England", "den")
		}
		eng := b.power("England")
		var sites []string
		for _, l := range b.pos.BuildSites(eng, withBuilds(tc.rule).BuildsOn(b.m)) {
			sites = append(sites, b.m.LocName(l))
		}
		slices.Sort(sites)
		if !slices.Equal(sites, tc.sites) {
			t.Errorf("%v (lost all %v): build sites %v, want %v", tc.rule, tc.lostAll, sites, tc.sites)
		}
		res := b.playWith(tc.order, withBuilds(tc.rule))
		if r := b.ruling(res, tc.order); r.Outcome != tc.out || r.Reason != tc.reason {
			t.Errorf("%v (lost all %v): %s: %v %q, want %v %q", tc.rule, tc.lostAll, tc.order, r.Outcome, r.Reason, tc.out, tc.reason)
		}
		if res.Builds != withBuilds(tc.rule).BuildsOn(b.m) {
			t.Errorf("resolution says it was ruled under %v", res.Builds)
		}
	}
}

// TestBuildRuleWinter checks that a Fall ends in a Winter when a power can
// use a build only under a wider build rule: England takes Belgium with
// its home centres full and Norway, which it owns, empty.
func TestBuildRuleWinter(t *testing.T) {
	for _, tc := range []struct {
		rule   judge.BuildRule
		winter bool
	}{{judge.BuildHome, false}, {judge.BuildOne, true}, {judge.BuildAny, true}} {
		b := newBoard(t, "standard", "F1901M", "England F lon", "England F edi", "England A lvp", "England A hol")
		b.own("England", "lon", "edi", "lvp", "nwy")
		res := b.playWith("England: A hol - bel", withBuilds(tc.rule))
		if got := res.Next.Phase.Type == judge.Adjustment; got != tc.winter {
			t.Errorf("%v: next phase %v, want a Winter: %v", tc.rule, res.Next.Phase, tc.winter)
		}
	}
}

// TestBuildRuleOfMap checks that the game's rule overrides the map's, and
// that a map's rule is its default.
func TestBuildRuleOfMap(t *testing.T) {
	m, err := judge.ParseMap("m", []byte(`map M builds any
power England English E
province lon coast sc England London
province eng sea - - "English Channel"
fleet lon: eng
fleet eng: lon
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ game, want judge.BuildRule }{
		{judge.BuildsOfMap, judge.BuildAny}, {judge.BuildHome, judge.BuildHome}, {judge.BuildOne, judge.BuildOne},
	} {
		if got := withBuilds(tc.game).BuildsOn(m); got != tc.want {
			t.Errorf("game %v on a builds-any map: %v, want %v", tc.game, got, tc.want)
		}
	}
	if got := judge.DefaultRules.BuildsOn(newBoard(t, "standard", "S1901M").m); got != judge.BuildHome {
		t.Errorf("standard builds %v", got)
	}
	for _, s := range []string{"home", "ONE", "Any"} {
		if _, err := judge.ParseBuildRule(s); err != nil {
			t.Errorf("ParseBuildRule(%q): %v", s, err)
		}
	}
	if _, err := judge.ParseBuildRule("anywhere"); err == nil {
		t.Error("ParseBuildRule(anywhere) succeeded")
	}
}
