package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// TestEveryVariantStartsShort starts a game of every variant with one
// player by FORCE BEGIN, after setting its victory count and last year
// at their bounds: each power but the player's gets an empty seat, and
// the bounds follow the variant's board (its centres, its first year).
func TestEveryVariantStartsShort(t *testing.T) {
	for _, name := range racetest.Spread(variants.Names(), 6) { // about one in six under -race (package racetest)
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			mp, err := variants.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			r := onlyTo(t, h.confirm(testMaster, "new game", "CREATE ?v "+testMasterPass+" "+name), testMaster)
			if !strings.Contains(r.Body, "created") {
				t.Fatalf("CREATE reply:\n%s", r.Body)
			}
			centres := len(judge.StartPosition(mp).CenterList())
			if mp.DynamicVictory {
				mustContain(t, h.masterMail("v", "SET VICTORY "+fmt.Sprint(centres)), "victory count follows the number of supply centres")
			} else {
				mustContain(t, h.masterMail("v", fmt.Sprintf("SET VICTORY %d", centres/2)), "A victory needs more than half")
				mustContain(t, h.masterMail("v", fmt.Sprintf("SET VICTORY %d", centres+1)), fmt.Sprintf("board has %d centres", centres))
				h.masterMail("v", fmt.Sprintf("SET VICTORY %d", centres))
				if v := h.game("v").Settings.Victory; v != centres && centres != mp.VictoryCenters {
					t.Errorf("victory %d, want %d", v, centres)
				}
			}
			first := mp.StartPhase().Year
			if first > 1 { // year 0 is SET END YEAR NONE
				mustContain(t, h.masterMail("v", fmt.Sprintf("SET END YEAR %d", first-1)), "its last year cannot be")
			}
			mustContain(t, h.masterMail("v", fmt.Sprintf("SET END YEAR %d RANK", first)), fmt.Sprintf("ends after the adjustments of %d", first))

			h.join("one@example.org", "v", "pw-1", "", "")
			got := h.mail(testMaster, "begin", "SIGNON Mv "+testMasterPass+"\nFORCE BEGIN")
			g := h.game("v")
			if g.Status != state.Active || len(g.Players) != len(mp.Powers) {
				t.Fatalf("after FORCE BEGIN: %s, %d seats of %d powers", g.Status, len(g.Players), len(mp.Powers))
			}
			held := 0
			for _, p := range g.Players {
				switch {
				case p.Empty && p.Status == state.Abandoned && p.Addr == "":
				case !p.Empty && p.Status == state.Playing && p.Addr == "one@example.org":
					held++
				default:
					t.Errorf("seat %s: empty %v, %s, %q", p.Power, p.Empty, p.Status, p.Addr)
				}
			}
			if held != 1 {
				t.Errorf("%d seats held, want 1", held)
			}
			start := onlyTo(t, got, "one@example.org").Body
			if n := strings.Count(start, "nobody yet: free for takeover"); n != len(mp.Powers)-1 {
				t.Errorf("the start mail shows %d empty seats, want %d", n, len(mp.Powers)-1)
			}
		})
	}
}
