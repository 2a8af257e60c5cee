package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
)

// The bounds on what one incoming mail may cost. Replies go to the From
// line, which anyone can write, so each mail is a request to send mail
// to a stranger; and every mail holds the database's write lock while it
// is handled. Config sets the bounds (package config has the defaults):
//
//   - a reply's text is cut at MaxReplySize bytes, at a line end, with a
//     note saying so (replyText);
//   - at most MaxOutputCommands of the commands whose answer is more
//     than a line (those with output in the command table) run, and
//     none once the reply is full; one line at the end lists the lines
//     of those that did not;
//   - one mail causes at most MaxMailsPerMail mails, one per recipient
//     address and the reply included: a press that would go over is
//     refused whole, and once the mails are used up, no later command
//     that mails others (mails in the table) runs. The notices of a
//     command that ran go to the whole game, so the count can exceed
//     the bound by the notices of one command;
//   - a mail sends at most MaxPressPerMail bytes of press text, and a
//     sender at most MaxPressPerPhase in one phase of a game;
//   - a mail costs at most maxBcryptPerMail bcrypt operations, each done
//     outside the write transaction (bcrypt.go).

// replyText is the text of a reply, kept to at most limit bytes (0: no
// limit). Past the limit it drops what it is given and remembers that it
// did; the text kept ends at a line end. Its memory is bounded with it,
// whatever the commands of a mail write.
type replyText struct {
	buf   []byte
	limit int
	cut   bool // text was dropped
}

// WriteString adds s, or what fits of it.
func (r *replyText) WriteString(s string) (int, error) {
	if r.cut {
		return len(s), nil
	}
	if r.limit <= 0 || len(r.buf)+len(s) <= r.limit {
		r.buf = append(r.buf, s...)
		return len(s), nil
	}
	r.buf = append(r.buf, s[:r.limit-len(r.buf)]...)
	if i := strings.LastIndexByte(string(r.buf), '\n'); i >= 0 {
		r.buf = r.buf[:i+1]
	}
	r.cut = true
	return len(s), nil
}

// Write adds p, or what fits of it; for fmt.Fprintf.
func (r *replyText) Write(p []byte) (int, error) { return r.WriteString(string(p)) }

// WriteByte adds c if it fits.
func (r *replyText) WriteByte(c byte) error {
	_, err := r.WriteString(string(c))
	return err
}

// String returns the text kept.
func (r *replyText) String() string { return string(r.buf) }

// Len returns the length of the text kept.
func (r *replyText) Len() int { return len(r.buf) }

// HasSuffix reports whether the text kept ends with s.
func (r *replyText) HasSuffix(s string) bool { return strings.HasSuffix(string(r.buf), s) }

// full reports whether text was dropped: more of the same kind would
// be dropped too.
func (r *replyText) full() bool { return r.cut }

// cutNote is the line that ends a reply whose text was cut.
func cutNote(limit int) string {
	return fmt.Sprintf("[This reply was truncated at %d bytes, the most this judge sends in one reply. "+
		"After that point %s were not run; everything else in your mail was done. Ask for less in one mail.]", limit, outputCommands())
}

// outputCommands names the commands that the table marks output, for the
// line that says some were not run.
func outputCommands() string {
	var names []string
	for name, cmd := range commands {
		if cmd.output {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return engine.ListNames(names)
}

// allowed decides whether the command c, named name after synonyms, may
// run under the bounds on output and mails; if not, it answers for it
// (one line) and returns false.
func (s *session) allowed(name string, c *parser.Command, hide []bool) bool {
	cmd := commands[name]
	if cmd.output {
		// Once the reply is full, what such a command writes would
		// all be cut: it is not run either.
		if most := s.m.cfg.MaxOutputCommands; most > 0 && s.outputs >= most || s.reply.full() {
			s.notRun = append(s.notRun, c.Line)
			return false
		}
		s.outputs++
	}
	// A SET once the mail owes the game a settings notice adds a line to
	// that notice, not a mail: it runs whatever is left.
	addsToNotice := name == "SET" && len(s.changes) > 0
	if cmd.mails && s.mailsLeft() == 0 && !addsToNotice {
		s.paragraph()
		s.printf("> %s", echo(name, c, hide))
		s.fail(c.Line, "%s was not done: this mail has caused %d mails, the most one mail may cause.", name, s.m.cfg.MaxMailsPerMail)
		return false
	}
	return true
}

// reportNotRun adds the one line about the commands that allowed kept
// from running for their output.
func (s *session) reportNotRun() {
	n := len(s.notRun)
	if n == 0 {
		return
	}
	lines := make([]string, 0, 10)
	for _, l := range s.notRun[:min(n, 10)] {
		lines = append(lines, fmt.Sprint(l))
	}
	more := ""
	if n > 10 {
		more = fmt.Sprintf(" and %d more", n-10)
	}
	s.paragraph()
	why := fmt.Sprintf("this judge answers at most %d of %s in one mail", s.m.cfg.MaxOutputCommands, outputCommands())
	if s.reply.full() {
		why = "the reply was full"
	}
	s.fail(0, "Not run (lines %s%s): %s.", strings.Join(lines, ", "), more, why)
}

// mailsLeft returns how many more mails this mail may cause besides its
// reply and the settings notice it already owes; -1 for no limit.
func (s *session) mailsLeft() int {
	most := s.m.cfg.MaxMailsPerMail
	if most <= 0 {
		return -1
	}
	pending := 0
	if len(s.changes) > 0 && s.game != nil {
		pending = len(s.m.Recipients(s.game)) // the notice announceChanges will send
	}
	return max(0, most-1-s.tx.Queued()-pending)
}

// pressRefusal returns why a press of size bytes of text from sender (the
// key of Game.PressSent), to n addresses, may not be sent under the
// bounds, or "".
func (s *session) pressRefusal(sender string, size int64, n int) string {
	cfg := s.m.cfg
	switch left := s.mailsLeft(); {
	case cfg.MaxPressPerMail > 0 && s.pressBytes+size > cfg.MaxPressPerMail:
		return fmt.Sprintf("The press is %d bytes, and one mail may carry at most %d bytes of press (%d sent already).",
			size, cfg.MaxPressPerMail, s.pressBytes)
	case cfg.MaxPressPerPhase > 0 && s.game.PressSent[sender]+size > cfg.MaxPressPerPhase:
		return fmt.Sprintf("The press is %d bytes, and you may send at most %d bytes of press in one phase (%d sent already).",
			size, cfg.MaxPressPerPhase, s.game.PressSent[sender])
	case left >= 0 && n > left:
		return fmt.Sprintf("The press would go to %d addresses, and this mail may cause only %d more mails (at most %d per mail).",
			n, left, cfg.MaxMailsPerMail)
	}
	return ""
}

// notePress counts size bytes of press from sender against the bounds.
func (s *session) notePress(sender string, size int64) {
	s.pressBytes += size
	if s.game.PressSent == nil {
		s.game.PressSent = map[string]int64{}
	}
	s.game.PressSent[sender] += size
}
