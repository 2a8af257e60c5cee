package session

import (
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// Tests of the limits the game master puts on what a mail may make it
// store: each bad value is refused with an error line in the reply (or,
// for a sender nobody can write to, ignored), and never reaches the
// database, where it could not be stored and would stop the mail.

// A From far beyond RFC 5321's lengths is nobody's address: the mail is
// recorded and ignored, whatever it asks, rather than fail on a key the
// database cannot hold.
func TestHandleOverlongSender(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	long := strings.Repeat("a", 33000) + "@example.org"
	for _, body := range []string{"OBSERVE dt x", "CREATE ?big secret", "SIGNON ?dt secret"} {
		if got := h.mail(long, "hostile", body); len(got) != 0 {
			t.Errorf("%s from a 33,000-character address queued %d mails, want none", body, len(got))
		}
	}
	if g := h.game("dt"); len(g.Observers) != 0 || len(g.Players) != 0 {
		t.Errorf("game dt has %d observers and %d players after the overlong sender, want none", len(g.Observers), len(g.Players))
	}
}

// SET ABSENCE on a date the judge could not store (the year 10000 in
// UTC), or more than a year ahead, is an error line; the seat keeps no
// such absence.
func TestSetAbsenceTooFarAhead(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", "SET ABSENCE 9999-12-31\nSET ABSENCE 2027-03-01 TO 2027-03-05"), "france@example.org")
	if n := strings.Count(r.Body, "An absence must end within a year from now"); n != 2 {
		t.Errorf("reply has %d errors about the year, want 2:\n%s", n, r.Body)
	}
	for _, p := range h.game("dt").Players {
		if len(p.Absences) != 0 {
			t.Errorf("%s has absences %v, want none", p.Power, p.Absences)
		}
	}
	// A year ahead is still fine.
	r = onlyTo(t, h.orders("dt", "F", "SET ABSENCE 2026-12-24 TO 2027-01-02"), "france@example.org")
	mustContain(t, r.Body, "Absence noted")
}

// SET DEADLINE more than a year ahead is an error line, the year 9999 in
// a zone west of UTC (the year 10000 in UTC) included; a length of time
// beyond a year is refused too.
func TestSetDeadlineTooFarAhead(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.mail(testMaster, "zone", "SIGNON Mdt pw-m\nSET ZONE America/New_York")
	if z := h.game("dt").Settings.Zone; z != "America/New_York" {
		t.Fatalf("zone %q, want America/New_York", z)
	}
	before := h.game("dt").Deadline
	r := onlyTo(t, h.mail(testMaster, "deadline", "SIGNON Mdt pw-m\nSET DEADLINE 9999-12-31 23:30\nSET DEADLINE 2027-06-01 12:00\nSET DEADLINE +9000h\nSET MOVEMENT 9000h"), testMaster)
	body := strings.Join(strings.Fields(r.Body), " ") // sentences may be wrapped
	if n := strings.Count(body, "is more than a year ahead"); n != 2 {
		t.Errorf("reply has %d errors about dates a year ahead, want 2:\n%s", n, r.Body)
	}
	if n := strings.Count(body, "out of range (at most 366 days)"); n != 2 {
		t.Errorf("reply has %d errors about lengths, want 2:\n%s", n, r.Body)
	}
	g := h.game("dt")
	if !g.Deadline.Equal(before) || time.Duration(g.Settings.Movement) > engine.MaxLength {
		t.Errorf("deadline %v (was %v), movement %v: want them unchanged", g.Deadline, before, time.Duration(g.Settings.Movement))
	}
	// Within a year is still fine.
	h.mail(testMaster, "deadline", "SIGNON Mdt pw-m\nSET DEADLINE 2026-12-24 23:30")
	if want := time.Date(2026, 12, 25, 4, 30, 0, 0, time.UTC); !h.game("dt").Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v", h.game("dt").Deadline, want)
	}
	if g := h.game("dt"); g.Status != state.Active {
		t.Errorf("game is %s, want active", g.Status)
	}
}
