package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// registerByMail registers addr under line ("Name[, country...]"),
// confirming the address as its reader does, and returns the reply.
func (h *harness) registerByMail(addr, line string) string {
	h.t.Helper()
	return replyTo(h.t, h.confirm(addr, "reg", "REGISTER "+line), addr).Body
}

// registration returns the registration of addr, nil for none.
func (h *harness) registration(addr string) *state.Registrant {
	h.t.Helper()
	var r *state.Registrant
	err := h.m.DB().View(func(tx *state.Tx) error {
		var err error
		r, err = tx.RegistrantByAddr(addr)
		if err != nil && strings.Contains(err.Error(), "not found") {
			r, err = nil, nil
		}
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

// REGISTER: a code first, to the sender's address only; the code
// registers that address and no other; names are checked, and one that
// looks like another's is refused.
func TestRegister(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const ann, mallory = "ann@example.org", "mallory@evil.example"

	first := replyTo(t, h.mail(ann, "reg", "REGISTER Ann Lee, Belgium, Europe/Brussels, expert"), ann).Body
	mustContain(t, first, "You are not registered yet", "CONFIRM ")
	if h.registration(ann) != nil {
		t.Fatal("registered before the code came back")
	}
	// A forger who writes Ann's address never sees the code; one who
	// uses the code mailed to their own address cannot register Ann.
	code := codeIn(t, replyTo(t, h.mail(mallory, "reg", "REGISTER Ann Lee"), mallory).Body)
	h.mail(ann, "reg", "CONFIRM "+code+"\nREGISTER Ann Lee")
	if h.registration(ann) != nil {
		t.Fatal("a code mailed to another address registered Ann")
	}

	mustContain(t, h.registerByMail(ann, "Ann Lee, Belgium, Europe/Brussels, expert"), "You are registered as 'Ann Lee'")
	r := h.registration("ANN@example.org")
	if r == nil || r.Name != "Ann Lee" || r.Country != "Belgium" || r.Zone != "Europe/Brussels" || r.Level != "expert" || r.ShowAddr {
		t.Fatalf("registration %+v", r)
	}
	mustContain(t, replyTo(t, h.mail(ann, "reg", "REGISTER Other"), ann).Body, "already registered, as 'Ann Lee'")

	// Look-alike names and bad ones are refused before any code is sent.
	for line, want := range map[string]string{
		"Аnn Lее":                  "too like that of the registered player 'Ann Lee'",
		"ANN-LEE":                  "too like",
		"Ann L\u200bee":            "invisible",
		"A":                        "2 to 30 characters",
		"Bob\x07":                  "control",
		"Bob, Belgium, Mars/Olymp": "Unknown time zone",
		"Bob, a, b, c, d":          "Use: REGISTER",
		"":                         "Use: REGISTER",
	} {
		body := replyTo(t, h.mail(mallory, "reg", "REGISTER "+line), mallory).Body
		mustContain(t, body, want)
		mustNotContain(t, body, "CONFIRM ")
	}
	if h.registration(mallory) != nil {
		t.Error("a refused name was registered")
	}
}

// WHOIS answers a bounded list, by the start of the name in any of its
// look-alike spellings, and shows an address only by its owner's leave.
func TestWhoisBoundedAndPrivate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	err := h.m.DB().Update(func(tx *state.Tx) error {
		for i := range whoisLimit + 5 {
			id, _ := tx.NewRegistrantID()
			r := &state.Registrant{ID: id, Name: fmt.Sprintf("Player %c%c", 'a'+i/26, 'a'+i%26), Addr: fmt.Sprintf("p%d@example.org", i), ShowAddr: i == 1}
			r.Fold = strings.ToLower(strings.ReplaceAll(r.Name, " ", ""))
			if err := tx.PutRegistrant(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	body := replyTo(t, h.mail("x@example.org", "w", "WHOIS Play"), "x@example.org").Body
	if n := strings.Count(body, "  Player "); n != whoisLimit {
		t.Errorf("WHOIS listed %d, want %d:\n%s", n, whoisLimit, body)
	}
	mustContain(t, body, fmt.Sprintf("The first %d", whoisLimit), "<p1@example.org>")
	mustNotContain(t, body, "p0@example.org", "p2@example.org")
	mustContain(t, replyTo(t, h.mail("x@example.org", "w", "WHOIS РLAYER AB"), "x@example.org").Body, "Player ab")
	mustContain(t, replyTo(t, h.mail("x@example.org", "w", "WHOIS Zed"), "x@example.org").Body, "No registered player")
	mustContain(t, replyTo(t, h.mail("x@example.org", "w", "WHOIS"), "x@example.org").Body, "Use: WHOIS")
}

// SET SHOW ADDRESS and FORGET ME act on the sender's own registration,
// each confirmed from its address: a forged mail changes nothing.
func TestShowAddressAndForgetMe(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const ann, mallory = "ann@example.org", "mallory@evil.example"
	h.registerByMail(ann, "Ann")
	h.registerByMail(mallory, "Mal")

	// Forged: Mallory's own codes do not fit Ann's requests.
	mcode := codeIn(t, replyTo(t, h.mail(mallory, "s", "SET SHOW ADDRESS"), mallory).Body)
	h.mail(ann, "s", "CONFIRM "+mcode+"\nSET SHOW ADDRESS")
	mcode = codeIn(t, replyTo(t, h.mail(mallory, "f", "FORGET ME"), mallory).Body)
	h.mail(ann, "f", "CONFIRM "+mcode+"\nFORGET ME")
	if r := h.registration(ann); r == nil || r.ShowAddr {
		t.Fatalf("forged mails changed Ann's registration: %+v", r)
	}

	mustContain(t, replyTo(t, h.confirm(ann, "s", "SET SHOW ADDRESS"), ann).Body, "now show your address")
	if r := h.registration(ann); !r.ShowAddr {
		t.Error("SET SHOW ADDRESS did not take")
	}
	mustContain(t, replyTo(t, h.mail("x@example.org", "w", "WHOIS ann"), "x@example.org").Body, "Ann <ann@example.org>")
	// Hiding needs no code: it shows nothing to anyone.
	mustContain(t, replyTo(t, h.mail(ann, "s", "SET HIDE ADDRESS"), ann).Body, "shown to no other player")
	mustNotContain(t, replyTo(t, h.mail("x@example.org", "w", "WHOIS ann"), "x@example.org").Body, "ann@example.org")

	mustContain(t, replyTo(t, h.confirm(ann, "f", "FORGET ME"), ann).Body, "removed from the registry")
	if h.registration(ann) != nil {
		t.Error("FORGET ME left the registration")
	}
	mustContain(t, replyTo(t, h.mail("x@example.org", "w", "WHOIS ann"), "x@example.org").Body, "No registered player")
	mustContain(t, replyTo(t, h.mail(ann, "f", "FORGET ME"), ann).Body, "has no registration")
	// The name is free again, the address may register again.
	mustContain(t, h.registerByMail(ann, "Ann"), "You are registered as 'Ann'")
}

// Every gate refuses a joiner below it, naming the gate and the
// joiner's own figure, and lets in one who meets it.
func TestEntryGatesOnJoin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		set, gate, own string
	}{
		{"SET DEDICATION 10", "DEDICATION", "yours is -49"},
		{"SET ONTIMERAT 0.9", "ONTIMERAT", "yours is 0.71"},
		{"SET RESRAT 0.2", "RESRAT", "yours is 0.33"},
		{"SET MIN GAMES 1", "MIN GAMES", "yours is 0"},
		{"SET REGISTERED", "REGISTERED", "not registered"},
	} {
		t.Run(c.gate, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.create("gt")
			r := replyTo(t, h.mail(testMaster, "g", "SIGNON Mgt "+testMasterPass+"\n"+c.set), testMaster).Body
			mustNotContain(t, r, "Unknown", "Use:")
			// A joiner with a record: 1 on time, 2 late, one resignation.
			const weak, good = "weak@example.org", "good@example.org"
			err := h.m.DB().Update(func(tx *state.Tx) error {
				for _, k := range []state.SeatKind{state.SeatJoined, state.SeatOnTime, state.SeatLate, state.SeatLate, state.SeatResigned} {
					if err := tx.AddSeatEvent(&state.SeatEvent{Addr: weak, Game: "old", Power: "Italy", Kind: k}); err != nil {
						return err
					}
				}
				for _, k := range []state.SeatKind{state.SeatJoined, state.SeatOnTime, state.SeatOnTime, state.SeatOnTime, state.SeatOnTime, state.SeatFinished} {
					if err := tx.AddSeatEvent(&state.SeatEvent{Addr: good, Game: "old", Power: "Italy", Kind: k}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			body := replyTo(t, h.mail(weak, "j", "SIGNON ?gt pw"), weak).Body
			mustContain(t, body, "You may not join game 'gt'", "set "+c.gate, c.own)
			mustNotContain(t, body, "CONFIRM ")
			h.registerByMail(good, "Good")
			h.join(good, "gt", "pw", "", "")
			if g := h.game("gt"); len(g.Players) != 1 || g.Players[0].Addr != good {
				t.Errorf("players after the joins: %+v", g.Players)
			}
		})
	}
}

// A private game is listed to its members only; INVITE lets in the
// invited alone.
func TestPrivateGameAndInvite(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.create("pv")
	h.create("open")
	const friend, stranger = "friend@example.org", "stranger@example.org"
	r := replyTo(t, h.mail(testMaster, "p", "SIGNON Mpv "+testMasterPass+"\nSET PRIVATE\nINVITE "+friend), testMaster).Body
	mustContain(t, r, "The game is private", "Invited to 'pv': "+friend)

	list := replyTo(t, h.mail(stranger, "l", "LIST"), stranger).Body
	mustContain(t, list, "open")
	mustNotContain(t, list, "pv ")
	for _, cmd := range []string{"LIST pv", "SUMMARY pv", "HISTORY pv", "WHO GAME pv", "OBSERVE pv pw"} {
		mustContain(t, replyTo(t, h.mail(stranger, "l", cmd), stranger).Body, "There is no game named 'pv'")
	}
	mustContain(t, replyTo(t, h.mail(stranger, "j", "SIGNON ?pv pw"), stranger).Body, "by invitation")
	h.join(friend, "pv", "pw", "", "")
	mustContain(t, replyTo(t, h.mail(friend, "l", "LIST"), friend).Body, "pv ")
	mustContain(t, replyTo(t, h.mail(testMaster, "l", "LIST"), testMaster).Body, "pv ")
}

// WHO GAME names the registered players of a game; of a gunboat game,
// to its master only, and to everyone once it ended and was revealed.
func TestWhoGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.create("wg")
	g := h.game("wg")
	g.Settings.Gunboat = true
	h.putGame(g)
	h.registerByMail("austria@example.org", "Archduke")
	joinAll(h, "wg")
	const outsider = "x@example.org"
	mustContain(t, replyTo(t, h.mail(outsider, "w", "WHO GAME wg"), outsider).Body, "is a gunboat game")
	r := replyTo(t, h.mail(testMaster, "w", "SIGNON Mwg "+testMasterPass+"\nWHO GAME wg"), testMaster).Body
	mustContain(t, r, "Austria:", "Archduke", "not registered")
	mustNotContain(t, r, "austria@example.org")
	g = h.game("wg")
	g.Status, g.Revealed = state.Finished, true
	h.putGame(g)
	mustContain(t, replyTo(t, h.mail(outsider, "w", "WHO GAME wg"), outsider).Body, "Archduke")
}

// INFO PLAYER shows the figures and the games that may be linked to
// the player, and no address without the player's leave.
func TestInfoPlayer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startStandard("ip")
	h.registerByMail("france@example.org", "Marianne, France")
	body := replyTo(t, h.mail("x@example.org", "i", "INFO PLAYER marianne"), "x@example.org").Body
	mustContain(t, body, "Marianne (France)", "Seats held 1", "Dedication 0", "on-time ratio 1.00", "Games: ip (France)")
	mustNotContain(t, body, "france@example.org")
	mustContain(t, replyTo(t, h.mail("x@example.org", "i", "INFO PLAYER nobody"), "x@example.org").Body, "No registered player")
	mustContain(t, replyTo(t, h.mail("x@example.org", "i", "INFO marianne"), "x@example.org").Body, "Use: INFO PLAYER")
}

// SET ADDRESS moves a registration only once both addresses confirmed:
// the old by the reply's code, the new by the code mailed to it. A
// forged mail from either side, or the new address asking alone, moves
// nothing; the figures of the old address stay with the registration.
func TestSetAddressBothSides(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const old, nu, mallory = "ann@old.example", "ann@new.example", "mallory@evil.example"
	h.registerByMail(old, "Ann")
	err := h.m.DB().Update(func(tx *state.Tx) error {
		return tx.AddSeatEvent(&state.SeatEvent{Addr: old, Game: "g", Power: "Italy", Kind: state.SeatOnTime})
	})
	if err != nil {
		t.Fatal(err)
	}
	// The new address, or anyone, asking for the registration itself
	// gets no code.
	r := replyTo(t, h.mail(nu, "m", "SET ADDRESS FROM "+old), nu).Body
	mustContain(t, r, "This needs the code")
	mustNotContain(t, r, "CONFIRM ")
	// A forged request in Ann's name sends its code to Ann, not to the
	// forger; Mallory's own code for the same move does not fit.
	got := h.mail(old, "m", "SET ADDRESS "+mallory)
	if len(mailsTo(got, mallory)) != 0 {
		t.Fatal("a request from the old address mailed the new one before it was confirmed")
	}
	h.registerByMail(mallory, "Mal")
	mcode := codeIn(t, replyTo(t, h.mail(mallory, "m", "SET ADDRESS "+nu), mallory).Body)
	if got := h.mail(old, "m", "CONFIRM "+mcode+"\nSET ADDRESS "+nu); len(mailsTo(got, nu)) != 0 {
		t.Fatal("another address's code started the move")
	}

	// The real move: the old address confirms, a code goes to the new.
	got = h.confirm(old, "m", "SET ADDRESS "+nu)
	mustContain(t, replyTo(t, got, old).Body, "A code went to "+nu)
	toNew := onlyTo(t, got, nu)
	mustContain(t, toNew.Body, "SET ADDRESS FROM "+old)
	code := codeIn(t, toNew.Body)
	// The code is the new address's: from anywhere else it fits nothing.
	h.mail(mallory, "m", "CONFIRM "+code+"\nSET ADDRESS FROM "+old)
	if reg := h.registration(old); reg == nil || reg.Addr != old {
		t.Fatalf("the code from another address moved the registration: %+v", reg)
	}
	mustContain(t, replyTo(t, h.mail(nu, "m", "CONFIRM "+code+"\nSET ADDRESS FROM "+old), nu).Body, "answers at "+nu)
	reg := h.registration(nu)
	if reg == nil || reg.Addr != nu || len(reg.Former) != 1 || reg.Former[0] != old {
		t.Fatalf("after the move: %+v", reg)
	}
	// The old address is still the registration's: nobody else may
	// register it, and its figures count.
	mustContain(t, replyTo(t, h.mail(old, "r", "REGISTER Other"), old).Body, "already registered")
	mustContain(t, replyTo(t, h.mail("x@example.org", "i", "INFO PLAYER Ann"), "x@example.org").Body, "phases on time 1")
}

// A flood of registrations, each confirmed from its own mailbox, stops
// at the day's bound; the next day takes them again.
func TestRegistrationFloodBounded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	err := h.m.DB().Update(func(tx *state.Tx) error {
		return tx.PutMeta(registrationsMeta, fmt.Appendf(nil, "%d %d", confirmDayOf(h.now), maxRegistrationsPerDay-1))
	})
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, h.registerByMail("last@example.org", "Last"), "You are registered")
	mustContain(t, h.registerByMail("over@example.org", "Over"), "no more registrations today")
	if h.registration("over@example.org") != nil {
		t.Fatal("a registration past the day's bound was stored")
	}
	h.advance(24 * 3600e9)
	mustContain(t, h.registerByMail("over@example.org", "Over"), "You are registered")
}

// SET APPROVAL: a confirmed join waits for the master's APPROVE (an
// invited address's does not); the last approval starts the game, with
// each player's own password.
func TestApproval(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.create("ap")
	const friend = "austria@example.org"
	mustContain(t, replyTo(t, h.mail(testMaster, "a", "SIGNON Map "+testMasterPass+"\nSET APPROVAL\nINVITE "+friend), testMaster).Body,
		"Each join waits for the master's approval")
	// The invited friend joins at once.
	h.join(friend, "ap", "pw-a", "A", "")
	// Invitations close the game to others: open it again, as a master
	// would by inviting everyone, and the others wait.
	g := h.game("ap")
	g.Entry.Invited = nil
	h.putGame(g)
	for _, s := range standardSeats[1:] {
		got := h.confirm(s.Addr, "join", "SIGNON ?ap "+s.Pass+" "+s.Letter)
		mustContain(t, replyTo(t, got, s.Addr).Body, "waits for its master's approval")
	}
	if g := h.game("ap"); len(g.Players) != 1 || len(g.Entry.Pending) != 6 {
		t.Fatalf("after the joins: %d players, %d waiting", len(g.Players), len(g.Entry.Pending))
	}
	mustContain(t, replyTo(t, h.mail(testMaster, "a", "SIGNON Map "+testMasterPass+"\nAPPROVE"), testMaster).Body, "Waiting for your approval", "france@example.org")
	// Nobody but the master approves.
	mustContain(t, replyTo(t, h.mail("france@example.org", "a", "APPROVE france@example.org"), "france@example.org").Body, "Sign on first")
	var all []string
	for _, s := range standardSeats[1:] {
		all = append(all, s.Addr)
	}
	r := replyTo(t, h.mail(testMaster, "a", "SIGNON Map "+testMasterPass+"\nAPPROVE "+strings.Join(all, " ")), testMaster).Body
	mustContain(t, r, "The game is full and starts now")
	g = h.game("ap")
	if g.Status != state.Active || len(g.Entry.Pending) != 0 {
		t.Fatalf("after the approvals: %s, %d waiting", g.Status, len(g.Entry.Pending))
	}
	// Each signs on with the password they joined with.
	mustContain(t, h.signon("france@example.org", "Fap", "pw-f"), "Signed on as France")
}

// Bad values of the gates, and gates from anyone but the master, are
// refused with a clear answer and change nothing.
func TestEntryGatesRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.create("bad")
	h.join("austria@example.org", "bad", "pw-a", "", "")
	for set, want := range map[string]string{
		"SET DEDICATION ten": "takes a number",
		"SET DEDICATION 1.5": "whole number",
		"SET DEDICATION":     "Use: SET DEDICATION",
		"SET ONTIMERAT 2":    "from 0 to 1",
		"SET ONTIMERAT NaN":  "takes a number",
		"SET RESRAT -0.1":    "from 0 to 1",
		"SET MIN GAMES 2.5":  "whole number",
		"SET MIN GAMES":      "Use: SET MIN GAMES",
		"INVITE not-an-addr": "is not a mail address",
		"INVITE":             "Use: INVITE",
	} {
		r := replyTo(t, h.mail(testMaster, "g", "SIGNON Mbad "+testMasterPass+"\n"+set), testMaster).Body
		mustContain(t, r, want)
	}
	if e := h.game("bad").Entry; e.HasDedication || e.OnTime != 0 || e.HasResign || e.MinGames != 0 || len(e.Invited) != 0 {
		t.Errorf("refused gates changed the game: %+v", e)
	}
	r := replyTo(t, h.mail("austria@example.org", "g", "SIGNON ?bad pw-a\nSET DEDICATION 5\nINVITE x@example.org"), "austria@example.org").Body
	mustContain(t, r, "Only the master of 'bad' may SET DEDICATION", "Only the master of 'bad' may INVITE")
}

// SET JOIN PASSWORD: a joiner gives it after their own password, never
// echoed; guessing it is held by the guard like every password; an
// invited address needs none.
func TestJoinPassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.create("jp")
	const guesser, friend = "guesser@example.org", "friend@example.org"
	r := replyTo(t, h.mail(testMaster, "j", "SIGNON Mjp "+testMasterPass+"\nSET JOIN PASSWORD clubsecret\nINVITE "+friend), testMaster).Body
	mustContain(t, r, "Joining needs the join password")
	mustNotContain(t, r, "clubsecret")
	if len(h.game("jp").Entry.JoinHash) == 0 {
		t.Fatal("no join password stored")
	}
	mustContain(t, replyTo(t, h.mail(guesser, "j", "SIGNON ?jp pw"), guesser).Body, "needs its join password")
	for i := range 5 {
		r := replyTo(t, h.mail(guesser, "j", fmt.Sprintf("SIGNON ?jp pw guess%d", i)), guesser).Body
		mustContain(t, r, "Wrong password")
		mustNotContain(t, r, fmt.Sprintf("guess%d", i))
	}
	// The sixth try is not checked, the right password included.
	r = replyTo(t, h.mail(guesser, "j", "SIGNON ?jp pw clubsecret"), guesser).Body
	mustContain(t, r, "Too many wrong passwords")
	mustNotContain(t, r, "CONFIRM ", "clubsecret")
	// Another player with the password joins, preferences after it.
	got := h.confirm("france@example.org", "j", "SIGNON ?jp pw-f clubsecret F")
	mustContain(t, replyTo(t, got, "france@example.org").Body, "You have joined game 'jp'")
	mustNotContain(t, replyTo(t, got, "france@example.org").Body, "clubsecret")
	if g := h.game("jp"); len(g.Players) != 1 || g.Players[0].Preference != "F" {
		t.Fatalf("players %+v", g.Players)
	}
	h.join(friend, "jp", "pw", "", "")
	mustContain(t, replyTo(t, h.mail(testMaster, "j", "SIGNON Mjp "+testMasterPass+"\nSET JOIN NONE"), testMaster).Body, "needs no join password")
}

// FORGET ME leaves the finished games their seats, named "a former
// player" by WHO GAME, and a running game's seat as it is; a forged FORGET
// ME marks nothing.
func TestForgetMeLeavesAFormerPlayer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const austria, outsider = "austria@example.org", "mallory@evil.example"
	h.registerByMail(austria, "Archduke")
	h.registerByMail(outsider, "Mal")
	for _, name := range []string{"done", "live"} {
		h.create(name)
		joinAll(h, name)
	}
	g := h.game("done")
	g.Status = state.Finished
	h.putGame(g)

	// A forged FORGET ME (the outsider's code, Austria's From) changes nothing.
	code := codeIn(t, replyTo(t, h.mail(outsider, "f", "FORGET ME"), outsider).Body)
	h.mail(austria, "f", "CONFIRM "+code+"\nFORGET ME")
	mustContain(t, replyTo(t, h.mail(outsider, "w", "WHO GAME done"), outsider).Body, "Archduke")

	mustContain(t, replyTo(t, h.confirm(austria, "f", "FORGET ME"), austria).Body, "a former player")
	done := replyTo(t, h.mail(outsider, "w", "WHO GAME done"), outsider).Body
	mustContain(t, done, "Austria:   a former player")
	mustNotContain(t, done, "Archduke", austria)
	live := replyTo(t, h.mail(outsider, "w", "WHO GAME live"), outsider).Body
	mustNotContain(t, live, "a former player", "Archduke")
	for name, want := range map[string]bool{"done": true, "live": false} {
		for _, p := range h.game(name).Players {
			if got := p.Former; got != (want && p.Addr == austria) {
				t.Errorf("%s: %s Former = %v", name, p.Power, got)
			}
		}
	}
}
