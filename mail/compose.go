package mail

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/mail"
	"strings"
	"time"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"

	"github.com/gmdjudge/gmd/state"
)

// Compose writes m as a complete RFC 5322 message from the judge's
// address from ("judge@example.org" or "GMD <judge@example.org>"), dated
// now: a single text/plain UTF-8 part in quoted-printable, so that long
// report lines survive any relay, with m's fixed Message-ID, In-Reply-To
// and References when it answers a mail, and Auto-Submitted so that
// well-behaved robots do not answer it.
//
// A mail to one recipient names it in To. A mail to several names none of
// them ("To: undisclosed-recipients:;"; the envelope carries them): the
// players of a game must not learn each other's addresses from it.
//
// The subject and every other header value may come from players, so a
// line break or other control character in one is an error rather than a
// header of the player's making.
//
// With attachments the mail is multipart/mixed: the same text part first,
// its text unchanged, so that readers and tools that look only at the
// text see what they saw before, then each attachment in base64.
func Compose(w io.Writer, m *state.OutMail, from string, now time.Time, atts ...Attachment) error {
	// The fields are formatted into a scratch header by go-message's
	// setters, then copied in the usual order.
	var h gomail.Header
	h.SetDate(now)

	fromAddr, err := mail.ParseAddress(from)
	if err != nil {
		return fmt.Errorf("mail: judge address %q: %v", from, err)
	}
	// An encoded word in the name can hold a line break that the parser
	// decoded; go-message would encode it again, but a name with one is
	// no name.
	if err := checkText("From", fromAddr.Name+fromAddr.Address); err != nil {
		return err
	}
	h.SetAddressList("From", []*gomail.Address{fromAddr})

	switch len(m.To) {
	case 0:
		return fmt.Errorf("mail: message %s has no recipient", m.MessageID)
	case 1:
		to, err := recipient(m.To[0])
		if err != nil {
			return err
		}
		h.SetAddressList("To", []*gomail.Address{to})
	default:
		for _, a := range m.To {
			if _, err := recipient(a); err != nil {
				return err
			}
		}
		h.Set("To", "undisclosed-recipients:;")
	}

	if err := checkText("Subject", m.Subject); err != nil {
		return err
	}
	h.SetSubject(m.Subject) // RFC 2047 encoded when not ASCII

	if !validMsgID(m.MessageID) {
		return fmt.Errorf("mail: bad Message-ID %q", m.MessageID)
	}
	h.Set("Message-Id", m.MessageID)
	if m.InReplyTo != "" {
		if !validMsgID(m.InReplyTo) {
			return fmt.Errorf("mail: bad In-Reply-To %q", m.InReplyTo)
		}
		h.Set("In-Reply-To", m.InReplyTo)
		h.Set("References", m.InReplyTo)
		h.Set("Auto-Submitted", "auto-replied")
	} else {
		h.Set("Auto-Submitted", "auto-generated")
	}
	h.Set("MIME-Version", "1.0")
	for _, a := range atts {
		if err := a.check(); err != nil {
			return err
		}
	}

	text := strings.ToValidUTF8(m.Body, "\uFFFD")
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	var b bytes.Buffer
	if len(atts) == 0 {
		setText(&h.Header)
		bw, err := gomail.CreateSingleInlineWriter(&b, ordered(&h))
		if err != nil {
			return fmt.Errorf("mail: %w", err)
		}
		if err := writeClose(bw, []byte(text)); err != nil {
			return err
		}
	} else {
		h.SetContentType("multipart/mixed", map[string]string{"boundary": boundary(m.MessageID)})
		if err := composeMixed(&b, ordered(&h), text, atts); err != nil {
			return err
		}
	}
	// No body line may start with "From ": mbox files (and the dry-run
	// output) would cut the message there, and some relays add a '>'.
	// Quoted-printable can write the F as =46, which every reader decodes
	// back, so the text arrives as written.
	out := bytes.ReplaceAll(b.Bytes(), []byte("\r\nFrom "), []byte("\r\n=46rom "))
	_, err = w.Write(out)
	return err
}

// Attachment is a file a mail carries after its text: the picture of the
// board, for one.
type Attachment struct {
	Name        string // the file name a mail client offers: "S1901M.png"
	ContentType string // "image/png"
	Data        []byte
}

