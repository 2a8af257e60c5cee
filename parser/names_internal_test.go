package parser

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gmdjudge/gmd/judge"
)

// TestFoldAgreesWithMapLoader checks, character by character, that the
// Scanner drops between and inside words exactly the characters that
// judge.NormalizeName drops from a map's names, and reads as letters
// exactly those a name may hold besides: so that the map loader's check
// that no two places' names fold alike is the parser's check too.
func TestFoldAgreesWithMapLoader(t *testing.T) {
	for r := rune(0); r <= 0x2FFFF; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		c := classOfRune(r, utf8.RuneLen(r))
		spacing := c == cQuiet || c == cSpace || c == cDash
		if spacing != judge.NameSpacing(r) {
			t.Errorf("%U: the Scanner's class %d, but judge.NameSpacing = %v", r, c, judge.NameSpacing(r))
		}
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		if (c == cLetter) != letter {
			t.Errorf("%U: the Scanner's class %d, but a letter or digit: %v", r, c, letter)
		}
		if judge.NameChar(r) != (spacing || letter) {
			t.Errorf("%U: judge.NameChar = %v", r, judge.NameChar(r))
		}
	}
}
