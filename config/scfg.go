package config

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// A Directive is one line of the file: a name, its parameters, and the
// block that followed it, if any.
//
//	name param1 "param 2" {
//		child params
//	}
type Directive struct {
	Name     string
	Params   []string
	Children Block // nil when the directive had no block
	Line     int   // where the name was read, counting from 1
}

// A Block is a list of directives, in file order.
type Block []*Directive

// Read reads a file in the scfg syntax (https://git.sr.ht/~emersion/scfg),
// the one soju and other emersion daemons use, with two conveniences: a
// semicolon ends a directive like a newline does, and braces need no
// spaces around them, so a small block fits on one line:
//
//	limits { max-mail-size 1M; max-line-length 1000 }
//
// Words are separated by spaces or tabs. A word may be quoted with "..."
// (where a backslash escapes the next character) or '...' (taken as is);
// quoted and unquoted pieces next to each other form one word, and ""
// is an empty word. Outside quotes a backslash escapes the next character,
// and a backslash at the end of a line continues the directive on the
// next line. A # that starts a word begins a comment that runs to the end
// of the line.
//
// Errors are of type *Error and name the line; file is only used in them.
func Read(r io.Reader, file string) (Block, error) {
	lx := &lexer{r: bufio.NewReader(r), file: file, line: 1}
	p := &blockParser{lx: lx}
	if err := p.next(); err != nil {
		return nil, err
	}
	return p.block(0)
}

// tokenKind is what the lexer found.
type tokenKind int

const (
	tokWord  tokenKind = iota
	tokEnd             // the end of a directive: a newline or ';'
	tokOpen            // '{'
	tokClose           // '}'
	tokEOF
)

type token struct {
	kind tokenKind
	text string // the word, for tokWord
	line int
}

// lexer splits the file into words and punctuation.
type lexer struct {
	r    *bufio.Reader
	file string
	line int
}

