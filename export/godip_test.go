package export

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// godipText writes doc as godip records a game, for the tests: each
// phase's board and orders, and the board after the last.
func godipText(tb testing.TB, doc *Game) []byte {
	tb.Helper()
	var b bytes.Buffer
	board := func(pos *judge.Position) {
		m := pos.Map
		p := pos.Phase
		season := map[judge.Season]string{judge.Spring: "Spring", judge.Fall: "Fall", judge.Winter: "Fall"}[p.Season]
		fmt.Fprintf(&b, "PHASE %d %s %s\nPOSITIONS\n", p.Year, season, p.Type)
		kind := map[judge.UnitType]string{judge.Army: "army", judge.Fleet: "fleet"}
		for _, l := range m.Provinces() {
			if u := pos.Units[l]; u.Type != judge.NoUnit {
				fmt.Fprintf(&b, "\t%s: %s %s\n", m.PowerName(u.Power), kind[u.Type], m.LocName(u.Loc))
			}
		}
		for _, d := range pos.Dislodged {
			fmt.Fprintf(&b, "\t%s: %s/dislodged %s\n", m.PowerName(d.Power), kind[d.Type], m.LocName(d.Loc))
		}
		for _, c := range m.Centers() {
			if pw := pos.Centers[c]; pw != judge.NoPower {
				fmt.Fprintf(&b, "\t%s: supply %s\n", m.PowerName(pw), m.LocName(c))
			}
		}
	}
	for _, ph := range doc.Phases {
		pos, _, err := jsonpos.DecodePosition(ph.Position)
		if err != nil {
			tb.Fatal(err)
		}
		m := pos.Map
		board(pos)
		b.WriteString("ORDERS\n")
		orders, err := readOrders(pos, ph.Orders)
		if err != nil {
			tb.Fatal(err)
		}
		for _, o := range orders {
			n := m.LocName
			switch o.Kind {
			case judge.Hold:
				fmt.Fprintf(&b, "\t%s hold\n", n(o.Unit))
			case judge.Move:
				via := ""
				if o.ViaConvoy {
					via = " via convoy"
				}
				fmt.Fprintf(&b, "\t%s move %s%s\n", n(o.Unit), n(o.Target), via)
			case judge.SupportHold:
				fmt.Fprintf(&b, "\t%s support %s\n", n(o.Unit), n(o.Target))
			case judge.SupportMove, judge.Convoy:
				fmt.Fprintf(&b, "\t%s %s %s move %s\n", n(o.Unit), map[bool]string{true: "convoy", false: "support"}[o.Kind == judge.Convoy], n(o.Target), n(o.Dest))
			case judge.Disband:
				fmt.Fprintf(&b, "\t%s disband\n", n(o.Unit))
			case judge.Remove:
				fmt.Fprintf(&b, "\tremove %s\n", n(o.Unit))
			case judge.Build:
				fmt.Fprintf(&b, "\tbuild %s %s\n", map[judge.UnitType]string{judge.Army: "Army", judge.Fleet: "Fleet"}[o.Type], n(o.Unit))
			}
		}
	}
	final, _, err := jsonpos.DecodePosition(doc.Final)
	if err != nil {
		tb.Fatal(err)
	}
	board(final)
	return b.Bytes()
}

// TestGodipEveryBoard: on every board whose godip games gmd reads, a game
// gmd played, written as godip records games, reads back with the same
// positions and orders in every phase (waives aside: godip has none).
func TestGodipEveryBoard(t *testing.T) {
	for _, v := range GodipBoards() {
		t.Run(v, func(t *testing.T) {
			doc := gmdDoc(t, "heuristic", v, 3, []*state.Press{})
			text := godipText(t, doc)
			back, err := FromGodip(text, v, "copy", judge.DATC30, engine.ResultsText, t0)
			if err != nil {
				t.Fatalf("gmd's own game, as godip writes games: %v", err)
			}
			if err := Check(back); err != nil {
				t.Fatal(err)
			}
			if len(back.Phases) != len(doc.Phases) || !bytes.Equal(back.Final, doc.Final) {
				t.Fatalf("%d phases back, want %d; final %s, want %s", len(back.Phases), len(doc.Phases), back.Final, doc.Final)
			}
			for i, ph := range doc.Phases {
				got := back.Phases[i]
				want := maps.Clone(ph.Orders)
				for p, os := range want {
					if os = slices.DeleteFunc(slices.Clone(os), func(s string) bool { return s == "waive" }); len(os) == 0 {
						delete(want, p)
					} else {
						want[p] = os
					}
				}
				if !bytes.Equal(got.Position, ph.Position) || !maps.EqualFunc(got.Orders, want, slices.Equal) {
					t.Fatalf("phase %s: %v, want %v", ph.Phase, got.Orders, want)
				}
			}
		})
	}
}

