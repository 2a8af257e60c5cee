package session

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// The end of a game by mail (issue 24): concessions, partial draws,
// SET VICTORY and SET END YEAR, each with its refusals and a forged
// sender.

// masterMail has the master of game sign on and send body; it returns
// the reply.
func (h *harness) masterMail(game, body string) string {
	h.t.Helper()
	return replyTo(h.t, h.mail(testMaster, "master", "SIGNON M"+game+" "+testMasterPass+"\n"+body), testMaster).Body
}

// playerReply has the player of letter send body to game and returns
// the reply.
func (h *harness) playerReply(game, letter, body string) string {
	h.t.Helper()
	addr, _ := seatOf(letter)
	return replyTo(h.t, h.orders(game, letter, body), addr).Body
}

// seatIn returns the seat of power in game, as stored.
func (h *harness) seatIn(game, power string) state.Player {
	h.t.Helper()
	g := h.game(game)
	i := engine.PlayerByPower(g, power)
	if i < 0 {
		h.t.Fatalf("no %s in %s", power, game)
	}
	return g.Players[i]
}

// forged sends body from addr, the address of a seat, with a wrong
// password, and checks that the reply refuses it.
func (h *harness) forged(addr, signon, body string) {
	h.t.Helper()
	r := replyTo(h.t, h.mail(addr, "forged", signon+" not-the-password\n"+body), addr).Body
	mustContain(h.t, r, "Wrong password")
	// And with no sign-on at all, the From line alone.
	r = replyTo(h.t, h.mail(addr, "forged", body), addr).Body
	mustContain(h.t, r, "Sign on first")
}

func TestConcede(t *testing.T) {
	h := newHarness(t)
	// Before the start there is nothing to concede.
	h.create("forming")
	h.join("austria@example.org", "forming", "pw-a", "A", "")
	r := replyTo(t, h.mail("austria@example.org", "x", "SIGNON ?forming pw-a\nSET CONCEDE Russia"), "austria@example.org").Body
	mustContain(t, r, "Only a player signed on as a power may concede.")
	h.startStandard("dt")
	// At the start Russia, with four centres, is the largest power.
	for _, c := range []struct{ letter, body, want string }{
		{"R", "SET CONCEDE Russia", "You cannot concede to your own power"},
		{"F", "SET CONCEDE England", "which is Russia, not England"},
		{"F", "SET CONCEDE Atlantis", `There is no power "Atlantis"`},
		{"F", "SET CONCEDE", "Concede to whom?"},
		{"F", "SET NOCONCEDE now", "Use SET NOCONCEDE alone."},
	} {
		mustContain(t, h.playerReply("dt", c.letter, c.body), c.want)
	}
	mustContain(t, h.masterMail("dt", "SET CONCEDE Russia"), "Only a player signed on as a power may concede.")
	h.forged("france@example.org", "SIGNON Fdt", "SET CONCEDE Russia")
	if got := h.seatIn("dt", "France").Concede; got != "" {
		t.Fatalf("refused concessions stored %q", got)
	}

	// By name or letter; secret from the others; taken back.
	r = h.playerReply("dt", "F", "SET CONCEDE R")
	mustContain(t, r, "You concede the game to Russia.", "France concedes the game to Russia.")
	t.Logf("France's reply:\n%s", r)
	mustNotContain(t, h.playerReply("dt", "G", "LIST dt"), "concede", "Concede")
	h.playerReply("dt", "F", "SET NOCONCEDE")
	if got := h.seatIn("dt", "France").Concede; got != "" {
		t.Fatalf("NOCONCEDE left %q", got)
	}

	// A concession lasts one phase.
	h.playerReply("dt", "F", "SET CONCEDE Russia")
	h.masterMail("dt", "PROCESS")
	if got := h.seatIn("dt", "France").Concede; got != "" {
		t.Fatalf("a processed phase left France's concession to %q", got)
	}

	// Every other survivor someone plays concedes: Turkey resigns, and
	// the last of the others' concessions ends the game.
	for _, l := range []string{"A", "E", "F", "G"} {
		h.playerReply("dt", l, "SET CONCEDE Russia")
	}
	if g := h.game("dt"); g.Status != state.Active {
		t.Fatalf("four concessions ended the game: %s", g.Result)
	}
	h.orders("dt", "T", "RESIGN")
	if g := h.game("dt"); g.Status != state.Active {
		t.Fatal("Italy's missing concession did not hold the game")
	}
	got := h.orders("dt", "I", "SET CONCEDE Russia")
	g := h.game("dt")
	if g.Status != state.Finished || g.Result != "concession Russia" {
		t.Fatalf("after every concession: %s, %q", g.Status, g.Result)
	}
	over := onlyTo(t, got, "england@example.org")
	if !strings.HasSuffix(over.Subject, "Game Over") {
		t.Fatalf("England got %q", over.Subject)
	}
	mustContain(t, over.Body, "Russia has won the game by concession: every other surviving power conceded.")
	t.Logf("the end mail:\n%s", over.Body)
	mustContain(t, h.masterMail("dt", "LIST dt"), "concession Russia")
}

