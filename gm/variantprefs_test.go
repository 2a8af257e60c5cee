package gm

import "testing"

// TestJoinAnyVariantPreferencesShown: a join that names no game shows
// preferences that are power letters of some variant, though not of
// others (H and J are Canton's Holland and Japan, and no power of the
// standard map), and still hides words that are letters of none.
func TestJoinAnyVariantPreferencesShown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.create("dt")
	r := onlyTo(t, h.mail("d@example.org", "x", "SIGNON ? pw-d H J"), "d@example.org").Body
	mustContain(t, r, "> SIGNON ? ******** H J")
	mustNotContain(t, r, "pw-d")
	r = onlyTo(t, h.mail("e@example.org", "x", "SIGNON ? pw-e QX"), "e@example.org").Body
	mustContain(t, r, "> SIGNON ? ******** ********")
	mustNotContain(t, r, "QX")
}
