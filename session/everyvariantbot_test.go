package session

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// TestEveryVariantBotFill starts a game of every variant with one player
// by FORCE BEGIN under SET BOT FILL, and has the master PROCESS its first
// phases: at the start of each, every seat the bot plays has all its
// orders (movement, retreats, adjustments alike), none of them refused
// when adjudicated, and the history keeps them.
func TestEveryVariantBotFill(t *testing.T) {
	for _, name := range racetest.Spread(variants.Names(), 6) { // about one in six under -race (package racetest)
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			// A small budget: the orders are as legal, and the test
			// plays every seat of every variant.
			h.m.Config().BotBudget = 100
			r := onlyTo(t, h.confirm(testMaster, "new game", "CREATE ?v "+testMasterPass+" "+name), testMaster)
			if !strings.Contains(r.Body, "created") {
				t.Fatalf("CREATE reply:\n%s", r.Body)
			}
			mustContain(t, h.masterMail("v", "SET BOT FILL"), "The judge's bot plays")
			h.join("one@example.org", "v", "pw-1", "", "")
			h.mail(testMaster, "begin", "SIGNON Mv "+testMasterPass+"\nFORCE BEGIN")
			for turn := 0; turn < 4; turn++ {
				g := h.game("v")
				if g.Status != state.Active {
					break
				}
				pos, _, err := h.m.Position(g)
				if err != nil {
					t.Fatal(err)
				}
				bots := 0
				for _, p := range g.Players {
					if !p.Empty {
						continue
					}
					bots++
					if !p.Bot || !h.m.Complete(g, pos, p.Power) {
						t.Fatalf("%s: %s's seat: bot %v, orders %v: want the bot's, complete", pos.Phase, p.Power, p.Bot, g.Orders[p.Power])
					}
				}
				if bots == 0 {
					t.Fatalf("%s: no seat for the bot", pos.Phase)
				}
				h.masterMail("v", "PROCESS")
				rec := h.phases("v")
				if len(rec) != turn+1 {
					t.Fatalf("%s: %d phases in the history after PROCESS, want %d", pos.Phase, len(rec), turn+1)
				}
				last := rec[len(rec)-1]
				for _, p := range g.Players {
					if p.Empty && len(g.Orders[p.Power]) > 0 && len(last.Orders[p.Power]) == 0 {
						t.Errorf("%s: the history lost %s's orders", pos.Phase, p.Power)
					}
				}
				if strings.Contains(last.Results, "void") || strings.Contains(last.Results, "illegal") {
					t.Errorf("%s: the bot's orders were refused:\n%s", pos.Phase, last.Results)
				}
			}
		})
	}
}
