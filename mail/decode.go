// Package mail turns Internet mail into what the game master reads, and
// what it writes back into Internet mail: RFC 5322 and MIME through
// github.com/emersion/go-message.
package mail

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // ISO-8859-*, Windows-125*, KOI8, ... besides UTF-8
	gomail "github.com/emersion/go-message/mail"
	"golang.org/x/text/encoding/charmap"
)

// ErrTooLarge is returned (wrapped) by Decode for a message over the size
// limit. The Incoming returned with it has the headers but no body, so
// that the caller can answer politely.
var ErrTooLarge = errors.New("mail: message too large")

// Incoming is one received mail, decoded to plain text.
type Incoming struct {
	From      string // the sender's bare address, domain in lower case
	Subject   string // decoded (RFC 2047), on one line
	Body      string // the text, "\n" line ends
	MessageID string // "<id@host>", or "" if missing or malformed

	// AutoReply says the mail was sent by a machine (a bounce, a vacation
	// reply, a mailing list): the judge must not answer it, or two robots
	// could write to each other forever. AutoReason says why.
	AutoReply  bool
	AutoReason string
}

// Decode reads one RFC 5322 message from r, up to maxSize bytes (no limit
// if maxSize <= 0), and reads r to its end either way.
//
// The body is the first text/plain part that is not an attachment, or
// failing that the first text/html part converted to text; transfer
// encodings (quoted-printable, base64) and charsets are undone, and
// format=flowed lines are joined back. Other parts are ignored. Parts are
// read in order until the text is found; a multipart nested more than
// MaxDepth levels deep on the way is an error.
//
// A message larger than maxSize returns an error wrapping ErrTooLarge,
// with an Incoming holding the headers if they could be read.
func Decode(r io.Reader, maxSize int64) (*Incoming, error) {
	var data []byte
	var err error
	if maxSize > 0 {
		data, err = io.ReadAll(io.LimitReader(r, maxSize+1))
	} else {
		data, err = io.ReadAll(r)
	}
	if err != nil {
		return nil, fmt.Errorf("mail: reading the message: %w", err)
	}
	if maxSize > 0 && int64(len(data)) > maxSize {
		// Drain the rest, so that a pipe's writer is not killed by SIGPIPE
		// and an IMAP literal is consumed.
		_, _ = io.Copy(io.Discard, r)
		return decodeHeader(data), fmt.Errorf("%w: over %d bytes", ErrTooLarge, maxSize)
	}

	e, err := message.Read(bytes.NewReader(data))
	if err != nil && !message.IsUnknownCharset(err) {
		return nil, fmt.Errorf("mail: %w", err)
	}
	in, err := incoming(&gomail.Header{Header: e.Header})
	if err != nil {
		return nil, err
	}
	w := walker{}
	if err := w.walk(e, 0); err != nil && !errors.Is(err, errFound) {
		return nil, err
	}
	if w.haveText {
		in.Body = w.text
	} else {
		in.Body = w.html
	}
	return in, nil
}

// decodeHeader reads only the header of the start of a message, or
// returns nil if the header is not all there: a From cut short could be
// someone else's address.
func decodeHeader(data []byte) *Incoming {
	if !bytes.Contains(data, []byte("\r\n\r\n")) && !bytes.Contains(data, []byte("\n\n")) {
		return nil
	}
	e, err := message.Read(bytes.NewReader(data))
	if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
		return nil
	}
	in, err := incoming(&gomail.Header{Header: e.Header})
	if err != nil {
		return nil
	}
	return in
}

// incoming fills an Incoming from the message header.
func incoming(h *gomail.Header) (*Incoming, error) {
	in := new(Incoming)
	from, err := h.AddressList("From")
	if err != nil || len(from) == 0 {
		return nil, fmt.Errorf("mail: no valid From address (%q)", h.Get("From"))
	}
	in.From = NormalizeAddr(from[0].Address)

	subject, _ := h.Subject() // on error, the raw text is the best there is
	in.Subject = truncateText(oneLine(subject), maxSubject)

	if id, err := h.MessageID(); err == nil && id != "" && validMsgID("<"+id+">") {
		in.MessageID = "<" + id + ">"
	}

	in.AutoReply, in.AutoReason = autoReply(h)
	return in, nil
}