// godipSample is a short game in godip's format, written for these
// tests (testdata/godip-pure.txt): on the pure board Austria and France
// take London, and England, its army dislodged with nowhere to go,
// disbands; Austria builds in the winter; then godip's board of Spring
// 1902, which gmd reaches too.
func godipSample(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile("testdata/godip-pure.txt")
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// TestFromGodip reads the hand-written game: gmd agrees, godip's empty Fall retreat
// passed over, and its Spring retreat too.
func TestFromGodip(t *testing.T) {
	doc, err := FromGodip([]byte(godipSample(t)), "pure", "g", judge.DATC30, engine.ResultsText, t0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ph := range doc.Phases {
		names = append(names, ph.Phase)
	}
	// England's army had nowhere to retreat: gmd removed it at once and
	// has no Spring retreat, where godip has England disband it.
	if !slices.Equal(names, []string{"S1901M", "F1901M", "W1901A"}) {
		t.Fatalf("phases %v, want S1901M F1901M W1901A", names)
	}
	if doc.Settings.Press != "" || len(doc.Press) != 0 {
		t.Errorf("press %q with %d messages, want none: godip records none", doc.Settings.Press, len(doc.Press))
	}
	if got := doc.Phases[2].Written["Austria"]; !slices.Equal(got, []string{"build Army vie"}) {
		t.Errorf("Austria's winter written %v, want godip's line", got)
	}
	if err := Check(doc); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", doc.Phases[0].Results)
}

// TestFromGodipRefuses: a record that disagrees with gmd, a board gmd
// does not replay, and malformed files each get an answer naming the
// phase or line.
func TestFromGodipRefuses(t *testing.T) {
	full := godipSample(t)
	for _, c := range []struct{ name, in, variant, want string }{
		{"support cut", strings.Replace(full, "\tpar support vie move lon\n", "\tpar support vie move lon\n\tber move par\n", 1), "pure",
			"phase 1901 Spring Movement: after it godip plays 1901 Spring Retreat, gmd F1901M"},
		{"winter skipped", strings.Replace(full, "\tbuild Army vie\n", "", 1), "pure",
			"phase 1901 Fall Adjustment: gmd and godip end it on different boards: in vie godip has Austria A vie, gmd nothing"},
		{"hundred", full, "hundred", "gmd replays those of"},
		{"unknown board", full, "nowhere", "gmd replays those of"},
		{"no phase", "POSITIONS\n", "pure", `line 1: "POSITIONS" before the first PHASE line`},
		{"season", strings.Replace(full, "1901 Spring Movement", "1901 Year Movement", 1), "pure", `season "Year"`},
		{"place", strings.Replace(full, "vie move lon", "vie move xyz", 1), "pure", `no place "xyz" on pure`},
		{"power", strings.Replace(full, "Austria: army vie", "Prussia: army vie", 1), "pure", `no power "Prussia"`},
		{"order", strings.Replace(full, "vie move lon", "vie jumps lon", 1), "pure", "not an order godip writes"},
		{"no unit", strings.Replace(full, "vie move lon", "swe move lon", 1), "pure", `no place "swe"`},
		{"empty", "", "pure", "no PHASE line"},
		{"one phase", "PHASE 1901 Spring Movement\nPOSITIONS\n\tFrance: army par\n", "pure", "at least one played phase"},
		{"two owners", strings.Replace(full, "\tFrance: supply par\n", "\tFrance: supply par\n\tItaly: supply par\n", 1), "pure", "two owners"},
		{"army at sea", "PHASE 1901 Spring Movement\nPOSITIONS\n\tEngland: army nth\n", "standard", "cannot stand in North Sea"},
		{"long line", "PHASE 1901 Spring Movement\n" + strings.Repeat("x", 2000) + "\n", "pure", "token too long"},
		{"stray line", "PHASE 1901 Spring Movement\nhello\n", "pure", `"hello" outside POSITIONS and ORDERS`},
	} {
		_, err := FromGodip([]byte(c.in), c.variant, "g", judge.DATC30, engine.ResultsText, t0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
}
