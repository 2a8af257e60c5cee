package templates

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrap(t *testing.T) {
	long := "Error (line 1): Too many wrong passwords for game 'dt' from you: sign-ons are locked until 12:15 UTC. Nothing else in this mail was done."
	got := Wrap(long + "\nshort line\n")
	want := "Error (line 1): Too many wrong passwords for game 'dt' from you: sign-ons are\n" +
		"locked until 12:15 UTC. Nothing else in this mail was done.\nshort line\n"
	if got != want {
		t.Errorf("Wrap:\n%s\nwant:\n%s", got, want)
	}
	// Continued lines keep the indentation; characters, not bytes, count.
	got = Wrap("    " + strings.Repeat("é ", 40))
	for _, l := range strings.Split(got, "\n") {
		if utf8.RuneCountInString(l) > LineWidth || !strings.HasPrefix(l, "    é") {
			t.Errorf("line %q of\n%s", l, got)
		}
	}
	// A word longer than a line stays whole; text that fits is untouched.
	word := strings.Repeat("x", 90)
	if got := Wrap("a " + word + " b"); got != "a\n"+word+"\nb" {
		t.Errorf("long word: %q", got)
	}
	if s := "  two  spaces kept\n\n"; Wrap(s) != s {
		t.Errorf("a short text changed: %q", Wrap(s))
	}
}
