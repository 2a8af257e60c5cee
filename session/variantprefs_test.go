package session

import (
	"strings"
	"testing"
)

// TestJoinAnyVariantPreferencesShown: a join that names no game shows the
// preferences when they are power letters of the game it joins, the
// first forming one (H and J are Canton's Holland and Japan, and no
// power of the standard map), and still hides words that are letters of
// none.
func TestJoinAnyVariantPreferencesShown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	got := h.confirm(testMaster, "new game", "CREATE ?ct "+testMasterPass+" canton")
	if r := onlyTo(t, got, testMaster); !strings.Contains(r.Body, "created") {
		t.Fatalf("CREATE reply:\n%s", r.Body)
	}
	r := onlyTo(t, h.mail("d@example.org", "x", "SIGNON ? pw-d H J"), "d@example.org").Body
	mustContain(t, r, "> SIGNON ? ******** H J")
	mustNotContain(t, r, "pw-d")
	r = onlyTo(t, h.mail("e@example.org", "x", "SIGNON ? pw-e QX"), "e@example.org").Body
	mustContain(t, r, "> SIGNON ? ******** ********")
	mustNotContain(t, r, "QX")
}
