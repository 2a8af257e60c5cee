package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/state"
)

// putPhase records a processed phase of a game, with its position given
// in the jsonpos contract.
func (h *harness) putPhase(game string, turn int, phase, position, results string) {
	h.t.Helper()
	pos, rules, err := jsonpos.DecodePosition([]byte(position))
	if err != nil {
		h.t.Fatal(err)
	}
	rec := &state.PhaseRecord{Phase: phase, Turn: turn, Processed: h.now, Results: results,
		Position: json.RawMessage(jsonpos.EncodePosition(pos, rules)), Orders: map[string][]string{}}
	if err := h.m.DB().Update(func(tx *state.Tx) error { return tx.PutPhase(game, rec) }); err != nil {
		h.t.Fatal(err)
	}
}

func TestList(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.create("young")
	h.join("a@example.org", "young", "pw", "", "")
	r := onlyTo(t, h.mail("anyone@example.org", "x", "LIST"), "anyone@example.org")
	mustContain(t, r.Body, "Games on GMD:",
		"dt            Standard    S1901M   active    7/7",
		"young         Standard    S1901M   forming   1/7")
	r = onlyTo(t, h.mail("anyone@example.org", "x", "LIST young"), "anyone@example.org")
	mustContain(t, r.Body, "Game 'young': Standard, rules datc-3.0, forming.", "Players: 1 of 7 have joined.", "a@example.org")
	r = onlyTo(t, h.mail("anyone@example.org", "x", "LIST dt\nLIST nosuch"), "anyone@example.org")
	mustContain(t, r.Body, "Deadline: Thu Jan 08 2026 12:00:00 +0000.",
		"  France:    france@example.org",
		"Units in Spring of 1901:", "Russia: Fleet St Petersburg (south coast).",
		"Supply centres: Austria 3, England 3, France 3, Germany 3, Italy 3, Russia 4, Turkey 3.",
		"Error (line 2): There is no game named 'nosuch'.")
}

func TestHistoryAndSummary(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	start := `{"variant":"standard","phase":"%s","units":[{"power":"France","type":"A","at":"par"}],"centers":{%s}}`
	three := `"par":"France","bre":"France","mar":"France","ber":"Germany"`
	five := `"par":"France","bre":"France","mar":"France","spa":"France","por":"France"`
	h.putPhase("dt", 1, "S1901M", fmt.Sprintf(start, "S1901M", three), "Movement results for Spring of 1901.\n\nFrance: Army Paris -> Burgundy.\n")
	h.putPhase("dt", 2, "F1901M", fmt.Sprintf(start, "F1901M", three), "Movement results for Fall of 1901.\n\nFrance: Army Burgundy -> Munich.\n")
	h.putPhase("dt", 3, "W1901A", fmt.Sprintf(start, "W1901A", five), "Adjustment results for Winter of 1901.\n")
	h.now = h.now.Add(time.Hour)

	r := onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY dt"), "anyone@example.org")
	mustContain(t, r.Body, "S1901M (dt.001), processed Mon Jan 05 2026 12:00:00 +0000:",
		"France: Army Paris -> Burgundy.", "F1901M (dt.002)", "France: Army Burgundy -> Munich.", "W1901A (dt.003)")
	r = onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY dt f1901m\nHISTORY dt S1902M\nHISTORY dt someday"), "anyone@example.org")
	mustContain(t, r.Body, "France: Army Burgundy -> Munich.",
		"Error (line 2): Phase S1902M of 'dt' has not been processed.",
		"Error (line 3): \"someday\" is not a phase")
	mustNotContain(t, r.Body, "Paris -> Burgundy")

	r = onlyTo(t, h.mail("anyone@example.org", "x", "SUMMARY dt"), "anyone@example.org")
	mustContain(t, r.Body, "Summary of game 'dt': Standard, rules datc-3.0, active",
		"  Turkey:    turkey@example.org",
		"Supply centres after each Fall:",
		"         A   E   F   G   I   R   T",
		"  1901   0   0   5   0   0   0   0")
	if strings.Count(r.Body, "  1901") != 1 {
		t.Errorf("1901 counted twice:\n%s", r.Body)
	}
}

func TestHistoryEmptyAndLimit(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY dt"), "anyone@example.org")
	mustContain(t, r.Body, "No phase of 'dt' has been processed yet.")
	pos := `{"variant":"standard","phase":"S1901M"}`
	for i := 1; i <= historyLimit+2; i++ {
		h.putPhase("dt", i, fmt.Sprintf("S%dM", 1900+i), pos, fmt.Sprintf("results number %d\n", i))
	}
	r = onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY dt"), "anyone@example.org")
	mustContain(t, r.Body, "The last 12 phases of 'dt'", "S1901M S1902M.", "results number 3\n", "results number 14\n")
	mustNotContain(t, r.Body, "results number 1\n", "results number 2\n")
}

func TestHelp(t *testing.T) {
	h := newHarness(t)
	r := onlyTo(t, h.mail("anyone@example.org", "help", "help"), "anyone@example.org")
	mustContain(t, r.Body, "This is GMD, a Diplomacy judge at judge@example.org.", "CREATE ?game password")
}
