package view

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/gmdjudge/gmd/state"
)

// The private links of a fogged game (issue 27: "the web pages show each
// power only its own view"): the web's public pages show nothing of the
// board while the fog lasts, since anyone may read them, so each seat
// gets a link of its own, a path with a token nobody can guess, that
// shows the game as the seat sees it. The token is an HMAC-SHA256 over
// the game's secret (state.Game.ConfirmKey, the confirmation codes'
// secret, never shown) of the game, the seat and the seat's generation:
// its holder's address and password hash, which change when the seat
// changes hands (a takeover) or its password changes, so a link handed
// on, or of a seat given up, stops working. Nothing is stored: a token
// is recomputed for each seat when asked for, as the codes are.

// LinkViewer is whose view a private link shows: All (the master, a
// co-master, an approved observer) or Power's.
type LinkViewer struct {
	All   bool
	Power string
}

// linkBytes is how much of the HMAC a token keeps: 128 bits.
const linkBytes = 16

// linkSeat is one holder of g that has a private link.
type linkSeat struct {
	who        string // "P:France", "M", "O:addr"
	generation string // the holder's address and password hash
	viewer     LinkViewer
}

// linkSeats returns the holders of g that have a private link: the
// master, the powers' seats held and not abandoned, and the observers
// that wait for nobody's approval.
func linkSeats(g *state.Game) []linkSeat {
	out := []linkSeat{{who: "M", generation: gen(g.MasterAddr, g.MasterHash), viewer: LinkViewer{All: true}}}
	for i := range g.Players {
		pl := &g.Players[i]
		if pl.Power == "" || pl.Empty || pl.Status == state.Abandoned {
			continue
		}
		out = append(out, linkSeat{who: "P:" + pl.Power, generation: gen(pl.Addr, pl.PassHash), viewer: LinkViewer{Power: pl.Power}})
	}
	for i := range g.Observers {
		o := &g.Observers[i]
		if Fogged(g) && !o.Approved && !o.CoMaster {
			continue
		}
		out = append(out, linkSeat{who: "O:" + strings.ToLower(o.Addr), generation: gen(o.Addr, o.PassHash), viewer: LinkViewer{All: true}})
	}
	return out
}

// gen is a seat's generation: its holder's address and password hash.
func gen(addr string, hash []byte) string {
	return strings.ToLower(strings.TrimSpace(addr)) + "\x00" + string(hash)
}

// linkToken returns the token of seat s of g.
func linkToken(g *state.Game, s *linkSeat) string {
	mac := hmac.New(sha256.New, g.ConfirmKey)
	mac.Write([]byte("gmd private link\x00" + strings.ToLower(g.Name) + "\x00" + s.who + "\x00" + s.generation))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:linkBytes])
}

// PowerLink returns the token of the private link of power's seat in g,
// or "" when the seat has none (nobody holds it) or g has no secret yet
// (ConfirmKey, which the judge makes before it mails a link).
func PowerLink(g *state.Game, power string) string { return seatLink(g, "P:"+power) }

// MasterLink returns the token of the master's private link of g, "" as
// PowerLink.
func MasterLink(g *state.Game) string { return seatLink(g, "M") }

// ObserverLink returns the token of the private link of g's observer at
// addr, "" when it has none (it waits for approval, or observes not).
func ObserverLink(g *state.Game, addr string) string {
	return seatLink(g, "O:"+strings.ToLower(strings.TrimSpace(addr)))
}

// seatLink returns the token of the holder named who, or "".
func seatLink(g *state.Game, who string) string {
	if len(g.ConfirmKey) == 0 {
		return ""
	}
	for _, s := range linkSeats(g) {
		if strings.EqualFold(s.who, who) {
			return linkToken(g, &s)
		}
	}
	return ""
}

// PowerLinks returns the tokens of every holder of g that has a private
// link: the master's, the seats', the approved observers'.
func PowerLinks(g *state.Game) []string {
	if len(g.ConfirmKey) == 0 {
		return nil
	}
	var out []string
	for _, s := range linkSeats(g) {
		out = append(out, linkToken(g, &s))
	}
	return out
}

// LinkOf returns whose view token shows of g, or false for a token of
// no holder of g now: a wrong one, or a stale one (the seat changed
// hands, its password changed, the observer was ejected).
func LinkOf(g *state.Game, token string) (LinkViewer, bool) {
	if len(g.ConfirmKey) == 0 || len(token) != base64.RawURLEncoding.EncodedLen(linkBytes) {
		return LinkViewer{}, false
	}
	for _, s := range linkSeats(g) {
		if hmac.Equal([]byte(linkToken(g, &s)), []byte(token)) {
			return s.viewer, true
		}
	}
	return LinkViewer{}, false
}
