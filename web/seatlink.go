package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// The private links of a fogged game (view.PowerLink and the others):
// /games/NAME/as/TOKEN/PHASE and its maps show the phase as the seat
// whose token it is sees it, the power's view or the whole board, while
// the public pages show nothing of it. A wrong or stale token is
// answered as an unknown game is, 404, and each client's wrong tokens
// are limited (linkMisses): past the limit no token of its is looked up
// at all, so that guessing costs a client a minute a try. The pages of a
// link are sent with no Referer to other sites and kept by no shared
// cache, so that the token stays in the holder's browser.

// The limit on a client's wrong tokens: a burst of linkMissBurst, then
// one a minute. A player who mistypes is held for a minute; a guesser
// of a 128-bit token gets nowhere either way.
const (
	linkMissRate  = 1.0 / 60
	linkMissBurst = 10
)

// seatPhaseOrMap answers a private link's phase page or map.
func (s *Server) seatPhaseOrMap(w http.ResponseWriter, r *http.Request) {
	game, token, phase := r.PathValue("game"), r.PathValue("token"), r.PathValue("phase")
	client := clientOf(r, s.cfg.TrustedProxies)
	var lv view.LinkViewer
	found := false
	if s.linkMisses.has(client) {
		_ = s.cfg.DB.View(func(tx *state.Tx) error {
			g, err := s.findGame(tx, game)
			if err == nil {
				lv, found = view.LinkOf(g, token)
			}
			return nil
		})
		if !found {
			s.linkMisses.allow(client)
		}
	}
	if !found {
		s.notFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "private, no-store")
	h.Set("X-Robots-Tag", "noindex")
	if ph, ok := strings.CutSuffix(phase, ".png"); ok {
		ph, after := strings.CutSuffix(ph, "-after")
		s.mapPNG(w, r, game, ph, after, &lv)
		return
	}
	s.page(func(tx *state.Tx, r *http.Request, now time.Time) (string, any, error) {
		d, err := s.loadPhase(tx, game, phase, now, &lv)
		return "phase", d, err
	})(w, r)
}

// linkView returns how g is shown: nil (the public view), or lv (a
// private link's) while g is fogged. A fogged game's board is shown by
// private links only: errNoGame for the public pages. Once the game
// ends everyone sees everything, a link's holder too.
func (s *Server) linkView(g *state.Game, lv *view.LinkViewer) (*view.LinkViewer, error) {
	if !view.Fogged(g) {
		return nil, nil
	}
	if lv == nil {
		return nil, errNoGame
	}
	return lv, nil
}

// fogResults returns the results of g's phase rec as power saw them, or
// none where the judge gave no way to write them (Config.FogResults):
// never the whole results.
func (s *Server) fogResults(g *state.Game, rec *state.PhaseRecord, power string) (string, error) {
	if s.cfg.FogResults == nil {
		return "", nil
	}
	return s.cfg.FogResults(g, rec, power)
}
