package session

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
)

func TestProcessCommand(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders = clockStartOrders("France") })
	now := clockT0.Add(time.Hour)
	reply := e.session("dt", clockMaster, now, func(s *session) error { return s.cmdProcess(clockCmd("PROCESS", "F1901M")) })
	if !containsText(reply, "The current phase of 'dt' is S1901M, not F1901M: nothing was processed.") {
		t.Errorf("reply: %q", reply)
	}
	reply = e.session("dt", clockMaster, now, func(s *session) error { return s.cmdProcess(clockCmd("PROCESS", "Autumn")) })
	if !strings.Contains(reply, "cannot read the phase") {
		t.Errorf("reply: %q", reply)
	}
	if g := e.game("dt"); g.Turn != 0 || len(e.mails()) != 0 {
		t.Fatal("a refused PROCESS processed")
	}
	reply = e.session("dt", clockMaster, now, func(s *session) error {
		return s.cmdProcess(clockCmd("PROCESS", "Spring", "1901", "Movement"))
	})
	if !strings.Contains(reply, "Phase S1901M of 'dt' processed") {
		t.Errorf("reply: %q", reply)
	}
	if got := e.mails(); len(clockAbout(got, "S1901M Results")) != 1 {
		t.Errorf("mails %q", clockSubjects(got))
	}
	if g := e.game("dt"); g.Turn != 1 || !g.Deadline.Equal(now.Add(72*time.Hour)) {
		t.Errorf("turn %d deadline %v", g.Turn, g.Deadline)
	}
}

func TestPredictReachesOnlyTheMaster(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		g.Orders = clockOpening()
		delete(g.Orders, "Turkey")
		g.Observers = []state.Observer{{Addr: "watcher@example.org"}}
	})
	before := e.game("dt")
	reply := e.session("dt", clockMaster, clockT0.Add(time.Hour), func(s *session) error { return s.cmdPredict(clockCmd("PREDICT")) })
	if !strings.Contains(reply, "The predicted results of S1901M were sent to you") {
		t.Errorf("reply %q", reply)
	}
	got := e.mails()
	if len(got) != 1 {
		t.Fatalf("mails %q, want the prediction alone", clockSubjects(got))
	}
	p := got[0]
	if len(p.To) != 1 || p.To[0] != clockMaster || p.Subject != "GMD:dt - S1901M Prediction" || p.InReplyTo != "<in@x>" {
		t.Errorf("prediction %q to %q in reply to %q", p.Subject, p.To, p.InReplyTo)
	}
	for _, s := range []string{"PREDICTION ONLY", "Orders are not complete for Turkey.", "Austria: Army Vienna -> Galicia. (*bounce*)", "Turkey: Army Constantinople, No Order Processed."} {
		if !strings.Contains(p.Body, s) {
			t.Errorf("prediction lacks %q:\n%s", s, p.Body)
		}
	}
	after := e.game("dt")
	if after.Turn != 0 || !bytes.Equal(after.Position, before.Position) || len(after.Orders) != len(before.Orders) || len(e.phases("dt")) != 0 {
		t.Error("PREDICT changed the game")
	}
}

