package session

import (
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// A master sets up a quick game in one mail, writing the lengths in
// words as the judge writes them: the mail gets one reply, the game one
// "Parameter Change" listing every change, the lengths are stored as
// meant and written back in the same words, and the start mail's
// reminder is no longer than the phases.
func TestSetLengthsInWordsOneNotice(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	got := h.mail(testMaster, "quick", "SIGNON Mdt "+testMasterPass+"\n"+
		"SET MOVEMENT 20 minutes\nSET RETREAT 2 days 4 hours\nSET ADJUSTMENT 1d12h\n"+
		"SET GRACE 90m\nSET REMINDER 36 hours\nSET NMR\n")
	if len(got) != 2 {
		t.Fatalf("the mail caused %d mails, want the reply and one notice:\n%s", len(got), subjectsOf(got))
	}
	r := replyTo(t, got, testMaster)
	for _, want := range []string{
		"Movement phases now last 20 minutes, from the next phase on.",
		"Retreat phases now last 2 days 4 hours",
		"Adjustment phases now last 1 day 12 hours",
		"The grace is now 1 hour 30 minutes",
		"Reminders now go out 6 minutes before movement deadlines, 17 hours 20 minutes before retreat deadlines, 12 hours before adjustment deadlines.",
	} {
		if !containsText(r.Body, want) {
			t.Errorf("the reply lacks %q:\n%s", want, r.Body)
		}
	}
	if strings.Contains(r.Body, "Error") {
		t.Errorf("the reply has errors:\n%s", r.Body)
	}
	var notice *state.OutMail
	for _, m := range got {
		if strings.HasSuffix(m.Subject, "Parameter Change") {
			notice = m
		}
	}
	if notice == nil || len(notice.To) != 1 || notice.To[0] != testMaster {
		t.Fatalf("no notice to the master, the one in the game so far: %s", subjectsOf(got))
	}
	for _, want := range []string{"20 minutes", "2 days 4 hours", "1 day 12 hours", "1 hour 30 minutes", "6 minutes before movement deadlines", "NMR:"} {
		if !containsText(notice.Body, want) {
			t.Errorf("the notice lacks %q:\n%s", want, notice.Body)
		}
	}
	st := h.game("dt").Settings
	if time.Duration(st.Movement) != 20*time.Minute || time.Duration(st.Retreat) != 52*time.Hour ||
		time.Duration(st.Adjustment) != 36*time.Hour || time.Duration(st.Grace) != 90*time.Minute ||
		time.Duration(st.Reminder) != 36*time.Hour {
		t.Errorf("settings %+v", st)
	}

	// What the judge wrote reads back as the same settings.
	again := h.mail(testMaster, "again", "SIGNON Mdt "+testMasterPass+"\n"+
		"SET MOVEMENT 20 minutes\nSET RETREAT 2 days 4 hours\nSET ADJUSTMENT 1 day 12 hours\n"+
		"SET GRACE 1 hour 30 minutes\nSET REMINDER 1 day 12 hours\n")
	if r := replyTo(t, again, testMaster); strings.Contains(r.Body, "Error") {
		t.Errorf("the judge's own words refused:\n%s", r.Body)
	}
	if st2 := h.game("dt").Settings; st2 != st {
		t.Errorf("written back and read again: %+v, want %+v", st2, st)
	}

	// The start mail says when the reminders go, and the first movement
	// phase's reminder comes 6 minutes before its deadline, not with its
	// start.
	start := joinAll(h, "dt")
	s := onlyTo(t, start, "france@example.org")
	if !containsText(s.Body, "reminder 6 minutes before movement deadlines") {
		t.Errorf("the start mail:\n%s", s.Body)
	}
	g := h.game("dt")
	if want := g.Deadline.Add(-6 * time.Minute); !g.Wake.Equal(want) {
		t.Errorf("wake %v, want the reminder at %v (deadline %v)", g.Wake, want, g.Deadline)
	}
}

// A reminder never comes longer before the deadline than a third of the
// phase, whatever the phase's length and the master's SET REMINDER, and
// never later than the master asked.
func TestReminderScalesWithThePhase(t *testing.T) {
	for _, rem := range []time.Duration{time.Minute, time.Hour, 24 * time.Hour, 366 * 24 * time.Hour} {
		for l := time.Minute; l <= 30*24*time.Hour; l += 7 * time.Minute {
			got := engine.ScaledReminder(rem, l)
			if got > rem || got > l/engine.ReminderShare || got < 0 || (l/engine.ReminderShare >= rem && got != rem) {
				t.Fatalf("reminder %v for a phase of %v: %v", rem, l, got)
			}
		}
	}
	// And through the settings, for each phase type.
	for _, typ := range []judge.PhaseType{judge.Movement, judge.Retreat, judge.Adjustment} {
		g := &state.Game{Settings: engine.DefaultSettings()}
		g.Settings.Movement = state.Duration(20 * time.Minute)
		g.Settings.Retreat = state.Duration(10 * time.Minute)
		g.Settings.Adjustment = state.Duration(3 * time.Hour)
		g.Position = []byte(`{"phase":"` + judge.Phase{Season: judge.Fall, Year: 1901, Type: typ}.String() + `"}`)
		if got, l := engine.ReminderBefore(g), engine.PhaseLength(&g.Settings, typ); got > l/3 {
			t.Errorf("%v: reminder %v before a deadline of a phase of %v", typ, got, l)
		}
	}
}

// subjectsOf lists the subjects of mails, for failure messages.
func subjectsOf(mails []*state.OutMail) string {
	var s []string
	for _, m := range mails {
		s = append(s, m.Subject+" → "+strings.Join(m.To, ","))
	}
	return strings.Join(s, "\n")
}
