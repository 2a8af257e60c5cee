package parser

import (
	"strings"
	"unicode"
)

// Command is one command of a mail body in the judge's command language,
// or a block of order lines.
type Command struct {
	Line int    // line of the command in the mail body, from 1
	Name string // the keyword in upper case: "SIGNON", "SET", "PRESS", ...; "ORDERS" for order lines
	// Args are the words after the keyword as written. For SET the option
	// is Args[0], upper-cased ("WAIT", "DEADLINE", "PASSWORD") up to a
	// ':' or '=' in it: what is glued after one ("PASSWORD:Secret") is a
	// value, kept as written.
	Args []string
	Text string // the line as written, trimmed
	// Body is the text of a PRESS or BROADCAST (the lines up to ENDPRESS)
	// or, for ORDERS and PREVIEW, the order lines themselves, one per line.
	Body string
	// BodyLine is the mail line of Body's first line: line N of Body is
	// mail line BodyLine+N-1.
	BodyLine int
	// Unterminated is set on a PRESS or BROADCAST that has no ENDPRESS:
	// its Body runs to the end of the mail.
	Unterminated bool
}

// ParseMail splits a mail body, already decoded to plain text, into its
// commands and blocks of order lines, in the order of the mail. It never
// fails: what a line means is for the caller to judge, and a line the
// caller cannot use is still returned so that the reply can point at it.
//
// Lines end at "\n", "\r\n" or a lone "\r", as for ParseOrders, and are
// numbered from 1 over the whole body, blank and ignored lines included.
// A byte order mark at the start of the body is skipped.
//
// A command line is a line whose first word, in any case, is a keyword
// of the command table (Commands): a command's Name or one of its
// synonyms, which the Command is named after ("WATCH dt" is OBSERVE). A
// synonym of two words ("SIGN ON", "END PRESS") may be spaced in any way.
// The word must be the whole keyword ("Pres" is not PRESS), and no
// province of the standard map is one. The command's Args are the
// words after the keyword as written, except that the option of a SET,
// Args[0], is upper-cased up to a ':' or '=' in it.
//
// The lines after a PRESS or BROADCAST, up to a line that is ENDPRESS
// alone (in any of its spellings: "ENDBROADCAST", "end press"), are its
// Body, taken as they are: nothing in them is a command, a quotation or a
// signature. A press without that line runs to the end of the mail and is
// marked Unterminated. An ENDPRESS outside a press is a command like any
// other, for the caller to answer.
//
// Outside a press, these lines are ignored: blank lines; quoted lines,
// whose first character other than spacing is '>'; and a line ending in
// "wrote:" when the next line that is not blank is quoted (the "On ...,
// X wrote:" line of a reply). The mail ends, and nothing after it is
// read, at a signature separator (a line "-- " or "--"), at a line
// "-----Original Message-----" (a reply that quotes without '>'), and
// after a SIGNOFF command (or END), which is returned.
//
// Every other line is an order line. A run of order lines, with the blank
// lines between them but none before or after, is one Command named
// ORDERS whose Body is those lines; its Line and BodyLine are the line of
// the first one, and its Text that line trimmed. A run of order lines
// right after a PREVIEW is that command's Body instead (its sandbox):
// they are not the mail's orders.
func ParseMail(body string) []Command {
	body = strings.TrimPrefix(body, "\ufeff")
	var (
		cmds []Command
		s    = mailScanner{src: body}
		// The order block being read: its first line and the offsets of
		// the start of its first line and of the end of its last order
		// line; blkStart < 0 when there is none.
		blk              Command
		blkStart, blkEnd = -1, -1
	)
	flush := func() {
		if blkStart >= 0 {
			blk.Body = normalizeBreaks(body[blkStart:blkEnd])
			if n := len(cmds); n > 0 && cmds[n-1].Name == "PREVIEW" && cmds[n-1].Body == "" {
				// The orders of a PREVIEW's sandbox are its own.
				cmds[n-1].Body, cmds[n-1].BodyLine = blk.Body, blk.BodyLine
			} else {
				cmds = append(cmds, blk)
			}
			blkStart = -1
		}
	}
	for {
		text, start, n, ok := s.next()
		if !ok {
			break
		}
		trimmed := strings.TrimSpace(text)
		switch {
		case trimmed == "":
			continue // blank lines end nothing and begin nothing
		case isSignature(text):
			flush()
			return cmds
		case trimmed[0] == '>' || isAttribution(trimmed) && s.quoteFollows():
			flush()
			continue
		}
		name, args := commandWords(trimmed)
		if name == "" {
			if blkStart < 0 {
				blk = Command{Line: n, Name: "ORDERS", Text: trimmed, BodyLine: n}
				blkStart = start
			}
			blkEnd = start + len(text)
			continue
		}
		flush()
		c := Command{Line: n, Name: name, Args: args, Text: trimmed}
		switch name {
		case "SIGNOFF":
			return append(cmds, c)
		case "PRESS", "BROADCAST":
			c.Body, c.BodyLine, c.Unterminated = s.press()
		}
		cmds = append(cmds, c)
	}
	flush()
	return cmds
}

