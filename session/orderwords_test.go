package session

import (
	"fmt"
	"strings"
	"testing"
)

// TestOrderWordsByMail sends, on Youngstown Redux, the lines of issue 19
// that were read as another order: Germany's "A Den - Swe" (once Aden's
// move) and "A Lao S A Tha" (once refused as "Laos S"). The replies
// confirm the units the player meant, and a hyphenated abbreviation that
// fits two seas is answered with both.
func TestOrderWordsByMail(t *testing.T) {
	h := newHarness(t)
	seats := h.startAnyVariant("yr", "youngstown-redux", "")
	h.setPosition("yr", `{"variant":"youngstown-redux","phase":"S1901M",
	 "units":[{"power":"Germany","type":"A","at":"den"},{"power":"Germany","type":"A","at":"lao"},
	  {"power":"Germany","type":"A","at":"tha"},{"power":"Britain","type":"F","at":"ade"}],
	 "centers":{"ber":"Germany","ade":"Britain"}}`)
	send := func(power, letter, body string) string {
		s := seats[power]
		return onlyTo(t, h.mail(s.Addr, "orders", fmt.Sprintf("SIGNON %syr %s\n%s", letter, s.Pass, body)), s.Addr).Body
	}
	r := send("Germany", "G", "A Den - Swe\nA Lao S A Tha\nA tha H")
	mustContain(t, r, "Germany: Army Denmark -> Sweden.", "Germany: Army Laos SUPPORT Army Thailand.")
	mustNotContain(t, r, "Error", "Aden")
	r = send("Britain", "B", "F ade - N-S")
	if !strings.Contains(r, `Ambiguous province "N-S" (did you mean`) {
		t.Errorf("reply to F ade - N-S:\n%s", r)
	}
}
