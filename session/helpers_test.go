package session

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// Test helpers shared by the game master's tests (and meant for the
// whole-game test): a master over a fresh database, a fixed clock, and
// mails in, queued mails out.

// testStart is the fixed clock every test starts at: a Monday noon.
var testStart = time.Date(2026, time.January, 5, 12, 0, 0, 0, time.UTC)

// standardSeats are the powers of the standard map with the address and
// password of the player who takes each in startStandard.
var standardSeats = []struct{ Letter, Power, Addr, Pass string }{
	{"A", "Austria", "austria@example.org", "pw-a"},
	{"E", "England", "england@example.org", "pw-e"},
	{"F", "France", "france@example.org", "pw-f"},
	{"G", "Germany", "germany@example.org", "pw-g"},
	{"I", "Italy", "italy@example.org", "pw-i"},
	{"R", "Russia", "russia@example.org", "pw-r"},
	{"T", "Turkey", "turkey@example.org", "pw-t"},
}

// The master of the games startStandard creates.
const (
	testMaster     = "master@example.org"
	testMasterPass = "pw-m"
	testJudge      = "judge@example.org"
)

// harness drives a Master by mail on a fixed, movable clock.
type harness struct {
	t   testing.TB
	m   *Master
	now time.Time
	seq int
}

// newTestMaster returns a master over a new database in t's temporary
// directory, closed when the test ends.
func newTestMaster(t testing.TB) *Master {
	t.Helper()
	db, err := state.Open(filepath.Join(t.TempDir(), "gmd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// bcrypt at its default cost would spend most of every test.
	return New(db, engine.Config{Config: config.Config{JudgeName: "GMD", JudgeAddr: testJudge, PasswordCost: bcrypt.MinCost}})
}

// newHarness returns a harness at testStart.
func newHarness(t testing.TB) *harness {
	return &harness{t: t, m: newTestMaster(t), now: testStart}
}

// advance moves the clock on.
func (h *harness) advance(d time.Duration) { h.now = h.now.Add(d) }

// mail hands one mail to the master, with a fresh Message-ID, and returns
// the mails it queued.
func (h *harness) mail(from, subject, body string) []*state.OutMail {
	h.t.Helper()
	h.seq++
	return h.mailID(from, subject, body, fmt.Sprintf("<test.%d@example.org>", h.seq))
}

// mailID is mail with a given Message-ID.
func (h *harness) mailID(from, subject, body, msgid string) []*state.OutMail {
	h.t.Helper()
	before := h.lastID()
	if err := h.m.Handle(&Mail{From: from, Subject: subject, Body: body, MessageID: msgid}, h.now); err != nil {
		h.t.Fatalf("Handle(%s, %q): %v", from, body, err)
	}
	return h.since(before)
}

// tick runs the clock side at the current time and returns the mails it
// queued.
func (h *harness) tick() []*state.OutMail {
	h.t.Helper()
	before := h.lastID()
	if err := h.m.Tick(h.now); err != nil {
		h.t.Fatalf("Tick(%v): %v", h.now, err)
	}
	return h.since(before)
}

// outbox returns every queued mail.
func (h *harness) outbox() []*state.OutMail {
	h.t.Helper()
	var out []*state.OutMail
	err := h.m.DB().View(func(tx *state.Tx) error {
		var err error
		out, err = tx.Outbox(0)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// lastID is the ID of the last mail queued, 0 for none.
func (h *harness) lastID() uint64 {
	box := h.outbox()
	if len(box) == 0 {
		return 0
	}
	return box[len(box)-1].ID
}

// since returns the mails queued after the one with ID id.
func (h *harness) since(id uint64) []*state.OutMail {
	var out []*state.OutMail
	for _, m := range h.outbox() {
		if m.ID > id {
			out = append(out, m)
			checkText(h.t, m)
		}
	}
	return out
}

// checkText fails the test on a mail the judge wrote with a double blank
// line, or with a count of one and a plural noun ("1 centres"): every mail
// any test of this package causes is read for both.
func checkText(t testing.TB, m *state.OutMail) {
	t.Helper()
	if strings.Contains(m.Body, "\n\n\n") {
		t.Errorf("%q has a double blank line:\n%s", m.Subject, m.Body)
	}
	if bad := agreementErrors(judgeWritten(m)); len(bad) > 0 {
		t.Errorf("%q says %q:\n%s", m.Subject, bad, m.Body)
	}
}

// judgeWritten is the text of m that the judge itself wrote, for the
// agreement check: a reply's subject ("Re: ...") echoes the sender's, a line
// quoted with "> " is the sender's, an "Error (line n):" line quotes the
// sender's words, and the lines of a press message between
// its "in 'game':" line and "End of message." are the press sender's.
func judgeWritten(m *state.OutMail) string {
	var b strings.Builder
	if !strings.HasPrefix(m.Subject, "Re: ") {
		b.WriteString(m.Subject + "\n")
	}
	press := strings.Contains(m.Subject, " Press from ") || strings.Contains(m.Subject, " Broadcast from ")
	inPress := false
	for _, line := range strings.Split(m.Body, "\n") {
		switch {
		case inPress:
			inPress = line != "End of message."
		case press && strings.HasSuffix(line, "':") && strings.Contains(line, " in '"):
			inPress = true
		case strings.HasPrefix(line, "> "), strings.HasPrefix(line, "Error (line "):
		default:
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// game reads a game from the database.
func (h *harness) game(name string) *state.Game {
	h.t.Helper()
	var g *state.Game
	err := h.m.DB().View(func(tx *state.Tx) error {
		var err error
		g, err = tx.Game(name)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// seen reports whether the ledger holds key.
func (h *harness) seen(key string) bool {
	h.t.Helper()
	var seen bool
	if err := h.m.DB().View(func(tx *state.Tx) (err error) {
		seen, err = tx.Seen(key)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return seen
}

// press returns the press sent in game's current phase, in order.
func (h *harness) press(name string) []*state.Press {
	h.t.Helper()
	var ps []*state.Press
	err := h.m.DB().View(func(tx *state.Tx) error {
		g, err := tx.Game(name)
		if err != nil {
			return err
		}
		ps, err = tx.Press(name, g.Turn)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return ps
}

// putGame writes a game as a test set it up.
func (h *harness) putGame(g *state.Game) {
	h.t.Helper()
	if err := h.m.DB().Update(func(tx *state.Tx) error { return tx.PutGame(g) }); err != nil {
		h.t.Fatal(err)
	}
}

// create has testMaster create a standard game.
func (h *harness) create(name string) {
	h.t.Helper()
	got := h.confirm(testMaster, "new game", "CREATE ?"+name+" "+testMasterPass)
	r := onlyTo(h.t, got, testMaster)
	if !strings.Contains(r.Body, "created") {
		h.t.Fatalf("CREATE reply:\n%s", r.Body)
	}
}

// startStandard creates a standard game and has the seven players of
// standardSeats join it, each asking for their own power, so that every
// power goes to the expected address. It returns the mails of the last
// sign-on, which started the game.
func (h *harness) startStandard(name string) []*state.OutMail {
	h.t.Helper()
	h.create(name)
	return joinAll(h, name)
}

// seatOf returns the address and sign-on line (a format taking the
// game's name) of the player of a power letter in startStandard's games.
func seatOf(letter string) (addr, signon string) {
	for _, s := range standardSeats {
		if s.Letter == letter {
			return s.Addr, "SIGNON " + s.Letter + "%s " + s.Pass
		}
	}
	panic("no seat " + letter)
}

// orders has the player of the power with this letter sign on to game and
// send body; it returns the mails queued.
func (h *harness) orders(game, letter, body string) []*state.OutMail {
	h.t.Helper()
	addr, signon := seatOf(letter)
	return h.mail(addr, "orders", fmt.Sprintf(signon, game)+"\n"+body)
}

// onlyTo returns the one mail queued to addr, failing the test unless
// there is exactly one.
func onlyTo(t testing.TB, mails []*state.OutMail, addr string) *state.OutMail {
	t.Helper()
	var found []*state.OutMail
	for _, m := range mails {
		for _, to := range m.To {
			if strings.EqualFold(to, addr) {
				found = append(found, m)
			}
		}
	}
	if len(found) != 1 {
		var subjects []string
		for _, m := range mails {
			subjects = append(subjects, fmt.Sprintf("%v: %s", m.To, m.Subject))
		}
		t.Fatalf("%d mails to %s, want 1; queued:\n%s", len(found), addr, strings.Join(subjects, "\n"))
	}
	return found[0]
}

// mailsTo returns the mails queued to addr.
func mailsTo(mails []*state.OutMail, addr string) []*state.OutMail {
	var out []*state.OutMail
	for _, m := range mails {
		for _, a := range m.To {
			if strings.EqualFold(a, addr) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// mustContain fails unless text holds every one of wants, as written or
// (for a sentence the judge broke over lines, as it breaks every line
// longer than 78 characters) with its lines joined.
func mustContain(t testing.TB, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !containsText(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}

// containsText reports whether text holds want, as written or with the
// lines of each paragraph joined by a space (see mustContain).
func containsText(text, want string) bool {
	return strings.Contains(text, want) || strings.Contains(joinLines(text), want)
}

// joinLines joins the lines of each paragraph of text, undoing the line
// breaks of templates.Wrap: a newline and the indentation after it become
// one space, but a blank line stays.
func joinLines(text string) string {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for i, l := range lines {
		switch {
		case i == 0:
		case l == "" || lines[i-1] == "":
			b.WriteByte('\n')
		default:
			b.WriteByte(' ')
			l = strings.TrimLeft(l, " ")
		}
		b.WriteString(l)
	}
	return b.String()
}

// unwrap joins the lines of text with single spaces, so that a sentence
// wrapped at 78 columns is found whole.
func unwrap(text string) string { return strings.Join(strings.Fields(text), " ") }

// mustNotContain fails if text holds any of bad.
func mustNotContain(t testing.TB, text string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(text, b) {
			t.Errorf("unexpected %q in:\n%s", b, text)
		}
	}
}

// replyTo returns the one reply ("Re: ...") queued to addr among mails,
// which may hold notices to addr too.
func replyTo(t testing.TB, mails []*state.OutMail, addr string) *state.OutMail {
	t.Helper()
	var replies []*state.OutMail
	for _, m := range mailsTo(mails, addr) {
		if strings.HasPrefix(m.Subject, "Re: ") {
			replies = append(replies, m)
		}
	}
	if len(replies) != 1 {
		t.Fatalf("%d replies to %s, want 1", len(replies), addr)
	}
	return replies[0]
}

// codeRE finds the confirmation code in a reply that asks for one.
var codeRE = regexp.MustCompile(`(?m)^  CONFIRM ([A-Z0-9]+)$`)

// codeIn returns the confirmation code that a reply gives, failing the
// test if it gives none.
func codeIn(t testing.TB, body string) string {
	t.Helper()
	m := codeRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no confirmation code in:\n%s", body)
	}
	return m[1]
}

// confirm mails body from addr as someone who reads addr's mail does
// when the judge asks for a confirmation code (CREATE, a join): it sends
// body, and then the code of the reply with body again. It returns the
// mails of the second mail.
func (h *harness) confirm(addr, subject, body string) []*state.OutMail {
	h.t.Helper()
	first := replyTo(h.t, h.mail(addr, subject, body), addr).Body
	return h.mail(addr, subject, "CONFIRM "+codeIn(h.t, first)+"\n"+body)
}

// join has addr join the forming game with password pw and the
// preferences prefs ("" for none), confirming the address, and returns
// the mails of the confirming mail. more is sent after the sign-on.
func (h *harness) join(addr, game, pw, prefs, more string) []*state.OutMail {
	h.t.Helper()
	line := "SIGNON ?" + game + " " + pw
	if prefs != "" {
		line += " " + prefs
	}
	got := h.confirm(addr, "join", line+"\n"+more)
	if r := replyTo(h.t, got, addr).Body; !containsText(r, "You have joined game '"+game+"'") {
		h.t.Fatalf("join reply:\n%s", r)
	}
	return got
}

// observe has addr observe game with password pw, confirming the address
// with the code the first reply gives, as an observer does. It returns
// the mails of the confirming mail, which may hold more commands.
func (h *harness) observe(addr, game, pw, more string) []*state.OutMail {
	h.t.Helper()
	first := replyTo(h.t, h.mail(addr, "watch", "OBSERVE "+game+" "+pw), addr).Body
	got := h.mail(addr, "watch", "CONFIRM "+codeIn(h.t, first)+"\nOBSERVE "+game+" "+pw+"\n"+more)
	mustContain(h.t, replyTo(h.t, got, addr).Body, "You are now observing game '"+game+"'")
	return got
}
