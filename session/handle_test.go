package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

func TestCreateSignonStart(t *testing.T) {
	h := newHarness(t)
	got := h.confirm(testMaster, "new game", "CREATE ?dt "+testMasterPass)
	r := onlyTo(t, got, testMaster)
	mustContain(t, r.Body, "Game 'dt' created", "SIGNON Mdt", "7 have joined")
	if r.Subject != "Re: GMD:dt - S1901M new game" {
		t.Errorf("subject %q", r.Subject)
	}
	g := h.game("dt")
	if g.Status != state.Forming || !strings.EqualFold(g.MasterAddr, testMaster) || g.Settings.Press != "white" || !g.Settings.Partial {
		t.Fatalf("created game: %+v", g)
	}

	for i, s := range standardSeats {
		got = h.join(s.Addr, "dt", s.Pass, s.Letter, "")
		if i < len(standardSeats)-1 {
			r := onlyTo(t, got, s.Addr)
			mustContain(t, r.Body, "You have joined game 'dt'")
			if len(got) != 1 {
				t.Fatalf("sign-on %d queued %d mails", i+1, len(got))
			}
		}
	}
	// The last sign-on: a start mail to each player, one to the master,
	// and the reply.
	if len(got) != 9 {
		t.Fatalf("last sign-on queued %d mails, want 9", len(got))
	}
	for _, s := range standardSeats {
		ms := mailsTo(got, s.Addr)
		var start *state.OutMail
		for _, m := range ms {
			if strings.HasSuffix(m.Subject, "Game Starting") {
				start = m
			}
		}
		if start == nil {
			t.Fatalf("no start mail to %s", s.Addr)
		}
		if start.Subject != "GMD:dt - S1901M Game Starting" {
			t.Errorf("start subject %q", start.Subject)
		}
		mustContain(t, start.Body, "\n:: Judge: GMD  Game: Dt  Variant: Standard\n:: Deadline: S1901M ",
			"You have been selected as "+s.Power+" in game 'dt'", "Starting position for Spring of 1901.",
			"France: Army Paris.", "Russia: Fleet St Petersburg (south coast).", "SIGNON "+s.Letter+"dt")
		if len(s.Letter) == 1 && !strings.HasPrefix(start.Body, "\n:: Judge:") {
			t.Errorf("start mail does not begin with the header:\n%s", start.Body)
		}
	}
	ms := onlyTo(t, got, testMaster)
	mustContain(t, ms.Body, "Game 'dt' of Diplomacy has started.")
	mustNotContain(t, ms.Body, "You have been selected")

	last := standardSeats[len(standardSeats)-1]
	var reply *state.OutMail
	for _, m := range mailsTo(got, last.Addr) {
		if strings.HasPrefix(m.Subject, "Re:") {
			reply = m
		}
	}
	if reply == nil {
		t.Fatal("no reply to the last player")
	}
	mustContain(t, reply.Body, "the game starts now", "You are Turkey", "Movement orders for Spring of 1901. (dt.001)",
		"Orders not received for Fleet Ankara, Army Constantinople, Army Smyrna.")

	g = h.game("dt")
	if g.Status != state.Active || len(g.Position) == 0 || g.Deadline.IsZero() {
		t.Fatalf("started game: status %s, position %d bytes, deadline %v", g.Status, len(g.Position), g.Deadline)
	}
	for _, s := range standardSeats {
		i := engine.PlayerByAddr(g, s.Addr)
		if i < 0 || g.Players[i].Power != s.Power || g.Players[i].Status != state.Playing {
			t.Errorf("%s holds %+v, want %s", s.Addr, g.Players[i], s.Power)
		}
	}
}

