package view

import (
	"fmt"
	"strings"

	"github.com/gmdjudge/gmd/internal/length"
	"github.com/gmdjudge/gmd/report"
)

// Settings are a game's settings in words. The game engine builds them
// once (engine.SettingsOf, which knows the deadline rules) and every
// reader renders them from here: LIST and the mails' templates as the
// Summary and Clock lines, the game's web page as Items. So a setting
// cannot read one way in a mail and another on the page.
type Settings struct {
	// Press is the stored press setting: "white", "grey" or "none"; ""
	// (never stored by the judge, which creates games with "white") is no press,
	// as the game master enforces it.
	Press    string
	Partial  bool
	NMR      bool
	Zone     string
	Multiple bool // one address may hold several seats
	Gunboat  bool // the players are anonymous
	Fog      bool // fog of war: each power sees only what its units and centres touch (SET FOG)
	NoMap    bool // the results mails carry no map (SET MAP OFF)
	// Fake: press may claim another sender (SET FAKE); NoMinorPress:
	// press between powers in movement phases only (SET NO MINOR PRESS).
	Fake, NoMinorPress bool
	// Proxy: a power may hand a unit's order to another (SET PROXY).
	Proxy bool
	// Bot is who plays the seats nobody plays (SET BOT): "", "abandoned"
	// or "fill", as stored; BotAgrees: its seats accept the draws and
	// concessions the others agree on (SET BOT ... AGREE).
	Bot       string
	BotAgrees bool
	// Builds says where powers build when that is not the standard rule:
	// "in any vacant owned centre"; "" for home centres.
	Builds string
	// The end of the game and the players' own clock, where the master
	// set them (issue 24): NoDIAS allows partial draws; Victory is the
	// centres a win needs when the master chose it (0: the variant's);
	// EndYear is the last year (0: none) and EndRank whether it ends
	// ranked by centres rather than drawn; PlayerPause lets the players
	// pause the game; Extensions is how many EXTENDs each power has.
	NoDIAS      bool
	Victory     int
	EndYear     int
	EndRank     bool
	PlayerPause bool
	Extensions  int
	Movement    string // "3 days"
	Retreat     string
	Adjustment  string
	Grace       string
	Reminder    string
	// Reminders says when reminders go, phase by phase when a phase is
	// too short for Reminder: "1 day before the deadline", "1 day before
	// movement deadlines, 8 hours before retreat and adjustment
	// deadlines".
	Reminders string
	// When deadlines fall, by phase type: "at 21:00 on Mon Tue Wed Thu
	// Fri"; "" for any time.
	MovementTimes, RetreatTimes, AdjustmentTimes string
}

// Setting is one setting, named, with its words: {"Press", "white press"}.
type Setting struct{ Name, Value string }

// PressWord is the press setting in one word: "white", "grey" or "none",
// with "" read as "none", as the game master reads it.
func PressWord(press string) string {
	if press == "" {
		return "none"
	}
	return press
}

// play returns the settings that shape play, in LIST's order and words.
func (s Settings) play() []Setting {
	press := PressWord(s.Press) + " press"
	if PressWord(s.Press) == "none" {
		press = "no press"
	}
	partial := "partial press allowed"
	if !s.Partial {
		partial = "no partial press"
	}
	nmr := "NoNMR"
	if s.NMR {
		nmr = "NMR"
	}
	out := []Setting{{"Press", press}, {"Partial press", partial}, {"Missed orders", nmr}, {"Time zone", "zone " + s.Zone}}
	if s.Multiple {
		out = append(out, Setting{"Seats per address", "one address may hold several seats"})
	}
	if s.Gunboat {
		out = append(out, Setting{"Gunboat", "gunboat (the players are anonymous)"})
	}
	if s.Fog {
		out = append(out, Setting{"Fog of war", "fog of war (each power sees only what its units and centres touch)"})
	}
	if s.Builds != "" {
		out = append(out, Setting{"Builds", "builds " + s.Builds})
	}
	if s.NoMap {
		out = append(out, Setting{"Maps", "results without the map"})
	}
	if s.Fake {
		out = append(out, Setting{"Fake press", "press may claim another sender"})
	}
	if s.NoMinorPress {
		out = append(out, Setting{"Minor press", "press between powers in movement phases only"})
	}
	if s.Proxy {
		out = append(out, Setting{"Proxy orders", "a power may hand a unit's order to another for a phase"})
	}
	agrees := ""
	if s.BotAgrees {
		agrees = ", and accepts the draws and concessions the others agree on"
	}
	switch s.Bot {
	case "abandoned":
		out = append(out, Setting{"Bot", "the judge's bot plays abandoned seats" + agrees})
	case "fill":
		out = append(out, Setting{"Bot", "the judge's bot plays abandoned and empty seats" + agrees})
	}
	return append(out, s.ending()...)
}

