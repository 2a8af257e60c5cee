package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge/variants"
)

// TestYearZeroByMail plays North Sea Wars, whose first year is 0, by mail:
// the results say "Spring of 0", HISTORY reads the phase as S0M and as
// S0000M, and PHASE takes orders ahead for the Fall of 0 written either
// way.
func TestYearZeroByMail(t *testing.T) {
	h := newHarness(t)
	const game = "nsw"
	seats := h.startAnyVariant(game, "north-sea-wars", "")
	mp, err := variants.Load("north-sea-wars")
	if err != nil {
		t.Fatal(err)
	}
	p0 := mp.Powers[0]
	s := seats[p0.Name]
	for _, ahead := range []string{"PHASE F0M", "PHASE Fall 0 Movement"} {
		r := replyTo(t, h.mail(s.Addr, "ahead", fmt.Sprintf("SIGNON %c%s %s\n%s\nA cym H", p0.Letter, game, s.Pass, ahead)), s.Addr).Body
		t.Logf("%s:\n%s", ahead, r)
		if strings.Contains(r, "Error") || strings.Contains(r, "cannot read the phase") {
			t.Errorf("%s refused:\n%s", ahead, r)
		}
	}
	body, next := h.playPhase(game, mp, seats, nil)
	mustContain(t, body, "Movement results for Spring of 0.")
	if next.Phase.String() != "F0M" {
		t.Fatalf("next phase %s, want F0M", next.Phase)
	}
	for _, id := range []string{"S0M", "s0000m"} {
		r := replyTo(t, h.mail("stranger@example.org", "history", "HISTORY "+game+" "+id), "stranger@example.org").Body
		if !strings.Contains(r, "Movement results for Spring of 0.") {
			t.Errorf("HISTORY %s %s:\n%s", game, id, r)
		}
	}
}
