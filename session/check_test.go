package session

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/state"
)

// A stored position with a byte changed, its JSON still valid, is damage
// of its game: a mail for that game fails with an error wrapping
// state.ErrDamaged (so that the judge holds that mail alone), a mail for
// another game goes through, and CheckGames names the game.
func TestDamagedPosition(t *testing.T) {
	h := newHarness(t)
	h.startStandard("dt")
	h.startStandard("ab")
	g := h.game("dt")
	damaged := bytes.Replace(g.Position, []byte(`"par"`), []byte(`"pbr"`), 1)
	if bytes.Equal(damaged, g.Position) {
		t.Fatal("no par in the position")
	}
	g.Position = damaged
	h.putGame(g)

	addr, signon := seatOf("F")
	err := h.m.Handle(&Mail{From: addr, Subject: "orders", MessageID: "<dp.1@example.org>",
		Body: fmt.Sprintf(signon, "dt") + "\nA Par - Bur\n"}, h.now)
	if !errors.Is(err, state.ErrDamaged) || !strings.Contains(err.Error(), "game dt") {
		t.Errorf("Handle of a mail for the game with a damaged position: %v, want an error of game dt wrapping ErrDamaged", err)
	}
	mustContain(t, onlyTo(t, h.orders("ab", "F", "A Par - Bur"), addr).Body, "Army Paris -> Burgundy")

	var problems []string
	err = h.m.DB().View(func(tx *state.Tx) (err error) {
		problems, err = engine.CheckGames(tx)
		return err
	})
	if err != nil || len(problems) != 1 || !strings.HasPrefix(problems[0], "game dt: stored position: ") {
		t.Errorf("CheckGames: %q, %v; want one problem of game dt", problems, err)
	}
}
