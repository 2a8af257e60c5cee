package session

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/jsonpos"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// TestWholeGame is the scripted whole game of issue 3: seven players sign
// on by mail, and three game years are played by mail text alone, on the
// fake clock, with every reply and every mail to the game checked. The
// story, in short:
//
//	1901  Italy whispers to England and Germany; Germany broadcasts.
//	      England, France, Germany, Italy open classically (France with two
//	      bad lines in its mail); Russia and Turkey bounce in the Black Sea.
//	      In the Fall England convoys to Norway, Italy to Tunis, Germany
//	      throws France out of Burgundy and Austria throws Russia out of
//	      Galicia: France retreats, Russia disbands. Everyone builds,
//	      Russia a fleet on the north coast of St Petersburg.
//	1902  Turkey's player vanishes: reminder, late notices, the seat is
//	      abandoned after the grace (NoNMR, the default), a newcomer takes
//	      it over, the clock restarts and the game goes on with their
//	      orders. England takes Brest, so France removes a unit by order;
//	      Germany builds one and waives one.
//	1903  The master sets NMR. Germany takes Paris (France retreats to
//	      Gascony); France sends nothing in the Winter, falls into civil
//	      disorder at the end of the grace, and the judge removes a French
//	      unit by the civil disorder rule (the fleet farthest from home).
//
// The game ends in Spring 1904 with the board checked unit by unit, and
// the history checked phase by phase.
func TestWholeGame(t *testing.T) {
	racetest.Sequential(t) // one mail after another, on one goroutine: the plain pass runs it
	w := newWholeGame(t, "wg")

	// --- Forming: the master creates the game, seven players join. ----------
	// Each first proves that they read their address's mail: the reply
	// to a first mail gives a code, which a second mail sends back.
	r := w.reply(testMaster, "CREATE ?wg "+testMasterPass)
	mustContain(t, r.Body, "Game 'wg' is not created yet.",
		"To create game 'wg', "+testMaster+" must show that it reads this mail: send "+testJudge+" a mail with these two lines",
		"\n  CREATE ?wg <your password>\n")
	r = w.reply(testMaster, "CONFIRM "+codeIn(t, r.Body)+"\nCREATE ?wg "+testMasterPass)
	mustContain(t, r.Body, "Game 'wg' created: Standard", "NoNMR",
		"Players join with SIGNON ?wg password; the game starts when 7 have joined.")
	var start []*state.OutMail
	for i, s := range standardSeats {
		w.h.advance(10 * time.Minute)
		// Each asks for their own power (the letter after the password),
		// so that the seats are known.
		join := fmt.Sprintf("SIGNON ?wg %s %s", s.Pass, s.Letter)
		r := w.reply(s.Addr, join)
		mustContain(t, r.Body, "You have not joined game 'wg' yet.", "\n  SIGNON ?wg <your password> "+s.Letter+"\n")
		got := w.mail(s.Addr, "CONFIRM "+codeIn(t, r.Body)+"\n"+join)
		r = replyTo(t, got, s.Addr)
		if i < 6 {
			if len(got) != 1 {
				t.Fatalf("join %d queued %d mails, want the reply only", i+1, len(got))
			}
			mustContain(t, r.Body, fmt.Sprintf("You have joined game 'wg': %d of 7 players.", i+1))
			if left := 7 - (i + 1); left > 1 {
				mustContain(t, r.Body, fmt.Sprintf("It starts when %d more have joined.", left))
			} else {
				mustContain(t, r.Body, "It starts when 1 more has joined.")
			}
			continue
		}
		mustContain(t, r.Body, "its last player: the game starts now.",
			"You are Turkey; sign on from now on with SIGNON Twg password.",
			// The last joiner's reply already acknowledges Turkey's (no)
			// orders.
			"Orders not received for Fleet Ankara, Army Constantinople, Army Smyrna.")
		start = got
	}
	// Everyone gets the start mail, naming their power and the deadline.
	firstDeadline := w.h.now.Add(72 * time.Hour)
	for _, s := range standardSeats {
		m := w.only(start, s.Addr, "GMD:wg - S1901M Game Starting")
		mustContain(t, m.Body,
			":: Deadline: S1901M "+wgStamp(firstDeadline),
			"You have been selected as "+s.Power+" in game 'wg' of Diplomacy.",
			"     "+fmt.Sprintf("%-10s", s.Power+":")+" "+s.Addr+"\n",
			"Russia: Fleet St Petersburg (south coast).",
			"The deadline for the first orders is "+wgStamp(firstDeadline)+".",
			"Sign on with SIGNON "+s.Letter+"wg and your password")
	}
	m := w.only(start, testMaster, "GMD:wg - S1901M Game Starting")
	mustContain(t, m.Body, "Game 'wg' of Diplomacy has started.")
	mustNotContain(t, m.Body, "You have been selected")
	if n := len(start); n != 9 { // 7 start mails, the master's, the reply
		t.Errorf("the last sign-on queued %d mails, want 9", n)
	}
	w.wantPhase("S1901M")

	// --- Spring 1901 ---------------------------------------------------------
	// Italy talks first: press to England and Germany only, then its orders
	// in the same mail, each with a power prefix.
	got := w.mail(w.addr["I"], "SIGNON Iwg pw-i\n"+
		"PRESS TO EG\nGentlemen, France is weak. Shall we?\nENDPRESS\n"+
		"Italy: F Nap - Ion\nItaly: A Rom - Apu\nItaly: A Ven H\n")
	r = replyTo(t, got, w.addr["I"])
	mustContain(t, r.Body, "> PRESS TO EG\nPress sent to England, Germany.",
		"Italy: Fleet Naples -> Ionian Sea.\n", "Italy: Army Rome -> Apulia.\n", "Italy: Army Venice HOLD.\n",
		"Italy's orders are complete.")
	w.press(got, "GMD:wg - S1901M Press from I to EG", "Message from Italy to England, Germany in 'wg':",
		"Gentlemen, France is weak. Shall we?", w.addr["E"], w.addr["G"])

	// Germany broadcasts: everyone but Germany gets it, the master too.
	got = w.mail(w.addr["G"], "SIGNON Gwg pw-g\nBROADCAST\nGermany wants nothing but peace.\nENDPRESS")
	mustContain(t, replyTo(t, got, w.addr["G"]).Body, "Press broadcast to everyone in 'wg'.")
	w.press(got, "GMD:wg - S1901M Broadcast from G", "Broadcast message from Germany in 'wg':",
		"Germany wants nothing but peace.", w.everyoneBut("G")...)

	w.play(wgTurn{
		phase: "S1901M",
		orders: []wgOrders{
			{"E", "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor", []string{
				"Movement orders for Spring of 1901. (wg.001)",
				"England: Fleet London -> North Sea.\n", "England: Fleet Edinburgh -> Norwegian Sea.\n",
				"England: Army Liverpool -> Yorkshire.\n", "England's orders are complete.",
				"Time to deadline: 2 days 23 hours."}},
			// France writes in words, misspells a province (line 3 of the
			// mail) and orders a fleet where it cannot go (line 5); the
			// good lines around them count.
			{"F", "Army Paris moves to Burgundy\nA Mar - Burgandy\nArmy Marseilles -> Spain\nF Bre - Lon\n" +
				"Fleet Brest to Mid-Atlantic Ocean", []string{
				`Error (line 3): A Mar - Burgandy: Unknown province "Burgandy" (did you mean Burgundy?).`,
				"Error (line 5): F Bre - Lon: The fleet in Brest can't get to London.",
				"France: Army Paris -> Burgundy.\n", "France: Army Marseilles -> Spain.\n",
				"France: Fleet Brest -> Mid-Atlantic Ocean.\n", "France's orders are complete.",
				`2 errors in this mail, each marked "Error" above.`}},
			// Germany: lower case, several orders a line.
			{"G", "a mun-ruh, a ber-mun, f kie-den", []string{
				"Germany: Army Munich -> Ruhr.\n", "Germany: Army Berlin -> Munich.\n",
				"Germany: Fleet Kiel -> Denmark.\n", "Germany's orders are complete."}},
			// Austria forgets Trieste, then sends it and changes its mind
			// about Vienna: the later order replaces the earlier one.
			{"A", "A Vie - Gal, A Bud - Rum", []string{
				"Austria: Army Vienna -> Galicia.\n", "Austria: Army Budapest -> Rumania.\n",
				"Austria: Fleet Trieste, No Order Processed.\n", "Orders not received for Fleet Trieste."}},
			{"A", "F Tri - Alb\nA Vie H", []string{
				"Austria: Army Vienna HOLD.\n", "Austria: Army Budapest -> Rumania.\n",
				"Austria: Fleet Trieste -> Albania.\n", "Austria's orders are complete.",
				"!Army Vienna -> Galicia"}},
			{"R", "A War - Gal\nA Mos - Ukr\nF Sev - Bla\nF StP/sc - Bot", []string{
				"Russia: Fleet St Petersburg (south coast) -> Gulf of Bothnia.\n", "Russia's orders are complete."}},
			{"T", "F Ank-Bla\nA Con-Bul\nA Smy-Arm", []string{
				"Turkey: Fleet Ankara -> Black Sea.\n", "Turkey's orders are complete."}},
		},
		results: []string{
			"Movement results for Spring of 1901. (wg.001)\n",
			"Austria: Army Vienna HOLD.\n",
			"France: Army Paris -> Burgundy.\n",
			"Russia: Fleet Sevastopol -> Black Sea. (*bounce*)\n",
			"Turkey: Fleet Ankara -> Black Sea. (*bounce*)\n",
			"Russia: Army Warsaw -> Galicia.\n",
			"The next phase of 'wg' will be Movement for Fall of 1901.\n",
		},
		next: "F1901M",
	})

	// --- Fall 1901: two dislodgements ----------------------------------------
	w.play(wgTurn{
		phase: "F1901M",
		orders: []wgOrders{
			// England convoys into Norway.
			{"E", "F Nth C A Yor - Nwy\nA Yor - Nwy\nF Nwg H", []string{
				"England: Fleet North Sea CONVOY Army Yorkshire -> Norway.\n", "England: Army Yorkshire -> North Sea -> Norway.\n"}},
			{"F", "A Bur H\nA Spa H\nF Mao - Por", []string{"France's orders are complete."}},
			// Germany attacks Burgundy with support.
			{"G", "a ruh-bur, a mun s a ruh-bur, f den h", []string{
				"Germany: Army Munich SUPPORT Army Ruhr -> Burgundy.\n", "Germany's orders are complete."}},
			{"I", "F Ion C A Apu - Tun\nA Apu - Tun\nA Ven H", []string{
				"Italy: Fleet Ionian Sea CONVOY Army Apulia -> Tunis.\n"}},
			// Austria attacks Galicia with support.
			{"A", "A Vie - Gal\nA Rum S A Vie - Gal\nF Alb - Gre", []string{
				"Austria: Army Rumania SUPPORT Army Vienna -> Galicia.\n"}},
			{"R", "A Gal H\nA Ukr H\nF Sev - Bla\nF Bot - Swe", []string{"Russia: Fleet Gulf of Bothnia -> Sweden.\n"}},
			{"T", "F Ank-Bla\nA Bul H\nA Arm H", []string{"Turkey's orders are complete."}},
		},
		results: []string{
			"Movement results for Fall of 1901. (wg.002)\n",
			"England: Army Yorkshire -> North Sea -> Norway.\n",
			"France: Army Burgundy HOLD. (*dislodged*)\n",
			"Germany: Army Ruhr -> Burgundy.\n",
			"Italy: Army Apulia -> Ionian Sea -> Tunis.\n",
			"Russia: Army Galicia HOLD. (*dislodged*)\n",
			"Russia: Fleet Sevastopol -> Black Sea. (*bounce*)\n",
			"The following units were dislodged:\n\n" +
				"The French Army in Burgundy can retreat to Paris or Belgium or Gascony or\nMarseilles or Picardy.\n" +
				"The Russian Army in Galicia can retreat to Bohemia or Budapest or Silesia or\nWarsaw.\n",
			"The next phase of 'wg' will be Retreats for Fall of 1901.\n",
		},
		next: "F1901R",
	})

	// --- Fall 1901 retreats: France retreats, Russia disbands ---------------
	w.play(wgTurn{
		phase: "F1901R",
		orders: []wgOrders{
			{"F", "A Bur - Pic", []string{"Retreat orders for Fall of 1901. (wg.003)", "France:    Army  Burgundy -> Picardy.\n",
				"France's orders are complete.", "Time to deadline: 23 hours."}},
			{"R", "A Gal disband", []string{"Russia:    Army  Galicia DISBAND.\n", "Russia's orders are complete."}},
		},
		results: []string{
			"Retreat results for Fall of 1901. (wg.003)\n\n" +
				"France:    Army  Burgundy -> Picardy.\n" +
				"Russia:    Army  Galicia DISBAND.\n",
			"Ownership of supply centers:\n\n" +
				"Austria:   Budapest, Greece, Rumania, Trieste, Vienna.\n" +
				"England:   Edinburgh, Liverpool, London, Norway.\n" +
				"France:    Brest, Marseilles, Paris, Portugal, Spain.\n" +
				"Germany:   Berlin, Denmark, Kiel, Munich.\n" +
				"Italy:     Naples, Rome, Tunis, Venice.\n" +
				"Russia:    Moscow, Sevastopol, St Petersburg, Sweden, Warsaw.\n" +
				"Turkey:    Ankara, Bulgaria, Constantinople, Smyrna.\n" +
				"Unowned:   Belgium, Holland, Serbia.\n\n" +
				"Austria:   5 Supply centers,  3 Units:  Builds   2 units.\n" +
				"England:   4 Supply centers,  3 Units:  Builds   1 unit.\n" +
				"France:    5 Supply centers,  3 Units:  Builds   2 units.\n" +
				"Germany:   4 Supply centers,  3 Units:  Builds   1 unit.\n" +
				"Italy:     4 Supply centers,  3 Units:  Builds   1 unit.\n" +
				"Russia:    5 Supply centers,  3 Units:  Builds   2 units.\n" +
				"Turkey:    4 Supply centers,  3 Units:  Builds   1 unit.\n",
			"The next phase of 'wg' will be Adjustments for Winter of 1901.\n",
		},
		next: "W1901A",
	})

	// --- Winter 1901: everyone builds ----------------------------------------
	w.play(wgTurn{
		phase: "W1901A",
		orders: []wgOrders{
			{"A", "Build A Vie\nBuild F Tri", []string{"Adjustment orders for Winter of 1901. (wg.004)",
				"Austria:   Builds an army in Vienna.\n", "Austria:   Builds a fleet in Trieste.\n", "Austria's orders are complete."}},
			{"E", "Build F Edi", []string{"England:   Builds a fleet in Edinburgh.\n"}},
			{"F", "Build A Par, Build A Mar", []string{"France:    Builds an army in Paris.\n", "France:    Builds an army in Marseilles.\n"}},
			{"G", "build f kie", []string{"Germany:   Builds a fleet in Kiel.\n"}},
			{"I", "Build F Nap", []string{"Italy:     Builds a fleet in Naples.\n"}},
			// A fleet on a split coast: first one build, then the other.
			{"R", "Build F StP/nc", []string{"Russia:    Builds a fleet in St Petersburg (north coast).\n",
				"Russia:    1 build pending."}},
			{"R", "build army moscow", []string{"Russia:    Builds a fleet in St Petersburg (north coast).\n",
				"Russia:    Builds an army in Moscow.\n", "Russia's orders are complete."}},
			{"T", "Build A Smy", []string{"Turkey:    Builds an army in Smyrna.\n"}},
		},
		results: []string{
			"Adjustment results for Winter of 1901. (wg.004)\n\n" +
				"Austria:   Builds a fleet in Trieste.\n" +
				"Austria:   Builds an army in Vienna.\n" +
				"England:   Builds a fleet in Edinburgh.\n" +
				"France:    Builds an army in Marseilles.\n" +
				"France:    Builds an army in Paris.\n" +
				"Germany:   Builds a fleet in Kiel.\n" +
				"Italy:     Builds a fleet in Naples.\n" +
				"Russia:    Builds an army in Moscow.\n" +
				"Russia:    Builds a fleet in St Petersburg (north coast).\n" +
				"Turkey:    Builds an army in Smyrna.\n",
			"The next phase of 'wg' will be Movement for Spring of 1902.\n",
		},
		next: "S1902M",
	})

	// --- Spring 1902: Turkey is late, abandoned and replaced ----------------
	deadline := w.h.now.Add(72 * time.Hour) // S1902M began just now
	s1902 := wgTurn{
		phase: "S1902M",
		orders: []wgOrders{
			{"A", "A Gal H, A Rum H, F Gre H, A Vie - Bud, F Tri - Adr", []string{"Austria's orders are complete."}},
			{"E", "F Nth - Eng\nF Edi - Nth\nF Nwg - Bar\nA Nwy H", []string{"England's orders are complete."}},
			{"F", "A Pic H\nA Par H\nA Mar H\nA Spa H\nF Por - Mao", []string{"France's orders are complete."}},
			{"G", "a bur-bel, a mun-bur, f kie-hol, f den h", []string{"Germany's orders are complete."}},
			{"I", "F Nap - Tys, F Ion H, A Ven H, A Tun H", []string{"Italy's orders are complete."}},
			{"R", "F Swe H\nA Ukr H\nF Sev H\nF StP/nc - Bar\nA Mos - War", []string{
				"Russia: Fleet St Petersburg (north coast) -> Barents Sea.\n", "Russia's orders are complete."}},
		},
	}
	w.send(s1902.orders)
	w.quietTick() // complete but for Turkey: nothing happens

	// A day before the deadline, Turkey alone is reminded.
	w.h.now = deadline.Add(-24 * time.Hour)
	got = w.tick()
	if len(got) != 1 {
		t.Fatalf("at the reminder time %d mails, want Turkey's reminder only", len(got))
	}
	m = w.only(got, w.addr["T"], "GMD:wg - S1902M Reminder")
	mustContain(t, m.Body, "The deadline is in 1 day and", "You have sent no orders for Turkey in this phase.")

	// The deadline passes: a late notice to everyone names Turkey.
	w.h.now = deadline
	got = w.tick()
	m = w.lateNotice(got, "T", "GMD:wg - S1902M Late Notice: T")
	mustContain(t, m.Body, "Diplomacy game 'wg' is waiting for Turkey's orders.\n",
		"This power will be considered abandoned and free for takeover\nif orders are not received by "+
			wgStamp(deadline.Add(48*time.Hour))+".")
	mustNotContain(t, m.Body, "England", "France")

	// Half the grace: another late notice, nothing processed.
	w.h.advance(24 * time.Hour)
	got = w.tick()
	w.lateNotice(got, "T", "GMD:wg - S1902M Late Notice: T")
	w.wantPhase("S1902M")

	// The grace runs out (NoNMR, the default): Turkey is abandoned and the
	// game waits for a replacement. The player who vanished is told too.
	w.h.advance(24 * time.Hour)
	got = w.tick()
	oldTurkey := w.addr["T"]
	if len(got) != 1 {
		t.Fatalf("at the end of the grace %d mails, want one call for a replacement", len(got))
	}
	m = w.toAll(got[0], "GMD:wg - S1902M Waiting for Replacements: T")
	w.addr["T"] = ""
	mustContain(t, m.Body, "waiting for someone to take over the abandoned Turkey.", "  SIGNON Twg password\n")
	if p := w.seat("Turkey"); p.Status != state.Abandoned {
		t.Errorf("Turkey's seat is %s after the grace, want abandoned", p.Status)
	}
	w.wantPhase("S1902M")
	w.h.advance(3 * time.Hour)
	w.quietTick() // the game waits

	// A newcomer takes Turkey over with a password of their own, once
	// they have shown with the code the judge sent that the address is
	// theirs; the clock starts again for everyone.
	w.h.advance(2 * time.Hour)
	newTurkey := "new.turkey@example.net"
	ask := w.reply(newTurkey, "SIGNON Twg sultan")
	mustContain(t, ask.Body, "Turkey in game 'wg' is free for takeover.")
	got = w.mail(newTurkey, "CONFIRM "+codeIn(t, ask.Body)+"\nSIGNON Twg sultan")
	w.addr["T"], w.pass["T"] = newTurkey, "sultan"
	restarted := w.h.now.Add(72 * time.Hour)
	r = replyTo(t, got, newTurkey)
	mustContain(t, r.Body, "You have taken over Turkey in game 'wg'",
		"Orders not received for Fleet Ankara, Army Armenia, Army Bulgaria, Army Smyrna.",
		"Time to deadline: 3 days.")
	var notice *state.OutMail
	for _, m := range got {
		if m != r {
			notice = m
		}
	}
	if len(got) != 2 || notice == nil {
		t.Fatalf("the takeover queued %d mails, want the reply and one notice", len(got))
	}
	w.toAll(notice, "GMD:wg - S1902M Takeover of Turkey")
	mustContain(t, notice.Body, "Turkey in game 'wg' has been taken over by "+newTurkey+".",
		"The deadline for orders is now "+wgStamp(restarted)+".", ":: Deadline: S1902M "+wgStamp(restarted))
	if g := w.h.game("wg"); !g.Deadline.Equal(restarted) {
		t.Errorf("deadline after the takeover %v, want %v", g.Deadline, restarted)
	}
	// The old password is no good any more, nor is the old player's seat.
	got = w.mail(oldTurkey, "SIGNON Twg pw-t\nA Bul H")
	mustContain(t, onlyTo(t, got, oldTurkey).Body, "Error (line 1): Wrong password for game 'wg'.")
	if len(got) != 1 {
		t.Errorf("a wrong password queued %d mails", len(got))
	}

	// The new Turkey's orders complete the phase, which is processed at
	// once with them.
	w.play(wgTurn{
		phase: "S1902M",
		orders: []wgOrders{
			{"T", "turkey: a bul - ser\nturkey: f ank - bla\nturkey: a arm h\nturkey: a smy - con", []string{
				"Turkey: Army Bulgaria -> Serbia.\n", "Turkey's orders are complete."}},
		},
		results: []string{
			"Movement results for Spring of 1902. (wg.005)\n",
			"England: Fleet Norwegian Sea -> Barents Sea. (*bounce*)\n",
			"Russia: Fleet St Petersburg (north coast) -> Barents Sea. (*bounce*)\n",
			"Germany: Army Burgundy -> Belgium.\n",
			"Germany: Fleet Kiel -> Holland.\n",
			"Turkey: Army Bulgaria -> Serbia.\n",
			"Turkey: Fleet Ankara -> Black Sea.\n",
			"The next phase of 'wg' will be Movement for Fall of 1902.\n",
		},
		next: "F1902M",
	})
	if mailsTo(w.all[len(w.all)-1:], oldTurkey) != nil {
		t.Errorf("the results went to the player who lost Turkey")
	}

	// --- Fall 1902: England takes Brest, France bounces twice ---------------
	w.play(wgTurn{
		phase: "F1902M",
		orders: []wgOrders{
			{"A", "A Gal H, A Rum H, F Gre H, A Bud H, F Adr H", []string{"Austria's orders are complete."}},
			{"E", "F Eng - Bre\nF Nth H\nF Nwg H\nA Nwy H", []string{"England: Fleet English Channel -> Brest.\n"}},
			// Paris attacks Burgundy and cuts its support.
			{"F", "A Pic - Bel\nA Par - Bur\nA Mar H\nA Spa H\nF Mao H", []string{"France's orders are complete."}},
			{"G", "a bel h, a bur s a bel, f hol s a bel, f den h", []string{
				"Germany: Army Burgundy SUPPORT Army Belgium.\n", "Germany's orders are complete."}},
			{"I", "F Tys H, F Ion H, A Ven H, A Tun H", []string{"Italy's orders are complete."}},
			{"R", "F Swe H\nA Ukr H\nF Sev H\nF StP/nc H\nA War H", []string{"Russia's orders are complete."}},
			{"T", "A Ser H\nF Bla H\nA Arm H\nA Con H", []string{"Turkey's orders are complete."}},
		},
		results: []string{
			"Movement results for Fall of 1902. (wg.006)\n",
			"England: Fleet English Channel -> Brest.\n",
			"France: Army Picardy -> Belgium. (*bounce*)\n",
			"France: Army Paris -> Burgundy. (*bounce*)\n",
			"Germany: Army Burgundy SUPPORT Army Belgium. (*cut*)\n",
			"Ownership of supply centers:\n\n" +
				"Austria:   Budapest, Greece, Rumania, Trieste, Vienna.\n" +
				"England:   Brest, Edinburgh, Liverpool, London, Norway.\n" +
				"France:    Marseilles, Paris, Portugal, Spain.\n" +
				"Germany:   Belgium, Berlin, Denmark, Holland, Kiel, Munich.\n" +
				"Italy:     Naples, Rome, Tunis, Venice.\n" +
				"Russia:    Moscow, Sevastopol, St Petersburg, Sweden, Warsaw.\n" +
				"Turkey:    Ankara, Bulgaria, Constantinople, Serbia, Smyrna.\n\n" +
				"Austria:   5 Supply centers,  5 Units:  Builds   0 units.\n" +
				"England:   5 Supply centers,  4 Units:  Builds   1 unit.\n" +
				"France:    4 Supply centers,  5 Units:  Removes  1 unit.\n" +
				"Germany:   6 Supply centers,  4 Units:  Builds   2 units.\n" +
				"Italy:     4 Supply centers,  4 Units:  Builds   0 units.\n" +
				"Russia:    5 Supply centers,  5 Units:  Builds   0 units.\n" +
				"Turkey:    5 Supply centers,  4 Units:  Builds   1 unit.\n",
			"The next phase of 'wg' will be Adjustments for Winter of 1902.\n",
		},
		next: "W1902A",
	})

	// --- Winter 1902: a removal by order, a waived build ---------------------
	w.play(wgTurn{
		phase: "W1902A",
		orders: []wgOrders{
			{"E", "Build F Lon", []string{"England:   Builds a fleet in London.\n", "England's orders are complete."}},
			// France lost Brest: one unit must go.
			{"F", "remove army picardy", []string{"France:    Removes the army in Picardy.\n", "France's orders are complete."}},
			{"G", "build a mun\nwaive", []string{"Germany:   Builds an army in Munich.\n", "Germany:   Build waived.\n",
				"Germany's orders are complete."}},
			{"T", "Build F Smy", []string{"Turkey:    Builds a fleet in Smyrna.\n"}},
		},
		results: []string{
			"Adjustment results for Winter of 1902. (wg.007)\n\n" +
				"England:   Builds a fleet in London.\n" +
				"France:    Removes the army in Picardy.\n" +
				"Germany:   Build waived.\n" +
				"Germany:   Builds an army in Munich.\n" +
				"Turkey:    Builds a fleet in Smyrna.\n\n" +
				"The next phase of 'wg' will be Movement for Spring of 1903.\n",
		},
		next: "S1903M",
	})

	// --- Spring 1903 ---------------------------------------------------------
	w.play(wgTurn{
		phase: "S1903M",
		orders: []wgOrders{
			{"A", "A Gal S A Bud\nA Rum H\nF Gre H\nA Bud H\nF Adr H", []string{"Austria's orders are complete."}},
			{"E", "England: F Lon - Eng, F Bre H, F Nth H, F Nwg H, A Nwy H", []string{"England's orders are complete."}},
			{"F", "A Par hold, A Mar hold, A Spa hold, F Mao hold", []string{"France: Army Paris HOLD.\n"}},
			{"G", "a bel-pic, a bur h, a mun h, f hol h, f den h", []string{"Germany: Army Belgium -> Picardy.\n"}},
			{"I", "F Tys H, F Ion H, A Ven H, A Tun H", []string{"Italy's orders are complete."}},
			{"R", "F Swe H\nA Ukr H\nF Sev H\nF StP/nc H\nA War H", []string{"Russia's orders are complete."}},
			{"T", "Army Serbia moves to Budapest\nF Bla H\nA Arm H\nA Con H\nF Smy H", []string{"Turkey: Army Serbia -> Budapest.\n"}},
		},
		results: []string{
			"Movement results for Spring of 1903. (wg.008)\n",
			"Austria: Army Galicia SUPPORT Army Budapest.\n",
			"England: Fleet London -> English Channel.\n",
			"Germany: Army Belgium -> Picardy.\n",
			"Turkey: Army Serbia -> Budapest. (*bounce*)\n",
			"The next phase of 'wg' will be Movement for Fall of 1903.\n",
		},
		next: "F1903M",
	})

	// --- Fall 1903: the master sets NMR; Germany takes Paris -----------------
	got = w.mail(testMaster, "SIGNON Mwg "+testMasterPass+"\nSET NMR")
	r = replyTo(t, got, testMaster)
	mustContain(t, r.Body, "> SET NMR", "Orders status for Fall of 1903. (wg.009)", "Austria:   incomplete.")
	mustNotContain(t, r.Body, "HOLD", "->") // the master sees no orders
	if len(got) != 2 {
		t.Fatalf("SET NMR queued %d mails, want the reply and one notice", len(got))
	}
	for _, m := range got {
		if m != r {
			w.toAll(m, "GMD:wg - F1903M Parameter Change")
			mustContain(t, m.Body, "NMR: a power that misses the end of grace goes into civil disorder")
		}
	}
	w.play(wgTurn{
		phase: "F1903M",
		orders: []wgOrders{
			{"A", "A Gal H, A Rum H, F Gre H, A Bud H, F Adr H", []string{"Austria's orders are complete."}},
			{"E", "F Eng H, F Bre H, F Nth H, F Nwg H, A Nwy H", []string{"England's orders are complete."}},
			{"F", "A Par H, A Mar H, A Spa H, F Mao H", []string{"France's orders are complete."}},
			{"G", "a bur-par, a pic s a bur-par, a mun-bur, f hol h, f den h", []string{
				"Germany: Army Picardy SUPPORT Army Burgundy -> Paris.\n", "Germany's orders are complete."}},
			{"I", "F Tys H, F Ion H, A Ven H, A Tun H", []string{"Italy's orders are complete."}},
			{"R", "F Swe H\nA Ukr H\nF Sev H\nF StP/nc H\nA War H", []string{"Russia's orders are complete."}},
			{"T", "A Ser H\nF Bla H\nA Arm H\nA Con H\nF Smy H", []string{"Turkey's orders are complete."}},
		},
		results: []string{
			"Movement results for Fall of 1903. (wg.009)\n",
			"France: Army Paris HOLD. (*dislodged*)\n",
			"Germany: Army Burgundy -> Paris.\n",
			"Germany: Army Munich -> Burgundy.\n",
			"The following units were dislodged:\n\nThe French Army in Paris can retreat to Gascony.\n",
			"The next phase of 'wg' will be Retreats for Fall of 1903.\n",
		},
		next: "F1903R",
	})
	w.play(wgTurn{
		phase: "F1903R",
		orders: []wgOrders{
			{"F", "A Par - Gas", []string{"France:    Army  Paris -> Gascony.\n", "France's orders are complete."}},
		},
		results: []string{
			"Retreat results for Fall of 1903. (wg.010)\n\nFrance:    Army  Paris -> Gascony.\n",
			"France:    Marseilles, Portugal, Spain.\n",
			"Germany:   Belgium, Berlin, Denmark, Holland, Kiel, Munich, Paris.\n",
			"France:    3 Supply centers,  4 Units:  Removes  1 unit.\n",
			"Germany:   7 Supply centers,  5 Units:  Builds   2 units.\n",
			"England:   5 Supply centers,  5 Units:  Builds   0 units.\n",
			"Turkey:    5 Supply centers,  5 Units:  Builds   0 units.\n",
			"The next phase of 'wg' will be Adjustments for Winter of 1903.\n",
		},
		next: "W1903A",
	})

	// --- Winter 1903: France sends nothing and falls into civil disorder ----
	deadline = w.h.now.Add(24 * time.Hour)
	w.send([]wgOrders{
		{"G", "build a ber, build f kie", []string{"Germany:   Builds an army in Berlin.\n",
			"Germany:   Builds a fleet in Kiel.\n", "Germany's orders are complete."}},
	})
	w.quietTick()
	w.h.now = deadline
	got = w.tick()
	m = w.lateNotice(got, "F", "GMD:wg - W1903A Late Notice: F")
	mustContain(t, m.Body, "Diplomacy game 'wg' is waiting for France's orders.\n",
		"It will be considered in civil disorder if orders are not received by\n"+wgStamp(deadline.Add(48*time.Hour))+";")
	w.h.now = deadline.Add(48 * time.Hour)
	w.results("W1903A",
		"Adjustment results for Winter of 1903. (wg.011)\n\n",
		"France:    Defaults, removing the fleet in the Mid-Atlantic Ocean.\n",
		"Germany:   Builds an army in Berlin.\n",
		"Germany:   Builds a fleet in Kiel.\n",
		"The next phase of 'wg' will be Movement for Spring of 1904.\n")
	w.wantPhase("S1904M")
	if p := w.seat("France"); p.Status != state.Disorder {
		t.Errorf("France's seat is %s after the grace of an NMR game, want cd", p.Status)
	}

	// --- Where it ended: Spring 1904 -----------------------------------------
	w.wantUnits(
		"Austria: A Bud", "Austria: A Gal", "Austria: A Rum", "Austria: F Adr", "Austria: F Gre",
		"England: A Nwy", "England: F Bre", "England: F Eng", "England: F Nth", "England: F Nwg",
		"France: A Gas", "France: A Mar", "France: A Spa",
		"Germany: A Ber", "Germany: A Bur", "Germany: A Par", "Germany: A Pic", "Germany: F Den", "Germany: F Hol", "Germany: F Kie",
		"Italy: A Tun", "Italy: A Ven", "Italy: F Ion", "Italy: F Tys",
		"Russia: A Ukr", "Russia: A War", "Russia: F Sev", "Russia: F StP/nc", "Russia: F Swe",
		"Turkey: A Arm", "Turkey: A Con", "Turkey: A Ser", "Turkey: F Bla", "Turkey: F Smy",
	)
	w.wantCentres(map[string]int{"Austria": 5, "England": 5, "France": 3, "Germany": 7, "Italy": 4, "Russia": 5, "Turkey": 5})
	g := w.h.game("wg")
	if g.Turn != 11 || g.Status != state.Active || len(g.Orders) != 0 || len(w.h.press("wg")) != 0 || g.PressSent != nil {
		t.Errorf("game after three years: turn %d, %s, %d pending orders, %d press (%v sent); want turn 11, active, none, none",
			g.Turn, g.Status, len(g.Orders), len(w.h.press("wg")), g.PressSent)
	}

	// The history holds every phase played, in order, with the orders as
	// adjudicated and the press of its time.
	var recs []*state.PhaseRecord
	var p []*state.Press
	err := w.h.m.DB().View(func(tx *state.Tx) (err error) {
		if recs, err = tx.Phases("wg"); err != nil {
			return err
		}
		p, err = tx.Press("wg", 0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var played []string
	for _, rec := range recs {
		played = append(played, rec.Phase)
	}
	if want := []string{"S1901M", "F1901M", "F1901R", "W1901A", "S1902M", "F1902M", "W1902A",
		"S1903M", "F1903M", "F1903R", "W1903A"}; !slices.Equal(played, want) {
		t.Fatalf("history %q, want %q", played, want)
	}
	if len(p) != 2 || p[0].From != "Italy" || !slices.Equal(p[0].To, []string{"England", "Germany"}) ||
		p[1].From != "Germany" || len(p[1].To) != 0 {
		t.Errorf("press recorded for S1901M: %+v", p)
	}
	if got := strings.Join(recs[4].Orders["Turkey"], "; "); !strings.Contains(got, "A bul - ser") {
		t.Errorf("S1902M recorded Turkey's orders as %q, want the new player's", got)
	}
	if _, ok := recs[10].Orders["France"]; ok {
		t.Errorf("W1903A recorded orders for France, which sent none: %q", recs[10].Orders["France"])
	}

	// No line of any mail of the game (results with convoys, retreats and
	// adjustments, acknowledgements, notices) is wider than 78 characters,
	// but for the classic layout's exceptions.
	wantNarrow(t, w.all)
}

// wgStamp writes a time as the judge's mails do.
func wgStamp(t time.Time) string { return t.UTC().Format("Mon Jan 02 2006 15:04:05 -0700") }

// wholeGame drives one game by mail on the harness's clock, keeping every
// mail queued so that a failure can show them all.
type wholeGame struct {
	t    *testing.T
	h    *harness
	name string
	all  []*state.OutMail
	addr map[string]string // power letter -> the address playing it
	pass map[string]string // power letter -> its password
}

func newWholeGame(t *testing.T, name string) *wholeGame {
	w := &wholeGame{t: t, h: newHarness(t), name: name, addr: map[string]string{}, pass: map[string]string{}}
	for _, s := range standardSeats {
		w.addr[s.Letter], w.pass[s.Letter] = s.Addr, s.Pass
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log("every mail of the game:\n" + w.dump())
		}
	})
	return w
}

// dump writes every mail queued so far.
func (w *wholeGame) dump() string {
	var b strings.Builder
	for _, m := range w.all {
		fmt.Fprintf(&b, "==== #%d at %s to %s\nSubject: %s\n%s\n", m.ID, wgStamp(m.Created), strings.Join(m.To, ", "), m.Subject, m.Body)
	}
	return b.String()
}

// mail sends one mail and returns what it queued.
func (w *wholeGame) mail(from, body string) []*state.OutMail {
	w.t.Helper()
	got := w.h.mail(from, "orders", body)
	w.all = append(w.all, got...)
	return got
}

// reply sends one mail that must cause nothing but the reply to it.
func (w *wholeGame) reply(from, body string) *state.OutMail {
	w.t.Helper()
	got := w.mail(from, body)
	r := onlyTo(w.t, got, from)
	if len(got) != 1 {
		w.t.Fatalf("mail from %s queued %d mails, want the reply only", from, len(got))
	}
	return r
}

// tick runs the clock and returns what it queued.
func (w *wholeGame) tick() []*state.OutMail {
	w.t.Helper()
	got := w.h.tick()
	w.all = append(w.all, got...)
	return got
}

// quietTick runs the clock and fails if it sent anything.
func (w *wholeGame) quietTick() {
	w.t.Helper()
	if got := w.tick(); len(got) != 0 {
		w.t.Fatalf("the clock sent %d mails at %s, want none: first %q", len(got), wgStamp(w.h.now), got[0].Subject)
	}
}

// everyone lists the addresses of all seats now played, and the master.
func (w *wholeGame) everyone() []string {
	var out []string
	for _, s := range standardSeats {
		if a := w.addr[s.Letter]; a != "" {
			out = append(out, a)
		}
	}
	return append(out, testMaster)
}

// everyoneBut is everyone but the player of the power with this letter.
func (w *wholeGame) everyoneBut(letter string) []string {
	return slices.DeleteFunc(w.everyone(), func(a string) bool { return a == w.addr[letter] })
}

// only returns the one mail to addr with this subject among mails.
func (w *wholeGame) only(mails []*state.OutMail, addr, subject string) *state.OutMail {
	w.t.Helper()
	var found []*state.OutMail
	for _, m := range mailsTo(mails, addr) {
		if m.Subject == subject {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		w.t.Fatalf("%d mails %q to %s, want 1", len(found), subject, addr)
	}
	return found[0]
}

// toAll checks that m, with this subject, went to every player and the
// master and to nobody else, and returns it.
func (w *wholeGame) toAll(m *state.OutMail, subject string) *state.OutMail {
	w.t.Helper()
	if m.Subject != subject {
		w.t.Errorf("subject %q, want %q", m.Subject, subject)
	}
	got, want := slices.Clone(m.To), w.everyone()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		w.t.Errorf("%q went to %q, want %q", m.Subject, got, want)
	}
	return m
}

// lateNotice checks that mails are one late notice with this subject to
// everyone but the late player of letter, and the same notice to that
// player with "[You are late!] " before the subject, as njudge sends it;
// it returns the first.
func (w *wholeGame) lateNotice(mails []*state.OutMail, letter, subject string) *state.OutMail {
	w.t.Helper()
	if len(mails) != 2 {
		w.t.Fatalf("%d mails, want the late notice and its copy to the late player", len(mails))
	}
	m := mails[0]
	if m.Subject != subject {
		w.t.Errorf("subject %q, want %q", m.Subject, subject)
	}
	got, want := slices.Clone(m.To), w.everyoneBut(letter)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		w.t.Errorf("%q went to %q, want %q", m.Subject, got, want)
	}
	late := w.only(mails[1:], w.addr[letter], "[You are late!] "+subject)
	if len(late.To) != 1 || late.Body != m.Body {
		w.t.Errorf("the late player's copy went to %q, and its body differs: %v", late.To, late.Body != m.Body)
	}
	return m
}

