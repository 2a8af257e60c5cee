package session

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/mail"
	"github.com/gmdjudge/gmd/state"
)

// gunboatSeats are the players of the gunboat game: addresses that hold
// a name, which no mail but their own may show.
var gunboatSeats = []struct{ Letter, Addr, Name, Pass string }{
	{"A", "anna.quist@mail.example", "anna.quist", "pw-a"},
	{"E", "bert.ulm@post.example", "bert.ulm", "pw-e"},
	{"F", "carla.vance@mail.example", "carla.vance", "pw-f"},
	{"G", "dirk.wolde@post.example", "dirk.wolde", "pw-g"},
	{"I", "elsa.xu@mail.example", "elsa.xu", "pw-i"},
	{"R", "fritz.yates@post.example", "fritz.yates", "pw-r"},
	{"T", "greta.zorn@mail.example", "greta.zorn", "pw-t"},
}

// The master, an observer, a newcomer who takes over England, and an
// outsider of the gunboat game.
const (
	gbMaster    = "hidden.master@judges.example"
	gbObserver  = "olga.peek@watch.example"
	gbNewcomer  = "nils.late@post.example"
	gbOutsider  = "otto.side@else.example"
	gbMasterPwd = "pw-master"
)

// TestGunboatGame plays a gunboat game from its CREATE to the master's
// REVEAL, with every command that lists or tells about players, press,
// a resignation and a takeover, late notices, phases processed and the
// final summary, and then reads every mail the judge queued, with its
// headers as composed for sending: none shows a player's, the master's
// or the observer's address or name to anyone else (the master may see
// them all) until REVEAL, and each went to one address alone.
func TestGunboatGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	as := func(addr, body string) []*state.OutMail { h.t.Helper(); return h.mail(addr, "gb", body) }
	player := func(letter, body string) []*state.OutMail {
		for _, s := range gunboatSeats {
			if s.Letter == letter {
				return as(s.Addr, "SIGNON "+s.Letter+"gb "+s.Pass+"\n"+body)
			}
		}
		panic(letter)
	}
	const lookAround = "LIST\nLIST gb\nSUMMARY gb\nHISTORY gb\n"

	r := onlyTo(t, h.confirm(gbMaster, "new", "CREATE ?gb "+gbMasterPwd+" gunboat standard"), gbMaster)
	mustContain(t, r.Body, "Game 'gb' created", "no press", "gunboat (the players are anonymous)")
	// Joining, and looking at the game while it forms.
	for i, s := range gunboatSeats {
		more := ""
		if i == 1 {
			more = lookAround
		}
		h.join(s.Addr, "gb", s.Pass, s.Letter, more)
		if i == 2 {
			h.observe(gbObserver, "gb", "pw-o", lookAround)
			as(gbOutsider, lookAround)
		}
	}
	g := h.game("gb")
	if g.Status != state.Active || !g.Settings.Gunboat || g.Settings.Press != "none" {
		t.Fatalf("game after the joins: %s, gunboat %v, press %q", g.Status, g.Settings.Gunboat, g.Settings.Press)
	}
	// Press is off until the master turns it on.
	r = replyTo(t, player("F", "BROADCAST\nbonjour\nENDPRESS"), gunboatSeats[2].Addr)
	mustContain(t, r.Body, "has no press between powers")
	// The master sees who plays; gunboat cannot change once started.
	r = replyTo(t, as(gbMaster, "SIGNON Mgb "+gbMasterPwd+"\nSET PRESS WHITE\nSET NOGUNBOAT\n"+lookAround), gbMaster)
	mustContain(t, r.Body, "Game 'gb' has started: gunboat is set before the start.", gunboatSeats[0].Addr, gunboatSeats[6].Addr)

	// Spring 1901: orders, press of every kind, and the listings.
	for i, s := range gunboatSeats {
		next := gunboatSeats[(i+1)%len(gunboatSeats)]
		player(s.Letter, secretOrders[s.Letter]+"\nPRESS TO "+next.Letter+"\nhello\nENDPRESS\nBROADCAST\nhi all\nENDPRESS\n"+
			"PRESS TO M\nto the master\nENDPRESS\n"+lookAround)
	}
	as(gbObserver, "OBSERVE gb pw-o\nPRESS TO M\nfrom the observer\nENDPRESS\n"+lookAround)
	as(gbMaster, "SIGNON Mgb "+gbMasterPwd+"\nBROADCAST\nfrom the master\nENDPRESS\nPROCESS")
	// Fall 1901: the late notices, then the master processes it.
	h.advance(4 * 24 * time.Hour)
	h.tick()
	as(gbMaster, "SIGNON Mgb "+gbMasterPwd+"\nPROCESS")
	// England resigns; a newcomer takes the seat over.
	player("E", "RESIGN")
	h.confirm(gbNewcomer, "takeover", "SIGNON Egb pw-new")
	if g := h.game("gb"); g.Players[engine.PlayerByPower(g, "England")].Addr != gbNewcomer {
		t.Fatalf("England is played by %s", g.Players[engine.PlayerByPower(g, "England")].Addr)
	}
	as(gbMaster, "SIGNON Mgb "+gbMasterPwd+"\nPROCESS\nEJECT Italy")
	as(gbNewcomer, "SIGNON Egb pw-new\n"+lookAround+"HISTORY gb S1901M")
	// The end, and the summary.
	r = replyTo(t, as(gbMaster, "SIGNON Mgb "+gbMasterPwd+"\nREVEAL\nTERMINATE"), gbMaster)
	mustContain(t, r.Body, "is active: the players of a gunboat game are revealed once it is over")
	as(gbOutsider, lookAround)
	beforeReveal := h.lastID()

	revealed := as(gbMaster, "SIGNON Mgb "+gbMasterPwd+"\nREVEAL")
	if !h.game("gb").Revealed {
		t.Fatal("REVEAL did not reveal the players")
	}
	// Everyone in the game gets the reveal, with every player in it.
	for _, addr := range []string{gunboatSeats[0].Addr, gbNewcomer, gbObserver} {
		var found bool
		for _, m := range mailsTo(revealed, addr) {
			if strings.HasSuffix(m.Subject, "Players Revealed") {
				found = true
				mustContain(t, m.Body, gbNewcomer, gunboatSeats[0].Addr, gunboatSeats[6].Addr, gbMaster)
			}
		}
		if !found {
			t.Errorf("no reveal to %s", addr)
		}
	}
	r = replyTo(t, as(gbOutsider, "LIST gb"), gbOutsider)
	mustContain(t, r.Body, gbNewcomer, gunboatSeats[6].Addr)

	// Every mail before the reveal: no one's address or name reaches
	// anyone else, the master excepted, and each goes to one address.
	type who struct{ addr, name string }
	people := []who{{gbMaster, "hidden.master"}, {gbObserver, "olga.peek"}, {gbNewcomer, "nils.late"}}
	for _, s := range gunboatSeats {
		people = append(people, who{s.Addr, s.Name})
	}
	mails, checked := 0, map[string]int{}
	for _, m := range h.outbox() {
		if m.ID > beforeReveal {
			break
		}
		mails++
		if len(m.To) != 1 {
			t.Errorf("mail %q went to %d addresses together: %q", m.Subject, len(m.To), m.To)
		}
		var composed bytes.Buffer
		if err := mail.Compose(&composed, m, "Judge <"+testJudge+">", testStart); err != nil {
			t.Fatal(err)
		}
		text := strings.ToLower(composed.String() + "\n" + m.Subject + "\n" + m.Body)
		for _, to := range m.To {
			if to == gbMaster {
				continue
			}
			checked[to]++
			for _, p := range people {
				if p.addr == to {
					continue
				}
				if strings.Contains(text, p.addr) || strings.Contains(text, p.name) {
					t.Errorf("mail %q to %s shows %s:\n%s", m.Subject, to, p.addr, m.Body)
				}
			}
		}
	}
	// The walk saw mails of every kind, to everyone.
	if mails < 150 {
		t.Errorf("only %d mails before the reveal", mails)
	}
	for _, p := range append(people[1:], who{gbOutsider, ""}) {
		if checked[p.addr] < 2 {
			t.Errorf("%s got %d mails: the walk checked too little", p.addr, checked[p.addr])
		}
	}
	var subjects []string
	for _, m := range h.outbox() {
		subjects = append(subjects, m.Subject)
	}
	all := strings.Join(subjects, "\n")
	for _, kind := range []string{"Game Starting", "Results", "Late Notice", "Resignation", "Takeover of", "Ejection",
		"Parameter Change", "Broadcast from", "Press from", "Game Terminated", "Game Over"} {
		if !strings.Contains(all, kind) {
			t.Errorf("no %q mail: the game did not send every kind", kind)
		}
	}
}

