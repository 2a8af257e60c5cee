package session

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// setPress changes a game's press settings directly.
func (h *harness) setPress(name, press string, partial bool) {
	h.t.Helper()
	g := h.game(name)
	g.Settings.Press, g.Settings.Partial = press, partial
	h.putGame(g)
}

func TestPressWhitePartial(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("watcher@example.org", "dt", "pw-o", "")
	got := h.orders("dt", "F", "PRESS TO EG\nLet us share the channel.\nENDPRESS\nA Par - Bur")
	// The press to England and to Germany, and the reply.
	if len(got) != 3 {
		t.Fatalf("%d mails queued, want 3", len(got))
	}
	for _, addr := range []string{"england@example.org", "germany@example.org"} {
		m := onlyTo(t, got, addr)
		if m.Subject != "GMD:dt - S1901M Press from F to EG" {
			t.Errorf("press subject %q", m.Subject)
		}
		mustContain(t, m.Body, ":: Judge: GMD  Game: Dt", "Message from France to England, Germany in 'dt':", "Let us share the channel.")
	}
	for _, addr := range []string{"italy@example.org", testMaster, "watcher@example.org"} {
		if ms := mailsTo(got, addr); len(ms) != 0 {
			t.Errorf("partial press reached %s", addr)
		}
	}
	r := onlyTo(t, got, "france@example.org")
	mustContain(t, r.Body, "Press sent to England, Germany.", "France: Army Paris -> Burgundy.")
	mustNotContain(t, r.Body, "Let us share")
	g := h.game("dt")
	if p := h.press("dt"); len(p) != 1 || p[0].From != "France" || !slices.Equal(p[0].To, []string{"England", "Germany"}) || p[0].Phase != "S1901M" {
		t.Fatalf("press record: %+v", p)
	}
	if got := g.Orders["France"]; !slices.Equal(got, []string{"A par - bur"}) {
		t.Fatalf("the order after the press was not read: %q", got)
	}

	// A broadcast reaches every player, the master and the observers.
	got = h.orders("dt", "E", "BROADCAST\nHello all.\nENDPRESS")
	for _, addr := range []string{"france@example.org", "turkey@example.org", testMaster, "watcher@example.org"} {
		m := mailsTo(got, addr)
		if len(m) != 1 || m[0].Subject != "GMD:dt - S1901M Broadcast from E" || !strings.Contains(m[0].Body, "Broadcast message from England") {
			t.Errorf("broadcast to %s: %v", addr, m)
		}
	}
	if n := len(mailsTo(got, "england@example.org")); n != 1 {
		t.Errorf("the sender got %d mails, want only the reply", n)
	}
}

func TestPressGrey(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.setPress("dt", "grey", true)
	got := h.orders("dt", "F", "PRESS TO ALL BUT R\nWho am I?\nENDPRESS")
	m := onlyTo(t, got, "england@example.org")
	// France is among the powers addressed, as France wrote them: the
	// list does not point at the sender by leaving France out.
	if m.Subject != "GMD:dt - S1901M Press from someone to AEFGIT" {
		t.Errorf("grey subject %q", m.Subject)
	}
	mustContain(t, m.Body, "Message from someone to")
	mustNotContain(t, m.Body, "France to", "from France", "france@")
	if n := len(mailsTo(got, "russia@example.org")); n != 0 {
		t.Error("ALL BUT R reached Russia")
	}
	if p := h.press("dt"); len(p) != 1 || !p[0].Grey || p[0].From != "France" {
		t.Fatalf("grey press record: %+v", p)
	}
	// A grey game has no white press between powers; the master's press
	// is white.
	r := onlyTo(t, h.orders("dt", "F", "PRESS WHITE TO E\nme\nENDPRESS"), "france@example.org")
	mustContain(t, r.Body, "grey press only", "Nothing was sent.")
	got = h.mail(testMaster, "x", "SIGNON Mdt pw-m\nPRESS TO F\nfrom the GM\nENDPRESS")
	mustContain(t, onlyTo(t, got, "france@example.org").Subject, "Press from M to F")
}

