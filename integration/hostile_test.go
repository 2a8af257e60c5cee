package integration

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"

	"github.com/gmdjudge/gmd/ctl"
	"github.com/gmdjudge/gmd/state"
)

// The hostile mails the soak mixes into its stream (issue 11): each is
// one that stopped, or could have stopped, the judge once. None may stop
// it now, nor cost a normal mail its one answer.
const (
	kindLongFrom  = "From of 33,000 characters"
	kindYear10000 = "date in the year 10000"
	kindDamaged   = "mail for the damaged game"
	kindBigPress  = "press over max-press-per-mail"
	kindHugePress = "press over max-mail-size"
	kindForged    = "OBSERVE from a forged address"
	kindGuess     = "password guess on an abandoned seat"
	kindHistory   = "HISTORY with maps from outside the game"
	kindResent    = "confirming mail sent again"
)

// hostileKinds is the order in which the log lists the kinds.
var hostileKinds = []string{kindLongFrom, kindYear10000, kindDamaged, kindBigPress, kindHugePress, kindForged,
	kindGuess, kindHistory, kindResent}

// The mails of those three kinds in a set: a burst of guesses, a burst
// of HISTORY mails (each asking for three maps), and a confirming mail
// sent again a few times, each with a Message-ID of its own.
const (
	guessesPerSet = 12
	historyPerSet = 10
	resentPerSet  = 3
)

// abandonedGame is the game of the issue 18 attacks, set up before the
// daemon starts: a seat abandoned (its player resigned), whose own
// address guesses its password; the first phase processed, whose map
// that address asks for, the game's mail no longer going there; and a
// second player who resigned, observed, and left, whose confirming
// mail comes again. (Two addresses: one that became an observer again
// would get maps as one of the game's.)
type abandonedGame struct {
	name    string
	seat    seat   // the abandoned seat
	watcher seat   // the other seat given up, whose player observed and left
	confirm string // the body of the watcher's confirming mail
}

// seedAbandoned makes the abandonedGame through gmd process.
func seedAbandoned(j *judge) *abandonedGame {
	j.t.Helper()
	a := &abandonedGame{name: "soakab" + token(2), seat: seats[0], watcher: seats[1]}
	j.seedGame(a.name)
	for _, s := range []seat{a.seat, a.watcher} {
		j.process(newLetter(s.User, "resign", fmt.Sprintf("SIGNON %s%s %s\nRESIGN", s.Letter, a.name, s.Pass)))
	}
	s := a.seat
	j.process(newLetter(masterUser, "process", fmt.Sprintf("SIGNON M%s %s\nPROCESS", a.name, masterPass)))
	// The watcher observes, then leaves: the code of the confirming
	// mail has done its work.
	w := a.watcher
	a.confirm = j.processConfirmed(newLetter(w.User, "watch", fmt.Sprintf("OBSERVE %s pw-watch", a.name)))
	j.process(newLetter(w.User, "leave", fmt.Sprintf("OBSERVE %s pw-watch\nRESIGN", a.name)))
	j.view(func(tx *state.Tx) error {
		g, err := tx.Game(a.name)
		if err != nil {
			return err
		}
		if p := g.Players[slices.IndexFunc(g.Players, func(p state.Player) bool { return p.Power == s.Power })]; p.Status != state.Abandoned {
			return fmt.Errorf("%s of %s is %s after RESIGN, want abandoned", s.Power, a.name, p.Status)
		}
		recs, err := tx.Phases(a.name)
		if err != nil {
			return err
		}
		if len(g.Observers) != 0 || len(recs) == 0 || recs[0].Phase != "S1901M" {
			return fmt.Errorf("%s: %d observers after the observer left, %d phases processed; want none, and S1901M", a.name, len(g.Observers), len(recs))
		}
		return nil
	})
	return a
}

// forgedPerSet is how many forged OBSERVE mails a set has: as many
// forged addresses, none of which has a mailbox.
const forgedPerSet = 40

// longFromLength is the length of the long From: more than bbolt's
// largest key (32,768 bytes), which such a From once had the judge try
// to store.
const longFromLength = 33000

// hostileMail is one hostile mail and what the judge must do with it.
type hostileMail struct {
	kind string
	l    *letter
	// reply lists what the answer to l in its sender's INBOX must say
	// (compared with spaces and line breaks collapsed); nil when l gets
	// no answer that anybody reads: a From that is no address is
	// ignored, and the answer to a forged address is refused by the
	// mail server.
	reply []string
	// via is "smtp" or "lmtp" for a mail that must go that way, whatever
	// its burst's; "" for either.
	via string
	// answer, if set, checks the answer as it came (Raw and Body).
	answer func(r *received) error
}

