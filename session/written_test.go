package session

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// Tests of the orders as written: kept with the pending orders
// (Game.Written), recorded with each processed phase (PhaseRecord.Written)
// and shown by HISTORY game phase.

// phases reads a game's history.
func (h *harness) phases(name string) []*state.PhaseRecord {
	h.t.Helper()
	var recs []*state.PhaseRecord
	err := h.m.DB().View(func(tx *state.Tx) error {
		var err error
		recs, err = tx.Phases(name)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return recs
}

// process has the master process the game's current phase now.
func (h *harness) process(game string) {
	h.t.Helper()
	r := replyTo(h.t, h.mail(testMaster, "go", "SIGNON M"+game+" "+testMasterPass+"\nPROCESS"), testMaster)
	if !strings.Contains(r.Body, "processed; the results went to everyone") {
		h.t.Fatalf("PROCESS reply:\n%s", r.Body)
	}
}

// wantWritten fails unless a phase record holds, for power, exactly the
// orders want, each a stored line and the text it was written as ("" for
// none), in order.
func wantWritten(t *testing.T, rec *state.PhaseRecord, power string, want [][2]string) {
	t.Helper()
	var lines, texts []string
	for _, w := range want {
		lines, texts = append(lines, w[0]), append(texts, w[1])
	}
	if !slices.Equal(rec.Orders[power], lines) {
		t.Errorf("%s %s orders %q, want %q", rec.Phase, power, rec.Orders[power], lines)
	}
	if !slices.Equal(rec.Written[power], texts) {
		t.Errorf("%s %s written %q, want %q", rec.Phase, power, rec.Written[power], texts)
	}
}

// A player's odd spellings are kept as written, following the orders
// kept: a replaced order takes its text with it, a void replacement
// changes nothing, and the same order written again takes the new text.
// The master's orders for a power keep the master's text. Processing
// records them beside the orders as adjudicated and clears them.
func TestWrittenOrdersRecorded(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.orders("dt", "E", "army liverpool -> yorkshire\nF Edi-Nth\nf lon h")
	// Mail lines: 1 SIGNON, 2 the Liverpool order replaced, 3 a void one
	// for London (which keeps its order and text), 4 London's order again
	// in other words.
	r := onlyTo(t, h.orders("dt", "E", "A  Lvp  -  Edi\nF Lon - Mun\nfleet london holds"), "england@example.org")
	mustContain(t, r.Body, "Error (line 3): F Lon - Mun:", "England: Army Liverpool -> Edinburgh.")
	g := h.game("dt")
	want := map[string]string{"A lvp - edi": "A  Lvp  -  Edi", "F edi - nth": "F Edi-Nth", "F lon H": "fleet london holds"}
	if !maps.Equal(g.Written["England"], want) {
		t.Fatalf("England's texts %q, want %q (orders %q)", g.Written["England"], want, g.Orders["England"])
	}
	if len(g.Written) != 1 {
		t.Fatalf("texts for powers that wrote nothing: %q", g.Written)
	}
	// The master orders for France, with BECOME and with a power prefix.
	r = onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt pw-m\nFrance: a mar-spa\nBECOME France\nArmy Paris moves to Picardy"), testMaster)
	mustContain(t, r.Body, "France: Army Paris -> Picardy.")
	if got := h.game("dt").Written["France"]; !maps.Equal(got, map[string]string{"A mar - spa": "France: a mar-spa", "A par - pic": "Army Paris moves to Picardy"}) {
		t.Fatalf("France's texts %q", got)
	}

	h.process("dt")
	if g := h.game("dt"); g.Orders != nil || g.Written != nil {
		t.Fatalf("pending orders after processing: %q, texts %q", g.Orders, g.Written)
	}
	recs := h.phases("dt")
	if len(recs) != 1 {
		t.Fatalf("%d phase records", len(recs))
	}
	rec := recs[0]
	wantWritten(t, rec, "England", [][2]string{
		{"F edi - nth", "F Edi-Nth"}, {"A lvp - edi", "A  Lvp  -  Edi"}, {"F lon H", "fleet london holds"}})
	wantWritten(t, rec, "France", [][2]string{{"A mar - spa", "France: a mar-spa"}, {"A par - pic", "Army Paris moves to Picardy"}})
	// The holds the judge supplied for the units without orders were
	// never written: they are in neither list.
	if len(rec.Orders) != 2 || len(rec.Written) != 2 {
		t.Errorf("orders %q, written %q: only England and France ordered", rec.Orders, rec.Written)
	}
	for _, gone := range []string{"army liverpool -> yorkshire", "f lon h", "F Lon - Mun"} {
		if slices.Contains(rec.Written["England"], gone) {
			t.Errorf("replaced order's text %q recorded", gone)
		}
	}
}

// In an adjustment phase a build beyond those due pushes out the earliest,
// and its text goes with it; a later build in the same place replaces the
// earlier one's text. A power in civil disorder gets its removal from the
// judge, with no text.
func TestWrittenBuilds(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.setPosition("dt", winter1901)
	h.orders("dt", "F", "Build A Par\nbuild f bre\nb f mar")
	h.orders("dt", "F", "BUILD ARMY MARSEILLES\nw")
	g := h.game("dt")
	if !slices.Equal(g.Orders["France"], []string{"build F bre", "build A mar", "waive"}) {
		t.Fatalf("France's adjustments %q", g.Orders["France"])
	}
	want := map[string]string{"build F bre": "build f bre", "build A mar": "BUILD ARMY MARSEILLES", "waive": "w"}
	if !maps.Equal(g.Written["France"], want) {
		t.Fatalf("France's texts %q, want %q", g.Written["France"], want)
	}
	h.process("dt")
	rec := h.phases("dt")[0]
	wantWritten(t, rec, "France", [][2]string{
		{"build F bre", "build f bre"}, {"build A mar", "BUILD ARMY MARSEILLES"}, {"waive", "w"}})
	if _, ok := rec.Orders["Germany"]; ok {
		t.Errorf("Germany's civil-disorder removal recorded as its order: %q", rec.Orders["Germany"])
	}
	if _, ok := rec.Written["Germany"]; ok {
		t.Errorf("Germany's civil-disorder removal has a text: %q", rec.Written["Germany"])
	}
}

// ROLLBACK drops the pending orders with their texts, and the history
// from the phase rolled back to with its texts; the phases before keep
// theirs, and the phase played again records the new texts only.
func TestWrittenRollback(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.orders("dt", "F", "a par-bur")
	h.process("dt")
	h.orders("dt", "F", "a bur-bel")
	h.process("dt")
	// Belgium gives France a build in W1901A, pending when rolled back.
	h.orders("dt", "F", "Build A Par")
	if g := h.game("dt"); len(h.phases("dt")) != 2 || g.Written["France"]["build A par"] != "Build A Par" {
		t.Fatalf("%d phases, texts %q before the rollback", len(h.phases("dt")), g.Written)
	}
	r := replyTo(t, h.mail(testMaster, "x", "SIGNON Mdt pw-m\nROLLBACK F1901M"), testMaster)
	mustContain(t, r.Body, "rolled back to F1901M")
	g := h.game("dt")
	if g.Orders != nil || g.Written != nil {
		t.Fatalf("after the rollback: orders %q, texts %q", g.Orders, g.Written)
	}
	recs := h.phases("dt")
	if len(recs) != 1 {
		t.Fatalf("%d phases after the rollback", len(recs))
	}
	wantWritten(t, recs[0], "France", [][2]string{{"A par - bur", "a par-bur"}})

	h.orders("dt", "F", "ARMY BURGUNDY -> PICARDY")
	h.process("dt")
	recs = h.phases("dt")
	if len(recs) != 2 {
		t.Fatalf("%d phases after playing F1901M again", len(recs))
	}
	wantWritten(t, recs[0], "France", [][2]string{{"A par - bur", "a par-bur"}})
	wantWritten(t, recs[1], "France", [][2]string{{"A bur - pic", "ARMY BURGUNDY -> PICARDY"}})
}

// HISTORY game phase shows the orders as written, power by power, to
// anyone; the whole history does not. A phase recorded before gmd kept
// the texts says so, and an order stored without one shows as stored.
func TestHistoryShowsWritten(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.orders("dt", "E", "army liverpool -> yorkshire")
	h.orders("dt", "F", "a par-bur\nF  BRE  -  MAO")
	h.process("dt")

	r := onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY dt S1901M"), "anyone@example.org")
	mustContain(t, r.Body, "Movement results for Spring of 1901. (dt.001)",
		"England: Army Liverpool -> Yorkshire.",
		"\nOrders as written:\n\nEngland:\n  army liverpool -> yorkshire\nFrance:\n  a par-bur\n  F  BRE  -  MAO\n")
	mustNotContain(t, r.Body, "Germany:\n", "(as stored)")
	r = onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY dt"), "anyone@example.org")
	mustContain(t, r.Body, "England: Army Liverpool -> Yorkshire.")
	mustNotContain(t, r.Body, "Orders as written", "army liverpool -> yorkshire")

	// Pending orders stored by an older gmd have no text: they are
	// recorded with "", and shown as stored.
	g := h.game("dt")
	g.Orders = map[string][]string{"France": {"A bur - mun"}}
	h.putGame(g)
	h.orders("dt", "F", "f mao-spa/nc")
	if got := h.game("dt").Written["France"]; !maps.Equal(got, map[string]string{"F mao - spa/nc": "f mao-spa/nc"}) {
		t.Fatalf("France's texts %q", got)
	}
	h.process("dt")
	wantWritten(t, h.phases("dt")[1], "France", [][2]string{{"A bur - mun", ""}, {"F mao - spa/nc", "f mao-spa/nc"}})
	r = onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY dt F1901M"), "anyone@example.org")
	mustContain(t, r.Body, "France:\n  A bur - mun  (as stored)\n  f mao-spa/nc\n")

	// A record from before the texts were kept.
	pos := `{"variant":"standard","phase":"S1902M","units":[{"power":"France","type":"A","at":"mun"}]}`
	h.putPhase("dt", 9, "S1905M", pos, "Movement results for Spring of 1905.\n")
	err := h.m.DB().Update(func(tx *state.Tx) error {
		recs, err := tx.Phases("dt")
		if err != nil {
			return err
		}
		rec := recs[len(recs)-1]
		rec.Orders = map[string][]string{"France": {"A mun H"}}
		return tx.PutPhase("dt", rec)
	})
	if err != nil {
		t.Fatal(err)
	}
	r = onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY dt S1905M"), "anyone@example.org")
	mustContain(t, r.Body, "The orders as written were not kept for S1905M.")
	mustNotContain(t, r.Body, "Orders as written:")
}

// The texts as written of pending orders reach nobody but their power
// before the phase is processed, whatever anyone asks; after processing
// they are public in HISTORY game phase.
func TestWrittenSecrecy(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("watcher@example.org", "dt", "pw-o", "")
	h.orders("dt", "F", "a par-bur")
	h.process("dt")
	// Texts no mail would hold but England's own: odd case and spacing.
	secret := []string{"aRmY   lIvErPoOl   ->   wAlEs", "FlEeT  lOnDoN   ->   nOrTh  SeA"}
	before := h.lastID()
	h.orders("dt", "E", strings.Join(secret, "\n"))
	if got := h.game("dt").Written["England"]; len(got) != 2 {
		t.Fatalf("England's texts %q", got)
	}
	commands := "LIST\nLIST dt\nHISTORY dt\nHISTORY dt S1901M\nHISTORY dt F1901M\nSUMMARY dt\n"
	for _, s := range standardSeats {
		h.orders("dt", s.Letter, commands)
	}
	h.mail("watcher@example.org", "x", "OBSERVE dt pw-o\n"+commands)
	h.mail(testMaster, "x", "SIGNON Mdt pw-m\n"+commands)
	h.mail("outsider@example.org", "x", commands)
	mails := h.since(before)
	if len(mails) < 10 {
		t.Fatalf("only %d mails: the commands did not run", len(mails))
	}
	for _, m := range mails {
		for _, to := range m.To {
			if strings.EqualFold(to, "england@example.org") {
				continue
			}
			for _, s := range secret {
				if strings.Contains(m.Body, s) {
					t.Errorf("mail %q to %s shows England's pending order as written %q", m.Subject, to, s)
				}
			}
		}
	}
	h.process("dt")
	r := onlyTo(t, h.mail("outsider@example.org", "x", "HISTORY dt F1901M"), "outsider@example.org")
	mustContain(t, r.Body, secret...)
}
