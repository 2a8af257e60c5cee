package session

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// The attacks on the fog of war by mail: a player, or anyone, asking the
// judge for what a power cannot see. On the standard board's first
// phase France cannot see Munich, where Germany's army stands, nor the
// Ruhr, which is empty: every answer about the two must be the same.

// fogAttack starts a standard game under SET FOG with an observer and
// returns the harness and France's and Germany's sign-on lines.
func fogAttack(t *testing.T) (h *harness, france, germany string) {
	h = newHarness(t)
	seats := h.startAnyVariant(fogGame, "standard", "SET FOG")
	got := h.observe(fogObserver, fogGame, "pw-o", "")
	mustContain(t, replyTo(t, got, fogObserver).Body, "until the master approves you (APPROVE), you get nothing of the game")
	f, g := seats["France"], seats["Germany"]
	return h, "SIGNON F" + fogGame + " " + f.Pass, "SIGNON G" + fogGame + " " + g.Pass
}

// seatAddr returns the address of the seat of power in game.
func (h *harness) seatAddr(game, power string) string {
	g := h.game(game)
	return g.Players[engine.PlayerByPower(g, power)].Addr
}

// sameBut reports whether a and b are the same text once the names
// given are taken out of each.
func sameBut(a, b string, names ...string) bool {
	for _, n := range names {
		a, b = strings.ReplaceAll(a, n, "#"), strings.ReplaceAll(b, n, "#")
	}
	return a == b
}

// TestFogOrderErrorsTellNothing: France orders a unit in Munich (a German
// army it cannot see) and one in the Ruhr (empty): both are refused
// with the same words. Checked on the real board, the first was "France
// does not own the army in Munich".
func TestFogOrderErrorsTellNothing(t *testing.T) {
	h, france, _ := fogAttack(t)
	addr := h.seatAddr(fogGame, "France")
	mun := replyTo(t, h.mail(addr, "orders", france+"\nA Mun H"), addr).Body
	ruh := replyTo(t, h.mail(addr, "orders", france+"\nA Ruh H"), addr).Body
	mustContain(t, mun, "There is no unit in Munich")
	mustNotContain(t, mun, "does not own", "German")
	if !sameBut(mun, ruh, "Munich", "Mun", "Ruhr", "Ruh") {
		t.Errorf("the errors for a hidden unit and for none differ:\n%s\n---\n%s", mun, ruh)
	}
}

// TestFogConditionsTellNothing: a condition on a province out of sight is
// read on the board the power sees, so "IF A Mun" is false like "IF A
// Ruh", where on the real board it is true; the same for a condition
// written ahead (PHASE), entered when its phase begins.
func TestFogConditionsTellNothing(t *testing.T) {
	h, france, _ := fogAttack(t)
	addr := h.seatAddr(fogGame, "France")
	cond := func(place string) string {
		return "IF German A " + place + "\nA Par - Bur\nELSE\nA Par - Pic\nENDIF"
	}
	mun := replyTo(t, h.mail(addr, "orders", france+"\n"+cond("Mun")), addr).Body
	mustContain(t, mun, "IF German A Mun: false", "ELSE: taken")
	ruh := replyTo(t, h.mail(addr, "orders", france+"\n"+cond("Ruh")), addr).Body
	if !sameBut(mun, ruh, "Mun", "Ruh") {
		t.Errorf("the conditions on a hidden unit and on none read differently:\n%s\n---\n%s", mun, ruh)
	}
	// Written ahead for Fall: Germany's army still stands in Munich then.
	h.mail(addr, "ahead", france+"\nPHASE F1901M\nIF German A Mun\nA Pic - Bel\nELSE\nA Pic H\nENDIF")
	from := h.lastID()
	h.processNow(fogGame)
	var notice string
	for _, m := range mailsTo(h.since(from), addr) {
		if strings.Contains(m.Body, "IF German A Mun") {
			notice = m.Body
		}
	}
	mustContain(t, notice, "IF German A Mun: false")
}