// hostileMix is the hostile mail of one soak run.
type hostileMix struct {
	mails     []*hostileMail
	abandoned *abandonedGame     // the game of issue 18's attacks
	games     []string           // the soak's normal games, which hostile mails use too
	damaged   string             // the game whose record is damaged before the daemon starts
	longFrom  string             // the From of kindLongFrom
	creates   []string           // the games the long From asks to create
	forged    map[string]*letter // the forged addresses' OBSERVE mails, by address
}

// newHostileMix makes sets sets of hostile mails about the games and the
// damaged game. Each set holds: 6 mails from a From of 33,000
// characters (OBSERVE, CREATE and a join, each by SMTP and by LMTP); SET ABSENCE 9999-12-31 from a
// player, and SET DEADLINE 9999-12-31 23:30 from a master in the zone of
// New York; one order mail from each of the 7 players of the damaged
// game; a press of 100 KB (over max-press-per-mail) and one of 1.1 MB
// (over max-mail-size); and forgedPerSet OBSERVE mails from as many
// forged addresses of the judge's domain.
//
// And, for issue 18, in the abandonedGame: guessesPerSet wrong passwords
// for the abandoned seat from its own address, historyPerSet HISTORY
// mails each asking for three maps from that address (outside the game
// now), and resentPerSet copies of the confirming mail of the observer
// who left.
func newHostileMix(rng *rand.Rand, sets int, games []string, damaged string, ab *abandonedGame) *hostileMix {
	h := &hostileMix{games: games, damaged: damaged, forged: map[string]*letter{}, abandoned: ab}
	h.longFrom = strings.Repeat("x", longFromLength-len("@"+domain)) + "@" + domain
	add := func(kind string, l *letter, reply ...string) {
		h.mails = append(h.mails, &hostileMail{kind: kind, l: l, reply: reply})
	}
	game := func() string { return games[rng.IntN(len(games))] }
	n := 0
	subject := func(kind string) string {
		n++
		return fmt.Sprintf("hostile %03d: %s", n, kind)
	}
	for range sets {
		// The envelope is player1's; the From line is nobody's.
		create := "long" + token(3)
		h.creates = append(h.creates, create)
		// Each goes both ways: by LMTP the judge gets the From whole;
		// Postfix takes it too, but folds the line at 998 characters on
		// its way to Dovecot, so that the judge gets a From with spaces
		// in it.
		for _, body := range []string{
			fmt.Sprintf("OBSERVE %s pw-long", game()),
			fmt.Sprintf("CREATE ?%s pw-long", create),
			fmt.Sprintf("SIGNON ?%s pw-long A", game()),
		} {
			for _, via := range []string{"smtp", "lmtp"} {
				l := newLetter(seats[0].User, subject(kindLongFrom)+" by "+strings.ToUpper(via), body)
				l.HeaderFrom = h.longFrom
				add(kindLongFrom, l)
				h.mails[len(h.mails)-1].via = via
			}
		}

		s := seats[rng.IntN(len(seats))]
		add(kindYear10000, newLetter(s.User, subject(kindYear10000),
			fmt.Sprintf("SIGNON %s%s %s\nSET ABSENCE 9999-12-31", s.Letter, game(), s.Pass)),
			"An absence must end within a year from now")
		add(kindYear10000, newLetter(masterUser, subject(kindYear10000),
			fmt.Sprintf("SIGNON M%s %s\nSET ZONE America/New_York\nSET DEADLINE 9999-12-31 23:30", game(), masterPass)),
			"Times are now shown in the zone America/New_York", "is more than a year ahead")

		for _, s := range seats {
			add(kindDamaged, newLetter(s.User, subject(kindDamaged),
				fmt.Sprintf("SIGNON %s%s %s\n%s", s.Letter, damaged, s.Pass, s.Partial[0])),
				"could not be handled, so nothing in it was done", "as held mail")
		}

		// Press to another power: press to oneself is refused before
		// its size is looked at.
		pair := func() (from, to seat) {
			i := rng.IntN(len(seats))
			return seats[i], seats[(i+1+rng.IntN(len(seats)-1))%len(seats)]
		}
		s, to := pair()
		add(kindBigPress, newLetter(s.User, subject(kindBigPress),
			fmt.Sprintf("SIGNON %s%s %s\nPRESS TO %s\n%sENDPRESS", s.Letter, game(), s.Pass, to.Letter, pressText(100<<10))),
			"one mail may carry at most 65536 bytes of press", "Nothing was sent")
		s, to = pair()
		add(kindHugePress, newLetter(s.User, subject(kindHugePress),
			fmt.Sprintf("SIGNON %s%s %s\nPRESS TO %s\n%sENDPRESS", s.Letter, game(), s.Pass, to.Letter, pressText(1100<<10))),
			"could not be read, so nothing in it was done", "this judge reads mails of up to 1 MB")

		for range forgedPerSet {
			l := newLetter("forged-"+token(4), subject(kindForged), fmt.Sprintf("OBSERVE %s pw-forged", game()))
			h.forged[addr(l.From)] = l
			add(kindForged, l)
		}

		s = ab.seat
		inGame := fmt.Sprintf("game '%s'", ab.name)
		for range guessesPerSet {
			add(kindGuess, newLetter(s.User, subject(kindGuess),
				fmt.Sprintf("SIGNON %s%s guess-%s", s.Letter, ab.name, token(3))), inGame)
		}
		for range historyPerSet {
			l := newLetter(s.User, subject(kindHistory), strings.Repeat(fmt.Sprintf("HISTORY %s S1901M\n", ab.name), 3))
			add(kindHistory, l, "No map of S1901M: maps go only to the addresses that get the game's mail")
			h.mails[len(h.mails)-1].answer = smallAnswer
		}
		for range resentPerSet {
			add(kindResent, newLetter(ab.watcher.User, subject(kindResent), ab.confirm), inGame)
		}
	}
	return h
}

