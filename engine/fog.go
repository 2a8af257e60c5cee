package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// Fog of war (SET FOG) in the life of a game: while it runs, each power
// is mailed the results of a phase, and its pictures, as it sees them
// (view.Fog); the master (and the co-masters) get everything, and so do
// the observers the master approved (APPROVE address); an observer not
// approved yet waits, and is mailed nothing at all: anyone may observe
// from an address of their own, a player too, from a second one, as
// anyone may read the web pages, which show nothing of it either. With
// the game's end everything is revealed: its last results go whole to
// everyone, as does the history from then on.

// Fogged reports whether g is played under fog of war now: SET FOG, and
// the game not over.
func Fogged(g *state.Game) bool { return view.Fogged(g) }

// FogFor returns pos as the power named power sees it when g is fogged,
// and pos itself otherwise or for "" (the master, an observer).
func FogFor(g *state.Game, pos *judge.Position, power string) *judge.Position {
	if !Fogged(g) || power == "" {
		return pos
	}
	p, ok := PowerOf(pos.Map, power)
	if !ok {
		return pos
	}
	return view.FogPosition(pos, p)
}

// FogResultsText is ResultsText as power p sees the phase (view.Fog).
func FogResultsText(game string, turn int, pos *judge.Position, res *judge.Resolution, p judge.Power) (string, error) {
	fpos, fres := view.Fog(pos, res, p)
	return resultsText(game, turn, fpos, fres, view.FogViewer(res.Next, p))
}

// Viewers returns whose view of fogged game g the address addr gets:
// all for the master, a co-master and an approved observer, else the
// powers of the seats addr holds and has not abandoned, in seat order.
// An address with neither, an observer's that waits, gets nothing.
func Viewers(g *state.Game, addr string) (all bool, powers []string) {
	if SameAddr(g.MasterAddr, addr) {
		return true, nil
	}
	for i := range g.Observers {
		if o := &g.Observers[i]; SameAddr(o.Addr, addr) && !ObserverWaits(g, o) {
			return true, nil
		}
	}
	for i := range g.Players {
		pl := &g.Players[i]
		if pl.Power != "" && pl.Status != state.Abandoned && SameAddr(pl.Addr, addr) {
			powers = append(powers, pl.Power)
		}
	}
	return false, powers
}

// sendPhaseResults queues the results of the phase played from pos,
// ruled on in res, to everyone in g: to each alike, or, while g is
// fogged, to each power's address its own view, one mail a power, the
// whole to the master, and nothing to the observers (Viewers).
func (m *Engine) sendPhaseResults(tx *state.Tx, now time.Time, g *state.Game, data ResultsData, ref state.MapRef,
	pos *judge.Position, res *judge.Resolution) error {
	to := m.Recipients(g)
	if !Fogged(g) {
		return m.sendResults(tx, now, g, data, to, ref)
	}
	var whole []string
	for _, a := range to {
		all, powers := Viewers(g, a)
		if all {
			whole = append(whole, a)
			continue
		}
		for _, name := range powers {
			p, ok := PowerOf(pos.Map, name)
			if !ok {
				continue
			}
			text, err := FogResultsText(g.Name, ref.Turn, pos, res, p)
			if err != nil {
				return err
			}
			mine, r := data, ref
			mine.Results, r.Viewer = text, name
			mine.Link = m.PrivateLink(g, view.PowerLink(g, name), pos.Phase.String())
			if err := m.sendResults(tx, now, g, mine, []string{a}, r); err != nil {
				return err
			}
		}
	}
	if len(whole) == 0 {
		return nil
	}
	return m.sendResults(tx, now, g, data, whole, ref)
}

// fogDrawing returns what the picture of ref shows: pos and res as
// ref's Viewer sees them, or as they are for a reference without one.
func fogDrawing(ref state.MapRef, pos *judge.Position, res *judge.Resolution) (*judge.Position, *judge.Resolution) {
	if ref.Viewer == "" {
		return pos, res
	}
	p, ok := PowerOf(pos.Map, ref.Viewer)
	if !ok {
		// A viewer the board does not know sees nothing rather than
		// everything.
		p = judge.NoPower
	}
	return view.Fog(pos, res, p)
}

// ObserverWaits reports whether observer o of g waits for the master's
// approval (APPROVE address) to see the game: while g is fogged, an
// observer neither approved nor a co-master. One that waits is mailed
// nothing of the game (Recipients), and reads nothing of its board.
func ObserverWaits(g *state.Game, o *state.Observer) bool {
	return Fogged(g) && !o.Approved && !o.CoMaster
}

// PhaseResultsFor returns the results of g's processed phase r as the
// power named power saw them, replayed (Replay) and filtered as its mail
// was: what HISTORY answers the power, and its private web link shows.
func PhaseResultsFor(g *state.Game, r *state.PhaseRecord, power string) (string, error) {
	pos, res, err := Replay(g, r)
	if err != nil {
		return "", err
	}
	p, ok := PowerOf(pos.Map, power)
	if !ok {
		return "", fmt.Errorf("game %s: seat %q is no power of %s", g.Name, power, pos.Map.Name)
	}
	return FogResultsText(g.Name, r.Turn, pos, res, p)
}

// PrivateLink returns the address on the web of phase of fogged game g
// under the private link token (view.PowerLink and the others), or ""
// when the judge has no web pages with a public address (http's
// base-url) or token is "". It goes in mails to the token's holder
// alone.
func (m *Engine) PrivateLink(g *state.Game, token, phase string) string {
	if token == "" || m.cfg.HTTP == nil || m.cfg.HTTP.BaseURL == "" {
		return ""
	}
	return strings.TrimRight(m.cfg.HTTP.BaseURL, "/") + "/games/" + g.Name + "/as/" + token + "/" + phase
}
