package session

import (
	"fmt"
	"strings"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/parser"
	"github.com/gmdjudge/gmd/state"
)

// Co-masters (issue 24). The creator of a game (its first master, who
// signs on with the master's password) may PROMOTE an observer to
// co-master; the observer accepts by a confirmation round trip: the
// judge mails a code to the observer's address, and the observer signs
// on as the master (SIGNON Mgame) with their own observer's password and
// the code. From then on that sign-on makes them a co-master: every
// master's command but PROMOTE and DEMOTE, which stay the creator's, so
// that a co-master can neither make more masters nor unmake the others.
// Their password stays their own (SET PASSWORD changes it, never the
// creator's), and the From line only picks which password is checked:
// the check itself is checkSeat's, under its limits on guessing.

func init() {
	// The command table's rows (parser/table.go) are run from here,
	// beside their code, in the one map of handlers.
	commands["PROMOTE"] = command{run: (*session).cmdPromote, mails: true}
	commands["DEMOTE"] = command{run: (*session).cmdDemote, mails: true}
}

// maxCoMasters bounds a game's co-masters, those waiting to accept
// included: a few people run a game, and each is one more address that
// the game's mail goes to.
const maxCoMasters = 5

// promoteData is the data of promote.tmpl.
type promoteData struct {
	engine.HeadLines
	Kind  string // "offer" (to the observer), "accepted" (to the creator), "demoted" (to the co-master)
	Addr  string // the observer's address
	Judge string // the judge's address
	Code  string // the confirmation code of an offer
}

// coMasterSeat returns the index in g.Observers of addr when it is a
// co-master of g or was asked to be one, or -1. The creator's own
// address is always the creator.
func coMasterSeat(g *state.Game, addr string) int {
	i := engine.ObserverByAddr(g, addr)
	if i < 0 || engine.SameAddr(addr, g.MasterAddr) {
		return -1
	}
	if o := &g.Observers[i]; o.CoMaster || o.Promoted {
		return i
	}
	return -1
}

// coMasterSignon handles SIGNON Mgame from a co-master's address (or
// one asked to be a co-master): the observer's own password is checked,
// as at any sign-on. One asked to be a co-master becomes one with the
// code mailed to their address; without it, they are signed on as the
// observer they are, and the reply gives a code.
func (s *session) coMasterSignon(c *parser.Command, g *state.Game, i int, pw string) error {
	o := &g.Observers[i]
	if ok, err := s.checkSeat(c, g, g.Name+"/O/"+strings.ToLower(o.Addr), o.PassHash, pw, o.Addr); !ok {
		return err
	}
	if o.Promoted {
		if !s.confirmed(g, confirmPromote, "") {
			s.game, s.observer = g, true
			s.printf("You are observing game '%s', whose master asked you to be a co-master.", g.Name)
			return s.askConfirmation(c, g, confirmPromote, "", fmt.Sprintf("become a co-master of game '%s'", g.Name))
		}
		if err := s.useCode(g, confirmPromote, ""); err != nil {
			return err
		}
		o.Promoted, o.CoMaster = false, true
		s.dirty = true
		s.printf("You are now a co-master of game '%s': SIGNON M%s with your own password signs you on as one.", g.Name, g.Name)
		if err := s.m.SendGame(s.tx, s.now, g, "promote", promoteData{
			HeadLines: s.m.Head(g), Kind: "accepted", Addr: o.Addr, Judge: s.m.cfg.JudgeAddr,
		}, []string{g.MasterAddr}); err != nil {
			return err
		}
	}
	s.game, s.master, s.coMaster, s.power = g, true, true, "Master"
	s.printf("Signed on as a co-master of '%s'.", g.Name)
	return s.noteUser(g.Name)
}

// creatorOnly reports whether the sender signed on as the creator (or a
// judge admin), and refuses the command otherwise.
func (s *session) creatorOnly(c *parser.Command) bool {
	if s.coMaster {
		s.fail(c.Line, "Only the creator of '%s' may %s: co-masters run the game, its creator decides who masters it.", s.game.Name, c.Name)
		return false
	}
	return true
}

