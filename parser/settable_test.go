package parser

import (
	"slices"
	"strings"
	"testing"
)

// TestReadSetOption reads every word of the SET table in the ways a
// mail writes it (any case, "NO WAIT" apart, a colon or an equals sign
// after it, glued or spaced) and checks each comes back as its row with
// the right words after it; an unknown word is refused, as written.
func TestReadSetOption(t *testing.T) {
	for _, o := range setTable {
		for _, w := range o.Words {
			// Each form, then the words that come after the option.
			forms := []struct{ args, rest []string }{
				{[]string{w, "y"}, []string{"y"}},
				{[]string{strings.ToLower(w), "y"}, []string{"y"}},
				{[]string{w + ":", "x", "y"}, []string{"x", "y"}},
				{[]string{w + "=x", "y"}, []string{"x", "y"}},
				{[]string{w + ":x", "y"}, []string{"x", "y"}},
			}
			if rest, ok := strings.CutPrefix(w, "NO"); ok && rest != "" {
				forms = append(forms, struct{ args, rest []string }{[]string{"no", rest, "y"}, []string{"y"}})
			}
			for _, f := range forms {
				got, word, after, ok := ReadSetOption(f.args)
				if !ok || got.Name != o.Name || word != w {
					t.Errorf("ReadSetOption(%q) = %s %q %v, want %s %q", f.args, got.Name, word, ok, o.Name, w)
				}
				if !slices.Equal(after, f.rest) {
					t.Errorf("ReadSetOption(%q): the words after it are %q, want %q", f.args, after, f.rest)
				}
			}
		}
	}
	if o, word, _, ok := ReadSetOption([]string{"colour", "blue"}); ok || word != "COLOUR" {
		t.Errorf("ReadSetOption(colour blue) = %s %q %v, want no option, COLOUR", o.Name, word, ok)
	}
	if _, _, _, ok := ReadSetOption(nil); ok {
		t.Error("ReadSetOption(nil) found an option")
	}
}

// TestSetTableRows checks every row of the SET table for what its
// readers need: a known Who, a Syntax or a ShortFor naming a row that
// has one, a Help with every Usage, and bounds that make sense on every
// length; and that a word in two rows stops the program at its start.
func TestSetTableRows(t *testing.T) {
	names := map[string]SetOption{}
	for _, o := range setTable {
		names[o.Name] = o
	}
	for _, o := range setTable {
		if o.Who != Player && o.Who != Master {
			t.Errorf("SET %s: may be set by %s", o.Name, o.Who)
		}
		if (o.Syntax == "") == (o.ShortFor == "") || o.ShortFor != "" && names[o.ShortFor].Syntax == "" {
			t.Errorf("SET %s: Syntax %q, ShortFor %q: one of them, naming a listed row", o.Name, o.Syntax, o.ShortFor)
		}
		if (o.Usage == "") != (o.Help == "") {
			t.Errorf("SET %s: Usage %q and Help %q go together", o.Name, o.Usage, o.Help)
		}
		if o.Max > 0 && (o.Min <= 0 || o.Min >= o.Max || o.What == "") || o.Max == 0 && (o.Min != 0 || o.Off || o.What != "") {
			t.Errorf("SET %s: bounds %v to %v (off %v, %q)", o.Name, o.Min, o.Max, o.Off, o.What)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a word in two rows of the SET table did not panic")
		}
	}()
	indexSetWords([]SetOption{{Name: "A", Words: []string{"X"}}, {Name: "B", Words: []string{"X"}}})
}
