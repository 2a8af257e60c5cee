package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// secretOrders are orders every power sends in the secrecy test, for all
// of its units; each renders as lines no other mail would hold.
var secretOrders = map[string]string{
	"A": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
	"E": "F Lon - Eng\nF Edi - Nth\nA Lvp - Yor",
	"F": "A Par - Pic\nA Mar - Spa\nF Bre - Mao",
	"G": "A Ber - Kie\nA Mun - Tyr\nF Kie - Den",
	"I": "A Ven - Pie\nA Rom - Apu\nF Nap - Ion",
	"R": "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp/sc - Bot",
	"T": "A Con - Bul\nA Smy - Arm\nF Ank - Bla",
}

// TestSecrecy sends every command as every power, an observer, the master
// and an outsider, after each power has ordered and sent partial press,
// and checks that no mail to anyone holds another power's pending orders
// or partial press addressed to others.
func TestSecrecy(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("watcher@example.org", "dt", "pw-o", "")

	// Each power orders; its ack shows the lines that are its secret.
	secrets := map[string][]string{} // addr -> lines only that address may see
	acks := map[string][]string{}    // addr -> its orders as its ack shows them
	for _, s := range standardSeats {
		r := onlyTo(t, h.orders("dt", s.Letter, secretOrders[s.Letter]), s.Addr)
		for _, l := range strings.Split(r.Body, "\n") {
			if strings.HasPrefix(l, s.Power+": ") && strings.Contains(l, " -> ") {
				acks[s.Addr] = append(acks[s.Addr], l)
			}
		}
		secrets[s.Addr] = append(secrets[s.Addr], acks[s.Addr]...)
		// The orders as typed and as stored are secret too.
		secrets[s.Addr] = append(secrets[s.Addr], strings.Split(secretOrders[s.Letter], "\n")...)
		secrets[s.Addr] = append(secrets[s.Addr], h.game("dt").Orders[s.Power]...)
		if len(secrets[s.Addr]) < 9 {
			t.Fatalf("%s's ack shows too few orders:\n%s", s.Power, r.Body)
		}
	}
	// Each power sends partial press to the next; only the two of them may
	// see its text.
	press := map[string][2]string{} // marker -> the addresses allowed
	for i, s := range standardSeats {
		next := standardSeats[(i+1)%len(standardSeats)]
		marker := fmt.Sprintf("SECRET-%s-%s", s.Letter, next.Letter)
		press[marker] = [2]string{s.Addr, next.Addr}
		h.orders("dt", s.Letter, "PRESS TO "+next.Letter+"\n"+marker+"\nENDPRESS")
	}

	commands := "LIST\nLIST dt\nHISTORY dt\nHISTORY dt S1901M\nSUMMARY dt\nHELP\nSET WAIT\nSET NOWAIT\n" +
		"SET ABSENCE 2026-02-01\nBROADCAST\nhello\nENDPRESS\nPRESS TO M\nto the master\nENDPRESS\n"
	for _, s := range standardSeats {
		h.orders("dt", s.Letter, commands+"A Vie H\nF Lon H")
		h.orders("dt", s.Letter, "SET DRAW\nSET NODRAW")
	}
	h.mail("watcher@example.org", "x", "OBSERVE dt pw-o\n"+commands)
	h.mail(testMaster, "x", "SIGNON Mdt pw-m\n"+commands+"SET PRESS WHITE\n")
	h.mail("outsider@example.org", "x", "LIST\nLIST dt\nHISTORY dt\nSUMMARY dt\nSIGNON Fdt guess\n")

	box := h.outbox()
	if len(box) < 100 {
		t.Fatalf("only %d mails queued: the test did not run its commands", len(box))
	}
	for _, m := range box {
		for _, addr := range m.To {
			for owner, lines := range secrets {
				if strings.EqualFold(owner, addr) {
					continue
				}
				for _, l := range lines {
					if strings.Contains(m.Body, l) {
						t.Errorf("mail %q to %s shows another power's order %q", m.Subject, addr, l)
					}
				}
			}
			for marker, allowed := range press {
				if strings.Contains(m.Body, marker) && !strings.EqualFold(addr, allowed[0]) && !strings.EqualFold(addr, allowed[1]) {
					t.Errorf("mail %q to %s shows press %s", m.Subject, addr, marker)
				}
			}
		}
	}
	// The orders are still there: the test looked for something that exists.
	g := h.game("dt")
	if g.Status != state.Active || len(g.Orders["France"]) != 3 || len(h.press("dt")) < 7 {
		t.Fatalf("game after the test: %s, France %q, %d press", g.Status, g.Orders["France"], len(h.press("dt")))
	}
	// And each power did see its own orders: the scan can find them.
	r := onlyTo(t, h.orders("dt", "F", ""), "france@example.org")
	mustContain(t, r.Body, acks["france@example.org"]...)
}
