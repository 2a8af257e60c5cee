package parser

import (
	"unicode"
	"unicode/utf8"
)

// A Scanner splits order text into tokens. It is hand-written, allocates
// nothing, and never fails: a character it does not know becomes an Illegal
// token for the parser to report with its position.
//
// Words are runs of letters and digits. Dots, apostrophes and underscores
// may appear inside a word ("St.Petersburg", "n.c.") and are dropped when
// the parser compares words, which is how "dots are ignored"; at the edges
// of a word they are plain spacing, so "Bur." is the word "Bur".
//
// Mail programs replace "-" by typographic dashes and put no-break spaces
// between words; the Scanner reads those as the characters the player
// meant to type.
type Scanner struct {
	src  string
	off  int // offset of the next unread byte
	line int // line of src[off]
	col  int // column (in runes) of src[off]
}

// Init prepares s to scan src from its beginning.
func (s *Scanner) Init(src string) {
	s.src = src
	s.off = 0
	s.line = 1
	s.col = 1
}

// char classes of the bytes below utf8.RuneSelf.
const (
	cOther   = iota // Illegal
	cSpace          // spacing
	cQuiet          // spacing at the edge of a word, ignored inside one
	cLetter         // letters and digits
	cNewline        // '\n' and '\r'
	cPunct          // a one-byte token
	cDash           // '-'
	cEqual          // '='
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = cLetter
		t[c-'a'+'A'] = cLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = cLetter
	}
	t[' '], t['\t'], t['\v'], t['\f'] = cSpace, cSpace, cSpace, cSpace
	t['.'], t['\''], t['_'] = cQuiet, cQuiet, cQuiet
	t['\n'], t['\r'] = cNewline, cNewline
	t[','], t[';'], t[':'], t['/'], t['('], t[')'] = cPunct, cPunct, cPunct, cPunct, cPunct, cPunct
	t['-'] = cDash
	t['='] = cEqual
	return t
}()

var punctToken = [utf8.RuneSelf]Token{',': Comma, ';': Semicolon, ':': Colon, '/': Slash, '(': LParen, ')': RParen}

// runeClass classifies a character beyond ASCII.
func runeClass(r rune, size int) int {
	switch {
	case r == utf8.RuneError && size == 1:
		return cOther // invalid UTF-8
	case r >= 0x2010 && r <= 0x2015 || r == 0x2212: // hyphens, dashes, minus
		return cDash
	case r == 0x2192: // rightwards arrow
		return cEqual
	case r == 0x2018 || r == 0x2019 || r >= 0x200B && r <= 0x200D || r == 0xFEFF:
		// curly apostrophes; zero-width spaces and joiners, byte order mark
		return cQuiet
	case unicode.IsSpace(r):
		return cSpace
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		return cLetter
	}
	return cOther
}

// class returns the class and the byte length of the character at off.
func (s *Scanner) class(off int) (int, int) {
	c := s.src[off]
	if c < utf8.RuneSelf {
		return int(asciiClass[c]), 1
	}
	r, size := utf8.DecodeRuneInString(s.src[off:])
	return runeClass(r, size), size
}

// advance moves past n bytes that hold one character.
func (s *Scanner) advance(n int) {
	s.off += n
	s.col++
}

// Scan returns the next token, its position and its literal text: the
// source text of the token (for a Word, without the dots at its edges).
// At the end of the input it returns EOF, again and again.
func (s *Scanner) Scan() (pos Pos, tok Token, lit string) {
	// Skip spacing, and the quiet characters that may only join words.
	for s.off < len(s.src) {
		if c := s.src[s.off]; c == ' ' { // the usual case, first
			s.off++
			s.col++
			continue
		}
		cl, n := s.class(s.off)
		if cl != cSpace && cl != cQuiet {
			break
		}
		s.advance(n)
	}
	pos = Pos{Offset: s.off, Line: s.line, Col: s.col}
	if s.off >= len(s.src) {
		return pos, EOF, ""
	}
	start := s.off
	var cl, n int
	if c := s.src[s.off]; c < utf8.RuneSelf { // class, inlined for the usual case
		cl, n = int(asciiClass[c]), 1
	} else {
		cl, n = s.class(s.off)
	}
	switch cl {
	case cNewline:
		if s.src[s.off] == '\r' && s.off+1 < len(s.src) && s.src[s.off+1] == '\n' {
			n = 2
		}
		s.off += n
		s.line++
		s.col = 1
		return pos, EOL, s.src[start:s.off]
	case cLetter:
		end := s.off + n
		s.advance(n)
		for s.off < len(s.src) {
			if c := s.src[s.off]; c < utf8.RuneSelf && asciiClass[c] == cLetter { // the usual case, first
				s.off++
				s.col++
				end = s.off
				continue
			}
			cl, n = s.class(s.off)
			if cl == cLetter {
				s.advance(n)
				end = s.off
			} else if cl == cQuiet {
				s.advance(n)
			} else {
				break
			}
		}
		// Trailing dots were consumed as spacing, but are not part of the word.
		return pos, Word, s.src[start:end]
	case cPunct:
		s.advance(1)
		return pos, punctToken[s.src[start]], s.src[start:s.off]
	case cDash:
		s.advance(n)
		for s.off < len(s.src) {
			if cl, n = s.class(s.off); cl != cDash {
				break
			}
			s.advance(n)
		}
		if s.off < len(s.src) && s.src[s.off] == '>' {
			s.advance(1)
			return pos, Arrow, s.src[start:s.off]
		}
		return pos, Dash, s.src[start:s.off]
	case cEqual:
		if s.src[s.off] != '=' { // "→"
			s.advance(n)
			return pos, Arrow, s.src[start:s.off]
		}
		for s.off < len(s.src) && s.src[s.off] == '=' {
			s.advance(1)
		}
		if s.off < len(s.src) && s.src[s.off] == '>' {
			s.advance(1)
			return pos, Arrow, s.src[start:s.off]
		}
		return pos, Illegal, s.src[start:s.off]
	}
	s.advance(n)
	return pos, Illegal, s.src[start:s.off]
}
