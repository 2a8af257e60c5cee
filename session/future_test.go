package session

import (
	"strings"
	"testing"
)

// TestConditionalNow sends conditional orders for the current phase: the
// branch that holds on the position is entered, every line of every
// branch is read for mistakes, and the reply shows each condition met.
func TestConditionalNow(t *testing.T) {
	h := newHarness(t)
	h.startStandard("cn")
	addr, _ := seatOf("F")
	r := onlyTo(t, h.orders("cn", "F", `IF German A Mun AND NOT A Bur THEN
  A Par - Bur
  IF Russia OWNS Stp
    A Mar - Spa
  ELSE
    A Mar - Pie
  ENDIF
ELSE IF A Par
  A Par - Pic
ELSE
  A Par - Gas
ENDIF
IF A Nth
F Bre - Mao
ENDIF
IF F Eng
F Bre - Eng
ELSE
F Bre - Xyz
ENDIF`), addr)
	t.Log(r.Body)
	mustContain(t, r.Body,
		"France: Army Paris -> Burgundy.", "France: Army Marseilles -> Spain.",
		"IF A Nth: An army is never at sea (North Sea)",
		`F Bre - Xyz: Unknown province "Xyz"`,
		"IF German A Mun AND NOT A Bur THEN: true", "  IF Russia OWNS Stp: true", "IF F Eng: false", "ELSE: taken")
	mustNotContain(t, r.Body, "Picardy", "Gascony", "Piedmont")
	g := h.game("cn")
	if got := strings.Join(g.Orders["France"], ";"); got != "A par - bur;A mar - spa" {
		t.Errorf("stored %q", got)
	}
}

// TestPhaseAhead writes orders ahead, lists them in the acknowledgement,
// refuses phases past or too far ahead, and CLEAR drops them.
func TestPhaseAhead(t *testing.T) {
	h := newHarness(t)
	h.startStandard("pa")
	addr, _ := seatOf("F")
	r := onlyTo(t, h.orders("pa", "F", "PHASE Fall 1901 Movement\nIF A Bur\nA Bur - Mun\nELSE\nA Pic - Bel\nENDIF\nPHASE W1901A\nBuild A Par\nPHASE S1901M\nA Par - Bur"), addr)
	t.Log(r.Body)
	mustContain(t, r.Body, "The order lines below are for Fall of 1901 (F1901M)", "2 orders kept for F1901M.",
		"1 order kept for W1901A.", "The order lines below are for the current phase, Spring of 1901.",
		"France: Army Paris -> Burgundy.", "----- Pending orders", "F1901M:\n  IF A Bur\n  A Bur - Mun")
	g := h.game("pa")
	if len(g.Future["France"]) != 2 || g.Future["France"][1].Text != "Build A Par" {
		t.Fatalf("future %+v", g.Future)
	}
	for _, c := range []struct{ body, want string }{
		{"PHASE S1900M\nA Par H", "S1900M is past"},
		{"PHASE F1907M\nA Par H", "F1907M is too far ahead"},
		{"PHASE W1901M\nA Par H", "Cannot read the phase \"W1901M\""},
		{"PHASE Fall\nA Par H", "Cannot read the phase"},
		{"PHASE F1901M\nA Par - Xyz", "None of the orders of this block was kept for F1901M"},
		{"PHASE F1901M\nGermany: A Mun H", "You are France, not Germany"},
		{"PHASE F1901M\nIF A Nth\nA Par H\nENDIF", "An army is never at sea"},
		{"PHASE F1901M\nA Par H\n" + strings.Repeat("Army Paris moves to Burgundy\n", 400), "may keep at most 8192 bytes"},
	} {
		r := onlyTo(t, h.orders("pa", "F", c.body), addr)
		mustContain(t, r.Body, c.want)
	}
	if g := h.game("pa"); len(g.Future["France"]) != 2 {
		t.Fatalf("a refused block changed the future orders: %+v", g.Future["France"])
	}
	r = onlyTo(t, h.orders("pa", "F", "PHASE W1901A\nCLEAR"), addr)
	mustContain(t, r.Body, "The orders France wrote ahead for W1901A were dropped.")
	if g := h.game("pa"); len(g.Future["France"]) != 1 {
		t.Fatalf("CLEAR after PHASE: %+v", g.Future["France"])
	}
	r = onlyTo(t, h.orders("pa", "F", "CLEAR"), addr)
	mustContain(t, r.Body, "The orders France wrote ahead were dropped.")
	mustNotContain(t, r.Body, "Pending orders")
	if g := h.game("pa"); g.Future != nil {
		t.Fatalf("CLEAR: %+v", g.Future)
	}
	r = onlyTo(t, h.orders("pa", "F", "CLEAR"), addr)
	mustContain(t, r.Body, "France had no orders written ahead.")
}

// TestPhaseAheadSecurity: orders written ahead need the seat's password
// (a forged From, a wrong password and an observer change nothing), and
// a new holder of the seat neither inherits nor reads them; the player
// who returns to their own seat keeps them.
func TestPhaseAheadSecurity(t *testing.T) {
	h := newHarness(t)
	h.startStandard("ps")
	addr, _ := seatOf("F")
	h.orders("ps", "F", "PHASE F1901M\nA Par - Bur")
	before := h.game("ps").Future
	for _, body := range []string{
		"PHASE F1901M\nA Par - Gas", "CLEAR",
		"SIGNON Fps wrong\nCLEAR", "SIGNON Fps wrong\nPHASE F1901M\nA Par - Gas",
	} {
		h.mail(addr, "forged", body)
	}
	h.observe("watcher@example.org", "ps", "pw-w", "")
	r := onlyTo(t, h.mail("watcher@example.org", "w", "OBSERVE ps pw-w\nPHASE F1901M\nA Par - Gas\nCLEAR"), "watcher@example.org")
	mustContain(t, r.Body, "Observers cannot give orders.")
	mustNotContain(t, r.Body, "A Par - Bur")
	if got := h.game("ps").Future; len(got["France"]) != 1 || got["France"][0].Text != before["France"][0].Text {
		t.Fatalf("forged mails changed France's orders written ahead: %+v", got)
	}
	// France resigns and comes back: its orders stay.
	h.orders("ps", "F", "RESIGN")
	got := h.mail(addr, "back", "SIGNON Fps pw-f")
	mustContain(t, replyTo(t, got, addr).Body, "A Par - Bur")
	// France resigns, and a newcomer takes the seat: they are gone.
	h.orders("ps", "F", "RESIGN")
	const newcomer = "new@example.org"
	r = onlyTo(t, h.mail(newcomer, "x", "SIGNON Fps mine"), newcomer)
	got = h.mail(newcomer, "x", "CONFIRM "+codeIn(t, r.Body)+"\nSIGNON Fps mine")
	body := replyTo(t, got, newcomer).Body
	mustContain(t, body, "You have taken over France")
	mustNotContain(t, body, "A Par - Bur", "Pending orders")
	if g := h.game("ps"); g.Future != nil {
		t.Fatalf("the newcomer inherits %+v", g.Future)
	}
}