func TestPartialDraw(t *testing.T) {
	h := newHarness(t)
	// A DIAS game (the default) takes no list.
	h.startStandard("dias")
	mustContain(t, h.playerReply("dias", "A", "SET DRAW AEF"), "include every surviving power (DIAS): use SET DRAW alone.")
	mustContain(t, h.masterMail("dias", "SET NODIAS"), "SET NODIAS is fixed once 'dias' has started.")
	mustContain(t, h.playerReply("dias", "A", "SET NODIAS"), "Only the master of 'dias' may SET NODIAS.")

	h.create("dt")
	h.forged(testMaster, "SIGNON Mdt", "SET NODIAS")
	mustContain(t, h.masterMail("dt", "SET NODIAS please"), "Use SET DIAS or SET NODIAS alone.")
	if h.game("dt").Settings.NoDIAS {
		t.Fatal("a forged SET NODIAS was stored")
	}
	r := h.masterMail("dt", "SET NODIAS")
	mustContain(t, r, "Draws may name some of the surviving powers (NODIAS)")
	joinAll(h, "dt")
	mustContain(t, h.masterMail("dt", "LIST dt"), "partial draws (NODIAS)")
	for _, c := range []struct{ body, want string }{
		{"SET DRAW AQ", `"AQ" names no power of`},
		{"SET DRAW A", "A draw is among two powers at least"},
		{"SET NODRAW AEF", "Use SET NODRAW alone."},
	} {
		mustContain(t, h.playerReply("dt", "A", c.body), c.want)
	}
	// Austria, England and France accept a draw among them; the others
	// accept it without them. The draw passes with the last vote.
	r = h.playerReply("dt", "A", "SET DRAW Austria, England, France")
	mustContain(t, r, "You vote for a draw among Austria, England and France, or any smaller draw among them that includes you.")
	t.Logf("Austria's reply:\n%s", r)
	h.playerReply("dt", "E", "SET DRAW AEF")
	h.playerReply("dt", "F", "SET DRAW A E F")
	for _, l := range []string{"G", "I", "R"} {
		mustContain(t, h.playerReply("dt", l, "SET DRAW AEF"), "with or without you")
	}
	if g := h.game("dt"); g.Status != state.Active {
		t.Fatalf("the draw passed without Turkey: %s", g.Result)
	}
	got := h.orders("dt", "T", "SET DRAW AEF")
	g := h.game("dt")
	if g.Status != state.Finished || g.Result != "draw Austria England France" {
		t.Fatalf("after every vote: %s, %q", g.Status, g.Result)
	}
	draw := mailsTo(got, "germany@example.org")
	if len(draw) != 2 || !strings.HasSuffix(draw[0].Subject, "Draw Declared: AEF") {
		t.Fatalf("Germany got %d mails, the first %q", len(draw), draw[0].Subject)
	}
	mustContain(t, draw[0].Body, "The game was declared a draw between Austria, England and France.")
}

func TestSetVictory(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	for _, c := range []struct{ body, want string }{
		{"SET VICTORY 17", "A victory needs more than half of the 34 supply centres"},
		{"SET VICTORY 35", "the Standard board has 34 centres"},
		{"SET VICTORY many", "Use: SET VICTORY n"},
		{"SET VICTORY -1", "cannot be a victory count"},
	} {
		mustContain(t, h.masterMail("dt", c.body), c.want)
	}
	h.forged(testMaster, "SIGNON Mdt", "SET VICTORY 20")
	if v := h.game("dt").Settings.Victory; v != 0 {
		t.Fatalf("refused SET VICTORY stored %d", v)
	}
	mustContain(t, h.masterMail("dt", "SET CENTRES 20"), "A power needs 20 supply centres to win (the Standard variant's count is 18).")
	if v := h.game("dt").Settings.Victory; v != 20 {
		t.Fatalf("victory %d, want 20", v)
	}
	got := joinAll(h, "dt")
	mustContain(t, onlyTo(t, got, "france@example.org").Body, "victory at 20 centres")
	mustContain(t, h.masterMail("dt", "SET VICTORY 18"), "SET VICTORY is fixed once 'dt' has started.")
	mustContain(t, h.playerReply("dt", "F", "SET VICTORY 18"), "Only the master of 'dt' may SET VICTORY.")
	// The game's positions are adjudicated with the count.
	g := h.game("dt")
	_, rules, err := h.m.Position(g)
	if err != nil {
		t.Fatal(err)
	}
	if rules.Victory != 20 {
		t.Fatalf("the game is adjudicated with victory %d", rules.Victory)
	}
	// Setting the variant's count again stores none.
	h.create("std")
	h.masterMail("std", "SET VICTORY 20")
	mustContain(t, h.masterMail("std", "SET VICTORY 18"), "A power needs the Standard variant's 18 supply centres to win.")
	if v := h.game("std").Settings.Victory; v != 0 {
		t.Fatalf("the variant's count stored as %d", v)
	}
}

