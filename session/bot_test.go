package session

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// botGame sets SET BOT mode in the forming game name and has the seven
// standard players join it, which starts it.
func botGame(t *testing.T, h *harness, name, mode string) {
	t.Helper()
	r := replyTo(t, h.mail(testMaster, "x", "SIGNON M"+name+" "+testMasterPass+"\nSET BOT "+mode), testMaster)
	mustContain(t, r.Body, "The judge's bot plays")
	t.Logf("SET BOT %s reply:\n%s", mode, r.Body)
	joinAll(h, name)
}

// playersOrdersButFrance has every seat but France's hold every unit.
func playersOrdersButFrance(h *harness, name string) {
	h.t.Helper()
	pos, _, err := jsonpos.DecodePosition(h.game(name).Position)
	if err != nil {
		h.t.Fatal(err)
	}
	holds := clockHolds(pos)
	for _, s := range standardSeats {
		if s.Letter != "F" {
			h.orders(name, s.Letter, strings.Join(holds[s.Power], "\n"))
		}
	}
}

// seat returns the seat of power in game name.
func (h *harness) seat(name, power string) state.Player {
	h.t.Helper()
	g := h.game(name)
	i := slices.IndexFunc(g.Players, func(p state.Player) bool { return p.Power == power })
	if i < 0 {
		h.t.Fatalf("no seat %s in %s", power, name)
	}
	return g.Players[i]
}

