package session

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/parser"
)

// anyoneSays returns the body of the reply to body, mailed by an address
// that has signed on to nothing.
func (h *harness) anyoneSays(body string) string {
	h.t.Helper()
	return onlyTo(h.t, h.mail("anyone@example.org", "x", body), "anyone@example.org").Body
}

// TestGetEveryTopic sends GET for every command of the table, by each of
// its names, and every SET option. One mail after another, on one
// goroutine: the plain pass runs it (racetest.Sequential).
func TestGetEveryTopic(t *testing.T) {
	racetest.Sequential(t)
	h := newHarness(t)
	help := h.anyoneSays("HELP")
	// Every command of the table, by its name and each synonym: its own
	// lines of HELP, word for word, and who may send it.
	for _, c := range parser.Commands() {
		for _, w := range append([]string{c.Name}, c.Synonyms...) {
			if strings.Contains(w, " ") {
				continue // GET takes one word
			}
			r := h.anyoneSays("GET " + strings.ToLower(w))
			mustNotContain(t, r, "Error")
			first := "  " + c.Forms[0].Usage
			if !strings.Contains(r, first) {
				t.Errorf("GET %s lacks %q:\n%s", w, first, r)
			}
			for _, line := range strings.Split(r, "\n") {
				if strings.HasPrefix(line, "  ") && !strings.Contains(help, line) {
					t.Errorf("GET %s: line %q is not HELP's", w, line)
				}
			}
			if w == "HELP" || w == "INFO" {
				// njudge's GET INFO and GET HELP: the whole text.
				mustContain(t, r, "Mail commands, one per line")
				continue
			}
			mustContain(t, r, map[parser.Who]string{parser.Anyone: "Anyone may send", parser.Player: "follows a sign-on", parser.Master: "is for the game's master"}[c.Who])
		}
	}
	// Every option of the SET table.
	for _, o := range parser.SetOptions() {
		if len(o.Words) == 0 {
			continue
		}
		r := h.anyoneSays("GET SET " + o.Words[0])
		mustNotContain(t, r, "Error")
		mustContain(t, r, "Set by ")
		if !strings.Contains(r, "  SET ") {
			t.Errorf("GET SET %s shows no form:\n%s", o.Words[0], r)
		}
	}
	// The parts of help.tmpl, each as HELP has it.
	for topic, want := range map[string]string{
		"ORDERS":   "After SIGNON, every line that is not a command is an order for your power:",
		"syntax":   "A later order for a unit replaces the earlier one.",
		"MASTER":   "  PROCESS [phase]",
		"VARIANTS": "CREATE takes the variants",
		"LENGTHS":  "  SET MOVEMENT",
		"INDEX":    "  TERMINATE master  TERMINATE",
		"INFO":     "Mail commands, one per line",
	} {
		r := h.anyoneSays("GET " + topic)
		mustContain(t, r, want)
		if topic != "INDEX" {
			mustContain(t, help, want)
		}
		mustNotContain(t, r, "Error")
	}
	r := h.anyoneSays("SEND ME INDEX")
	for _, c := range parser.Commands() {
		mustContain(t, r, "  "+c.Name+" ")
	}
	t.Logf("GET INDEX:\n%s", r)
	t.Logf("GET PRESS:\n%s", h.anyoneSays("GET PRESS"))
	t.Logf("GET SET FAKE:\n%s", h.anyoneSays("GET SET FAKE"))

	// GET alone lists the topics; a topic that is none says so, on its line.
	mustContain(t, h.anyoneSays("GET"), "GET takes one topic of the HELP text: INDEX, ORDERS", "CREATE, SIGNON")
	r = h.anyoneSays("HELP\nGET nonsense\nGET SET NONSENSE")
	mustContain(t, r, `Error (line 2): There is no help topic "nonsense". The topics are INDEX`, "Error (line 3): Unknown option SET NONSENSE.")
}

// A forged mail of many GETs costs what one of many HELPs does: GET is
// answered max-output-commands times, to whatever address the From line
// names, and one line says which lines were not run.
func TestManyGetsAnsweredFourTimes(t *testing.T) {
	h := withDefaultLimits(newHarness(t))
	r := onlyTo(t, h.mail("victim@example.net", "get", strings.Repeat("GET INDEX\n", 50)), "victim@example.net")
	if n := strings.Count(r.Body, "Every command, on a line"); n != 4 {
		t.Errorf("GET INDEX answered %d times, want 4 (max-output-commands)", n)
	}
	mustContain(t, r.Body, "Error: Not run (lines 5, 6, 7")
}
