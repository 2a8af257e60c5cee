package main

import (
	"strings"
	"testing"
)

func TestOrdersCommand(t *testing.T) {
	cases := []struct {
		args   []string
		stdin  string
		status int
		stdout string
		stderr string // a substring of standard error
	}{
		{[]string{"orders"}, "England: F Lon - Nth\nFrance\nA Par - Bur, A Mar S A Par - Bur\n", 0,
			"England: F lon - nth\nFrance: A par - bur\nFrance: A mar S A par - bur\n", ""},
		// Errors go to standard output, in their place, and set the status.
		{[]string{"orders", "-power", "England"}, "F Lon - Nth\nA Lvp - Burg\nF Edi - Nrg\n", 1,
			"England: F lon - nth\nline 2 col 9: unknown province \"Burg\" (did you mean Burgundy?)\nEngland: F edi - nwg\n", ""},
		{[]string{"orders", "-power", "E"}, "F Lon xyz, F Edi - Nth", 1,
			"line 1 col 7: expected \"-\", \"S\", \"C\" or \"H\" after \"F Lon\", found \"xyz\"\nEngland: F edi - nth\n", ""},
		// Without a power, orders are printed without one.
		{[]string{"orders"}, "A Par - Bur", 0, "A par - bur\n", ""},
		{[]string{"orders", "-phase", "F1901R"}, "Germany: A Mun - Boh\nA Ber D", 0,
			"Germany: A mun - boh\nA ber disband\n", ""},
		{[]string{"orders", "-phase", "retreat"}, "A Mun H", 1,
			"line 1 col 7: expected \"-\" or \"disband\" after \"A Mun\", found \"H\" (this is a retreat phase: a dislodged unit retreats or disbands)\n", ""},
		{[]string{"orders", "-phase", "W1901A", "-power", "russian"}, "Build F Stp/nc\nA Mos\nremove war\nwaive", 0,
			"Russia: build F stp/nc\nRussia: build A mos\nRussia: remove war\nRussia: waive\n", ""},
		{[]string{"orders", "-variant", "STANDARD", "-phase", "adjustment"}, "Build Par", 1,
			"line 1 col 7: build needs a unit type (A or F)\n", ""},
		{[]string{"orders"}, "", 0, "", ""},
		// "34, 35, 36": supply-centre constructions, and Jordan.
		{[]string{"orders", "-variant", "34-35-36", "-phase", "W1901A", "-power", "England"}, "A Lvp, s.c. Yor\nbuild sc Wales", 0,
			"England: build A lvp\nEngland: build sc yor\nEngland: build sc wal\n", ""},
		{[]string{"orders", "-variant", "343536"}, "Turkey: F Smy - Jordan\ns.c. Jordan", 1,
			"Turkey: F smy - jor\nline 2 col 1: \"s.c\": supply centre construction is an order of an adjustment phase, not of a movement phase\n", ""},
		// A power of two words, spelt as order lines may spell it; part of
		// a name is no name.
		{[]string{"orders", "-variant", "vietnam-war", "-power", "north-vietnam"}, "A thn - nov", 0,
			"North Vietnam: A thn - nov\n", ""},
		{[]string{"orders", "-variant", "vietnam-war", "-power", "South Vietnamese"}, "F Saigon H", 0,
			"South Vietnam: F sag H\n", ""},
		{[]string{"orders", "-variant", "vietnam-war", "-power", "north"}, "", 2, "", `unknown power "north"`},
		// Usage errors.
		{[]string{"orders", "-variant", "nowhere"}, "", 2, "", `unknown variant "nowhere"`},
		{[]string{"orders", "-phase", "S1901X"}, "", 2, "", `-phase "S1901X"`},
		{[]string{"orders", "-power", "Atlantis"}, "", 2, "", `unknown power "Atlantis"`},
		{[]string{"orders", "extra"}, "", 2, "", `unexpected argument "extra"`},
		{[]string{"orders", "-nope"}, "", 2, "", "flag provided but not defined"},
	}
	for _, c := range cases {
		var stdout, stderr strings.Builder
		status := run(c.args, strings.NewReader(c.stdin), &stdout, &stderr)
		if status != c.status || stdout.String() != c.stdout || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("gmd %s < %q:\nstatus %d, want %d\nstdout:\n%s\nwant:\n%s\nstderr: %s\nwant it to contain %q",
				strings.Join(c.args[1:], " "), c.stdin, status, c.status, stdout.String(), c.stdout, stderr.String(), c.stderr)
		}
	}
}

func TestOrdersCommandListed(t *testing.T) {
	var stderr strings.Builder
	run([]string{"help"}, strings.NewReader(""), &stderr, &stderr) // both streams: wherever the list goes
	if !strings.Contains(stderr.String(), "orders") {
		t.Errorf("help does not list orders:\n%s", stderr.String())
	}
}
