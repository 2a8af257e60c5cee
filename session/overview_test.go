package session

import (
	"slices"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// TestOverviewDisorderAndEnd checks Overview on the seats of an NMR game
// fallen into civil disorder, then on the game terminated.
func TestOverviewDisorderAndEnd(t *testing.T) {
	h := newHarness(t)
	h.startStandard("cd")
	h.mail(testMaster, "x", "SIGNON Mcd pw-m\nSET NMR")
	h.orders("cd", "F", "A Par H\nA Mar H\nF Bre H")
	h.advance(73*time.Hour + 49*time.Hour)
	h.tick()

	o := onlyOverview(t, h)
	want := []string{"Austria", "England", "Germany", "Italy", "Russia", "Turkey"}
	if o.Phase != "F1901M" || o.Players != 1 || o.Seats != 7 || !slices.Equal(o.Disorder, want) || len(o.Late) != 0 || len(o.Abandoned) != 0 {
		t.Errorf("after the grace: %+v; want F1901M, 1 of 7 seats played, %v in civil disorder", o, want)
	}
	h.advance(73 * time.Hour) // France is late now, the seats in civil disorder are not
	if o := onlyOverview(t, h); !slices.Equal(o.Late, []string{"France"}) {
		t.Errorf("past the F1901M deadline: late %v, want France", o.Late)
	}

	h.mail(testMaster, "x", "SIGNON Mcd pw-m\nTERMINATE")
	o = onlyOverview(t, h)
	if o.Status != state.Finished || o.Result != "terminated" || !o.Deadline.IsZero() || o.Phase != "F1901MX" || len(o.Late) != 0 {
		t.Errorf("terminated: %+v", o)
	}
}

// onlyOverview returns the Overview of the harness's one game at its now.
func onlyOverview(t *testing.T, h *harness) view.GameOverview {
	t.Helper()
	all, err := h.m.Overview(h.now)
	if err != nil || len(all) != 1 {
		t.Fatalf("Overview: %v, %d games", err, len(all))
	}
	return all[0]
}
