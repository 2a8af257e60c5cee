package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

func init() {
	commands["variants"] = command{
		summary: "list the variants with their powers, centres and victory counts",
		run:     runVariants,
	}
}

const variantsUsage = `usage: gmd variants

Lists every variant gmd plays (the names CREATE and "variant" in gmd
adjudicate take), each with its title, number of powers, supply centres,
victory count, first phase and build rule, and then its powers with their
letters.

`

func runVariants(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gmd variants", flag.ContinueOnError)
	if code, ok := parseFlags(fs, args, stderr, variantsUsage); !ok {
		return code
	}
	status := 0
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			fmt.Fprintf(stderr, "gmd variants: %v\n", err)
			status = 1
			continue
		}
		fmt.Fprintf(stdout, "%s: %s\n", name, mapSummary(m))
		fmt.Fprint(stdout, wrapPowers(m, "  ", 78))
	}
	return status
}

// mapSummary describes a map on one line: "Standard, 7 powers, 34 supply
// centres, victory 18, first phase S1901M, builds in home centres".
func mapSummary(m *judge.Map) string {
	victory := fmt.Sprintf("victory %d", m.VictoryCenters)
	if m.DynamicVictory {
		victory += " (a majority of the centres at the time)"
	}
	if m.VictoryLead > 0 {
		victory += fmt.Sprintf(" or a lead of %d falling by one a year", m.VictoryLead)
	}
	s := fmt.Sprintf("%s, %d powers, %d supply centres, %s, first phase %s, builds %s",
		m.Title, len(m.Powers), len(m.Centers()), victory, m.StartPhase(), m.Builds)
	if m.Construction {
		s += ", centres may be built"
	}
	if m.Base != "" {
		s += ", on the " + m.Base + " board"
	}
	return s
}

// wrapPowers lists the powers of m with their letters, "Austria (A),
// England (E), ...", in lines of at most width columns after indent.
func wrapPowers(m *judge.Map, indent string, width int) string {
	var b, line strings.Builder
	for i, p := range m.Powers {
		item := fmt.Sprintf("%s (%c)", p.Name, p.Letter)
		if i < len(m.Powers)-1 {
			item += ","
		}
		if line.Len() > 0 && len(indent)+line.Len()+1+len(item) > width {
			b.WriteString(indent + line.String() + "\n")
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(item)
	}
	if line.Len() > 0 {
		b.WriteString(indent + line.String() + "\n")
	}
	return b.String()
}
