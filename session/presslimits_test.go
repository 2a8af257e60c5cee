package session

import (
	"strings"
	"testing"
)

// startWith creates a standard game, has its master send sets (SET lines)
// while it forms, and lets the seven players join; it returns the
// master's reply to the SET lines.
func (h *harness) startWith(name string, sets ...string) string {
	h.t.Helper()
	h.create(name)
	r := replyTo(h.t, h.mail(testMaster, "set", "SIGNON M"+name+" "+testMasterPass+"\n"+strings.Join(sets, "\n")), testMaster)
	joinAll(h, name)
	return r.Body
}

func TestFakePress(t *testing.T) {
	h := newHarness(t)
	mustContain(t, h.startWith("dt", "SET FAKE"), "Fake press is allowed")
	if !h.game("dt").Settings.Fake {
		t.Fatal("SET FAKE did not set the game's Fake")
	}
	mustContain(t, onlyTo(t, h.mail("anyone@example.org", "x", "LIST dt"), "anyone@example.org").Body, "press may claim another sender")
	got := h.orders("dt", "F", "PRESS AS RUSSIA TO E\nThe Tsar sends his regards.\nENDPRESS")
	e := onlyTo(t, got, "england@example.org")
	if e.Subject != "GMD:dt - S1901M Press from R to E" {
		t.Errorf("England's subject %q", e.Subject)
	}
	mustContain(t, e.Body, "Message from Russia to England in 'dt':", "The Tsar sends his regards.")
	mustNotContain(t, e.Body, "France", "fake", "Fake")
	m := onlyTo(t, got, testMaster)
	if m.Subject != "GMD:dt - S1901M Press from R to E (fake)" {
		t.Errorf("the master's subject %q", m.Subject)
	}
	mustContain(t, m.Body, "Message from Russia to England", "Fake press: it claims to come from Russia, and France sent it.", "The Tsar sends")
	t.Logf("the master's copy:\n%s", m.Body)
	if n := len(mailsTo(got, "russia@example.org")); n != 0 {
		t.Error("press to England reached Russia, whose name it took")
	}
	mustContain(t, onlyTo(t, got, "france@example.org").Body, "Press as Russia sent to England.")
	p := h.press("dt")
	if len(p) != 1 || p[0].From != "France" || p[0].Claimed != "Russia" {
		t.Fatalf("press record %+v", p)
	}

	// A fake broadcast: everyone reads Russia, the master the truth.
	got = h.orders("dt", "F", "BROADCAST AS R\nPeace in our time.\nENDPRESS")
	for _, addr := range []string{"england@example.org", "russia@example.org", "turkey@example.org"} {
		mustContain(t, onlyTo(t, got, addr).Body, "Broadcast message from Russia in 'dt':")
		mustNotContain(t, onlyTo(t, got, addr).Body, "France")
	}
	mustContain(t, onlyTo(t, got, testMaster).Body, "Fake press: it claims to come from Russia, and France sent it.")
}

func TestFakePressRefused(t *testing.T) {
	h := newHarness(t)
	h.startStandard("plain")
	r := onlyTo(t, h.orders("plain", "F", "PRESS AS R TO E\nhi\nENDPRESS"), "france@example.org")
	mustContain(t, r.Body, "Game 'plain' has no fake press", "Nothing was sent.")
	r = onlyTo(t, h.orders("plain", "F", "PRESS FAKE TO E\nhi\nENDPRESS"), "france@example.org")
	mustContain(t, r.Body, "PRESS AS R TO E", "Nothing was sent.")
	// SET FAKE after the start is refused, and only the master may send it.
	r = replyTo(t, h.mail(testMaster, "set", "SIGNON Mplain "+testMasterPass+"\nSET FAKE"), testMaster)
	mustContain(t, r.Body, "Game 'plain' has started: SET FAKE is set before the start")
	r = onlyTo(t, h.orders("plain", "F", "SET FAKE"), "france@example.org")
	mustContain(t, r.Body, "Only the master of 'plain' may SET FAKE.")
	if h.game("plain").Settings.Fake {
		t.Fatal("a refused SET FAKE set it")
	}

	h.startWith("dt", "SET FAKE")
	h.observe("watcher@example.org", "dt", "pw-o", "")
	for _, c := range []struct{ letter, body, want string }{
		{"F", "PRESS AS F TO E", "that is you: leave AS out"},
		{"F", "PRESS AS R TO M", "Press to the master is never fake"},
		{"F", "PRESS AS R TO EM", "Press to the master is never fake"},
		{"F", "PRESS GREY AS R TO E", "Grey press names no sender"},
		{"F", "PRESS AS X TO E", `"X" after AS names no power`},
		{"F", "PRESS AS", "AS needs the power"},
	} {
		got := h.orders("dt", c.letter, c.body+"\nhello\nENDPRESS")
		r := onlyTo(t, got, "france@example.org")
		mustContain(t, r.Body, c.want, "Nothing was sent.")
		if len(got) != 1 {
			t.Errorf("%q: %d mails queued, want the reply alone", c.body, len(got))
		}
	}
	r = replyTo(t, h.mail(testMaster, "p", "SIGNON Mdt "+testMasterPass+"\nPRESS AS R TO E\nhello\nENDPRESS"), testMaster)
	mustContain(t, r.Body, "the master's and observers' never do")
	r = replyTo(t, h.mail("watcher@example.org", "p", "OBSERVE dt pw-o\nPRESS AS R TO M\nhello\nENDPRESS"), "watcher@example.org")
	mustContain(t, r.Body, "Nothing was sent.")
	if p := h.press("dt"); len(p) != 0 {
		t.Fatalf("refused press was recorded: %+v", p)
	}
}

