package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// Deadlines at a time of day, on some weekdays (njudge's SET MOVE CLOCK
// and SET MOVE DAYS). Without them a deadline falls the phase's length
// after the phase started, so deadlines drift through the day with each
// early processing.

// dayRule says when a deadline may fall on one weekday.
type dayRule uint8

const (
	anyTime   dayRule = iota // the whole day
	afternoon                // from noon on (njudge's lower-case letter)
	never                    // not that day ('-')
)

// deadlineRule is a state.DeadlineTimes read.
type deadlineRule struct {
	clock time.Duration // time of day after midnight; negative: any time
	days  [7]dayRule    // by time.Weekday
}

// noRule allows a deadline at any time.
var noRule = deadlineRule{clock: -1}

// DayLetters are the letters of njudge's DAYS, from Sunday.
const DayLetters = "SMTWTFS"

// TimesOf returns the deadline times of phase type t in s.
func TimesOf(s *state.GameSettings, t judge.PhaseType) *state.DeadlineTimes {
	switch t {
	case judge.Retreat:
		return &s.RetreatTimes
	case judge.Adjustment:
		return &s.AdjustmentTimes
	}
	return &s.MovementTimes
}

// RuleOf reads the deadline times of phase type t in s. Values are
// checked when they are set; one that does not read (a hand-edited
// database) counts as no rule rather than stopping the clock.
func RuleOf(s *state.GameSettings, t judge.PhaseType) deadlineRule {
	dt := TimesOf(s, t)
	r := noRule
	if dt.Clock != "" {
		if c, err := ParseClock(dt.Clock); err == nil {
			r.clock = c
		}
	}
	if dt.Days != "" {
		if days, err := ParseDays(dt.Days); err == nil {
			r.days = days
		}
	}
	return r
}

// ParseClock reads a time of day, "21:00" or "9:30".
func ParseClock(s string) (time.Duration, error) {
	h, m, ok := strings.Cut(s, ":")
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	hour, _ := strconv.Atoi(h)
	minute, _ := strconv.Atoi(m)
	if !ok || !digits(h) || !digits(m) || len(h) > 2 || len(m) != 2 || hour > 23 || minute > 59 {
		return 0, fmt.Errorf("cannot read the time of day %q (write it as hh:mm, for example 21:00)", s)
	}
	return time.Duration(hour)*time.Hour + time.Duration(minute)*time.Minute, nil
}

// ParseDays reads njudge's weekdays, "-MTWTF-": seven places from Sunday,
// each the day's letter, its lower-case letter (after noon only) or '-'.
func ParseDays(s string) ([7]dayRule, error) {
	var days [7]dayRule
	if len(s) != 7 {
		return days, fmt.Errorf("cannot read the days %q: write seven places from Sunday to Saturday, a letter for each day allowed and - for each day not, as -MTWTF-", s)
	}
	allowed := false
	for i := range 7 {
		switch c := s[i]; {
		case c == '-':
			days[i] = never
		case c == DayLetters[i]:
			days[i], allowed = anyTime, true
		case c == DayLetters[i]+'a'-'A':
			days[i], allowed = afternoon, true
		default:
			return days, fmt.Errorf("cannot read the days %q: place %d is %s, so it must be %c, %c or -", s, i+1, time.Weekday(i), DayLetters[i], DayLetters[i]+'a'-'A')
		}
	}
	if !allowed {
		return days, errors.New("the days allow no day at all")
	}
	return days, nil
}

// DeadlineFor is the deadline of a phase of type t that starts at now:
// the phase's length later, put at the game's time of day and on an
// allowed weekday for that type of phase, and after the absences of the
// players.
func DeadlineFor(g *state.Game, t judge.PhaseType, now time.Time) time.Time {
	r, loc := RuleOf(&g.Settings, t), ZoneOf(g)
	d := r.earliest(now, PhaseLength(&g.Settings, t), loc)
	// Leaving an absence may land on a forbidden time and fitting the rule
	// may land in an absence; both only move the deadline on, each
	// absence at most once.
	rounds := 2
	for i := range g.Players {
		rounds += len(g.Players[i].Absences)
	}
	for range rounds {
		next := r.fit(AfterAbsences(g, d), loc)
		if next.Equal(d) {
			break
		}
		d = next
	}
	return d
}

// earliest is the earliest deadline of a phase of the given length that
// starts at now. With a time of day, the length is counted on the clocks
// of the zone (three days from 21:00 is 21:00, even over a change of the
// clocks), less a little slack, as njudge counts 71 hours for its 72:
// a phase processed a few minutes after a 21:00 deadline then has its
// next deadline at 21:00 three days on, not four. The slack is an hour,
// or a 24th of a phase shorter than a day.
func (r deadlineRule) earliest(now time.Time, length time.Duration, loc *time.Location) time.Time {
	if r.clock < 0 {
		return now.Add(length)
	}
	days := int(length / (24 * time.Hour))
	slack := min(time.Hour, length/24)
	return now.In(loc).AddDate(0, 0, days).Add(length%(24*time.Hour) - slack)
}

