package session

import (
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/judge"
)

// TestWholeGameConditional is issue 24's scripted game: France writes
// its whole year ahead in the first mail of Spring 1901, conditionals
// included, for the Fall's movement, its retreat and its Winter's
// builds; Germany answers with conditional orders for the phase at hand.
// Each phase is processed by the master (PROCESS) or by the clock once
// every order is in; the retreat and the builds come from orders written
// a year before, entered as each phase began.
//
//	S1901M  France: A Par - Bur, F Bre - Mao, A Mar - Spa, and ahead:
//	        S1901R (a retreat that never happens), F1901M (IF French A Bur
//	        AND NOT German A Mun ... ELSE A Bur H; IF F Mao F Mao - Por;
//	        A Pic - Bel for a unit that will not be there), F1901R (IF
//	        German A Bur: A Bur - Pic) and W1901A (IF France OWNS Por:
//	        Build F Bre; Build A Par).
//	        Germany: A Mun - Ruh, A Ber - Mun.
//	F1901M  France's orders are entered: the ELSE branch (Germany is in
//	        Munich), F Mao - Por; A Pic - Bel is refused and reported.
//	        Germany: IF French A Bur: A Ruh - Bur, A Mun S A Ruh - Bur.
//	        France is dislodged from Burgundy.
//	F1901R  France's retreat to Picardy is entered at the start, so the
//	        clock processes the phase at once.
//	W1901A  France's two builds are entered; the same run of the clock
//	        processes them.
func TestWholeGameConditional(t *testing.T) {
	w := newWholeGame(t, "cg")
	w.all = append(w.all, w.h.startStandard("cg")...)
	w.wantPhase("S1901M")

	// --- Spring 1901 ---------------------------------------------------------
	w.h.advance(time.Hour)
	r := w.reply(w.addr["F"], "SIGNON Fcg "+w.pass["F"]+`
A Par - Bur
F Bre - Mao
A Mar - Spa
PHASE Spring 1901 Retreats
A Bur - Gas
PHASE Fall 1901 Movement
IF French A Bur AND NOT German A Mun THEN
  A Bur - Mun
ELSE
  A Bur H
ENDIF
IF F Mao
  F Mao - Por
ENDIF
A Spa H
A Pic - Bel
PHASE F1901R
IF German A Bur
  A Bur - Pic
ENDIF
PHASE Winter 1901 Adjustments
IF France OWNS Por
  Build F Bre
ENDIF
Build A Par
`)
	mustContain(t, r.Body, "France: Army Paris -> Burgundy.", "France's orders are complete.",
		"1 order kept for S1901R.", "5 orders kept for F1901M.", "1 order kept for F1901R.", "2 orders kept for W1901A.",
		"----- Pending orders", "F1901M:\n  IF French A Bur AND NOT German A Mun THEN\n    A Bur - Mun\n  ELSE")
	mustNotContain(t, r.Body, "Error")
	w.h.advance(time.Hour)
	r = w.reply(w.addr["G"], "SIGNON Gcg "+w.pass["G"]+"\nA Mun - Ruh\nA Ber - Mun\nF Kie H")
	mustContain(t, r.Body, "Germany's orders are complete.")
	mustNotContain(t, r.Body, "Pending orders") // France's are France's alone

	w.h.advance(time.Hour)
	got := w.mail(testMaster, "SIGNON Mcg "+testMasterPass+"\nPROCESS")
	w.toAll(w.only(got, w.addr["E"], "GMD:cg - S1901M Results"), "GMD:cg - S1901M Results")
	w.wantPhase("F1901M")
	// France alone hears what became of its orders for the Fall, and of
	// those for the retreat that did not happen.
	note := w.only(got, w.addr["F"], "GMD:cg - F1901M Orders Entered")
	mustContain(t, note.Body, "The orders France wrote ahead for Fall of 1901 (F1901M) were read",
		"IF French A Bur AND NOT German A Mun THEN: false", "ELSE: taken", "IF F Mao: true",
		"Entered:\n  A Bur H\n  F Mao - Por\n  A Spa H\n",
		"Not entered, as they no longer fit:\n  A Pic - Bel: ",
		"Orders written for phases the game did not play were dropped:\n  S1901R (1 line)")
	if n := len(mailsTo(got, w.addr["F"])); n != 2 {
		t.Errorf("France got %d mails at the processing, want the results and the notice", n)
	}
	for _, s := range standardSeats {
		if s.Letter != "F" && len(mailsTo(got, s.Addr)) != 1 {
			t.Errorf("%s got %d mails, want the results only", s.Power, len(mailsTo(got, s.Addr)))
		}
	}
	// France's acknowledgement now shows the orders entered.
	w.h.advance(time.Hour)
	r = w.reply(w.addr["F"], "SIGNON Fcg "+w.pass["F"])
	mustContain(t, r.Body, "France: Army Burgundy HOLD.", "France: Fleet Mid-Atlantic Ocean -> Portugal.",
		"F1901R:\n  IF German A Bur\n    A Bur - Pic", "W1901A:")
	mustNotContain(t, r.Body, "F1901M:")

	// --- Fall 1901 -----------------------------------------------------------
	w.h.advance(time.Hour)
	r = w.reply(w.addr["G"], "SIGNON Gcg "+w.pass["G"]+"\nIF French A Bur\n  A Ruh - Bur\n  A Mun S A Ruh - Bur\nELSE\n  A Ruh H\nENDIF\nF Kie H")
	mustContain(t, r.Body, "IF French A Bur: true", "Germany: Army Ruhr -> Burgundy.", "Germany: Army Munich SUPPORT Army Ruhr -> Burgundy.")
	mustNotContain(t, r.Body, "Error", "Army Ruhr HOLD")
	w.h.advance(time.Hour)
	got = w.mail(testMaster, "SIGNON Mcg "+testMasterPass+"\nPROCESS")
	res := w.toAll(w.only(got, w.addr["E"], "GMD:cg - F1901M Results"), "GMD:cg - F1901M Results")
	mustContain(t, res.Body, "France: Army Burgundy HOLD. (*dislodged*)", "France: Fleet Mid-Atlantic Ocean -> Portugal.")
	w.wantPhase("F1901R")
	note = w.only(got, w.addr["F"], "GMD:cg - F1901R Orders Entered")
	mustContain(t, note.Body, "IF German A Bur: true", "Entered:\n  A Bur - Pic\n")
	mustNotContain(t, note.Body, "Not entered")

	// --- Fall 1901 retreats: France's retreat is in, so the clock takes
	// the phase at once; the Winter's builds are entered as it begins,
	// which completes that phase too, and the same run of the clock
	// takes it. -----------------------------------------------------------
	w.h.advance(time.Minute)
	got = w.tick()
	res = w.toAll(w.only(got, w.addr["E"], "GMD:cg - F1901R Results"), "GMD:cg - F1901R Results")
	mustContain(t, res.Body, "France:    Army  Burgundy -> Picardy.", "France:    5 Supply centers,  3 Units:  Builds   2 units.")
	note = w.only(got, w.addr["F"], "GMD:cg - W1901A Orders Entered")
	mustContain(t, note.Body, "Winter of 1901 (W1901A)", "IF France OWNS Por: true", "Entered:\n  Build F Bre\n  Build A Par\n")
	res = w.toAll(w.only(got, w.addr["E"], "GMD:cg - W1901A Results"), "GMD:cg - W1901A Results")
	mustContain(t, res.Body, "Builds a fleet in Brest.", "Builds an army in Paris.")
	w.wantPhase("S1902M")
	var french []string
	for _, u := range w.position().Units {
		if u.Type != judge.NoUnit && w.position().Map.Powers[u.Power].Name == "France" {
			french = append(french, u.Type.String()+" "+wgTitle(w.position().Map.LocName(u.Loc)))
		}
	}
	if got := strings.Join(french, ", "); got != "A Par, F Bre, A Pic, F Por, A Spa" {
		t.Errorf("France's units: %s", got)
	}
	if g := w.h.game("cg"); g.Future != nil || g.Orders != nil {
		t.Errorf("after the builds: future %v, orders %v", g.Future, g.Orders)
	}
}
