package web

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/session"
	"github.com/gmdjudge/gmd/state"
)

// settingCases are games' settings that between them take every value
// of every setting at least once: each press word, "" included (no
// press, as the game master enforces it), partial press on and off, NMR,
// several seats an address, gunboat, no map, each build rule, a grace
// and a reminder of none, lengths the mails write in two units, and the
// deadline times of each phase type.
func settingCases() []state.GameSettings {
	base := state.GameSettings{
		Press: "white", Partial: true, Zone: "UTC",
		Movement: state.Duration(72 * time.Hour), Retreat: state.Duration(24 * time.Hour),
		Adjustment: state.Duration(24 * time.Hour), Grace: state.Duration(48 * time.Hour), Reminder: state.Duration(24 * time.Hour),
	}
	var out []state.GameSettings
	add := func(f func(*state.GameSettings)) {
		s := base
		f(&s)
		out = append(out, s)
	}
	for _, p := range []string{"", "white", "grey", "none"} {
		for _, partial := range []bool{false, true} {
			add(func(s *state.GameSettings) { s.Press, s.Partial = p, partial })
		}
	}
	for _, r := range []judge.BuildRule{judge.BuildHome, judge.BuildOne, judge.BuildAny} {
		add(func(s *state.GameSettings) { s.Builds = r.String() })
	}
	add(func(s *state.GameSettings) { s.Builds = "" })
	add(func(s *state.GameSettings) {
		s.NMR, s.Multiple, s.Gunboat, s.NoMap, s.Zone = true, true, true, true, "Europe/Paris"
	})
	add(func(s *state.GameSettings) {
		s.Movement, s.Retreat, s.Grace, s.Reminder = state.Duration(36*time.Hour), state.Duration(20*time.Minute), 0, 0
	})
	add(func(s *state.GameSettings) {
		s.Grace, s.Reminder = state.Duration(90*time.Minute), state.Duration(60*time.Hour)
	})
	add(func(s *state.GameSettings) {
		s.MovementTimes = state.DeadlineTimes{Clock: "21:00", Days: "-MTWTF-"}
		s.RetreatTimes = state.DeadlineTimes{Clock: "09:30"}
		s.AdjustmentTimes = state.DeadlineTimes{Days: "S-----S"}
	})
	return out
}

var (
	settingRow = regexp.MustCompile(`<dt>([^<]*)</dt><dd>([^<]*)</dd>`)
	spaces     = regexp.MustCompile(`\s+`)
)

// The game's web page shows the same settings as LIST, in the same
// words, for every value of every setting: the page's rows, the variant,
// rules, seats and observers aside, are LIST's Settings line and then its
// Clock line, part by part. They were written twice, and drifted: a game
// whose press setting is "" has no press (the game master refuses press
// between powers), and the page said "white".
func TestSettingsSameAsList(t *testing.T) {
	f := newFixture(t, 1, Config{})
	master := session.New(f.db, engine.Config{Config: config.Config{JudgeName: "GMD", JudgeAddr: "judge@judge.test"}})
	notSettings := map[string]bool{"Variant": true, "Rules": true, "Seats": true, "Observers": true}
	for i, st := range settingCases() {
		name := fmt.Sprintf("set%d", i)
		err := f.db.Update(func(tx *state.Tx) error {
			if err := putPlayedGame(tx, name, 1); err != nil {
				return err
			}
			g, err := tx.Game(name)
			if err != nil {
				return err
			}
			g.Settings = st
			return tx.PutGame(g)
		})
		if err != nil {
			t.Fatal(err)
		}
		page := body(t, f.get(t, "GET", "/games/"+name))
		var parts []string
		for _, m := range settingRow.FindAllStringSubmatch(page, -1) {
			if !notSettings[m[1]] {
				parts = append(parts, html.UnescapeString(m[2]))
			}
		}
		if len(parts) < 9 {
			t.Fatalf("%s: the page shows %d settings, want at least 9:\n%s", name, len(parts), page)
		}

		from := fmt.Sprintf("asker%d@players.test", i)
		if err := master.Handle(&session.Mail{From: from, Subject: "list", Body: "LIST " + name, MessageID: fmt.Sprintf("<list%d@players.test>", i)}, f.clock()); err != nil {
			t.Fatal(err)
		}
		var list string
		err = f.db.View(func(tx *state.Tx) error {
			out, err := tx.Outbox(0)
			for _, m := range out {
				if len(m.To) == 1 && m.To[0] == from {
					list = spaces.ReplaceAllString(m.Body, " ")
				}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if list == "" {
			t.Fatalf("%s: no reply to LIST", name)
		}
		// The page's parts, in order, make LIST's two lines: the play
		// settings joined by commas, then the clock's.
		joined := strings.Join(parts, ", ")
		if !strings.Contains(list, "Settings: ") || !strings.Contains(list, "Clock: ") {
			t.Fatalf("%s: LIST says no settings:\n%s", name, list)
		}
		settings := list[strings.Index(list, "Settings: ")+len("Settings: "):]
		settings = settings[:strings.Index(settings, " Clock: ")]
		clock := list[strings.Index(list, "Clock: ")+len("Clock: "):]
		clock = clock[:strings.Index(clock, ". Phase: ")]
		want := strings.TrimSuffix(settings, ".") + ", " + clock
		// The clock's deadline times follow a semicolon in LIST.
		if strings.ReplaceAll(joined, ", ", " ") != strings.ReplaceAll(strings.ReplaceAll(want, "; ", " "), ", ", " ") {
			t.Errorf("%s (%+v):\npage: %s\nLIST: %s", name, st, joined, want)
		}
		if st.Press == "" && !strings.Contains(settings, "no press") {
			t.Errorf("%s: press \"\" shown in LIST as %q, want no press", name, settings)
		}
	}
}
