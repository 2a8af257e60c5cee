package session

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/parser"
)

// TestSetTableListsEveryOption checks the one SET table against itself and
// against HELP: every option the reader accepts is listed by the error
// message (or is short for a listed form), every listed form is accepted,
// and every SET form HELP shows names an option the reader accepts. The
// list once left out REMINDER, which SET took and HELP showed.
func TestSetTableListsEveryOption(t *testing.T) {
	shown := map[string]bool{}
	for _, o := range setTable {
		if o.Shown != "" {
			shown[o.Shown] = true
			first := strings.Fields(o.Shown)[0]
			if setOptions[first] != o.Opt {
				t.Errorf("the error message lists SET %s, which the reader takes as %q, not %q", o.Shown, setOptions[first], o.Opt)
			}
			if !strings.Contains(setAccepted, o.Shown) {
				t.Errorf("setAccepted lacks %q", o.Shown)
			}
		}
	}
	for _, o := range setTable {
		if o.Shown == "" && !shown[o.ShortFor] {
			t.Errorf("SET %v (%s) is neither listed nor short for a listed form (ShortFor %q)", o.Words, o.Opt, o.ShortFor)
		}
		for _, w := range o.Words {
			if setOptions[w] != o.Opt {
				t.Errorf("SET %s is read as %q, but its row says %q: a word is in two rows", w, setOptions[w], o.Opt)
			}
		}
	}
	info, ok := parser.LookupCommand("SET")
	if !ok {
		t.Fatal("the command table has no SET")
	}
	for _, f := range info.Forms {
		for form := range strings.SplitSeq(f.Usage, "|") {
			w := strings.Fields(form)
			if len(w) < 2 || w[0] != "SET" {
				t.Fatalf("HELP's SET form %q is not SET option ...", form)
			}
			if setOptions[w[1]] == "" {
				t.Errorf("HELP shows %q, whose option %s the reader refuses", strings.TrimSpace(form), w[1])
			}
		}
	}
}

// TestUnknownSetListsReminder sends an unknown SET and checks the answer
// lists every clock setting, REMINDER included (it was left out).
func TestUnknownSetListsReminder(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", "SET COLOUR blue"), "france@example.org")
	mustContain(t, r.Body, "Unknown option SET COLOUR.", "REMINDER (a length)", "DEADLINE", "BUILD HOME|ONE|ANY")
}
