package session

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// startProxyGame creates a standard game whose master allows proxy
// orders, and starts it.
func startProxyGame(t *testing.T, h *harness, name string) {
	t.Helper()
	h.create(name)
	r := replyTo(t, h.mail(testMaster, "set", "SIGNON M"+name+" "+testMasterPass+"\nSET PROXY"), testMaster)
	mustContain(t, r.Body, "Proxy orders are allowed")
	joinAll(h, name)
}

// TestProxy: Germany hands its army in Munich to France, France orders
// it, the phase is processed with France's order for it, and the grant
// ends with the phase. Germany takes another unit back by ordering it.
func TestProxy(t *testing.T) {
	h := newHarness(t)
	startProxyGame(t, h, "px")
	mustContain(t, onlyTo(t, h.mail("someone@example.org", "list", "LIST px"), "someone@example.org").Body, "a power may hand a unit's order to another for a phase")
	faddr, _ := seatOf("F")
	gaddr, _ := seatOf("G")
	r := onlyTo(t, h.orders("px", "G", "A Mun - Ruh\nPROXY A Mun TO France\nPROXY F Kie TO France\nA Ber H"), gaddr)
	t.Log(r.Body)
	mustContain(t, r.Body, "The army in Munich is France's to order in S1901M (PROXY)",
		"Germany's army in Munich is handed to France to order (PROXY).", "Germany's orders are complete.")
	mustNotContain(t, r.Body, "Army Munich -> Ruhr")
	// Germany takes its fleet back by ordering it.
	r = onlyTo(t, h.orders("px", "G", "F Kie - Hol"), gaddr)
	mustContain(t, r.Body, "Germany orders its fleet in Kiel again: France no longer does.", "Germany: Fleet Kiel -> Holland.")
	r = onlyTo(t, h.orders("px", "F", "A Mun - Bur\nF Kie - Den\nA Par - Pic"), faddr)
	t.Log(r.Body)
	mustContain(t, r.Body, "France orders the German army in Munich (PROXY).", "Germany: Army Munich -> Burgundy.", `F Kie - Den: France does not own the fleet in Kiel`)
	mustNotContain(t, r.Body, "Holland") // Germany's own order stays Germany's
	g := h.game("px")
	if got := strings.Join(g.Orders["France"], ";"); !strings.Contains(got, "A mun - bur") {
		t.Errorf("France's orders %q", got)
	}
	if strings.Contains(strings.Join(g.Orders["Germany"], ";"), "mun") {
		t.Errorf("Germany's orders %q keep the handed army's", g.Orders["Germany"])
	}
	// France's preview orders the handed army as Germany's; Germany's
	// own shows nothing of France's order for it.
	mustContain(t, onlyTo(t, h.orders("px", "F", "PREVIEW"), faddr).Body, "Germany: Army Munich -> Burgundy.")
	mustContain(t, onlyTo(t, h.orders("px", "G", "PREVIEW"), gaddr).Body, "Germany: Army Munich, No Order Processed.")
	res := resultsMails(h.processNow("px"))
	if len(res) == 0 {
		t.Fatal("no results")
	}
	mustContain(t, res[0].Body, "Germany: Army Munich -> Burgundy.", "Germany: Fleet Kiel -> Holland.")
	if g := h.game("px"); g.Proxies != nil {
		t.Errorf("proxies outlive the phase: %v", g.Proxies)
	}
}

// TestProxyRefusals: a game without SET PROXY, another power's unit, a
// retreat phase, bad words, and forged senders hand nothing.
func TestProxyRefusals(t *testing.T) {
	h := newHarness(t)
	h.startStandard("np")
	gaddr, _ := seatOf("G")
	r := onlyTo(t, h.orders("np", "G", "PROXY A Mun TO France"), gaddr)
	mustContain(t, r.Body, "Game 'np' has no proxy orders")
	r = replyTo(t, h.mail(testMaster, "set", "SIGNON Mnp "+testMasterPass+"\nSET PROXY"), testMaster)
	mustContain(t, r.Body, "SET PROXY is set before the start")

	startProxyGame(t, h, "pz")
	for _, c := range []struct{ body, want string }{
		{"PROXY A Par TO France", "Germany has no army in Paris."},
		{"PROXY F Mun TO France", "Germany has no fleet in Munich."},
		{"PROXY A Mun", "Use: PROXY unit TO power"},
		{"PROXY A Mun TO Narnia", `"Narnia" is not a power of Standard`},
		{"PROXY A Xyz TO France", `Unknown province "Xyz"`},
		{"PROXY A Mun TO Germany", "was not handed to anyone"},
	} {
		mustContain(t, onlyTo(t, h.orders("pz", "G", c.body), gaddr).Body, c.want)
	}
	// Forged: Germany's address without the password, with a wrong one;
	// France's seat handing Germany's unit.
	for _, body := range []string{"PROXY A Mun TO France", "SIGNON Gpz wrong\nPROXY A Mun TO France"} {
		h.mail(gaddr, "p", body)
	}
	faddr, _ := seatOf("F")
	mustContain(t, onlyTo(t, h.orders("pz", "F", "PROXY A Mun TO France"), faddr).Body, "France has no army in Munich.")
	h.mail(faddr, "p", "SIGNON Fpz pw-f\nBECOME Germany\nPROXY A Mun TO France")
	if g := h.game("pz"); g.Proxies != nil {
		t.Fatalf("a refused or forged PROXY handed %v", g.Proxies)
	}
	// Nor may France order Germany's army, not handed.
	r = onlyTo(t, h.orders("pz", "F", "A Mun - Bur"), faddr)
	mustContain(t, r.Body, "France does not own the army in Munich")
	g := h.game("pz")
	g.Status = state.Finished
	h.putGame(g)
	mustContain(t, onlyTo(t, h.orders("pz", "G", "PROXY A Mun TO France"), gaddr).Body, "is over")
}
