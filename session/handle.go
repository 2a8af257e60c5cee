package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// errStop is returned by a command after which nothing more of the mail
// may be done (a wrong password, RESIGN). It is not a failure: the mail
// is still answered and recorded.
var errStop = errors.New("gm: stop reading the mail")

// command is how the game master runs a command of the command table
// (parser.Commands), which says who may send it.
type command struct {
	run func(*session, *parser.Command) error
	// secret says which of the command's words are, or may be, a
	// password; nil for a command that takes none. The reply's echo of
	// the command hides those words, and a command whose words are out
	// of order is refused before it is run, so that no message of its
	// handler can quote a password either.
	secret secretRule
	output bool // answers with more than a line: held to Config.MaxOutputCommands
	mails  bool // may mail others than the sender: not run once Config.MaxMailsPerMail is used up
}

// commands maps the Name of each command of the command table, and
// ORDERS, to its handler.
var commands = map[string]command{
	"CREATE": {run: (*session).cmdCreate,
		secret: passwordAfter(isNewGame, false, "CREATE ?game password [variant] [rules] [gunboat]")},
	"SIGNON": {run: (*session).cmdSignon, mails: true, // the last to join starts the game
		secret: signonSecret},
	"OBSERVE": {run: (*session).cmdObserve,
		secret: passwordAfter((*session).isGame, true, "OBSERVE game password")},
	"LIST":      {run: (*session).cmdList, output: true},
	"HISTORY":   {run: (*session).cmdHistory, output: true},
	"SUMMARY":   {run: (*session).cmdSummary, output: true},
	"HELP":      {run: (*session).cmdHelp, output: true},
	"VERSION":   {run: (*session).cmdVersion},
	"CONFIRM":   {run: (*session).cmdConfirm},
	"ORDERS":    {run: (*session).cmdOrders}, // reports "sign on first" itself
	"PRESS":     {run: (*session).cmdPress, mails: true},
	"BROADCAST": {run: (*session).cmdPress, mails: true},
	"ENDPRESS":  {run: (*session).cmdEndPress},
	"SET":       {run: (*session).cmdSet, mails: true, secret: setSecret}, // settings and draw votes tell the game
	"RESIGN":    {run: (*session).cmdResign, mails: true},
	"BECOME":    {run: (*session).cmdBecome},
	"PROCESS":   {run: (*session).cmdProcess, mails: true},
	"PREDICT":   {run: (*session).cmdPredict, output: true, mails: true},
	"ROLLBACK":  {run: (*session).cmdRollback, mails: true},
	"PAUSE":     {run: (*session).cmdPause, mails: true},
	"RESUME":    {run: (*session).cmdResume, mails: true},
	"TERMINATE": {run: (*session).cmdTerminate, mails: true},
	"EJECT":     {run: (*session).cmdEject, mails: true},
	"REVEAL":    {run: (*session).cmdReveal, mails: true},
	"ADMIT":     {run: (*session).cmdAdmit},
	"REGISTER":  {run: (*session).cmdRegister},
	"WHOIS":     {run: (*session).cmdWhois, output: true},
	"INFO":      {run: (*session).cmdInfo, output: true},
	"WHO":       {run: (*session).cmdWho, output: true},
	"FORGET":    {run: (*session).cmdForget},
	"INVITE":    {run: (*session).cmdInvite},
	"APPROVE":   {run: (*session).cmdApprove, mails: true}, // the last approved starts the game
	"SIGNOFF":   {run: func(*session, *parser.Command) error { return errStop }},
	// Issue 24's orders (future.go, preview.go, proxy.go).
	"PHASE":   {run: (*session).cmdPhase},
	"CLEAR":   {run: (*session).cmdClear},
	"PREVIEW": {run: (*session).cmdPreview, output: true},
	"PROXY":   {run: (*session).cmdProxy},
}

// maxCommands is how many commands of one mail are done, and maxOrders
// how many orders: a mail is untrusted input, and every command may cost
// an adjudication or a notice to the whole game. No honest mail comes
// near either limit (a standard board has 34 units). maxOrderLines is
// how many lines of orders of one mail are read at all: a line that is
// no order costs the parser its search for a place name to suggest
// (about 0.1 ms) and the reply a line, so that a mail of 1 MB of
// nonsense took 10 s to read and got an answer of 4.6 MB.
const (
	maxCommands   = 100
	maxOrders     = 200
	maxOrderLines = 500
)

// accepted lists the commands for error messages, from the command
// table: "CREATE, SIGNON, ...; for masters: PROCESS, ...".
var accepted = acceptedCommands(parser.Commands())