// fit returns the first time at or after d that the rule allows.
func (r deadlineRule) fit(d time.Time, loc *time.Location) time.Time {
	if r == noRule {
		return d
	}
	t := d
	// Each round moves on to noon or to the next day, so two weeks of
	// rounds reach an allowed day (ParseDays allows at least one).
	for range 15 {
		if r.clock >= 0 {
			t = atClock(t, r.clock, loc)
		}
		l := t.In(loc)
		switch r.days[l.Weekday()] {
		case anyTime:
			return t
		case afternoon:
			if l.Hour() >= 12 {
				return t
			}
			t = wallTimes(l.Year(), l.Month(), l.Day(), 12*time.Hour, loc)[0]
		case never:
			// The same time of the next day; with a clock, the start
			// of the next day, where atClock finds the clock's time.
			tod := timeOfDay(l)
			if r.clock >= 0 {
				tod = 0
			}
			t = wallTimes(l.Year(), l.Month(), l.Day()+1, tod, loc)[0]
		}
	}
	return t
}

// timeOfDay is how long after midnight the clocks show l.
func timeOfDay(l time.Time) time.Duration {
	return time.Duration(l.Hour())*time.Hour + time.Duration(l.Minute())*time.Minute +
		time.Duration(l.Second())*time.Second + time.Duration(l.Nanosecond())
}

// atClock returns the first time at or after t when the clocks of loc
// show the time of day tod (or when they jump over it).
func atClock(t time.Time, tod time.Duration, loc *time.Location) time.Time {
	l := t.In(loc)
	for day := range 3 {
		for _, c := range wallTimes(l.Year(), l.Month(), l.Day()+day, tod, loc) {
			if !c.Before(t) {
				return c
			}
		}
	}
	return t // not reached: a day later the time has come
}

// wallTimes returns the instants at which the clocks of loc show the
// date and the time of day tod, earliest first: one as a rule, two when
// the clocks are put back over that time. When they are put forward over
// it, the time never shows, and the one instant returned is the moment
// that time would have been without the change (02:30 becomes 03:30 when
// the clocks go from 02:00 to 03:00). time.Date leaves both cases to
// chance.
func wallTimes(year int, month time.Month, day int, tod time.Duration, loc *time.Location) []time.Time {
	wall := time.Date(year, month, day, 0, 0, 0, 0, time.UTC).Add(tod)
	_, before := wall.Add(-24 * time.Hour).In(loc).Zone()
	_, after := wall.Add(24 * time.Hour).In(loc).Zone()
	var out []time.Time
	for _, offset := range slices.Compact([]int{before, after}) {
		t := wall.Add(-time.Duration(offset) * time.Second)
		l := t.In(loc)
		if time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC).Equal(wall) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return []time.Time{wall.Add(-time.Duration(before) * time.Second)}
	}
	slices.SortFunc(out, time.Time.Compare)
	return out
}

// Describe writes the rule for people: "at 21:00 on Mon Tue Wed Thu Fri",
// "at 21:00", "on Sat Sun afternoon"; "" when it allows any time.
func (r deadlineRule) Describe() string {
	var parts []string
	if r.clock >= 0 {
		parts = append(parts, fmt.Sprintf("at %02d:%02d", int(r.clock/time.Hour), int(r.clock%time.Hour/time.Minute)))
	}
	if r.days != ([7]dayRule{}) {
		var days []string
		for i, d := range r.days {
			name := time.Weekday(i).String()[:3]
			switch d {
			case anyTime:
				days = append(days, name)
			case afternoon:
				days = append(days, name+" afternoon")
			}
		}
		parts = append(parts, "on "+strings.Join(days, " "))
	}
	return strings.Join(parts, " ")
}

// PhaseTypes names the phase types in the master's SET commands.
var PhaseTypes = map[string]judge.PhaseType{
	"MOVEMENT": judge.Movement, "MOVE": judge.Movement, "MOVES": judge.Movement,
	"RETREAT": judge.Retreat, "RETREATS": judge.Retreat,
	"ADJUSTMENT": judge.Adjustment, "ADJUSTMENTS": judge.Adjustment, "ADJUST": judge.Adjustment,
	"BUILD": judge.Adjustment, "BUILDS": judge.Adjustment,
}

// IsTimesWord reports whether word starts a SET MOVE CLOCK or DAYS.
func IsTimesWord(word string) bool {
	return strings.EqualFold(word, "CLOCK") || strings.EqualFold(word, "DAYS")
}
