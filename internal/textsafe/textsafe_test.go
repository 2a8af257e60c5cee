package textsafe

import (
	"strings"
	"testing"
	"unicode"
)

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"":                                     "",
		"plain text\nline two\tTab":            "plain text\nline two\tTab",
		"a\x00b\x07c\x0bd\x0ce\x1b[2Jf\x7fg":   "abcde[2Jfg",
		"crlf\r\nlines\rhere":                  "crlf\nlineshere",
		"c1\u0085\u009b[0m":                    "c1[0m",
		"abc\u202edcba\u202c":                  "abcdcba",
		"\u2066isolate\u2069 \u200fmark\u200e": "isolate mark",
		"zero\u200bwidth\ufeff":                "zerowidth",
		"tag\U000e0041":                        "tag",
		"joiners \u200c\u200d stay, 👨\u200d👩":  "joiners \u200c\u200d stay, 👨\u200d👩",
		"bad \xff utf-8":                       "bad \uFFFD utf-8",
		"Dürer, 東京, ελληνικά":                  "Dürer, 東京, ελληνικά",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
		if got := string(CleanBytes([]byte(in))); got != want {
			t.Errorf("CleanBytes(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every rune of Unicode: Clean keeps none that acts (a control or a
// format character, but the two joiners, LF and tab), and keeps every
// other.
func TestCleanEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r < 0xe000 {
			continue // surrogates are no runes of UTF-8
		}
		s := "x" + string(r) + "y"
		acts := (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) && !strings.ContainsRune("\n\t\u200c\u200d", r)
		got := Clean(s)
		if acts && got != "xy" || !acts && got != s {
			t.Fatalf("Clean(%q) = %q", s, got)
		}
	}
}
