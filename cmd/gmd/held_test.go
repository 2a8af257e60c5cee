package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// pipeGame creates game dt through gmd process and has the seven powers
// join it, so that it is under way; the replies are thrown away.
func pipeGame(t *testing.T, db string) {
	t.Helper()
	processConfirmed(t, db, "master@example.org", "<c@x>", "CREATE ?dt pw-m\n")
	for _, letter := range []string{"A", "E", "F", "G", "I", "R", "T"} {
		processConfirmed(t, db, strings.ToLower(letter)+"@example.org", "<j"+letter+"@x>", "SIGNON ?dt pw-"+letter+" "+letter+"\n")
	}
}

// editGame changes game dt in the database at path.
func editGame(t *testing.T, path string, edit func(*state.Game)) {
	t.Helper()
	db, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("dt")
		if err != nil {
			return err
		}
		edit(g)
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The triggers of the head-of-line block, through gmd process: each mail
// is answered (or ignored) with status 0, the mail server's cue to drop
// it, and the next mail is handled. Before, each exited 75 for ever.
func TestProcessHostileMailsExitZero(t *testing.T) {
	db := initDB(t, filepath.Join(t.TempDir(), "gmd.db"))
	pipeGame(t, db)
	long := strings.Repeat("a", 33000) + "@example.org"
	for _, c := range []struct{ name, mail, reply string }{
		{"long From, OBSERVE", msg(long, "x", "<h1@x>", "OBSERVE dt x\n"), ""},
		{"long From, CREATE", msg(long, "x", "<h2@x>", "CREATE ?big secret\n"), ""},
		{"long From, join", msg(long, "x", "<h3@x>", "SIGNON ?dt secret\n"), ""},
		{"absence in the year 10000", msg("f@example.org", "away", "<h4@x>", "SIGNON Fdt pw-F\nSET ABSENCE 9999-12-31\n"),
			"An absence must end within a year from now"},
		{"deadline in the year 10000", msg("master@example.org", "dl", "<h5@x>", "SIGNON Mdt pw-m\nSET ZONE America/New_York\nSET DEADLINE 9999-12-31 23:30\n"),
			"is more than a year ahead"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := gmd(t, c.mail, "process", "-db", db, "-dry-run", "-now", now0)
			if code != 0 {
				t.Fatalf("status %d, stderr %.300q; want 0", code, errs)
			}
			if c.reply == "" && out != "" {
				t.Errorf("a mail from an address nobody has was answered:\n%.300s", out)
			}
			var bodies strings.Builder
			for _, m := range parseMbox(t, out) {
				bodies.WriteString(m.body)
			}
			// Sentences may be wrapped at 78 columns.
			if c.reply != "" && !strings.Contains(strings.Join(strings.Fields(bodies.String()), " "), c.reply) {
				t.Errorf("the reply lacks %q:\n%s", c.reply, bodies.String())
			}
		})
	}
	// And the next mail goes through.
	if code, out, _ := gmd(t, msg("f@example.org", "orders", "<h6@x>", "SIGNON Fdt pw-F\nA Par - Bur\n"),
		"process", "-db", db, "-dry-run", "-now", now0); code != 0 || !strings.Contains(parseMbox(t, out)[0].body, "Army Paris -> Burgundy") {
		t.Errorf("the next mail: status %d:\n%s", code, out)
	}
}

