package session

import "testing"

// TestSetBuildCaptured: SET BUILD CAPTURED, Twenty Twenty's rule, is taken
// on any board at CREATE, said in words, and shown by LIST.
func TestSetBuildCaptured(t *testing.T) {
	h := newHarness(t)
	got := h.confirm(testMaster, "new game", "CREATE ?sc "+testMasterPass+"\nSET BUILD CAPTURED")
	r := replyTo(t, got, testMaster).Body
	t.Logf("the master reads:\n%s", r)
	mustContain(t, r, "Builds (SET BUILD CAPTURED): a power builds in any vacant owned home centre, its own or one taken from another power. The Standard variant's own rule is HOME.")
	if g := h.game("sc"); g.Settings.Builds != "captured" {
		t.Fatalf("setting %q", g.Settings.Builds)
	}
	list := onlyTo(t, h.mail("x@example.org", "x", "LIST sc"), "x@example.org").Body
	mustContain(t, list, ", builds in any vacant owned home centre, its own or one taken from another power.")
}