// acceptedCommands lists the names of table, the masters' last.
func acceptedCommands(table []parser.CommandInfo) string {
	var all, masters []string
	for _, c := range table {
		if c.Who == parser.Master {
			masters = append(masters, c.Name)
		} else {
			all = append(all, c.Name)
		}
	}
	return strings.Join(all, ", ") + "; for masters: " + strings.Join(masters, ", ")
}

// replyData is the data of reply.tmpl, the one reply to every mail.
type replyData struct {
	Header  *engine.Header // the game's header; nil when the mail signed on to no game
	Tag     string         // "GMD:dt - S1901M", or "GMD" without a game
	Subject string         // the mail's subject, without earlier judge prefixes
	Text    string         // what each command did, and the orders
	Errors  int            // lines that were refused
}

// Handle processes one incoming mail at time now: every command and order
// in it, in one transaction with the ledger entries (Mail.LedgerKey and
// Mail.Ledger) and the replies. A mail already recorded in the ledger is
// ignored, and so is mail from the judge itself. The bcrypt work of the
// mail's passwords is done outside the transaction, with no lock held
// (bcryptWork), and is bounded by maxBcryptPerMail. An error means nothing
// was done and the mail may be tried again.
func (m *Master) Handle(in *Mail, now time.Time) error {
	_, err := m.handle(m.db.Update, in, now)
	return err
}

// handle is Handle, its transactions run by update, and reports whether
// the mail had been handled before (it is in the ledger), in which case
// nothing was done.
func (m *Master) handle(update updater, in *Mail, now time.Time) (before bool, err error) {
	if fault := engine.SenderFault(in.From); fault != "" || engine.SameAddr(in.From, m.cfg.JudgeAddr) {
		// Recorded, so that it is done with, but never answered: the
		// judge talking to itself would never stop, and a From that is
		// not a plain address (a CR LF and a Bcc in it, an IP address
		// for a domain) is nobody to write to.
		if fault == "" {
			fault = "the judge's own address"
		}
		m.cfg.Log.Info("mail ignored: the sender is not answered", "from", in.From, "why", fault, "message_id", in.MessageID)
		return m.ignore(update, in.MessageID, in.Ledger, now)
	}
	now = now.UTC()
	work := &bcryptWork{}
	for {
		before, err := m.recordMail(update, in.MessageID, in.LedgerKey(), in.Ledger, now, func(tx *state.Tx) error {
			return m.apply(tx, in, now, work)
		})
		if !errors.Is(err, errBcryptNeeded) {
			return before, err
		}
		// No lock is held here: the transaction was abandoned.
		if err := work.do(m.cfg.PasswordCost); err != nil {
			return false, err
		}
	}
}

// apply does what the mail in asks, in tx: its commands and orders, the
// game written back, and the reply queued. It does not touch the ledger.
// errBcryptNeeded means that the mail needs bcrypt work that work has not
// done yet: the caller abandons tx, does it (bcryptWork.do) and tries
// again.
func (m *Master) apply(tx *state.Tx, in *Mail, now time.Time, work *bcryptWork) error {
	s := &session{m: m, tx: tx, now: now, in: in, work: work}
	s.reply.limit = m.cfg.MaxReplySize
	if err := s.run(parser.ParseMail(in.Body)); err != nil {
		return err
	}
	if err := s.announceChanges(); err != nil {
		return err
	}
	if s.game != nil && s.dirty {
		if err := tx.PutGame(s.game); err != nil {
			return err
		}
	}
	return s.sendReply()
}

// run does the commands of a mail in order, then adds the acknowledgement
// of orders.
func (s *session) run(cmds []parser.Command) error {
	if len(cmds) == 0 {
		s.printf("Your mail had no commands in it. Send HELP for the list of commands.")
		return nil
	}
	s.gatherCodes(cmds)
	for i := range cmds {
		c := &cmds[i]
		if i == maxCommands {
			s.fail(c.Line, "Too many commands in one mail: only the first %d were read.", maxCommands)
			break
		}
		err := s.do(c)
		if errors.Is(err, errStop) {
			if i+1 < len(cmds) {
				s.printf("\nThe rest of this mail was ignored.")
			}
			break
		}
		if err != nil {
			return err
		}
	}
	if len(s.codes) > 0 && !s.codeAsked {
		s.paragraph()
		s.printf("Nothing in this mail needed the confirmation code: send it with the command it confirms.")
	}
	s.reportNotRun()
	return s.writeAck()
}