// press checks that mails (those of one press mail) hold one copy of the
// press, with this subject and text, for each of to, and nothing else but
// the reply to the sender.
func (w *wholeGame) press(mails []*state.OutMail, subject, from, text string, to ...string) {
	w.t.Helper()
	var reached []string
	for _, m := range mails {
		if strings.HasPrefix(m.Subject, "Re: ") {
			continue
		}
		if m.Subject != subject || len(m.To) != 1 {
			w.t.Errorf("press mail %q to %q, want %q to one address", m.Subject, m.To, subject)
			continue
		}
		mustContain(w.t, m.Body, from+"\n\n"+text+"\n", ":: Judge: GMD  Game: Wg  Variant: Standard")
		reached = append(reached, m.To[0])
	}
	slices.Sort(reached)
	want := slices.Sorted(slices.Values(to))
	if !slices.Equal(reached, want) {
		w.t.Errorf("%q reached %q, want exactly %q", subject, reached, want)
	}
}

// wgOrders is one mail of orders: the power's letter, the order lines as
// the player wrote them (the sign-on line is added), and what the
// acknowledgement must say; a want starting with "!" must not be in it.
// Unless a want mentions an error, the acknowledgement must have none.
type wgOrders struct {
	power string
	text  string
	ack   []string
}

// wgTurn is one phase played: the order mails, in the order sent, then the
// lines its results must hold and the phase that must follow.
type wgTurn struct {
	phase   string
	orders  []wgOrders
	results []string
	next    string
}

