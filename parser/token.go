package parser

import "strconv"

// Token is the kind of a lexical token of order text.
type Token uint8

// The tokens. A player's text has few of them: words, a handful of
// punctuation marks, and line ends. Everything else is Illegal, so that the
// parser can point at it.
const (
	EOF       Token = iota // end of the input
	EOL                    // end of a line: "\n", "\r\n" or a lone "\r"
	Word                   // letters and digits, with dots and apostrophes inside
	Dash                   // "-", "--" and the typographic dashes mail programs put in its place
	Arrow                  // "->", "=>" or "→"
	Comma                  // ","
	Semicolon              // ";"
	Colon                  // ":"
	Slash                  // "/"
	LParen                 // "("
	RParen                 // ")"
	Illegal                // any other character
)

var tokenNames = [...]string{
	EOF:       "EOF",
	EOL:       "EOL",
	Word:      "Word",
	Dash:      "-",
	Arrow:     "->",
	Comma:     ",",
	Semicolon: ";",
	Colon:     ":",
	Slash:     "/",
	LParen:    "(",
	RParen:    ")",
	Illegal:   "Illegal",
}

// String returns the token's punctuation, or its name for the other kinds.
func (t Token) String() string {
	if int(t) < len(tokenNames) {
		return tokenNames[t]
	}
	return "Token(" + strconv.Itoa(int(t)) + ")"
}

// Pos is a position in the source text. Line and Col are 1-based; Col
// counts characters (runes), not bytes, because it is shown to players
// whose mail may hold accented names or typographic dashes.
type Pos struct {
	Offset int // byte offset into the source
	Line   int
	Col    int
}
