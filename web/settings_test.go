package web

import (
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// The settings of a game page say each build rule and length in words,
// as the mails do: never "in one centres", and "1 day 12 hours" for a
// length the mails write so.
func TestSettingsInWords(t *testing.T) {
	mp := variants.Standard()
	for _, r := range []judge.BuildRule{judge.BuildHome, judge.BuildOne, judge.BuildAny} {
		g := &state.Game{Settings: state.GameSettings{
			Builds:     r.String(),
			Movement:   state.Duration(36 * time.Hour),
			Retreat:    state.Duration(20 * time.Minute),
			Adjustment: state.Duration(24 * time.Hour),
			Grace:      state.Duration(90 * time.Minute),
		}}
		got := map[string]string{}
		for _, s := range settingsOf(g, mp) {
			got[s.Name] = s.Value
		}
		if got["Builds"] != r.Describe() || got["Builds"] == "in "+r.String()+" centres" {
			t.Errorf("build rule %s shown as %q, want %q", r, got["Builds"], r.Describe())
		}
		for name, want := range map[string]string{"Movement": "1 day 12 hours", "Retreats": "20 minutes", "Adjustments": "1 day", "Grace": "1 hour 30 minutes"} {
			if !strings.HasPrefix(got[name], want) {
				t.Errorf("%s shown as %q, want %q", name, got[name], want)
			}
		}
	}
}
