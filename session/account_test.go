package session

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// checkCached checks pw against hash for the seat key through the
// master's cache, as session.checkPassword does without its bcrypt
// bookkeeping; the guard (checkSeat) is the only caller there.
func checkCached(m *Master, key string, hash []byte, pw string) bool {
	if m.knownPassword(key, hash, pw) {
		return true
	}
	if len(hash) == 0 || bcrypt.CompareHashAndPassword(hash, []byte(pw)) != nil {
		return false
	}
	m.rememberPassword(key, hash, pw)
	return true
}

func TestCheckPassword(t *testing.T) {
	m := newTestMaster(t)
	h1, _ := bcrypt.GenerateFromPassword([]byte("one"), bcrypt.MinCost)
	h2, _ := bcrypt.GenerateFromPassword([]byte("two"), bcrypt.MinCost)
	if checkCached(m, "g/F", h1, "two") || checkCached(m, "g/F", nil, "") {
		t.Fatal("wrong password accepted")
	}
	if !checkCached(m, "g/F", h1, "one") {
		t.Fatal("right password refused")
	}
	if !checkCached(m, "g/F", h1, "one") {
		t.Fatal("right password refused from the cache")
	}
	// The cache holds only verified passwords: a wrong one after a right
	// one is still wrong, and a new hash (SET PASSWORD, takeover) makes
	// the old password fail even though it is cached.
	if checkCached(m, "g/F", h1, "onE") {
		t.Fatal("cache accepted a wrong password")
	}
	if checkCached(m, "g/F", h2, "one") {
		t.Fatal("old password accepted after the hash changed")
	}
	if !checkCached(m, "g/F", h2, "two") {
		t.Fatal("new password refused")
	}
}

func TestCreateErrors(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	tests := []struct{ body, want string }{
		{"CREATE ?dt pw", "A game named 'dt' already exists."},
		{"CREATE ?Bad_Name pw", "is not a game name"},
		{"CREATE ?waytoolonggamename pw", "is not a game name"},
		{"CREATE ?g2", "Use: CREATE ?game password [variant] [rules] [gunboat]."},
		{"CREATE ?g2 pw nosuchmap", `Unknown variant "nosuchmap"; the variants are: ` + strings.Join(variants.Names(), ", ") + "."},
		{"CREATE ?g2 pw standard datc-9", `Unknown rules "datc-9"`},
	}
	for _, tt := range tests {
		r := onlyTo(t, h.mail("x@example.org", "x", tt.body), "x@example.org")
		mustContain(t, r.Body, tt.want)
	}
	// The first mail gets the code and the line to send back with it.
	r := onlyTo(t, h.mail("x@example.org", "x", "CREATE ?G2 pw Standard datc-2.4"), "x@example.org")
	mustContain(t, r.Body, "Game 'g2' is not created yet.", "\n  CREATE ?g2 <your password> standard datc-2.4\n")
	r = onlyTo(t, h.confirm("x@example.org", "x", "CREATE ?G2 pw Standard datc-2.4"), "x@example.org")
	mustContain(t, r.Body, "Game 'g2' created: Standard, rules datc-2.4")
	if g := h.game("g2"); g.Rules != "datc-2.4" || g.Variant != "standard" {
		t.Fatalf("game g2: %+v", g)
	}
	// One sign-on per mail.
	r = onlyTo(t, h.confirm("x@example.org", "x", "CREATE ?g3 pw\nSIGNON ?dt pw"), "x@example.org")
	mustContain(t, r.Body, "Only one SIGNON, CREATE or OBSERVE per mail")
	if len(h.game("dt").Players) != 0 {
		t.Fatal("the second sign-on of a mail joined a game")
	}
}

