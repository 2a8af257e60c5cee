package session

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// Tests of the confirmation a join and a CREATE need: a forged From gets
// a stranger's address neither a seat nor a game, nor any mail but the
// one reply with the code.

// userErr returns the error of reading addr's user record: ErrNotFound
// when the judge has stored nothing about the address.
func (h *harness) userErr(addr string) error {
	return h.m.DB().View(func(tx *state.Tx) error {
		_, err := tx.User(addr)
		return err
	})
}

// TestForgedJoinTakesNoSeat: a join under a stranger's address gives the
// stranger only the reply with a code; the game starts without them and
// mails them nothing. The stranger, sending the code back, joins.
func TestForgedJoinTakesNoSeat(t *testing.T) {
	h := newHarness(t)
	h.create("fg")
	h.create("other")
	const victim, forger = "victim@example.net", "forger@example.org"

	got := h.mail(victim, "forged", "SIGNON ?fg secret F\nSET PASSWORD other")
	r := onlyTo(t, got, victim).Body
	if len(got) != 1 {
		t.Errorf("the forged join queued %d mails, want only the reply", len(got))
	}
	mustContain(t, r, "You have not joined game 'fg' yet.",
		"To join game 'fg', "+victim+" must show that it reads this mail: send "+testJudge+" a mail with these two lines",
		"\n  SIGNON ?fg <your password> F\n",
		"If you did not ask for this, do nothing", "The rest of this mail was ignored.")
	mustNotContain(t, r, "secret", "You have joined")
	code := codeIn(t, r)
	if g := h.game("fg"); len(g.Players) != 0 {
		t.Fatalf("players after a forged join: %+v", g.Players)
	}
	if err := h.userErr(victim); !errors.Is(err, state.ErrNotFound) {
		t.Fatalf("the judge stored the forged address: %v", err)
	}

	// The code is the victim's, for that game, for two days: not the
	// forger's, not another game's, and a guess is no code.
	r = onlyTo(t, h.mail(forger, "x", "CONFIRM "+code+"\nSIGNON ?fg secret"), forger).Body
	mustContain(t, r, "The confirmation code in your mail is wrong or too old.")
	r = onlyTo(t, h.mail(victim, "x", "CONFIRM "+code+"\nSIGNON ?other secret"), victim).Body
	mustContain(t, r, "wrong or too old", "You have not joined game 'other' yet.")
	r = onlyTo(t, h.mail(victim, "x", "CONFIRM ABCDEFGHJK\nSIGNON ?fg secret"), victim).Body
	mustContain(t, r, "wrong or too old")
	if g := h.game("fg"); len(g.Players) != 0 {
		t.Fatalf("players after refused codes: %+v", g.Players)
	}

	// The game fills and starts: the victim gets none of its mail.
	var all []*state.OutMail
	for _, s := range standardSeats {
		all = append(all, h.join(s.Addr, "fg", s.Pass, s.Letter, "")...)
	}
	if g := h.game("fg"); g.Status != state.Active || engine.PlayerByAddr(g, victim) >= 0 {
		t.Fatalf("game fg: %s, players %+v", g.Status, g.Players)
	}
	if m := mailsTo(all, victim); len(m) != 0 {
		t.Fatalf("the stranger got %q", m[0].Subject)
	}

	// Whoever reads the victim's mail may use the code: the join goes
	// through, with the password of the confirming mail.
	got = h.mail(victim, "x", "CONFIRM "+code+"\nSIGNON ?other mine E")
	mustContain(t, replyTo(t, got, victim).Body, "wrong or too old") // a code for fg only
	got = h.mail(victim, "x", "SIGNON ?other mine E")
	confirm := "CONFIRM " + codeIn(t, replyTo(t, got, victim).Body) + "\nSIGNON ?other mine E"
	got = h.mail(victim, "x", confirm)
	mustContain(t, replyTo(t, got, victim).Body, "You have joined game 'other': 1 of 7 players.")
	g := h.game("other")
	if i := engine.PlayerByAddr(g, victim); i < 0 || g.Players[i].Preference != "E" {
		t.Fatalf("players of 'other': %+v", g.Players)
	}
	// The confirming mail sent twice signs on to the seat.
	r = replyTo(t, h.mail(victim, "x", confirm), victim).Body
	mustContain(t, r, "You are already in game 'other'")
	mustNotContain(t, r, "Nothing in this mail needed the confirmation code")
}

// TestForgedCreateStoresNothing: a CREATE under a stranger's address
// creates no game, stores nothing about the address, and mails it only
// the reply with the code; the code, sent back from that address on that
// day or the next, creates the game, in one mail with the command.
func TestForgedCreateStoresNothing(t *testing.T) {
	h := newHarness(t)
	const victim, forger = "victim@example.net", "forger@example.org"

	got := h.mail(victim, "forged", "CREATE ?evil secret standard datc-2.4\nSIGNON Mevil secret")
	r := onlyTo(t, got, victim).Body
	if len(got) != 1 {
		t.Errorf("the forged CREATE queued %d mails, want only the reply", len(got))
	}
	mustContain(t, r, "Game 'evil' is not created yet.",
		"To create game 'evil', "+victim+" must show that it reads this mail: send "+testJudge+" a mail with these two lines",
		"\n  CREATE ?evil <your password> standard datc-2.4\n", "The rest of this mail was ignored.")
	mustNotContain(t, r, "secret", "created:")
	code := codeIn(t, r)
	if _, err := h.gameErr("evil"); !errors.Is(err, state.ErrNotFound) {
		t.Fatalf("game evil after a forged CREATE: %v", err)
	}
	if err := h.userErr(victim); !errors.Is(err, state.ErrNotFound) {
		t.Fatalf("the judge stored the forged address: %v", err)
	}

	// Not the forger's code, nor another game's.
	r = onlyTo(t, h.mail(forger, "x", "CONFIRM "+code+"\nCREATE ?evil secret"), forger).Body
	mustContain(t, r, "wrong or too old", "Game 'evil' is not created yet.")
	r = onlyTo(t, h.mail(victim, "x", "CONFIRM "+code+"\nCREATE ?other secret"), victim).Body
	mustContain(t, r, "wrong or too old", "Game 'other' is not created yet.")
	for _, name := range []string{"evil", "other"} {
		if _, err := h.gameErr(name); !errors.Is(err, state.ErrNotFound) {
			t.Fatalf("game %s after refused codes: %v", name, err)
		}
	}

	// The next day the code still creates the game, the command first
	// and the code after it, written as a player might.
	h.advance(30 * time.Hour)
	got = h.mail(victim, "x", "CREATE ?evil mine standard datc-2.4\nCONFIRM "+strings.ToLower(code[:5]+" "+code[5:]))
	mustContain(t, onlyTo(t, got, victim).Body, "Game 'evil' created: Standard, rules datc-2.4")
	g := h.game("evil")
	if !strings.EqualFold(g.MasterAddr, victim) || g.Rules != "datc-2.4" {
		t.Fatalf("game evil: master %s, rules %s", g.MasterAddr, g.Rules)
	}
	mustContain(t, onlyTo(t, h.mail(victim, "x", "SIGNON Mevil mine"), victim).Body, "Signed on as the master of 'evil'")

	// Two days on, a code is too old.
	h.advance(49 * time.Hour)
	r = onlyTo(t, h.mail(victim, "x", "CONFIRM "+code+"\nCREATE ?late mine"), victim).Body
	mustContain(t, r, "wrong or too old", "Game 'late' is not created yet.")
}
