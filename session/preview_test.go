package session

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/picture"
	"github.com/gmdjudge/gmd/state"
)

// gameBytes returns game's record as stored, to show that nothing
// changed it.
func gameBytes(t *testing.T, h *harness, game string) []byte {
	t.Helper()
	b, err := json.Marshal(h.game(game))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPreview: a player previews the phase with its own orders, every
// other unit holding; another power's real orders are never read, and
// nothing is stored. The results read as the results mail would, and
// the map of the preview is drawn from the reference the reply carries.
func TestPreview(t *testing.T) {
	h := newHarness(t)
	h.startStandard("pv")
	h.orders("pv", "F", "A Par - Bur\nA Mar S A Par - Bur")
	h.orders("pv", "G", "A Mun - Bur\nA Ber - Kie") // Germany's secret
	before := gameBytes(t, h, "pv")
	addr, _ := seatOf("F")
	r := onlyTo(t, h.orders("pv", "F", "PREVIEW"), addr)
	t.Log(r.Body)
	mustContain(t, r.Body, "PREVIEW ONLY: Spring of 1901 as if processed now, with France's orders, every other unit holding.",
		"Movement results for Spring of 1901. (pv.001)",
		"France: Army Paris -> Burgundy.", "France: Army Marseilles SUPPORT Army Paris -> Burgundy.",
		"Germany: Army Munich, No Order Processed.", "Germany: Army Berlin, No Order Processed.",
		"The next phase of 'pv' will be Movement for Fall of 1901.",
		"The map of the preview is attached: S1901M-preview.png.")
	mustNotContain(t, r.Body, "Army Berlin ->", "Army Munich ->")
	if !bytes.Equal(gameBytes(t, h, "pv"), before) {
		t.Error("PREVIEW changed the game")
	}
	if len(r.Maps) != 1 || r.Maps[0].Preview == nil || r.Maps[0].Name() != "S1901M-preview.png" {
		t.Fatalf("maps %+v", r.Maps)
	}
	if _, ok := r.Maps[0].Preview["Germany"]; ok {
		t.Errorf("the preview's map holds Germany's orders: %v", r.Maps[0].Preview)
	}
	d := new(testDrawer)
	rd := engine.NewMapRenderer(h.m.DB(), d.draw, picture.MaxPNGBytes)
	if _, err := rd.PNG(r.Maps[0]); err != nil {
		t.Fatal(err)
	}
	if len(d.res) != 1 || len(d.res[0].Results) != 22 {
		t.Fatalf("drew %d pictures", len(d.res))
	}
	for _, x := range d.res[0].Results {
		if x.Order.Power != 1 && x.Order.Power != 2 && !x.Default {
			t.Errorf("the preview's map has a non-default order for %v: %+v", x.Order.Power, x)
		}
	}
	// Once the phase is processed, the preview's map is gone.
	h.processNow("pv")
	if _, err := engine.NewMapRenderer(h.m.DB(), d.draw, picture.MaxPNGBytes).PNG(r.Maps[0]); err == nil {
		t.Error("a preview of a processed phase was drawn")
	}
}

// TestPreviewSandbox: the orders written under PREVIEW, for any power,
// are the preview's alone: the stored orders of every power stay as they
// were, and a bad line is reported.
func TestPreviewSandbox(t *testing.T) {
	h := newHarness(t)
	h.startStandard("ps")
	h.orders("ps", "F", "A Par - Bur")
	h.orders("ps", "G", "A Mun - Tyr")
	before := gameBytes(t, h, "ps")
	addr, _ := seatOf("F")
	r := onlyTo(t, h.orders("ps", "F", "PREVIEW\nGermany: A Mun - Bur\nIF German A Mun\n  A Mar - Bur\nENDIF\nA Bre - Xyz\nItaly: A Ven - Mun"), addr)
	t.Log(r.Body)
	mustContain(t, r.Body, "with France's orders and those written for Germany",
		"Germany: Army Munich -> Burgundy. (*bounce*)", "France: Army Paris -> Burgundy. (*bounce*)",
		"France: Army Marseilles -> Burgundy. (*bounce*)", "IF German A Mun: true",
		`A Bre - Xyz: Unknown province "Xyz"`, "A Ven - Mun: ")
	mustNotContain(t, r.Body, "Tyrolia")
	if !bytes.Equal(gameBytes(t, h, "ps"), before) {
		t.Error("PREVIEW's sandbox changed the game")
	}
	// The acknowledgement after it is France's real orders.
	mustContain(t, r.Body, "Movement orders for Spring of 1901. (ps.001)")
	ack := r.Body[strings.Index(r.Body, "Movement orders for Spring of 1901."):]
	mustNotContain(t, ack, "Marseilles ->")
}

// TestPreviewRefusals: one PREVIEW a mail; observers, a master acting
// for no power, a game not running, and forged senders get none.
func TestPreviewRefusals(t *testing.T) {
	h := newHarness(t)
	h.startStandard("pr")
	h.orders("pr", "G", "A Mun - Bur")
	addr, _ := seatOf("F")
	r := onlyTo(t, h.orders("pr", "F", "PREVIEW\nPREVIEW"), addr)
	mustContain(t, r.Body, "One PREVIEW a mail: this one was not run.")
	if n := strings.Count(r.Body, "Movement results for"); n != 1 {
		t.Errorf("%d previews in one mail", n)
	}
	r = onlyTo(t, h.mail(testMaster, "p", "SIGNON Mpr "+testMasterPass+"\nPREVIEW"), testMaster)
	mustContain(t, r.Body, "BECOME the power first")
	h.observe("watcher@example.org", "pr", "pw-w", "")
	r = onlyTo(t, h.mail("watcher@example.org", "p", "OBSERVE pr pw-w\nPREVIEW"), "watcher@example.org")
	mustContain(t, r.Body, "Observers cannot give orders.")
	mustNotContain(t, r.Body, "results for")
	// Forged: Germany's address without its password, with a wrong one,
	// and France's seat trying to act for Germany: Germany's orders
	// never show.
	gaddr, _ := seatOf("G")
	for _, body := range []string{"PREVIEW", "SIGNON Gpr wrong\nPREVIEW", "SIGNON Fpr pw-f\nBECOME Germany\nPREVIEW"} {
		got := h.mail(gaddr, "p", body)
		for _, m := range got {
			if strings.Contains(m.Body, "Munich ->") || strings.Contains(m.Body, "Germany's orders") {
				t.Errorf("%q answered with Germany's orders:\n%s", body, m.Body)
			}
		}
		if body != "SIGNON Fpr pw-f\nBECOME Germany\nPREVIEW" && strings.Contains(got[0].Body, "results for") {
			t.Errorf("%q answered with a preview", body)
		}
	}
	g := h.game("pr")
	g.Status = state.Finished
	h.putGame(g)
	r = onlyTo(t, h.orders("pr", "F", "PREVIEW"), addr)
	mustContain(t, r.Body, "is over")
}