func TestDuplicateMailIgnored(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	body := "SIGNON Fdt pw-f\nA Par - Bur"
	first := h.mailID("france@example.org", "orders", body, "<same@example.org>")
	if len(first) != 1 {
		t.Fatalf("first mail queued %d mails", len(first))
	}
	before := h.game("dt")
	// The same mail again, and then a different mail that the IMAP
	// ledger key marks as the same message. (Another mail with the same
	// Message-ID is not the same mail: TestMessageIDNotForgeable.)
	if again := h.mailID("france@example.org", "orders", body, "<same@example.org>"); len(again) != 0 {
		t.Fatalf("a duplicate mail was answered: %v", again)
	}
	id := h.lastID()
	in := &Mail{From: "france@example.org", Subject: "x", Body: "SIGNON Fdt pw-f\nA Par - Gas", Ledger: []string{"imap/1/7"}}
	if err := h.m.Handle(in, h.now); err != nil {
		t.Fatal(err)
	}
	if err := h.m.Handle(in, h.now); err != nil {
		t.Fatal(err)
	}
	if n := len(h.since(id)); n != 1 {
		t.Fatalf("a mail with the same ledger key was answered %d times", n)
	}
	after := h.game("dt")
	if got := after.Orders["France"]; len(got) != 1 || got[0] != "A par - gas" {
		t.Fatalf("France's orders: %q (before: %q)", got, before.Orders["France"])
	}
}

func TestMailFromJudgeIgnored(t *testing.T) {
	h := newHarness(t)
	if got := h.mailID("JUDGE@example.org", "loop", "HELP", "<loop@example.org>"); len(got) != 0 {
		t.Fatalf("the judge answered itself: %d mails", len(got))
	}
	// It is recorded as handled all the same.
	if !h.seen(mailKey("", "<loop@example.org>")) {
		t.Fatal("the judge's own mail was not recorded")
	}
}

func TestNoCommands(t *testing.T) {
	h := newHarness(t)
	r := onlyTo(t, h.mail("someone@example.org", "hello", "\n\n> quoted text\n"), "someone@example.org")
	mustContain(t, r.Body, "no commands", "HELP")
	if r.Subject != "Re: GMD hello" {
		t.Errorf("subject %q", r.Subject)
	}
	if strings.Contains(r.Body, ":: Judge:") {
		t.Errorf("a reply without a game has a game header:\n%s", r.Body)
	}
}

func TestSignOnFirst(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.mail("france@example.org", "orders", "A Par - Bur\nSET WAIT\nLIST"), "france@example.org")
	mustContain(t, r.Body, "Error (line 1): Sign on first", "Error (line 2): Sign on first", "Games on GMD:")
	if g := h.game("dt"); len(g.Orders["France"]) != 0 {
		t.Fatalf("orders stored without a sign-on: %q", g.Orders["France"])
	}
}

func TestWrongPassword(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.mail("france@example.org", "orders", "SIGNON Fdt wrong\nA Par - Bur\nSET WAIT"), "france@example.org")
	mustContain(t, r.Body, "Wrong password for game 'dt'", "The rest of this mail was ignored.")
	mustNotContain(t, r.Body, "wrong", "Movement orders")
	g := h.game("dt")
	if len(g.Orders["France"]) != 0 || g.Players[engine.PlayerByPower(g, "France")].Wait {
		t.Fatalf("a mail with a wrong password changed the game: orders %q", g.Orders["France"])
	}
	// The master's seat is guarded the same way.
	r = onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt pw-f\nSET NMR"), testMaster)
	mustContain(t, r.Body, "Wrong password")
	if h.game("dt").Settings.NMR {
		t.Fatal("SET NMR applied after a wrong master password")
	}
}

func TestPasswordsNeverEchoed(t *testing.T) {
	h := newHarness(t)
	mails := h.mail(testMaster, "x", "CREATE ?pg s3cretcreate")
	mails = append(mails, h.confirm(testMaster, "x", "CREATE ?pg s3cretcreate")...)
	mails = append(mails, h.mail("a@example.org", "x", "SIGNON ?pg s3cretjoin")...)
	mails = append(mails, h.join("a@example.org", "pg", "s3cretjoin", "", "")...)
	mails = append(mails, h.mail("a@example.org", "x", "SIGNON ?pg s3cretjoin\nSET PASSWORD s3cretnew")...)
	mails = append(mails, h.mail("o@example.org", "x", "OBSERVE pg s3cretobserve")...)
	mails = append(mails, h.observe("o@example.org", "pg", "s3cretobserve", "SET PASSWORD s3cretother")...)
	for _, m := range mails {
		mustNotContain(t, m.Body, "s3cret")
		mustNotContain(t, m.Subject, "s3cret")
	}
	mustContain(t, mails[0].Body, "> CREATE ?pg ********")
}