// do runs one command, echoing it first.
func (s *session) do(c *parser.Command) error {
	name := c.Name
	if max := s.m.cfg.MaxLineLength; max > 0 && len(c.Text) > max {
		s.paragraph()
		s.fail(c.Line, "%s", tooLong(len(c.Text), max))
		return nil
	}
	cmd, ok := commands[name]
	// ORDERS is in no table: anyone may send order lines, and
	// cmdOrders answers for who may not.
	info, _ := parser.LookupCommand(name)
	who := info.Who
	if name == "SET" && registrySet(c.Args) {
		who = parser.Anyone // the registry's, not a game's
	}
	var hide []bool
	misplaced, usage := false, ""
	if cmd.secret != nil {
		var err error
		if hide, misplaced, usage, err = cmd.secret(s, c.Args); err != nil {
			return err
		}
	}
	if !s.allowed(name, c, hide) {
		return nil
	}
	if name != "ORDERS" {
		// Order lines are not echoed: the acknowledgement lists the
		// orders, and cmdOrders starts its own paragraph for errors.
		s.paragraph()
		// The player's own line, as written (but for passwords).
		s.reply.WriteString("> " + echo(name, c, hide) + "\n")
	}
	switch {
	case misplaced:
		s.fail(c.Line, "Use: %s. The words were not in that form, so none is repeated here, in case one is your password.", usage)
		return errStop
	case !ok:
		s.fail(c.Line, "Unknown command %s. The commands are %s.", name, accepted)
		return nil
	case s.game == nil && who != parser.Anyone:
		s.fail(c.Line, "Sign on first (SIGNON Pgame password): %s needs a game.", name)
		return nil
	case who == parser.Master && !s.master:
		s.fail(c.Line, "Only the master of '%s' may %s.", s.game.Name, name)
		return nil
	}
	if who == parser.Master {
		// The master's commands change the game as they see fit.
		s.dirty = true
	}
	return cmd.run(s, c)
}

// tooLong is the error for a line of n bytes over the limit of max.
func tooLong(n, max int) string {
	return fmt.Sprintf("The line is %d bytes long, and this judge reads lines of at most %d bytes: it was not read.", n, max)
}

// paragraph starts a new paragraph of the reply: a blank line after
// whatever is there already.
func (s *session) paragraph() {
	if s.reply.Len() > 0 && !s.reply.HasSuffix("\n\n") {
		s.reply.WriteByte('\n')
	}
}

