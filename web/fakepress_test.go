package web

import (
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/state"
)

// A fake broadcast (SET FAKE) is on the press page as its readers read
// it, from the power it claims: the page names the real sender no more
// than the mails did.
func TestFakeBroadcastShowsClaimedSender(t *testing.T) {
	f := newFixture(t, 1, Config{})
	const text = "public-fake-broadcast"
	err := f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("secrets")
		if err != nil {
			return err
		}
		return tx.AddPress("secrets", g.Turn, &state.Press{Phase: "S1902M", From: "Russia", Claimed: "Austria", Text: text, Sent: f.clock()})
	})
	if err != nil {
		t.Fatal(err)
	}
	press := body(t, f.get(t, "GET", "/games/secrets/press"))
	i := strings.Index(press, text)
	if i < 0 {
		t.Fatalf("the press page lacks the fake broadcast:\n%s", press)
	}
	art := press[strings.LastIndex(press[:i], "<article"):i]
	if !strings.Contains(art, "From Austria") || strings.Contains(art, "Russia") {
		t.Errorf("the fake broadcast's article does not read as its readers saw it:\n%s", art)
	}
}
