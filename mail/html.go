package mail

import (
	"html"
	"strings"
)

// HTMLToText turns the HTML of an HTML-only mail into the text a player
// meant: tags are dropped, <br> and the block elements (<p>, <div>, <li>,
// <tr>, headings...) end lines, as Gmail and Outlook write one <div> or
// <p> per line; entities are decoded; whatever is inside <head>, <style>
// and <script> is skipped, and <pre> keeps its spacing.
//
// It is a tag stripper, not an HTML parser: orders are short lines of
// text, and this is all they need.
func HTMLToText(src string) string {
	var c converter
	for i := 0; i < len(src); {
		if c.skip != "" {
			// Script and style text is not HTML: jump to the end tag.
			j := indexEndTag(src[i:], c.skip)
			if j < 0 {
				break
			}
			i += j
		}
		if src[i] != '<' {
			j := strings.IndexByte(src[i:], '<')
			if j < 0 {
				j = len(src) - i
			}
			c.text(src[i : i+j])
			i += j
			continue
		}
		if strings.HasPrefix(src[i:], "<!--") {
			end := strings.Index(src[i+4:], "-->")
			if end < 0 {
				break // an unclosed comment hides the rest
			}
			i += 4 + end + 3
			continue
		}
		if i+1 == len(src) || !isTagStart(src[i+1]) {
			c.text("<") // a lone '<', as in "a < b"
			i++
			continue
		}
		end := tagEnd(src, i+1)
		if end < 0 {
			break // a tag cut off by the end of the text
		}
		c.tag(src[i+1 : end])
		i = end + 1
	}
	c.flush()
	return tidy(c.out.String())
}

// indexEndTag returns the index in s of the first "</name", name in any
// case, or -1. It looks at each "</" once: lowering the rest of the text
// at every skipped element instead took time growing with the square of
// the text, a minute for a megabyte of "<style></style>".
func indexEndTag(s, name string) int {
	for i := 0; ; i += 2 {
		j := strings.Index(s[i:], "</")
		if j < 0 {
			return -1
		}
		i += j
		if rest := s[i+2:]; len(rest) >= len(name) && strings.EqualFold(rest[:len(name)], name) {
			return i
		}
	}
}

func isTagStart(b byte) bool {
	return b == '/' || b == '!' || b == '?' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// tagEnd returns the index of the '>' that closes the tag whose text
// starts at i, skipping quoted attribute values, or -1.
func tagEnd(s string, i int) int {
	var quote byte
	for ; i < len(s); i++ {
		switch b := s[i]; {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '"' || b == '\'':
			quote = b
		case b == '>':
			return i
		}
	}
	return -1
}

// converter accumulates the text.
type converter struct {
	out  strings.Builder
	run  strings.Builder // text not yet written, still with its entities
	skip string          // the element whose content is being skipped
	pre  int             // depth of <pre> elements
}

func (c *converter) text(s string) {
	if c.skip == "" {
		c.run.WriteString(s)
	}
}

// flush writes the pending text, decoded, with white space collapsed
// outside <pre> as a browser does.
func (c *converter) flush() {
	if c.run.Len() == 0 {
		return
	}
	t := html.UnescapeString(c.run.String())
	c.run.Reset()
	t = strings.ReplaceAll(t, "\u00a0", " ")
	if c.pre == 0 {
		if s := c.out.String(); s == "" || strings.HasSuffix(s, "\n") {
			// Spaces at the start of a line are the source's indentation.
			t = strings.TrimLeft(t, " \t\n\r\f")
		}
		var b strings.Builder
		space := false
		for _, r := range t {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' {
				space = true
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
		if space {
			b.WriteByte(' ')
		}
		t = b.String()
	}
	c.out.WriteString(t)
}

// newline ends the current line, unless it is empty.
func (c *converter) newline() {
	if s := c.out.String(); s != "" && !strings.HasSuffix(s, "\n") {
		c.out.WriteByte('\n')
	}
}

// tag handles one tag, given its text between < and >.
func (c *converter) tag(t string) {
	closing := strings.HasPrefix(t, "/")
	t = strings.TrimPrefix(t, "/")
	n := 0
	for n < len(t) && (isLetter(t[n]) || '0' <= t[n] && t[n] <= '9') {
		n++
	}
	name := strings.ToLower(t[:n])
	selfClosing := strings.HasSuffix(t, "/")
	if c.skip != "" {
		if closing && name == c.skip {
			c.skip = ""
		}
		return
	}
	switch name {
	case "head", "style", "script", "title", "template":
		if !closing && !selfClosing {
			c.flush()
			c.skip = name
		}
	case "br":
		c.flush()
		c.out.WriteByte('\n')
	case "pre":
		c.flush()
		c.newline()
		if closing && c.pre > 0 {
			c.pre--
		} else if !closing {
			c.pre++
		}
	case "p", "div", "li", "tr", "ul", "ol", "table", "blockquote", "hr",
		"h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "dl",
		"section", "article", "header", "footer", "address", "center":
		c.flush()
		c.newline()
	case "td", "th":
		c.flush()
		if !closing {
			c.run.WriteByte(' ')
		}
	}
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// tidy trims the lines, keeps at most one blank line in a row, and drops
// blank lines at both ends.
func tidy(s string) string {
	var out []string
	blank := false
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, " \t")
		l = strings.TrimLeft(l, " ")
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}