// commandWords returns the Name and Args of a command line, given trimmed,
// or "" and nil if it is not one.
func commandWords(line string) (name string, args []string) {
	name, rest := keyword(line)
	if name == "" {
		return "", nil
	}
	if args = strings.Fields(rest); len(args) == 0 {
		return name, nil
	}
	if name == "SET" {
		args[0] = upperOption(args[0])
	}
	return name, args
}

// keyword returns the Name of the command whose keyword begins line, and
// the text after the keyword; or "" if line begins with no keyword. A
// keyword of two words is taken before one of one word ("END PRESS" is
// ENDPRESS, "END" is SIGNOFF).
func keyword(line string) (name, rest string) {
	word, rest := firstWord(line)
	var buf, buf2 [maxKeywordLen]byte
	upper, ok := upperKeyword(buf[:0], word)
	if !ok {
		return "", ""
	}
	// The map lookups with string(bytes) do not allocate.
	if seconds := commandPairs[string(upper)]; seconds != nil {
		second, after := firstWord(rest)
		if s, ok := upperKeyword(buf2[:0], second); ok && seconds[string(s)] != "" {
			return seconds[string(s)], after
		}
	}
	return commandKeywords[string(upper)], rest
}

// upperOption returns the option word of a SET in upper case, up to a
// ':' or '=' after which a value may be glued ("PASSWORD:Secret"): a
// value keeps its case.
func upperOption(word string) string {
	i := strings.IndexAny(word, ":=")
	if i < 0 {
		return strings.ToUpper(word)
	}
	return strings.ToUpper(word[:i]) + word[i:]
}

// firstWord splits s into its first word and the text after it. Words are
// separated by Unicode spacing.
func firstWord(s string) (word, rest string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// upperKeyword appends word to buf with its ASCII letters in upper case,
// or returns false if word is too long to be a keyword. Other letters
// stay as they are: "ſet" is not SET.
func upperKeyword(buf []byte, word string) ([]byte, bool) {
	if len(word) > maxKeyword {
		return nil, false
	}
	for i := 0; i < len(word); i++ {
		c := word[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf, true
}

// isSignature reports whether line, as written, ends the mail: a
// signature separator or the line before a quoted message in Outlook's
// style.
func isSignature(line string) bool {
	if line == "-- " || line == "--" {
		return true
	}
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "--") && strings.HasSuffix(t, "--") &&
		equalFold(strings.TrimSpace(strings.Trim(t, "-")), "ORIGINAL MESSAGE")
}

// isAttribution reports whether the trimmed line may introduce quoted
// text: "On Tue, Jan 6, 2004, Judge <judge@example.org> wrote:".
func isAttribution(line string) bool {
	const suffix = "WROTE:"
	return len(line) >= len(suffix) && equalFold(line[len(line)-len(suffix):], suffix)
}

// isEndPress reports whether line ends a press: ENDPRESS, in any of its
// spellings, alone on the line.
func isEndPress(line string) bool {
	name, rest := keyword(line)
	return name == "ENDPRESS" && strings.TrimSpace(rest) == ""
}

// equalFold reports whether s is t, which is upper-case ASCII, in any
// ASCII case. Unlike strings.EqualFold it does not take "ſet" for "SET".
func equalFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != t[i] {
			return false
		}
	}
	return true
}

// normalizeBreaks returns s with every line break written as "\n".
func normalizeBreaks(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// A mailScanner reads a mail body line by line.
type mailScanner struct {
	src  string
	off  int // offset of the next line
	line int // number of the last line read
}

// next returns the next line without its line break, the offset of its
// start and its number, or ok == false at the end of the body.
func (s *mailScanner) next() (text string, start, line int, ok bool) {
	if s.off >= len(s.src) {
		return "", s.off, s.line, false
	}
	start = s.off
	end := len(s.src)
	if i := strings.IndexAny(s.src[start:], "\r\n"); i >= 0 {
		end = start + i
	}
	s.off = end
	if s.off < len(s.src) {
		s.off++
		if s.src[end] == '\r' && s.off < len(s.src) && s.src[s.off] == '\n' {
			s.off++
		}
	}
	s.line++
	return s.src[start:end], start, s.line, true
}

// quoteFollows reports whether the next line that is not blank is a
// quoted line, without reading it. It looks past blank lines only, which
// a later call does not look at again, so reading a mail stays linear.
func (s *mailScanner) quoteFollows() bool {
	peek := *s
	for {
		text, _, _, ok := peek.next()
		if !ok {
			return false
		}
		if t := strings.TrimLeftFunc(text, unicode.IsSpace); t != "" {
			return t[0] == '>'
		}
	}
}

// press reads the body of a PRESS or BROADCAST: the lines up to the line
// that ends it, which is read too. It returns the body with "\n" line
// breaks, the number of its first line, and whether the end line was
// missing.
func (s *mailScanner) press() (body string, bodyLine int, unterminated bool) {
	bodyLine = s.line + 1
	start, end := s.off, s.off
	for {
		text, off, _, ok := s.next()
		if !ok {
			return normalizeBreaks(s.src[start:end]), bodyLine, true
		}
		if isEndPress(text) {
			return normalizeBreaks(s.src[start:end]), bodyLine, false
		}
		end = off + len(text)
	}
}
