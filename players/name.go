// Package players is the player registry's domain (issue 23): what
// makes a public name acceptable, when two names are one, and the
// reliability figures and entry gates computed from the seat log that
// package state keeps. It does no I/O: every function is pure, so that
// the figures can be replayed from the log at any time and always come
// out the same.
package players

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The bounds on a public name, in characters.
const (
	MinName = 2
	MaxName = 30
)

// The bounds on the profile's words (country, time zone, level).
const MaxProfileWord = 40

// CheckName says why name cannot be a public name, or returns nil. A
// name is 2 to 30 characters of letters, digits, spaces and the marks
// - . _ ' , no two spaces running and none at either end; it must hold a
// letter. Control, format (zero-width, bidi) and other invisible
// characters are refused, not removed: a name is shown as registered.
func CheckName(name string) error {
	if !utf8.ValidString(name) {
		return errors.New("the name is not valid UTF-8")
	}
	n := utf8.RuneCountInString(name)
	if n < MinName || n > MaxName {
		return fmt.Errorf("a name has %d to %d characters; this one has %d", MinName, MaxName, n)
	}
	if strings.TrimSpace(name) != name || strings.Contains(name, "  ") {
		return errors.New("a name has no space at either end and no two running")
	}
	letter := false
	for _, r := range name {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r), r == ' ', strings.ContainsRune("-._'", r):
		case unicode.IsMark(r):
			// an accent written as its own character: folded away
		default:
			return fmt.Errorf("a name may not hold %U (%s)", r, runeWord(r))
		}
	}
	if !letter {
		return errors.New("a name holds a letter at least")
	}
	if Fold(name) == "" {
		return errors.New("the name has nothing to tell it from another")
	}
	return nil
}

// runeWord names the class of a refused character, for the reply.
func runeWord(r rune) string {
	switch {
	case unicode.IsControl(r):
		return "a control character"
	case unicode.Is(unicode.Cf, r):
		return "an invisible formatting character"
	case unicode.IsSpace(r):
		return "a space other than the plain one"
	}
	return "a symbol"
}

// confusables maps the characters that look like a Latin letter or
// digit, after compatibility decomposition, to the one they look like.
// Fold then maps those digits and letters that look alike to one: 0
// and o, 1 l i and |, 5 and s. It is the common part of Unicode's
// confusables for Latin, Cyrillic and Greek, not all of it: enough that
// "Bob", "B0b", "Воb" (Cyrillic В and о) and "ВОВ" are one name.
var confusables = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o',
	'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ї': 'i',
	'ј': 'j', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ь': 'b', 'г': 'r', 'п': 'n',
	// Greek
	'α': 'a', 'β': 'b', 'γ': 'y', 'ε': 'e', 'η': 'n', 'ι': 'i', 'κ': 'k', 'μ': 'u',
	'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'ω': 'w', 'ς': 'c',
	'ζ': 'z',
	// Latin letters that are other letters' look-alikes
	'ı': 'i', 'ł': 'l', 'ø': 'o', 'đ': 'd', 'ð': 'd', 'ħ': 'h', 'ŧ': 't', 'ß': 's',
	'ɑ': 'a', 'ɡ': 'g', 'ɩ': 'i', 'ʀ': 'r', 'ʏ': 'y', 'ᴄ': 'c', 'ᴏ': 'o', 'ᴠ': 'v',
	'ᴡ': 'w', 'ᴢ': 'z', 'æ': 'a', 'œ': 'o', 'þ': 'p',
	// digits and marks that pass for letters
	'0': 'o', '1': 'l', 'i': 'l', 'j': 'l', '|': 'l', '5': 's', '2': 'z', '8': 'b',
	'6': 'b', '9': 'g', '3': 'e', '4': 'a', '7': 't',
}

// Fold returns the form in which two names that a reader could take for
// one are equal: compatibility-decomposed (NFKD: fullwidth letters,
// ligatures and the like become plain ones), without accents, in lower
// case, each look-alike mapped to the letter it looks like, "rn" taken
// for "m" and "vv" for "w", and spaces and the marks - . _ ' left out.
// Registration refuses a name whose fold another name has; WHOIS
// searches by fold.
func Fold(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(name) {
		if unicode.IsMark(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || strings.ContainsRune("-._'", r) {
			continue
		}
		r = unicode.ToLower(r)
		// Twice: a look-alike may map to a letter that is itself one
		// (Cyrillic і to i, and i to l).
		for range 2 {
			if c, ok := confusables[r]; ok {
				r = c
			}
		}
		b.WriteRune(r)
	}
	s := b.String()
	// Twice, since a replacement can make another pair: "rnn" → "mn".
	for range 2 {
		s = strings.ReplaceAll(s, "rn", "m")
		s = strings.ReplaceAll(s, "vv", "w")
	}
	return s
}

// CheckProfileWord says why a profile word (country, time zone, level)
// cannot be kept, or returns nil: it is shown beside the name, so it is
// bounded and printable like one.
func CheckProfileWord(what, w string) error {
	if !utf8.ValidString(w) || utf8.RuneCountInString(w) > MaxProfileWord {
		return fmt.Errorf("the %s is at most %d characters", what, MaxProfileWord)
	}
	for _, r := range w {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("the %s may not hold %U (%s)", what, r, runeWord(r))
		}
	}
	return nil
}
