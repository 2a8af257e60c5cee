package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gmdjudge/gmd/export"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// A finished game's page shows its replay (an animated GIF of the whole
// game, Config.Animate) and links to its export (package export, the
// observers' document). A game still running has neither: its replay
// would change with every phase and cost a second of a core each time,
// and its export is the master's (EXPORT by mail); a game is published
// whole once it is over.
//
// A replay costs about a second of a core and a megabyte for a 20-year
// game, against tens of milliseconds for a map. So it is drawn once per
// game: kept in a cache of its own (view.PictureCache, replayCacheSize),
// one at a time (Server.replays.gate), and requests that come while it
// is drawn wait for that drawing rather than start another (flights).

// replayCacheSize bounds the replays kept: about a megabyte each.
const replayCacheSize = 8

// The replays' gate: one drawing at a time, a few more games waiting
// for their turn, each at most replayWait (a long game takes seconds).
const (
	replayWaiting = 4
	replayWait    = 30 * time.Second
)

// errNotOver is a replay or an export asked for a game still running.
var errNotOver = errors.New("web: the game is not over")

// replays are the finished games' replays: drawn, being drawn, waiting.
type replays struct {
	cache *view.PictureCache
	gate  *gate

	mu      sync.Mutex
	flights map[string]*flight // by cache key, while drawn
}

// flight is one replay being drawn; done is closed once gif and err are
// set.
type flight struct {
	done chan struct{}
	gif  []byte
	err  error
}

func newReplays() *replays {
	return &replays{cache: view.NewPictureCache(replayCacheSize), gate: newGate(1, replayWaiting, replayWait), flights: map[string]*flight{}}
}

// errBusy says that the drawing gate turned a replay away.
var errBusy = errors.New("web: busy")

// get returns the replay kept under key, or draws it with draw, once
// for all the requests that ask meanwhile. A request whose ctx ends
// stops waiting; the drawing goes on for the others and the cache.
func (rp *replays) get(ctx context.Context, key string, draw func() ([]byte, error)) ([]byte, error) {
	if gif, ok, _ := rp.cache.Get(key); ok {
		return gif, nil
	}
	rp.mu.Lock()
	f, waiting := rp.flights[key]
	if !waiting {
		f = &flight{done: make(chan struct{})}
		rp.flights[key] = f
	}
	rp.mu.Unlock()
	if waiting {
		select {
		case <-f.done:
			return f.gif, f.err
		case <-ctx.Done():
			return nil, errBusy
		}
	}
	defer func() {
		rp.mu.Lock()
		delete(rp.flights, key)
		rp.mu.Unlock()
		close(f.done)
	}()
	if !rp.gate.enter(ctx) {
		f.err = errBusy
		return nil, f.err
	}
	defer rp.gate.leave()
	if gif, ok, _ := rp.cache.Get(key); ok { // drawn while this one waited
		f.gif = gif
		return gif, nil
	}
	f.gif, f.err = draw()
	if f.err == nil {
		rp.cache.Put(key, f.gif, nil) // the web keeps no failures
	}
	return f.gif, f.err
}

// finished reads the finished game name for its replay or export at
// file ("replay.gif"): errNoGame when there is none, errNotOver while
// it runs, moved for another spelling of its name.
func (s *Server) finished(tx *state.Tx, name, file string) (*state.Game, error) {
	g, err := s.findGame(tx, name)
	if err != nil {
		return nil, err
	}
	if err := canonical(name, "", g, "", "games/"+g.Name+"/"+file); err != nil {
		return nil, err
	}
	if g.Status != state.Finished {
		return nil, errNotOver
	}
	return g, nil
}

// notOver answers the replay or export of a game still running.
func (s *Server) notOver(w http.ResponseWriter, r *http.Request) {
	s.errorPage(w, r, http.StatusNotFound, "Not over yet", "A game's replay and its export are published when it is over.")
}

// replayGIF answers /games/{game}/replay.gif: the finished game's replay.
func (s *Server) replayGIF(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Animate == nil {
		s.notFound(w, r)
		return
	}
	var (
		g    *state.Game
		recs []*state.PhaseRecord
	)
	err := s.cfg.DB.View(func(tx *state.Tx) (err error) {
		if g, err = s.finished(tx, r.PathValue("game"), "replay.gif"); err != nil {
			return err
		}
		recs, err = tx.Phases(g.Name)
		return err
	})
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	gif, err := s.replays.get(r.Context(), replayKey(g, recs), func() ([]byte, error) {
		var b bytes.Buffer
		if err := s.cfg.Animate(&b, g, recs); err != nil {
			return nil, fmt.Errorf("replay of %s: %w", g.Name, err)
		}
		return b.Bytes(), nil
	})
	switch {
	case errors.Is(err, errBusy):
		s.busy(w, r)
	case err != nil:
		s.failed(w, r, err)
	default:
		s.respond(w, r, "image/gif", gif)
	}
}

// replayKey is what a game's replay is drawn from: its name, its phases
// (each record's digest) and where and how it ended, so that a game
// made again under the same name gets a replay of its own.
func replayKey(g *state.Game, recs []*state.PhaseRecord) string {
	h := sha256.New()
	for _, r := range recs {
		fmt.Fprintf(h, "%d %s\n", r.Turn, r.Digest())
	}
	fmt.Fprintf(h, "%s\n", g.Result)
	h.Write(g.Position)
	return g.Name + "/replay/" + hex.EncodeToString(h.Sum(nil)[:12])
}

// exportJSON answers /games/{game}/export.json: the finished game's
// observers' export (package export), as a file to save.
func (s *Server) exportJSON(w http.ResponseWriter, r *http.Request) {
	if !s.pages.enter(r.Context()) {
		s.busy(w, r)
		return
	}
	defer s.pages.leave()
	var doc *export.Game
	err := s.cfg.DB.View(func(tx *state.Tx) error {
		g, err := s.finished(tx, r.PathValue("game"), "export.json")
		if err != nil {
			return err
		}
		doc, err = export.Load(tx, g, s.cfg.Overview(g, s.cfg.Now()).Settings, export.Options{})
		return err
	})
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	body, err := export.Marshal(doc)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	// The name is a stored game's, letters and digits only.
	w.Header().Set("Content-Disposition", `attachment; filename="`+doc.Name+`.json"`)
	s.respond(w, r, "application/json", body)
}
