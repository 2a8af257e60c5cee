package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// Maps are drawn on demand, one at a time (Server.drawing: a map costs
// far more than a page, and a crawler must not take both cores), and
// kept in a cache of the last ones drawn (view.PictureCache, the mails'
// too). A phase's map is keyed by what it is drawn from,
// so that a phase played again after a rollback gets a new one.

// mapCacheSize bounds the maps kept: a few hundred KB each.
const mapCacheSize = 64

// mapSource is what one map is drawn from, copied out of the read
// transaction.
type mapSource struct {
	key   string
	phase string // as stored: "S1901M"
	game  *state.Game
	rec   *state.PhaseRecord // nil: the current position, without orders
	after bool               // the board rec's phase left, without orders
	power string             // drawn as this power sees it (a private link); "": whole
}

// findMap returns what the map of game's phase is drawn from: a
// processed phase with its orders, or the current position without any.
func findMap(tx *state.Tx, g *state.Game, phase string) (*mapSource, error) {
	recs, err := tx.Phases(g.Name)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r.Phase == phase {
			return &mapSource{
				key:   fmt.Sprintf("%s/%s/%d/%s", g.Name, phase, r.Turn, r.Digest()),
				phase: r.Phase, game: g, rec: r,
			}, nil
		}
	}
	if len(g.Position) == 0 {
		return nil, errNoGame
	}
	pos, _, err := view.Position(g)
	if err != nil {
		return nil, err
	}
	if pos.Phase.String() != phase {
		return nil, errNoGame
	}
	sum := sha256.Sum256(g.Position)
	return &mapSource{key: g.Name + "/" + phase + "/now/" + hex.EncodeToString(sum[:12]), phase: phase, game: g}, nil
}

// errNoReplay says that a past phase cannot be drawn: Config.Replay is nil.
var errNoReplay = errors.New("web: no replay of past phases configured")

// board returns the position and, for a processed phase, its orders
// adjudicated again by replay, as the results mails draw them.
func (src *mapSource) board(replay ReplayFunc) (*judge.Position, *judge.Resolution, error) {
	if src.rec == nil {
		pos, _, err := view.Position(src.game)
		return pos, nil, err
	}
	if replay == nil {
		return nil, nil, errNoReplay
	}
	pos, res, err := replay(src.game, src.rec)
	if err == nil && src.after {
		return res.Next, nil, nil
	}
	return pos, res, err
}

// mapPNG answers the map of a game's phase, or, with after, of the board
// a processed phase left (the results mails' second picture).
// A private link's (lv non-nil) shows the board as its viewer sees it.
func (s *Server) mapPNG(w http.ResponseWriter, r *http.Request, name, phase string, after bool, lv *view.LinkViewer) {
	if s.cfg.Draw == nil {
		s.notFound(w, r)
		return
	}
	var src *mapSource
	err := s.cfg.DB.View(func(tx *state.Tx) error {
		g, err := s.findGame(tx, name)
		if err != nil {
			return err
		}
		if lv, err = s.linkView(g, lv); err != nil {
			return err // fog of war: no map is drawn until the end
		}
		if src, err = findMap(tx, g, strings.ToUpper(phase)); err != nil {
			return err
		}
		if lv != nil {
			src.power = lv.Power
			if src.power != "" {
				src.key += "/as/" + src.power
			}
		}
		suffix := ".png"
		if after {
			if src.rec == nil {
				return errNoGame // the phase being played has left no board yet
			}
			src.after, src.key, suffix = true, src.key+"/after", "-after.png"
		}
		if lv != nil {
			return nil // a private link has one spelling: its own
		}
		return canonical(name, phase, g, src.phase, "games/"+g.Name+"/"+src.phase+suffix)
	})
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	png, ok, _ := s.maps.Get(src.key) // the web keeps no failures
	if !ok {
		if !s.drawing.enter(r.Context()) {
			s.busy(w, r)
			return
		}
		png, err = s.drawMap(src)
		s.drawing.leave()
		if err != nil {
			s.failed(w, r, err)
			return
		}
	}
	s.respond(w, r, "image/png", png)
}

// drawMap draws src's map, or takes it from the cache if another request
// drew it meanwhile.
func (s *Server) drawMap(src *mapSource) ([]byte, error) {
	if png, ok, _ := s.maps.Get(src.key); ok {
		return png, nil
	}
	pos, res, err := src.board(s.cfg.Replay)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", src.key, err)
	}
	if src.power != "" {
		p, ok := pos.Map.PowerByName(src.power)
		if !ok {
			p = judge.NoPower // sees nothing rather than everything
		}
		pos, res = view.Fog(pos, res, p)
	}
	var b bytes.Buffer
	if err := s.cfg.Draw(&b, pos, res); err != nil {
		return nil, fmt.Errorf("map %s: %w", src.key, err)
	}
	s.maps.Put(src.key, b.Bytes(), nil)
	return b.Bytes(), nil
}