// send mails each power's orders, an hour apart, and checks each
// acknowledgement: to the sender only, and nothing else queued (orders
// are secret until the results).
func (w *wholeGame) send(orders []wgOrders) {
	w.t.Helper()
	phase := w.phase()
	for _, o := range orders {
		w.h.advance(time.Hour)
		addr := w.addr[o.power]
		got := w.mail(addr, fmt.Sprintf("SIGNON %s%s %s\n%s", o.power, w.name, w.pass[o.power], o.text))
		r := onlyTo(w.t, got, addr)
		if len(got) != 1 {
			w.t.Fatalf("%s's orders queued %d mails, want the acknowledgement only", o.power, len(got))
		}
		if want := "Re: GMD:" + w.name + " - " + phase + " orders"; r.Subject != want {
			w.t.Errorf("acknowledgement subject %q, want %q", r.Subject, want)
		}
		errs, ok := false, true
		for _, want := range o.ack {
			if bad, neg := strings.CutPrefix(want, "!"); neg {
				ok = w.lacks(r.Body, bad) && ok
				continue
			}
			errs = errs || strings.Contains(want, "Error")
			ok = w.has(r.Body, want) && ok
		}
		if !errs {
			ok = w.lacks(r.Body, "Error") && ok
		}
		if !ok {
			// The game cannot go on as scripted.
			w.t.FailNow()
		}
	}
}

