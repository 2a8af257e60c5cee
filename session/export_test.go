package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/export"
	"github.com/gmdjudge/gmd/state"
)

// exportGame starts the standard game dt with France registered as
// "Frenchy", plays Spring 1901 with partial press and a broadcast, and
// leaves France's Fall 1901 order pending.
func exportGame(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t)
	h.startStandard("dt")
	mustContain(t, h.registerByMail("france@example.org", "Frenchy"), "Frenchy")
	h.orders("dt", "F", "A Par - Bur\nPRESS TO E\nPRIVATE-PLAN for England\nENDPRESS\nBROADCAST\nhello all\nENDPRESS")
	mustContain(t, replyTo(t, h.mail(testMaster, "go", "SIGNON Mdt "+testMasterPass+"\nPROCESS"), testMaster).Body, "processed")
	h.orders("dt", "F", "A Bur - Mun")
	return h
}

// exports returns the mails of mails that carry a file, failing the test
// on one that carries another file than a master's export.
func exports(t *testing.T, mails []*state.OutMail) []*state.OutMail {
	t.Helper()
	var out []*state.OutMail
	for _, m := range mails {
		if len(m.Files) == 0 {
			continue
		}
		if len(m.Files) != 1 || !strings.HasSuffix(m.Files[0].Name, "-master.json") || m.Files[0].Type != "application/json" {
			t.Fatalf("a mail carries %d files, the first %q (%s)", len(m.Files), m.Files[0].Name, m.Files[0].Type)
		}
		out = append(out, m)
	}
	return out
}

// secretsOf are what no export may hold: every address of the game (all
// end in example.org), a bcrypt hash, the partial press.
var secretsOf = []string{"example.org", "$2a$", "PRIVATE-PLAN", "pass_hash", "master_addr"}

