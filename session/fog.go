package session

import (
	"fmt"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// Fog of war (SET FOG) in the mail commands. While a game is fogged
// (engine.Fogged), what a mail may read of its board depends on the
// sign-on in the same mail, since the From line proves nothing: the
// master reads everything, a power its own view (view.Fog), and anyone
// else nothing of the board, an observer that waits for the master's
// approval included (engine.Viewers says why): HISTORY, LIST's units and centres and SUMMARY's centres are
// held back until the game ends. A power's orders are checked, its conditions read and its
// PREVIEW played on the board it sees, so that no answer differs
// between a unit out of sight and no unit at all.

func init() {
	setHandlers["FOG"] = beforeStart("FOG", func(_ *session, _ *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Fog = true
		return "Fog of war: while the game runs, each power sees only the provinces its units and centres touch, in its results, maps, HISTORY and LIST; the master sees everything, and so do the observers the master approves (APPROVE address), the web pages nothing of the board, and everyone everything once the game ends.", true
	})
	setHandlers["NOFOG"] = beforeStart("NOFOG", func(_ *session, _ *parser.Command, st *state.GameSettings, _ []string) (string, bool) {
		st.Fog = false
		return "No fog of war: everyone sees the whole board.", true
	})
}

// fogSees returns what the sender may see of fogged game g: all (the
// master, a co-master or an observer the master approved, signed on to
// g in this mail), or the power signed on to; neither for anyone else,
// an observer waiting for approval included. For a game not fogged, all.
func (s *session) fogSees(g *state.Game) (all bool, power string) {
	if !engine.Fogged(g) {
		return true, ""
	}
	if s.game == nil || s.game.Name != g.Name {
		return false, ""
	}
	if s.master {
		return true, ""
	}
	if s.observer {
		// An observer the master approved sees what the master sees;
		// one that waits, nothing (engine.ObserverWaits).
		i := engine.ObserverByAddr(g, s.in.From)
		return i >= 0 && !engine.ObserverWaits(g, &g.Observers[i]), ""
	}
	return false, s.power
}

// fogViewer returns the power whose view of g the sender reads, or ""
// for the whole board (fogSees); a sender who may see nothing of it
// reads "" too, so every caller asks fogRefused first.
func (s *session) fogViewer(g *state.Game) string {
	_, power := s.fogSees(g)
	return power
}

// fogRefused reports, with a paragraph of the reply (after a blank line
// with para), that the sender may see nothing of fogged game g's board;
// what names what was asked for, as each power reads it ("its history").
func (s *session) fogRefused(g *state.Game, what string, para bool) bool {
	if all, power := s.fogSees(g); all || power != "" {
		return false
	}
	if para {
		s.paragraph()
	}
	s.printf("Game '%s' is played under fog of war: until it ends, each power reads %s as it sees the board, and nobody else does. Sign on to your power (SIGNON) in the same mail to read yours.", g.Name, what)
	return true
}

// resultsOf returns the results text of g's processed phase r as the
// sender may read it: as mailed to everyone, or as its power saw it.
func (s *session) resultsOf(g *state.Game, r *state.PhaseRecord) (string, error) {
	viewer := s.fogViewer(g)
	if viewer == "" {
		return r.Results, nil
	}
	return engine.PhaseResultsFor(g, r, viewer)
}

// fogCounts returns LIST's supply centre counts of pos for viewer: every
// power's, or, for a power's view, its own alone (the centres it cannot
// see are the other powers' secret).
func fogCounts(pos *judge.Position, viewer string) string {
	if viewer == "" {
		return centreCounts(pos)
	}
	p, ok := engine.PowerOf(pos.Map, viewer)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s %d", viewer, pos.CenterCount()[p])
}

// withHanded returns fogged, power's view of real, with the units handed
// to power (PROXY) put back where it cannot see them: their owners told
// it of them, and it orders them. A view that is real itself (no fog) is
// returned as it is.
func withHanded(g *state.Game, real, fogged *judge.Position, power string) *judge.Position {
	if fogged == real || len(g.Proxies) == 0 {
		return fogged
	}
	mp := real.Map
	for _, prov := range mp.Provinces() {
		if engine.ProxyHolder(g, mp, prov) == power {
			fogged.Units[prov] = real.Units[prov]
		}
	}
	return fogged
}

// ackView returns the board a power's acknowledgement is written on:
// under fog, the power's view, as its orders were checked on it, so that
// a support of a unit out of sight names it as written ("Army Munich"),
// not as it stands ("German Army Munich"); the master's, acting for a
// power (BECOME), is the whole board.
func (s *session) ackView(pos *judge.Position, power string) *judge.Position {
	if s.master {
		return pos
	}
	return withHanded(s.game, pos, engine.FogFor(s.game, pos, power), power)
}

// fogObserving tells a new observer o of game g, under fog of war, that
// it waits for the master's approval, and the master (mailed) that it
// does: until the master approves it, the observer is mailed nothing of
// the game (engine.ObserverWaits).
func (s *session) fogObserving(g *state.Game, o *state.Observer) error {
	s.printf("You are now observing game '%s', once its master approves you. The game is played under fog of war, and anyone may observe, a player from a second address too: until the master approves you (APPROVE), you get nothing of the game, not even its broadcasts; once approved, you get its results, maps and HISTORY whole, as the master does. The master has been told you wait.", g.Name)
	return s.m.SendGame(s.tx, s.now, g, "approval", approvalData{
		HeadLines: s.m.Head(g), Kind: "waits", Addr: o.Addr,
	}, []string{g.MasterAddr})
}

// approvalData is the data of approval.tmpl.
type approvalData struct {
	engine.HeadLines
	Kind string // "waits" (to the master), "approved" (to the observer)
	Addr string // the observer's address
}

// approveObserver handles APPROVE address for an observer of a fogged
// game that waits: from now on it is mailed everything, as the master
// is, and is told so. It reports false when no observer waits at addr.
func (s *session) approveObserver(addr string) (bool, error) {
	g := s.game
	i := engine.ObserverByAddr(g, addr)
	if i < 0 || !engine.ObserverWaits(g, &g.Observers[i]) {
		return false, nil
	}
	o := &g.Observers[i]
	o.Approved, s.dirty = true, true
	s.printf("%s now observes game '%s', and sees the whole board.", o.Addr, g.Name)
	return true, s.m.SendGame(s.tx, s.now, g, "approval", approvalData{
		HeadLines: s.m.Head(g), Kind: "approved", Addr: o.Addr,
	}, []string{o.Addr})
}

// waitingObservers returns the addresses of g's observers that wait for
// the master's approval, in the order they came.
func waitingObservers(g *state.Game) []string {
	var out []string
	for i := range g.Observers {
		if engine.ObserverWaits(g, &g.Observers[i]) {
			out = append(out, g.Observers[i].Addr)
		}
	}
	return out
}

// fogLink adds to the reply, for a fogged game g that has started, the
// private link token opens on the web (view.PowerLink and the others):
// the reply goes to the sender alone, who gave the seat's password.
func (s *session) fogLink(g *state.Game, token string) {
	if !engine.Fogged(g) || g.Status == state.Forming {
		return
	}
	ph, err := engine.CurrentPhase(g)
	if err != nil {
		return // no phase to link to: the link waits for the results
	}
	if l := s.m.PrivateLink(g, token, ph.String()); l != "" {
		s.printf("Your view of game '%s' on the web, for you alone (keep it to yourself): %s", g.Name, l)
	}
}