// smallAnswer checks that an answer carries no picture and is within the
// reply limit (max-reply-size, 64 KB by default), its header aside.
func smallAnswer(r *received) error {
	const most = 64 << 10
	if strings.Contains(strings.ToLower(string(r.Raw)), "image/png") {
		return errors.New("it carries a map")
	}
	if len(r.Raw)-len(r.Header) > most {
		return fmt.Errorf("it is %d bytes, over %d", len(r.Raw)-len(r.Header), most)
	}
	return nil
}

// pressText returns about size bytes of press, in lines of 73.
func pressText(size int) string {
	line := strings.Repeat("lorem ipsum ", 6) + "\n"
	return strings.Repeat(line, size/len(line)+1)
}

// answered returns the letters that must be answered, each in its
// sender's INBOX.
func (h *hostileMix) answered() []*letter {
	var out []*letter
	for _, m := range h.mails {
		if m.reply != nil {
			out = append(out, m.l)
		}
	}
	return out
}

// count returns how many hostile mails are of kind.
func (h *hostileMix) count(kind string) int {
	n := 0
	for _, m := range h.mails {
		if m.kind == kind {
			n++
		}
	}
	return n
}

// mixInto returns the letters with the hostile mails put in at random
// places, the normal letters keeping their order.
func (h *hostileMix) mixInto(letters []*letter, rng *rand.Rand) []*letter {
	out := slices.Clone(letters)
	for _, m := range h.mails {
		i := rng.IntN(len(out) + 1)
		out = slices.Insert(out, i, m.l)
	}
	return out
}

// damage changes a byte of the stored position of the judge's game, the
// JSON still valid ("par" becomes "pbr"), as session's held tests do: the
// game's record reads, but its position does not decode, which the
// judge reports as damage (state.ErrDamaged) of that game alone.
func (j *judge) damage(game string) {
	j.t.Helper()
	if j.running() {
		j.t.Fatal("damaging the database of a running judge")
	}
	db, err := state.OpenExisting(j.db)
	if err != nil {
		j.t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *state.Tx) error {
		g, err := tx.Game(game)
		if err != nil {
			return err
		}
		bad := strings.Replace(string(g.Position), `"par"`, `"pbr"`, 1)
		if bad == string(g.Position) {
			return fmt.Errorf("no Paris in the position of %s", game)
		}
		g.Position = []byte(bad)
		return tx.PutGame(g)
	})
	if err != nil {
		j.t.Fatalf("damaging game %s: %v", game, err)
	}
}