func TestJoinForming(t *testing.T) {
	h := newHarness(t)
	h.create("dt")
	// "SIGNON ?" joins the first forming game, which the code names.
	r := onlyTo(t, h.mail("a@example.org", "x", "SIGNON ? pw-a"), "a@example.org")
	mustContain(t, r.Body, "You have not joined game 'dt' yet.", "\n  SIGNON ?dt <your password>\n")
	r = onlyTo(t, h.confirm("a@example.org", "x", "SIGNON ? pw-a"), "a@example.org")
	mustContain(t, r.Body, "You have joined game 'dt': 1 of 7 players. It starts when 6 more have joined.")
	r = onlyTo(t, h.mail("A@Example.org", "x", "SIGNON ?dt pw-a"), "A@Example.org")
	mustContain(t, r.Body, "You are already in game 'dt' (1 of 7 players).")
	r = onlyTo(t, h.mail("a@example.org", "x", "SIGNON ?dt nope"), "a@example.org")
	mustContain(t, r.Body, "Wrong password")
	r = onlyTo(t, h.mail("b@example.org", "x", "SIGNON Fdt pw-b"), "b@example.org")
	mustContain(t, r.Body, "Game 'dt' has not started yet")
	r = onlyTo(t, h.mail("b@example.org", "x", "SIGNON ?nogame pw-b"), "b@example.org")
	mustContain(t, r.Body, "There is no game named 'nogame'")
	// Leaving a forming game.
	r = onlyTo(t, h.mail("a@example.org", "x", "SIGNON ?dt pw-a\nRESIGN"), "a@example.org")
	mustContain(t, r.Body, "You have left game 'dt'.")
	if n := len(h.game("dt").Players); n != 0 {
		t.Fatalf("%d players after leaving", n)
	}
}

func TestAssignPowers(t *testing.T) {
	mp := variants.Standard()
	mk := func(prefs ...string) *state.Game {
		g := &state.Game{Name: "dt"}
		for i, p := range prefs {
			g.Players = append(g.Players, state.Player{Addr: fmt.Sprintf("p%d@x", i), Preference: p})
		}
		return g
	}
	powers := func(g *state.Game) map[string]string {
		out := map[string]string{}
		for _, p := range g.Players {
			out[p.Addr] = p.Power
		}
		return out
	}
	// Every power exactly once, in map order in the seat list.
	g := mk("", "", "", "", "", "", "")
	engine.AssignPowers(g, mp, testStart)
	var names []string
	for _, p := range g.Players {
		names = append(names, p.Power)
	}
	if want := []string{"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"}; !slices.Equal(names, want) {
		t.Fatalf("powers %v", names)
	}
	// The same game at the same time deals the same powers; another time
	// (almost surely) not.
	a, b := mk("", "", "", "", "", "", ""), mk("", "", "", "", "", "", "")
	engine.AssignPowers(a, mp, testStart)
	engine.AssignPowers(b, mp, testStart)
	if fmt.Sprint(powers(a)) != fmt.Sprint(powers(b)) {
		t.Fatal("the deal is not deterministic")
	}
	differs := false
	for i := 1; i < 10 && !differs; i++ {
		c := mk("", "", "", "", "", "", "")
		engine.AssignPowers(c, mp, testStart.Add(time.Duration(i)*time.Second))
		differs = fmt.Sprint(powers(a)) != fmt.Sprint(powers(c))
	}
	if !differs {
		t.Fatal("the deal never changes with the start time")
	}
	// Preferences are honoured where they do not clash.
	g = mk("T", "R", "FGE", "E", "I", "", "A")
	engine.AssignPowers(g, mp, testStart)
	got := powers(g)
	for addr, want := range map[string]string{"p0@x": "Turkey", "p1@x": "Russia", "p3@x": "England", "p4@x": "Italy", "p6@x": "Austria"} {
		if got[addr] != want {
			t.Errorf("%s got %s, want %s (%v)", addr, got[addr], want, got)
		}
	}
	if got["p2@x"] != "France" && got["p2@x"] != "Germany" {
		t.Errorf("p2 got %s, wanted France or Germany", got["p2@x"])
	}
}