func TestPauseResume(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, nil)
	paused := clockT0.Add(70 * time.Hour)
	e.session("dt", clockMaster, paused, func(s *session) error { return s.cmdPause(clockCmd("PAUSE")) })
	got := e.mails()
	if len(got) != 1 || got[0].Subject != "GMD:dt - S1901M Game Paused" {
		t.Fatalf("mails %q", clockSubjects(got))
	}
	if g := e.game("dt"); g.Status != state.Paused || !g.Wake.IsZero() {
		t.Fatalf("status %s wake %v", g.Status, g.Wake)
	}
	reply := e.session("dt", clockMaster, paused, func(s *session) error { return s.cmdPause(clockCmd("PAUSE")) })
	if !strings.Contains(reply, "Only a game being played can be paused") {
		t.Errorf("second PAUSE: %q", reply)
	}
	e.tick(clockD.Add(500 * time.Hour))
	if got := e.mails(); len(got) != 0 {
		t.Errorf("a paused game ticks: %q", clockSubjects(got))
	}

	resumed := clockD.Add(500 * time.Hour)
	e.session("dt", clockMaster, resumed, func(s *session) error { return s.cmdResume(clockCmd("RESUME")) })
	got = e.mails()
	if len(got) != 1 || got[0].Subject != "GMD:dt - S1901M Game Resumed" ||
		!strings.Contains(got[0].Body, "The deadline for orders is now Sun Mar 29 2026 08:00:00 +0000.") {
		t.Fatalf("mails:\n%s", clockDump(got))
	}
	g := e.game("dt")
	if want := resumed.Add(72 * time.Hour); g.Status != state.Active || !g.Deadline.Equal(want) || !g.Wake.Equal(want.Add(-24*time.Hour)) {
		t.Errorf("status %s deadline %v wake %v, want %v", g.Status, g.Deadline, g.Wake, want)
	}
}

func TestRollback(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Orders = clockOpening() })
	start := e.game("dt").Position
	e.session("dt", clockMaster, clockT0, func(s *session) error { return s.cmdProcess(clockCmd("PROCESS")) })
	e.edit("dt", clockT0, func(g *state.Game) {
		g.Orders = map[string][]string{"France": {"A bur - mun"}}
		clockSeat(t, g, "France").Wait = true
	})
	e.session("dt", clockMaster, clockT0.Add(time.Hour), func(s *session) error { return s.cmdProcess(clockCmd("PROCESS")) })
	if g := e.game("dt"); g.Turn != 2 || len(e.phases("dt")) != 2 {
		t.Fatalf("turn %d after two phases", g.Turn)
	}
	e.mails()

	reply := e.session("dt", clockMaster, clockT0, func(s *session) error { return s.cmdRollback(clockCmd("ROLLBACK", "F1902M")) })
	if !containsText(reply, "Phase F1902M of 'dt' has not been processed: the processed phases are S1901M, F1901M.") {
		t.Errorf("reply %q", reply)
	}
	now := clockT0.Add(2 * time.Hour)
	e.session("dt", clockMaster, now, func(s *session) error { return s.cmdRollback(clockCmd("ROLLBACK", "s1901m")) })
	got := e.mails()
	if len(got) != 1 || got[0].Subject != "GMD:dt - S1901M Rollback to S1901M" || len(got[0].To) != 8 ||
		!strings.Contains(got[0].Body, "back to the movement phase of Spring of 1901.") {
		t.Fatalf("mails:\n%s", clockDump(got))
	}
	g := e.game("dt")
	if g.Turn != 0 || !bytes.Equal(g.Position, start) || g.Orders != nil || len(e.phases("dt")) != 0 {
		t.Errorf("after the rollback: turn %d, position restored %v, orders %v, %d records",
			g.Turn, bytes.Equal(g.Position, start), g.Orders, len(e.phases("dt")))
	}
	if !g.Deadline.Equal(now.Add(72 * time.Hour)) {
		t.Errorf("deadline %v", g.Deadline)
	}

	// The game plays on: the rolled back phase is processed again as turn 1.
	e.session("dt", clockMaster, now, func(s *session) error { return s.cmdProcess(clockCmd("PROCESS")) })
	if recs := e.phases("dt"); len(recs) != 1 || recs[0].Turn != 1 || recs[0].Phase != "S1901M" {
		t.Errorf("history after replaying: %d records", len(recs))
	}
}