// NormalizeAddr returns a bare address with its domain in lower case.
// The local part keeps its case: RFC 5321 lets a server tell "Bob" from
// "bob", though the game master compares addresses ignoring case.
func NormalizeAddr(addr string) string {
	addr = strings.TrimSpace(addr)
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[:i] + strings.ToLower(addr[i:])
	}
	return addr
}

// maxSubject is the longest Subject kept, in bytes: replies quote it in
// their own subject, and a header line of RFC 5322 holds 998 bytes.
// The rest is cut, as a subject says nothing the judge acts on.
const maxSubject = 200

// truncateText returns s cut to at most n bytes, at a rune boundary.
func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// ReadDelivery decodes a message of size bytes, by the server's count,
// for a Handler, as the poller does and gmd process too: raw is the
// whole message, or at least its header when size is over maxSize (no
// limit when maxSize <= 0). A message over the limit, or whose MIME
// cannot be read, keeps what its header says, if anything, so that its
// sender can be told.
func ReadDelivery(raw []byte, size, maxSize int64) *Delivery {
	d := &Delivery{Size: size, Raw: raw}
	if maxSize > 0 && size > maxSize {
		d.TooLarge = true
		if d.In = decodeHeader(raw); d.In == nil {
			d.DecodeErr = errNoHeader
		}
		return d
	}
	in, err := Decode(bytes.NewReader(raw), maxSize)
	switch {
	case err == nil:
		d.In = in
	case errors.Is(err, ErrTooLarge):
		// The size was understated.
		d.In, d.TooLarge = in, true
		if in == nil {
			d.DecodeErr = errNoHeader
		}
	default:
		// The header may still say whom to tell.
		d.In, d.DecodeErr = decodeHeader(raw), err
	}
	return d
}

// oneLine makes a header text one clean line: line breaks and other
// control characters become spaces, runs of spaces one.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// autoReply tells mails sent by machines, after RFC 3834 and common
// practice.
func autoReply(h *gomail.Header) (bool, string) {
	if v := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted"))); v != "" && v != "no" {
		return true, "Auto-Submitted: " + v
	}
	switch v := strings.ToLower(strings.TrimSpace(h.Get("Precedence"))); v {
	case "bulk", "junk", "list", "auto_reply":
		return true, "Precedence: " + v
	}
	if h.Has("List-Id") {
		return true, "List-Id"
	}
	if h.Has("Return-Path") {
		if rp := strings.TrimSpace(h.Get("Return-Path")); rp == "<>" || rp == "" {
			return true, "empty Return-Path (a bounce)"
		}
	}
	if t, _, _ := h.ContentType(); t == "multipart/report" {
		return true, "multipart/report (a delivery or read report)"
	}
	for _, k := range []string{"X-Autoreply", "X-Autorespond"} {
		if h.Has(k) {
			return true, k
		}
	}
	if from, _ := h.AddressList("From"); len(from) > 0 {
		local, _, _ := strings.Cut(strings.ToLower(from[0].Address), "@")
		if local == "mailer-daemon" {
			return true, "From MAILER-DAEMON (a bounce)"
		}
	}
	return false, ""
}

// MaxDepth is how deep MIME multiparts may nest in a mail Decode reads.
// Mail clients nest three or four levels (mixed, alternative, related);
// every level costs a reader with its buffer that every byte of the
// levels below passes through, so a mail of nothing but nesting could
// cost time and memory growing with the square of its size.
const MaxDepth = 16

// errTooDeep is the error of a mail nested deeper than MaxDepth.
var errTooDeep = fmt.Errorf("mail: MIME parts nested deeper than %d levels", MaxDepth)

// errFound stops the walk at the first text/plain part.
var errFound = errors.New("mail: text found")

