package session

import (
	"fmt"
	"strings"
	"testing"
)

// TestIntakeGroupCommit takes a burst of mails of every kind through one
// group commit: the orders of every power, a wrong password (which needs
// bcrypt, done with no transaction open), a mail that fails for a reason
// of its own (a damaged game: held), a refused and an ignored mail.
// Nothing of the last mails shows before Commit; after it, every mail is
// answered once and applied once, and offered again, none is applied
// twice.
func TestIntakeGroupCommit(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.startStandard("dx")
	mend := h.damagePosition("dx")
	defer mend()
	before := h.lastID()

	type taken struct {
		mail     *Mail
		held     bool
		answered bool // a reply is queued to its sender
	}
	var mails []taken
	for i, s := range standardSeats {
		mails = append(mails, taken{mail: &Mail{From: s.Addr, Subject: "orders",
			Body: "SIGNON " + s.Letter + "dt " + s.Pass + "\n" + holdAll(s.Power), MessageID: fmt.Sprintf("<o%d@example.org>", i),
			Ledger: []string{fmt.Sprintf("imap/o%d", i)}}, answered: true})
		if i == 2 {
			mails = append(mails, taken{mail: &Mail{From: "guesser@example.net", Subject: "x", Body: "SIGNON Fdt wrong-guess",
				MessageID: "<guess@example.net>", Ledger: []string{"imap/guess"}}, answered: true})
		}
		if i == 4 {
			// Whatever is read of dx's position fails: the mail is held.
			mails = append(mails, taken{mail: &Mail{From: "england@example.org", Subject: "x", Body: "SIGNON Edx pw-e\nF Lon - Nth",
				MessageID: "<held@example.org>", Ledger: []string{"imap/held"}}, held: true, answered: true})
		}
	}
	in := h.m.Intake()
	for _, tk := range mails {
		taken, err := in.Take(tk.mail, h.now)
		if err != nil {
			t.Fatalf("Take(%s): %v", tk.mail.MessageID, err)
		}
		if (taken.Held != 0) != tk.held || taken.Before {
			t.Errorf("Take(%s): %+v, want held %v and not taken before", tk.mail.MessageID, taken, tk.held)
		}
	}
	if before, err := in.Refuse("big@example.net", "big", "<big@example.net>", "It is too large.", []string{"imap/big"}, h.now); err != nil || before {
		t.Fatal(before, err)
	}
	if before, err := in.Ignore("<bounce@example.net>", []string{"imap/bounce"}, h.now); err != nil || before {
		t.Fatal(before, err)
	}
	// Turkey's orders came after the last failure: not on disk yet.
	if h.seen("imap/o6") || h.seen("imap/big") || len(mailsTo(h.since(before), "turkey@example.org")) != 0 {
		t.Error("the last mails of the group were written before Commit")
	}
	if err := in.Commit(); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		got := h.since(before)
		for _, tk := range mails {
			n := 0
			for _, m := range mailsTo(got, tk.mail.From) {
				if strings.Contains(m.InReplyTo, tk.mail.MessageID) {
					n++
				}
			}
			if tk.answered && n != 1 {
				t.Errorf("%s: %d answers to %s, want 1", when, n, tk.mail.MessageID)
			}
			if !h.seen(tk.mail.Ledger[0]) {
				t.Errorf("%s: %s not in the ledger", when, tk.mail.MessageID)
			}
		}
		if len(mailsTo(got, "big@example.net")) != 1 || !h.seen("imap/bounce") {
			t.Errorf("%s: the refused mail is not answered once, or the ignored one not recorded", when)
		}
		g := h.game("dt")
		for _, s := range standardSeats {
			if len(g.Orders[s.Power]) == 0 {
				t.Errorf("%s: no orders stored for %s", when, s.Power)
			}
		}
		if held := h.heldMails(); len(held) != 1 || held[0].MessageID != "<held@example.org>" {
			t.Errorf("%s: %d held mails, want the one", when, len(held))
		}
	}
	check("after Commit")
	// Offered again (a crash before the poller flagged them), in a
	// group again: nothing is applied or answered twice.
	in = h.m.Intake()
	for _, tk := range mails {
		if taken, err := in.Take(tk.mail, h.now); err != nil || !taken.Before {
			t.Fatalf("Take(%s) offered again: %+v, %v; want taken before", tk.mail.MessageID, taken, err)
		}
	}
	if err := in.Commit(); err != nil {
		t.Fatal(err)
	}
	check("offered again")
}

// holdAll returns orders holding every unit of power at the start of a
// standard game.
func holdAll(power string) string {
	orders := map[string]string{
		"Austria": "A Vie H\nA Bud H\nF Tri H",
		"England": "F Lon H\nF Edi H\nA Lvp H",
		"France":  "F Bre H\nA Par H\nA Mar H",
		"Germany": "F Kie H\nA Ber H\nA Mun H",
		"Italy":   "F Nap H\nA Rom H\nA Ven H",
		"Russia":  "F Stp/sc H\nA Mos H\nA War H\nF Sev H",
		"Turkey":  "F Ank H\nA Con H\nA Smy H",
	}
	return orders[power]
}