// TestBotPlaysAbandonedSeat plays by mail a game with SET BOT ABANDONED:
// France resigns in Spring 1901; at the end of the grace the bot writes
// France's orders and the phase is processed with them (their results in
// the results mail and the history), it plays France's next phase from
// its start, LIST says so, a ROLLBACK across the bot's phase gives the
// bot the same orders again, and a replacement takes the seat back and
// is told that the bot held it.
func TestBotPlaysAbandonedSeat(t *testing.T) {
	racetest.Sequential(t) // one mail after another, on one goroutine: the plain pass runs it
	h := newHarness(t)
	h.create("dt")
	botGame(t, h, "dt", "ABANDONED")
	mustContain(t, onlyTo(t, h.orders("dt", "F", "RESIGN"), "france@example.org").Body, "You have resigned France")
	playersOrdersButFrance(h, "dt")
	if g := h.game("dt"); g.Turn != 0 {
		t.Fatalf("processed at turn %d before France's seat was played", g.Turn)
	}
	h.advance(6 * 24 * time.Hour)
	got := h.tick()
	g := h.game("dt")
	if g.Turn != 1 {
		t.Fatalf("turn %d after the grace, want 1 (the bot's orders processed)", g.Turn)
	}
	var results *state.OutMail
	for _, m := range got {
		if strings.Contains(m.Subject, "S1901M") && strings.Contains(m.Body, "Movement results") {
			results = m
		}
		if strings.Contains(m.Subject, "Waiting for Replacements") {
			t.Logf("%s\n%s", m.Subject, m.Body)
			mustContain(t, m.Body, "France of Diplomacy game 'dt' is abandoned: the judge's bot plays it until someone takes it over.")
		}
	}
	if results == nil {
		t.Fatalf("no results mail among %d", len(got))
	}
	t.Logf("results:\n%s", results.Body)
	phases := h.phases("dt")
	if len(phases[0].Orders["France"]) != 3 {
		t.Fatalf("history of S1901M has France's orders %q, want the bot's three", phases[0].Orders["France"])
	}
	mustContain(t, results.Body, "France: ", "The judge's bot wrote the orders of France.")
	// France is the bot's from the start of the next phase.
	if p := h.seat("dt", "France"); !p.Bot || p.Status != state.Abandoned {
		t.Fatalf("France's seat %+v, want abandoned and the bot's", p)
	}
	fall := slices.Clone(g.Orders["France"])
	if len(fall) == 0 {
		t.Fatalf("no bot orders for France at the start of F1901M")
	}
	if len(g.Written["France"]) != len(fall) {
		t.Errorf("France's written orders %v do not follow its orders %v", g.Written["France"], fall)
	}
	list := onlyTo(t, h.mail("w@example.org", "x", "LIST dt"), "w@example.org")
	mustContain(t, list.Body, "France:", view.BotWords, "the judge's bot plays abandoned seats")
	t.Logf("LIST:\n%s", list.Body)

	// ROLLBACK across the bot's phase: the bot's orders come back, the same.
	playersOrdersButFrance(h, "dt")
	h.tick()
	if g := h.game("dt"); g.Turn < 2 {
		t.Fatalf("turn %d, want F1901M processed with the bot's orders", g.Turn)
	}
	r := replyTo(t, h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nROLLBACK F1901M"), testMaster)
	mustContain(t, r.Body, "rolled back to F1901M")
	if g := h.game("dt"); g.Turn != 1 || !slices.Equal(g.Orders["France"], fall) {
		t.Fatalf("after ROLLBACK: turn %d, France's orders %v, want 1 and %v", g.Turn, g.Orders["France"], fall)
	}

	// A replacement takes the seat and is told that the bot held it.
	got = h.mail("newcomer@example.org", "x", "SIGNON Fdt fresh")
	r = onlyTo(t, got, "newcomer@example.org")
	got = h.mail("newcomer@example.org", "x", "CONFIRM "+codeIn(t, r.Body)+"\nSIGNON Fdt fresh")
	var told bool
	for _, m := range mailsTo(got, "newcomer@example.org") {
		t.Logf("%s\n%s", m.Subject, m.Body)
		told = told || containsText(m.Body, "The judge's bot played France until now")
	}
	if !told {
		t.Errorf("the replacement was not told that the bot held France")
	}
	if p := h.seat("dt", "France"); p.Bot || p.Status != state.Playing {
		t.Fatalf("France's seat after the takeover %+v, want played, not the bot's", p)
	}
	// The replacement's orders are France's; the bot's stand until then.
	h.mail("newcomer@example.org", "orders", "SIGNON Fdt fresh\nA Pic H")
	var mine bool
	for _, text := range h.game("dt").Written["France"] {
		mine = mine || text == "A Pic H"
	}
	if !mine {
		t.Errorf("the replacement's order is not among France's: %v", h.game("dt").Written["France"])
	}
}

// TestSetBotForged: SET BOT from an address that is not the master's, or
// with a wrong password, or after the start, changes nothing.
func TestSetBotForged(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	for _, tc := range []struct{ from, body string }{
		{"mallory@example.org", "SIGNON Mdt " + testMasterPass + "x\nSET BOT FILL"},
		{testMaster, "SIGNON Mdt wrong\nSET BOT FILL"},
		{"mallory@example.org", "SET BOT FILL"},
	} {
		h.mail(tc.from, "x", tc.body)
		if b := h.game("dt").Settings.Bot; b != "" {
			t.Fatalf("%s sent %q: bot %q", tc.from, tc.body, b)
		}
	}
	r := onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nSET BOT MAYBE"), testMaster)
	mustContain(t, r.Body, "SET BOT takes OFF, ABANDONED or FILL, not MAYBE.")
	// AGREE, and only AGREE, may follow; never after OFF.
	for _, bad := range []string{"SET BOT FILL MAYBE", "SET BOT OFF AGREE", "SET BOT ABANDONED AGREE NOW"} {
		h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\n"+bad)
		if st := h.game("dt").Settings; st.Bot != "" || st.BotAgrees {
			t.Fatalf("%q: bot %q, agrees %v", bad, st.Bot, st.BotAgrees)
		}
	}
	var all strings.Builder
	for _, m := range h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nSET BOT ABANDONED AGREE") {
		all.WriteString(m.Body)
	}
	mustContain(t, all.String(), "accept any draw or concession the other players agree on")
	if st := h.game("dt").Settings; st.Bot != "abandoned" || !st.BotAgrees {
		t.Fatalf("SET BOT ABANDONED AGREE: bot %q, agrees %v", st.Bot, st.BotAgrees)
	}
	h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nSET BOT OFF")
	if st := h.game("dt").Settings; st.Bot != "" || st.BotAgrees {
		t.Fatalf("SET BOT OFF: bot %q, agrees %v", st.Bot, st.BotAgrees)
	}
	joinAll(h, "dt")
	r = onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nSET BOT ABANDONED"), testMaster)
	mustContain(t, r.Body, "SET BOT OFF|ABANDONED|FILL [AGREE] is set before the start")
	if b := h.game("dt").Settings.Bot; b != "" {
		t.Fatalf("SET BOT after the start: bot %q", b)
	}
}

