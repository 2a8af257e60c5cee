package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/internal/length"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// The clock's fixed intervals. The lengths of phases, the grace and the
// reminder are game settings; these are not, as in njudge.
const (
	// lateEvery is how often a late notice repeats during the grace.
	lateEvery = 24 * time.Hour
	// replaceEvery is how often a NoNMR game that waits for a replacement
	// says so again.
	replaceEvery = 48 * time.Hour
)

// Default phase lengths, used when a game's settings leave them at zero.
const (
	defaultMovement   = 72 * time.Hour
	defaultRetreat    = 24 * time.Hour
	DefaultAdjustment = 24 * time.Hour
)

// PhaseLength returns how long a phase of type t lasts in a game with
// settings s.
func PhaseLength(s *state.GameSettings, t judge.PhaseType) time.Duration {
	switch t {
	case judge.Retreat:
		return cmpOr(time.Duration(s.Retreat), defaultRetreat)
	case judge.Adjustment:
		return cmpOr(time.Duration(s.Adjustment), DefaultAdjustment)
	}
	return cmpOr(time.Duration(s.Movement), defaultMovement)
}

// ReminderShare is the largest part of a phase that its reminder may
// come before the deadline: a third, which is what the default 24 hours
// are of a 72-hour movement phase. A reminder of a day before a 20-minute
// deadline would come with the phase's start; a third of it keeps the
// reminder a reminder.
const ReminderShare = 3

// ReminderBefore returns how long before the current deadline of g its
// reminder goes: the master's SET REMINDER, or a third of the phase's
// length when that is shorter (to the minute); 0 for none.
func ReminderBefore(g *state.Game) time.Duration {
	rem := time.Duration(g.Settings.Reminder)
	if rem <= 0 {
		return 0
	}
	ph, err := CurrentPhase(g)
	if err != nil {
		return rem
	}
	return ScaledReminder(rem, PhaseLength(&g.Settings, ph.Type))
}

// ScaledReminder is rem, or reminderShare of a phase of length phase
// when that is shorter.
func ScaledReminder(rem, phase time.Duration) time.Duration {
	return min(rem, (phase / ReminderShare).Truncate(time.Minute))
}

// cmpOr returns d, or def when d is not positive: a zero length would
// make every phase late at once.
func cmpOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// CurrentPhase reads the phase of the game's stored position without
// decoding the whole position.
func CurrentPhase(g *state.Game) (judge.Phase, error) {
	var p struct {
		Phase string `json:"phase"`
	}
	if err := json.Unmarshal(g.Position, &p); err != nil {
		return judge.Phase{}, fmt.Errorf("game %s: position: %w", g.Name, err)
	}
	return judge.ParsePhase(p.Phase)
}

// StartClock sets the deadline of the game's current phase, counted from
// now (see DeadlineFor), and when Tick must next look at it. Call it after setting the game's status: a game that is not
// active gets no wake time.
func (m *Engine) StartClock(g *state.Game, now time.Time) {
	t := judge.Movement
	if p, err := CurrentPhase(g); err == nil {
		t = p.Type
	}
	m.StartClockFor(g, t, now)
}

// StartClockFor is StartClock for a phase of type t, for callers that
// already know the phase.
func (m *Engine) StartClockFor(g *state.Game, t judge.PhaseType, now time.Time) {
	m.SetDeadline(g, DeadlineFor(g, t, now), now)
}

// RestartClock gives the current phase a fresh length from now, as after
// a takeover or a RESUME, but never moves the deadline earlier than it
// already is (njudge's rule: a deadline never moves earlier).
func (m *Engine) RestartClock(g *state.Game, now time.Time) {
	t := judge.Movement
	if p, err := CurrentPhase(g); err == nil {
		t = p.Type
	}
	d := DeadlineFor(g, t, now)
	if g.Deadline.After(d) {
		d = g.Deadline
	}
	m.SetDeadline(g, d, now)
}