// check refuses an attachment whose name or type would not make a clean
// header field.
func (a *Attachment) check() error {
	if a.Name == "" || strings.ContainsAny(a.Name, `"\/`) {
		return fmt.Errorf("mail: bad attachment name %q", a.Name)
	}
	if err := checkText("attachment name", a.Name); err != nil {
		return err
	}
	if t, _, ok := strings.Cut(a.ContentType, "/"); !ok || t == "" || strings.ContainsAny(a.ContentType, " ;\"") {
		return fmt.Errorf("mail: bad attachment type %q", a.ContentType)
	}
	return checkText("attachment type", a.ContentType)
}

// setText makes h the header of the text: UTF-8 in quoted-printable.
func setText(h *message.Header) {
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Transfer-Encoding", "quoted-printable")
}

// boundary returns the MIME boundary of the mail with Message-ID msgID.
// It is made from the Message-ID, so that a mail sent again is the same
// message; it starts with "=_", which neither quoted-printable (where '='
// is always an escape followed by two hex digits) nor base64 can
// contain, so no part can hold it.
func boundary(msgID string) string {
	sum := sha256.Sum256([]byte(msgID))
	return "=_gmd_" + hex.EncodeToString(sum[:12])
}

// composeMixed writes a multipart/mixed message with header h, which
// names the boundary: text, then atts.
func composeMixed(w io.Writer, h gomail.Header, text string, atts []Attachment) error {
	mw, err := message.CreateWriter(w, h.Header)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	var th gomail.InlineHeader
	setText(&th.Header)
	th.Set("Content-Disposition", "inline")
	tw, err := mw.CreatePart(th.Header)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	if err := writeClose(tw, []byte(text)); err != nil {
		return err
	}
	for _, a := range atts {
		var ah gomail.AttachmentHeader
		ah.SetContentType(a.ContentType, map[string]string{"name": a.Name})
		ah.Set("Content-Transfer-Encoding", "base64")
		ah.SetFilename(a.Name)
		aw, err := mw.CreatePart(ah.Header)
		if err != nil {
			return fmt.Errorf("mail: %w", err)
		}
		if err := writeClose(aw, a.Data); err != nil {
			return err
		}
	}
	return mw.Close()
}

// writeClose writes b to w and closes it, which ends its encoding.
func writeClose(w io.WriteCloser, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return err
	}
	return w.Close()
}

// fieldOrder is the order of the header fields, the one people are used
// to reading.
var fieldOrder = []string{
	"Date", "From", "To", "Subject", "Message-Id", "In-Reply-To", "References",
	"Auto-Submitted", "MIME-Version", "Content-Type", "Content-Transfer-Encoding",
}

// ordered returns the fields of h in fieldOrder. go-message writes a
// header's fields last added first, hence the reverse loop.
func ordered(h *gomail.Header) gomail.Header {
	var o gomail.Header
	for i := len(fieldOrder) - 1; i >= 0; i-- {
		if k := fieldOrder[i]; h.Has(k) {
			o.Add(k, h.Get(k))
		}
	}
	return o
}

// recipient checks one address of m.To.
func recipient(addr string) (*gomail.Address, error) {
	if err := checkText("To", addr); err != nil {
		return nil, err
	}
	a, err := mail.ParseAddress(addr)
	if err != nil || a.Name != "" {
		return nil, fmt.Errorf("mail: bad recipient address %q", addr)
	}
	return a, nil
}

// checkText refuses header text with control characters: a CR or LF
// would let whoever wrote the text add headers of their own.
func checkText(field, s string) error {
	if i := strings.IndexFunc(s, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }); i >= 0 {
		return fmt.Errorf("mail: %s contains a control character (%q at byte %d)", field, s[i], i)
	}
	return nil
}

// validMsgID reports whether id is a message identifier as RFC 5322
// §3.6.4 writes it, "<left@right>", in the printable ASCII characters
// that may appear there.
func validMsgID(id string) bool {
	if len(id) < 5 || len(id) > 998 || id[0] != '<' || id[len(id)-1] != '>' {
		return false
	}
	inner := id[1 : len(id)-1]
	at := strings.LastIndexByte(inner, '@')
	if at <= 0 || at == len(inner)-1 {
		return false
	}
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '"' || c == '\\' || c == ',' || c == ';' {
			return false
		}
	}
	return true
}
