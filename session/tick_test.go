package session

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// The default clock: 72h movement, 24h reminder, 48h grace.
var clockD = clockT0.Add(72 * time.Hour) // the first deadline

func TestStartClock(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, nil)
	g := e.game("dt")
	if !g.Deadline.Equal(clockD) {
		t.Errorf("deadline %v, want %v", g.Deadline, clockD)
	}
	if want := clockD.Add(-24 * time.Hour); !g.Wake.Equal(want) {
		t.Errorf("wake %v, want the reminder time %v", g.Wake, want)
	}

	// A 24h retreat phase with a 24h reminder has its reminder a third
	// of the phase before the deadline, not at its start.
	g.Settings.Retreat = state.Duration(24 * time.Hour)
	g.Position = []byte(`{"phase":"F1901R"}`)
	e.m.StartClock(g, clockT0)
	if want := clockT0.Add(24 * time.Hour); !g.Deadline.Equal(want) || !g.Wake.Equal(want.Add(-8*time.Hour)) {
		t.Errorf("retreat: deadline %v wake %v, want %v and 8 hours before", g.Deadline, g.Wake, want)
	}

	// With no reminder, the clock wakes at the deadline.
	g.Settings.Reminder = 0
	e.m.StartClock(g, clockT0)
	if want := clockT0.Add(24 * time.Hour); !g.Deadline.Equal(want) || !g.Wake.Equal(want) {
		t.Errorf("no reminder: deadline %v wake %v, want both %v", g.Deadline, g.Wake, want)
	}

	// A paused game gets a deadline but no wake time.
	g.Status = state.Paused
	e.m.StartClock(g, clockT0)
	if !g.Wake.IsZero() {
		t.Errorf("paused game wakes at %v", g.Wake)
	}
}

func TestReminderOnce(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		g.Orders = clockStartOrders(clockAllBut("France", "Russia")...)
		g.Orders["France"] = clockStartOrders("France")["France"][:1]
	})
	e.tick(clockD.Add(-24*time.Hour - time.Second))
	if got := e.mails(); len(got) != 0 {
		t.Fatalf("before the reminder time: %q", clockSubjects(got))
	}

	e.tick(clockD.Add(-24 * time.Hour))
	got := e.mails()
	if len(got) != 2 {
		t.Fatalf("reminders: %q, want one to France and one to Russia", clockSubjects(got))
	}
	for _, m := range got {
		if m.Subject != "GMD:dt - S1901M Reminder" {
			t.Errorf("subject %q", m.Subject)
		}
		if !containsText(m.Body, "The deadline is in 1 day and you have not yet placed complete and valid moves.") {
			t.Errorf("body:\n%s", m.Body)
		}
	}
	fr := got[slices.IndexFunc(got, func(m *state.OutMail) bool { return m.To[0] == clockAddr("France") })]
	if line := clockStartOrders("France")["France"][0]; !strings.Contains(fr.Body, "  "+line+"\n") {
		t.Errorf("France's reminder does not show its order %q:\n%s", line, fr.Body)
	}
	ru := got[slices.IndexFunc(got, func(m *state.OutMail) bool { return m.To[0] == clockAddr("Russia") })]
	if !strings.Contains(ru.Body, "You have sent no orders for Russia") {
		t.Errorf("Russia's reminder:\n%s", ru.Body)
	}
	g := e.game("dt")
	if !g.Reminded || !g.Wake.Equal(clockD) {
		t.Errorf("after the reminder: reminded %v, wake %v (want the deadline)", g.Reminded, g.Wake)
	}

	// Once only: a mail that changes orders puts the wake on the deadline,
	// and Tick before it sends nothing more.
	e.edit("dt", clockD.Add(-2*time.Hour), func(*state.Game) {})
	e.tick(clockD.Add(-time.Hour))
	if got := e.mails(); len(got) != 0 {
		t.Errorf("second reminder: %q", clockSubjects(got))
	}
}

