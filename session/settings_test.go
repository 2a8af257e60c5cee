package session

import (
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

func TestSetWaitAndDraw(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", "SET WAIT\nSET DRAW"), "france@example.org")
	mustContain(t, r.Body, "WAIT set", "You vote for a draw", "WAIT is set for France.", "France votes for a draw.")
	g := h.game("dt")
	p := g.Players[engine.PlayerByPower(g, "France")]
	if !p.Wait || !p.Draw {
		t.Fatalf("France: wait %v, draw %v", p.Wait, p.Draw)
	}
	if g.Status != "active" {
		t.Fatal("one vote ended the game")
	}
	// Another power learns nothing of France's vote.
	r = onlyTo(t, h.orders("dt", "G", "LIST dt"), "germany@example.org")
	mustNotContain(t, r.Body, "draw", "WAIT")
	h.orders("dt", "F", "SET NO WAIT\nSET NODRAW")
	g = h.game("dt")
	if p := g.Players[engine.PlayerByPower(g, "France")]; p.Wait || p.Draw {
		t.Fatal("NOWAIT/NODRAW did not clear")
	}
	// Only players vote.
	r = onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt pw-m\nSET WAIT"), testMaster)
	mustContain(t, r.Body, "Only a player signed on as a power may SET WAIT.")
}

func TestMasterSettings(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	got := h.mail(testMaster, "x", "SIGNON Mdt pw-m\nSET PRESS GREY\nSET NOPARTIAL\nSET NMR\nSET ZONE Europe/Paris\nSET ZONE Mars/Olympus")
	g := h.game("dt")
	st := g.Settings
	if st.Press != "grey" || st.Partial || !st.NMR || st.Zone != "Europe/Paris" {
		t.Fatalf("settings: %+v", st)
	}
	// Four changes in one mail: one notice to the seven players and the
	// master, listing the four in the order of the SET lines.
	var notices []*state.OutMail
	for _, m := range got {
		if strings.HasSuffix(m.Subject, "Parameter Change") {
			notices = append(notices, m)
			if len(m.To) != 8 {
				t.Errorf("Parameter Change to %v", m.To)
			}
		}
	}
	if len(notices) != 1 {
		t.Fatalf("%d Parameter Change notices, want 1", len(notices))
	}
	mustContain(t, notices[0].Body, "The master of game 'dt' has changed its settings")
	body := unwrap(notices[0].Body)
	last := -1
	for _, change := range []string{"Press is grey", "Partial press is not allowed", "NMR: a power that misses", "Times are now shown in the zone Europe/Paris."} {
		i := strings.Index(body, change)
		if i <= last {
			t.Errorf("the notice lacks %q, or has it out of order:\n%s", change, notices[0].Body)
		}
		last = i
	}
	if len(got) != 2 {
		t.Errorf("the mail caused %d mails, want the reply and the notice", len(got))
	}
	fr := mailsTo(got, "france@example.org")
	mustContain(t, fr[len(fr)-1].Body, "Times are now shown in the zone Europe/Paris.", ":: Deadline: S1901M Thu Jan 08 2026 13:00:00 +0100")
	var reply string
	for _, m := range mailsTo(got, testMaster) {
		if strings.HasPrefix(m.Subject, "Re:") {
			reply = m.Body
		}
	}
	mustContain(t, reply, "Press is grey", "Error (line 6): Unknown time zone \"Mars/Olympus\"")

	// Setting what is already set changes nothing and tells nobody.
	got = h.mail(testMaster, "x", "SIGNON Mdt pw-m\nSET NMR")
	if len(got) != 1 {
		t.Fatalf("SET NMR again queued %d mails", len(got))
	}
	mustContain(t, got[0].Body, "It already was")
}

func TestSetAbsence(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", "SET ABSENCE 24 Dec TO 26 Dec\nSET ABSENCE 2026-02-01\nSET VACATION Mar 3 2026 to 5 Mar\nSET ABSENCE 10 Apr\n"+
		"SET ABSENCE 2026-01-01\nSET ABSENCE 1 Jun TO 30 Jun\nSET ABSENCE someday"), "france@example.org")
	mustContain(t, r.Body,
		"Absence noted from Thu Dec 24 2026 00:00:00 +0000 to Sun Dec 27 2026 00:00:00 +0000",
		"Error (line 5): You already have 3 absences pending",
		"Error (line 6): That absence is over already.",
		"Error (line 7): An absence may last at most 15 days.",
		"Error (line 8): \"someday\" is not a date.")
	g := h.game("dt")
	abs := g.Players[engine.PlayerByPower(g, "France")].Absences
	if len(abs) != 3 {
		t.Fatalf("absences %+v", abs)
	}
	if want := time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC); !abs[2].From.Equal(want) || !abs[2].To.Equal(want.AddDate(0, 0, 3)) {
		t.Errorf("third absence %+v", abs[2])
	}
	h.orders("dt", "F", "SET NOABSENCE")
	if g := h.game("dt"); len(g.Players[engine.PlayerByPower(g, "France")].Absences) != 0 {
		t.Fatal("NOABSENCE kept absences")
	}
}

