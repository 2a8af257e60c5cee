package engine

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/state"
)

// votes builds a game of seven seats, A to G, from a description of
// each: its status ("" playing, "cd", "abandoned", "out" eliminated) and
// vote ("draw" for every survivor, "draw:ABC" for those powers, or
// "concede:X").
func votes(nodias bool, seats map[string]string) *state.Game {
	g := &state.Game{Settings: state.GameSettings{NoDIAS: nodias}}
	for _, p := range strings.Split("ABCDEFG", "") {
		s := state.Player{Power: p, Status: state.Playing}
		status, vote, _ := strings.Cut(seats[p], " ")
		switch status {
		case "cd":
			s.Status = state.Disorder
		case "abandoned":
			s.Status = state.Abandoned
		case "out":
			s.Status = state.Eliminated
		case "":
		default:
			vote = status
		}
		kind, arg, _ := strings.Cut(vote, ":")
		switch kind {
		case "draw":
			s.Draw = true
			if arg != "" {
				s.DrawWith = strings.Split(arg, "")
			}
		case "concede":
			s.Concede = arg
		}
		g.Players = append(g.Players, s)
	}
	return g
}

// all gives every seat of A to G the same description.
func all(desc string, except map[string]string) map[string]string {
	out := map[string]string{}
	for _, p := range strings.Split("ABCDEFG", "") {
		out[p] = desc
	}
	for p, d := range except {
		out[p] = d
	}
	return out
}

func TestDrawPasses(t *testing.T) {
	for _, c := range []struct {
		name   string
		nodias bool
		seats  map[string]string
		want   string // the powers drawn, "" for no draw
	}{
		{"DIAS, every vote", false, all("draw", nil), "ABCDEFG"},
		{"DIAS, one missing", false, all("draw", map[string]string{"C": ""}), ""},
		{"DIAS, civil disorder shares", false, all("draw", map[string]string{"C": "cd", "D": "abandoned", "E": "out"}), "ABCDFG"},
		{"DIAS ignores lists", false, all("draw:AB", nil), "ABCDEFG"},
		{"DIAS, nobody plays", false, all("cd", nil), ""},
		{"NODIAS, one list", true, all("draw:ABC", nil), "ABC"},
		{"NODIAS, plain votes", true, all("draw", nil), "ABCDEFG"},
		{"NODIAS, the largest accepted", true, all("draw:ABCD", map[string]string{"A": "draw", "B": "draw:ABC", "D": "draw:ABC"}), "ABC"},
		{"NODIAS, a voter named itself and is left out", true, all("draw:ABC", map[string]string{"C": "draw:CDE"}), ""},
		{"NODIAS, a voter left itself out", true, all("draw:AB", map[string]string{"G": "draw:ABF"}), "AB"},
		{"NODIAS, a voter named itself", true, all("draw:AB", map[string]string{"G": "draw:ABG"}), ""},
		{"NODIAS, one power only", true, all("draw:AB", map[string]string{"C": "draw:BC"}), ""},
		{"NODIAS, eliminated named", true, all("draw:ABE", map[string]string{"E": "out"}), "AB"},
		{"NODIAS, one missing", true, all("draw:AB", map[string]string{"F": ""}), ""},
	} {
		got := strings.Join(DrawPasses(votes(c.nodias, c.seats)), "")
		if got != c.want {
			t.Errorf("%s: draw %q, want %q", c.name, got, c.want)
		}
	}
}

func TestConcessionPasses(t *testing.T) {
	for _, c := range []struct {
		name  string
		seats map[string]string
		want  string
	}{
		{"every other survivor", all("concede:A", map[string]string{"A": ""}), "A"},
		{"the winner's own vote does not count", all("concede:A", nil), "A"},
		{"one missing", all("concede:A", map[string]string{"A": "", "B": ""}), ""},
		{"two winners", all("concede:A", map[string]string{"A": "", "B": "concede:C"}), ""},
		{"civil disorder and eliminated do not vote", all("concede:A", map[string]string{"A": "", "B": "cd", "C": "out"}), "A"},
		{"nobody conceded", all("", nil), ""},
		{"to an eliminated power", all("concede:A", map[string]string{"A": "out"}), ""},
	} {
		if got := ConcessionPasses(votes(false, c.seats)); got != c.want {
			t.Errorf("%s: concession to %q, want %q", c.name, got, c.want)
		}
	}
}

// TestRankSurvivors ranks a standard board's survivors by their centres:
// equals share a place, the map's order between them, and the
// eliminated are not ranked.
func TestRankSurvivors(t *testing.T) {
	pos, _, err := jsonpos.DecodePosition([]byte(`{"variant":"standard","phase":"S1905M",
	 "centers":{"lon":"England","edi":"England","lvp":"England","nwy":"England",
	  "par":"France","bre":"France","mar":"France","spa":"France","ber":"Germany","mos":"Russia"}}`))
	if err != nil {
		t.Fatal(err)
	}
	g := &state.Game{}
	for _, p := range []string{"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"} {
		s := state.Player{Power: p, Status: state.Playing}
		if p == "Austria" || p == "Italy" || p == "Turkey" {
			s.Status = state.Eliminated
		}
		g.Players = append(g.Players, s)
	}
	got := RankLines(rankSurvivors(g, pos), 7)
	want := []string{" 1. England   4", " 1. France    4", " 3. Germany   1", " 3. Russia    1"}
	if !slices.Equal(got, want) {
		t.Errorf("ranking %q, want %q", got, want)
	}
	if l := LargestPower(pos); l != "" {
		t.Errorf("largest power %q with England and France tied", l)
	}
}

// BenchmarkDrawPasses counts the votes of a game of 34 powers (Chaos)
// without DIAS, every seat naming the same 17 powers: the check every
// vote, RESIGN, EJECT and lost seat runs.
func BenchmarkDrawPasses(b *testing.B) {
	g := &state.Game{Settings: state.GameSettings{NoDIAS: true}}
	var names []string
	for i := range 34 {
		names = append(names, "P"+strconv.Itoa(i))
	}
	for _, n := range names {
		g.Players = append(g.Players, state.Player{Power: n, Status: state.Playing, Draw: true, DrawWith: names[:17]})
	}
	for b.Loop() {
		if len(DrawPasses(g)) != 17 {
			b.Fatal("no draw")
		}
	}
}