func TestLateNotices(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		g.Orders = clockStartOrders(clockAllBut("France", "Russia")...)
		clockSeat(t, g, "France").Late = 1 // late once before
	})
	e.tick(clockD.Add(-24 * time.Hour)) // reminders
	e.mails()

	e.tick(clockD)
	got := e.mails()
	if len(got) != 2 {
		t.Fatalf("at the deadline: %q, want one late notice and its copy to the late players", clockSubjects(got))
	}
	late := got[0]
	if late.Subject != "GMD:dt - S1901M Late Notice: FR" {
		t.Errorf("subject %q", late.Subject)
	}
	if len(late.To) != 6 {
		t.Errorf("late notice to %q, want the 5 players on time and the master", late.To)
	}
	// njudge marks the late players' copy in its subject.
	you := got[1]
	if you.Subject != "[You are late!] GMD:dt - S1901M Late Notice: FR" || len(you.To) != 2 ||
		!slices.ContainsFunc(you.To, func(a string) bool { return a == clockSeat(t, e.game("dt"), "France").Addr }) ||
		you.Body != late.Body {
		t.Errorf("the late players' copy: %q to %q", you.Subject, you.To)
	}
	for _, s := range []string{
		"Diplomacy game 'dt' is waiting for France's orders: 2 times late.\n",
		"Diplomacy game 'dt' is waiting for Russia's orders.\n",
		"These powers will be considered abandoned and free for takeover\nif orders are not received by Sat Mar 07 2026 12:00:00 +0000.",
	} {
		if !strings.Contains(late.Body, s) {
			t.Errorf("late notice lacks %q:\n%s", s, late.Body)
		}
	}
	g := e.game("dt")
	if !slices.Equal(g.LateNamed, []string{"France", "Russia"}) {
		t.Errorf("the notice named %q, want France and Russia", g.LateNamed)
	}
	if fr, ru := clockSeat(t, g, "France").Late, clockSeat(t, g, "Russia").Late; fr != 2 || ru != 1 {
		t.Errorf("late counts France %d Russia %d, want 2 and 1", fr, ru)
	}
	if want := clockD.Add(24 * time.Hour); !g.Wake.Equal(want) {
		t.Errorf("wake %v, want %v", g.Wake, want)
	}

	// Once a day: nothing the next hours, even when a mail wakes the game.
	e.edit("dt", clockD.Add(time.Hour), func(*state.Game) {})
	e.tick(clockD.Add(23 * time.Hour))
	if got := e.mails(); len(got) != 0 {
		t.Errorf("a day after the deadline, early: %q", clockSubjects(got))
	}
	e.tick(clockD.Add(24 * time.Hour))
	got = e.mails()
	if len(clockAbout(got, "Late Notice: FR")) != 2 || len(got) != 2 {
		t.Errorf("a day after the deadline: %q, want one late notice", clockSubjects(got))
	}
	g = e.game("dt")
	if fr := clockSeat(t, g, "France").Late; fr != 2 {
		t.Errorf("late count %d after the second notice, want it still 2", fr)
	}
	if want := clockD.Add(48 * time.Hour); !g.Wake.Equal(want) {
		t.Errorf("wake %v, want the end of grace %v", g.Wake, want)
	}
}

func TestEarlyProcessing(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, nil)
	now := clockT0.Add(time.Hour)
	e.edit("dt", now, func(g *state.Game) { g.Orders = clockStartOrders(clockAllBut("Turkey")...) })
	if g := e.game("dt"); !g.Wake.After(now) {
		t.Fatalf("wake %v with Turkey's orders missing", g.Wake)
	}
	e.edit("dt", now, func(g *state.Game) { g.Orders["Turkey"] = clockStartOrders("Turkey")["Turkey"] })
	if g := e.game("dt"); !g.Wake.Equal(now) {
		t.Fatalf("wake %v with every order in, want now", g.Wake)
	}
	e.tick(now)
	got := e.mails()
	if len(got) != 1 || got[0].Subject != "GMD:dt - S1901M Results" {
		t.Fatalf("mails %q, want the results", clockSubjects(got))
	}
	g := e.game("dt")
	if g.Turn != 1 || clockPhase(t, g) != "F1901M" || g.Orders != nil {
		t.Errorf("after processing: turn %d phase %s orders %v", g.Turn, clockPhase(t, g), g.Orders)
	}
	if want := now.Add(72 * time.Hour); !g.Deadline.Equal(want) {
		t.Errorf("next deadline %v, want %v", g.Deadline, want)
	}
}

