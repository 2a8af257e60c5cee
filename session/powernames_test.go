package session

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestOrdersWithPowerNamesOfSeveralWords plays a vietnam-war order mail
// whose lines begin "North Vietnam:", as players of that variant write
// them: the orders are taken as North Vietnam's, and a line for South
// Vietnam is refused as another power's, not misread.
func TestOrdersWithPowerNamesOfSeveralWords(t *testing.T) {
	h := newHarness(t)
	seats := h.startAnyVariant("vw", "vietnam-war", "")
	nv := seats["North Vietnam"]
	body := "SIGNON Nvw " + nv.Pass + "\n" +
		"North Vietnam: A thn - nov\n" +
		"North Vietnamese A thh - vin\n" +
		"north vietnam: F han - non\n" +
		"South Vietnam: A sag H\n"
	r := replyTo(t, h.mail(nv.Addr, "orders", body), nv.Addr).Body
	mustContain(t, r, "South Vietnam: A sag H: You are North Vietnam, not South Vietnam.")
	if n := strings.Count(r, "Error ("); n != 1 {
		t.Errorf("%d errors in the reply, want 1:\n%s", n, r)
	}
	got := h.game("vw").Orders["North Vietnam"]
	want := []string{"A thn - nov", "A thh - vin", "F han - non"}
	if !slices.Equal(got, want) {
		t.Errorf("North Vietnam's orders %q, want %q; reply:\n%s", got, want, r)
	}
	if got := h.game("vw").Orders["South Vietnam"]; len(got) != 0 {
		t.Errorf("South Vietnam's orders %q, want none", got)
	}
}

// TestCommandsTakePowerNamesOfSeveralWords checks that PRESS TO, BECOME
// and EJECT read "North Vietnam" as an order line's prefix does.
func TestCommandsTakePowerNamesOfSeveralWords(t *testing.T) {
	mp, err := variants.Load("vietnam-war")
	if err != nil {
		t.Fatal(err)
	}
	nv, _ := mp.PowerByName("North Vietnam")
	sv, _ := mp.PowerByName("South Vietnam")
	th, _ := mp.PowerByName("Thailand")
	for _, c := range []struct {
		in     string
		powers []judge.Power
		master bool
	}{
		{"North Vietnam", []judge.Power{nv}, false},
		{"north vietnam, South Vietnamese and T", []judge.Power{nv, th, sv}, false},
		{"NS", []judge.Power{nv, sv}, false},
		{"NORTH-VIETNAM M", []judge.Power{nv}, true},
	} {
		got, msg := parseRecipients(mp, strings.Fields(c.in))
		if msg != "" || got.master != c.master || !slices.Equal(got.powers, c.powers) {
			t.Errorf("PRESS TO %s: %+v %q, want %v master=%v", c.in, got, msg, c.powers, c.master)
		}
	}
	for _, in := range []string{"North", "Vietnam", "North Vietnam Laos"} {
		if _, ok := engine.PowerNamed(mp, strings.Fields(in)); ok {
			t.Errorf("%q names a power", in)
		}
	}
	// "North" alone is no power: read letter by letter it has an O.
	if _, msg := parseRecipients(mp, []string{"North"}); msg == "" {
		t.Errorf("PRESS TO North: no error")
	}

	h := newHarness(t)
	h.startAnyVariant("vw", "vietnam-war", "")
	r := onlyTo(t, h.mail(testMaster, "x", "SIGNON Mvw "+testMasterPass+"\nBECOME north vietnam\nA thn - nov"), testMaster).Body
	mustContain(t, r, "You are acting for North Vietnam")
	if got := h.game("vw").Orders["North Vietnam"]; !slices.Equal(got, []string{"A thn - nov"}) {
		t.Errorf("North Vietnam's orders %q after BECOME; reply:\n%s", got, r)
	}
	r = onlyTo(t, h.mail(testMaster, "x", "SIGNON Mvw "+testMasterPass+"\nBECOME North Korea"), testMaster).Body
	mustContain(t, r, `"North Korea" is not a power of`)
}
