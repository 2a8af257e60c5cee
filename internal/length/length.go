// Package length reads and writes lengths of time as people write them:
// "20 minutes", "2 days 4 hours", "1d12h", "90m", "36 hours", "1 week",
// or a bare number of hours ("48", as njudge counts). It is the one
// reader of lengths for the judge's commands (SET MOVEMENT, SET GRACE,
// SET DEADLINE +48h) and for judge.conf, and the one writer of the
// lengths the judge mails and shows, so that whatever the judge writes
// reads back as the same length.
//
// It says nothing of which lengths make sense where: the callers hold
// their own floors and ceilings.
package length

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Longest is the longest length Parse reads: a hundred years, far past
// any length the judge uses, and far from overflowing a time.Duration.
const Longest = 100 * 365 * 24 * time.Hour

// unit is one unit of time and the words that name it.
type unit struct {
	size  time.Duration
	words []string // singular first: the word Spell writes
}

// units are the units of time Parse reads, largest first.
var units = []unit{
	{7 * 24 * time.Hour, []string{"week", "weeks", "w", "wk", "wks"}},
	{24 * time.Hour, []string{"day", "days", "d"}},
	{time.Hour, []string{"hour", "hours", "h", "hr", "hrs"}},
	{time.Minute, []string{"minute", "minutes", "m", "min", "mins"}},
	{time.Second, []string{"second", "seconds", "s", "sec", "secs"}},
}

// unitOf returns the index in units of the unit named word, or -1.
func unitOf(word string) int {
	for i, u := range units {
		for _, w := range u.words {
			if w == word {
				return i
			}
		}
	}
	return -1
}

// Hint is how to write a length, for error messages.
const Hint = "write 72h, 3 days, 2 days 4 hours or 90 minutes"

// errUnread is the error for text that is no length.
func errUnread(s string) error {
	return fmt.Errorf("cannot read the length %q (%s)", s, Hint)
}

// Parse reads a length of time. It takes a bare number of hours ("48",
// "1.5"), "0", "none" or "no time" for no time at all, or any number of
// amounts each followed by a unit, with or without a space, separated by
// spaces, commas or "and": "2 days 4 hours", "1d12h", "1h30m", "90m",
// "1 week", "an hour and 10 minutes" ("a" and "an" count as 1; there are
// no fractions in words). Units are weeks, days, hours, minutes and seconds, in full
// or short (w, d, h, m, s, wk, hr, min, sec, and their plurals); case
// does not matter. Each unit may come once. Amounts may have a decimal
// part ("1.5h"). A negative length, or one longer than Longest, is an
// error.
func Parse(s string) (time.Duration, error) {
	text := strings.TrimSpace(s)
	low := strings.ToLower(text)
	switch low {
	case "":
		return 0, fmt.Errorf("missing length of time (%s)", Hint)
	case "none", "no time":
		return 0, nil
	}
	if h, err := strconv.ParseFloat(low, 64); err == nil && !strings.ContainsAny(low, "eEnNiIxX") {
		if h < 0 || h*float64(time.Hour) > float64(Longest) {
			return 0, fmt.Errorf("the length %q is out of range", text)
		}
		return time.Duration(h * float64(time.Hour)), nil
	}
	toks, err := tokens(low)
	if err != nil {
		return 0, errUnread(text)
	}
	var total float64
	seen := make([]bool, len(units))
	for i := 0; i < len(toks); i += 2 {
		if i+1 >= len(toks) {
			return 0, errUnread(text) // an amount without its unit
		}
		n, ok := amount(toks[i])
		u := unitOf(toks[i+1])
		if !ok || u < 0 {
			return 0, errUnread(text)
		}
		if seen[u] {
			return 0, fmt.Errorf("cannot read the length %q: %s twice", text, units[u].words[1])
		}
		seen[u] = true
		total += n * float64(units[u].size)
		if total > float64(Longest) {
			return 0, fmt.Errorf("the length %q is out of range", text)
		}
	}
	return time.Duration(math.Round(total)), nil
}

// amount reads the number before a unit: digits with an optional decimal
// part, or "a"/"an" for one.
func amount(tok string) (float64, bool) {
	if tok == "a" || tok == "an" {
		return 1, true
	}
	for _, r := range tok {
		if (r < '0' || r > '9') && r != '.' {
			return 0, false
		}
	}
	n, err := strconv.ParseFloat(tok, 64)
	return n, err == nil
}

// tokens splits a length into amounts and units, alternating: "2d12h" and
// "2 days, and 12 hours" both give 2, d(ays), 12, h(ours). It fails on a
// character that belongs in no length.
func tokens(s string) ([]string, error) {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == ',':
			i++
		case c >= '0' && c <= '9' || c == '.':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			out = append(out, s[i:j])
			i = j
		case c >= 'a' && c <= 'z':
			j := i
			for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
				j++
			}
			if w := s[i:j]; w != "and" {
				out = append(out, w)
			}
			i = j
		default:
			return nil, errors.New("not a length")
		}
	}
	return out, nil
}

// Spell writes a length as people do, in the words Parse reads back:
// "20 minutes", "1 hour 30 minutes", "2 days 4 hours", "3 days". Every
// unit from days down to seconds that is not zero is named (a week is
// written as 7 days, as game settings are); "no time" when d is not
// positive, "less than a second" below a second.
func Spell(d time.Duration) string {
	if d <= 0 {
		return "no time"
	}
	if d < time.Second {
		return "less than a second"
	}
	var parts []string
	for _, u := range units[1:] {
		if n := int64(d / u.size); n > 0 {
			parts = append(parts, Count(n, u.words[0]))
		}
		d %= u.size
	}
	return strings.Join(parts, " ")
}

// Count writes a count of a thing with the noun agreeing: "1 day",
// "2 days", "0 days". The plural is the noun with an s.
func Count[N int | int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(int64(n), 10) + " " + noun + "s"
}