// ending returns the settings of the end of the game and of the
// players' own clock, those the master set, in LIST's words.
func (s Settings) ending() []Setting {
	var out []Setting
	if s.NoDIAS {
		out = append(out, Setting{"Draws", "partial draws (NODIAS)"})
	}
	if s.Victory > 0 {
		out = append(out, Setting{"Victory", fmt.Sprintf("victory at %d centres", s.Victory)})
	}
	if s.EndYear > 0 {
		how := "drawn among the survivors"
		if s.EndRank {
			how = "ranked by centres"
		}
		out = append(out, Setting{"Last year", fmt.Sprintf("ends after %d, %s", s.EndYear, how)})
	}
	if s.PlayerPause {
		out = append(out, Setting{"Pause", "the players may pause"})
	}
	if s.Extensions > 0 {
		out = append(out, Setting{"Extensions", fmt.Sprintf("%d %s of a deadline per power", s.Extensions, report.Plural(s.Extensions, "extension", "extensions"))})
	}
	return out
}

// lengths returns the phase lengths, grace and reminder, and deadlines
// when the deadlines of a phase type fall, where the master set it.
func (s Settings) lengths() (lengths, deadlines []Setting) {
	grace, reminder := "grace "+s.Grace, "reminder "+s.Reminders
	if s.Grace == "" || s.Grace == length.Spell(0) {
		grace = "no grace"
	}
	if s.Reminder == "" || s.Reminder == length.Spell(0) {
		reminder = "no reminder"
	}
	lengths = []Setting{
		{"Movement", "movement " + s.Movement},
		{"Retreats", "retreats " + s.Retreat},
		{"Adjustments", "adjustments " + s.Adjustment},
		{"Grace", grace},
		{"Reminder", reminder},
	}
	for _, t := range []struct{ what, rule string }{
		{"movement", s.MovementTimes}, {"retreat", s.RetreatTimes}, {"adjustment", s.AdjustmentTimes},
	} {
		if t.rule != "" {
			deadlines = append(deadlines, Setting{strings.ToUpper(t.what[:1]) + t.what[1:] + " deadlines", t.what + " deadlines " + t.rule})
		}
	}
	return lengths, deadlines
}

// Items returns every setting, named, in the words of Summary and Clock:
// the rows of the game's web page.
func (s Settings) Items() []Setting {
	l, d := s.lengths()
	return append(append(s.play(), l...), d...)
}

// Summary returns the settings that shape play on one line, as LIST
// writes it: "white press, partial press allowed, NoNMR, zone UTC".
func (s Settings) Summary() string {
	return join(s.play(), ", ")
}

// Clock returns the phase lengths on one line, and when the deadlines
// fall if the master set that, as LIST writes it.
func (s Settings) Clock() string {
	l, d := s.lengths()
	line := join(l, ", ")
	if len(d) > 0 {
		line += "; " + join(d, "; ")
	}
	return line
}

func join(items []Setting, sep string) string {
	vals := make([]string, len(items))
	for i, it := range items {
		vals[i] = it.Value
	}
	return strings.Join(vals, sep)
}