// A mail that fails for a reason of its own (a game with a damaged
// position) is held: gmd process exits 0 and says so, the sender is
// told, gmd check and gmd held list show it, the next mail for another
// purpose is handled, and once the position is mended gmd held retry
// runs it: the usual answer is queued and it is held no more. gmd held
// drop removes one for good.
func TestProcessHoldsAMailAtFault(t *testing.T) {
	db := initDB(t, filepath.Join(t.TempDir(), "gmd.db"))
	pipeGame(t, db)
	var good []byte
	editGame(t, db, func(g *state.Game) {
		good = g.Position
		g.Position = bytes.Replace(g.Position, []byte(`"par"`), []byte(`"pbr"`), 1)
	})

	orders := msg("f@example.org", "orders", "<o1@x>", "SIGNON Fdt pw-F\nA Par - Bur\n")
	code, out, errs := gmd(t, orders, "process", "-db", db, "-dry-run", "-now", now0)
	if code != 0 || !strings.Contains(errs, "gmd process: held mail 1 from f@example.org") {
		t.Fatalf("status %d, stderr %q; want 0 and the mail held", code, errs)
	}
	mails := parseMbox(t, out)
	if len(mails) != 1 || mails[0].rcpt != "f@example.org" || !strings.Contains(mails[0].body, "as held mail 1") {
		t.Fatalf("replies %+v, want the one to the sender saying it is held", mails)
	}
	// Brought again by the mail server: not held twice.
	if code, _, _ := gmd(t, orders, "process", "-db", db, "-dry-run", "-now", now0); code != 0 {
		t.Errorf("the same mail again: status %d", code)
	}
	if code, out, _ := gmd(t, msg("x@example.org", "help", "<o2@x>", "HELP\n"), "process", "-db", db, "-dry-run", "-now", now0); code != 0 || out == "" {
		t.Errorf("the next mail: status %d, no answer", code)
	}

	code, out, _ = gmd(t, "", "held", "-db", db)
	if code != 0 || !strings.Contains(out, "held mail 1, held 2026-01-02T15:04:05Z, 1 try, from f@example.org: \"orders\"\n") ||
		!strings.Contains(out, "game dt: stored position: ") || !strings.Contains(out, "1 mail held.") {
		t.Errorf("gmd held list: status %d:\n%s", code, out)
	}
	code, out, _ = gmd(t, "", "check", "-db", db)
	if code != 1 || !strings.Contains(out, "1 incoming mail held for a fault of its own") || !strings.Contains(out, "held mail 1, held 2026-01-02T15:04:05Z, from f@example.org") {
		t.Errorf("gmd check: status %d:\n%s", code, out)
	}

	// Retried before the mend: still held.
	if code, out, _ := gmd(t, "", "held", "-db", db, "retry", "1"); code != 1 || !strings.Contains(out, "held mail 1: not handled: game dt: stored position") {
		t.Errorf("retry before the mend: status %d:\n%s", code, out)
	}
	editGame(t, db, func(g *state.Game) { g.Position = good })
	if code, out, errs := gmd(t, "", "held", "-db", db, "retry", "1"); code != 0 || out != "held mail 1: handled; its answer is queued\n" {
		t.Errorf("retry once mended: status %d, stdout %q, stderr %q", code, out, errs)
	}
	var answered bool
	for _, m := range outbox(t, db) {
		answered = answered || strings.Contains(m.Body, "Army Paris -> Burgundy") && m.To[0] == "f@example.org"
	}
	if !answered {
		t.Error("no answer to the held mail queued after the retry")
	}
	if code, out, _ := gmd(t, "", "held", "-db", db); code != 0 || out != "no mail is held\n" {
		t.Errorf("gmd held list after the retry: status %d:\n%s", code, out)
	}
	if code, _, errs := gmd(t, "", "held", "-db", db, "drop", "1"); code != 1 || !strings.Contains(errs, "no held mail 1") {
		t.Errorf("drop of a mail no longer held: status %d, stderr %q", code, errs)
	}

	// Held again, then dropped.
	editGame(t, db, func(g *state.Game) { g.Position = bytes.Replace(good, []byte(`"par"`), []byte(`"pbr"`), 1) })
	gmd(t, msg("f@example.org", "orders", "<o3@x>", "SIGNON Fdt pw-F\nA Par - Pic\n"), "process", "-db", db, "-dry-run", "-now", now0)
	if code, out, _ := gmd(t, "", "held", "-db", db, "drop", "2"); code != 0 || out != "dropped: 1 held mail\n" {
		t.Errorf("drop: status %d, stdout %q", code, out)
	}
	if code, out, _ := gmd(t, "", "held", "-db", db); code != 0 || out != "no mail is held\n" {
		t.Errorf("gmd held list after the drop: status %d:\n%s", code, out)
	}
}
