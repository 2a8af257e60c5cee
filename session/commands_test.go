package session

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
)

// TestHelpIsTheTable: HELP lists every form of every command of the
// command table, with its synonyms, within 78 columns, so that HELP and
// what the parser reads cannot drift apart.
func TestHelpIsTheTable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := onlyTo(t, h.mail("anyone@example.org", "help", "HELP"), "anyone@example.org")
	wantNarrowText(t, r.Subject, r.Body)
	// The layout may break a description between words, but not a usage
	// or a synonym.
	text := strings.Join(strings.Fields(r.Body), " ")
	for _, c := range parser.Commands() {
		for _, f := range c.Forms {
			mustContain(t, text, f.Usage+" ", strings.Join(strings.Fields(f.Help), " "))
		}
		if len(c.Synonyms) > 0 {
			mustContain(t, text, "(also "+strings.Join(c.Synonyms, ", ")+")")
		}
	}
	mustContain(t, text, "HELLO", "VERSION", "ENDBROADCAST", "EJECT address", "standard", "34-35-36")
}

// TestSignonSynonyms: njudge's HELLO and LOGIN sign on like SIGNON, and
// the orders after them count.
func TestSignonSynonyms(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startStandard("dt")
	for _, kw := range []string{"HELLO", "login", "Sign On"} {
		r := onlyTo(t, h.mail("france@example.org", "x", kw+" Fdt pw-f\nA Par - Bur"), "france@example.org").Body
		// The echo hiding a password names the command by its name.
		mustContain(t, r, "> SIGNON Fdt ********", "Signed on as France", "Army Paris -> Burgundy.")
		mustNotContain(t, r, "pw-f", "Error")
	}
}

// TestUnknownCommandBeforeSignon: a line that is no command, before any
// sign-on, is answered with the commands there are.
func TestUnknownCommandBeforeSignon(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := onlyTo(t, h.mail("anyone@example.org", "x", "HELO Fdt pw"), "anyone@example.org").Body
	mustContain(t, r, "Error (line 1): Sign on first", "A command begins with one of CREATE, SIGNON,", "for masters: PROCESS,")
}

// TestVersionCommand: VERSION answers with the judge's program, version
// and Go release, to anyone.
func TestVersionCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := onlyTo(t, h.mail("anyone@example.org", "v", "version"), "anyone@example.org").Body
	mustContain(t, r, "> version", "This judge runs gmd ", runtime.Version())
	mustNotContain(t, r, "Error")
}

// TestEndPressOutsidePress: ENDPRESS and ENDBROADCAST outside a press end
// nothing, and say so; the mail goes on after them.
func TestEndPressOutsidePress(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", "ENDBROADCAST\nend press\nSET WAIT"), "france@example.org").Body
	if n := strings.Count(r, "There is no PRESS or BROADCAST to end here"); n != 2 {
		t.Errorf("%d errors for the two lines, want 2:\n%s", n, r)
	}
	mustContain(t, r, "> SET WAIT")
	if !h.game("dt").Players[engine.PlayerByPower(h.game("dt"), "France")].Wait {
		t.Error("SET WAIT after ENDBROADCAST was not done")
	}
	// Inside a press, ENDBROADCAST ends it.
	r = onlyTo(t, h.orders("dt", "F", "BROADCAST\nHello all.\nENDBROADCAST\nSET NOWAIT"), "france@example.org").Body
	mustNotContain(t, r, "Error", "There is no PRESS")
}

// TestJoinPreferencesShown: the reply echoes a join's preferences; only
// the password is hidden. Words after the password that are no
// preferences may be the rest of a password with a space in it, and stay
// hidden.
func TestJoinPreferencesShown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.create("dt")
	r := onlyTo(t, h.mail("a@example.org", "x", "SIGNON ?dt pw-a F[GE]R"), "a@example.org").Body
	mustContain(t, r, "> SIGNON ?dt ******** F[GE]R")
	mustNotContain(t, r, "pw-a")
	// "SIGNON ?" joins a game of any variant: E is a power of every one.
	r = onlyTo(t, h.mail("b@example.org", "x", "SIGNON ? pw-b E"), "b@example.org").Body
	mustContain(t, r, "> SIGNON ? ******** E")
	r = onlyTo(t, h.mail("c@example.org", "x", "SIGNON ?dt my secret"), "c@example.org").Body
	mustContain(t, r, "> SIGNON ?dt ******** ********")
	mustNotContain(t, r, "my", "secret")
	// Out of order, every word is hidden, preferences too.
	r = onlyTo(t, h.mail("d@example.org", "x", "SIGNON pw-d ?dt F"), "d@example.org").Body
	mustContain(t, r, "> SIGNON ******** ******** ********")
}

// TestEjectObserverInList: EJECT address works on observers (HELP says
// so), and LIST shows one observer fewer after it.
func TestEjectObserverInList(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("w@example.org", "dt", "pw-w", "")
	h.observe("x@example.org", "dt", "pw-x", "")
	mustContain(t, onlyTo(t, h.mail("a@example.org", "x", "LIST dt"), "a@example.org").Body, "Observers: 2.")
	got := h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nEJECT W@example.org")
	mustContain(t, replyTo(t, got, testMaster).Body, "w@example.org no longer observes 'dt'")
	mustContain(t, onlyTo(t, h.mail("a@example.org", "x", "LIST dt"), "a@example.org").Body, "Observers: 1.")
	mustContain(t, onlyTo(t, h.mail("a@example.org", "x", "HELP"), "a@example.org").Body, "EJECT address")
}