// SetDeadline makes d the deadline of the current phase: reminders and
// late notices start over, and the wake time follows.
func (m *Engine) SetDeadline(g *state.Game, d, now time.Time) {
	g.Deadline = d.UTC()
	g.Reminded = false
	g.LateNoticed, g.LateNamed = time.Time{}, nil
	Schedule(g, now)
}

// AfterAbsences moves d to the end of any absence of a player holding a
// seat that contains it, again and again while the new time falls in
// another absence. Only the seats' own players count: an abandoned or
// eliminated seat has nobody whose absence matters.
func AfterAbsences(g *state.Game, d time.Time) time.Time {
	// Each move goes to the end of a different absence, so the number of
	// absences bounds the loop; the bound also guards against bad data.
	n := 0
	for i := range g.Players {
		n += len(g.Players[i].Absences)
	}
	for range n {
		moved := false
		for i := range g.Players {
			p := &g.Players[i]
			if p.Power == "" || p.Status != state.Playing {
				continue
			}
			for _, a := range p.Absences {
				if !d.Before(a.From) && d.Before(a.To) {
					d, moved = a.To, true
				}
			}
		}
		if !moved {
			break
		}
	}
	return d
}

// Schedule sets g.Wake to the next event of the clock after now: the
// reminder, the deadline, the next late notice, the end of the grace, or
// the next "waiting for replacements" notice. It does not look at the
// orders; see refresh for early processing.
func Schedule(g *state.Game, now time.Time) {
	if g.Status != state.Active {
		g.Wake = time.Time{}
		return
	}
	g.Wake = NextEvent(g, now)
}

// NextEvent is the time of the clock's next event after now (or now, when
// one is due).
func NextEvent(g *state.Game, now time.Time) time.Time {
	d := g.Deadline
	if now.Before(d) {
		if rem := ReminderBefore(g); !g.Reminded && rem > 0 && d.Add(-rem).After(now) {
			return d.Add(-rem)
		}
		return d
	}
	// After the deadline, LateNoticed is when the game last said who it
	// waits for: a late notice during the grace, a call for replacements
	// after it.
	if g.LateNoticed.IsZero() {
		return now
	}
	end := GraceEnd(g)
	if now.Before(end) {
		return minTime(g.LateNoticed.Add(lateEvery), end)
	}
	if g.LateNoticed.Before(end) {
		// The last notice was a late notice: the end of the grace is due.
		return now
	}
	return g.LateNoticed.Add(replaceEvery)
}