// TestMasterExport: the master's EXPORT mails the master's export of a
// running game, as a JSON attachment, to the master's address: every
// processed phase, the pending orders, the registered players' names,
// the broadcast; no address, hash or partial press. One a mail.
func TestMasterExport(t *testing.T) {
	h := exportGame(t)
	got := h.mail(testMaster, "export", "SIGNON Mdt "+testMasterPass+"\nEXPORT\nEXPORT")
	reply := replyTo(t, got, testMaster).Body
	mustContain(t, reply, "The master's export of 'dt' (1 phase) was mailed to the master's address on record", "One export a mail")
	ex := exports(t, got)
	if len(ex) != 1 || len(ex[0].To) != 1 || ex[0].To[0] != testMaster {
		t.Fatalf("%d exports, want 1 to %s: %+v", len(ex), testMaster, ex)
	}
	t.Logf("the export's mail:\nSubject: %s\n\n%s", ex[0].Subject, ex[0].Body)
	mustContain(t, ex[0].Body, "dt-master.json", "1 phase, each", "orders given so far", "It names the registered players")
	data := string(ex[0].Files[0].Data)
	for _, s := range secretsOf {
		if strings.Contains(data, s) {
			t.Errorf("the master's export holds %q", s)
		}
	}
	doc, err := export.Unmarshal(ex[0].Files[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	if doc.View != "master" || doc.Status != "active" || len(doc.Phases) != 1 || len(doc.Press) != 1 || strings.TrimSpace(doc.Press[0].Text) != "hello all" {
		t.Errorf("the export: view %q, %s, %d phases, press %+v", doc.View, doc.Status, len(doc.Phases), doc.Press)
	}
	if got := doc.Pending["France"]; len(got) != 1 || got[0] != "A bur - mun" {
		t.Errorf("pending orders of France: %q", got)
	}
	for _, s := range doc.Seats {
		if want := map[bool]string{true: "Frenchy"}[s.Power == "France"]; s.Player != want {
			t.Errorf("seat %s: player %q, want %q", s.Power, s.Player, want)
		}
	}
	// Not yet started: nothing to export.
	h.create("newgame")
	r := replyTo(t, h.mail(testMaster, "export", "SIGNON Mnewgame "+testMasterPass+"\nEXPORT"), testMaster).Body
	mustContain(t, r, "Game 'newgame' has not started: there is nothing to export yet.")

	// A game without a master's address (an imported one), signed on to
	// by a judge admin: nothing is mailed, and the reply says why.
	g := h.game("dt")
	g.MasterAddr = ""
	h.putGame(g)
	h.m.cfg.Admins = []string{"admin@example.org"}
	got = h.mail("admin@example.org", "export", "SIGNON Mdt\nEXPORT")
	mustContain(t, replyTo(t, got, "admin@example.org").Body, "Game 'dt' has no master's address to mail its export to")
	if ex := exports(t, got); len(ex) != 0 {
		t.Errorf("%d exports mailed for a game without a master", len(ex))
	}
}

// TestMasterExportAttacks: EXPORT with a wrong password, from a player's
// or an observer's seat, or past the limit on guessing, exports
// nothing; with the right password under a forged From, the export goes
// to the master's address on record and not to the forger.
func TestMasterExportAttacks(t *testing.T) {
	h := exportGame(t)
	const forger = "forger@evil.example"
	h.observe("watcher@example.org", "dt", "pw-o", "")
	for _, c := range []struct {
		name, from, body, says string
	}{
		{"wrong password", testMaster, "SIGNON Mdt wrong\nEXPORT", "Wrong password for game 'dt'. Nothing else in this mail was done."},
		{"a player", "france@example.org", "SIGNON Fdt pw-f\nEXPORT", "Only the master of 'dt' may EXPORT."},
		{"an observer", "watcher@example.org", "OBSERVE dt pw-o\nEXPORT", "Only the master of 'dt' may EXPORT."},
		{"no sign-on", forger, "EXPORT", "Sign on first"},
	} {
		got := h.mail(c.from, "export", c.body)
		mustContain(t, replyTo(t, got, c.from).Body, c.says)
		if ex := exports(t, got); len(ex) != 0 {
			t.Errorf("%s: %d exports mailed", c.name, len(ex))
		}
	}

	// A forged From with the right password: the export goes to the
	// master's address only.
	got := h.mail(forger, "export", "SIGNON Mdt "+testMasterPass+"\nEXPORT")
	ex := exports(t, got)
	if len(ex) != 1 || strings.Join(ex[0].To, ",") != testMaster {
		t.Fatalf("forged From: %d exports, to %v; want one to %s", len(ex), ex, testMaster)
	}
	for _, m := range got {
		if len(m.Files) > 0 && strings.Contains(strings.Join(m.To, ","), forger) {
			t.Errorf("the export went to the forger")
		}
	}

	// Guessing: past the limit, even the right password exports nothing.
	const guesser = "guesser@evil.example"
	for i := range senderFailures {
		h.mail(guesser, "guess", fmt.Sprintf("SIGNON Mdt guess-%d\nEXPORT", i))
	}
	got = h.mail(guesser, "guess", "SIGNON Mdt "+testMasterPass+"\nEXPORT")
	mustContain(t, replyTo(t, got, guesser).Body, "Too many wrong passwords for game 'dt' from you")
	if ex := exports(t, got); len(ex) != 0 {
		t.Errorf("a locked-out sender got %d exports", len(ex))
	}
}

// TestMasterExportGunboat: a gunboat game's master's export names nobody
// until the game is over and its players revealed.
func TestMasterExportGunboat(t *testing.T) {
	h := exportGame(t)
	g := h.game("dt")
	g.Settings.Gunboat = true
	h.putGame(g)
	master := "SIGNON Mdt " + testMasterPass + "\n"
	for _, step := range []struct {
		body  string
		named bool
	}{
		{"EXPORT", false},
		{"TERMINATE\nEXPORT", false},
		{"REVEAL\nEXPORT", true},
	} {
		got := h.mail(testMaster, "export", master+step.body)
		ex := exports(t, got)
		if len(ex) != 1 {
			t.Fatalf("%q: %d exports", step.body, len(ex))
		}
		data := string(ex[0].Files[0].Data)
		if strings.Contains(data, "Frenchy") != step.named {
			t.Errorf("%q: the export names France's player: %v, want %v", step.body, !step.named, step.named)
		}
		if !step.named {
			mustContain(t, ex[0].Body, "the game is gunboat and not revealed")
		}
		for _, s := range secretsOf {
			if strings.Contains(data, s) {
				t.Errorf("%q: the export holds %q", step.body, s)
			}
		}
	}
}