func TestWaitHoldsEarlyProcessing(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, nil)
	now := clockT0.Add(time.Hour)
	e.edit("dt", now, func(g *state.Game) {
		g.Orders = clockStartOrders()
		clockSeat(t, g, "England").Wait = true
	})
	if g := e.game("dt"); g.Wake.Equal(now) {
		t.Fatal("WAIT set, yet the game is due now")
	}
	e.tick(now)
	e.tick(clockD.Add(-24 * time.Hour))
	if got := e.mails(); len(got) != 0 {
		t.Fatalf("before the deadline with WAIT: %q (complete orders need no reminder)", clockSubjects(got))
	}
	if g := e.game("dt"); g.Turn != 0 {
		t.Fatal("processed early despite WAIT")
	}
	e.tick(clockD)
	if got := e.mails(); len(clockAbout(got, "S1901M Results")) != 1 {
		t.Fatalf("at the deadline: %q, want the results", clockSubjects(got))
	}
	if g := e.game("dt"); g.Turn != 1 || clockSeat(t, g, "England").Wait {
		t.Errorf("turn %d, WAIT %v after the deadline", g.Turn, clockSeat(t, g, "England").Wait)
	}
}

func TestDisorderDoesNotHoldUp(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) { clockSeat(t, g, "Italy").Status = state.Disorder })
	now := clockT0.Add(time.Hour)
	e.edit("dt", now, func(g *state.Game) { g.Orders = clockStartOrders(clockAllBut("Italy")...) })
	e.tick(now)
	got := e.mails()
	if len(got) != 1 {
		t.Fatalf("mails %q, want the results", clockSubjects(got))
	}
	if !strings.Contains(got[0].Body, "Italy: Army Rome, No Order Processed.") {
		t.Errorf("Italy's units should hold by default:\n%s", got[0].Body)
	}

	// A game where nobody plays does not race: it waits for its deadline.
	e.newGame("cd", clockT0, func(g *state.Game) {
		for i := range g.Players {
			g.Players[i].Status = state.Disorder
		}
	})
	e.edit("cd", now, func(*state.Game) {})
	if g := e.game("cd"); g.Wake.Equal(now) {
		t.Error("a game of seats in civil disorder only is due at once")
	}
}

func TestAbsencePushesDeadline(t *testing.T) {
	at := func(h int) time.Time { return clockT0.Add(time.Duration(h) * time.Hour) }
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		clockSeat(t, g, "England").Absences = []state.Absence{{From: at(70), To: at(80)}}
		clockSeat(t, g, "France").Absences = []state.Absence{{From: at(79), To: at(90)}}
		// An abandoned seat's old player is away for long: that does not count.
		clockSeat(t, g, "Italy").Status = state.Abandoned
		clockSeat(t, g, "Italy").Absences = []state.Absence{{From: at(60), To: at(500)}}
	})
	g := e.game("dt")
	if !g.Deadline.Equal(at(90)) {
		t.Fatalf("deadline %v, want the end of the chained absences %v", g.Deadline, at(90))
	}

	// An absence set during the phase leaves the current deadline alone,
	// but pushes the next one.
	e.edit("dt", at(1), func(g *state.Game) {
		clockSeat(t, g, "Germany").Absences = []state.Absence{{From: at(85), To: at(120)}, {From: at(150), To: at(200)}}
		clockSeat(t, g, "Italy").Status = state.Playing
		clockSeat(t, g, "Italy").Absences = nil
	})
	if g := e.game("dt"); !g.Deadline.Equal(at(90)) {
		t.Errorf("current deadline moved to %v", g.Deadline)
	}
	e.edit("dt", at(100), func(g *state.Game) { g.Orders = clockStartOrders() })
	e.tick(at(100))
	g = e.game("dt")
	if g.Turn != 1 || !g.Deadline.Equal(at(200)) {
		t.Errorf("turn %d, next deadline %v, want 1 and %v (100h+72h falls in Germany's second absence)", g.Turn, g.Deadline, at(200))
	}
}