// GraceEnd is when the grace of the current phase runs out.
func GraceEnd(g *state.Game) time.Time {
	return g.Deadline.Add(time.Duration(max(g.Settings.Grace, 0)))
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// OrdersChanged is called after any change to a game's orders or WAIT
// flags (and after a seat changes hands): it brings the wake time forward
// to now when the phase can be processed, and otherwise puts it back on
// the clock's next event.
func (m *Engine) OrdersChanged(g *state.Game, now time.Time) {
	if g.Status != state.Active {
		Schedule(g, now)
		return
	}
	pos, _, err := m.Position(g)
	if err != nil {
		// Tick will meet the same error and report it.
		Schedule(g, now)
		return
	}
	m.Refresh(g, pos, now)
}

// Refresh sets the wake time of an active game whose current position is
// pos: now if the phase can be processed, else the clock's next event.
func (m *Engine) Refresh(g *state.Game, pos *judge.Position, now time.Time) {
	Schedule(g, now)
	if g.Status == state.Active && m.Survey(g, pos).due(g, now) {
		g.Wake = now
	}
}

// survey is who the current phase waits for.
type survey struct {
	// Missing lists the seats (indexes in Game.Players) that hold the
	// phase back: playing or abandoned seats whose power has orders to
	// give and has not given them all. Seats in civil disorder and
	// eliminated seats never hold a phase back.
	Missing []int
	// wait is set when a playing player asked for no early processing.
	wait bool
	// playing is set when at least one seat is played by someone.
	playing bool
}

// Survey looks at every seat of g for the phase of pos.
func (m *Engine) Survey(g *state.Game, pos *judge.Position) survey {
	var sv survey
	for i := range g.Players {
		p := &g.Players[i]
		if p.Power == "" {
			continue
		}
		switch p.Status {
		case state.Playing:
			sv.playing = true
			sv.wait = sv.wait || p.Wait
		case state.Abandoned:
		default:
			continue
		}
		if !m.Complete(g, pos, p.Power) {
			sv.Missing = append(sv.Missing, i)
		}
	}
	return sv
}

// ready reports whether the phase may be processed before its deadline:
// every seat that owes orders has given them, nobody asked to WAIT, and
// somebody plays at all (a game of seats in civil disorder only moves at
// its deadlines, rather than racing through phase after phase).
func (sv survey) ready() bool {
	return len(sv.Missing) == 0 && !sv.wait && sv.playing
}

// due reports whether the phase should be processed at now: early when
// ready, and at or after the deadline as soon as nothing is missing,
// whatever WAIT says.
func (sv survey) due(g *state.Game, now time.Time) bool {
	if sv.ready() {
		return true
	}
	return len(sv.Missing) == 0 && !now.Before(g.Deadline)
}

// ParseDeadline reads the date of SET DEADLINE in the game's zone:
// "2026-12-24 23:30", "2026-12-24T23:30", "Dec 24 23:30" (the next such
// date), "24 Dec 2026 23:30", "Dec 24 2026 23:30", or "+48h" / "+2d"
// (counted from now).
func ParseDeadline(s string, loc *time.Location, now time.Time) (time.Time, error) {
	s = strings.Join(strings.Fields(s), " ")
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		d, err := ParseLength(rest)
		if err != nil {
			return time.Time{}, err
		}
		return now.Add(d), nil
	}
	for _, layout := range []string{"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05",
		"Jan 2 2006 15:04", "2 Jan 2006 15:04", "Mon Jan 2 2006 15:04", "Mon Jan 02 2006 15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	for _, layout := range []string{"Jan 2 15:04", "2 Jan 15:04"} {
		t, err := time.ParseInLocation(layout, s, loc)
		if err != nil {
			continue
		}
		// No year: the first such date from now on.
		local := now.In(loc)
		t = time.Date(local.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), 0, 0, loc)
		if t.Before(now) {
			t = t.AddDate(1, 0, 0)
		}
		return t, nil
	}
	return time.Time{}, fmt.Errorf("cannot read the date %q (write 2026-12-24 23:30, Dec 24 23:30 or +48h)", s)
}

// ParseLength reads a length of time as the master writes it
// (length.Parse: "72h", "3 days", "2 days 4 hours", "48" hours) and holds
// it to maxLength.
func ParseLength(s string) (time.Duration, error) {
	d, err := length.Parse(s)
	if err != nil {
		return 0, err
	}
	if d > MaxLength {
		return 0, fmt.Errorf("the length %q is out of range (at most %d days)", strings.TrimSpace(s), MaxLength/(24*time.Hour))
	}
	return d, nil
}

// MaxLength is the longest length of time a master may set: a phase, a
// grace, a reminder, a deadline given as +48h. Anything longer is a
// mistake, and added to now it would take a date past what the judge
// can store.
const MaxLength = 366 * 24 * time.Hour

// LatestDate is the furthest ahead a date a player or master writes may
// be at now (a deadline, the end of an absence): a year. A judge cannot
// store a date past the year 9999, and a game has no use for one so far
// away.
func LatestDate(now time.Time) time.Time { return now.AddDate(1, 0, 0) }

// SpellLength writes a length of time as people do, in words that
// ParseLength reads back: "20 minutes", "2 days 4 hours".
func SpellLength(d time.Duration) string { return length.Spell(d) }

// SpellLeft writes the time left before an event for people, to the
// nearest minute: "2 days 23 hours", "5 minutes", "less than a minute".
func SpellLeft(d time.Duration) string {
	if d = d.Round(time.Minute); d <= 0 {
		return "less than a minute"
	}
	return SpellLength(d)
}