// TestFogPreviewTellsNothing: PREVIEW plays France's sandbox on the board
// France sees: Germany's army in Munich cannot be ordered there nor
// bounce France's move, and the picture is drawn as France sees it.
func TestFogPreviewTellsNothing(t *testing.T) {
	h, france, _ := fogAttack(t)
	addr := h.seatAddr(fogGame, "France")
	r := replyTo(t, h.mail(addr, "preview", france+"\nPREVIEW\nA Par - Bur\nGermany: A Mun - Bur"), addr)
	mustContain(t, r.Body, "There is no unit in Munich", "France: Army Paris -> Burgundy.")
	mustNotContain(t, r.Body, "bounce", "Germany: Army Munich")
	if len(r.Maps) != 1 || r.Maps[0].Viewer != "France" {
		t.Errorf("the preview's map is %+v, want France's view", r.Maps)
	}
}

// TestFogHistoryListSummary: HISTORY, LIST and SUMMARY of a fogged game
// give a sender not signed on nothing of the board, a power its own view
// (its results as mailed, its own orders as written, its units seen and
// its own count), the master everything and an observer nothing; once
// the game ends, anyone everything.
func TestFogHistoryListSummary(t *testing.T) {
	h, france, germany := fogAttack(t)
	fr, ge := h.seatAddr(fogGame, "France"), h.seatAddr(fogGame, "Germany")
	h.mail(ge, "orders", germany+"\nA Mun - Ruh\nA Ber - Kie\nF Kie - Den")
	h.mail(fr, "orders", france+"\nA Par - Bur\nA Mar - Spa\nF Bre - Mao")
	h.processNow(fogGame)
	h.processNow(fogGame) // Fall, all holding: a centre table to hide

	const stranger = "stranger@example.org"
	for _, cmd := range []string{"HISTORY " + fogGame, "HISTORY " + fogGame + " S1901M", "HISTORY " + fogGame + " FROM S1901M",
		"LIST " + fogGame, "SUMMARY " + fogGame} {
		r := replyTo(t, h.mail(stranger, "ask", cmd), stranger)
		mustNotContain(t, r.Body, "Movement results", "Units in", "Kiel", "Burgundy", "Supply centres after each Fall", "Orders as written")
		if len(r.Maps) > 0 {
			t.Errorf("%s: a stranger got maps %+v", cmd, r.Maps)
		}
		mustContain(t, r.Body, "fog of war")
		// A power's address is no sign-on: the From proves nothing.
		r = replyTo(t, h.mail(fr, "ask", cmd), fr)
		mustNotContain(t, r.Body, "Movement results", "Units in", "Kiel", "Supply centres after each Fall")
	}

	recs := h.phases(fogGame)
	g := h.game(fogGame)
	pos, res, err := engine.Replay(g, recs[0])
	if err != nil {
		t.Fatal(err)
	}
	fp, _ := pos.Map.PowerByName("France")
	mine, err := engine.FogResultsText(fogGame, 1, pos, res, fp)
	if err != nil {
		t.Fatal(err)
	}
	r := replyTo(t, h.mail(fr, "ask", france+"\nHISTORY "+fogGame+" S1901M"), fr)
	mustContain(t, r.Body, strings.TrimRight(mine, "\n"), "France:\n  A Par - Bur")
	mustNotContain(t, r.Body, "Kiel", "Munich", "Germany:\n")
	if len(r.Maps) != 1 || r.Maps[0].Viewer != "France" {
		t.Errorf("France's HISTORY map is %+v, want its view", r.Maps)
	}
	r = replyTo(t, h.mail(fr, "ask", france+"\nLIST "+fogGame), fr)
	// Burgundy, France's now, looks into the Ruhr; Kiel and Denmark are
	// out of sight.
	mustContain(t, r.Body, "Units in", "France: Army Burgundy", "Germany: Army Ruhr", "Supply centres: France 4.")
	mustNotContain(t, r.Body, "Kiel", "Denmark", "Germany 3", "Germany 4")
	r = replyTo(t, h.mail(fr, "ask", france+"\nSUMMARY "+fogGame), fr)
	mustContain(t, r.Body, "fog of war")
	mustNotContain(t, r.Body, "Supply centres after each Fall")

	ask := "\nHISTORY " + fogGame + " S1901M\nLIST " + fogGame + "\nSUMMARY " + fogGame
	r = replyTo(t, h.mail(testMaster, "ask", "SIGNON M"+fogGame+" "+testMasterPass+ask), testMaster)
	mustContain(t, r.Body, strings.TrimRight(recs[0].Results, "\n"), "Germany: Army Ruhr", "Supply centres after each Fall")
	// An observer may be a player's second address: nothing.
	r = replyTo(t, h.mail(fogObserver, "ask", "SIGNON O"+fogGame+" pw-o"+ask), fogObserver)
	mustContain(t, r.Body, "fog of war")
	mustNotContain(t, r.Body, "Movement results", "Units in", "Supply centres after each Fall")

	h.mail(testMaster, "end", "SIGNON M"+fogGame+" "+testMasterPass+"\nTERMINATE")
	if g := h.game(fogGame); g.Status != state.Finished {
		t.Fatalf("the game is %s", g.Status)
	}
	r = replyTo(t, h.mail(stranger, "ask", "HISTORY "+fogGame+" S1901M\nLIST "+fogGame+"\nSUMMARY "+fogGame), stranger)
	mustContain(t, r.Body, strings.TrimRight(recs[0].Results, "\n"), "Germany: Army Ruhr", "Supply centres after each Fall")
}

