package report

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gmdjudge/gmd/judge"
)

// The results of boards with more than seven powers: testdata/maps holds
// the standard board with 12 powers and with 34 (one centre each, as in
// Chaos, with its letters), made for these tests only.

// crowdMap loads one of the test maps of ../testdata/maps.
func crowdMap(t *testing.T, name string) *judge.Map {
	t.Helper()
	src, err := os.ReadFile("../testdata/maps/" + name + ".map")
	if err != nil {
		t.Fatal(err)
	}
	m, err := judge.ParseMap(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The lines the classic layout lets run past 78 characters: an order line
// (one order a line, however long) and a continued line of the ownership
// table, which njudge breaks after the comma that lands in column 79.
var (
	crowdOrderLine     = regexp.MustCompile(`^[A-Za-z]+: (Army|Fleet) `)
	crowdOwnershipLine = regexp.MustCompile(`^.{78},$`)
)

// wantClassicWidth fails for every line of text longer than 78 characters
// but the two exceptions above.
func wantClassicWidth(t *testing.T, text string) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if utf8.RuneCountInString(l) > 78 && !crowdOrderLine.MatchString(l) && !crowdOwnershipLine.MatchString(l) {
			t.Errorf("line %d has %d characters:\n%s", i+1, utf8.RuneCountInString(l), l)
		}
	}
}

// TestManyPowersFall plays a Fall on the 12- and 34-power boards with the
// adjudicator: the first power owns the centres of a third of the others,
// whose units are gone, and the last has an army more than its centres.
// The results list every power's orders, and the ownership table and the
// build counts keep njudge's columns: each power's centres start in one
// column, continued lines are indented to it, and every count line has its
// numbers in the same columns, whatever the length of the power's name.
func TestManyPowersFall(t *testing.T) {
	for _, name := range []string{"crowd12", "crowd34"} {
		t.Run(name, func(t *testing.T) {
			m := crowdMap(t, name)
			f := &fixture{t, m}
			pos := judge.StartPosition(m)
			pos.Phase = judge.Phase{Season: judge.Fall, Year: 1901, Type: judge.Movement}
			first, last := judge.Power(0), judge.Power(len(m.Powers)-1)
			// The first power owns the centres of the next few powers,
			// which have lost their units.
			taken := (len(m.Powers) - 2) / 3
			for _, c := range pos.CenterList() {
				if owner := pos.Centers[c]; owner > first && int(owner) <= taken {
					pos.Centers[c] = first
				}
			}
			for i, u := range pos.Units {
				if u.Type != judge.NoUnit && u.Power > first && int(u.Power) <= taken {
					pos.Units[i] = judge.Unit{Loc: judge.NoLoc}
				}
			}
			// The last power has an army more than it has centres.
			if err := pos.Place(judge.Unit{Type: judge.Army, Power: last, Loc: f.loc("sil")}); err != nil {
				t.Fatal(err)
			}
			var orders []judge.Order
			for _, u := range pos.Units {
				if u.Type != judge.NoUnit {
					o := judge.Order{Kind: judge.Hold, Power: u.Power, Type: u.Type, Unit: u.Loc, Target: judge.NoLoc, Dest: judge.NoLoc}
					orders = append(orders, o)
				}
			}
			res := judge.Adjudicate(pos, orders, judge.DATC30)
			if !res.OwnershipChanged || res.Next == nil {
				t.Fatalf("the Fall did not end the year: %+v", res)
			}
			var buf bytes.Buffer
			if err := WriteResults(&buf, pos, res); err != nil {
				t.Fatal(err)
			}
			got := buf.String()
			wantClassicWidth(t, got)

			// Every power with a unit has its order line.
			for _, u := range pos.Units {
				if u.Type != judge.NoUnit {
					line := m.Powers[u.Power].Name + ": " + u.Type.Word() + " " + m.FullName(u.Loc) + " HOLD."
					if !strings.Contains(got, "\n"+line+"\n") {
						t.Errorf("no line %q", line)
					}
				}
			}

			col := PowerColumn(m)
			owners, counts := crowdTables(t, got)
			// The ownership table: one row per owner, the names from col,
			// continued lines indented to col; the first power's row
			// needs more than one line.
			rows := 0
			for i, l := range owners {
				if strings.HasPrefix(l, " ") {
					if i == 0 || len(l) <= col || l[:col] != strings.Repeat(" ", col) || l[col] == ' ' {
						t.Errorf("continued ownership line not indented to column %d: %q", col, l)
					}
					continue
				}
				rows++
				head, _, ok := strings.Cut(l, ":")
				if !ok || len(l) <= col || strings.TrimSpace(l[len(head)+1:col]) != "" || l[col] == ' ' {
					t.Errorf("ownership row does not start its names in column %d: %q", col, l)
				}
			}
			firstName := m.Powers[first].Name
			ownerSet := map[judge.Power]bool{}
			for _, c := range res.Next.CenterList() {
				ownerSet[res.Next.Centers[c]] = true
			}
			if rows != len(ownerSet) {
				t.Errorf("%d ownership rows, want %d (the powers that own a centre, and Unowned)", rows, len(ownerSet))
			}
			if len(owners) < rows+1 {
				t.Errorf("%s's centres did not need a second line:\n%s", firstName, strings.Join(owners, "\n"))
			}
			// The build counts: one line per power with centres or units,
			// the numbers in the same columns on every line.
			if want := len(m.Powers) - taken; len(counts) != want {
				t.Errorf("%d count lines, want %d:\n%s", len(counts), want, strings.Join(counts, "\n"))
			}
			countLine := regexp.MustCompile(`^[A-Za-z]+: +(..) Supply centers?, +\d+ Units?: +(Builds|Removes) +\d+ units?\.$`)
			at := -1
			for _, l := range counts {
				sm := countLine.FindStringSubmatchIndex(l)
				if sm == nil {
					t.Errorf("count line %q is not in the classic form", l)
					continue
				}
				if at >= 0 && sm[2] != at {
					t.Errorf("count line %q has its centres in column %d, the others in %d", l, sm[2], at)
				}
				at = sm[2]
			}
			lastName := m.Powers[last].Name
			centres, units := res.Next.CenterCount(), res.Next.UnitCount()
			nc, nu := centres[first], units[first]
			unitsWord := "Units:"
			if nu == 1 {
				unitsWord = "Unit: "
			}
			for _, w := range []string{
				fmt.Sprintf("%s:%s%2d Supply centers, %2d %s  Builds  %2d units.", firstName, strings.Repeat(" ", col-2-len(firstName)), nc, nu, unitsWord, nc-nu),
				fmt.Sprintf("%s:%s 1 Supply center,   2 Units:  Removes  1 unit.", lastName, strings.Repeat(" ", col-2-len(lastName))),
			} {
				if !strings.Contains(got, "\n"+w+"\n") {
					t.Errorf("no count line %q in:\n%s", w, strings.Join(counts, "\n"))
				}
			}
		})
	}
}

// crowdTables returns the lines of the ownership table and of the build
// counts after it.
func crowdTables(t *testing.T, text string) (owners, counts []string) {
	t.Helper()
	_, rest, ok := strings.Cut(text, "Ownership of supply centers:\n\n")
	if !ok {
		t.Fatalf("no ownership table:\n%s", text)
	}
	table, rest, _ := strings.Cut(rest, "\n\n")
	countText, _, _ := strings.Cut(rest, "\n\n")
	return strings.Split(table, "\n"), strings.Split(countText, "\n")
}