// cmdPromote handles PROMOTE address: the creator asks an observer of
// the game to be a co-master, and the judge mails them a code with which
// to accept. Nothing changes for them before they do.
func (s *session) cmdPromote(c *parser.Command) error {
	g := s.game
	if !s.creatorOnly(c) {
		return nil
	}
	if len(c.Args) != 1 || !strings.Contains(c.Args[0], "@") {
		s.fail(c.Line, "Use: PROMOTE address, the address of an observer of '%s'.", g.Name)
		return nil
	}
	addr := c.Args[0]
	i := engine.ObserverByAddr(g, addr)
	switch {
	case g.Status == state.Finished:
		s.fail(c.Line, "Game '%s' is over.", g.Name)
		return nil
	case engine.SameAddr(addr, g.MasterAddr):
		s.fail(c.Line, "%s is the master of '%s' already.", addr, g.Name)
		return nil
	case i < 0:
		s.fail(c.Line, "%s does not observe '%s': only an observer can be promoted (OBSERVE %s password, first).", addr, g.Name, g.Name)
		return nil
	case g.Observers[i].CoMaster:
		s.fail(c.Line, "%s is a co-master of '%s' already.", g.Observers[i].Addr, g.Name)
		return nil
	}
	n := 0
	for _, o := range g.Observers {
		if o.CoMaster || o.Promoted {
			n++
		}
	}
	if n >= maxCoMasters && !g.Observers[i].Promoted {
		s.fail(c.Line, "Game '%s' has %d co-masters, or asked ones, the most it may have.", g.Name, maxCoMasters)
		return nil
	}
	o := &g.Observers[i]
	o.Promoted, s.dirty = true, true
	key, err := s.gameKey(g)
	if err != nil {
		return err
	}
	code := confirmCode(key, confirmPromote, g.Name, o.Addr, "", confirmDayOf(s.now), codesUsed(g, codeUseOf(confirmPromote, o.Addr, ""), s.now))
	s.printf("%s is asked to be a co-master of '%s': the judge mailed them a code, and they are one once they sign on with it.", o.Addr, g.Name)
	return s.m.SendGame(s.tx, s.now, g, "promote", promoteData{
		HeadLines: s.m.Head(g), Kind: "offer", Addr: o.Addr, Judge: s.m.cfg.JudgeAddr, Code: code,
	}, []string{o.Addr})
}

// cmdDemote handles DEMOTE address: the creator makes a co-master (or
// one asked to be) an observer again, and tells them.
func (s *session) cmdDemote(c *parser.Command) error {
	g := s.game
	if !s.creatorOnly(c) {
		return nil
	}
	if len(c.Args) != 1 || !strings.Contains(c.Args[0], "@") {
		s.fail(c.Line, "Use: DEMOTE address, the address of a co-master of '%s'.", g.Name)
		return nil
	}
	i := coMasterSeat(g, c.Args[0])
	if i < 0 {
		s.fail(c.Line, "%s is no co-master of '%s'.", c.Args[0], g.Name)
		return nil
	}
	o := &g.Observers[i]
	o.CoMaster, o.Promoted, s.dirty = false, false, true
	s.printf("%s is no longer a co-master of '%s'; they still observe it.", o.Addr, g.Name)
	return s.m.SendGame(s.tx, s.now, g, "promote", promoteData{
		HeadLines: s.m.Head(g), Kind: "demoted", Addr: o.Addr, Judge: s.m.cfg.JudgeAddr,
	}, []string{o.Addr})
}

// stepDown handles a co-master's RESIGN: they give up mastering the
// game, and observe it as before. Nothing after it in the mail is done.
func (s *session) stepDown(c *parser.Command) error {
	g := s.game
	i := coMasterSeat(g, s.in.From)
	if i < 0 {
		s.fail(c.Line, "You are no co-master of '%s'.", g.Name)
		return nil
	}
	g.Observers[i].CoMaster, s.dirty = false, true
	s.master, s.coMaster, s.power = false, false, ""
	s.printf("You are no longer a co-master of '%s'; you still observe it.", g.Name)
	return errStop
}
