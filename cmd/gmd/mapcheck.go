package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

const mapUsage = `usage: gmd map check FILE

Loads a map file (the format is described at the top of standard.map and in
docs/variants.md) as gmd loads its own variants, and prints its problems, one per
line as FILE:LINE: message, with status 1; or a summary of the map, its
board's figures and its powers, with status 0. A map may be built on an
embedded variant ("base standard").

`

// runMapCheck is gmd map check (gmd map, map.go, hands it the words
// from "check" on).
func runMapCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if h := args[len(args)-1]; len(args) <= 2 && (h == "-h" || h == "-help" || h == "--help") {
		fmt.Fprint(stderr, mapUsage)
		return 0
	}
	if len(args) != 2 || args[0] != "check" {
		fmt.Fprint(stderr, mapUsage)
		return 2
	}
	path := args[1]
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "gmd map check: %v\n", err)
		return 1
	}
	name := strings.ToLower(strings.TrimSuffix(filepath.Base(path), ".map"))
	m, err := judge.ParseMapFrom(name, src, variants.Source)
	if err != nil {
		for _, e := range mapErrors(err) {
			if e.File == name+".map" {
				e.File = path // the file as the user named it
			}
			fmt.Fprintln(stderr, e.Error())
		}
		return 1
	}
	armies, fleets := 0, 0
	for a := range m.Locs {
		la := judge.Loc(a)
		fleets += len(m.Neighbours(nil, judge.Fleet, la))
		if m.Province(la) == la {
			armies += len(m.Neighbours(nil, judge.Army, la))
		}
	}
	fmt.Fprintf(stdout, "%s: %s\n", path, mapSummary(m))
	neutral, impassable := "", 0
	if n := countNeutral(m); n > 0 {
		neutral = fmt.Sprintf(", %d of them neutral", n)
	}
	for _, p := range m.Provinces() {
		if m.Locs[p].Impassable {
			impassable++
		}
	}
	fmt.Fprintf(stdout, "  %d provinces (%d places with the split coasts), %d army and %d fleet moves, %d units at the start%s\n",
		len(m.Provinces()), m.NumLocs(), armies, fleets, len(m.StartUnits), neutral)
	if impassable > 0 {
		fmt.Fprintf(stdout, "  %d impassable %s\n", impassable, map[bool]string{true: "province", false: "provinces"}[impassable == 1])
	}
	fmt.Fprint(stdout, wrapPowers(m, "  ", 78))
	return 0
}

// countNeutral counts the neutral units of m's starting position.
func countNeutral(m *judge.Map) int {
	n := 0
	for _, u := range m.StartUnits {
		if u.Power == judge.NoPower {
			n++
		}
	}
	return n
}

// mapErrors lists the *judge.MapError values in err, which ParseMapFrom
// joins when there are several.
func mapErrors(err error) []*judge.MapError {
	var me *judge.MapError
	if errors.As(err, &me) && me == err {
		return []*judge.MapError{me}
	}
	var out []*judge.MapError
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			out = append(out, mapErrors(e)...)
		}
		return out
	}
	if errors.As(err, &me) {
		return []*judge.MapError{me}
	}
	return []*judge.MapError{{Msg: err.Error()}}
}