func TestNMRCivilDisorder(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		g.Settings.NMR = true
		g.Orders = clockStartOrders(clockAllBut("France")...)
		g.Orders["France"] = []string{"A par - bur"}
	})
	e.tick(clockD.Add(-24 * time.Hour))
	e.tick(clockD)
	got := e.mails()
	late := clockAbout(got, "Late Notice: F")
	if len(late) != 2 || !strings.Contains(late[0].Body, "It will be considered in civil disorder if orders are not received by\n") {
		t.Fatalf("late notice in an NMR game:\n%s", clockDump(got))
	}
	e.tick(clockD.Add(24 * time.Hour))
	e.tick(clockD.Add(48*time.Hour - time.Second))
	if g := e.game("dt"); g.Turn != 0 {
		t.Fatal("processed before the end of grace")
	}
	e.mails()

	end := clockD.Add(48 * time.Hour)
	e.tick(end)
	got = e.mails()
	res := clockAbout(got, "S1901M Results")
	if len(res) != 1 || len(got) != 1 {
		t.Fatalf("at the end of grace: %q, want the results only", clockSubjects(got))
	}
	for _, s := range []string{"France: Army Paris -> Burgundy.", "France: Fleet Brest, No Order Processed.", "France: Army Marseilles, No Order Processed."} {
		if !strings.Contains(res[0].Body, s) {
			t.Errorf("results lack %q:\n%s", s, res[0].Body)
		}
	}
	g := e.game("dt")
	if st := clockSeat(t, g, "France").Status; st != state.Disorder || g.Turn != 1 {
		t.Fatalf("France is %s, turn %d; want cd and 1", st, g.Turn)
	}

	// France in civil disorder holds nothing up in the next phase.
	now := end.Add(time.Hour)
	e.edit("dt", now, func(g *state.Game) {
		g.Orders = clockStartOrders(clockAllBut("France")...)
		g.Orders["France"] = nil
	})
	e.tick(now)
	if got := e.mails(); len(clockAbout(got, "F1901M Results")) != 1 {
		t.Errorf("F1901M with France in civil disorder: %q", clockSubjects(got))
	}
}

func TestNoNMRAbandonAndTakeover(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders = clockStartOrders(clockAllBut("France")...) })
	e.tick(clockD.Add(-24 * time.Hour))
	e.tick(clockD)
	e.tick(clockD.Add(24 * time.Hour))
	e.mails()

	end := clockD.Add(48 * time.Hour)
	e.tick(end)
	got := e.mails()
	if len(got) != 1 || got[0].Subject != "GMD:dt - S1901M Waiting for Replacements: F" {
		t.Fatalf("at the end of grace: %q", clockSubjects(got))
	}
	for _, s := range []string{"Diplomacy game 'dt' is waiting for someone to take over the abandoned France.", "  SIGNON Fdt password"} {
		if !strings.Contains(got[0].Body, s) {
			t.Errorf("replacement call lacks %q:\n%s", s, got[0].Body)
		}
	}
	// The player who lost the seat is told, with everyone in the game, as
	// njudge tells them.
	if !slices.Contains(got[0].To, clockAddr("France")) || len(got[0].To) != 8 {
		t.Errorf("the call for a replacement went to %q, want the 7 players and the master", got[0].To)
	}
	g := e.game("dt")
	if st := clockSeat(t, g, "France").Status; st != state.Abandoned || g.Turn != 0 {
		t.Fatalf("France is %s, turn %d; want abandoned and no processing", st, g.Turn)
	}
	if want := end.Add(48 * time.Hour); !g.Wake.Equal(want) {
		t.Errorf("wake %v, want the next call %v", g.Wake, want)
	}

	// The call repeats every 48 hours; the game does not move meanwhile.
	e.tick(end.Add(47 * time.Hour))
	if got := e.mails(); len(got) != 0 {
		t.Errorf("before 48 hours: %q", clockSubjects(got))
	}
	e.tick(end.Add(48 * time.Hour))
	if got := e.mails(); len(clockAbout(got, "Waiting for Replacements: F")) != 1 || len(got) != 1 {
		t.Errorf("after 48 hours: %q", clockSubjects(got))
	} else if slices.Contains(got[0].To, clockAddr("France")) {
		// The seat's mail no longer goes to the player who lost it.
		t.Errorf("the repeated call went to the old player: %q", got[0].To)
	}

	// A takeover starts the clock afresh.
	now := end.Add(50 * time.Hour)
	e.session("dt", "newfrance@example.org", now, func(s *session) error {
		s.master, s.power = false, "France"
		return s.takeover(engine.PlayerByPower(s.game, "France"), []byte("hash"))
	})
	got = e.mails()
	if len(got) != 1 || got[0].Subject != "GMD:dt - S1901M Takeover of France" {
		t.Fatalf("takeover: %q", clockSubjects(got))
	}
	if !strings.Contains(got[0].Body, "France in game 'dt' has been taken over by newfrance@example.org.") ||
		!strings.Contains(got[0].Body, "The deadline for orders is now Thu Mar 12 2026 14:00:00 +0000.") {
		t.Errorf("takeover notice:\n%s", got[0].Body)
	}
	g = e.game("dt")
	fr := clockSeat(t, g, "France")
	if fr.Status != state.Playing || fr.Addr != "newfrance@example.org" || string(fr.PassHash) != "hash" || fr.Late != 0 {
		t.Errorf("France after the takeover: %+v", fr)
	}
	if want := now.Add(72 * time.Hour); !g.Deadline.Equal(want) || !g.Wake.Equal(want.Add(-24*time.Hour)) || !g.LateNoticed.IsZero() {
		t.Errorf("deadline %v wake %v late noticed %v, want %v and its reminder", g.Deadline, g.Wake, g.LateNoticed, want)
	}
	e.edit("dt", now.Add(time.Hour), func(g *state.Game) { g.Orders["France"] = clockStartOrders("France")["France"] })
	e.tick(now.Add(time.Hour))
	if g := e.game("dt"); g.Turn != 1 {
		t.Error("complete orders after the takeover were not processed at once")
	}
}

