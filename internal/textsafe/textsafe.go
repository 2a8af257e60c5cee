// Package textsafe makes a player's text safe to show to others: the one
// function every place that echoes what a player wrote goes through,
// in mail (bodies and subjects) and on the web pages.
package textsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean returns s without the characters that act rather than show:
// control characters (NUL, BEL, ESC and its terminal sequences' lead,
// VT, FF, DEL, the C1 controls), bare carriage returns, and the Unicode
// format characters (Cf: the bidi overrides, embeddings and isolates
// that make a line read backwards or hide a word, the zero-width
// spaces, the byte order mark, the tag characters). Line feeds and tabs
// stay, and so do the zero-width joiner and non-joiner, which some
// scripts and emoji need and which reorder nothing. A CR LF becomes a
// LF. Invalid UTF-8 becomes U+FFFD. Text with nothing to remove comes
// back as it is, without a copy.
func Clean(s string) string {
	if !needs(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if keep(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// CleanBytes is Clean for a page as bytes.
func CleanBytes(p []byte) []byte {
	if !needs(string(p)) {
		return p
	}
	return []byte(Clean(string(p)))
}

// needs reports whether Clean would change s.
func needs(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' && c != '\t' || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !keep(r) {
			return true
		}
		i += n
	}
	return false
}

// keep reports whether Clean keeps r.
func keep(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return true
	case unicode.IsControl(r): // C0, DEL, C1; CR among them
		return false
	case r == '\u200c' || r == '\u200d':
		return true
	case unicode.Is(unicode.Cf, r):
		return false
	}
	return true
}