// TestSetGunboat: the master makes a forming game gunboat with SET
// GUNBOAT, which turns press off and tells the players; SET NOGUNBOAT
// undoes it only while nobody has joined, since those who joined were
// promised anonymity; a player may not set it.
func TestSetGunboat(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.create("dt")
	master := func(body string) string {
		return replyTo(t, h.mail(testMaster, "set", "SIGNON Mdt "+testMasterPass+"\n"+body), testMaster).Body
	}
	mustContain(t, master("SET GUNBOAT"), engine.GunboatOn)
	if st := h.game("dt").Settings; !st.Gunboat || st.Press != "none" {
		t.Fatalf("after SET GUNBOAT: %+v", st)
	}
	mustContain(t, master("SET NO GUNBOAT"), "The game is not gunboat")
	mustContain(t, master("SET PRESS GREY\nSET GUNBOAT\nSET PRESS GREY"), engine.GunboatOn, "Press is grey")
	if st := h.game("dt").Settings; !st.Gunboat || st.Press != "grey" {
		t.Fatalf("press set after gunboat: %+v", st)
	}
	got := h.join("austria@example.org", "dt", "pw-a", "A", "SET GUNBOAT")
	mustContain(t, replyTo(t, got, "austria@example.org").Body, "Only the master of 'dt' may SET GUNBOAT.")
	mustContain(t, master("SET NOGUNBOAT"), "Players have joined 'dt' as a gunboat game: it stays gunboat.")
	mustContain(t, master("SET GUNBOAT"), "It already was: nothing changed.")
	if !h.game("dt").Settings.Gunboat {
		t.Fatal("the game stopped being gunboat")
	}
}