func TestRollbackRevivesFinishedGame(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		g.Position = []byte(clockNearWin)
		g.Orders = map[string][]string{"France": {"A bur - mun"}}
	})
	e.session("dt", clockMaster, clockT0, func(s *session) error { return s.cmdProcess(clockCmd("PROCESS")) })
	if g := e.game("dt"); g.Status != state.Finished {
		t.Fatal("no victory")
	}
	now := clockT0.Add(time.Hour)
	e.session("dt", clockMaster, now, func(s *session) error { return s.cmdRollback(clockCmd("ROLLBACK")) })
	g := e.game("dt")
	if g.Status != state.Active || g.Result != "" || clockSeat(t, g, "Germany").Status != state.Playing ||
		clockSeat(t, g, "Austria").Status != state.Eliminated || g.Wake.IsZero() {
		t.Errorf("status %s result %q Germany %s Austria %s wake %v", g.Status, g.Result,
			clockSeat(t, g, "Germany").Status, clockSeat(t, g, "Austria").Status, g.Wake)
	}
}

func TestTerminate(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, nil)
	e.session("dt", clockMaster, clockT0.Add(time.Hour), func(s *session) error { return s.cmdTerminate(clockCmd("TERMINATE")) })
	got := e.mails()
	if len(got) != 2 || got[0].Subject != "GMD:dt - S1901MX Game Terminated" || got[1].Subject != "GMD:dt - S1901MX Game Over" ||
		!strings.Contains(got[1].Body, "The game was terminated by the master.") {
		t.Fatalf("mails %q", clockSubjects(got))
	}
	g := e.game("dt")
	if g.Status != state.Finished || g.Result != "terminated" || !g.Wake.IsZero() {
		t.Errorf("status %s result %q wake %v", g.Status, g.Result, g.Wake)
	}
}

func TestEject(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) {
		for i := range g.Players {
			g.Players[i].Draw = g.Players[i].Power != "Italy"
		}
	})
	reply := e.session("dt", clockMaster, clockT0, func(s *session) error { return s.cmdEject(clockCmd("EJECT", "X")) })
	if !strings.Contains(reply, `There is no power "X"`) {
		t.Errorf("reply %q", reply)
	}
	e.session("dt", clockMaster, clockT0, func(s *session) error { return s.cmdEject(clockCmd("EJECT", "i")) })
	got := e.mails()
	if len(got) < 1 || got[0].Subject != "GMD:dt - S1901M Ejection: Italy" || !strings.Contains(strings.Join(got[0].To, ","), clockAddr("Italy")) ||
		!strings.Contains(got[0].Body, "  SIGNON Idt password") {
		t.Fatalf("mails:\n%s", clockDump(got))
	}
	// Italy alone had not voted: without the vote, the draw passes.
	if len(clockAbout(got, "Draw Declared: AEFGIRT")) != 1 {
		t.Errorf("mails %q, want the draw", clockSubjects(got))
	}
	g := e.game("dt")
	if clockSeat(t, g, "Italy").Status != state.Abandoned || g.Status != state.Finished {
		t.Errorf("Italy %s, game %s", clockSeat(t, g, "Italy").Status, g.Status)
	}
}

