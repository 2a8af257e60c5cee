package engine

import (
	"testing"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

func TestParseLength(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
	}{
		{"72h", 72 * time.Hour}, {"90m", 90 * time.Minute}, {"1h30m", 90 * time.Minute},
		{"3d", 72 * time.Hour}, {"2d12h", 60 * time.Hour}, {"48", 48 * time.Hour}, {"1.5", 90 * time.Minute},
		{" 2D ", 48 * time.Hour}, {"0", 0},
	} {
		got, err := ParseLength(c.in)
		if err != nil || got != c.want {
			t.Errorf("parseLength(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "soon", "-3h", "-1", "d", "3dd", "1d-2h", "99999"} {
		if got, err := ParseLength(in); err == nil {
			t.Errorf("parseLength(%q) = %v, want an error", in, got)
		}
	}
}

func TestParseDeadline(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"2026-12-24 23:30", time.Date(2026, 12, 24, 22, 30, 0, 0, time.UTC)},
		{"2026-12-24T23:30", time.Date(2026, 12, 24, 22, 30, 0, 0, time.UTC)},
		{"Dec 24 23:30", time.Date(2026, 12, 24, 22, 30, 0, 0, time.UTC)},
		{"24 Dec 23:30", time.Date(2026, 12, 24, 22, 30, 0, 0, time.UTC)},
		{"Dec 24  2027 23:30", time.Date(2027, 12, 24, 22, 30, 0, 0, time.UTC)},
		// No year and already past: next year's.
		{"Jan 5 12:00", time.Date(2027, 1, 5, 11, 0, 0, 0, time.UTC)},
		{"+48h", now.Add(48 * time.Hour)},
		{"+2d", now.Add(48 * time.Hour)},
	} {
		got, err := ParseDeadline(c.in, paris, now)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("parseDeadline(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "tomorrow", "+", "+x", "2026-13-01 10:00", "Dec 24"} {
		if got, err := ParseDeadline(in, paris, now); err == nil {
			t.Errorf("parseDeadline(%q) = %v, want an error", in, got)
		}
	}
}

func TestNextEvent(t *testing.T) {
	d := deadlineT0.Add(72 * time.Hour)
	g := &state.Game{Status: state.Active, Deadline: d, Settings: DefaultSettings()}
	at := func(h float64) time.Time { return d.Add(time.Duration(h * float64(time.Hour))) }
	check := func(what string, now, want time.Time) {
		t.Helper()
		if got := NextEvent(g, now); !got.Equal(want) {
			t.Errorf("%s: next event at %v, want %v", what, got, want)
		}
	}
	check("before the reminder", at(-30), at(-24))
	check("at the reminder", at(-24), d)
	g.Reminded = true
	check("reminded", at(-30), d)
	g.Reminded = false
	g.Settings.Reminder = 0
	check("no reminders", at(-30), d)
	check("at the deadline, no notice yet", at(1), at(1))
	g.LateNoticed = at(0)
	check("noticed", at(1), at(24))
	g.LateNoticed = at(30)
	check("second notice near the end of grace", at(31), at(48))
	check("grace over after a late notice", at(50), at(50))
	g.LateNoticed = at(48)
	check("waiting for replacements", at(50), at(96))
	g.Settings.Grace = 0
	g.LateNoticed = time.Time{}
	check("no grace", at(0), at(0))
}

func TestPhaseLength(t *testing.T) {
	s := state.GameSettings{Movement: state.Duration(time.Hour), Retreat: state.Duration(2 * time.Hour)}
	for _, c := range []struct {
		t    judge.PhaseType
		want time.Duration
	}{{judge.Movement, time.Hour}, {judge.Retreat, 2 * time.Hour}, {judge.Adjustment, DefaultAdjustment}} {
		if got := PhaseLength(&s, c.t); got != c.want {
			t.Errorf("%v: %v, want %v", c.t, got, c.want)
		}
	}
}

func TestAfterAbsences(t *testing.T) {
	at := func(h int) time.Time { return deadlineT0.Add(time.Duration(h) * time.Hour) }
	g := &state.Game{Players: []state.Player{
		{Power: "England", Status: state.Playing, Absences: []state.Absence{{From: at(10), To: at(20)}, {From: at(30), To: at(40)}}},
		{Power: "France", Status: state.Playing, Absences: []state.Absence{{From: at(20), To: at(30)}}},
		{Power: "Italy", Status: state.Disorder, Absences: []state.Absence{{From: at(0), To: at(100)}}},
	}}
	for _, c := range []struct{ in, want int }{{5, 5}, {10, 40}, {19, 40}, {40, 40}, {45, 45}} {
		if got := AfterAbsences(g, at(c.in)); !got.Equal(at(c.want)) {
			t.Errorf("deadline at %dh moves to %v, want %dh", c.in, got.Sub(deadlineT0), c.want)
		}
	}
}

func TestSpellLength(t *testing.T) {
	for d, want := range map[time.Duration]string{
		72 * time.Hour: "3 days", 36 * time.Hour: "1 day 12 hours", time.Hour: "1 hour", 25 * time.Hour: "1 day 1 hour",
		90 * time.Minute: "1 hour 30 minutes", 20 * time.Minute: "20 minutes", 52 * time.Hour: "2 days 4 hours",
		49*time.Hour + time.Minute + 5*time.Second: "2 days 1 hour 1 minute 5 seconds", 0: "no time",
	} {
		if got := SpellLength(d); got != want {
			t.Errorf("spellLength(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestSpellLeft(t *testing.T) {
	for d, want := range map[time.Duration]string{
		5 * time.Minute: "5 minutes", 5*time.Minute - 20*time.Second: "5 minutes", 20 * time.Second: "less than a minute",
		71*time.Hour + 59*time.Minute + 50*time.Second: "3 days", -time.Minute: "less than a minute",
	} {
		if got := SpellLeft(d); got != want {
			t.Errorf("spellLeft(%v) = %q, want %q", d, got, want)
		}
	}
}

// deadlineT0 is the time the tests above start from: a Monday noon.
var deadlineT0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
