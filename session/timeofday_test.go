package session

import (
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
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
	reply, got := masterMail(h, "SET GRACE 1d")
	mustContain(t, reply, "The grace is now 1 day")
	mustContain(t, clockDump(clockAbout(got, "Parameter Change")), "The grace is now 1 day")
	if strings.Contains(reply, "Error") {
		t.Errorf("SET GRACE refused before the start:\n%s", reply)
	}
	if g := h.game("dt"); time.Duration(g.Settings.Grace) != 24*time.Hour {
		t.Fatalf("grace %v, want 24h", time.Duration(g.Settings.Grace))
	}
	got = joinAll(h, "dt")
	g := h.game("dt")
	mustContain(t, clockDump(mailsTo(got, testMaster)), "grace 1 day,")
	if want := g.Deadline.Add(24 * time.Hour); !engine.GraceEnd(g).Equal(want) {
		t.Errorf("grace ends %v, want %v", engine.GraceEnd(g), want)
	}
}

// masterMail sends commands as the master of the harness's game "dt"
// and returns the reply's body and every mail queued.
func masterMail(h *harness, commands string) (string, []*state.OutMail) {
	h.t.Helper()
	got := h.mail(testMaster, "commands", "SIGNON Mdt "+testMasterPass+"\n"+commands+"\n")
	r := clockAbout(got, "Re:")
	if len(r) != 1 {
		h.t.Fatalf("replies %q", clockSubjects(got))
	}
	return r[0].Body, got
}

// joinAll has the seven players of standardSeats join the forming game,
// each asking for their own power, and returns the mails of the last
// sign-on, which starts the game.
func joinAll(h *harness, game string) []*state.OutMail {
	h.t.Helper()
	var got []*state.OutMail
	for _, s := range standardSeats {
		got = h.join(s.Addr, game, s.Pass, s.Letter, "")
	}
	if g := h.game(game); g.Status != state.Active {
		h.t.Fatalf("game %s is %s after seven sign-ons", game, g.Status)
	}
	return got
}