func TestEndYear(t *testing.T) {
	for _, c := range []struct {
		name, set, result, text string
	}{
		{"drawn", "SET END YEAR 1901", "draw Austria England France Germany Italy Russia Turkey",
			"The game reached the end of 1901, its last year: it is drawn between Austria, England, France, Germany, Italy, Russia and Turkey."},
		{"ranked", "SET END YEAR 1901 RANK", "ranked Russia Austria England France Germany Italy Turkey",
			"The game reached the end of 1901, its last year, and is ranked by supply centres:\n\n   1. Russia        4\n   2. Austria       3\n   2. England       3\n   2. France        3\n   2. Germany       3\n   2. Italy         3\n   2. Turkey        3\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			h.create("dt")
			for _, bad := range []struct{ body, want string }{
				{"SET END YEAR 1900", "The game is in 1901 already: its last year cannot be 1900."},
				{"SET END YEAR 1901 SHARED", `"SHARED" is not a result`},
				{"SET END YEAR soon", `"soon" is not a year`},
				{"SET END YEAR 2200", "more than 200 years after 1901"},
				{"SET END", "Use: SET END YEAR 1910"},
			} {
				mustContain(t, h.masterMail("dt", bad.body), bad.want)
			}
			h.forged(testMaster, "SIGNON Mdt", c.set)
			if y := h.game("dt").Settings.EndYear; y != 0 {
				t.Fatalf("a refused SET END YEAR stored %d", y)
			}
			h.masterMail("dt", c.set)
			got := joinAll(h, "dt")
			start := onlyTo(t, got, "france@example.org").Body
			mustContain(t, start, "ends after 1901")
			mustContain(t, h.masterMail("dt", "LIST dt"), "ends after 1901")
			mustContain(t, h.playerReply("dt", "F", c.set), "Only the master of 'dt' may SET END.")
			h.masterMail("dt", "PROCESS")
			if g := h.game("dt"); g.Status != state.Active {
				t.Fatalf("the game ended in Spring: %q", g.Result)
			}
			got = h.mail(testMaster, "process", "SIGNON Mdt "+testMasterPass+"\nPROCESS")
			g := h.game("dt")
			if g.Status != state.Finished || g.Result != c.result {
				t.Fatalf("after Fall 1901: %s, %q, want %q", g.Status, g.Result, c.result)
			}
			var over *state.OutMail
			for _, m := range mailsTo(got, "france@example.org") {
				if strings.HasSuffix(m.Subject, "Game Over") {
					over = m
				}
			}
			if over == nil {
				t.Fatal("France got no Game Over mail")
			}
			if !strings.Contains(unwrap(over.Body), unwrap(c.text)) {
				t.Errorf("the end mail lacks %q:\n%s", c.text, over.Body)
			}
			t.Logf("the end mail:\n%s", over.Body)
			mustContain(t, h.masterMail("dt", "SET END YEAR 1905"), "Game 'dt' is over.")
		})
	}
}

// TestEndYearDuringGame sets the last year while the game runs, and
// takes it back: a year already over is refused.
func TestEndYearDuringGame(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.masterMail("dt", "PROCESS")
	h.masterMail("dt", "PROCESS") // Spring 1902
	mustContain(t, h.masterMail("dt", "SET END YEAR 1901"), "The game is in 1902 already")
	got := h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nSET END YEAR 1903 RANK")
	notice := onlyTo(t, got, "turkey@example.org")
	mustContain(t, notice.Body, "The game ends after the adjustments of 1903, its surviving powers ranked by their supply centres.")
	mustContain(t, h.masterMail("dt", "SET END YEAR NONE"), "The game has no last year")
	if st := h.game("dt").Settings; st.EndYear != 0 || st.EndRank {
		t.Fatalf("SET END YEAR NONE left %d, %v", st.EndYear, st.EndRank)
	}
}
