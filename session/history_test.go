package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// putPhases records n processed phases of game, S1901M, F1901M, W1901A,
// S1902M and so on, each with results that name it.
func (h *harness) putPhases(game string, n int) []string {
	h.t.Helper()
	var names []string
	pos := `{"variant":"standard","phase":"%s","units":[{"power":"France","type":"A","at":"par"}],"centers":{"par":"France"}}`
	for i := range n {
		name := fmt.Sprintf("%c%dM", "SF"[i%3%2], 1901+i/3)
		if i%3 == 2 {
			name = fmt.Sprintf("W%dA", 1901+i/3)
		}
		h.putPhase(game, i+1, name, fmt.Sprintf(pos, name), "results of "+name+"\n")
		names = append(names, name)
	}
	return names
}

func TestHistoryRange(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.putPhases("dt", 30) // to W1910A
	ask := func(from, body string) string {
		return replyTo(t, h.mail(from, "x", body), from).Body
	}
	r := ask("anyone@example.org", "HISTORY dt FROM F1901M TO S1902M")
	mustContain(t, r, "F1901M (dt.002)", "results of F1901M", "results of W1901A", "results of S1902M",
		"No maps: maps go only to the addresses that get the game's mail")
	mustNotContain(t, r, "results of S1901M", "results of F1902M", "Error")

	// FROM alone runs to the end, TO alone from the start; past
	// historyLimit phases the reply says where to go on.
	r = ask("anyone@example.org", "HISTORY dt FROM S1909M")
	mustContain(t, r, "results of S1909M", "results of W1910A")
	mustNotContain(t, r, "results of W1908A", "Error")
	r = ask("anyone@example.org", "HISTORY dt TO F1906M")
	mustContain(t, r, "17 processed phases of 'dt' fall to F1906M; here are the first 12. For the rest send HISTORY dt FROM S1905M TO F1906M.",
		"results of S1901M", "results of W1904A")
	mustNotContain(t, r, "results of S1905M")
	if n := strings.Count(r, "results of "); n != historyLimit {
		t.Errorf("%d phases in a reply, want %d", n, historyLimit)
	}
	t.Logf("HISTORY dt TO F1906M:\n%s", r[:min(len(r), 900)])

	// A player of the game gets the maps: three, and one line for the rest.
	r = ask("france@example.org", "HISTORY dt FROM S1901M TO S1903M")
	mustContain(t, r, "The map of S1901M is attached", "The map of F1901M is attached", "The map of W1901A is attached",
		"No map of S1902M F1902M W1902A S1903M: a reply carries at most 3")

	// Refusals, each naming its line.
	r = ask("anyone@example.org", "HISTORY dt FROM F1903M TO S1902M\nHISTORY dt FROM S1901M TO F2000M\nHISTORY dt FROM someday\nHISTORY dt FROM\nHISTORY dt FROM S1950M")
	mustContain(t, r,
		"Error (line 1): FROM F1903M is after TO S1902M",
		"Error (line 2): FROM S1901M TO F2000M spans 100 years; one HISTORY covers at most 10",
		"Error (line 3): \"someday\" is not a phase",
		"Error (line 4): HISTORY takes FROM <phase> and TO <phase>",
		"No processed phase of 'dt' falls from S1950M.")
	mustNotContain(t, r, "results of")
	t.Logf("refusals:\n%s", r)
}

// sendPress has the seat letter send a press body (the lines after the
// sign-on) and fails unless it went.
func (h *harness) sendPress(game, letter, body string) {
	h.t.Helper()
	addr, _ := seatOf(letter)
	r := replyTo(h.t, h.orders(game, letter, body), addr)
	if strings.Contains(r.Body, "Nothing was sent") {
		h.t.Fatalf("press refused:\n%s", r.Body)
	}
	h.advance(time.Minute)
}

