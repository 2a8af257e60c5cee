package parser

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestCommandTableWords: no word of a command keyword is a word an order
// may begin with (a unit type, BUILD, WAIVE, ...), nor a place or power
// of any variant, so that no order line is ever read as a command.
func TestCommandTableWords(t *testing.T) {
	t.Parallel()
	var maps []*judge.Map
	for _, name := range variants.Names() {
		mp, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		maps = append(maps, mp)
	}
	for _, c := range commandTable {
		for _, k := range append([]string{c.Name}, c.Synonyms...) {
			first := strings.Fields(k)[0]
			if _, ok := keywords[strings.ToLower(first)]; ok {
				t.Errorf("%s: %q begins orders", c.Name, first)
			}
			for _, mp := range maps {
				if clash := placeOrPower(mp, first); clash != "" {
					t.Errorf("%s: %q is %s in %s", c.Name, first, clash, mp.Name)
				}
			}
		}
	}
}

// placeOrPower returns what word names in mp, or "".
func placeOrPower(mp *judge.Map, word string) string {
	for _, l := range mp.Locs {
		names := append([]string{l.Name, l.FullName}, l.Aliases...)
		for _, n := range names {
			if strings.EqualFold(strings.Fields(n)[0], word) {
				return "a name of " + l.FullName
			}
		}
	}
	for _, p := range mp.Powers {
		if strings.EqualFold(p.Name, word) || strings.EqualFold(p.Adjective, word) {
			return "the power " + p.Name
		}
	}
	return ""
}

// TestCommandTableRows: every row has a form, whose usage begins with the
// command's name, and a help line; the keywords are upper case, of one or
// two words.
func TestCommandTableRows(t *testing.T) {
	t.Parallel()
	for _, c := range commandTable {
		if len(c.Forms) == 0 {
			t.Errorf("%s has no form", c.Name)
		}
		for _, f := range c.Forms {
			if w, _ := firstWord(f.Usage); w != c.Name || f.Help == "" {
				t.Errorf("%s: form %+v", c.Name, f)
			}
		}
		for _, k := range append([]string{c.Name}, c.Synonyms...) {
			if k != strings.ToUpper(k) || len(strings.Fields(k)) > 2 || strings.Join(strings.Fields(k), " ") != k {
				t.Errorf("%s: keyword %q", c.Name, k)
			}
		}
		if got, ok := LookupCommand(c.Name); !ok || got.Name != c.Name {
			t.Errorf("LookupCommand(%s) = %v, %v", c.Name, got, ok)
		}
	}
}
