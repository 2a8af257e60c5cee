package session

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/parser"
)

// TestSetTableListsEveryOption checks the one SET table against the
// error message and HELP: every option the reader accepts is listed by
// the error message (or is short for a listed form), every word reads
// back as its own row, and HELP shows every form of the table, each in
// the section of who may set it. The list once left out REMINDER, which
// SET took and HELP showed.
func TestSetTableListsEveryOption(t *testing.T) {
	table := parser.SetOptions()
	list := parser.SetList()
	syntax := map[string]bool{}
	for _, o := range table {
		if o.Syntax != "" {
			syntax[o.Name] = true
			if !strings.Contains(list, o.Syntax) {
				t.Errorf("the error message's list lacks SET %s", o.Syntax)
			}
		}
	}
	for _, o := range table {
		if o.Syntax == "" && !syntax[o.ShortFor] {
			t.Errorf("SET %s is neither listed nor short for a listed form (ShortFor %q)", o.Name, o.ShortFor)
		}
		for _, w := range o.Words {
			if got, _, _, ok := parser.ReadSetOption([]string{w}); !ok || got.Name != o.Name {
				t.Errorf("SET %s is read as %q, but its row is %q", w, got.Name, o.Name)
			}
		}
	}
	info, ok := parser.LookupCommand("SET")
	if !ok {
		t.Fatal("the command table has no SET")
	}
	if want := parser.SetForms(parser.Player); !slices.Equal(info.Forms, want) {
		t.Errorf("the command table's SET forms are %q, the SET table's %q", info.Forms, want)
	}
	help := newHelpData("GMD", "judge@example.org")
	var player, master string
	for _, c := range help.Commands {
		player += c.Lines
	}
	for _, c := range help.Master {
		master += c.Lines
	}
	for _, o := range table {
		if o.Usage == "" {
			continue
		}
		in, other := player, master
		if o.Who == parser.Master {
			in, other = master, player
		}
		if !strings.Contains(in, o.Usage) || strings.Contains(other, o.Usage) {
			t.Errorf("HELP shows SET form %q outside the %s's commands", o.Usage, o.Who)
		}
	}
}

// TestSetHandlersMatchTable holds the SET table and its handlers to one
// another: every row has a handler and every handler a row, so no
// option can be listed and refused, or handled and never listed.
func TestSetHandlersMatchTable(t *testing.T) {
	rows := map[string]bool{}
	for _, o := range parser.SetOptions() {
		if rows[o.Name] {
			t.Errorf("two rows of the SET table are named %s", o.Name)
		}
		rows[o.Name] = true
		if setHandlers[o.Name] == nil {
			t.Errorf("SET %s has no handler", o.Name)
		}
	}
	for name := range setHandlers {
		if !rows[name] {
			t.Errorf("the handler of SET %s has no row in the SET table", name)
		}
	}
}

// TestSetEveryWord sends every word of every row of the SET table: the
// master's reach their handler (no "Unknown option"), and from a
// player the master's are refused as the master's and the players' are
// not. One mail after another, on one goroutine: the plain pass runs
// it (racetest.Sequential).
func TestSetEveryWord(t *testing.T) {
	racetest.Sequential(t)
	h := newHarness(t)
	h.startStandard("dt")
	for _, o := range parser.SetOptions() {
		for _, w := range o.Words {
			if o.Name == "PASSWORD" {
				continue // a password option takes the seat's password (TestSetPassword's)
			}
			r := replyTo(t, h.mail(testMaster, "set", "SIGNON Mdt "+testMasterPass+"\nSET "+w), testMaster).Body
			if strings.Contains(r, "Unknown option") || strings.Contains(r, "Only the master") {
				t.Errorf("the master's SET %s (%s) did not reach its handler:\n%s", w, o.Name, r)
			}
			r = onlyTo(t, h.orders("dt", "F", "SET "+w), "france@example.org").Body
			refused := strings.Contains(r, "Only the master of 'dt' may SET "+w+".")
			if refused != (o.Who == parser.Master) {
				t.Errorf("France's SET %s (%s, for the %s): refused as the master's is %v:\n%s", w, o.Name, o.Who, refused, r)
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
