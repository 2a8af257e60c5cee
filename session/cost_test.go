package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// withDefaultLimits gives h's master the bounds of a judge.conf that
// sets none: the defaults of package config.
func withDefaultLimits(h *harness) *harness {
	l := config.Defaults().Limits
	h.m.cfg.MaxLineLength = l.MaxLineLength
	h.m.cfg.MaxReplySize = l.MaxReplySize
	h.m.cfg.MaxOutputCommands = l.MaxOutputCommands
	h.m.cfg.MaxMailsPerMail = l.MaxMailsPerMail
	h.m.cfg.MaxPressPerMail = l.MaxPressPerMail
	h.m.cfg.MaxPressPerPhase = l.MaxPressPerPhase
	return h
}

// recipientsOf counts the recipient addresses of mails.
func recipientsOf(mails []*state.OutMail) int {
	n := 0
	for _, m := range mails {
		n += len(m.To)
	}
	return n
}

// A mail of 100 HELP lines got a reply 260 times its size, to whatever
// address its From named. Now HELP is answered MaxOutputCommands times,
// and one line says which lines were not run.
func TestManyHelpsAnsweredOnce(t *testing.T) {
	h := withDefaultLimits(newHarness(t))
	body := strings.Repeat("HELP\n", 100)
	got := h.mail("victim@example.net", "help", body)
	r := onlyTo(t, got, "victim@example.net")
	_, help, err := h.m.tmpl.Render("help", newHelpData("GMD", testJudge))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(strings.TrimSpace(help), "\n", 2)[0]
	if n := strings.Count(r.Body, first); n != 4 {
		t.Errorf("the help text is in the reply %d times, want 4 (max-output-commands)", n)
	}
	mustContain(t, r.Body, "Error: Not run (lines 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 and 86 more): this judge answers at most 4 of GET, HELP, HISTORY, INFO, LIST, PREDICT, PREVIEW, SUMMARY, WHO and WHOIS in one mail.")
	if strings.Count(r.Body, "Not run") != 1 {
		t.Errorf("more than one line about the commands not run:\n%s", r.Body)
	}
	if len(r.Body) > 4*len(help)+1000 {
		t.Errorf("the reply is %d bytes, more than four help texts of %d and the lines around them", len(r.Body), len(help))
	}
}

// A reply longer than MaxReplySize is cut at a line end, with a note;
// and LIST stops reading games once its lines fill the reply.
func TestReplyCut(t *testing.T) {
	h := withDefaultLimits(newHarness(t))
	h.m.cfg.MaxReplySize = 4 << 10
	for i := range 300 {
		h.putGame(&state.Game{Name: fmt.Sprintf("g%03d", i), Variant: "standard", Status: state.Forming, Created: h.now})
	}
	got := h.mail("someone@example.net", "list", "LIST\nLIST\n")
	r := onlyTo(t, got, "someone@example.net")
	mustContain(t, r.Body, "g000", "[This reply was truncated at 4096 bytes, the most this judge sends in one reply. "+
		"After that point GET, HELP, HISTORY, INFO, LIST, PREDICT, PREVIEW, SUMMARY, WHO and WHOIS were not run; everything else in your mail was done.")
	mustNotContain(t, r.Body, "g299")
	text, _, _ := strings.Cut(r.Body, "\n\n[This reply was truncated")
	if len(text) > 4<<10 {
		t.Errorf("the reply's text is %d bytes, over the limit of 4096", len(text))
	}
	if !strings.HasSuffix(text, "forming   0/7") {
		t.Errorf("the text was not cut at a line end: ...%q", text[max(0, len(text)-40):])
	}
}

// One mail causes at most MaxMailsPerMail mails: a press that would go
// over is refused whole, and once they are used up no command that
// mails the game runs. A command that ran still tells the whole game.
func TestMailsPerMail(t *testing.T) {
	h := withDefaultLimits(newHarness(t))
	h.startStandard("dt")
	h.m.cfg.MaxMailsPerMail = 20
	// Each broadcast goes to 7 addresses: six powers and the master.
	got := h.orders("dt", "F", strings.Repeat("BROADCAST\nHello all.\nENDPRESS\n", 5))
	if n := recipientsOf(got); n != 15 {
		t.Errorf("5 broadcasts of 7 made %d mails, want 15: two broadcasts and the reply", n)
	}
	r := replyTo(t, got, "france@example.org")
	if n := strings.Count(unwrap(r.Body), "The press would go to 7 addresses, and this mail may cause only 5 more mails (at most 20 per mail). Nothing was sent."); n != 3 {
		t.Errorf("%d broadcasts refused, want 3:\n%s", n, r.Body)
	}

	// The master's notices go to 8 addresses: the seven powers and the master.
	got = h.mail(testMaster, "m", "SIGNON Mdt "+testMasterPass+"\n"+strings.Repeat("PAUSE\nRESUME\n", 5))
	if n := recipientsOf(got); n > 20+8 {
		t.Errorf("the master's mail made %d mails, over 20 and one notice", n)
	}
	mustContain(t, replyTo(t, got, testMaster).Body, "PAUSE was not done: this mail has caused 20 mails, the most one mail may cause.")
}