// walker picks the text of a message among its parts: the first
// text/plain part that is not an attachment, else the first text/html
// part converted to text. Other parts are ignored.
type walker struct {
	text, html         string
	haveText, haveHTML bool
}

// walk visits e, a part depth levels of multipart down, and its parts in
// order; it returns errFound once it has the text.
func (w *walker) walk(e *message.Entity, depth int) error {
	if mr := e.MultipartReader(); mr != nil {
		if depth >= MaxDepth {
			return errTooDeep
		}
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return nil
			}
			if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
				return fmt.Errorf("mail: %w", err)
			}
			if err != nil && message.IsUnknownEncoding(err) {
				continue // undecodable: as good as absent
			}
			if err := w.walk(p, depth+1); err != nil {
				return err
			}
		}
	}
	typ, params, cerr := e.Header.ContentType()
	if cerr != nil || typ == "" {
		typ = "text/plain" // RFC 2045 §5.2
	}
	if disp, _, _ := e.Header.ContentDisposition(); disp == "attachment" {
		return nil
	}
	switch {
	case typ == "text/plain":
		b, err := readText(e.Body)
		if err != nil {
			return fmt.Errorf("mail: reading the text: %w", err)
		}
		text := toUTF8(b)
		if strings.EqualFold(params["format"], "flowed") {
			text = unflow(text, strings.EqualFold(params["delsp"], "yes"))
		}
		if text != "" && !strings.HasSuffix(text, "\n") {
			// The line end before a MIME boundary belongs to the
			// boundary; the text's last line is a line all the same.
			text += "\n"
		}
		w.text, w.haveText = text, true
		return errFound
	case typ == "text/html" && !w.haveHTML:
		b, err := readText(e.Body)
		if err != nil {
			return fmt.Errorf("mail: reading the text: %w", err)
		}
		w.html, w.haveHTML = HTMLToText(toUTF8(b)), true
	}
	return nil
}

// readText reads the body of a text part. A multipart cut off before
// its closing boundary ends its last part with io.ErrUnexpectedEOF; what
// was read is still what the sender wrote, so it is kept.
func readText(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(r)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	return b, err
}

// toUTF8 normalizes line ends and makes sure the text is UTF-8. By now
// go-message has converted every charset it knows; text that is still
// not UTF-8 had its charset missing, unknown or wrong. If it holds no
// valid multi-byte UTF-8 sequence at all, it is read as Windows-1252 (a
// superset of ISO-8859-1's printable characters), which such mails
// nearly always are; otherwise it is UTF-8 with a few stray bytes, and
// only those become U+FFFD: read as Windows-1252, a byte-order mark
// would turn into "ï»¿" and spoil the first command.
func toUTF8(b []byte) string {
	s := string(b)
	if !utf8.ValidString(s) {
		if w, err := charmap.Windows1252.NewDecoder().Bytes(b); err == nil && !hasUTF8Sequence(b) {
			s = string(w)
		} else {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// hasUTF8Sequence reports whether b holds a valid UTF-8 encoding of a
// character beyond ASCII: Windows-1252 text seldom does by chance, since
// that takes a letter such as "Ã" followed by a symbol such as "©".
func hasUTF8Sequence(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if n > 1 && r != utf8.RuneError {
			return true
		}
		b = b[n:]
	}
	return false
}

// unflow undoes format=flowed (RFC 3676): a line ending in a space goes
// on in the next line. Mail clients such as Thunderbird wrap long lines
// this way; joining them gives back the line the player wrote.
func unflow(s string, delsp bool) string {
	lines := strings.Split(s, "\n")
	var out strings.Builder
	for i, l := range lines {
		// Space-stuffing protects lines that start with a space or "From ".
		l = strings.TrimPrefix(l, " ")
		flowed := strings.HasSuffix(l, " ") && l != "-- " && i < len(lines)-1
		if flowed && delsp {
			l = l[:len(l)-1]
		}
		out.WriteString(l)
		if !flowed && i < len(lines)-1 {
			out.WriteByte('\n')
		}
	}
	return out.String()
}
