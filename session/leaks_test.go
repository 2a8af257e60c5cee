package session

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// Tests of the smaller leaks of issue 11: what a mail gives away that it
// should not, and what a stranger can do to somebody else's mail.

// A game that has not started has no deadline, and its mails say so
// rather than show njudge's epoch, which reads as a deadline long past.
func TestFormingGameShowsNoDeadline(t *testing.T) {
	h := newHarness(t)
	created := onlyTo(t, h.confirm(testMaster, "new", "CREATE ?fg "+testMasterPass), testMaster)
	joined := onlyTo(t, h.join("austria@example.org", "fg", "pw-a", "", ""), "austria@example.org")
	for _, r := range []string{created.Body, joined.Body} {
		mustContain(t, r, ":: Deadline: S1901M none (the game has not started)")
		mustNotContain(t, r, "1970")
	}
}

// Grey press reads the same to its recipients whoever of the powers sent
// it: the recipient list is the one the sender wrote, so a list of all
// seven powers does not leave the sender out, nor does ALL BUT.
func TestGreyPressRecipientsHideSender(t *testing.T) {
	for _, to := range []string{"AEFGIRT", "ALL BUT R", "Austria England France Germany Italy Russia Turkey"} {
		t.Run(to, func(t *testing.T) {
			h := newHarness(t)
			h.startStandard("dt")
			h.setPress("dt", "grey", true)
			press := "PRESS TO " + to + "\nWho am I?\nENDPRESS"
			fromFrance := onlyTo(t, h.orders("dt", "F", press), "germany@example.org")
			fromEngland := onlyTo(t, h.orders("dt", "E", press), "germany@example.org")
			if fromFrance.Subject != fromEngland.Subject || fromFrance.Body != fromEngland.Body {
				t.Errorf("Germany can tell the senders apart:\nfrom France: %s\n%s\nfrom England: %s\n%s",
					fromFrance.Subject, fromFrance.Body, fromEngland.Subject, fromEngland.Body)
			}
			mustNotContain(t, fromFrance.Subject+fromFrance.Body, "France to", "from France", "from F ")
		})
	}
}

// One address holds one seat of a game, and the master's address none,
// unless the master allows it with SET MULTIPLE: by joining a forming
// game, or by taking over an abandoned seat.
func TestOneSeatPerAddress(t *testing.T) {
	h := newHarness(t)
	h.create("fg")
	r := replyTo(t, h.mail(testMaster, "join", "SIGNON ?fg pw-x"), testMaster)
	mustContain(t, r.Body, "You are the master of 'fg'", "SET MULTIPLE")
	if g := h.game("fg"); len(g.Players) != 0 {
		t.Fatalf("the master joined their own game: %+v", g.Players)
	}
	r = replyTo(t, h.mail(testMaster, "allow", "SIGNON Mfg "+testMasterPass+"\nSET MULTIPLE"), testMaster)
	mustContain(t, r.Body, "One address may now hold more than one seat")
	h.join(testMaster, "fg", "pw-x", "", "")

	h.startStandard("dt")
	h.orders("dt", "R", "RESIGN")
	for _, who := range []string{"france@example.org", testMaster} {
		r := replyTo(t, h.mail(who, "takeover", "SIGNON Rdt pw-new"), who)
		mustContain(t, r.Body, "SET MULTIPLE")
		if g := h.game("dt"); g.Players[engine.PlayerByPower(g, "Russia")].Status != state.Abandoned {
			t.Fatalf("%s took over Russia", who)
		}
	}
	// The player who gave the seat up may take it back (confirming the
	// address like anyone else).
	takeover := func(who, body, want string) {
		t.Helper()
		r := replyTo(t, h.mail(who, "takeover", body), who)
		code := codeIn(t, r.Body)
		r = replyTo(t, h.mail(who, "takeover", "CONFIRM "+code+"\n"+body), who)
		mustContain(t, r.Body, want)
	}
	takeover("russia@example.org", "SIGNON Rdt pw-back", "Welcome back: you play Russia")

	// Allowed, a player may take a second seat.
	h.mail("russia@example.org", "again", "SIGNON Rdt pw-back\nRESIGN")
	h.mail(testMaster, "allow", "SIGNON Mdt "+testMasterPass+"\nSET MULTIPLE")
	takeover("france@example.org", "SIGNON Rdt pw-new", "You have taken over Russia")
}