func TestHistoryPress(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("watcher@example.org", "dt", "pw-o", "")
	g := h.game("dt")
	g.Settings.Fake = true
	h.putGame(g)
	h.sendPress("dt", "F", "PRESS TO E\nF to E secret\nENDPRESS")
	h.sendPress("dt", "E", "PRESS TO FG\nE to FG secret\nENDPRESS")
	h.sendPress("dt", "G", "PRESS TO I\nG to I secret\nENDPRESS")
	h.sendPress("dt", "T", "BROADCAST\nT to all\nENDPRESS")
	h.sendPress("dt", "A", "PRESS TO M\nA to the master\nENDPRESS")
	h.sendPress("dt", "R", "PRESS AS A TO I\nR as A to I\nENDPRESS")
	h.mail(testMaster, "p", "SIGNON Mdt "+testMasterPass+"\nPRESS TO E\nM to E\nENDPRESS")
	h.advance(time.Minute)
	h.setPress("dt", "grey", true)
	h.sendPress("dt", "I", "PRESS TO FE\nI grey to FE\nENDPRESS")

	every := []string{"F to E secret", "E to FG secret", "G to I secret", "T to all", "A to the master", "R as A to I", "M to E", "I grey to FE"}
	for _, c := range []struct {
		who, signon string
		want        []string
		shows       []string
	}{
		{"england@example.org", "SIGNON Edt pw-e", []string{"F to E secret", "E to FG secret", "T to all", "M to E", "I grey to FE"},
			[]string{"Message from France to England", "Message from England (you) to France, Germany", "Broadcast message from Turkey",
				"Message from the Master to England", "Message from someone to England, France"}},
		{"italy@example.org", "SIGNON Idt pw-i", []string{"G to I secret", "T to all", "R as A to I", "I grey to FE"},
			[]string{"Message from Austria to Italy", "Message from someone (grey press you sent) to England, France"}},
		{"russia@example.org", "SIGNON Rdt pw-r", []string{"T to all", "R as A to I"}, []string{"Message from Austria (fake press you sent) to Italy"}},
		{"watcher@example.org", "OBSERVE dt pw-o", []string{"T to all"}, nil},
		{testMaster, "SIGNON Mdt " + testMasterPass, []string{"T to all", "A to the master", "R as A to I", "M to E"},
			[]string{"Message from Austria (fake: Russia sent it) to Italy", "Message from Austria to Master", "Message from the Master (you) to England"}},
	} {
		r := replyTo(t, h.mail(c.who, "h", c.signon+"\nHISTORY dt PRESS"), c.who).Body
		for _, text := range every {
			if slices_contains(c.want, text) != strings.Contains(r, text) {
				t.Errorf("%s sees %q: %v, want %v", c.who, text, strings.Contains(r, text), slices_contains(c.want, text))
			}
		}
		mustContain(t, r, c.shows...)
		mustNotContain(t, r, "@example.org")
		if c.who == "england@example.org" {
			t.Logf("England's HISTORY dt PRESS:\n%s", r)
		}
	}

	// Italy's seat taken over: the newcomer does not read the press of
	// the seat before they took it.
	h.advance(time.Hour)
	g = h.game("dt")
	i := slicesIndexPower(g, "Italy")
	g.Players[i].Joined = h.now
	h.putGame(g)
	r := replyTo(t, h.mail("italy@example.org", "h", "SIGNON Idt pw-i\nHISTORY dt PRESS"), "italy@example.org").Body
	mustContain(t, r, "T to all")
	mustNotContain(t, r, "G to I secret", "R as A to I", "I grey to FE")

	// No sign-on, a forged From, another game's sign-on: nothing shown.
	r = replyTo(t, h.mail("england@example.org", "h", "HISTORY dt PRESS"), "england@example.org").Body
	mustContain(t, r, "sign on to it first")
	r = replyTo(t, h.mail("england@example.org", "h", "SIGNON Edt not-the-password\nHISTORY dt PRESS"), "england@example.org").Body
	mustContain(t, r, "Wrong password")
	for _, text := range every {
		mustNotContain(t, r, text)
	}
	// After a sign-on the game's name may be left out.
	r = replyTo(t, h.mail("england@example.org", "h", "SIGNON Edt pw-e\nHISTORY PRESS"), "england@example.org").Body
	mustContain(t, r, "F to E secret", "The press of 'dt' that you sent or received: 5 messages.")
	// A range, and its refusal.
	r = replyTo(t, h.mail("england@example.org", "h", "SIGNON Edt pw-e\nHISTORY dt PRESS FROM F1901M\nHISTORY dt PRESS TO S1901M FROM F1901M"), "england@example.org").Body
	mustContain(t, r, "No press of 'dt' that you sent or received was sent from F1901M.", "Error (line 3): FROM F1901M is after TO S1901M")
}

func TestHistoryPressGunboat(t *testing.T) {
	h := newHarness(t)
	h.create("gb")
	h.mail(testMaster, "s", "SIGNON Mgb "+testMasterPass+"\nSET GUNBOAT\nSET PRESS WHITE")
	joinAll(h, "gb")
	if !h.game("gb").Settings.Gunboat {
		t.Fatal("not gunboat")
	}
	h.sendPress("gb", "F", "PRESS TO E\nF to E in gunboat\nENDPRESS")
	r := replyTo(t, h.mail("england@example.org", "h", "SIGNON Egb pw-e\nHISTORY gb PRESS"), "england@example.org").Body
	mustContain(t, r, "Message from France to England", "F to E in gunboat")
	mustNotContain(t, r, "france@", "@example.org")
	r = replyTo(t, h.mail("germany@example.org", "h", "SIGNON Ggb pw-g\nHISTORY gb PRESS"), "germany@example.org").Body
	mustNotContain(t, r, "F to E in gunboat")
}

