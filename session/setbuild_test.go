package session

import (
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/judge"
)

// TestSetBuild sets the build rule at CREATE, changes it before the start,
// and finds it fixed once the game runs: the change is announced, LIST
// shows it, and the game is adjudicated with it. SET BUILD with a length
// still sets the adjustment phase's.
func TestSetBuild(t *testing.T) {
	h := newHarness(t)
	got := h.confirm(testMaster, "new game", "CREATE ?sb "+testMasterPass+"\nSET BUILD ANY")
	r := replyTo(t, got, testMaster).Body
	mustContain(t, r, "Builds (SET BUILD ANY): a power builds in any vacant owned centre. The Standard variant's own rule is HOME.")
	if g := h.game("sb"); g.Settings.Builds != "any" {
		t.Fatalf("setting %q", g.Settings.Builds)
	}
	list := onlyTo(t, h.mail("x@example.org", "x", "LIST sb"), "x@example.org").Body
	mustContain(t, list, ", builds in any vacant owned centre.")

	// A player may not; the master may change it, and is told when
	// nothing changes; each change goes to everyone in the game.
	h.join("austria@example.org", "sb", "pw-a", "", "")
	r = onlyTo(t, h.mail("austria@example.org", "x", "SIGNON ?sb pw-a\nSET BUILD HOME"), "austria@example.org").Body
	mustContain(t, r, "Only the master of 'sb' may SET BUILD.")
	got = h.mail(testMaster, "x", "SIGNON Msb "+testMasterPass+"\nSET BUILD one centres\nSET BUILD ONE\nSET BUILD 36h")
	r = replyTo(t, got, testMaster).Body
	mustContain(t, r, "Builds (SET BUILD ONE): a power builds in any vacant owned centre while it holds one of its home centres.",
		"It already was: nothing changed.")
	mustNotContain(t, r, "Error")
	notices := 0
	for _, m := range got {
		if strings.HasSuffix(m.Subject, "Parameter Change") && strings.Contains(m.Body, "SET BUILD ONE") {
			notices++
		}
	}
	if notices == 0 {
		t.Error("no Parameter Change notice of SET BUILD ONE")
	}
	g := h.game("sb")
	if g.Settings.Builds != "one" || time.Duration(g.Settings.Adjustment) != 36*time.Hour {
		t.Errorf("builds %q, adjustment %v", g.Settings.Builds, g.Settings.Adjustment)
	}

	// Once the game has started the rule is fixed, and it is the rule the
	// game is adjudicated with.
	for _, s := range standardSeats[1:] {
		h.join(s.Addr, "sb", s.Pass, "", "")
	}
	r = replyTo(t, h.mail(testMaster, "x", "SIGNON Msb "+testMasterPass+"\nSET BUILD HOME"), testMaster).Body
	mustContain(t, r, "The build rule of 'sb' is fixed once the game has started.")
	_, rules, err := h.m.Position(h.game("sb"))
	if err != nil || rules.Builds != judge.BuildOne {
		t.Errorf("the game is adjudicated with builds %v (%v)", rules.Builds, err)
	}
	r = onlyTo(t, h.mail("x@example.org", "x", "LIST sb"), "x@example.org").Body
	mustContain(t, r, "builds in any vacant owned centre while it holds one of its home centres")
}

// TestChaosListsItsBuildRule: a variant whose own rule is not the standard
// one says so in LIST without any SET BUILD.
func TestChaosListsItsBuildRule(t *testing.T) {
	h := newHarness(t)
	h.confirm(testMaster, "new game", "CREATE ?ch "+testMasterPass+" chaos")
	r := onlyTo(t, h.mail("x@example.org", "x", "LIST ch"), "x@example.org").Body
	mustContain(t, r, "Game 'ch': Chaos", ", builds in any vacant owned centre.", "Phase: W1900A.", "0 of 34 have joined")
}