// play plays one turn: the orders, then the clock, which must process the
// phase at once since every order is in, and not before the last mail.
func (w *wholeGame) play(tn wgTurn) {
	w.t.Helper()
	w.wantPhase(tn.phase)
	last := len(tn.orders) - 1
	w.send(tn.orders[:last])
	w.quietTick()
	w.send(tn.orders[last:])
	w.h.advance(time.Minute)
	w.results(tn.phase, tn.results...)
	w.wantPhase(tn.next)
}

// results runs the clock, which must queue exactly the results of phase to
// everyone, holding wants, with the next phase's deadline counted from
// now; it returns the body.
func (w *wholeGame) results(phase string, wants ...string) string {
	w.t.Helper()
	got := w.tick()
	if len(got) != 1 {
		w.t.Fatalf("processing %s queued %d mails, want the results only", phase, len(got))
	}
	m := w.toAll(got[0], "GMD:"+w.name+" - "+phase+" Results")
	next := w.phase()
	length := map[byte]time.Duration{'M': 72 * time.Hour, 'R': 24 * time.Hour, 'A': 24 * time.Hour}[next[len(next)-1]]
	deadline := w.h.now.Add(length)
	wants = append(wants, ":: Deadline: "+next+" "+wgStamp(deadline)+"\n",
		"The deadline for orders will be "+wgStamp(deadline)+".\n")
	ok := true
	for _, want := range wants {
		ok = w.has(m.Body, want) && ok
	}
	if !ok {
		w.t.FailNow()
	}
	return m.Body
}

