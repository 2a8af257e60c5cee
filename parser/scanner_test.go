package parser

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

type scanned struct {
	tok       Token
	lit       string
	line, col int
}

func scanAll(src string) []scanned {
	var s Scanner
	s.Init(src)
	var out []scanned
	for {
		pos, tok, lit := s.Scan()
		out = append(out, scanned{tok, lit, pos.Line, pos.Col})
		if tok == EOF {
			return out
		}
	}
}

func TestScanner(t *testing.T) {
	cases := []struct {
		src  string
		want string // tok:lit@line:col, space separated
	}{
		{"", "EOF:@1:1"},
		{"A Par-Bur", "Word:A@1:1 Word:Par@1:3 -:-@1:6 Word:Bur@1:7 EOF:@1:10"},
		{"a -> b => c --> d -- e", "Word:a@1:1 ->:->@1:3 Word:b@1:6 ->:=>@1:8 Word:c@1:11 ->:-->@1:13 Word:d@1:17 -:--@1:19 Word:e@1:22 EOF:@1:23"},
		{"x,y;z:(nc)/sc", "Word:x@1:1 ,:,@1:2 Word:y@1:3 ;:;@1:4 Word:z@1:5 :::@1:6 (:(@1:7 Word:nc@1:8 ):)@1:10 /:/@1:11 Word:sc@1:12 EOF:@1:14"},
		// Dots: inside a word they stay in the literal, at its edges they are spacing.
		{"St.Petersburg n.c. Bur. .x. ...", "Word:St.Petersburg@1:1 Word:n.c@1:15 Word:Bur@1:20 Word:x@1:26 EOF:@1:32"},
		{"Germany's 'A'", "Word:Germany's@1:1 Word:A@1:12 EOF:@1:14"},
		// Line ends: "\n", "\r\n", a lone "\r".
		{"a\nb\r\nc\rd", "Word:a@1:1 EOL:\n@1:2 Word:b@2:1 EOL:\r\n@2:2 Word:c@3:1 EOL:\r@3:2 Word:d@4:1 EOF:@4:2"},
		// Mail typography: dashes, arrows, no-break spaces, curly apostrophes.
		{"Par – Bur — Mar → Spa", "Word:Par@1:1 -:–@1:5 Word:Bur@1:7 -:—@1:11 Word:Mar@1:13 ->:→@1:17 Word:Spa@1:19 EOF:@1:22"},
		{"a\u00a0b –> c", "Word:a@1:1 Word:b@1:3 ->:–>@1:5 Word:c@1:8 EOF:@1:9"},
		{"Germany’s", "Word:Germany’s@1:1 EOF:@1:10"},
		// Columns count characters.
		{"Pär Bür", "Word:Pär@1:1 Word:Bür@1:5 EOF:@1:8"},
		// Anything else is Illegal, one character at a time.
		{"a!b > = \"", "Word:a@1:1 Illegal:!@1:2 Word:b@1:3 Illegal:>@1:5 Illegal:=@1:7 Illegal:\"@1:9 EOF:@1:10"},
		{"\xff\xfeA", "Illegal:\xff@1:1 Illegal:\xfe@1:2 Word:A@1:3 EOF:@1:4"},
		{"a\tb\x00", "Word:a@1:1 Word:b@1:3 Illegal:\x00@1:4 EOF:@1:5"},
	}
	for _, c := range cases {
		var parts []string
		for _, s := range scanAll(c.src) {
			parts = append(parts, fmt.Sprintf("%v:%s@%d:%d", s.tok, s.lit, s.line, s.col))
		}
		if got := strings.Join(parts, " "); got != c.want {
			t.Errorf("%q:\ngot  %s\nwant %s", c.src, got, c.want)
		}
	}
}

func TestScannerEOFRepeats(t *testing.T) {
	var s Scanner
	s.Init("a")
	s.Scan()
	for i := 0; i < 3; i++ {
		if _, tok, _ := s.Scan(); tok != EOF {
			t.Fatalf("scan %d after the end: %v", i, tok)
		}
	}
}

func TestTokenString(t *testing.T) {
	if Arrow.String() != "->" || Word.String() != "Word" || Token(200).String() != "Token(200)" {
		t.Error(Arrow.String(), Word.String(), Token(200).String())
	}
}

// checkScan checks the Scanner's invariants on any input: tokens come in
// order without overlap, each literal is the source text at its offset,
// positions agree with the text before them, and the scan ends. It walks
// the text once beside the Scanner, so that it stays linear on the long
// inputs the fuzzer makes.
func checkScan(t *testing.T, src string) {
	var s Scanner
	s.Init(src)
	var w walker
	last := 0
	for n := 0; ; n++ {
		if n > len(src)+1 {
			t.Fatalf("%q: more tokens than bytes", src)
		}
		pos, tok, lit := s.Scan()
		if pos.Offset < last || pos.Offset+len(lit) > len(src) || src[pos.Offset:pos.Offset+len(lit)] != lit {
			t.Fatalf("%q: token %v %q at %d is not the source text (last end %d)", src, tok, lit, pos.Offset, last)
		}
		w.walk(src, pos.Offset)
		if pos.Line != w.line || pos.Col != w.col {
			t.Fatalf("%q: token %v %q at %d:%d, want %d:%d", src, tok, lit, pos.Line, pos.Col, w.line, w.col)
		}
		if tok == EOF {
			for i, r := range src[last:] {
				if cl := classOfRune(r, utf8.RuneLen(r)); r == utf8.RuneError || cl != cSpace && cl != cQuiet {
					t.Fatalf("%q: EOF at %d, but %q at %d was not scanned", src, pos.Offset, r, last+i)
				}
			}
			return
		}
		if lit == "" {
			t.Fatalf("%q: empty %v token at %d", src, tok, pos.Offset)
		}
		last = pos.Offset + len(lit)
	}
}

// walker computes line and column by walking a text forward.
type walker struct{ off, line, col int }

func (w *walker) walk(src string, to int) {
	if w.line == 0 {
		w.line, w.col = 1, 1
	}
	for w.off < to {
		r, n := utf8.DecodeRuneInString(src[w.off:])
		switch {
		case r == '\n', r == '\r' && !strings.HasPrefix(src[w.off+1:], "\n"):
			w.line, w.col = w.line+1, 1
		case r == '\r': // the first half of "\r\n": the "\n" ends the line
		default:
			w.col++
		}
		w.off += n
	}
}

func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		"", "England: F Lon - Nth\n", "A Par -> Bur, A Mar H; F Bre => Mao", "F Stp(n.c.) - Bot\r\n",
		"St. Petersburg’s – x → y\u00a0z", "a\rb\r\n\nc", "\xff\xfe==>--->", "'.'._ A",
	} {
		f.Add(s)
	}
	f.Fuzz(checkScan)
}
