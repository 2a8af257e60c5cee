package templates

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// LineWidth is the longest line gmd writes in its mails, in characters:
// RFC 5322 asks for lines of at most 78. The classic layout's order
// lines (one order per line, however long) are the exception.
const LineWidth = 78

// Wrap breaks every line of text longer than LineWidth at spaces, so that
// each piece fits; the pieces after the first keep the line's own
// indentation. A word longer than the room left stays whole on a line of
// its own. Lines that fit are left as they are, and so is the end of the
// text (a final newline or none).
func Wrap(text string) string {
	if !tooLong(text) {
		return text
	}
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		wrapLine(&b, line)
	}
	return b.String()
}

// tooLong reports whether any line of text is longer than LineWidth.
func tooLong(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if utf8.RuneCountInString(line) > LineWidth {
			return true
		}
	}
	return false
}

// wrapLine writes one line, broken as Wrap says, without a final newline.
func wrapLine(b *strings.Builder, line string) {
	if utf8.RuneCountInString(line) <= LineWidth {
		b.WriteString(line)
		return
	}
	body := strings.TrimLeftFunc(line, unicode.IsSpace)
	indent := line[:len(line)-len(body)]
	width := utf8.RuneCountInString(indent)
	n := width
	b.WriteString(indent)
	for i, w := range strings.Fields(body) {
		wn := utf8.RuneCountInString(w)
		if i > 0 && n+1+wn > LineWidth {
			b.WriteByte('\n')
			b.WriteString(indent)
			n = width
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += wn
	}
}