// TestBotFillForceBegin: with SET BOT FILL, FORCE BEGIN gives the empty
// seats to the bot from the first phase: their orders are in at once,
// the start mail and LIST say so, the phase is processed as soon as the
// players' orders are in, and press to a bot's power is answered so.
func TestBotFillForceBegin(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	mustContain(t, h.masterMail("dt", "SET BOT FILL"), "The judge's bot plays the seats FORCE BEGIN leaves empty")
	for _, s := range standardSeats[:3] { // Austria, England, France
		h.join(s.Addr, "dt", s.Pass, s.Letter, "")
	}
	got := h.mail(testMaster, "begin", "SIGNON Mdt "+testMasterPass+"\nFORCE BEGIN")
	start := onlyTo(t, got, "france@example.org").Body
	t.Logf("France's start mail:\n%s", start)
	mustContain(t, start, "Germany:   nobody yet: free for takeover, "+view.BotWords)
	g := h.game("dt")
	for _, p := range g.Players {
		empty := p.Empty
		if p.Bot != empty || empty && len(g.Orders[p.Power]) == 0 || !empty && len(g.Orders[p.Power]) != 0 {
			t.Errorf("seat %s: empty %v, bot %v, orders %v", p.Power, p.Empty, p.Bot, g.Orders[p.Power])
		}
	}
	mustContain(t, h.masterMail("dt", "LIST dt"), "Turkey:    nobody yet  (abandoned, "+view.BotWords+")")

	r := h.playerReply("dt", "A", "PRESS TO G\nHello.\nENDPRESS")
	mustContain(t, r, "Press sent to Germany.", "Germany is "+view.BotWords+", which reads no press.")
	t.Logf("press reply:\n%s", r)

	pos, _, err := jsonpos.DecodePosition(g.Position)
	if err != nil {
		t.Fatal(err)
	}
	holds := clockHolds(pos)
	for _, s := range standardSeats[:3] {
		h.orders("dt", s.Letter, strings.Join(holds[s.Power], "\n"))
	}
	h.tick()
	g = h.game("dt")
	if g.Turn != 1 {
		t.Fatalf("turn %d after the players' orders, want 1", g.Turn)
	}
	rec := h.phases("dt")[0]
	for _, pw := range []string{"Germany", "Italy", "Russia", "Turkey"} {
		if len(rec.Orders[pw]) == 0 {
			t.Errorf("S1901M's history has no orders of %s's bot", pw)
		}
	}
}

// TestBotPlaysDisorderSeat: in an NMR game with SET BOT ABANDONED, a
// seat that falls into civil disorder at the end of the grace holds as
// always for that phase, and the bot plays it from the next.
func TestBotPlaysDisorderSeat(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	h.masterMail("dt", "SET NMR")
	botGame(t, h, "dt", "ABANDONED")
	playersOrdersButFrance(h, "dt")
	h.advance(6 * 24 * time.Hour)
	h.tick()
	rec := h.phases("dt")
	if len(rec) != 1 || len(rec[0].Orders["France"]) != 0 {
		t.Fatalf("S1901M: %d phases, France's orders %v: want one phase, France in civil disorder", len(rec), rec[0].Orders["France"])
	}
	p := h.seat("dt", "France")
	if p.Status != state.Disorder || !p.Bot || len(h.game("dt").Orders["France"]) == 0 {
		t.Fatalf("France in F1901M: %+v, orders %v: want the bot's", p, h.game("dt").Orders["France"])
	}
}

// TestBotTakesLateSeat: in a NoNMR game with SET BOT ABANDONED, a player
// who sends nothing loses the seat at the end of the grace, as always,
// but the game does not wait: everyone is told that the bot plays it
// until someone takes it over, and the phase is processed with the
// bot's orders.
func TestBotTakesLateSeat(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	botGame(t, h, "dt", "ABANDONED")
	playersOrdersButFrance(h, "dt")
	h.advance(6 * 24 * time.Hour)
	got := h.tick()
	var notice *state.OutMail
	for _, m := range got {
		if strings.Contains(m.Subject, "Waiting for Replacements") {
			notice = m
		}
	}
	if notice == nil {
		t.Fatalf("no notice of the abandoned seat among %d mails", len(got))
	}
	t.Logf("%s\n%s", notice.Subject, notice.Body)
	mustContain(t, notice.Body, "France of Diplomacy game 'dt' is abandoned: the judge's bot plays it until someone takes it over.", "SIGNON Fdt password")
	mustNotContain(t, notice.Body, "The game goes on when")
	if !slices.Contains(notice.To, "france@example.org") {
		t.Errorf("the late player was not told: %v", notice.To)
	}
	if g, p := h.game("dt"), h.seat("dt", "France"); g.Turn != 1 || p.Status != state.Abandoned || !p.Bot || len(h.phases("dt")[0].Orders["France"]) == 0 {
		t.Fatalf("turn %d, France %+v, S1901M's French orders %v: want the bot's, processed", g.Turn, p, h.phases("dt")[0].Orders["France"])
	}
}