func TestParseDate(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	now := time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		loc  *time.Location
		want time.Time
	}{
		{"2026-12-24", time.UTC, time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)},
		{"24 Dec", time.UTC, time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)},
		{"dec 24", time.UTC, time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)},
		{"Dec 24, 2027", time.UTC, time.Date(2027, 12, 24, 0, 0, 0, 0, time.UTC)},
		{"24 December 2026", time.UTC, time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)},
		{"15 Jun", time.UTC, time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC)},     // today
		{"14 Jun", time.UTC, time.Date(2027, 6, 14, 0, 0, 0, 0, time.UTC)},     // past: next year
		{"Tue Jun 16", time.UTC, time.Date(2026, 6, 16, 0, 0, 0, 0, time.UTC)}, // a weekday is allowed
		{"2026-07-01", paris, time.Date(2026, 6, 30, 22, 0, 0, 0, time.UTC)},   // the zone's midnight
	}
	for _, tt := range tests {
		got, err := parseDate(tt.in, tt.loc, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseDate(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "tomorrow", "31 Foo", "2026-13-01"} {
		if _, err := parseDate(bad, time.UTC, now); err == nil {
			t.Errorf("parseDate(%q) accepted", bad)
		}
	}
}

func TestSetPreference(t *testing.T) {
	h := newHarness(t)
	h.create("pg")
	r := onlyTo(t, h.join("a@example.org", "pg", "pw", "", "SET PREFERENCE F[GE]R"), "a@example.org")
	mustContain(t, r.Body, "Preference set: FGER.")
	g := h.game("pg")
	if g.Players[0].Preference != "FGER" {
		t.Fatalf("preference %q", g.Players[0].Preference)
	}
	r = onlyTo(t, h.mail("a@example.org", "x", "SIGNON ?pg pw\nSET PREFERENCE FXQ"), "a@example.org")
	mustContain(t, r.Body, "is not a power letter")
	r = onlyTo(t, h.mail("a@example.org", "x", "SIGNON ?pg pw\nSET PREFERENCE *"), "a@example.org")
	mustContain(t, r.Body, "chosen at random")
}

// TestMasterPressSettingsByMail sets every press setting and NMR/NONMR
// by mail, and checks each by what it does: press refused or delivered,
// signed or not.
func TestMasterPressSettingsByMail(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	master := func(cmds string) *state.Game {
		t.Helper()
		h.mail(testMaster, "x", "SIGNON Mdt pw-m\n"+cmds)
		return h.game("dt")
	}
	press := func() (reply string, toGermany []*state.OutMail) {
		t.Helper()
		got := h.orders("dt", "F", "PRESS TO G\nMeet me in Burgundy.\nENDPRESS")
		return onlyTo(t, got, "france@example.org").Body, mailsTo(got, "germany@example.org")
	}

	if st := master("SET PRESS NONE").Settings; st.Press != "none" {
		t.Fatalf("SET PRESS NONE: press %q", st.Press)
	}
	reply, g := press()
	mustContain(t, reply, "Game 'dt' has no press between powers")
	if len(g) != 0 {
		t.Fatalf("press went out with SET PRESS NONE: %v", g)
	}

	if st := master("SET PRESS WHITE\nSET PARTIAL").Settings; st.Press != "white" || !st.Partial {
		t.Fatalf("SET PRESS WHITE, SET PARTIAL: %+v", st)
	}
	_, g = press()
	if len(g) != 1 {
		t.Fatalf("white partial press: %d mails to Germany, want 1", len(g))
	}
	mustContain(t, g[0].Body, "Meet me in Burgundy.", "France")

	master("SET NOPARTIAL")
	reply, g = press()
	mustContain(t, reply, "Game 'dt' allows no partial press: use BROADCAST.")
	if len(g) != 0 {
		t.Fatalf("partial press went out with SET NOPARTIAL: %v", g)
	}

	if st := master("SET NMR").Settings; !st.NMR {
		t.Fatal("SET NMR did not set NMR")
	}
	if st := master("SET NONMR").Settings; st.NMR {
		t.Fatal("SET NONMR did not clear NMR")
	}
}