// Several SET lines in one mail owe the game one notice: once the first
// has used up the mails one mail may cause, the others still run, each a
// line of that notice, and the mail causes the reply and the one notice.
func TestSettingsWithinMailsPerMail(t *testing.T) {
	h := withDefaultLimits(newHarness(t))
	h.startStandard("dt")
	h.m.cfg.MaxMailsPerMail = 5 // fewer than the game's 8 addresses
	got := h.mail(testMaster, "m", "SIGNON Mdt "+testMasterPass+"\nSET NMR\nSET PRESS GREY\nSET NOPARTIAL\nSET MOVEMENT 2 days\n")
	st := h.game("dt").Settings
	if !st.NMR || st.Press != "grey" || st.Partial || time.Duration(st.Movement) != 48*time.Hour {
		t.Errorf("settings %+v: a SET did not run", st)
	}
	r := replyTo(t, got, testMaster)
	mustNotContain(t, r.Body, "was not done")
	if len(got) != 2 {
		t.Errorf("%d mails, want the reply and the one notice", len(got))
	}
	// A press after them is held to the bound, the notice counted.
	got = h.mail(testMaster, "m", "SIGNON Mdt "+testMasterPass+"\nSET NONMR\nBROADCAST\nHello.\nENDPRESS\n")
	mustContain(t, unwrap(replyTo(t, got, testMaster).Body), "BROADCAST was not done: this mail has caused 5 mails")
}

// Press is limited per mail and per sender and phase; the phase's limit
// starts again when the phase is processed.
func TestPressSizeLimits(t *testing.T) {
	h := withDefaultLimits(newHarness(t))
	h.startStandard("dt")
	h.m.cfg.MaxPressPerMail, h.m.cfg.MaxPressPerPhase = 2000, 5000
	text := strings.Repeat("word ", 240) // 1,200 bytes with its line end
	press := "PRESS TO E\n" + text + "\nENDPRESS\n"

	got := h.orders("dt", "F", "PRESS TO E\n"+strings.Repeat("x", 3000)+"\nENDPRESS\n")
	mustContain(t, replyTo(t, got, "france@example.org").Body,
		"The press is 3001 bytes, and one mail may carry at most 2000 bytes of press (0 sent already). Nothing was sent.")
	if len(got) != 1 || len(h.press("dt")) != 0 {
		t.Fatalf("a press over the limit went out: %d mails, %d recorded", len(got), len(h.press("dt")))
	}

	got = h.orders("dt", "F", press+press)
	mustContain(t, replyTo(t, got, "france@example.org").Body,
		"The press is 1201 bytes, and one mail may carry at most 2000 bytes of press (1201 sent already).")
	for range 3 {
		h.orders("dt", "F", press)
	}
	got = h.orders("dt", "F", press)
	mustContain(t, replyTo(t, got, "france@example.org").Body,
		"The press is 1201 bytes, and you may send at most 5000 bytes of press in one phase (4804 sent already). Nothing was sent.")
	if n := len(h.press("dt")); n != 4 {
		t.Errorf("%d press recorded, want 4", n)
	}
	// Other senders have limits of their own.
	mustContain(t, replyTo(t, h.orders("dt", "G", press), "germany@example.org").Body, "Press sent to England.")

	// A new phase, a new limit.
	h.mail(testMaster, "m", "SIGNON Mdt "+testMasterPass+"\nPROCESS\n")
	if g := h.game("dt"); g.Turn != 1 || g.PressSent != nil {
		t.Fatalf("after PROCESS: turn %d, press sent %v", g.Turn, g.PressSent)
	}
	h.advance(time.Minute)
	mustContain(t, replyTo(t, h.orders("dt", "F", press), "france@example.org").Body, "Press sent to England.")
}