func TestUnknownCommandsAndOptions(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", "SET COLOUR blue\nSET NMR\nPROCESS"), "france@example.org")
	mustContain(t, r.Body,
		"Error (line 2): Unknown option SET COLOUR. The options are PASSWORD, WAIT",
		"Error (line 3): Only the master of 'dt' may SET NMR.",
		"Error (line 4): Only the master of 'dt' may PROCESS.")
	if g := h.game("dt"); g.Settings.NMR || g.Turn != 0 {
		t.Fatal("a player's master command was applied")
	}
}

func TestStripSubject(t *testing.T) {
	tests := []struct{ in, want string }{
		{"orders", "orders"},
		{"Re: orders", "orders"},
		{"RE: re:  orders", "orders"},
		{"Re: GMD:dt - S1901M orders", "orders"},
		{"Re: [Error Flag] GMD:dt - F1901M Re: GMD:dt - S1901M my moves", "my moves"},
		{"Re: [You are late!] GMD:dt - S1902M", ""},
		{"Re: GMD hello", "hello"},
		{"GMDish plans", "GMDish plans"},
		{"Re: USEF:dt - S1901M x", "USEF:dt - S1901M x"},
		{"line\r\nBcc: evil@example.org", "line Bcc: evil@example.org"},
	}
	for _, tt := range tests {
		if got := stripSubject(tt.in, "GMD"); got != tt.want {
			t.Errorf("stripSubject(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRepliesDoNotPileUp(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", "A Par - Bur"), "france@example.org")
	r2 := onlyTo(t, h.mail("france@example.org", r.Subject, "SIGNON Fdt pw-f"), "france@example.org")
	if r2.Subject != "Re: GMD:dt - S1901M orders" {
		t.Fatalf("subject of the reply to a reply: %q", r2.Subject)
	}
	if r2.InReplyTo == "" {
		t.Error("reply has no In-Reply-To")
	}
}

func TestMailLimits(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", strings.Repeat("LIST\n", maxCommands+5)), "france@example.org")
	mustContain(t, r.Body, "Error (line 101): Too many commands in one mail: only the first 100 were read.")
	if n := strings.Count(r.Body, "> LIST"); n != maxCommands-1 {
		t.Errorf("%d LIST done, want %d", n, maxCommands-1)
	}
	r = onlyTo(t, h.orders("dt", "F", strings.Repeat("A Par - Bur\n", maxOrders+1)), "france@example.org")
	mustContain(t, r.Body, "Too many orders: only the first 200 were read.")

	// Lines of orders, counted over the whole mail, blank lines free:
	// 300 lines of nonsense, a command, 300 more and a good order. Line
	// 1 is the sign-on.
	junk := strings.Repeat("Greetings, how are you?\n\n", 300)
	r = onlyTo(t, h.orders("dt", "F", junk+"LIST dt\n"+junk+"A Par - Bur\n"), "france@example.org")
	mustContain(t, r.Body, "Error (line 1003): Too many lines of orders in one mail: only the first 500 were read.\n",
		"Error (line 1001): Greetings")
	mustNotContain(t, r.Body, "Error (line 1003): Greetings", "A Par -> Bur")
	if n := strings.Count(r.Body, "Greetings, how are you?: "); n != maxOrderLines {
		t.Errorf("%d bad lines reported, want %d", n, maxOrderLines)
	}
}

// FuzzHandle sends arbitrary mail bodies and subjects, signed on as
// France or as the master of a started game: no mail may make Handle fail
// or panic, every mail gets exactly one reply, and no mail queued has
// header fields that mail.Compose would refuse or that the sender wrote.
func FuzzHandle(f *testing.F) {
	for _, seed := range []string{
		"A Par - Bur\nF Bre - Mao", "PRESS TO EG\nhi\nENDPRESS", "SET ABSENCE 24 Dec TO 2 Jan", "BROADCAST GREY\nx",
		"SET PREFERENCE [[[", "PRESS TO ALL BUT\nx\nENDPRESS", "LIST dt\nHISTORY dt S1901M\nSUMMARY dt", "SET ZONE ../../etc/passwd",
		"BECOME France\nA Par H", "RESIGN", "Build A Par\nwaive\nA Mun", "SIGNON Fdt pw-f", "CREATE ?x y z w v",
	} {
		f.Add(seed, "fuzz", false)
		f.Add(seed, "Re: GMD:dt - S1901M orders\r\nBcc: victim@example.net", true)
	}
	h := newHarness(f)
	h.startStandard("dt")
	n := 0
	f.Fuzz(func(t *testing.T, body, subject string, master bool) {
		h.t = t
		n++
		from, signon := "france@example.org", "SIGNON Fdt pw-f\n"
		if master {
			from, signon = testMaster, "SIGNON Mdt pw-m\n"
		}
		before := h.lastID()
		in := &Mail{From: from, Subject: subject, Body: signon + body, MessageID: fmt.Sprintf("<fuzz.%d@example.org>", n)}
		if err := h.m.Handle(in, h.now); err != nil {
			t.Fatalf("Handle: %v", err)
		}
		replies := 0
		queued := h.since(before)
		checkHeaders(t, queued)
		for _, m := range queued {
			if strings.HasPrefix(m.Subject, "Re: ") && len(m.To) == 1 && m.To[0] == from {
				replies++
			}
		}
		if replies != 1 {
			t.Fatalf("%d replies", replies)
		}
		// An empty outbox keeps every run as fast as the first.
		err := h.m.DB().Update(func(tx *state.Tx) error {
			box, err := tx.Outbox(0)
			for _, m := range box {
				if err == nil {
					err = tx.DeleteOutMail(m.ID)
				}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// TestMaxLineLength checks Config.MaxLineLength: a command or order line
// over it is refused with its line number and never echoed, the lines
// around it are read, and press text is not held to it.
func TestMaxLineLength(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.m.cfg.MaxLineLength = 100
	junk := "A Mar - Spa " + strings.Repeat("and then some ", 10) // 151 bytes, trimmed
	got := h.mail("france@example.org", "orders", "SIGNON Fdt pw-f\nA Par - Bur\n"+junk+"\nF Bre - Mao\nLIST dt "+strings.Repeat("x", 100)+"\n")
	r := onlyTo(t, got, "france@example.org")
	mustContain(t, r.Body,
		"Error (line 3): The line is 151 bytes long, and this judge reads lines of at most 100 bytes: it was not read.",
		"Error (line 5): The line is 108 bytes long, and this judge reads lines of at most 100 bytes: it was not read.")
	mustNotContain(t, r.Body, "and then some", "xxxxxxxxxx")
	g := h.game("dt")
	if orders := strings.ToLower(strings.Join(g.Orders["France"], "\n")); !strings.Contains(orders, "a par - bur") || !strings.Contains(orders, "f bre - mao") || strings.Contains(orders, "mar") {
		t.Errorf("France's orders:\n%s\nwant Par - Bur and Bre - Mao only", orders)
	}

	// A paragraph of press is one long line from most mail clients.
	long := strings.Repeat("Let us talk about Belgium. ", 10)
	got = h.mail("france@example.org", "press", "SIGNON Fdt pw-f\nBROADCAST\n"+long+"\nENDPRESS\n")
	if de := mailsTo(got, "germany@example.org"); len(de) != 1 || !strings.Contains(de[0].Body, strings.TrimSpace(long)) {
		t.Errorf("a long line of press did not reach Germany whole: %d mails", len(de))
	}
}