// awaitForgedRefused waits, the daemon running, until every forged
// OBSERVE has its answer in the outbox refused for good by the mail
// server (no mailbox has the address), and fails the test at deadline.
func (h *hostileMix) awaitForgedRefused(t testing.TB, j *judge, deadline time.Time) {
	t.Helper()
	for {
		mails, err := ctl.Outbox(ctl.SocketPath(j.db))
		if err == nil {
			refused := 0
			for _, m := range mails {
				if m.Failed != "" && len(m.To) == 1 && h.forged[m.To[0]] != nil {
					refused++
				}
			}
			if refused >= len(h.forged) {
				return
			}
		}
		if !j.running() {
			t.Fatalf("the judge exited on its own (waiting for the answers to the forged addresses): %v", j.err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the answers to the %d forged OBSERVE mails not all refused for good by the time bound (outbox: %d mails, %v)", len(h.forged), len(mails), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// hostileOutcome is what became of the hostile mails, for the log.
type hostileOutcome struct {
	answered      map[string]int // kind: answers found saying what they must
	held          int            // mails of the damaged game held
	forgedRefused int            // answers to forged addresses refused for good
	smtpRefused   map[string]int // kind: mails Postfix refused, sent by LMTP instead
}

// check checks, the daemon stopped, what the judge did with each hostile
// mail, and returns the outbox without the answers to forged addresses
// (which the caller checks is empty). It fails the test for:
//   - an answer that does not say what it must, or is missing;
//   - a hostile mail not filed into done: the judge did not take it;
//   - anything the judge queued for the long From, or any game it made,
//     joined or observed for it;
//   - a date in the year 10000 stored;
//   - a mail for the damaged game not held, or any other mail held;
//   - an observer stored, or more than one mail, or a mail that is not
//     a confirmation code, for a forged address.
func (h *hostileMix) check(t testing.TB, j *judge, done *mailbox, refusedBySMTP map[*letter]error) (out hostileOutcome, rest []*state.OutMail) {
	t.Helper()
	out = hostileOutcome{answered: map[string]int{}, smtpRefused: map[string]int{}}
	for _, m := range h.mails {
		if refusedBySMTP[m.l] != nil {
			out.smtpRefused[m.kind]++
		}
	}

	answered := h.answered()
	boxes := openBoxes(t, answered)
	got, err := repliesTo(answered, boxes)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range h.mails {
		if m.reply == nil {
			continue
		}
		replies := got[m.l.MessageID]
		if len(replies) == 0 {
			t.Errorf("%s %q was never answered", m.kind, m.l.Subject)
			continue
		}
		// The boxes fetched the header fields only: now the body of
		// this one reply.
		box, uid := boxes[m.l.From], replies[0].UID
		if err := box.retry(func() error { return box.fetch([]imap.UID{uid}, false) }); err != nil {
			t.Fatalf("%s's INBOX: %v", m.l.From, err)
		}
		r := box.got[uid]
		body := strings.Join(strings.Fields(r.Body), " ")
		ok := true
		if m.answer != nil {
			if err := m.answer(r); err != nil {
				ok = false
				t.Errorf("the answer to %s %q: %v", m.kind, m.l.Subject, err)
			}
		}
		for _, want := range m.reply {
			if !strings.Contains(body, want) {
				ok = false
				t.Errorf("the answer to %s %q does not say %q:\n%s", m.kind, m.l.Subject, want, r.Body)
			}
		}
		if ok {
			out.answered[m.kind]++
		}
	}

	for _, m := range h.mails {
		copies, err := done.byMessageID(m.l.MessageID)
		switch {
		case err != nil:
			t.Fatalf("the judge's %s: %v", done.folder, err)
		case len(copies) == 0:
			t.Errorf("%s %q is not in the judge's %s: the judge never took it", m.kind, m.l.Subject, done.folder)
		case m.kind == kindLongFrom:
			// The judge got all of the From: whole by LMTP, folded by
			// Postfix.
			from := fromField(copies[0].Header)
			if m.via == "smtp" {
				from = strings.Join(strings.Fields(from), "")
			}
			if from != h.longFrom {
				t.Errorf("the judge got %s %q with a From of %d characters, not the one sent: %.100s...", m.kind, m.l.Subject, len(from), from)
			}
		}
	}

	var outbox []*state.OutMail
	var held []*state.HeldMail
	j.view(func(tx *state.Tx) error {
		var err error
		if outbox, err = tx.Outbox(0); err != nil {
			return err
		}
		if held, err = tx.HeldMails(); err != nil {
			return err
		}
		if ab := h.abandoned; ab != nil {
			g, err := tx.Game(ab.name)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(g.Players, func(p state.Player) bool { return p.Power == ab.seat.Power })
			if p := g.Players[i]; p.Status != state.Abandoned {
				t.Errorf("%s of %s, abandoned, is %s after %d wrong guesses", p.Power, ab.name, p.Status, h.count(kindGuess))
			}
			if len(g.Observers) != 0 {
				t.Errorf("%s has %d observers after the confirming mail of one who left came %d times again, want none: a code is used once",
					ab.name, len(g.Observers), h.count(kindResent))
			}
		}
		for _, name := range h.creates {
			if _, err := tx.Game(name); !errors.Is(err, state.ErrNotFound) {
				t.Errorf("game %s, which only the long From asked for, is there (%v)", name, err)
			}
		}
		for _, name := range h.games {
			g, err := tx.Game(name)
			if err != nil {
				return err
			}
			if len(g.Observers) > 0 {
				t.Errorf("game %s has %d observers, want none: %v", name, len(g.Observers), g.Observers[0].Addr[:min(len(g.Observers[0].Addr), 40)])
			}
			if g.Deadline.Year() >= 10000 {
				t.Errorf("game %s has the deadline %v", name, g.Deadline)
			}
			for _, p := range g.Players {
				if len(p.Addr) > 256 {
					t.Errorf("game %s has a player of %d characters", name, len(p.Addr))
				}
				for _, a := range p.Absences {
					t.Errorf("game %s: %s has an absence stored, %v to %v", name, p.Power, a.From, a.To)
				}
			}
		}
		return nil
	})

	damaged := map[string]bool{}
	for _, m := range h.mails {
		if m.kind == kindDamaged {
			damaged[m.l.MessageID] = true
		}
	}
	for _, hm := range held {
		if !damaged[hm.MessageID] {
			t.Errorf("held mail %d from %.40s %q was held, and is not a mail for the damaged game: %s", hm.ID, hm.From, hm.Subject, hm.Error)
			continue
		}
		delete(damaged, hm.MessageID)
		if !strings.Contains(hm.Error, "game "+h.damaged+": stored position") || !strings.Contains(hm.Error, state.ErrDamaged.Error()) {
			t.Errorf("held mail %d is held for %q, want the damaged position of %s", hm.ID, hm.Error, h.damaged)
		}
		out.held++
	}
	if len(damaged) > 0 {
		t.Errorf("%d mails for the damaged game %s not held", len(damaged), h.damaged)
	}

	long := map[string]bool{}
	for _, m := range h.mails {
		if m.kind == kindLongFrom {
			long[m.l.MessageID] = true
		}
	}
	perForged := map[string]int{}
	for _, m := range outbox {
		switch {
		case long[m.InReplyTo] || slices.ContainsFunc(m.To, func(a string) bool { return len(a) > 256 }):
			t.Errorf("outbox mail %d answers the long From", m.ID)
		case len(m.To) == 1 && h.forged[m.To[0]] != nil:
			l := h.forged[m.To[0]]
			perForged[m.To[0]]++
			switch {
			case m.InReplyTo != l.MessageID:
				t.Errorf("outbox mail %d to the forged %s %q is not the answer to its OBSERVE", m.ID, m.To[0], m.Subject)
			case confirmCode(m.Body) == "":
				t.Errorf("outbox mail %d to the forged %s gives no confirmation code:\n%s", m.ID, m.To[0], m.Body)
			case m.Failed == "" || !strings.Contains(m.Failed, "User unknown"):
				t.Errorf("outbox mail %d to the forged %s is not refused for good as an unknown user: failed %q, last error %q", m.ID, m.To[0], m.Failed, m.LastError)
			default:
				out.forgedRefused++
			}
		default:
			rest = append(rest, m)
		}
	}
	for a, n := range perForged {
		if n > 1 {
			t.Errorf("%d mails to the forged %s, want its one confirmation code", n, a)
		}
	}
	if len(perForged) != len(h.forged) {
		t.Errorf("%d of the %d forged addresses have their confirmation code in the outbox", len(perForged), len(h.forged))
	}

	// gmd check shows the admin the damaged game and the held mails.
	cmd := exec.Command(env.gmd, "check", "-config", j.conf)
	report, err := cmd.CombinedOutput()
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("gmd check with a damaged game: %v, want exit status 1\n%s", err, report)
	}
	for _, want := range []string{
		"game " + h.damaged + ": stored position",
		fmt.Sprintf("%d incoming mails held for a fault of their own", h.count(kindDamaged)),
		fmt.Sprintf("%d mails refused for good by the SMTP server", len(h.forged)),
	} {
		if !strings.Contains(string(report), want) {
			t.Errorf("gmd check does not say %q:\n%.3000s", want, report)
		}
	}
	return out, rest
}

// log writes the hostile mails' figures.
func (h *hostileMix) log(t testing.TB, o hostileOutcome, normalAfter int) {
	t.Helper()
	var parts []string
	for _, k := range hostileKinds {
		parts = append(parts, fmt.Sprintf("%s: %d", k, h.count(k)))
	}
	t.Logf("%d hostile mails mixed in at random: %s", len(h.mails), strings.Join(parts, ", "))
	refused := ""
	for _, k := range hostileKinds {
		if n := o.smtpRefused[k]; n > 0 {
			refused += fmt.Sprintf("; Postfix refused %d %s by SMTP, sent by LMTP instead", n, k)
		}
	}
	t.Logf("hostile outcome: From of %d characters: %d taken and ignored (half by SMTP through Postfix, which folds the line, half by LMTP, whole), nothing answered or stored%s; "+
		"date in the year 10000: %d refused with an answer, none stored; "+
		"mail for the damaged game %s: %d held, %d answered so, while the %d normal mails sent after the first of them were handled; "+
		"press over max-press-per-mail: %d refused with an answer; over max-mail-size: %d refused with an answer; "+
		"OBSERVE from a forged address: %d, each answered with its confirmation code and nothing else, %d of these refused for good by Postfix (User unknown); no observer stored; "+
		"password guesses on an abandoned seat from its own address: %d, %d answered, the seat still abandoned; "+
		"HISTORY with maps from outside the game: %d, %d answered without a map and within 64 KB; "+
		"a confirming mail sent again: %d, %d answered, no observer stored",
		longFromLength, h.count(kindLongFrom), refused,
		o.answered[kindYear10000], h.damaged, o.held, o.answered[kindDamaged], normalAfter,
		o.answered[kindBigPress], o.answered[kindHugePress],
		h.count(kindForged), o.forgedRefused,
		h.count(kindGuess), o.answered[kindGuess], h.count(kindHistory), o.answered[kindHistory],
		h.count(kindResent), o.answered[kindResent])
}

// normalAfter returns how many of the normal letters come after the first
// mail for the damaged game in the stream.
func (h *hostileMix) normalAfter(stream []*letter) int {
	hostile := map[*letter]string{}
	for _, m := range h.mails {
		hostile[m.l] = m.kind
	}
	n, seen := 0, false
	for _, l := range stream {
		switch kind, ok := hostile[l]; {
		case kind == kindDamaged:
			seen = true
		case !ok && seen:
			n++
		}
	}
	return n
}

// permanentRefusal reports whether err is a mail server's refusal for
// good (5xx) of a mail.
func permanentRefusal(err error) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code >= 500
}

// fromField returns the From field of a raw header, unfolded: with
// the line breaks of its folding taken out, the white space after them
// left.
func fromField(header string) string {
	lines := strings.Split(header, "\r\n")
	for i, line := range lines {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.EqualFold(name, "From") {
			for _, more := range lines[i+1:] {
				if more == "" || (more[0] != ' ' && more[0] != '\t') {
					break
				}
				value += more
			}
			return strings.TrimSpace(value)
		}
	}
	return ""
}

// byMessageID returns the messages of the mailbox with the Message-ID
// id, their replyFields fetched.
func (m *mailbox) byMessageID(id string) (msgs []*received, err error) {
	err = m.retry(func() error {
		// Let the server tell of the messages that came since the
		// mailbox was last looked at.
		if err := m.c.Noop().Wait(); err != nil {
			return err
		}
		uids, err := m.search(&imap.SearchCriteria{
			Header: []imap.SearchCriteriaHeaderField{{Key: "Message-ID", Value: id}},
		})
		if err != nil {
			return err
		}
		if err := m.fetch(uids, true); err != nil {
			return err
		}
		msgs = nil
		for _, u := range uids {
			msgs = append(msgs, m.got[u])
		}
		return nil
	})
	return msgs, err
}
