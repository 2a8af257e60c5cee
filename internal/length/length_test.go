package length

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

const (
	minute = time.Minute
	hour   = time.Hour
	day    = 24 * time.Hour
)

// Every way of writing a length that people use, and the issue's own
// examples, reads as the length meant.
func TestParse(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"20 minutes":             20 * minute,
		"2 days 4 hours":         2*day + 4*hour,
		"1d12h":                  day + 12*hour,
		"90m":                    90 * minute,
		"36 hours":               36 * hour,
		"1 week":                 7 * day,
		"72h":                    72 * hour,
		"3d":                     3 * day,
		"48":                     48 * hour,
		"1.5":                    90 * minute,
		"1h30m":                  90 * minute,
		"1.5h":                   90 * minute,
		"2 weeks":                14 * day,
		"1 day":                  day,
		"1 Day, 2 Hours":         day + 2*hour,
		"an hour and 10 minutes": hour + 10*minute,
		"a week":                 7 * day,
		"10 mins":                10 * minute,
		"3 hrs":                  3 * hour,
		"45 sec":                 45 * time.Second,
		"2 days and 4 hours":     2*day + 4*hour,
		"  20   MINUTES ":        20 * minute,
		"1w2d":                   9 * day,
		"0":                      0,
		"0h":                     0,
		"none":                   0,
		"no time":                0,
		"4 hours 2 days":         2*day + 4*hour,
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

// What is no length is refused with a message that quotes it and says
// how to write one; nothing is guessed.
func TestParseRefuses(t *testing.T) {
	for _, in := range []string{
		"", "tomorrow", "-3h", "3 fortnights", "3 days 2 days", "h", "3 3h", "3h 4",
		"1e3", "inf", "NaN", "0x10", "1..5h", "2 days; 4 hours", "3 months", "1h-30m",
		"200 weeks 1 day 99999999999999 hours", "1000000 days", "876001",
	} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) read a length", in)
			continue
		}
		msg := err.Error()
		if in != "" && !strings.Contains(msg, strings.TrimSpace(in)) {
			t.Errorf("Parse(%q): %q does not quote the input", in, msg)
		}
	}
}

// oneMany finds "1 days": a count of one with a plural noun.
var oneMany = regexp.MustCompile(`(^|[^0-9.])1 [a-z]+s\b`)

// What Spell writes, Parse reads back as the same length, for every
// minute of the first ten days, every day up to a year and lengths with
// seconds; and Spell names each unit with the noun agreeing.
func TestSpellReadsBack(t *testing.T) {
	var ds []time.Duration
	for d := minute; d <= 10*day; d += minute {
		ds = append(ds, d)
	}
	for d := day; d <= 366*day; d += day {
		ds = append(ds, d, d+time.Second, d+hour+minute+time.Second)
	}
	for _, d := range ds {
		s := Spell(d)
		got, err := Parse(s)
		if err != nil || got != d {
			t.Fatalf("Parse(Spell(%v) = %q) = %v, %v", d, s, got, err)
		}
		if oneMany.MatchString(s) {
			t.Fatalf("Spell(%v) = %q: the noun does not agree", d, s)
		}
	}
}

func TestSpell(t *testing.T) {
	for d, want := range map[time.Duration]string{
		20 * minute:       "20 minutes",
		2*day + 4*hour:    "2 days 4 hours",
		36 * hour:         "1 day 12 hours",
		7 * day:           "7 days",
		hour + minute:     "1 hour 1 minute",
		0:                 "no time",
		-hour:             "no time",
		time.Millisecond:  "less than a second",
		day + time.Second: "1 day 1 second",
		90 * time.Second:  "1 minute 30 seconds",
	} {
		if got := Spell(d); got != want {
			t.Errorf("Spell(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 centres"}, {1, "1 centre"}, {2, "2 centres"}, {34, "34 centres"}} {
		if got := Count(c.n, "centre"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// FuzzParse: whatever the text, Parse does not panic, and a length it
// reads is within range and reads back through Spell as itself (to the
// second, which is as fine as Spell writes).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"20 minutes", "2 days 4 hours", "1d12h", "90m", "36 hours", "1 week", "48", "1.5h", "an hour", "none", "9999999999999d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			return
		}
		if d < 0 || d > Longest {
			t.Fatalf("Parse(%q) = %v, out of range", s, d)
		}
		d = d.Truncate(time.Second)
		if d == 0 {
			return
		}
		back, err := Parse(Spell(d))
		if err != nil || back != d {
			t.Fatalf("Parse(%q) = %v, but Spell gives %q, read back as %v, %v", s, d, Spell(d), back, err)
		}
	})
}

// BenchmarkParse reads a length in words, as a SET line gives it.
func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		if _, err := Parse("2 days 4 hours 30 minutes"); err != nil {
			b.Fatal(err)
		}
	}
}
