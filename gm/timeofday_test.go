package gm

import (
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
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

func TestSetGraceBeforeStart(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	got := h.mail(testMaster, "grace", "SIGNON Mdt "+testMasterPass+"\nSET GRACE 1d\n")
	r := clockAbout(got, "Re:")
	if len(r) != 1 {
		t.Fatalf("replies %q", clockSubjects(got))
	}
	mustContain(t, r[0].Body, "The grace is now 1 day")
	mustContain(t, clockDump(clockAbout(got, "Parameter Change")), "The grace is now 1 day")
	if strings.Contains(r[0].Body, "Error") {
		t.Errorf("SET GRACE refused before the start:\n%s", r[0].Body)
	}
	if g := h.game("dt"); time.Duration(g.Settings.Grace) != 24*time.Hour {
		t.Fatalf("grace %v, want 24h", time.Duration(g.Settings.Grace))
	}
	for _, s := range standardSeats {
		got = h.mail(s.Addr, "join", "SIGNON ?dt "+s.Pass+" "+s.Letter)
	}
	g := h.game("dt")
	if g.Status != state.Active {
		t.Fatalf("game %s", g.Status)
	}
	mustContain(t, clockDump(mailsTo(got, testMaster)), "grace 1 day,")
	if want := g.Deadline.Add(24 * time.Hour); !graceEnd(g).Equal(want) {
		t.Errorf("grace ends %v, want %v", graceEnd(g), want)
	}
}