// No reply repeats a password, whatever order its words come in and
// however SET PASSWORD is spelt; and CREATE needs its ?game, so that a
// password put first names no game.
func TestPasswordNeverEchoed(t *testing.T) {
	const secret = "hunter2"
	h := newHarness(t)
	h.startStandard("dt")
	france := "france@example.org"
	for _, tt := range []struct {
		from, body string
		want       string // in the reply
		changed    bool   // France's password is now secret
	}{
		{"x@example.org", "CREATE " + secret + " ?g1", "Use: CREATE ?game password", false},
		{"x@example.org", "CREATE " + secret + " g1", "Use: CREATE ?game password", false},
		{france, "SIGNON " + secret + " Fdt", "Use: SIGNON Pgame password", false},
		{france, "SIGN ON " + secret + " Fdt", "Use: SIGNON Pgame password", false},
		{"x@example.org", "OBSERVE " + secret + " dt", "Use: OBSERVE game password", false},
		{"x@example.org", "WATCH " + secret + " dt", "Use: OBSERVE game password", false},
		{france, "SIGNON Fdt pw-f\nSET PASSWORD " + secret + " extra", "one word", false},
		{france, "SIGNON Fdt pw-f\nSET PASSWD pw-x\nSET " + secret + " PASSWORD", "Unknown option SET ********", false},
		{france, "SIGNON Fdt pw-x\nSET PASWORD " + secret, "Unknown option SET PASWORD", false},
		{france, "SIGNON Fdt pw-x\nSET PASWORD:" + secret, "Unknown option SET ********", false},
		{france, "SIGNON Fdt pw-x\nSET PASSWORD: " + secret, "Password changed.", true},
		{france, "SIGNON Fdt " + secret + "\nSET PASSWORD:" + secret + "\nSET pass " + secret, "Password changed.", true},
		{france, "SIGNON Fdt " + secret + "\nset password=" + secret + "\nSET NO PASSWORD " + secret, "Password changed.", true},
	} {
		r := replyTo(t, h.mail(tt.from, "x", tt.body), tt.from)
		mustContain(t, r.Body, tt.want)
		if strings.Contains(strings.ToLower(r.Subject+r.Body), "unter2") {
			t.Errorf("%q: the reply repeats the password:\n%s", tt.body, r.Body)
		}
		if tt.changed {
			mustContain(t, replyTo(t, h.mail(france, "x", "SIGNON Fdt "+secret), france).Body, "Signed on as France")
		}
	}
	if err := h.m.DB().View(func(tx *state.Tx) error {
		for _, name := range []string{secret, "g1"} {
			if ok, err := tx.HasGame(name); err != nil || ok {
				t.Errorf("game %s created (%v)", name, err)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// Nobody can use up a player's Message-ID: the ledger knows a mail by its
// sender, Message-ID and text together, so that the same mail offered
// again is applied once, and another mail with that Message-ID is applied
// too. Entries of the earlier form, the Message-ID alone, still count.
func TestMessageIDNotForgeable(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	const id = "<orders.1@example.org>"
	france, orders := "france@example.org", "SIGNON Fdt pw-f\nA Par - Bur"
	// A stranger, and a forger of France's address, use the Message-ID
	// first.
	h.mailID("stranger@example.net", "x", "HELP", id)
	h.mailID(france, "orders", "SIGNON Fdt guess", id)
	mustContain(t, replyTo(t, h.mailID(france, "orders", orders, id), france).Body, "France: Army Paris -> Burgundy.")
	if got := h.game("dt").Orders["France"]; len(got) != 1 || got[0] != "A par - bur" {
		t.Fatalf("France's orders: %q", got)
	}
	// France's mail offered again, by the mail server in pipe mode or by
	// the IMAP poller under a new UIDVALIDITY, is the same mail.
	if got := h.mailID(france, "orders", orders, id); len(got) != 0 {
		t.Fatalf("a mail offered again was answered: %d mails", len(got))
	}
	in := &Mail{From: france, Subject: "orders", Body: orders, MessageID: id, Ledger: []string{"imap/judge/INBOX/2/1"}}
	before := h.lastID()
	if err := h.m.Handle(in, h.now); err != nil {
		t.Fatal(err)
	}
	if got := h.since(before); len(got) != 0 {
		t.Fatalf("a mail offered again under a new IMAP key was answered: %d mails", len(got))
	}

	// A mail recorded by an earlier gmd, under its Message-ID alone.
	if err := h.m.DB().Update(func(tx *state.Tx) error { return tx.MarkSeen("msgid:<old@example.org>", h.now) }); err != nil {
		t.Fatal(err)
	}
	if got := h.mailID(france, "orders", orders, "<old@example.org>"); len(got) != 0 {
		t.Fatalf("a mail recorded before the upgrade was answered again: %d mails", len(got))
	}
}