// A forged From line sends no fake press and sets nothing: without the
// seat's or the master's password nothing happens.
func TestFakePressForged(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	got := h.mail(testMaster, "set", "SIGNON Mdt wrong-password\nSET FAKE")
	mustContain(t, replyTo(t, got, testMaster).Body, "Wrong password")
	joinAll(h, "dt")
	if h.game("dt").Settings.Fake {
		t.Fatal("a forged SET FAKE set it")
	}
	g := h.game("dt")
	g.Settings.Fake = true
	h.putGame(g)
	got = h.mail("france@example.org", "p", "SIGNON Fdt wrong-password\nPRESS AS R TO E\nhello\nENDPRESS")
	mustContain(t, replyTo(t, got, "france@example.org").Body, "Wrong password")
	if len(mailsTo(got, "england@example.org")) != 0 || len(h.press("dt")) != 0 {
		t.Fatal("a forged fake press went out")
	}
}

func TestMinorPress(t *testing.T) {
	h := newHarness(t)
	mustContain(t, h.startWith("dt", "SET NO MINOR PRESS"), "Press between powers goes during movement phases only")
	if !h.game("dt").Settings.NoMinorPress {
		t.Fatal("SET NO MINOR PRESS did not set NoMinorPress")
	}
	// LIST tells whoever asks.
	mustContain(t, onlyTo(t, h.mail("anyone@example.org", "x", "LIST dt"), "anyone@example.org").Body, "press between powers in movement phases only")
	// In a movement phase press goes.
	mustContain(t, onlyTo(t, h.orders("dt", "F", "PRESS TO E\nhi\nENDPRESS"), "france@example.org").Body, "Press sent to England.")
	for _, phase := range []string{"F1901R", "W1901A"} {
		h.setPosition("dt", `{"variant":"standard","phase":"`+phase+`",
		 "units":[{"power":"France","type":"A","at":"par"}],
		 "centers":{"par":"France","bre":"France","mar":"France"}}`)
		got := h.orders("dt", "F", "PRESS TO E\nhi\nENDPRESS")
		mustContain(t, onlyTo(t, got, "france@example.org").Body, "has press between powers during movement phases only", "Nothing was sent.")
		if len(mailsTo(got, "england@example.org")) != 0 {
			t.Errorf("%s: press reached England", phase)
		}
		got = h.orders("dt", "F", "BROADCAST\nhi\nENDPRESS")
		if len(mailsTo(got, "england@example.org")) != 0 {
			t.Errorf("%s: a broadcast reached England", phase)
		}
		// To the master, and from the master, it goes.
		got = h.orders("dt", "F", "PRESS TO M\nhelp\nENDPRESS")
		if len(mailsTo(got, testMaster)) != 1 {
			t.Errorf("%s: press to the master did not go", phase)
		}
		got = h.mail(testMaster, "p", "SIGNON Mdt "+testMasterPass+"\nBROADCAST\nnews\nENDPRESS")
		if len(mailsTo(got, "england@example.org")) != 1 {
			t.Errorf("%s: the master's broadcast did not go", phase)
		}
	}
	// The words point at njudge's.
	r := replyTo(t, h.mail(testMaster, "set", "SIGNON Mdt "+testMasterPass+"\nSET PRESS DURING Movement ONLY"), testMaster)
	mustContain(t, r.Body, "Error (line 2): Press during movement phases only is SET NO MINOR PRESS")
	// SET MINOR PRESS after the start is refused; before it, it undoes.
	r = replyTo(t, h.mail(testMaster, "set", "SIGNON Mdt "+testMasterPass+"\nSET MINOR PRESS"), testMaster)
	mustContain(t, r.Body, "SET MINOR PRESS is set before the start")
	mustContain(t, h.startWith("dt2", "SET NO MINOR PRESS", "SET MINOR PRESS", "SET NO MINOR FOO"), "Press between powers goes in every phase", "Use: SET MINOR PRESS or SET NO MINOR PRESS.")
	if h.game("dt2").Settings.NoMinorPress {
		t.Fatal("SET MINOR PRESS did not undo SET NO MINOR PRESS")
	}
	// A forged SET changes nothing.
	h.create("dt3")
	h.mail(testMaster, "set", "SIGNON Mdt3 wrong\nSET NO MINOR PRESS")
	if h.game("dt3").Settings.NoMinorPress {
		t.Fatal("a forged SET NO MINOR PRESS set it")
	}
}