// TestRevealedGameStaysOver is the attack of issue 18 (item 4): a gunboat
// game TERMINATEd, REVEALed and then rolled back was a live game whose
// every player's address LIST showed to outsiders. A revealed game cannot
// be rolled back (the addresses were mailed to everyone in it, and no
// rollback can take that back); one that was not revealed still can, and
// stays anonymous.
func TestRevealedGameStaysOver(t *testing.T) {
	h := newHarness(t)
	mustContain(t, onlyTo(t, h.confirm(gbMaster, "new", "CREATE ?gb "+gbMasterPwd+" gunboat"), gbMaster).Body, "Game 'gb' created")
	for _, s := range gunboatSeats {
		h.join(s.Addr, "gb", s.Pass, s.Letter, "")
	}
	master := func(body string) string {
		return replyTo(t, h.mail(gbMaster, "gb", "SIGNON Mgb "+gbMasterPwd+"\n"+body), gbMaster).Body
	}
	listed := func() string {
		return replyTo(t, h.mail(gbOutsider, "list", "LIST gb\nLIST"), gbOutsider).Body
	}
	mustContain(t, master("PROCESS"), "processed")

	// Without REVEAL, TERMINATE and ROLLBACK give the game back, still
	// anonymous.
	mustContain(t, master("TERMINATE\nROLLBACK"), "rolled back")
	if g := h.game("gb"); g.Status != state.Active || g.Revealed {
		t.Fatalf("after TERMINATE and ROLLBACK: %s, revealed %v", g.Status, g.Revealed)
	}
	for _, s := range gunboatSeats {
		mustNotContain(t, listed(), s.Addr, s.Name)
	}

	// With REVEAL between them, the ROLLBACK is refused and the game
	// stays over.
	mustContain(t, master("PROCESS\nTERMINATE\nREVEAL"), "revealed to everyone")
	id := h.lastID()
	r := master("ROLLBACK")
	mustContain(t, r, "The players of gunboat game 'gb' were revealed: it cannot be rolled back")
	mustNotContain(t, r, "rolled back;")
	if sent := h.since(id); len(sent) != 1 {
		t.Errorf("a refused ROLLBACK sent %d mails", len(sent))
	}
	mustContain(t, master("ROLLBACK S1901M"), "cannot be rolled back")
	if g := h.game("gb"); g.Status != state.Finished || !g.Revealed || g.Turn != 1 {
		t.Errorf("after REVEAL and ROLLBACK: %s, revealed %v, turn %d", g.Status, g.Revealed, g.Turn)
	}
}