func TestTakeoverWhileOthersAbandoned(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		clockSeat(t, g, "France").Status = state.Abandoned
		clockSeat(t, g, "Italy").Status = state.Abandoned
	})
	before := e.game("dt").Deadline
	now := clockT0.Add(10 * time.Hour)
	e.session("dt", "new@example.org", now, func(s *session) error {
		return s.takeover(engine.PlayerByPower(s.game, "France"), []byte("h"))
	})
	got := e.mails()
	if len(got) != 1 || !strings.Contains(got[0].Body, "The game still waits for someone to take over the abandoned Italy.") {
		t.Fatalf("takeover notice:\n%s", clockDump(got))
	}
	if g := e.game("dt"); !g.Deadline.Equal(before) {
		t.Errorf("deadline moved to %v while Italy is still abandoned", g.Deadline)
	}
	// The last takeover restarts the clock, but never moves it earlier.
	e.session("dt", "new2@example.org", now, func(s *session) error {
		return s.takeover(engine.PlayerByPower(s.game, "Italy"), []byte("h"))
	})
	if g := e.game("dt"); !g.Deadline.Equal(now.Add(72 * time.Hour)) {
		t.Errorf("deadline %v after the last takeover, want %v", g.Deadline, now.Add(72*time.Hour))
	}
	e.session("dt", "new3@example.org", clockT0, func(s *session) error {
		clockSeat(t, s.game, "Italy").Status = state.Disorder
		return s.takeover(engine.PlayerByPower(s.game, "Italy"), []byte("h"))
	})
	if g := e.game("dt"); !g.Deadline.Equal(now.Add(72 * time.Hour)) {
		t.Errorf("a takeover moved the deadline earlier, to %v", g.Deadline)
	}
}

func TestTickIsolatesGames(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("good", clockT0, func(g *state.Game) { g.Orders = clockStartOrders() })
	e.newGame("bad", clockT0, nil)
	g := e.game("bad")
	g.Position = []byte(`{"phase":"S1901M","units":[{"power":"Nobody"}]}`)
	e.put(g)
	err := e.m.Tick(clockD)
	if err == nil || !strings.Contains(err.Error(), "game bad") {
		t.Fatalf("Tick: %v, want an error naming the broken game", err)
	}
	if g := e.game("good"); g.Turn != 1 {
		t.Error("the broken game kept the good one from being processed")
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) {
		t.Errorf("the error %T does not join the games' errors", err)
	}
}

func TestTickSkipsInactive(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, nil)
	g := e.game("dt")
	g.Status = state.Paused // as if set behind the clock's back
	e.put(g)
	e.tick(clockD.Add(100 * time.Hour))
	if got := e.mails(); len(got) != 0 {
		t.Errorf("paused game: %q", clockSubjects(got))
	}
	if g := e.game("dt"); !g.Wake.IsZero() || g.Turn != 0 {
		t.Errorf("paused game: wake %v turn %d", g.Wake, g.Turn)
	}
}
