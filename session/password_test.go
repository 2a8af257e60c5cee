package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// TestPasswordsNeverKept plays a game with passwords found nowhere else,
// changes them, guesses them wrong, and sends them in every way a
// command takes them; then no mail the judge queued, no phase record,
// no game record and no byte of the database, live or backed up, may
// hold any of them in clear.
func TestPasswordsNeverKept(t *testing.T) {
	h := newHarness(t)
	pw := func(who string) string { return "Qx7" + who + "Zk2" } // "Qx7F1Zk2"
	var secrets []string
	keep := func(s string) string { secrets = append(secrets, s); return s }

	h.confirm(testMaster, "new", "CREATE ?dt "+keep(pw("M1")))
	h.observe("watcher@example.org", "dt", keep(pw("O1")), "")
	for _, s := range standardSeats {
		h.join(s.Addr, "dt", keep(pw(s.Letter+"1")), s.Letter, "")
	}
	if g := h.game("dt"); g.Status != state.Active {
		t.Fatalf("game is %s", g.Status)
	}
	// Every way to give a password: the synonyms, lower case, twice in
	// a mail, with words too many, and a change of password.
	h.mail("france@example.org", "x", "sign on Fdt "+pw("F1")+"\nSIGNON Fdt "+pw("F1")+"\nSET PASSWORD "+keep(pw("F2"))+"\nA Par - Bur")
	h.mail("france@example.org", "x", "LOGIN Fdt "+pw("F2")+" extra words\nHELLO Fdt "+pw("F2"))
	// A password with a space is refused, and none of it echoed.
	h.mail("england@example.org", "x", "hello edt "+pw("E1")+"\nset password "+keep(pw("E2"))+" "+keep(pw("E3")))
	h.mail(testMaster, "x", "SIGNON Mdt "+pw("M1")+"\nSET PASSWORD "+keep(pw("M2"))+"\nBROADCAST\nplay nicely\nENDPRESS")
	h.mail("watcher@example.org", "x", "OBSERVE dt "+pw("O1")+"\nSET PASSWORD "+keep(pw("O2")))
	h.mail("watcher@example.org", "x", "WATCH dt "+pw("O2")+" "+pw("O2"))
	// Wrong guesses, up to a lockout, and the right password during it.
	for i := range senderFailures + 1 {
		h.mail("guesser@example.net", "x", "SIGNON Fdt "+keep(pw(fmt.Sprintf("G%d", i))))
	}
	h.mail("guesser@example.net", "x", "SIGNON Fdt "+pw("F2"))
	h.confirm("guesser@example.net", "x", "CREATE ?guess "+keep(pw("C1"))+" standard\nSIGNON Mguess "+pw("C1"))

	// Phases played, with orders, press and the history read.
	for phase := range 2 {
		for _, s := range standardSeats {
			p := pw(s.Letter + "1")
			if s.Letter == "F" {
				p = pw("F2")
			}
			h.mail(s.Addr, "orders", fmt.Sprintf("SIGNON %sdt %s\nPRESS TO M\nphase %d\nENDPRESS\nHISTORY dt\nSUMMARY dt\n%s",
				s.Letter, p, phase, secretOrders[s.Letter]))
		}
		h.advance(73 * time.Hour)
		h.tick()
	}
	// The master processes the third phase, orders or not.
	h.mail(testMaster, "go", "SIGNON Mdt "+pw("M2")+"\nPROCESS")

	var phases []*state.PhaseRecord
	var game []byte
	err := h.m.DB().View(func(tx *state.Tx) error {
		var err error
		if phases, err = tx.Phases("dt"); err != nil {
			return err
		}
		g, err := tx.Game("dt")
		if err != nil {
			return err
		}
		game, err = json.Marshal(g)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(phases) < 2 {
		t.Fatalf("%d phases played, want at least 2", len(phases))
	}
	var backup bytes.Buffer
	if _, err := h.m.DB().Backup(&backup); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(h.m.DB().Path())
	if err != nil {
		t.Fatal(err)
	}

	places := map[string][]byte{"game record": game, "backup": backup.Bytes(), "database file": file}
	for _, p := range phases {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		places["phase "+p.Phase] = b
	}
	box := h.outbox()
	if len(box) < 50 {
		t.Fatalf("only %d mails queued", len(box))
	}
	for _, m := range box {
		places[fmt.Sprintf("mail %d %q", m.ID, m.Subject)] = []byte(m.Subject + "\n" + m.Body)
	}
	if len(secrets) != 21 {
		t.Fatalf("%d passwords used", len(secrets))
	}
	for where, b := range places {
		for _, s := range secrets {
			// Any case, as a player may have written it.
			if bytes.Contains(bytes.ToLower(b), []byte(strings.ToLower(s))) {
				t.Errorf("password %s in the %s", s, where)
			}
		}
	}
	// The scan can find what it looks for: the press and the orders are
	// there, and the sign-ons were echoed with their passwords hidden.
	mustContain(t, string(file), "play nicely")
	mustContain(t, backup.String(), "play nicely")
	var echoes int
	for _, m := range box {
		echoes += strings.Count(m.Body, "********")
	}
	if echoes < 20 {
		t.Errorf("only %d hidden passwords echoed", echoes)
	}
}