// echo returns a command as the reply repeats it, with the words of
// c.Args that hide marks blanked out: a reply may be read by others, and
// passwords are never mailed.
func echo(name string, c *parser.Command, hide []bool) string {
	if !slices.Contains(hide, true) {
		return strings.TrimSpace(c.Text)
	}
	words := make([]string, 0, 1+len(c.Args))
	words = append(words, name)
	for i, w := range c.Args {
		if i < len(hide) && hide[i] {
			w = hiddenWord
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// hiddenWord stands for a password, or a word that may be one, in replies.
const hiddenWord = "********"

// A secretRule says which of a command's words (its Args) are, or may
// be, a password: hide[i] for args[i]. misplaced says the words are not
// in the command's form, so that a password may be anywhere among them:
// every word is hidden, and the command is refused with usage, its form.
// An error is the database's, reading what it needed to tell.
type secretRule func(s *session, args []string) (hide []bool, misplaced bool, usage string, err error)

// passwordAfter is the rule of a command written "COMMAND lead password
// ...": its password is its second word, and the first must be what
// lead accepts (a game's name, a seat). When it is not, the words may be
// out of order ("CREATE password ?game"), and all are hidden. With rest,
// the words after the password are hidden too: a player who typed a
// password with a space in it gets the command refused, and the rest of
// the password must not come back in the refusal. (CREATE's later words
// name the variant and rules.)
func passwordAfter(lead func(*session, string) (bool, error), rest bool, usage string) secretRule {
	return func(s *session, args []string) ([]bool, bool, string, error) {
		if len(args) == 0 {
			return nil, false, usage, nil
		}
		hide := make([]bool, len(args))
		ok, err := lead(s, args[0])
		if err != nil || !ok {
			for i := range hide {
				hide[i] = true
			}
			return hide, true, usage, err
		}
		for i := 1; i < len(args) && (i == 1 || rest); i++ {
			hide[i] = true
		}
		return hide, false, usage, nil
	}
}

// isNewGame reports whether word is in the place of a game to create:
// "?game", the question mark required, so that "CREATE password ?game"
// creates no game named after the password. (cmdCreate checks the
// name, and may quote it: it was marked as a name.)
func isNewGame(_ *session, word string) (bool, error) {
	return strings.HasPrefix(word, "?"), nil
}

// isGame reports whether word names a stored game.
func (s *session) isGame(word string) (bool, error) {
	if !validGameName(strings.ToLower(word)) {
		return false, nil
	}
	return s.tx.HasGame(word)
}

// isSeat reports whether word is the first word of a SIGNON: "?" or
// "?game" to join (the game is looked up later, since "?" marks it as a
// name), or a letter and a stored game: "Fdt", "Mdt". A password put
// first is none of these, unless it happens to be a letter and a game's
// name.
func (s *session) isSeat(word string) (bool, error) {
	if strings.HasPrefix(word, "?") {
		return true, nil
	}
	// Power letters are letters, or digits on maps with more powers than
	// letters (Chaos).
	if c := word[0]; len(word) < 2 || !('a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9') {
		return false, nil
	}
	return s.isGame(word[1:])
}

// signonUsage is the form of SIGNON, for a refusal of one whose words
// are out of order.
const signonUsage = "SIGNON Pgame password, or SIGNON ?game password to join (P is a power's letter, M the master's; LIST names the games)"

// signonSecret is the secretRule of SIGNON: the rule of passwordAfter, but
// that the preferences after the password of a join ("SIGNON ?dt pw
// F[GE]R") are shown, when they read as preferences for the game's map:
// only passwords are secret. Words that do not read as preferences may
// be the rest of a password with a space in it, and stay hidden.
func signonSecret(s *session, args []string) ([]bool, bool, string, error) {
	hide, misplaced, usage, err := passwordAfter((*session).isSeat, true, signonUsage)(s, args)
	if err != nil || misplaced || len(args) < 3 || !strings.HasPrefix(args[0], "?") {
		return hide, misplaced, usage, err
	}
	if !s.hasJoinPassword(args[0][1:]) && s.preferencesFor(args[0][1:], strings.Join(args[2:], "")) {
		for i := 2; i < len(args); i++ {
			hide[i] = false
		}
	}
	return hide, misplaced, usage, nil
}

// preferencesFor reports whether text is a list of preferences for the
// forming game named name or, when name is empty ("SIGNON ?"), for the
// game that joins: the first forming game the sender is not in. A game
// that cannot be read counts as none: the join that follows reports it.
func (s *session) preferencesFor(name, text string) bool {
	var g *state.Game
	if name = strings.ToLower(name); name == "" {
		g, _ = s.firstForming()
	} else if validGameName(name) {
		g, _ = s.tx.Game(name)
	}
	if g == nil {
		return false
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return false
	}
	_, msg := parsePreference(mp, text)
	return msg == ""
}

// sendReply queues the one reply to the mail.
func (s *session) sendReply() error {
	text := strings.TrimRight(strings.TrimLeft(s.reply.String(), "\n"), "\n") + "\n"
	if s.reply.full() {
		text += "\n" + cutNote(s.reply.limit) + "\n"
	}
	d := replyData{
		Tag:     s.m.cfg.JudgeName,
		Subject: stripSubject(s.in.Subject, s.m.cfg.JudgeName),
		Text:    text,
		Errors:  s.errors,
	}
	if s.game != nil {
		h := s.m.Header(s.game)
		d.Header, d.Tag = &h, s.m.SubjectTag(s.game)
	}
	return s.m.SendMaps(s.tx, s.now, "reply", d, []string{s.in.From}, s.in.MessageID, s.maps)
}

// stripSubject removes from a subject what earlier replies put in front
// of it, so that subjects do not pile up: "Re: ", njudge's "[Error Flag] "
// and "[You are late!] ", and the judge's own "GMD:dt - S1901M " or "GMD ".
func stripSubject(subject, judge string) string {
	t := strings.Join(strings.Fields(subject), " ")
	for {
		before := t
		for _, p := range []string{"re:", "[error flag]", "[you are late!]"} {
			if len(t) >= len(p) && strings.EqualFold(t[:len(p)], p) {
				t = strings.TrimSpace(t[len(p):])
			}
		}
		if j := len(judge); len(t) > j && strings.EqualFold(t[:j], judge) {
			switch t[j] {
			case ':': // "GMD:dt - S1901M rest"
				rest := t[j+1:]
				if game, after, ok := strings.Cut(rest, " - "); ok && !strings.Contains(game, " ") {
					_, tail, _ := strings.Cut(after, " ")
					t = strings.TrimSpace(tail)
				}
			case ' ': // "GMD rest", the reply to a mail with no game
				t = strings.TrimSpace(t[j+1:])
			}
		}
		if t == before {
			return t
		}
	}
}
