package jsonpos

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// The contract's JSON has a fixed shape, so it is read by a small strict
// reader instead of encoding/json: every error can then name the field it
// is about ("units[3].at: ..."), unknown and repeated fields are errors,
// and strings come back as slices of the input instead of new allocations,
// which keeps -batch fast.

// fieldError is a problem with the value at a path in the document.
type fieldError struct {
	path string // "units[3].at"; empty for the top-level value
	msg  string
}

func (e *fieldError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

// in returns err with elem put in front of its path: elem is a field name
// ("units") or an index ("[3]"). Syntax errors keep their line and column
// instead.
func in(elem string, err error) error {
	fe, ok := err.(*fieldError)
	if !ok {
		return err
	}
	switch {
	case fe.path == "":
		fe.path = elem
	case fe.path[0] == '[':
		fe.path = elem + fe.path
	default:
		fe.path = elem + "." + fe.path
	}
	return fe
}

func errorf(format string, args ...any) error {
	return &fieldError{msg: fmt.Sprintf(format, args...)}
}

// syntaxError is malformed JSON, located by line and column (1-based,
// counting bytes) in the text that was read.
type syntaxError struct {
	line, col int
	msg       string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("JSON syntax error at line %d col %d: %s", e.line, e.col, e.msg)
}

// reader walks one JSON document.
type reader struct {
	data []byte
	i    int
}

func (r *reader) syntax(format string, args ...any) error {
	line, col := 1, 1
	for _, c := range r.data[:min(r.i, len(r.data))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &syntaxError{line, col, fmt.Sprintf(format, args...)}
}

func (r *reader) ws() {
	for r.i < len(r.data) {
		switch r.data[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the first byte of the next token, or 0 at the end.
func (r *reader) peek() byte {
	r.ws()
	if r.i >= len(r.data) {
		return 0
	}
	return r.data[r.i]
}

// typeError reports that the value at r is not what the schema wants
// (want is "a string", "an object", ...), or a syntax error if it is no
// JSON value at all.
func (r *reader) typeError(want string) error {
	c := r.peek()
	lit := func(s string) bool { return bytes.HasPrefix(r.data[r.i:], []byte(s)) }
	switch {
	case c == 'n' && !lit("null"), c == 't' && !lit("true"), c == 'f' && !lit("false"):
		return r.syntax("invalid literal")
	case c != 0 && what(c)[0] == '\'':
		return r.syntax("unexpected %s", what(c))
	}
	return errorf("want %s, got %s", want, what(c))
}

// what names the kind of the value that starts with c, for type errors.
func what(c byte) string {
	switch {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	case c == 0:
		return "the end of the input"
	}
	return fmt.Sprintf("%q", c)
}

// null consumes a null if one is next. The contract treats null like an
// absent field, as encoding/json does.
func (r *reader) null() (bool, error) {
	if r.peek() != 'n' {
		return false, nil
	}
	if !bytes.HasPrefix(r.data[r.i:], []byte("null")) {
		return false, r.syntax("invalid literal")
	}
	r.i += 4
	return true, nil
}

// end checks that nothing but white space follows the document.
func (r *reader) end() error {
	if c := r.peek(); c != 0 {
		return r.syntax("more after the end of the value")
	}
	return nil
}

// object reads an object, calling field for each key with the reader
// placed at the value; field must consume the value. The caller checks
// that no field is given twice (see fieldSet): a repeated field is an
// error, never a silent override.
func (r *reader) object(field func(key []byte) error) error {
	if r.peek() != '{' {
		return r.typeError("an object")
	}
	r.i++
	if r.peek() == '}' {
		r.i++
		return nil
	}
	for {
		if r.peek() != '"' {
			return r.syntax("want a field name in double quotes")
		}
		key, err := r.rawString()
		if err != nil {
			return err
		}
		if r.peek() != ':' {
			return r.syntax("want ':' after the field name %q", key)
		}
		r.i++
		r.ws()
		if err := field(key); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return nil
		default:
			return r.syntax("want ',' or '}' after the value of %q", key)
		}
	}
}

// fieldSet records which fields of an object were seen, by the bit
// numbers a decoder gives them.
type fieldSet uint32

// add marks field bit as seen, or fails if it was seen before.
func (s *fieldSet) add(bit uint) error {
	if *s&(1<<bit) != 0 {
		return errorf("given twice")
	}
	*s |= 1 << bit
	return nil
}

// str reads the string value of field bit, which must not have been
// seen before.
func (s *fieldSet) str(bit uint, r *reader) ([]byte, error) {
	if err := s.add(bit); err != nil {
		return nil, err
	}
	return r.str()
}

// array reads an array, calling elem for each element with the reader
// placed at it; elem must consume the element. A null reads as empty.
func (r *reader) array(elem func(i int) error) error {
	if ok, err := r.null(); ok || err != nil {
		return err
	}
	if r.peek() != '[' {
		return r.typeError("an array")
	}
	r.i++
	if r.peek() == ']' {
		r.i++
		return nil
	}
	for n := 0; ; n++ {
		r.ws()
		if err := elem(n); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.i++
			if r.peek() == ']' {
				return r.syntax("want a value after ','")
			}
		case ']':
			r.i++
			return nil
		default:
			return r.syntax("want ',' or ']' in an array")
		}
	}
}

// str reads a string value; null reads as the empty string.
func (r *reader) str() ([]byte, error) {
	if ok, err := r.null(); ok || err != nil {
		return nil, err
	}
	if r.peek() != '"' {
		return nil, r.typeError("a string")
	}
	return r.rawString()
}

// rawString reads the string at r.i (which holds the opening quote). The
// result aliases the input unless the string has escapes.
func (r *reader) rawString() ([]byte, error) { return r.rawStringTo(nil) }

// rawStringTo is rawString, but a string with escapes is unescaped into
// *buf, which keeps the grown storage: for a caller that copies the result
// at once and reads many such strings. A nil buf allocates.
func (r *reader) rawStringTo(buf *[]byte) ([]byte, error) {
	r.i++
	start := r.i
	for r.i < len(r.data) {
		// Skip the plain bytes with one table look-up each.
		for r.i < len(r.data) && plain[r.data[r.i]] {
			r.i++
		}
		if r.i == len(r.data) {
			break
		}
		c := r.data[r.i]
		switch {
		case c == '"':
			s := r.data[start:r.i]
			r.i++
			return s, nil
		case c == '\\':
			if buf == nil {
				return r.escapedString(start, nil)
			}
			s, err := r.escapedString(start, (*buf)[:0])
			*buf = s
			return s, err
		case c < 0x20:
			return nil, r.syntax("control character in a string")
		}
		r.i++
	}
	return nil, r.syntax("unterminated string")
}

// plain marks the bytes that stand for themselves in a JSON string.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// escapedString finishes a string that has escapes, copying it to out.
func (r *reader) escapedString(start int, out []byte) ([]byte, error) {
	out = append(out, r.data[start:r.i]...)
	for r.i < len(r.data) {
		c := r.data[r.i]
		switch {
		case c == '"':
			r.i++
			return out, nil
		case c < 0x20:
			return nil, r.syntax("control character in a string")
		case c != '\\':
			out = append(out, c)
			r.i++
			continue
		}
		if r.i+1 >= len(r.data) {
			break
		}
		e := r.data[r.i+1]
		r.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			c1, ok := r.hex4()
			if !ok {
				return nil, r.syntax("bad \\u escape")
			}
			ch := rune(c1)
			if utf16.IsSurrogate(ch) {
				// A pair of escapes makes one character; a lone half
				// becomes U+FFFD, as in encoding/json.
				ch = utf8.RuneError
				if bytes.HasPrefix(r.data[r.i:], []byte(`\u`)) {
					save := r.i
					r.i += 2
					if c2, ok := r.hex4(); ok && utf16.DecodeRune(rune(c1), rune(c2)) != utf8.RuneError {
						ch = utf16.DecodeRune(rune(c1), rune(c2))
					} else {
						r.i = save
					}
				}
			}
			out = utf8.AppendRune(out, ch)
		default:
			r.i -= 2
			return nil, r.syntax("bad escape \\%c", e)
		}
	}
	return nil, r.syntax("unterminated string")
}

func (r *reader) hex4() (uint16, bool) {
	if r.i+4 > len(r.data) {
		return 0, false
	}
	var v uint16
	for _, c := range r.data[r.i : r.i+4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint16(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint16(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | uint16(c-'A'+10)
		default:
			return 0, false
		}
	}
	r.i += 4
	return v, true
}