func TestSetClock(t *testing.T) {
	e := newClockEnv(t)
	e.newGame("dt", clockT0, func(g *state.Game) { g.Settings.Zone = "Europe/Paris" })
	now := clockT0
	set := func(args ...string) string {
		return e.session("dt", clockMaster, now, func(s *session) error { return s.cmdSetClock(clockCmd("SET", args...)) })
	}
	set("DEADLINE", "2026-03-10", "18:00")
	g := e.game("dt")
	if want := time.Date(2026, 3, 10, 17, 0, 0, 0, time.UTC); !g.Deadline.Equal(want) || !g.Wake.Equal(want.Add(-24*time.Hour)) {
		t.Errorf("deadline %v wake %v, want %v", g.Deadline, g.Wake, want)
	}
	got := e.mails()
	if len(got) != 1 || got[0].Subject != "GMD:dt - S1901M Deadline Adjustment to: Tue Mar 10 2026 18:00:00 +0100" {
		t.Errorf("mails %q", clockSubjects(got))
	}

	set("DEADLINE", "+48h")
	if g := e.game("dt"); !g.Deadline.Equal(now.Add(48 * time.Hour)) {
		t.Errorf("+48h: deadline %v", g.Deadline)
	}
	e.mails()
	if reply := set("DEADLINE", "2020-01-01", "10:00"); !containsText(reply, "is not in the future") {
		t.Errorf("past deadline: %q", reply)
	}
	if reply := set("DEADLINE", "soon"); !strings.Contains(reply, "cannot read the date") {
		t.Errorf("bad date: %q", reply)
	}
	if got := e.mails(); len(got) != 0 {
		t.Errorf("refused settings sent %q", clockSubjects(got))
	}

	set("GRACE", "1d")
	g = e.game("dt")
	if g.Settings.Grace != state.Duration(24*time.Hour) {
		t.Errorf("grace %v", time.Duration(g.Settings.Grace))
	}
	got = e.mails()
	if len(got) != 1 || got[0].Subject != "GMD:dt - S1901M Grace Adjustment to: Thu Mar 05 2026 13:00:00 +0100" {
		t.Errorf("mails %q", clockSubjects(got))
	}

	set("MOVEMENT", "2d12h")
	set("RETREAT", "36")
	set("REMINDER", "6h")
	g = e.game("dt")
	if g.Settings.Movement != state.Duration(60*time.Hour) || g.Settings.Retreat != state.Duration(36*time.Hour) ||
		g.Settings.Reminder != state.Duration(6*time.Hour) {
		t.Errorf("settings %+v", g.Settings)
	}
	if want := now.Add(42 * time.Hour); !g.Wake.Equal(want) {
		t.Errorf("wake %v after SET REMINDER, want %v", g.Wake, want)
	}
	got = e.mails()
	if len(clockAbout(got, "Parameter Change")) != 3 || !strings.Contains(got[0].Body, "Movement phases now last 2 days 12 hours, from the next phase on.") {
		t.Errorf("mails %q, want three parameter changes", clockSubjects(got))
	}
	if reply := set("MOVEMENT", "0"); !containsText(reply, "A movement phase lasts at least 10 minutes: no time is too short") {
		t.Errorf("zero length: %q", reply)
	}
}

func TestMasterCommandsByMail(t *testing.T) {
	e := newClockEnv(t)
	hash, msg := e.m.hashPassword("secret")
	if msg != "" {
		t.Fatal(msg)
	}
	e.newGame("dt", clockT0, func(g *state.Game) {
		g.MasterHash = hash
		g.Orders = clockOpening()
	})
	now := clockT0.Add(time.Hour)
	err := e.m.Handle(&Mail{From: clockMaster, Subject: "predict", Body: "SIGNON Mdt secret\nPREDICT\nSIGNOFF\n", MessageID: "<p@x>"}, now)
	if err != nil {
		t.Fatal(err)
	}
	got := e.mails()
	for _, m := range got {
		if len(m.To) != 1 || m.To[0] != clockMaster {
			t.Errorf("PREDICT sent %q to %q", m.Subject, m.To)
		}
	}
	if len(clockAbout(got, "S1901M Prediction")) != 1 {
		t.Fatalf("mails:\n%s", clockDump(got))
	}

	err = e.m.Handle(&Mail{From: clockMaster, Subject: "go", Body: "SIGNON Mdt secret\nPROCESS S1901M\nSET DEADLINE +24h\n", MessageID: "<q@x>"}, now)
	if err != nil {
		t.Fatal(err)
	}
	got = e.mails()
	if len(clockAbout(got, "S1901M Results")) != 1 || len(clockAbout(got, "F1901M Deadline Adjustment")) != 1 {
		t.Errorf("mails:\n%s", clockDump(got))
	}
	if g := e.game("dt"); g.Turn != 1 || !g.Deadline.Equal(now.Add(24*time.Hour)) {
		t.Errorf("turn %d deadline %v", g.Turn, g.Deadline)
	}
}
