package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// eventLog is a harness's master logging to a buffer, read back as the
// events' attributes.
type eventLog struct{ buf bytes.Buffer }

// newEventHarness returns a harness whose master logs its game events.
func newEventHarness(t *testing.T) (*harness, *eventLog) {
	h := newHarness(t)
	l := new(eventLog)
	h.m.cfg.Log = slog.New(slog.NewJSONHandler(&l.buf, nil))
	return h, l
}

// take returns the events logged since the last take, each as
// "msg game=… phase=… key=value…" in the order the attributes were
// given, and forgets them.
func (l *eventLog) take(t *testing.T) []string {
	t.Helper()
	var out []string
	dec := json.NewDecoder(&l.buf)
	for dec.More() {
		var rec map[string]any
		if err := dec.Decode(&rec); err != nil {
			t.Fatalf("log: %v", err)
		}
		if rec["level"] != "INFO" {
			t.Errorf("event at %v, want INFO: %v", rec["level"], rec)
		}
		line := fmt.Sprintf("%v game=%v phase=%v", rec["msg"], rec["game"], rec["phase"])
		for _, k := range []string{"power", "why", "was", "late", "next", "turn", "result"} {
			if v, ok := rec[k]; ok {
				line += fmt.Sprintf(" %s=%v", k, v)
			}
		}
		out = append(out, line)
	}
	l.buf.Reset()
	return out
}

func wantEvents(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEventsNoNMR follows a NoNMR game through lateness, abandonment,
// a takeover, a processed phase, a resignation, an ejection and the end,
// and checks each is logged once, with the game and phase.
func TestEventsNoNMR(t *testing.T) {
	h, l := newEventHarness(t)
	h.startStandard("ev")
	wantEvents(t, l.take(t)) // starting a game is no event of its own
	for _, c := range "AEGIRT" {
		h.orders("ev", string(c), "")
	}
	h.orders("ev", "F", "A Par H\nA Mar H\nF Bre H")
	h.mail(testMaster, "x", "SIGNON Mev pw-m\nSET WAIT") // nothing to process early: France has all its orders, the rest none

	h.advance(73 * time.Hour) // past the deadline
	h.tick()
	var late []string
	for _, p := range []string{"Austria", "England", "Germany", "Italy", "Russia", "Turkey"} {
		late = append(late, "player late game=ev phase=S1901M power="+p+" late=1")
	}
	wantEvents(t, l.take(t), late...)

	h.advance(49 * time.Hour) // past the grace: the late seats are abandoned
	h.tick()
	var abandoned []string
	for _, p := range []string{"Austria", "England", "Germany", "Italy", "Russia", "Turkey"} {
		abandoned = append(abandoned, "seat abandoned game=ev phase=S1901M power="+p+" why=late")
	}
	wantEvents(t, l.take(t), abandoned...)

	h.confirm("new@example.org", "x", "SIGNON Eev newpw")
	wantEvents(t, l.take(t), "seat taken over game=ev phase=S1901M power=England was=abandoned")

	h.mail(testMaster, "x", "SIGNON Mev pw-m\nPROCESS")
	wantEvents(t, l.take(t), "phase processed game=ev phase=S1901M next=F1901M turn=1")

	h.orders("ev", "F", "RESIGN")
	wantEvents(t, l.take(t), "seat abandoned game=ev phase=F1901M power=France why=resigned")

	h.mail(testMaster, "x", "SIGNON Mev pw-m\nEJECT England")
	wantEvents(t, l.take(t), "seat abandoned game=ev phase=F1901M power=England why=ejected")

	h.mail(testMaster, "x", "SIGNON Mev pw-m\nTERMINATE")
	wantEvents(t, l.take(t), "game ended game=ev phase=F1901M result=terminated")
}

// TestEventsNMR checks the seats of late players of an NMR game are
// logged as falling into civil disorder, with the phase then processed.
func TestEventsNMR(t *testing.T) {
	h, l := newEventHarness(t)
	h.startStandard("nmr")
	h.mail(testMaster, "x", "SIGNON Mnmr pw-m\nSET NMR")
	l.take(t)
	h.advance(73*time.Hour + 49*time.Hour)
	h.tick()
	var want []string
	for _, p := range []string{"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"} {
		want = append(want, "player late game=nmr phase=S1901M power="+p+" late=1")
	}
	for _, p := range []string{"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"} {
		want = append(want, "seat in civil disorder game=nmr phase=S1901M power="+p)
	}
	wantEvents(t, l.take(t), append(want, "phase processed game=nmr phase=S1901M next=F1901M turn=1")...)
}
