package gm

import (
	"strings"
	"testing"
	"time"
)

// The time left and the settings reach players as people write them.

func TestReminderSaysTimeLeft(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, nil)
	// The clock did not run at the reminder time (say the judge was
	// down): the reminder goes out late, and says what is left.
	e.tick(clockD.Add(-5 * time.Minute))
	got := clockAbout(e.mails(), "Reminder")
	if len(got) == 0 {
		t.Fatal("no reminder")
	}
	mustContain(t, got[0].Body, "The deadline is in 5 minutes and")
	if strings.Contains(got[0].Body, "hour") {
		t.Errorf("reminder with 5 minutes left speaks of hours:\n%s", got[0].Body)
	}
}

func TestDurationsSpeltForPeople(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, nil)
	now := clockT0.Add(time.Hour)
	set := func(args ...string) string {
		return e.session("dt", clockMaster, now, func(s *session) error { return s.cmdSetClock(clockCmd("SET", args...)) })
	}
	mustContain(t, set("REMINDER", "20m"), "Reminders now go out 20 minutes before the deadline.")
	mustContain(t, set("MOVEMENT", "52h"), "Movement phases now last 2 days 4 hours")
	mustContain(t, set("GRACE", "90m"), "is now 1 hour 30 minutes")
	list := e.session("dt", clockMaster, now, func(s *session) error { return s.listGame(s.game) })
	mustContain(t, list, "movement 2 days 4 hours, retreats 1 day, adjustments 1 day, grace 1 hour 30 minutes, reminder 20 minutes before the deadline")
	for _, text := range []string{list, clockDump(e.mails())} {
		if strings.Contains(text, "m0s") {
			t.Errorf("a Go duration reaches people:\n%s", text)
		}
	}
}
