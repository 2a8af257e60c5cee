package view

import (
	"errors"
	"testing"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// Position reads a game's board with the master's build rule, every
// rule and none (the variant's), as the game master adjudicates it; the
// web pages read it so too. A damaged position is said to be damaged.
func TestPosition(t *testing.T) {
	data := jsonpos.EncodePosition(judge.StartPosition(variants.Standard()), judge.Rules{})
	for set, want := range map[string]judge.BuildRule{
		"": judge.BuildsOfMap, "nonsense": judge.BuildsOfMap,
		judge.BuildHome.String(): judge.BuildHome, judge.BuildOne.String(): judge.BuildOne, judge.BuildAny.String(): judge.BuildAny,
	} {
		g := &state.Game{Name: "dt", Position: data, Settings: state.GameSettings{Builds: set}}
		pos, rules, err := Position(g)
		if err != nil || pos == nil {
			t.Fatalf("builds %q: %v", set, err)
		}
		if rules.Builds != want || BuildRule(g) != want {
			t.Errorf("builds %q read as %v (BuildRule %v), want %v", set, rules.Builds, BuildRule(g), want)
		}
	}
	if _, _, err := Position(&state.Game{Name: "dt", Position: []byte("{")}); !errors.Is(err, state.ErrDamaged) {
		t.Errorf("a damaged position: %v, want state.ErrDamaged", err)
	}
}