func TestHistoryPressBounds(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	add := func(p *state.Press) {
		if err := h.m.DB().Update(func(tx *state.Tx) error { return tx.AddPress("dt", 0, p) }); err != nil {
			t.Fatal(err)
		}
	}
	for i := range maxPressMessages + 5 {
		add(&state.Press{Phase: "S1901M", From: "France", Text: fmt.Sprintf("broadcast number %d\n", i), Sent: h.now})
	}
	r := replyTo(t, h.mail("england@example.org", "h", "SIGNON Edt pw-e\nHISTORY dt PRESS"), "england@example.org").Body
	mustContain(t, r, "here are the last 20 messages. For earlier ones send HISTORY dt PRESS TO S1901M.", "broadcast number 24\n", "broadcast number 5\n")
	mustNotContain(t, r, "broadcast number 4\n")
	// Large messages: as many as fit in maxPressBytes, the last at least.
	big := strings.Repeat("x", maxPressBytes/2+1)
	for i := range 3 {
		add(&state.Press{Phase: "S1901M", From: "France", Text: fmt.Sprintf("big %d %s\n", i, big), Sent: h.now})
	}
	r = replyTo(t, h.mail("england@example.org", "h", "SIGNON Edt pw-e\nHISTORY dt PRESS"), "england@example.org").Body
	mustContain(t, r, "here are the last 1 message.", "big 2 ")
	mustNotContain(t, r, "big 1 ")
}

// HISTORY PRESS reads at most maxPressScan of press, most of it perhaps
// others', and says where to go on.
func TestHistoryPressScan(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.putPhases("dt", 3) // press turns 0, 1, 2: S1901M, F1901M, W1901A
	g := h.game("dt")
	g.Turn = 3
	h.putGame(g)
	add := func(turn int, p *state.Press) {
		if err := h.m.DB().Update(func(tx *state.Tx) error { return tx.AddPress("dt", turn, p) }); err != nil {
			t.Fatal(err)
		}
	}
	add(0, &state.Press{Phase: "S1901M", From: "France", Text: "old broadcast\n", Sent: h.now})
	big := strings.Repeat("y", maxPressScan*2/3)
	add(1, &state.Press{Phase: "F1901M", From: "France", To: []string{"Germany"}, Text: big, Sent: h.now})
	add(2, &state.Press{Phase: "W1901A", From: "France", To: []string{"Germany"}, Text: big, Sent: h.now})
	r := replyTo(t, h.mail("england@example.org", "h", "SIGNON Edt pw-e\nHISTORY dt PRESS"), "england@example.org").Body
	mustContain(t, r, "No press of 'dt' that you sent or received",
		"The search stopped before S1901M: the press of 'dt' after it is more than one reply reads. For S1901M and earlier send HISTORY dt PRESS TO S1901M.")
	mustNotContain(t, r, "old broadcast", "yyyy")
	r = replyTo(t, h.mail("england@example.org", "h", "SIGNON Edt pw-e\nHISTORY dt PRESS TO S1901M"), "england@example.org").Body
	mustContain(t, r, "old broadcast")
	mustNotContain(t, r, "The search stopped")
}

func slices_contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func slicesIndexPower(g *state.Game, power string) int {
	for i, p := range g.Players {
		if p.Power == power {
			return i
		}
	}
	return -1
}

// BenchmarkHistoryPress measures one mail of HISTORY game PRESS in a game
// of 90 phases with 20 messages each, most of them to others: the
// sign-on, reading every phase's press and choosing England's.
func BenchmarkHistoryPress(b *testing.B) {
	h := newHarness(b)
	h.startStandard("dt")
	h.putPhases("dt", 90)
	g := h.game("dt")
	g.Turn = 90
	h.putGame(g)
	recs := h.phases("dt")
	err := h.m.DB().Update(func(tx *state.Tx) error {
		for _, rec := range recs {
			for i := range 20 {
				to := []string{"Germany", "Italy"}
				if i%10 == 0 {
					to = []string{"England"}
				}
				p := &state.Press{Phase: rec.Phase, From: "France", To: to, Text: strings.Repeat("press text ", 40) + "\n", Sent: h.now}
				if err := tx.AddPress("dt", rec.Turn-1, p); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		in := &Mail{From: "england@example.org", Subject: "h", Body: "SIGNON Edt pw-e\nHISTORY dt PRESS", MessageID: fmt.Sprintf("<bench.%d@example.org>", i)}
		if err := h.m.Handle(in, h.now); err != nil {
			b.Fatal(err)
		}
	}
}
