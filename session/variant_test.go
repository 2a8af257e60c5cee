package session

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// startVariant creates a game of the variant and has the seven players of
// standardSeats join it, each asking for their own power.
func (h *harness) startVariant(name, variant string) {
	h.t.Helper()
	r := onlyTo(h.t, h.confirm(testMaster, "new game", "CREATE ?"+name+" "+testMasterPass+" "+variant), testMaster)
	if !strings.Contains(r.Body, "created") {
		h.t.Fatalf("CREATE reply:\n%s", r.Body)
	}
	for _, s := range standardSeats {
		h.join(s.Addr, name, s.Pass, s.Letter, "")
	}
	if g := h.game(name); g.Status != state.Active {
		h.t.Fatalf("game %s is %s after seven sign-ons", name, g.Status)
	}
}

// results ticks the clock and returns the results mail of the phase it
// processed, as the master got it.
func (h *harness) results(game, phase string) string {
	h.t.Helper()
	for _, m := range mailsTo(h.tick(), testMaster) {
		if m.Subject == "GMD:"+game+" - "+phase+" Results" {
			return m.Body
		}
	}
	h.t.Fatalf("no results of %s; the game is at %s", phase, h.m.PhaseOf(h.game(game)))
	return ""
}

// TestVariant343536 plays two years of "34, 35, 36" by mail: England and
// Turkey each build a supply centre and use it, Russia's construction is
// spoiled by a German army, and the mails say so at every step: the Fall's
// results and the Winter's that follow both say what became of each
// construction.
func TestVariant343536(t *testing.T) {
	h := newHarness(t)
	h.startVariant("ccc", "34-35-36")
	g := h.game("ccc")
	if g.Variant != "34-35-36" {
		t.Fatalf("variant %q", g.Variant)
	}
	r := onlyTo(t, h.mail("anyone@example.org", "x", "LIST ccc"), "anyone@example.org")
	mustContain(t, r.Body, "Game 'ccc': 34, 35, 36, rules datc-3.0, active.", "Victory needs 18 of the 34 supply centres.")

	holdAll := map[string]string{
		"A": "A Vie H, A Bud H, F Tri H",
		"F": "F Bre H, A Par H, A Mar H",
		"I": "F Nap H, A Rom H, A Ven H",
	}
	send := func(orders map[string]string) {
		t.Helper()
		for _, letter := range []string{"A", "E", "F", "G", "I", "R", "T"} {
			body, ok := orders[letter]
			if !ok {
				body = holdAll[letter]
			}
			if body == "" {
				continue
			}
			r := replyTo(t, h.orders("ccc", letter, body), mustAddr(letter))
			mustNotContain(t, r.Body, "Error")
		}
	}

	// 1901: England takes Norway and Belgium, Turkey Bulgaria, Russia
	// Rumania and Sweden; a German army goes to Prussia.
	send(map[string]string{
		"E": "F Edi - Nth\nF Lon - Eng\nA Lvp - Yor",
		"G": "A Ber - Pru\nA Mun H\nF Kie H",
		"R": "F StP/sc - Bot\nA Mos - Ukr\nF Sev - Rum\nA War H",
		"T": "F Ank - Bla\nA Con - Bul\nA Smy - Arm",
	})
	h.results("ccc", "S1901M")
	send(map[string]string{
		"E": "F Nth C A Yor - Nwy\nA Yor - Nwy\nF Eng - Bel",
		"G": "A Pru H, A Mun H, F Kie H",
		"R": "F Bot - Swe\nA Ukr H\nF Rum H\nA War H",
		"T": "F Bla H\nA Bul H\nA Arm H",
	})
	text := h.results("ccc", "F1901M")
	mustContain(t, text, "England:   Belgium, Edinburgh, Liverpool, London, Norway.",
		"Victory needs 18 of the 34 supply centres.",
		"The next phase of 'ccc' will be Adjustments for Winter of 1901.")

	// Winter 1901. England's acknowledgement offers the construction
	// before any order, and explains it.
	r = replyTo(t, h.orders("ccc", "E", ""), "england@example.org")
	mustContain(t, r.Body, "England:   2 builds pending.",
		"England may give up one build to start a supply centre in Clyde, Wales or\nYorkshire instead")
	// A construction outside England's home country is refused, naming
	// the rule.
	r = replyTo(t, h.orders("ccc", "E", "s.c. Belgium"), "england@example.org")
	mustContain(t, r.Body, "s.c. Belgium: Rule 4b: Belgium is not in England's home country.")
	// The rule book's own order: an army and a construction on one line.
	r = replyTo(t, h.orders("ccc", "E", "A Lvp, s.c. Yor"), "england@example.org")
	mustContain(t, r.Body, "England:   Builds an army in Liverpool.",
		"England:   Starts building a supply centre in Yorkshire.", "England's orders are complete.")
	mustNotContain(t, r.Body, "Error", "may give up one build")
	if got := h.game("ccc").Orders["England"]; strings.Join(got, "; ") != "build A lvp; build sc yor" {
		t.Errorf("England's stored orders %q", got)
	}
	// A second construction replaces the first (one a year).
	r = replyTo(t, h.orders("ccc", "T", "build sc Armenia\nBuild s.c. Jordan"), "turkey@example.org")
	mustContain(t, r.Body, "Turkey:    Starts building a supply centre in Jordan.", "Turkey's orders are complete.")
	mustNotContain(t, r.Body, "Armenia.")
	r = replyTo(t, h.orders("ccc", "R", "Build A Mos\nsc Livonia"), "russia@example.org")
	mustContain(t, r.Body, "Russia:    Builds an army in Moscow.", "Russia:    Starts building a supply centre in Livonia.")
	text = h.results("ccc", "W1901A")
	mustContain(t, text,
		"England:   Builds an army in Liverpool.",
		"England:   Starts building a supply centre in Yorkshire.",
		"Russia:    Starts building a supply centre in Livonia.",
		"Turkey:    Starts building a supply centre in Jordan.",
		"Supply centres under construction:\n\nEngland:   Yorkshire.\nRussia:    Livonia.\nTurkey:    Jordan.\n",
		"A supply centre under construction is built when the Fall of 1902 ends, unless")
	pos, _, err := h.m.Position(h.game("ccc"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pos.PendingCenters) != 3 || pos.Phase.String() != "S1902M" {
		t.Fatalf("pending %+v in %s", pos.PendingCenters, pos.Phase)
	}

	// 1902: the German army in Prussia walks into Livonia.
	send(map[string]string{
		"E": "F Nth H, F Bel H, A Nwy H, A Lvp H",
		"G": "A Pru - Lvn\nA Mun H\nF Kie H",
		"R": "F Swe H\nA Ukr H\nF Rum H\nA War H\nA Mos H",
		"T": "F Bla H\nA Bul H\nA Arm H",
	})
	text = h.results("ccc", "S1902M")
	mustContain(t, text, "Germany: Army Prussia -> Livonia.",
		"Russia:    Livonia (will not be built: a German unit was ordered there in\n           S1902M).",
		"England:   Yorkshire.\n")
	send(map[string]string{
		"E": "F Nth H, F Bel H, A Nwy H, A Lvp H",
		"G": "A Lvn H\nA Mun H\nF Kie H",
		"R": "F Swe H\nA Ukr H\nF Rum H\nA War H\nA Mos H",
		"T": "F Bla H\nA Bul H\nA Arm H",
	})
	text = h.results("ccc", "F1902M")
	mustContain(t, text,
		"Supply centre construction:",
		"England builds a supply centre in Yorkshire.",
		"Russia's supply centre in Livonia was not built: a German unit was ordered\nthere in S1902M.",
		"Turkey builds a supply centre in Jordan.",
		"England:   Belgium, Edinburgh, Liverpool, London, Norway, Yorkshire.",
		"Turkey:    Ankara, Bulgaria, Constantinople, Jordan, Smyrna.",
		"England:   6 Supply centers,  4 Units:  Builds   2 units.",
		"Turkey:    5 Supply centers,  3 Units:  Builds   2 units.",
		"Victory needs 19 of the 36 supply centres.")
	mustNotContain(t, text, "Livonia.")
	// The Winter's position keeps them for the Winter's results.
	mustContain(t, string(h.game("ccc").Position), `"ended_constructions":[{"power":"England","at":"yor","ordered":"W1901A"},`+
		`{"power":"Russia","at":"lvn","ordered":"W1901A","spoiled_by":"Germany","spoiled_in":"S1902M"},`+
		`{"power":"Turkey","at":"jor","ordered":"W1901A"}]`)

	// Winter 1902: the new centres take builds at once (rule 6), and
	// England starts another centre (a new year, rule 8).
	r = replyTo(t, h.orders("ccc", "E", "Build F Yor, s.c. Wales"), "england@example.org")
	mustContain(t, r.Body, "England:   Builds a fleet in Yorkshire.", "England:   Starts building a supply centre in Wales.")
	mustNotContain(t, r.Body, "Error")
	send(map[string]string{"E": "", "A": "", "F": "", "I": "", "G": "", "R": "Build F Sev", "T": "Build A Jor\nBuild F Con"})
	text = h.results("ccc", "W1902A")
	mustContain(t, text, "England:   Builds a fleet in Yorkshire.", "Turkey:    Builds an army in Jordan.",
		"Russia:    Builds a fleet in Sevastopol.", "England:   Wales.",
		// What became of last Winter's constructions, said again with the
		// builds they allow, and why Russia's failed.
		"\nSupply centres started in Winter of 1901:\n\n"+
			"England's supply centre in Yorkshire was built.\n"+
			"Russia's supply centre in Livonia was not built: a German unit was ordered\nthere in S1902M.\n"+
			"Turkey's supply centre in Jordan was built.\n")
	if i, j := strings.Index(text, "Supply centres started in"), strings.Index(text, "Supply centres under construction:"); i < 0 || j < i {
		t.Errorf("the ended constructions do not come before the new ones:\n%s", text)
	}
	r = onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY ccc W1902A"), "anyone@example.org")
	mustContain(t, r.Body, "Russia's supply centre in Livonia was not built")

	// The state kept between phases, and what everyone can look up.
	g = h.game("ccc")
	mustContain(t, string(g.Position), `"built_centers":["jor","yor"]`,
		`"pending_centers":[{"power":"England","at":"wal","ordered":"W1902A"}]`)
	mustNotContain(t, string(g.Position), "ended_constructions")
	r = onlyTo(t, h.mail("anyone@example.org", "x", "SUMMARY ccc"), "anyone@example.org")
	mustContain(t, r.Body,
		"  1901   3   5   3   3   3   6   4",
		"  1902   3   6   3   3   3   6   5",
		"Supply centres built: Jordan (Turkey, 1902), Yorkshire (England, 1902).",
		"Under construction: Wales (England).",
		"Victory needs 19 of the 36 supply centres.")
	r = onlyTo(t, h.mail("anyone@example.org", "x", "HISTORY ccc F1902M"), "anyone@example.org")
	mustContain(t, r.Body, "England builds a supply centre in Yorkshire.")
	r = onlyTo(t, h.mail("anyone@example.org", "x", "LIST ccc"), "anyone@example.org")
	mustContain(t, r.Body, "Built during the game: Jordan, Yorkshire.", "Under construction: Wales (England).")
	if pos, _, err = h.m.Position(g); err != nil {
		t.Fatal(err)
	}
	if !pos.IsCenter(pos.Map.Names()["yor"]) || pos.Phase != (judge.Phase{Season: judge.Spring, Year: 1903, Type: judge.Movement}) {
		t.Errorf("position %s, Yorkshire a centre: %v", pos.Phase, pos.IsCenter(pos.Map.Names()["yor"]))
	}
	// No line of the game's mails, constructions and all, is wider than
	// 78 characters, but for the classic layout's exceptions.
	wantNarrow(t, h.outbox())
}

// mustAddr returns the address of the player of a power letter.
func mustAddr(letter string) string {
	addr, _ := seatOf(letter)
	return addr
}

// TestConstructionAckStandard: on the standard map a construction is
// refused with the reason, and no acknowledgement offers one.
func TestConstructionAckStandard(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.setPosition("dt", winter1901)
	r := onlyTo(t, h.orders("dt", "F", "s.c. Gascony"), "france@example.org")
	mustContain(t, r.Body, "s.c. Gascony: Supply centre construction is not allowed in this variant.",
		"France:    3 builds pending.")
	mustNotContain(t, r.Body, "may give up one build")
}