// paris is a zone whose clocks change: forward on 29 March 2026, back on
// 25 October 2026.
func paris(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestDeadlinesAtTimeOfDayByMail(t *testing.T) {
	loc := paris(t)
	h := newHarness(t)
	h.create("dt")
	reply, _ := masterMail(h, "SET ZONE Europe/Paris\nSET MOVE CLOCK 21:00 DAYS -MTWTF-")
	mustContain(t, reply, "Movement deadlines now fall at 21:00 on Mon Tue Wed Thu Fri (Europe/Paris time), from the next phase on.")

	// The game starts on Thursday 26 March at 16:00 in Paris: three days
	// on is Sunday, not allowed, so the deadline is Monday at 21:00, after
	// the clocks went forward.
	h.now = time.Date(2026, 3, 26, 16, 0, 0, 0, loc)
	joinAll(h, "dt")
	g := h.game("dt")
	if want := time.Date(2026, 3, 30, 21, 0, 0, 0, loc); !g.Deadline.Equal(want) {
		t.Fatalf("first deadline %v, want %v", g.Deadline.In(loc), want)
	}
	list := h.mail(testMaster, "list", "LIST dt")
	mustContain(t, clockDump(list), "movement deadlines at 21:00 on Mon Tue Wed Thu Fri")

	// The orders are in on Friday 27 March, and the clock processes them
	// half a minute after 21:00. Counted on the clocks of Paris, three
	// days on is Monday at 21:00, although the clocks go forward on
	// Sunday and 72 hours after processing is 22:00.
	h.now = time.Date(2026, 3, 27, 21, 0, 30, 0, loc)
	g = h.game("dt")
	g.Orders, g.Wake = clockStartOrders(), h.now
	h.putGame(g)
	h.tick()
	g = h.game("dt")
	if clockPhase(t, g) != "F1901M" {
		t.Fatalf("phase %s, want F1901M", clockPhase(t, g))
	}
	if want := time.Date(2026, 3, 30, 21, 0, 0, 0, loc); !g.Deadline.Equal(want) {
		t.Errorf("deadline after the clocks changed: %v, want %v", g.Deadline.In(loc), want)
	}

	// Processed on Wednesday morning: Saturday 21:00 is the first time,
	// and the weekend is not allowed.
	h.now = time.Date(2026, 4, 1, 9, 0, 0, 0, loc)
	g.Orders, g.Wake = clockHolds(mustPosition(t, h.m, g)), h.now
	h.putGame(g)
	h.tick()
	g = h.game("dt")
	if want := time.Date(2026, 4, 6, 21, 0, 0, 0, loc); clockPhase(t, g) == "F1901M" || !g.Deadline.Equal(want) {
		t.Errorf("phase %s, deadline %v, want %v", clockPhase(t, g), g.Deadline.In(loc), want)
	}

	help := h.mail("someone@example.org", "help", "HELP")
	mustContain(t, clockDump(help), "CLOCK hh:mm", "DAYS -MTWTF-")
}

// mustPosition returns the game's current position.
func mustPosition(t *testing.T, m *Master, g *state.Game) *judge.Position {
	t.Helper()
	pos, _, err := m.Position(g)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

func TestDeadlineFor(t *testing.T) {
	loc := paris(t)
	at := func(y int, mo time.Month, d, h, mi, s int) time.Time { return time.Date(y, mo, d, h, mi, s, 0, loc) }
	clock := func(c, days string) state.DeadlineTimes { return state.DeadlineTimes{Clock: c, Days: days} }
	for _, c := range []struct {
		name  string
		times state.DeadlineTimes
		phase judge.PhaseType
		now   time.Time
		want  time.Time
	}{
		{"no rule", clock("", ""), judge.Movement, at(2026, 3, 2, 10, 17, 0), at(2026, 3, 5, 10, 17, 0)},
		{"clock", clock("21:00", ""), judge.Movement, at(2026, 3, 2, 10, 0, 0), at(2026, 3, 5, 21, 0, 0)},
		{"processed just after the clock", clock("21:00", ""), judge.Movement, at(2026, 3, 2, 21, 4, 0), at(2026, 3, 5, 21, 0, 0)},
		{"processed an hour after the clock", clock("21:00", ""), judge.Movement, at(2026, 3, 2, 22, 30, 0), at(2026, 3, 6, 21, 0, 0)},
		{"weekend", clock("21:00", "-MTWTF-"), judge.Movement, at(2026, 3, 4, 10, 0, 0), at(2026, 3, 9, 21, 0, 0)},
		{"weekend, no clock", clock("", "-MTWTF-"), judge.Movement, at(2026, 3, 4, 10, 0, 0), at(2026, 3, 9, 10, 0, 0)},
		{"afternoon only, no clock", clock("", "-mTWTF-"), judge.Movement, at(2026, 3, 6, 9, 0, 0), at(2026, 3, 9, 12, 0, 0)},
		{"afternoon only, morning clock", clock("10:00", "-mTWTF-"), judge.Movement, at(2026, 3, 6, 9, 0, 0), at(2026, 3, 10, 10, 0, 0)},
		{"afternoon only, evening clock", clock("21:00", "-mTWTF-"), judge.Movement, at(2026, 3, 6, 9, 0, 0), at(2026, 3, 9, 21, 0, 0)},
		{"retreat clock", clock("12:00", ""), judge.Retreat, at(2026, 3, 2, 21, 0, 0), at(2026, 3, 4, 12, 0, 0)},
		// The clocks go forward at 02:00 on 29 March: 02:30 is never shown,
		// and the deadline is the moment it would have been, 03:30.
		{"clock in the gap", clock("02:30", ""), judge.Movement, at(2026, 3, 26, 2, 30, 0), at(2026, 3, 29, 3, 30, 0)},
		{"over the change forward", clock("21:00", ""), judge.Movement, at(2026, 3, 27, 21, 0, 30), at(2026, 3, 30, 21, 0, 0)},
		// The clocks go back at 03:00 on 25 October: 02:30 comes twice,
		// and the first is the deadline.
		{"clock shown twice", clock("02:30", ""), judge.Movement, at(2026, 10, 22, 2, 30, 0), time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC)},
		{"over the change back", clock("21:00", ""), judge.Movement, at(2026, 10, 23, 21, 0, 30), at(2026, 10, 26, 21, 0, 0)},
	} {
		g := &state.Game{Settings: engine.DefaultSettings()}
		g.Settings.Zone = "Europe/Paris"
		*engine.TimesOf(&g.Settings, c.phase) = c.times
		if got := engine.DeadlineFor(g, c.phase, c.now); !got.Equal(c.want) {
			t.Errorf("%s: deadline %v, want %v", c.name, got.In(loc), c.want.In(loc))
		}
	}
}

func TestDeadlineTimesAndAbsences(t *testing.T) {
	loc := paris(t)
	g := &state.Game{Settings: engine.DefaultSettings(), Players: []state.Player{{
		Power: "France", Status: state.Playing,
		// Absent on Thursday 5 March: the Thursday 21:00 deadline moves
		// to the end of the absence, and then to Friday 21:00.
		Absences: []state.Absence{{From: time.Date(2026, 3, 5, 0, 0, 0, 0, loc), To: time.Date(2026, 3, 6, 0, 0, 0, 0, loc)}},
	}}}
	g.Settings.Zone = "Europe/Paris"
	g.Settings.MovementTimes = state.DeadlineTimes{Clock: "21:00", Days: "-MTWT--"}
	// Friday is not allowed either: Monday 21:00.
	if got, want := engine.DeadlineFor(g, judge.Movement, time.Date(2026, 3, 2, 10, 0, 0, 0, loc)), time.Date(2026, 3, 9, 21, 0, 0, 0, loc); !got.Equal(want) {
		t.Errorf("deadline %v, want %v", got.In(loc), want)
	}
}

func TestSetDeadlineTimesRefusesBadValues(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, nil)
	now := clockT0.Add(time.Hour)
	set := func(args ...string) string {
		return e.session("dt", clockMaster, now, func(s *session) error { return s.cmdSetClock(clockCmd("SET", args...)) })
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"MOVE", "CLOCK", "9"}, `cannot read the time of day "9" (write it as hh:mm`},
		{[]string{"MOVE", "CLOCK", "24:00"}, `cannot read the time of day "24:00"`},
		{[]string{"MOVE", "CLOCK", "+9:05"}, `cannot read the time of day "+9:05"`},
		{[]string{"MOVE", "CLOCK"}, "SET MOVE CLOCK needs a value"},
		{[]string{"RETREAT", "DAYS", "MTWTF"}, "write seven places from Sunday to Saturday"},
		{[]string{"RETREAT", "DAYS", "-MTWTS-"}, "place 6 is Friday, so it must be F, f or -"},
		{[]string{"ADJUST", "DAYS", "-------"}, "the days allow no day at all"},
		{[]string{"MOVE", "CLOCK", "21:00", "WHEN", "now"}, `Unknown deadline setting "WHEN"`},
	} {
		mustContain(t, set(c.args...), c.want)
	}
	if g := e.game("dt"); g.Settings.MovementTimes != (state.DeadlineTimes{}) || g.Settings.RetreatTimes != (state.DeadlineTimes{}) ||
		g.Settings.AdjustmentTimes != (state.DeadlineTimes{}) {
		t.Errorf("refused values were stored: %+v", g.Settings)
	}
	if got := e.mails(); len(got) != 0 {
		t.Errorf("refused values were announced: %q", clockSubjects(got))
	}

	mustContain(t, set("BUILDS", "clock", "9:05", "days", "SMTWTFs"), "Adjustment deadlines now fall at 09:05 on Sun Mon Tue Wed Thu Fri Sat afternoon (UTC time)")
	mustContain(t, set("BUILDS", "CLOCK", "NONE", "DAYS", "ALL"), "Adjustment deadlines may fall at any time")
	if g := e.game("dt"); g.Settings.AdjustmentTimes != (state.DeadlineTimes{}) {
		t.Errorf("NONE and ALL left %+v", g.Settings.AdjustmentTimes)
	}
	// A length still works as before.
	mustContain(t, set("MOVE", "48h"), "Movement phases now last 2 days")
}
