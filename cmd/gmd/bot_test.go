package main

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// TestBotCommand: gmd bot prints, for every player, one legal order a
// unit of the power, in the text gmd adjudicate reads back.
func TestBotCommand(t *testing.T) {
	m := variants.Standard()
	pos := judge.StartPosition(m)
	for _, player := range []string{"hold", "random", "heuristic", "search"} {
		for _, power := range []string{"France", "english", "R"} {
			for _, budget := range []string{"40", "20ms"} {
				args := []string{"bot", "-position", "../../testdata/s1901/position.json", "-power", power,
					"-player", player, "-seed", "3", "-budget", budget}
				var stdout, stderr strings.Builder
				if status := run(args, strings.NewReader(""), &stdout, &stderr); status != 0 || stderr.Len() > 0 {
					t.Fatalf("gmd %s: status %d, stderr %s", strings.Join(args[1:], " "), status, stderr.String())
				}
				parsed, errs := parser.ParseOrders(stdout.String(), parser.Options{Map: m, Phase: judge.Movement, Power: judge.NoPower})
				if len(errs) > 0 {
					t.Fatalf("gmd %s printed orders that do not read back: %v\n%s", strings.Join(args[1:], " "), errs, stdout.String())
				}
				p, _ := lookupPower(m, power)
				var orders []judge.Order
				for _, o := range parsed {
					if o.Power != p {
						t.Errorf("gmd %s: an order for %s: %s", strings.Join(args[1:], " "), m.PowerName(o.Power), o.CanonicalWithPower(m))
					}
					orders = append(orders, o.Order)
				}
				if len(orders) != pos.UnitCount()[p] {
					t.Errorf("gmd %s: %d orders for %d units:\n%s", strings.Join(args[1:], " "), len(orders), pos.UnitCount()[p], stdout.String())
				}
				for _, r := range judge.Adjudicate(pos, orders, judge.DATC30).Results {
					if r.Outcome == judge.Void {
						t.Errorf("gmd %s: void order %s: %s", strings.Join(args[1:], " "), r.Order.Canonical(m), r.Reason)
					}
				}
			}
		}
	}
}

// TestBotCommandErrors: usage mistakes get status 2 and a message that
// says what to do; nothing goes to standard output.
func TestBotCommandErrors(t *testing.T) {
	pos := "../../testdata/s1901/position.json"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"bot"}, "-position is required"},
		{[]string{"bot", "-position", pos}, "-power is required"},
		{[]string{"bot", "-position", pos, "-power", "Atlantis"}, `unknown power "Atlantis" in variant standard`},
		{[]string{"bot", "-position", pos, "-power", "France", "-player", "dumbbot"}, `no player "dumbbot" (players: hold, random, heuristic, search)`},
		{[]string{"bot", "-position", pos, "-power", "France", "-budget", "0"}, "-budget 0: want at least 1"},
		{[]string{"bot", "-position", pos, "-power", "France", "-budget", "soon"}, `-budget "soon": want a number of adjudications (2000) or a time (500ms)`},
		{[]string{"bot", "-position", "/nonexistent.json", "-power", "France"}, "no such file"},
		{[]string{"bot", "-position", "-", "-power", "France"}, "<stdin>: phase: missing"},
		{[]string{"bot", "-position", pos, "-power", "France", "extra"}, `unexpected argument "extra"`},
		{[]string{"bot", "play", "-seats", "search,nobody"}, `-seats: no player "nobody"`},
		{[]string{"bot", "play", "-variant", "nowhere"}, `unknown variant "nowhere"`},
		{[]string{"bot", "play", "-games", "0"}, "-games 0: want at least 1"},
		{[]string{"bot", "play", "-years", "0"}, "-years 0: want at least 1"},
		{[]string{"bot", "play", "-rules", "datc-9"}, "datc-9"},
		{[]string{"bot", "play", "x"}, `unexpected argument "x"`},
	}
	for _, c := range cases {
		var stdout, stderr strings.Builder
		status := run(c.args, strings.NewReader("{}"), &stdout, &stderr)
		if status != 2 || stdout.Len() > 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("gmd %s: status %d, stdout %q, stderr %q; want 2 and %q", strings.Join(c.args[1:], " "), status, stdout.String(), stderr.String(), c.want)
		}
	}
}

// TestBotPlay: gmd bot play plays the games and prints the table, with a
// row for each kind of player and its seats over the games.
func TestBotPlay(t *testing.T) {
	var stdout, stderr strings.Builder
	args := []string{"bot", "play", "-variant", "standard", "-games", "3", "-years", "2", "-seats", "search, random,heuristic", "-budget", "10"}
	if status := run(args, nil, &stdout, &stderr); status != 0 || stderr.Len() > 0 {
		t.Fatalf("status %d, stderr %s", status, stderr.String())
	}
	out := stdout.String()
	t.Log("\n" + out)
	for _, want := range []string{"3 games on Standard\n", "| player | seats | solos | leads | leads % | mean centres |",
		"\n| search | 3 | ", "\n| random | 3 | ", "\n| heuristic | 15 | "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
