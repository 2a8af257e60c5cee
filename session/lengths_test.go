package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// TestLengthBounds is the attack of SET MOVEMENT 1ns (an NMR game then
// processed a phase at every run of the clock, for ever): every length
// setting, under every word the master may use for it, is refused below
// its floor and above its ceiling with a message naming the bound, and
// taken at the bounds themselves; a refused setting changes nothing and
// mails nobody. HELP lists every bound of the table.
func TestLengthBounds(t *testing.T) {
	racetest.Sequential(t) // one mail after another, on one goroutine: the plain pass runs it
	h := newHarness(t)
	h.startStandard("dt")
	words := map[string][]string{
		"MOVEMENT":   {"MOVEMENT", "MOVE", "MOVES"},
		"RETREAT":    {"RETREAT", "RETREATS"},
		"ADJUSTMENT": {"ADJUSTMENT", "ADJUSTMENTS", "ADJUST", "BUILD", "BUILDS"},
		"GRACE":      {"GRACE"},
		"REMINDER":   {"REMINDER"},
	}
	var lengths []parser.SetOption
	for _, o := range parser.SetOptions() {
		if o.Max > 0 {
			lengths = append(lengths, o)
		}
	}
	if len(words) != len(lengths) {
		t.Fatalf("the test knows %d settings, the table has %d", len(words), len(lengths))
	}
	value := func(g *state.Game, setting string) state.Duration {
		st := g.Settings
		return map[string]state.Duration{"MOVEMENT": st.Movement, "RETREAT": st.Retreat, "ADJUSTMENT": st.Adjustment,
			"GRACE": st.Grace, "REMINDER": st.Reminder}[setting]
	}
	set := func(word, length string) string {
		t.Helper()
		got := h.mail(testMaster, "set", "SIGNON Mdt "+testMasterPass+"\nSET "+word+" "+length)
		return replyTo(t, got, testMaster).Body
	}
	for _, l := range lengths {
		for _, word := range words[l.Name] {
			bad := []string{"1s", fmt.Sprintf("%ds", int((l.Min - time.Second).Seconds())), fmt.Sprintf("%dm", int((l.Max + time.Minute).Minutes()))}
			if !l.Off {
				bad = append(bad, "0")
			}
			for _, length := range bad {
				before := h.game("dt")
				id := h.lastID()
				r := set(word, length)
				bound := "at least " + engine.SpellLength(l.Min)
				if strings.HasSuffix(length, "m") {
					bound = "at most " + engine.SpellLength(l.Max)
				}
				if !containsText(r, engine.Capitalize(l.What)+" lasts "+bound) || !containsText(r, lengthBounds(l)) {
					t.Errorf("SET %s %s: the reply names no bound (%s):\n%s", word, length, bound, r)
				}
				if got, want := value(h.game("dt"), l.Name), value(before, l.Name); got != want {
					t.Errorf("SET %s %s refused, but the setting went from %v to %v", word, length, time.Duration(want), time.Duration(got))
				}
				if sent := h.since(id); len(sent) != 1 {
					t.Errorf("SET %s %s refused, but %d mails went out", word, length, len(sent))
				}
			}
			good := []time.Duration{l.Min, l.Max}
			if l.Off {
				good = append(good, 0)
			}
			for _, d := range good {
				length := fmt.Sprintf("%dm", int(d.Minutes()))
				if r := set(word, length); strings.Contains(r, "Error") {
					t.Errorf("SET %s %s refused:\n%s", word, length, r)
				}
				if got := value(h.game("dt"), l.Name); got != state.Duration(d) {
					t.Errorf("SET %s %s: the setting is %v", word, length, time.Duration(got))
				}
			}
		}
	}

	help := replyTo(t, h.mail("anyone@example.net", "help", "HELP"), "anyone@example.net").Body
	for _, l := range lengths {
		if want := fmt.Sprintf("SET %-11s %s", l.Name, lengthBounds(l)); !strings.Contains(help, want) {
			t.Errorf("HELP does not say %q:\n%s", want, help)
		}
	}
}
