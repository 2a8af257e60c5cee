package session

import (
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// Starting and running a game (issue 24): FORCE BEGIN, the players' own
// PAUSE and EXTEND, co-masters.

func TestForceBegin(t *testing.T) {
	h := newHarness(t)
	h.create("empty")
	mustContain(t, h.masterMail("empty", "FORCE BEGIN"), "Nobody has joined 'empty' yet")

	h.create("dt")
	for _, s := range standardSeats[:3] { // Austria, England, France
		h.join(s.Addr, "dt", s.Pass, s.Letter, "")
	}
	r := replyTo(t, h.mail("austria@example.org", "x", "SIGNON ?dt pw-a\nFORCE BEGIN"), "austria@example.org").Body
	mustContain(t, r, "Only the master of 'dt' may FORCE.")
	mustContain(t, h.masterMail("dt", "FORCE"), "Use: FORCE BEGIN")
	h.forged(testMaster, "SIGNON Mdt", "FORCE BEGIN")
	if g := h.game("dt"); g.Status != state.Forming {
		t.Fatalf("refused FORCE BEGINs started the game: %s", g.Status)
	}

	got := h.mail(testMaster, "begin", "SIGNON Mdt "+testMasterPass+"\nFORCE BEGIN")
	r = replyTo(t, got, testMaster).Body
	mustContain(t, r, "Game 'dt' has started without players for Germany, Italy, Russia and Turkey")
	g := h.game("dt")
	if g.Status != state.Active || len(g.Players) != 7 {
		t.Fatalf("after FORCE BEGIN: %s, %d seats", g.Status, len(g.Players))
	}
	for _, p := range g.Players {
		empty := strings.Contains("Germany Italy Russia Turkey", p.Power)
		if p.Empty != empty || empty && (p.Status != state.Abandoned || p.Addr != "") || !empty && p.Status != state.Playing {
			t.Errorf("seat %s: empty %v, status %s, address %q", p.Power, p.Empty, p.Status, p.Addr)
		}
	}
	start := onlyTo(t, got, "france@example.org").Body
	mustContain(t, start, "Germany:   nobody yet: free for takeover", "France:    france@example.org")
	t.Logf("France's start mail:\n%s", start)
	for _, m := range got {
		for _, to := range m.To {
			if to == "" {
				t.Errorf("a mail to an empty seat's address: %s", m.Subject)
			}
		}
	}
	mustContain(t, h.masterMail("dt", "FORCE BEGIN"), "Game 'dt' has started already.")

	mustContain(t, h.masterMail("dt", "LIST dt"), "Germany:   nobody yet  (abandoned)")
	mustContain(t, h.masterMail("dt", "WHO GAME dt"), "Germany:   nobody yet (free for takeover)")

	// A replacement takes an empty seat as any abandoned one, with a
	// code mailed to their address.
	got = h.confirm("newcomer@example.org", "take", "SIGNON Gdt pw-new")
	mustContain(t, replyTo(t, got, "newcomer@example.org").Body, "You have taken over Germany in game 'dt'")
	p := h.seatIn("dt", "Germany")
	if p.Empty || p.Status != state.Playing || p.Addr != "newcomer@example.org" {
		t.Fatalf("Germany after the takeover: empty %v, %s, %q", p.Empty, p.Status, p.Addr)
	}
	// The seats still empty hold the phase, as abandoned seats do: the
	// players' orders alone do not process it.
	for _, l := range []string{"A", "E", "F"} {
		h.orders("dt", l, "")
	}
	h.mail("newcomer@example.org", "x", "SIGNON Gdt pw-new")
	h.tick()
	if g := h.game("dt"); g.Turn != 0 {
		t.Fatalf("the phase was processed with Italy, Russia and Turkey empty")
	}
}

func TestPlayerPause(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("watcher@example.org", "dt", "pw-o", "")
	mustContain(t, h.playerReply("dt", "F", "PAUSE"), "the master has not let the players pause it (SET PLAYER PAUSE)")
	mustContain(t, h.playerReply("dt", "F", "SET PLAYER PAUSE"), "Only the master of 'dt' may SET PLAYER.")
	mustContain(t, h.masterMail("dt", "SET PLAYER"), "Use: SET PLAYER PAUSE or SET NOPLAYER PAUSE.")
	h.forged(testMaster, "SIGNON Mdt", "SET PLAYER PAUSE")
	if h.game("dt").Settings.PlayerPause {
		t.Fatal("a refused SET PLAYER PAUSE was stored")
	}
	got := h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nSET PLAYER PAUSE")
	mustContain(t, onlyTo(t, got, "turkey@example.org").Body, "The players may pause the game")
	mustContain(t, h.masterMail("dt", "LIST dt"), "the players may pause")
	r := replyTo(t, h.mail("watcher@example.org", "x", "OBSERVE dt pw-o\nPAUSE"), "watcher@example.org").Body
	mustContain(t, r, "Only a player signed on as a power may ask for a pause.")
	h.forged("france@example.org", "SIGNON Fdt", "PAUSE")
	if h.seatIn("dt", "France").Pause {
		t.Fatal("a forged PAUSE was stored")
	}

	// Turkey leaves: the six others asking pause the game.
	h.orders("dt", "T", "RESIGN")
	for _, l := range []string{"A", "E", "F", "G", "I"} {
		r := h.playerReply("dt", l, "PAUSE")
		mustContain(t, r, "It pauses when every active player asks for it")
	}
	if g := h.game("dt"); g.Status != state.Active {
		t.Fatal("five requests of six paused the game")
	}
	got = h.orders("dt", "R", "PAUSE")
	g := h.game("dt")
	if g.Status != state.Paused || !g.PlayersPaused {
		t.Fatalf("after every request: %s, players paused %v", g.Status, g.PlayersPaused)
	}
	notice := onlyTo(t, got, "england@example.org")
	mustContain(t, notice.Body, "Game 'dt' has been paused by its players: every active player asked for it.")
	t.Logf("the pause notice:\n%s", notice.Body)
	mustContain(t, h.playerReply("dt", "F", "PAUSE"), "Game 'dt' is paused already.")

	// Any player may resume a game its players paused.
	got = h.orders("dt", "F", "RESUME")
	if g := h.game("dt"); g.Status != state.Active || g.PlayersPaused {
		t.Fatalf("after France's RESUME: %s, players paused %v", g.Status, g.PlayersPaused)
	}
	mustContain(t, onlyTo(t, got, "england@example.org").Body, "Game 'dt' has been resumed by France.")
	for _, p := range h.game("dt").Players {
		if p.Pause {
			t.Errorf("%s still asks for a pause after the pause", p.Power)
		}
	}
	// A master's pause is the master's to lift.
	mustContain(t, h.playerReply("dt", "F", "RESUME"), "Game 'dt' is not paused.")
	h.masterMail("dt", "PAUSE")
	mustContain(t, h.playerReply("dt", "F", "RESUME"), "The master paused 'dt': only the master may resume it.")
	h.masterMail("dt", "RESUME")
	// A request lasts one phase.
	h.playerReply("dt", "F", "PAUSE")
	h.masterMail("dt", "PROCESS")
	if h.seatIn("dt", "France").Pause {
		t.Fatal("a processed phase left France's request")
	}
}

func TestExtend(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	mustContain(t, h.playerReply("dt", "F", "EXTEND 24"), "The master of 'dt' allows no extensions (SET EXTENSIONS).")
	for _, c := range []struct{ body, want string }{
		{"SET EXTENSIONS 11", "from 0 (none) to 10"},
		{"SET EXTENSIONS some", "Use: SET EXTENSIONS n"},
	} {
		mustContain(t, h.masterMail("dt", c.body), c.want)
	}
	mustContain(t, h.playerReply("dt", "F", "SET EXTENSIONS 2"), "Only the master of 'dt' may SET EXTENSIONS.")
	got := h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nSET EXTENSIONS 2")
	mustContain(t, onlyTo(t, got, "turkey@example.org").Body, "Each power may EXTEND a deadline 2 times in the game, once a phase and by at most 48 hours.")
	mustContain(t, h.masterMail("dt", "LIST dt"), "2 extensions of a deadline per power")

	for _, c := range []struct{ body, want string }{
		{"EXTEND", "Use: EXTEND hours, from 1 to 48"},
		{"EXTEND soon", "Use: EXTEND hours"},
		{"EXTEND 0", "An extension is from 1 to 48 hours: 0 is not."},
		{"EXTEND 49", "An extension is from 1 to 48 hours: 49 is not."},
		{"EXTEND 12 days", "Use: EXTEND hours"},
	} {
		mustContain(t, h.playerReply("dt", "F", c.body), c.want)
	}
	r := replyTo(t, h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nEXTEND 12"), testMaster).Body
	mustContain(t, r, "Only a player signed on as a power may EXTEND a deadline.")
	h.forged("france@example.org", "SIGNON Fdt", "EXTEND 12")
	before := h.game("dt").Deadline
	if !before.Equal(testStart.Add(72 * time.Hour)) {
		t.Fatalf("refused EXTENDs moved the deadline to %v", before)
	}

	got = h.orders("dt", "F", "EXTEND 24 hours")
	g := h.game("dt")
	if !g.Deadline.Equal(before.Add(24 * time.Hour)) {
		t.Fatalf("deadline %v after EXTEND 24, want %v", g.Deadline, before.Add(24*time.Hour))
	}
	mustContain(t, replyTo(t, got, "france@example.org").Body, "France has 1 extension left in this game.")
	notice := onlyTo(t, got, "england@example.org")
	mustContain(t, notice.Body, "France has extended the deadline of game 'dt' by 1 day (EXTEND).", "The deadline for orders is now Fri Jan 09 2026 12:00:00 +0000.")
	t.Logf("the notice:\n%s", notice.Body)
	mustContain(t, h.playerReply("dt", "F", "EXTEND 1"), "France has extended this phase's deadline already: once a phase.")
	// Another power has its own.
	h.orders("dt", "G", "EXTEND 1")
	if d := h.game("dt").Deadline; !d.Equal(before.Add(25 * time.Hour)) {
		t.Fatalf("deadline %v after Germany's EXTEND 1", d)
	}

	// No deadline runs in a paused game.
	h.masterMail("dt", "PAUSE")
	mustContain(t, h.playerReply("dt", "E", "EXTEND 12"), "Game 'dt' is paused: there is no deadline to extend.")
	h.masterMail("dt", "RESUME")

	// A deadline past (in the grace) is extended from now.
	h.now = h.game("dt").Deadline.Add(2 * time.Hour)
	h.masterMail("dt", "PROCESS")
	h.now = h.game("dt").Deadline.Add(time.Hour)
	h.orders("dt", "F", "EXTEND 48")
	if d := h.game("dt").Deadline; !d.Equal(h.now.Add(48 * time.Hour)) {
		t.Fatalf("deadline %v after EXTEND 48 an hour past the deadline, want %v", d, h.now.Add(48*time.Hour))
	}
	h.masterMail("dt", "PROCESS")
	mustContain(t, h.playerReply("dt", "F", "EXTEND 1"), "France has used its 2 extensions in this game.")
}

func TestCoMasters(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("helper@example.org", "dt", "pw-h", "")
	h.observe("other@example.org", "dt", "pw-x", "")
	signonH := "SIGNON Mdt pw-h\n"

	mustContain(t, h.playerReply("dt", "F", "PROMOTE helper@example.org"), "Only the master of 'dt' may PROMOTE.")
	for _, c := range []struct{ body, want string }{
		{"PROMOTE", "Use: PROMOTE address"},
		{"PROMOTE stranger@example.org", "stranger@example.org does not observe 'dt'"},
		{"PROMOTE " + testMaster, "is the master of 'dt' already"},
		{"DEMOTE helper@example.org", "helper@example.org is no co-master of 'dt'."},
	} {
		mustContain(t, h.masterMail("dt", c.body), c.want)
	}
	h.forged(testMaster, "SIGNON Mdt", "PROMOTE helper@example.org")
	// Before any PROMOTE, the helper's own password is no master's.
	mustContain(t, replyTo(t, h.mail("helper@example.org", "x", signonH), "helper@example.org").Body, "Wrong password")

	got := h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nPROMOTE helper@example.org")
	mustContain(t, replyTo(t, got, testMaster).Body, "helper@example.org is asked to be a co-master of 'dt'")
	offer := onlyTo(t, got, "helper@example.org")
	mustContain(t, offer.Body, "The master of game 'dt' has asked helper@example.org to be a co-master", "SIGNON Mdt <your password>")
	t.Logf("the offer:\n%s", offer.Body)
	code := codeIn(t, offer.Body)

	// A forger with the helper's address but not the password gets
	// nothing; nor does the helper's password without the code.
	mustContain(t, replyTo(t, h.mail("helper@example.org", "x", "CONFIRM "+code+"\nSIGNON Mdt pw-m"), "helper@example.org").Body, "Wrong password")
	r := replyTo(t, h.mail("helper@example.org", "x", signonH+"PAUSE"), "helper@example.org").Body
	mustContain(t, r, "You are observing game 'dt', whose master asked you to be a co-master.", "CONFIRM ")
	if g := h.game("dt"); g.Status != state.Active {
		t.Fatal("a co-master not yet confirmed paused the game")
	}
	// With the code: a co-master, and the creator is told.
	got = h.mail("helper@example.org", "x", "CONFIRM "+code+"\n"+signonH)
	mustContain(t, replyTo(t, got, "helper@example.org").Body, "You are now a co-master of game 'dt'", "Signed on as a co-master of 'dt'.")
	accepted := onlyTo(t, mailsTo(got, testMaster), testMaster)
	mustContain(t, accepted.Body, "helper@example.org has accepted to be a co-master of game 'dt'")
	if o := h.game("dt").Observers[engine.ObserverByAddr(h.game("dt"), "helper@example.org")]; !o.CoMaster || o.Promoted {
		t.Fatalf("helper: co-master %v, promoted %v", o.CoMaster, o.Promoted)
	}

	// A co-master has the master's commands, but not PROMOTE, DEMOTE, the
	// removal of a co-master, nor the creator's password.
	h.mail("helper@example.org", "x", signonH+"PAUSE")
	if g := h.game("dt"); g.Status != state.Paused {
		t.Fatalf("the co-master's PAUSE left the game %s", g.Status)
	}
	for _, c := range []struct{ body, want string }{
		{"PROMOTE other@example.org", "Only the creator of 'dt' may PROMOTE"},
		{"DEMOTE helper@example.org", "Only the creator of 'dt' may DEMOTE"},
	} {
		mustContain(t, replyTo(t, h.mail("helper@example.org", "x", signonH+c.body), "helper@example.org").Body, c.want)
	}
	h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nPROMOTE other@example.org")
	h.mail("other@example.org", "x", "CONFIRM "+codeIn(t, replyTo(t, h.mail("other@example.org", "x", "SIGNON Mdt pw-x"), "other@example.org").Body)+"\nSIGNON Mdt pw-x")
	mustContain(t, replyTo(t, h.mail("helper@example.org", "x", signonH+"EJECT other@example.org"), "helper@example.org").Body,
		"other@example.org is a co-master of 'dt': only its creator may remove them")
	h.mail("helper@example.org", "x", signonH+"SET PASSWORD pw-h2")
	mustContain(t, h.masterMail("dt", "RESUME"), "Game 'dt' is resumed")
	mustContain(t, replyTo(t, h.mail("helper@example.org", "x", "SIGNON Mdt pw-h2"), "helper@example.org").Body, "Signed on as a co-master")

	// A forged DEMOTE changes nothing.
	h.forged(testMaster, "SIGNON Mdt", "DEMOTE helper@example.org")
	if o := h.game("dt").Observers[engine.ObserverByAddr(h.game("dt"), "helper@example.org")]; !o.CoMaster {
		t.Fatal("a forged DEMOTE demoted the helper")
	}
	// The creator demotes: the helper is an observer again, and told.
	got = h.mail(testMaster, "x", "SIGNON Mdt "+testMasterPass+"\nDEMOTE helper@example.org")
	mustContain(t, onlyTo(t, got, "helper@example.org").Body, "you are no longer a co-master")
	mustContain(t, replyTo(t, h.mail("helper@example.org", "x", "SIGNON Mdt pw-h2"), "helper@example.org").Body, "Wrong password")
	mustContain(t, replyTo(t, h.mail("helper@example.org", "x", "OBSERVE dt pw-h2"), "helper@example.org").Body, "You are observing game 'dt'.")
	// A co-master may step down.
	r = replyTo(t, h.mail("other@example.org", "x", "SIGNON Mdt pw-x\nRESIGN"), "other@example.org").Body
	mustContain(t, r, "You are no longer a co-master of 'dt'; you still observe it.")
	if o := h.game("dt").Observers[engine.ObserverByAddr(h.game("dt"), "other@example.org")]; o.CoMaster {
		t.Fatal("RESIGN left other a co-master")
	}
}