// has reports whether text holds want, failing the test if not.
func (w *wholeGame) has(text, want string) bool {
	w.t.Helper()
	if !containsText(text, want) {
		w.t.Errorf("missing %q in:\n%s", want, text)
		return false
	}
	return true
}

// lacks reports whether text does not hold bad, failing the test if it does.
func (w *wholeGame) lacks(text, bad string) bool {
	w.t.Helper()
	if strings.Contains(text, bad) {
		w.t.Errorf("unexpected %q in:\n%s", bad, text)
		return false
	}
	return true
}

// position decodes the game's current position.
func (w *wholeGame) position() *judge.Position {
	w.t.Helper()
	pos, _, err := jsonpos.DecodePosition(w.h.game(w.name).Position)
	if err != nil {
		w.t.Fatal(err)
	}
	return pos
}

// phase returns the current phase: "S1901M".
func (w *wholeGame) phase() string { return w.position().Phase.String() }

func (w *wholeGame) wantPhase(want string) {
	w.t.Helper()
	if got := w.phase(); got != want {
		w.t.Fatalf("phase %s, want %s", got, want)
	}
}

// seat returns the seat of the named power.
func (w *wholeGame) seat(power string) state.Player {
	w.t.Helper()
	g := w.h.game(w.name)
	i := engine.PlayerByPower(g, power)
	if i < 0 {
		w.t.Fatalf("no seat for %s", power)
	}
	return g.Players[i]
}

