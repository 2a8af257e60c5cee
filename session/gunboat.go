package session

import (
	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// seesAddrs reports whether this mail may be shown the addresses of g's
// players and master: in an anonymous game only its master (or a judge
// admin signed on as the master) may.
func (s *session) seesAddrs(g *state.Game) bool {
	return !engine.Anonymous(g) || s.master && s.game != nil && s.game.Name == g.Name
}

// addrFor returns addr, an address of someone in g, as this mail may
// show it.
func (s *session) addrFor(g *state.Game, addr string) string {
	if s.seesAddrs(g) {
		return addr
	}
	return engine.HiddenAddr
}

// setGunboat handles SET GUNBOAT and SET NOGUNBOAT, the master's, before
// the game starts, and returns the change as a sentence. A game stops
// being gunboat only while nobody has joined it: those who have joined
// were promised anonymity.
func (s *session) setGunboat(c *parser.Command, on bool) (string, bool) {
	g := s.game
	if g.Status != state.Forming {
		s.fail(c.Line, "Game '%s' has started: gunboat is set before the start.", g.Name)
		return "", false
	}
	if !on {
		if g.Settings.Gunboat && len(g.Players) > 0 {
			s.fail(c.Line, "Players have joined '%s' as a gunboat game: it stays gunboat.", g.Name)
			return "", false
		}
		g.Settings.Gunboat = false
		return "The game is not gunboat: the players are known to each other.", true
	}
	if !g.Settings.Gunboat {
		g.Settings.Press = "none"
	}
	g.Settings.Gunboat = true
	return engine.GunboatOn, true
}

// cmdReveal handles REVEAL: after a gunboat game, the master tells
// everyone in it who played which power; the listings show the addresses
// from then on.
func (s *session) cmdReveal(c *parser.Command) error {
	g, m := s.game, s.m
	switch {
	case !g.Settings.Gunboat:
		s.fail(c.Line, "Game '%s' is not gunboat: its players are known.", g.Name)
		return nil
	case g.Status != state.Finished:
		s.fail(c.Line, "Game '%s' is %s: the players of a gunboat game are revealed once it is over.", g.Name, g.Status)
		return nil
	case g.Revealed:
		s.fail(c.Line, "The players of '%s' were revealed already.", g.Name)
		return nil
	}
	mp, err := engine.GameMap(g)
	if err != nil {
		return err
	}
	g.Revealed, s.dirty = true, true
	data := engine.RevealData{HeadLines: m.Head(g), Players: engine.SeatLines(g, true), Master: g.MasterAddr, PowerWidth: engine.NameColumn(mp, 1, 10)}
	if err := m.SendGame(s.tx, s.now, g, "reveal", data, m.Recipients(g)); err != nil {
		return err
	}
	s.printf("The players of '%s' are revealed to everyone in it.", g.Name)
	return nil
}