func TestPressRefused(t *testing.T) {
	racetest.Sequential(t) // one mail after another, on one goroutine: the plain pass runs it
	tests := []struct {
		name    string
		press   string
		partial bool
		body    string
		want    string // in the error; "" when the press goes out
		to      string // who gets it when it goes out
	}{
		{"none", "none", true, "PRESS TO E\nhi\nENDPRESS", "has no press between powers", ""},
		{"none broadcast", "none", true, "BROADCAST\nhi\nENDPRESS", "has no press between powers", ""},
		{"none to master", "none", true, "PRESS TO M\nhi\nENDPRESS", "", testMaster},
		{"no partial", "white", false, "PRESS TO E\nhi\nENDPRESS", "allows no partial press", ""},
		{"no partial broadcast", "white", false, "BROADCAST\nhi\nENDPRESS", "", "england@example.org"},
		{"no partial to master", "white", false, "PRESS TO MASTER\nhi\nENDPRESS", "", testMaster},
		{"grey in white game", "white", true, "PRESS GREY TO E\nhi\nENDPRESS", "white press only", ""},
		{"bare press", "white", true, "PRESS\nhi\nENDPRESS", "PRESS needs recipients", ""},
		{"to self", "white", true, "PRESS TO F\nhi\nENDPRESS", "nobody but you", ""},
		{"unknown power", "white", true, "PRESS TO XQ\nhi\nENDPRESS", "names no power", ""},
		{"empty", "white", true, "PRESS TO E\nENDPRESS", "no text", ""},
		// Characters no mail carries (a NUL, a zero-width space, a bidi
		// override) are no text either: the fuzzer's press of one NUL went
		// out as a message of blank lines.
		{"control characters only", "white", true, "PRESS TO E\n\x00\n\u200b \u202e\nENDPRESS", "no text", ""},
		{"names", "white", true, "PRESS TO England, Germany\nhi\nENDPRESS", "", "germany@example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.startStandard("dt")
			h.setPress("dt", tt.press, tt.partial)
			got := h.orders("dt", "F", tt.body)
			r := onlyTo(t, got, "france@example.org")
			if tt.want != "" {
				mustContain(t, r.Body, tt.want, "Nothing was sent.")
				if len(got) != 1 || len(h.press("dt")) != 0 {
					t.Fatalf("refused press went out: %d mails, %d recorded", len(got), len(h.press("dt")))
				}
				return
			}
			mustNotContain(t, r.Body, "Error")
			if len(mailsTo(got, tt.to)) != 1 {
				t.Fatalf("press did not reach %s", tt.to)
			}
		})
	}
}

func TestUnterminatedPress(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	got := h.orders("dt", "F", "PRESS TO E\nhello\nA Par - Bur")
	mustContain(t, onlyTo(t, got, "england@example.org").Body, "hello\nA Par - Bur\n")
	mustContain(t, onlyTo(t, got, "france@example.org").Body, "There was no ENDPRESS")
	if n := len(h.game("dt").Orders["France"]); n != 0 {
		t.Fatalf("press text was read as orders: %d", n)
	}
}

func TestObserverPress(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("watcher@example.org", "dt", "pw-o", "")
	r := onlyTo(t, h.mail("watcher@example.org", "x", "OBSERVE dt pw-o\nBROADCAST\nhi\nENDPRESS"), "watcher@example.org")
	mustContain(t, r.Body, "Observers may send press only to the master")
	got := h.mail("watcher@example.org", "x", "OBSERVE dt pw-o\nPRESS TO M\nhi\nENDPRESS")
	mustContain(t, onlyTo(t, got, testMaster).Subject, "Press from O to M")
}

func TestParseRecipients(t *testing.T) {
	mp := variants.Standard()
	p := func(names ...string) []judge.Power {
		var out []judge.Power
		for _, n := range names {
			k, _ := mp.PowerByName(n)
			out = append(out, k)
		}
		return out
	}
	tests := []struct {
		in     string
		all    bool
		powers []judge.Power
		master bool
		bad    bool
	}{
		{in: "EG", powers: p("England", "Germany")},
		{in: "eg", powers: p("England", "Germany")},
		{in: "GE", powers: p("England", "Germany")},
		{in: "ALL", all: true},
		{in: "ALL BUT R", powers: p("Austria", "England", "France", "Germany", "Italy", "Turkey")},
		{in: "-RT", powers: p("Austria", "England", "France", "Germany", "Italy")},
		{in: "England, Germany and Turkey", powers: p("England", "Germany", "Turkey")},
		{in: "English", powers: p("England")},
		{in: "M", master: true},
		{in: "EM", powers: p("England"), master: true},
		{in: "Master", master: true},
		{in: "+F+I", powers: p("France", "Italy")},
		{in: "XZ", bad: true},
		{in: "ALL THE PEOPLE", bad: true},
		{in: "ALL BUT M", bad: true},
	}
	for _, tt := range tests {
		got, msg := parseRecipients(mp, strings.Fields(tt.in))
		if tt.bad {
			if msg == "" {
				t.Errorf("%q: no error", tt.in)
			}
			continue
		}
		if msg != "" || got.all != tt.all || got.master != tt.master || !slices.Equal(got.powers, tt.powers) {
			t.Errorf("%q: got %+v %q, want all=%v powers=%v master=%v", tt.in, got, msg, tt.all, tt.powers, tt.master)
		}
	}
}
