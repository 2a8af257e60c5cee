package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// flat renders a block as one line per directive, children indented, so
// that tests compare trees as text.
func flat(b Block, indent string) string {
	var s strings.Builder
	for _, d := range b {
		s.WriteString(indent)
		s.WriteString(d.Name)
		for _, p := range d.Params {
			s.WriteString(" [" + p + "]")
		}
		fmt.Fprintf(&s, " @%02d", d.Line)
		if d.Children != nil {
			s.WriteString(" {")
		}
		s.WriteString("\n")
		s.WriteString(flat(d.Children, indent+"  "))
	}
	return s.String()
}

func TestRead(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"words", "a b c\n", "a [b] [c] @01\n"},
		{"no final newline", "a b", "a [b] @01\n"},
		{"blank lines and comments", "# top\n\n  a 1 # trailing\n#x y\nb\n", "a [1] @03\nb @05\n"},
		{"hash inside a word", "password p#ss\n", "password [p#ss] @01\n"},
		{"double quotes", `a "b c" "x\"y\\z" ""` + "\n", `a [b c] [x"y\z] [] @01` + "\n"},
		{"single quotes are raw", `a 'b\c "d"'` + "\n", `a [b\c "d"] @01` + "\n"},
		{"pieces join", `a pre"mid dle"'post'` + "\n", "a [premid dlepost] @01\n"},
		{"escapes outside quotes", `a b\ c \#x \;` + "\n", "a [b c] [#x] [;] @01\n"},
		{"leading backslash", `\a b` + "\n", "a [b] @01\n"},
		{"continuation", "a b \\\n  c\nd\n", "a [b] [c] @01\nd @03\n"},
		{"semicolons", "a 1; b 2;;c\n", "a [1] @01\nb [2] @01\nc @01\n"},
		{"block", "imap {\n  address x:1\n  tls none\n}\nz\n", "imap @01 {\n  address [x:1] @02\n  tls [none] @03\nz @05\n"},
		{"one-line block", "limits { max-mail-size 1M; max-line-length 1000 }\n", "limits @01 {\n  max-mail-size [1M] @01\n  max-line-length [1000] @01\n"},
		{"tight braces", "a{b 1}\n", "a @01 {\n  b [1] @01\n"},
		{"empty block", "a {}\n", "a @01 {\n"},
		{"nested", "a {\n b {\n  c\n }\n}\n", "a @01 {\n  b @02 {\n    c @03\n"},
		{"block with params", "a x {\n}\n", "a [x] @01 {\n"},
		{"CRLF", "a 1\r\nb 2\r\n", "a [1] @01\nb [2] @02\n"},
		{"quoted braces", `a "{" '}'` + "\n", "a [{] [}] @01\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Read(strings.NewReader(tt.in), "t.conf")
			if err != nil {
				t.Fatal(err)
			}
			if got := flat(b, ""); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"unterminated double quote", "a\nb \"c\nd\n", `t.conf:2: unterminated quoted string (a " is missing)`},
		{"unterminated single quote", "a 'c", `t.conf:1: unterminated quoted string (a ' is missing)`},
		{"quote ends with backslash", "a \"c\\", `t.conf:1: unterminated quoted string (a " is missing)`},
		{"unclosed block", "a {\n b\n", "t.conf:3: unexpected end of file: the block opened on line 1 has no closing }"},
		{"stray close", "a\n}\n", "t.conf:2: unexpected } (no block is open)"},
		{"block without name", "{\n}\n", "t.conf:1: unexpected { (a block must follow a directive name)"},
		{"text after block", "a { b } c\n", "t.conf:1: a: unexpected text after the closing } of the block"},
		{"empty name", `"" x` + "\n", "t.conf:1: empty directive name"},
		{"backslash at end of file", `a \`, "t.conf:1: backslash at the end of the file"},
		{"backslash alone at end of file", `\`, "t.conf:1: backslash at the end of the file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "t.conf")
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %T is not an *Error", err)
			}
		})
	}
}

func TestReadLinesAfterContinuation(t *testing.T) {
	b, err := Read(strings.NewReader("a \\\n\\\n b\nc \"x\"\n"), "t.conf")
	if err != nil {
		t.Fatal(err)
	}
	want := Block{
		{Name: "a", Params: []string{"b"}, Line: 1},
		{Name: "c", Params: []string{"x"}, Line: 4},
	}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("got %s", flat(b, ""))
	}
}
