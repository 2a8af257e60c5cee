package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

func init() {
	commands["bot"] = command{
		summary: "write a bot's orders for one power, or play games between bots",
		run:     runBot,
	}
}

const botUsage = `usage: gmd bot -position pos.json -power France [-player search] [-seed n] [-budget 2000|500ms]
       gmd bot play [-variant standard] [-games 10] [-seats search,heuristic] [-years 15] [-seed n] [-budget n]

The first form prints the orders the bot gives the power in the position
(JSON, as gmd adjudicate reads it; - for standard input), one a line, in
the form gmd adjudicate -orders reads.

"gmd bot play" plays whole games between bots and prints the results
table: for each kind of player its seats, solos, leads (games it ended
alone with the most centres, solos included) and mean centres at the end.
-seats lists the players of the first seats; the last fills the others,
and the seats turn by one power each game, so that over as many games as
powers each named player sits at every power once. A game ends with a
solo or after -years years.

Players: hold (civil disorder), random, heuristic, search. -budget is
the search's: a number is adjudications a phase, and the same seed and
number always give the same orders; a length of time (500ms) searches
for that long, and the orders then depend on the machine.

Flags:
`

func runBot(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "play" {
		return runBotPlay(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("gmd bot", flag.ContinueOnError)
	posFile := fs.String("position", "", "position `file` (JSON); - for standard input")
	powerName := fs.String("power", "", "the power to play (name, adjective or letter)")
	player := fs.String("player", "search", "the player: hold, random, heuristic or search")
	seed := fs.Uint64("seed", 1, "the player's seed")
	budget := fs.String("budget", strconv.Itoa(bot.DefaultBudget), "the search's budget: adjudications (2000) or time (500ms)")
	if status, ok := parseFlags(fs, args, stderr, botUsage); !ok {
		return status
	}
	fail := failer("gmd bot", stderr)
	switch {
	case *posFile == "":
		return fail("-position is required (see gmd bot -h)")
	case *powerName == "":
		return fail("-power is required (see gmd bot -h)")
	}
	data, err := readInput(*posFile, stdin)
	if err != nil {
		return fail("%v", err)
	}
	pos, rules, err := jsonpos.DecodePosition(data)
	if err != nil {
		return fail("%s: %v", inputName(*posFile), err)
	}
	power, ok := lookupPower(pos.Map, *powerName)
	if !ok {
		return fail("unknown power %q in variant %s", *powerName, pos.Map.Name)
	}
	c, err := botConfig(rules, *seed, *budget)
	if err != nil {
		return fail("%v", err)
	}
	p, err := bot.New(*player, c)
	if err != nil {
		return fail("%v", err)
	}
	var b strings.Builder
	for _, o := range p.Orders(pos, power) {
		b.WriteString(o.CanonicalWithPower(pos.Map))
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		return fail("%v", err)
	}
	return 0
}

// botConfig reads -budget: a count of adjudications, or a length of time
// to search (with no limit on the count).
func botConfig(rules judge.Rules, seed uint64, budget string) (bot.Config, error) {
	c := bot.Config{Rules: rules, Seed: seed}
	if n, err := strconv.Atoi(budget); err == nil {
		if n < 1 {
			return c, fmt.Errorf("-budget %d: want at least 1", n)
		}
		c.Budget = n
		return c, nil
	}
	d, err := time.ParseDuration(budget)
	if err != nil || d <= 0 {
		return c, fmt.Errorf("-budget %q: want a number of adjudications (2000) or a time (500ms)", budget)
	}
	c.Budget, c.MaxTime = math.MaxInt32, d
	return c, nil
}

// failer returns a command's way to report a mistake: the message on
// stderr after the command's name, and status 2.
func failer(name string, stderr io.Writer) func(format string, args ...any) int {
	return func(format string, args ...any) int {
		fmt.Fprintf(stderr, name+": "+format+"\n", args...)
		return 2
	}
}

func runBotPlay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd bot play", flag.ContinueOnError)
	variant := fs.String("variant", "standard", "the board")
	ruleName := fs.String("rules", "datc-3.0", "the rule set")
	games := fs.Int("games", 10, "how many games to play")
	seats := fs.String("seats", "search,heuristic", "the players of the first seats, comma-separated; the last fills the rest")
	years := fs.Int("years", 15, "the most years a game lasts")
	seed := fs.Uint64("seed", 1, "the seed the players' seeds are drawn from")
	budget := fs.Int("budget", 200, "the search's adjudications a phase")
	if status, ok := parseFlags(fs, args, stderr, botUsage); !ok {
		return status
	}
	fail := failer("gmd bot play", stderr)
	m, err := variants.Load(*variant)
	if err != nil {
		return fail("%v", err)
	}
	rules, err := judge.RulesByName(*ruleName)
	if err != nil {
		return fail("%v", err)
	}
	kinds := strings.Split(*seats, ",")
	for i, k := range kinds {
		kinds[i] = strings.TrimSpace(k)
		if _, err := bot.New(kinds[i], bot.Config{}); err != nil {
			return fail("-seats: %v", err)
		}
	}
	switch {
	case *games < 1:
		return fail("-games %d: want at least 1", *games)
	case *years < 1:
		return fail("-years %d: want at least 1", *years)
	case *budget < 1:
		return fail("-budget %d: want at least 1", *budget)
	}
	t, err := bot.Series(m, rules, kinds, *games, m.StartYear+*years-1, *seed, *budget)
	if err != nil {
		fail("%v", err)
		return 1
	}
	if _, err := io.WriteString(stdout, t.String()); err != nil {
		return fail("%v", err)
	}
	return 0
}
