package export

import (
	"bytes"
	"testing"

	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// masterExport writes the master's export of g.
func masterExport(t *testing.T, g *state.Game, recs []*state.PhaseRecord, press []*state.Press, names map[string]string) []byte {
	t.Helper()
	doc, err := BuildWith(g, recs, press, view.Settings{Press: g.Settings.Press}, Options{Master: true, Players: names})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMasterExportPrivacy: the master's export of a running gunboat game
// holds the pending orders but no address, password hash, private press
// or player's name; once the game is over and revealed, the names show;
// the observers' export never holds either.
func TestMasterExportPrivacy(t *testing.T) {
	g, recs := played(t, "standard", 1)
	g.Status, g.Result = state.Active, ""
	g.Orders = map[string][]string{"France": {"PENDING-ORDER"}}
	g.Observers = []state.Observer{{Addr: "watcher@secret.example", PassHash: []byte("OBSHASH")}}
	press := publicAndPrivate(recs[0].Phase, recs[1].Phase)
	names := map[string]string{"France": "PUBLIC-NAME"}
	secrets := []string{"secret.example", "HASH", "PRIVATE-SECRET", "master_addr", "pass_hash"}

	out := masterExport(t, g, recs, press, names)
	for _, secret := range append(secrets, "PUBLIC-NAME") {
		if bytes.Contains(out, []byte(secret)) {
			t.Errorf("the master's export of a running gunboat game contains %q", secret)
		}
	}
	for _, want := range []string{"PENDING-ORDER", `"view": "master"`, "Welcome, everyone."} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("the master's export lacks %q", want)
		}
	}

	g.Status, g.Result, g.Revealed = state.Finished, "terminated", true
	out = masterExport(t, g, recs, press, names)
	if !bytes.Contains(out, []byte(`"player": "PUBLIC-NAME"`)) {
		t.Error("the master's export of a revealed gunboat game lacks the player's public name")
	}
	if bytes.Contains(out, []byte("PENDING-ORDER")) {
		t.Error("the master's export of a finished game has pending orders")
	}
	for _, secret := range secrets {
		if bytes.Contains(out, []byte(secret)) {
			t.Errorf("the master's export of a revealed game contains %q", secret)
		}
	}

	// Not gunboat: the names are the master's to see from the start.
	g.Status, g.Revealed, g.Settings.Gunboat = state.Active, false, false
	out = masterExport(t, g, recs, press, names)
	if !bytes.Contains(out, []byte(`"player": "PUBLIC-NAME"`)) {
		t.Error("the master's export of a game that is not gunboat lacks the player's public name")
	}

	// The observers' export has neither, whatever it is given.
	doc, err := BuildWith(g, recs, press, view.Settings{}, Options{Players: names})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range append(secrets, "PUBLIC-NAME", "PENDING-ORDER", `"view"`) {
		if bytes.Contains(plain, []byte(secret)) {
			t.Errorf("the observers' export contains %q", secret)
		}
	}
}