// TestFogConcedeTellsNothing: SET CONCEDE names the largest power when it
// refuses a concession to another, which under fog would tell the
// counts nobody sees; a fogged game takes a concession to any survivor.
func TestFogConcedeTellsNothing(t *testing.T) {
	h, france, _ := fogAttack(t)
	fr := h.seatAddr(fogGame, "France")
	r := replyTo(t, h.mail(fr, "concede", france+"\nSET CONCEDE Germany"), fr)
	mustContain(t, r.Body, "You concede the game to Germany")
	mustNotContain(t, r.Body, "largest power alone")
}

// TestSetFogBeforeStart: SET FOG is the master's, before the start only,
// and LIST says it.
func TestSetFogBeforeStart(t *testing.T) {
	h, france, _ := fogAttack(t)
	fr := h.seatAddr(fogGame, "France")
	r := replyTo(t, h.mail(fr, "fog", france+"\nSET NOFOG"), fr)
	mustContain(t, r.Body, "Error")
	r = replyTo(t, h.mail(testMaster, "fog", "SIGNON M"+fogGame+" "+testMasterPass+"\nSET NOFOG"), testMaster)
	mustContain(t, r.Body, "set before the start")
	if !h.game(fogGame).Settings.Fog {
		t.Error("SET NOFOG after the start took the fog away")
	}
	r = replyTo(t, h.mail("someone@example.org", "list", "LIST "+fogGame), "someone@example.org")
	mustContain(t, r.Body, "fog of war (each power sees only what its units and centres touch)")
}

// TestFogProxy: a unit handed to a power (SET PROXY) out of its sight is
// still its to order: its owner told it of the unit.
func TestFogProxy(t *testing.T) {
	h := newHarness(t)
	seats := h.startAnyVariant(fogGame, "standard", "SET FOG\nSET PROXY")
	fr, ge := seats["France"], seats["Germany"]
	france, germany := "SIGNON F"+fogGame+" "+fr.Pass, "SIGNON G"+fogGame+" "+ge.Pass
	r := replyTo(t, h.mail(ge.Addr, "proxy", germany+"\nPROXY F Kie TO France"), ge.Addr)
	mustNotContain(t, r.Body, "Error")
	r = replyTo(t, h.mail(fr.Addr, "orders", france+"\nF Kie - Hol"), fr.Addr)
	mustNotContain(t, r.Body, "Error", "There is no unit")
	if got := h.game(fogGame).Orders["France"]; len(got) != 1 {
		t.Errorf("France's orders are %v, want the handed fleet's", got)
	}
}

// TestFogAckTellsNothing: France supports a move of the unit in Munich,
// which it cannot see: the acknowledgement names the unit as France wrote
// it, not as it stands ("German Army Munich"), the same as for the empty
// Ruhr.
func TestFogAckTellsNothing(t *testing.T) {
	h, france, _ := fogAttack(t)
	addr := h.seatAddr(fogGame, "France")
	mun := replyTo(t, h.mail(addr, "orders", france+"\nA Mar S A Mun - Bur"), addr).Body
	mustContain(t, mun, "France: Army Marseilles SUPPORT Army Munich -> Burgundy.")
	mustNotContain(t, mun, "German")
	ruh := replyTo(t, h.mail(addr, "orders", france+"\nA Mar S A Ruh - Bur"), addr).Body
	if !sameBut(mun, ruh, "Munich", "Mun", "Ruhr", "Ruh") {
		t.Errorf("the acknowledgements of a support of a hidden unit and of none differ:\n%s\n---\n%s", mun, ruh)
	}
}
