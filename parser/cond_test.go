package parser_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// taken returns the texts of the order lines a script keeps on pos.
func taken(t *testing.T, m *judge.Map, pos *judge.Position, src string) []string {
	t.Helper()
	s, errs := parser.ParseScript(src, parser.Options{Map: m})
	if len(errs) > 0 {
		t.Fatalf("%q: %v", src, errs)
	}
	keep, _ := s.Select(pos)
	var out []string
	for _, l := range strings.Split(parser.Only(src, keep), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestScriptOperators evaluates every kind of test and every operator on
// the standard board's start, each case once true and once false.
func TestScriptOperators(t *testing.T) {
	m := variants.Standard()
	pos := judge.StartPosition(m)
	cases := []struct {
		cond string
		want bool
	}{
		{"A Par", true}, {"A Bur", false},
		{"F Bre", true}, {"A Bre", false},
		{"Par", true}, {"Pic", false},
		{"French A Par", true}, {"German A Par", false},
		{"France A Par", true}, {"FRANCE A Par", true},
		{"France IN Par", true}, {"Germany IN Par", false},
		{"Germany Mun", true}, {"Russia IN Mun", false},
		{"RUSSIAN F Stp/sc", true}, {"RUSSIAN F Stp/nc", false},
		{"F Stp", true}, {"F St Petersburg (north coast)", false},
		{"Russia OWNS Sev", true}, {"Turkey OWNS Sev", false},
		{"NOT A Bur", true}, {"NOT A Par", false},
		{"NOT NOT A Par", true},
		{"A Par AND F Bre", true}, {"A Par AND A Bur", false},
		{"A Bur OR F Bre", true}, {"A Bur OR A Pic", false},
		// AND binds tighter than OR: true OR (false AND false).
		{"A Par OR A Bur AND A Pic", true},
		{"(A Par OR A Bur) AND A Pic", false},
		// NOT binds tighter than AND.
		{"NOT A Bur AND A Par", true},
		{"NOT (A Bur OR A Par)", false},
		{"NOT French Army Ruhr AND (German A Mun OR German A Ber)", true},
		{"A Par THEN", true},
		{"a par and not (f lon or f nth)", false},
	}
	for _, c := range cases {
		src := "IF " + c.cond + "\nA Par H\nELSE\nA Mar H\nENDIF"
		want := "A Mar H"
		if c.want {
			want = "A Par H"
		}
		if got := taken(t, m, pos, src); len(got) != 1 || got[0] != want {
			t.Errorf("IF %s: took %q, want %q", c.cond, got, want)
		}
	}
}

// TestScriptBranches checks ELSE IF chains, nesting, and order lines
// outside any statement, and what Select reports it met.
func TestScriptBranches(t *testing.T) {
	m := variants.Standard()
	pos := judge.StartPosition(m)
	src := `A Ven H
IF A Bur
  A Par - Bur
ELSE IF A Mun THEN
  A Par - Pic
  IF Germany OWNS Ber
    F Bre - Mao
  ELSEIF A Par
    F Bre - Eng
  ENDIF
ELSE
  A Par - Gas
ENDIF
F Nap H`
	got := taken(t, m, pos, src)
	want := []string{"A Ven H", "A Par - Pic", "F Bre - Mao", "F Nap H"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("took %q, want %q", got, want)
	}
	s, _ := parser.ParseScript(src, parser.Options{Map: m})
	if s.Conds != 4 || !s.Control {
		t.Errorf("Conds %d Control %v, want 4 true", s.Conds, s.Control)
	}
	_, met := s.Select(pos)
	var trace []string
	for _, b := range met {
		trace = append(trace, fmt.Sprintf("%d:%d:%v", b.Line, b.Depth, b.Taken))
	}
	if got, want := strings.Join(trace, " "), "2:0:false 4:0:true 6:1:true"; got != want {
		t.Errorf("met %s, want %s", got, want)
	}
	lines := s.OrderLines()
	for i, isOrder := range lines {
		if ctl := parser.IsControl(strings.Split(src, "\n")[i]); ctl == isOrder {
			t.Errorf("line %d: order %v, control %v", i+1, isOrder, ctl)
		}
	}
}

// TestScriptErrors checks that every mistake is reported at its line and
// column, and that a statement with one is never taken.
func TestScriptErrors(t *testing.T) {
	m := variants.Standard()
	cases := []struct {
		src, want string
	}{
		{"IF A Nth\nA Par H\nENDIF", "line 1 col 6: an army is never at sea (North Sea)"},
		{"IF F Mun\nENDIF", "line 1 col 6: a fleet is never inland (Munich has no coast)"},
		{"IF A Stp/nc\nENDIF", "line 1 col 6: an army is never on a coast"},
		{"IF Germany OWNS Bur\nENDIF", "line 1 col 17: Burgundy is no supply centre"},
		{"IF A Burg\nENDIF", `line 1 col 6: unknown province "Burg"`},
		{"IF\nENDIF", "line 1 col 3: expected a condition after IF"},
		{"IF A Bur A Pic\nENDIF", `line 1 col 10: expected AND, OR, THEN or end of line after "A Bur", found "A"`},
		{"IF (A Bur\nENDIF", `line 1 col 10: expected ")"`},
		{"IF A Bur AND\nENDIF", "line 1 col 13: expected a condition"},
		{"IF A Bur OR AND A Pic\nENDIF", `line 1 col 13: expected a condition after "A Bur OR", found "AND"`},
		{"A Par H\nELSE\nA Mar H", "line 2 col 1: ELSE without IF"},
		{"ENDIF", "line 1 col 1: ENDIF without IF"},
		{"ELSE IF A Bur", "line 1 col 1: ELSE IF without IF"},
		{"IF A Bur\nA Par H", "line 1 col 1: IF without ENDIF"},
		{"IF A Bur\nELSE\nELSE\nENDIF", "line 3 col 1: a second ELSE"},
		{"IF A Bur\nELSE\nELSE IF A Pic\nENDIF", "line 3 col 1: ELSE IF after ELSE"},
		{"IF A Bur\nELSE A Par H\nENDIF", `line 2 col 6: expected end of line after ELSE, found "A"`},
		{"IF A Bur\nENDIF now", `line 2 col 7: expected end of line after ENDIF, found "now"`},
		{"IF ((((((((( A Bur )))))))))\nENDIF", "parentheses nested more than 8 deep"},
		{strings.Repeat("IF A Bur\n", 9) + strings.Repeat("ENDIF\n", 9), "line 9 col 1: IF statements nested more than 8 deep"},
		{strings.Repeat("IF A Bur\nENDIF\n", 65), "line 129 col 1: more than 64 conditions"},
	}
	pos := judge.StartPosition(m)
	for _, c := range cases {
		s, errs := parser.ParseScript(c.src, parser.Options{Map: m})
		if len(errs) == 0 || !strings.Contains(errs[0].Error(), c.want) {
			t.Errorf("%q: errors %v, want %q", c.src, errs, c.want)
			continue
		}
		// A bad statement is never taken, whatever its conditions.
		keep, _ := s.Select(pos)
		for i, k := range keep {
			line := strings.Split(c.src, "\n")[i]
			if k && strings.HasPrefix(line, "A Par - ") {
				t.Errorf("%q: line %d taken from a bad statement", c.src, i+1)
			}
		}
	}
}

// TestScriptEveryBoard reads "IF A p" and "IF F p" for every place of
// every shipped board: each either reads, and then holds exactly when
// such a unit stands there at the start, or is refused as never true,
// exactly when the map says no such unit can be there.
func TestScriptEveryBoard(t *testing.T) {
	for _, m := range boardList(t) {
		pos := judge.StartPosition(m)
		for l := range m.Locs {
			loc := judge.Loc(l)
			li := &m.Locs[l]
			for _, typ := range []judge.UnitType{judge.Army, judge.Fleet} {
				src := fmt.Sprintf("IF %s %s\nENDIF", typ.Word(), li.Name)
				s, errs := parser.ParseScript(src, parser.Options{Map: m})
				possible := m.CanHold(typ, loc) || typ == judge.Fleet && len(li.Coasts) > 0
				if (len(errs) == 0) != possible {
					t.Errorf("%s: %q: errors %v, but a %s may stand there: %v", m.Name, src, errs, typ.Word(), possible)
					continue
				}
				if len(errs) > 0 {
					continue
				}
				u := pos.Units[li.Province]
				want := u.Type == typ && (li.Province == loc || u.Loc == loc)
				if _, met := s.Select(pos); len(met) != 1 || met[0].Taken != want {
					t.Errorf("%s: %q: met %+v, want taken %v", m.Name, src, met, want)
				}
			}
		}
	}
}

// TestControlWordsAreNoPlaces keeps the words that begin control lines
// apart from the places of every board: a province named "If" would make
// an order line read as a condition. The words inside a condition (AND,
// OR, NOT, THEN, IN, OWNS) may be a place's alias ("not" is Northumbria
// on Hundred): there the keyword wins, and the place's full name, which
// is never a keyword, still names it in a condition.
func TestControlWordsAreNoPlaces(t *testing.T) {
	for _, m := range boardList(t) {
		for _, w := range []string{"if", "else", "elseif", "endif"} {
			if l, err := parser.ParseLoc(m, w); err == nil {
				t.Errorf("%s: %q names %s", m.Name, w, m.FullName(l))
			}
		}
		pos := judge.StartPosition(m)
		for _, w := range []string{"and", "or", "not", "then", "in", "owns"} {
			l, err := parser.ParseLoc(m, w)
			if err != nil {
				continue
			}
			src := "IF " + m.FullName(m.Province(l)) + "\nENDIF"
			s, errs := parser.ParseScript(src, parser.Options{Map: m})
			if len(errs) > 0 {
				t.Errorf("%s: %q: %v", m.Name, src, errs)
				continue
			}
			if _, met := s.Select(pos); len(met) != 1 || met[0].Taken != (pos.Units[m.Province(l)].Type != judge.NoUnit) {
				t.Errorf("%s: %q: met %+v", m.Name, src, met)
			}
		}
	}
}

// FuzzParseScript checks, on any text, that ParseScript ends without
// panicking, that its errors have a place in the text, and that Select
// keeps only order lines.
func FuzzParseScript(f *testing.F) {
	seeds := []string{
		"IF A Bur\nA Par - Bur\nELSE IF NOT (Russian F Bla OR Germany OWNS Ber) THEN\nA Par H\nELSE\nF Bre - Mao\nENDIF",
		"IF A Nth\nENDIF\nELSE\nENDIF", "IF ((A Par\nIF NOT NOT NOT\n", "ELSEIF A Mun\nIF Germany IN Bel AND F Mun",
		strings.Repeat("IF A Bur\n", 10), "if\r\nelse\relse if\nendif",
	}
	maps := fuzzMaps(f)
	for i, s := range seeds {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, src string, mapNo uint8) {
		m := maps[int(mapNo)%len(maps)]
		s, errs := parser.ParseScript(src, parser.Options{Map: m})
		lines := 1 + strings.Count(src, "\n") + strings.Count(strings.ReplaceAll(src, "\r\n", ""), "\r")
		for _, e := range errs {
			if e.Line < 1 || e.Col < 1 || e.Line > lines || e.Msg == "" {
				t.Fatalf("%q: bad error %+v", src, e)
			}
		}
		if s.Conds > parser.MaxConds+1 && len(errs) == 0 {
			t.Fatalf("%q: %d conditions and no error", src, s.Conds)
		}
		keep, _ := s.Select(judge.StartPosition(m))
		order := s.OrderLines()
		for i, k := range keep {
			if k && !order[i] {
				t.Fatalf("%q: line %d kept, but it is no order line", src, i+1)
			}
		}
		if got := strings.Count(parser.Only(src, keep), "\n"); got != strings.Count(strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n"), "\n") {
			t.Fatalf("%q: Only changed the number of lines", src)
		}
	})
}

// BenchmarkParseScript reads and evaluates a script of 8 statements of
// 8 conditions each, nested 8 deep: the most one mail may hold.
func BenchmarkParseScript(b *testing.B) {
	m := variants.Standard()
	pos := judge.StartPosition(m)
	var src strings.Builder
	for range 8 {
		for range 8 {
			src.WriteString("IF (A Bur OR German A Mun) AND NOT (F Nth OR Russia OWNS Sev) OR A Par AND F Bre\n")
		}
		src.WriteString("A Par - Bur\n")
		for range 8 {
			src.WriteString("ENDIF\n")
		}
	}
	text := src.String()
	for b.Loop() {
		s, errs := parser.ParseScript(text, parser.Options{Map: m})
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		s.Select(pos)
	}
}

// TestParseMailPreviewBody: the order lines right after PREVIEW are its
// sandbox, its Body, and not the mail's orders; order lines anywhere
// else, a conditional's among them, stay ORDERS.
func TestParseMailPreviewBody(t *testing.T) {
	cmds := parser.ParseMail("A Par H\nPREVIEW\n\nGermany: A Mun - Bur\nIF A Bur\nA Mar H\nENDIF\nHELP\nA Bre H\nPREVIEW\nLIST\nA Ven H\n")
	var got []string
	for _, c := range cmds {
		got = append(got, fmt.Sprintf("%d %s %d %q", c.Line, c.Name, c.BodyLine, c.Body))
	}
	want := []string{
		`1 ORDERS 1 "A Par H"`,
		`2 PREVIEW 4 "Germany: A Mun - Bur\nIF A Bur\nA Mar H\nENDIF"`,
		`8 HELP 0 ""`,
		`9 ORDERS 9 "A Bre H"`,
		`10 PREVIEW 0 ""`,
		`11 LIST 0 ""`,
		`12 ORDERS 12 "A Ven H"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
