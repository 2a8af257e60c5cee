package engine

import (
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// GameSettings are a game's settings written out for templates and
// listings: view's, which the web pages render too.
type GameSettings = view.Settings

// SettingsOf returns g's settings for templates.
func SettingsOf(g *state.Game) GameSettings {
	st := g.Settings
	zone := st.Zone
	if zone == "" {
		zone = "UTC"
	}
	builds := ""
	if mp, err := GameMap(g); err == nil {
		if r := BuildsIn(g, mp); r != judge.BuildHome {
			builds = r.Describe()
		}
	}
	return GameSettings{
		Press: st.Press, Partial: st.Partial, NMR: st.NMR, Zone: zone, Multiple: st.Multiple, Gunboat: st.Gunboat, Fog: st.Fog, NoMap: st.NoMap, Builds: builds,
		Fake: st.Fake, NoMinorPress: st.NoMinorPress, Proxy: st.Proxy, Bot: st.Bot, BotAgrees: st.BotAgrees,
		NoDIAS: st.NoDIAS, Victory: st.Victory, EndYear: st.EndYear, EndRank: st.EndRank, PlayerPause: st.PlayerPause, Extensions: st.Extensions,
		Movement:   SpellLength(time.Duration(st.Movement)),
		Retreat:    SpellLength(time.Duration(st.Retreat)),
		Adjustment: SpellLength(time.Duration(st.Adjustment)),
		Grace:      SpellLength(time.Duration(st.Grace)),
		Reminder:   SpellLength(time.Duration(st.Reminder)),

		Reminders: RemindersText(&st),

		MovementTimes:   RuleOf(&st, judge.Movement).Describe(),
		RetreatTimes:    RuleOf(&st, judge.Retreat).Describe(),
		AdjustmentTimes: RuleOf(&st, judge.Adjustment).Describe(),
	}
}

// buildRuleOf returns the build rule the master chose for g (SET BUILD),
// or BuildsOfMap when the game keeps its variant's: view's, with which
// the web reads positions too. Positions are adjudicated with it
// (Engine.Position) and orders are counted with it (BuildsIn).
func buildRuleOf(g *state.Game) judge.BuildRule { return view.BuildRule(g) }

// BuildsIn returns the build rule in force in g, played on mp: the
// master's choice or the variant's.
func BuildsIn(g *state.Game, mp *judge.Map) judge.BuildRule {
	return judge.Rules{Builds: buildRuleOf(g)}.BuildsOn(mp)
}

// RemindersText says how long before the deadline reminders go in a
// game with settings st: "1 day before the deadline" when that holds for
// every phase, otherwise phase type by phase type, "1 day before
// movement deadlines, 8 hours before retreat and adjustment deadlines".
func RemindersText(st *state.GameSettings) string {
	rem := time.Duration(st.Reminder)
	var lens []time.Duration
	byLen := map[time.Duration][]string{}
	for _, t := range []struct {
		typ  judge.PhaseType
		name string
	}{{judge.Movement, "movement"}, {judge.Retreat, "retreat"}, {judge.Adjustment, "adjustment"}} {
		d := ScaledReminder(rem, PhaseLength(st, t.typ))
		if byLen[d] == nil {
			lens = append(lens, d)
		}
		byLen[d] = append(byLen[d], t.name)
	}
	if len(lens) == 1 {
		return SpellLength(rem) + " before the deadline"
	}
	parts := make([]string, len(lens))
	for i, d := range lens {
		parts[i] = SpellLength(d) + " before " + ListNames(byLen[d]) + " deadlines"
		if d <= 0 {
			parts[i] = "none before " + ListNames(byLen[d]) + " deadlines"
		}
	}
	return strings.Join(parts, ", ")
}

// DefaultSettings are the settings of a new game (contract: press white,
// partial press allowed, NoNMR, UTC, 72h moves, 24h retreats and
// adjustments, 48h grace, a reminder 24h before the deadline).
func DefaultSettings() state.GameSettings {
	return state.GameSettings{
		Press:      "white",
		Partial:    true,
		NMR:        false,
		Zone:       "UTC",
		Movement:   state.Duration(72 * time.Hour),
		Retreat:    state.Duration(24 * time.Hour),
		Adjustment: state.Duration(24 * time.Hour),
		Grace:      state.Duration(48 * time.Hour),
		Reminder:   state.Duration(24 * time.Hour),
	}
}
