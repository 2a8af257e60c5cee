package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

func init() {
	commands["orders"] = command{
		summary: "read orders on standard input and print them in canonical form",
		run:     runOrders,
	}
}

// runOrders is "gmd orders [-variant standard] [-phase S1901M|movement|
// retreat|adjustment] [-power England]": it prints one line per order read
// ("England: F lon - nth") and one per error ("line 3 col 9: ..."), in the
// order of the input, all on standard output so that a user sees each
// error beside its neighbours. The status is 1 if there was an error.
func runOrders(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd orders", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "standard", "the variant whose map names the places")
	phase := fs.String("phase", "movement", "the phase: an id like S1901M, or movement, retreat or adjustment")
	power := fs.String("power", "", "the power of orders that name none (name, adjective or letter)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gmd orders [-variant standard] [-phase S1901M|movement|retreat|adjustment] [-power England] < orders.txt")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gmd orders: unexpected argument %q (the orders are read on standard input)\n", fs.Arg(0))
		return 2
	}
	m, err := variants.Load(*variant)
	if err != nil {
		fmt.Fprintf(stderr, "gmd orders: %v\n", err)
		return 2
	}
	opt := parser.Options{Map: m, Power: judge.NoPower}
	if opt.Phase, err = phaseType(*phase); err != nil {
		fmt.Fprintf(stderr, "gmd orders: %v\n", err)
		return 2
	}
	if *power != "" {
		p, ok := lookupPower(m, *power)
		if !ok {
			fmt.Fprintf(stderr, "gmd orders: unknown power %q in variant %s\n", *power, m.Name)
			return 2
		}
		opt.Power = p
	}
	src, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gmd orders: reading standard input: %v\n", err)
		return 2
	}
	orders, errs := parser.ParseOrders(string(src), opt)
	w := bufio.NewWriter(stdout)
	// Both lists are in the order of the text; merge them.
	i, j := 0, 0
	for i < len(orders) || j < len(errs) {
		if j == len(errs) || i < len(orders) && before(orders[i].Line, orders[i].Col, errs[j].Line, errs[j].Col) {
			o := &orders[i]
			if o.Power == judge.NoPower {
				fmt.Fprintln(w, o.Canonical(m))
			} else {
				fmt.Fprintln(w, o.CanonicalWithPower(m))
			}
			i++
		} else {
			fmt.Fprintln(w, errs[j])
			j++
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "gmd orders: %v\n", err)
		return 2
	}
	if len(errs) > 0 {
		return 1
	}
	return 0
}

// lookupPower finds a power named on the command line: a letter, or a
// name or adjective spelt as order lines may spell it ("north-vietnam").
func lookupPower(m *judge.Map, s string) (judge.Power, bool) {
	p, ok := m.PowerByName(s)
	if words := strings.Fields(s); !ok && len(words) > 0 {
		var n int
		p, n = parser.MatchPower(m, words)
		ok = p != judge.NoPower && n == len(words)
	}
	return p, ok
}

func before(l1, c1, l2, c2 int) bool { return l1 < l2 || l1 == l2 && c1 < c2 }

// phaseType reads the -phase flag: a phase id ("S1901M", "F1901R",
// "W1901A") or the name of a phase type, which may be shortened to its
// first letter.
func phaseType(s string) (judge.PhaseType, error) {
	switch strings.ToLower(s) {
	case "m", "movement":
		return judge.Movement, nil
	case "r", "retreat", "retreats":
		return judge.Retreat, nil
	case "a", "adjustment", "adjustments", "b", "build", "builds":
		return judge.Adjustment, nil
	}
	p, err := judge.ParsePhase(s)
	if err != nil {
		return 0, fmt.Errorf("-phase %q: want a phase id like S1901M, or movement, retreat or adjustment", s)
	}
	return p.Type, nil
}