func TestResignAndTakeover(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	got := h.orders("dt", "F", "A Par - Bur\nRESIGN\nA Mar - Spa")
	r := onlyTo(t, got, "france@example.org")
	mustContain(t, r.Body, "You have resigned France in game 'dt'.")
	var notice *state.OutMail
	for _, m := range got {
		if m.Subject == "GMD:dt - S1901M Resignation: France" {
			notice = m
		}
	}
	if notice == nil {
		t.Fatalf("no resignation notice among %d mails", len(got))
	}
	mustContain(t, notice.Body, "France is abandoned", "SIGNON Fdt")
	if !slices.Contains(notice.To, "germany@example.org") || !slices.Contains(notice.To, testMaster) || slices.Contains(notice.To, "france@example.org") {
		t.Errorf("resignation notice to %v", notice.To)
	}
	g := h.game("dt")
	i := engine.PlayerByPower(g, "France")
	if g.Players[i].Status != state.Abandoned {
		t.Fatalf("France is %s", g.Players[i].Status)
	}
	if got := g.Orders["France"]; !slices.Equal(got, []string{"A par - bur"}) {
		t.Fatalf("the order after RESIGN was applied: %q", got)
	}

	// Anyone may take the seat, with a password of their own, once they
	// show that the address is theirs.
	got = h.mail("newcomer@example.org", "x", "SIGNON Fdt fresh\nA Mar - Spa")
	r = onlyTo(t, got, "newcomer@example.org")
	mustContain(t, r.Body, "France in game 'dt' is free for takeover.")
	got = h.mail("newcomer@example.org", "x", "CONFIRM "+codeIn(t, r.Body)+"\nSIGNON Fdt fresh\nA Mar - Spa")
	r = replyTo(t, got, "newcomer@example.org")
	mustContain(t, r.Body, "You have taken over France in game 'dt'", "France: Army Marseilles -> Spain.")
	g = h.game("dt")
	p := g.Players[engine.PlayerByPower(g, "France")]
	if p.Status != state.Playing || p.Addr != "newcomer@example.org" {
		t.Fatalf("seat after takeover: %+v", p)
	}
	// The old password no longer opens the seat; the new one does.
	mustContain(t, onlyTo(t, h.orders("dt", "F", ""), "france@example.org").Body, "Wrong password")
	mustContain(t, onlyTo(t, h.mail("newcomer@example.org", "x", "SIGNON Fdt fresh"), "newcomer@example.org").Body, "Signed on as France")
	// The master cannot resign.
	mustContain(t, onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt pw-m\nRESIGN"), testMaster).Body, "A master cannot resign")
}

func TestObserve(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.observe("w@example.org", "dt", "pw-w", "")
	r := onlyTo(t, h.mail("W@example.org", "x", "WATCH dt pw-w\nA Par - Bur"), "W@example.org")
	mustContain(t, r.Body, "You are observing game 'dt'.", "Observers cannot give orders.")
	r = onlyTo(t, h.mail("w@example.org", "x", "SIGNON Odt bad"), "w@example.org")
	mustContain(t, r.Body, "Wrong password")
	if n := len(h.game("dt").Observers); n != 1 {
		t.Fatalf("%d observers, want 1", n)
	}
	if !slices.ContainsFunc(h.m.Recipients(h.game("dt")), func(a string) bool { return a == "w@example.org" }) {
		t.Fatal("the observer does not get the game's mail")
	}
	r = onlyTo(t, h.mail("w@example.org", "x", "OBSERVE dt pw-w\nRESIGN"), "w@example.org")
	mustContain(t, r.Body, "You no longer observe game 'dt'.")
	if n := len(h.game("dt").Observers); n != 0 {
		t.Fatalf("%d observers after RESIGN", n)
	}
}

func TestSetPassword(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	r := onlyTo(t, h.orders("dt", "F", "SET PASSWORD n3w"), "france@example.org")
	mustContain(t, r.Body, "Password changed.")
	mustContain(t, onlyTo(t, h.orders("dt", "F", ""), "france@example.org").Body, "Wrong password")
	mustContain(t, onlyTo(t, h.mail("france@example.org", "x", "SIGNON Fdt n3w"), "france@example.org").Body, "Signed on as France")
	h.mail(testMaster, "x", "SIGNON Mdt pw-m\nSET PASSWORD m2")
	mustContain(t, onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt m2"), testMaster).Body, "Signed on as the master")
	if !strings.Contains(onlyTo(t, h.mail(testMaster, "x", "SIGNON Mdt pw-m"), testMaster).Body, "Wrong password") {
		t.Fatal("the master's old password still works")
	}
}

// TestPasswordCost checks that new hashes are made at the configured
// cost, and at bcrypt's default when none is set: a host who raises it
// gets what was asked for, and nobody gets the tests' cheap cost by
// accident. Hashing at bcrypt's default cost takes seconds under the
// race detector and no goroutine but the test's: the plain pass runs it.
func TestPasswordCost(t *testing.T) {
	racetest.Sequential(t)
	for _, tc := range []struct{ set, want int }{
		{0, bcrypt.DefaultCost},
		{bcrypt.MinCost, bcrypt.MinCost},
		{bcrypt.MinCost + 1, bcrypt.MinCost + 1},
	} {
		m := New(nil, engine.Config{Config: config.Config{PasswordCost: tc.set}})
		h, msg := m.hashPassword("secret")
		if msg != "" {
			t.Fatalf("cost %d: %s", tc.set, msg)
		}
		if got, err := bcrypt.Cost(h); err != nil || got != tc.want {
			t.Errorf("PasswordCost %d: hash of cost %d (%v), want %d", tc.set, got, err, tc.want)
		}
		if bcrypt.CompareHashAndPassword(h, []byte("secret")) != nil {
			t.Errorf("PasswordCost %d: the hash does not check", tc.set)
		}
	}
}

// TestAdminSignon checks that a judge admin signs on as the master of any
// game without a password and may use the master's commands, and that
// nobody else can, with a password or without.
func TestAdminSignon(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.m.cfg.Admins = []string{"Keeper@Example.org"}

	r := onlyTo(t, h.mail("keeper@example.org", "rescue", "SIGNON Mdt\nPAUSE"), "keeper@example.org")
	mustContain(t, r.Body, "Signed on as the master of 'dt', as an admin of this judge")
	mustNotContain(t, r.Body, "Error")
	if g := h.game("dt"); g.Status != state.Paused {
		t.Errorf("the admin's PAUSE left the game %s", g.Status)
	}
	err := h.m.db.View(func(tx *state.Tx) error {
		u, err := tx.User("keeper@example.org")
		if err == nil && len(u.Games) > 0 {
			t.Errorf("the admin is recorded as playing %v", u.Games)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// Anyone else needs the master's password, and a wrong one fails.
	r = onlyTo(t, h.mail("france@example.org", "try", "SIGNON Mdt\nRESUME"), "france@example.org")
	mustContain(t, r.Body, "Use: SIGNON Pgame password")
	r = onlyTo(t, h.mail("france@example.org", "try", "SIGNON Mdt guess\nRESUME"), "france@example.org")
	mustNotContain(t, r.Body, "Signed on as the master")
	if g := h.game("dt"); g.Status != state.Paused {
		t.Errorf("a player resumed the game as master: %s", g.Status)
	}
	// An admin's SIGNON for a game that does not exist fails as anyone's.
	r = onlyTo(t, h.mail("keeper@example.org", "typo", "SIGNON Mxx\nRESUME"), "keeper@example.org")
	mustNotContain(t, r.Body, "Signed on as the master")
}

// TestReturnFromCivilDisorder: a player whose seat fell into civil
// disorder signs on again from their own address. They are back, not a
// newcomer: the reply and the notice say so (njudge: "has returned as
// France"), and the seat keeps its late count.
func TestReturnFromCivilDisorder(t *testing.T) {
	racetest.Sequential(t) // one mail after another, on one goroutine: the plain pass runs it
	h := newHarness(t)
	h.startStandard("dt")
	g := h.game("dt")
	g.Settings.NMR = true
	fr := &g.Players[engine.PlayerByPower(g, "France")]
	fr.Status, fr.Late = state.Disorder, 2
	h.putGame(g)

	got := h.orders("dt", "F", "A Par - Bur")
	r := replyTo(t, got, "france@example.org")
	mustContain(t, r.Body, "Welcome back: you play France in game 'dt' again", "France: Army Paris -> Burgundy.")
	mustNotContain(t, r.Body, "taken over")
	var notice *state.OutMail
	for _, m := range got {
		if strings.Contains(m.Subject, "France") && !strings.HasPrefix(m.Subject, "Re: ") {
			notice = m
		}
	}
	if notice == nil || notice.Subject != "GMD:dt - S1901M Return of France" {
		t.Fatalf("no return notice among %d mails (last %v)", len(got), notice)
	}
	mustContain(t, notice.Body, "france@example.org has returned as France in game 'dt'.")
	mustNotContain(t, notice.Body, "taken over")
	g = h.game("dt")
	if p := g.Players[engine.PlayerByPower(g, "France")]; p.Status != state.Playing || p.Late != 2 {
		t.Errorf("France's seat after the return: %s, late %d; want playing, late 2", p.Status, p.Late)
	}

	// Someone else at a seat in civil disorder takes it over.
	g = h.game("dt")
	g.Players[engine.PlayerByPower(g, "Italy")].Status = state.Disorder
	h.putGame(g)
	r = replyTo(t, h.mail("new@example.org", "x", "SIGNON Idt fresh"), "new@example.org")
	code := codeIn(t, r.Body)
	r = replyTo(t, h.mail("new@example.org", "x", "CONFIRM "+code+"\nSIGNON Idt fresh"), "new@example.org")
	mustContain(t, r.Body, "You have taken over Italy in game 'dt'")
}