func (lx *lexer) errorf(line int, format string, args ...any) error {
	return &Error{File: lx.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// read returns the next rune, or 0 and io.EOF.
func (lx *lexer) read() (rune, error) {
	c, _, err := lx.r.ReadRune()
	if err != nil {
		if err != io.EOF {
			err = &Error{File: lx.file, Line: lx.line, Msg: err.Error()}
		}
		return 0, err
	}
	if c == '\n' {
		lx.line++
	}
	return c, nil
}

func (lx *lexer) unread(c rune) {
	_ = lx.r.UnreadRune() // always valid right after a ReadRune
	if c == '\n' {
		lx.line--
	}
}

func (lx *lexer) next() (token, error) {
	// Skip blanks, comments and line continuations.
	for {
		c, err := lx.read()
		if err == io.EOF {
			return token{kind: tokEOF, line: lx.line}, nil
		} else if err != nil {
			return token{}, err
		}
		switch c {
		case ' ', '\t', '\r':
			continue
		case '\n':
			return token{kind: tokEnd, line: lx.line - 1}, nil
		case ';':
			return token{kind: tokEnd, line: lx.line}, nil
		case '{':
			return token{kind: tokOpen, line: lx.line}, nil
		case '}':
			return token{kind: tokClose, line: lx.line}, nil
		case '#':
			// The newline that ends the comment ends the directive.
			if err := lx.skipLine(); err != nil {
				return token{}, err
			}
		case '\\':
			// A backslash before the newline joins the lines; before
			// anything else it starts a word with that character.
			n, err := lx.read()
			if err == io.EOF {
				return token{}, lx.errorf(lx.line, "backslash at the end of the file")
			} else if err != nil {
				return token{}, err
			}
			if n == '\n' {
				continue
			}
			return lx.word(string(n))
		default:
			lx.unread(c)
			return lx.word("")
		}
	}
}

// skipLine consumes the rest of a comment line, up to the newline, which
// it leaves for next.
func (lx *lexer) skipLine() error {
	for {
		c, err := lx.read()
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if c == '\n' {
			lx.unread(c)
			return nil
		}
	}
}

// word reads one word, which starts with prefix and goes on with the
// next rune.
func (lx *lexer) word(prefix string) (token, error) {
	start := lx.line
	var b strings.Builder
	b.WriteString(prefix)
	for {
		c, err := lx.read()
		if err == io.EOF {
			return token{kind: tokWord, text: b.String(), line: start}, nil
		} else if err != nil {
			return token{}, err
		}
		switch c {
		case ' ', '\t', '\r', '\n', ';', '{', '}':
			lx.unread(c)
			return token{kind: tokWord, text: b.String(), line: start}, nil
		case '"', '\'':
			if err := lx.quoted(&b, c); err != nil {
				return token{}, err
			}
		case '\\':
			n, err := lx.read()
			if err == io.EOF {
				return token{}, lx.errorf(lx.line, "backslash at the end of the file")
			} else if err != nil {
				return token{}, err
			}
			if n == '\n' {
				// A continuation ends the word; the directive goes on.
				return token{kind: tokWord, text: b.String(), line: start}, nil
			}
			b.WriteRune(n)
		default:
			b.WriteRune(c)
		}
	}
}

// quoted reads a quoted piece up to its closing quote q.
func (lx *lexer) quoted(b *strings.Builder, q rune) error {
	start := lx.line
	for {
		c, err := lx.read()
		if err == io.EOF || c == '\n' {
			return lx.errorf(start, "unterminated quoted string (a %c is missing)", q)
		} else if err != nil {
			return err
		}
		switch {
		case c == q:
			return nil
		case c == '\\' && q == '"':
			n, err := lx.read()
			if err == io.EOF || n == '\n' {
				return lx.errorf(start, "unterminated quoted string (a %c is missing)", q)
			} else if err != nil {
				return err
			}
			b.WriteRune(n)
		default:
			b.WriteRune(c)
		}
	}
}

// blockParser builds the directive tree from the tokens, one token ahead.
type blockParser struct {
	lx  *lexer
	tok token
}

func (p *blockParser) next() error {
	t, err := p.lx.next()
	p.tok = t
	return err
}

// block reads directives up to the '}' that closes the block opened on
// line open, or to the end of the file at the top level (open == 0).
func (p *blockParser) block(open int) (Block, error) {
	var b Block
	for {
		switch p.tok.kind {
		case tokEnd:
			if err := p.next(); err != nil {
				return nil, err
			}
			continue
		case tokEOF:
			if open > 0 {
				return nil, p.lx.errorf(p.tok.line, "unexpected end of file: the block opened on line %d has no closing }", open)
			}
			return b, nil
		case tokClose:
			if open == 0 {
				return nil, p.lx.errorf(p.tok.line, "unexpected } (no block is open)")
			}
			return b, p.next()
		case tokOpen:
			return nil, p.lx.errorf(p.tok.line, "unexpected { (a block must follow a directive name)")
		}
		d, err := p.directive()
		if err != nil {
			return nil, err
		}
		b = append(b, d)
	}
}

// directive reads one directive, its name being the current token.
func (p *blockParser) directive() (*Directive, error) {
	d := &Directive{Name: p.tok.text, Line: p.tok.line}
	if d.Name == "" {
		return nil, p.lx.errorf(d.Line, "empty directive name")
	}
	for {
		if err := p.next(); err != nil {
			return nil, err
		}
		switch p.tok.kind {
		case tokWord:
			d.Params = append(d.Params, p.tok.text)
			continue
		case tokOpen:
			open := p.tok.line
			if err := p.next(); err != nil {
				return nil, err
			}
			children, err := p.block(open)
			if err != nil {
				return nil, err
			}
			if children == nil {
				children = Block{} // "{ }" is a block, if an empty one
			}
			d.Children = children
			// After the closing brace the directive is over.
			switch p.tok.kind {
			case tokEnd, tokClose, tokEOF:
				return d, nil
			}
			return nil, p.lx.errorf(p.tok.line, "%s: unexpected text after the closing } of the block", d.Name)
		}
		// tokEnd, tokClose and tokEOF end the directive; block deals with them.
		return d, nil
	}
}