// wantUnits checks every unit on the board, written "Russia: F StP/nc".
func (w *wholeGame) wantUnits(want ...string) {
	w.t.Helper()
	pos := w.position()
	var got []string
	for _, u := range pos.Units {
		if u.Type != judge.NoUnit {
			got = append(got, pos.Map.Powers[u.Power].Name+": "+u.Type.String()+" "+wgTitle(pos.Map.LocName(u.Loc)))
		}
	}
	slices.Sort(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		w.t.Errorf("units\n got %q\nwant %q", got, want)
	}
	if len(pos.Dislodged) != 0 {
		w.t.Errorf("dislodged units left: %v", pos.Dislodged)
	}
}

// wantCentres checks each power's supply centre count.
func (w *wholeGame) wantCentres(want map[string]int) {
	w.t.Helper()
	pos := w.position()
	for p, n := range pos.CenterCount() {
		if p >= len(pos.Map.Powers) {
			continue
		}
		if name := pos.Map.Powers[p].Name; n != want[name] {
			w.t.Errorf("%s has %d centres, want %d", name, n, want[name])
		}
	}
}

// wgTitle writes a short place name as players do: "Nwy", "StP/nc".
func wgTitle(name string) string {
	if name == "stp" || strings.HasPrefix(name, "stp/") {
		return "StP" + strings.TrimPrefix(name, "stp")
	}
	return strings.ToUpper(name[:1]) + name[1:]
}
