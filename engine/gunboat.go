package engine

import (
	"strings"

	"github.com/gmdjudge/gmd/state"
)

// Gunboat is anonymous play. The master makes a game gunboat at CREATE
// ("CREATE ?game password gunboat", njudge's keyword, in any place after
// the password) or with SET GUNBOAT before the game starts. From then
// on no mail shows the address of anyone in the game (its players, its
// master, its observers) to anyone else but the master: listings, the
// game-start and takeover notices and the final summary show njudge's
// someone@somewhere instead, press names powers only, and every mail
// about the game goes to each address in a copy of its own (SendGame).
// Press is off unless the master turns it on again. Once the game is
// over the master may REVEAL who played which power.

// HiddenAddr is what a gunboat game shows in place of an address, as
// njudge's listings do.
const HiddenAddr = "someone@somewhere"

// Anonymous reports whether g hides who is in it: a gunboat game whose
// master has not revealed its players.
func Anonymous(g *state.Game) bool { return g.Settings.Gunboat && !g.Revealed }

// ShownAddr returns addr as mails about g show it to everyone: hidden in
// an anonymous game.
func ShownAddr(g *state.Game, addr string) string {
	if Anonymous(g) {
		return HiddenAddr
	}
	return addr
}

// IsGunboatWord reports whether a word of CREATE is njudge's keyword
// for a gunboat game.
func IsGunboatWord(w string) bool { return strings.EqualFold(w, "gunboat") }

// GunboatOn is what the master is told, and the game's players with it,
// when a game becomes gunboat.
const GunboatOn = "Gunboat: the players are anonymous. No mail shows who plays which power, " +
	"and there is no press between powers unless the master sets it (SET PRESS)."

// RevealData is the data of reveal.tmpl.
type RevealData struct {
	HeadLines
	Players []SeatLine // every seat, in power order, with its address
	// PowerWidth is the width of the column of "Power:": at least 10.
	PowerWidth int
	Master     string // the master's address
}
