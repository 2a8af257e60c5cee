// Package web serves the judge's read-only web pages: the list of games,
// each game with its map, centre counts, seats, settings and history,
// each processed phase with its results and orders, the public press, an
// Atom feed per game, and /healthz and /metrics for the operator.
//
// The pages show what the mail interface makes public to an observer and
// nothing more. They never read a game's pending orders (Game.Orders,
// Game.Written), its passwords, confirmation key, sign-on failures or
// press sent to some powers only, and they show no mail address at all:
// not even where LIST by mail would, so that the pages feed no address
// harvester. Grey press shows no sender, as it reaches its readers.
//
// Every page is read in one bbolt read transaction (state.DB.View) and
// rendered after it has ended, so that a reader never holds up the mail.
// Pages are server-rendered with html/template and need no script; the
// Content-Security-Policy allows none at all.
package web

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// OverviewFunc tells where a game read in a transaction stands at now:
// its phase, deadline and the seats that hold it up
// (session.Master.OverviewOf).
type OverviewFunc func(g *state.Game, now time.Time) view.GameOverview

// ReplayFunc adjudicates again the phase of game g that rec records, as
// the results mails drew it (engine.Replay): the pages draw past phases with
// their orders from it.
type ReplayFunc func(g *state.Game, rec *state.PhaseRecord) (*judge.Position, *judge.Resolution, error)

// Config is what the pages need from the judge.
type Config struct {
	DB        *state.DB
	JudgeName string // "GMD"
	JudgeAddr string // where players write: shown on how to join
	// HTTP is judge.conf's http block, whole (see config.HTTP): the
	// pages' public BaseURL for the absolute links of the Atom feeds (""
	// takes the address each request came to); Rate and Burst, the limit
	// of each client's requests (Rate 0 turns it off); TrustedProxies,
	// whose X-Forwarded-For names the client; and MetricsFrom, the
	// clients (as the rate limit tells them, through a trusted proxy)
	// that may read /metrics (nil: the loopback addresses only; others
	// get 403: the counters tell when mail comes in, which no observer
	// learns by mail, and a scrape reads every game). Listen is the
	// daemon's.
	config.HTTP
	Overview OverviewFunc
	// Replay adjudicates past phases again, for their maps; nil shows
	// only the maps of the current phases.
	Replay ReplayFunc
	// FogResults writes a processed phase's results as power saw them
	// (engine.FogResultsText, the mails' own), for a power's private
	// link of a fogged game (seatlink.go); nil shows its phases without
	// results text.
	FogResults func(g *state.Game, rec *state.PhaseRecord, power string) (string, error)
	// Draw draws the maps; nil shows the pages without maps.
	Draw view.Drawer
	// Animate draws a finished game's replay (replay.go); nil shows the
	// pages without replays.
	Animate view.Animator
	// Stats holds the daemon's counters for /metrics; nil shows only
	// what the database holds.
	Stats *Stats

	Now func() time.Time // time.Now when nil
	Log *slog.Logger     // nil discards
}

// loopback are the addresses that may read /metrics by default.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// Server is the web pages' http.Handler.
type Server struct {
	cfg     Config
	mux     *http.ServeMux
	limit   *limiter
	maps    *view.PictureCache
	replays *replays
	changes *changeLog
	// pages and drawing are the gates of the costly work: reading and
	// rendering a page (the list of games reads every game), and drawing
	// a map. One of each at a time leaves the mail a core even when both
	// are busy.
	pages   *gate
	drawing *gate
	front   frontPage
	// linkMisses limits each client's wrong private-link tokens
	// (seatlink.go).
	linkMisses *limiter
}

// The gates' sizes: how many requests may wait for a page or a map, and
// for how long, before they are answered 503. A page takes milliseconds
// (the list of 5,000 games half a second), a map tens of them.
const (
	pageWaiting = 64
	pageWait    = 5 * time.Second
	mapWaiting  = 16
	mapWait     = 10 * time.Second
)

// New returns the pages of cfg.
func New(cfg Config) (*Server, error) {
	if cfg.DB == nil {
		return nil, errors.New("web: no database")
	}
	if cfg.Overview == nil {
		return nil, errors.New("web: no overview function")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.JudgeName == "" {
		cfg.JudgeName = "GMD"
	}
	if cfg.MetricsFrom == nil {
		cfg.MetricsFrom = loopback
	}
	s := &Server{
		cfg:     cfg,
		mux:     http.NewServeMux(),
		maps:    view.NewPictureCache(mapCacheSize),
		changes: newChangeLog(),
		pages:   newGate(1, pageWaiting, pageWait),
		drawing: newGate(1, mapWaiting, mapWait),
		replays: newReplays(),
	}
	s.linkMisses = newLimiter(linkMissRate, linkMissBurst, cfg.Now)
	if cfg.Rate > 0 {
		s.limit = newLimiter(cfg.Rate, max(cfg.Burst, 1), cfg.Now)
	}
	s.routes()
	return s, nil
}

// routes sets up the pages. The phase pattern also takes the maps,
// "/games/dt/S1901M.png".
func (s *Server) routes() {
	s.mux.HandleFunc("GET /{$}", s.index)
	s.mux.HandleFunc("GET /games/{game}", s.page(s.game))
	s.mux.HandleFunc("GET /games/{game}/press", s.page(s.press))
	s.mux.HandleFunc("GET /games/{game}/atom.xml", s.feed)
	s.mux.HandleFunc("GET /games/{game}/replay.gif", s.replayGIF)
	s.mux.HandleFunc("GET /games/{game}/export.json", s.exportJSON)
	s.mux.HandleFunc("GET /games/{game}/{phase}", s.phaseOrMap)
	s.mux.HandleFunc("GET /games/{game}/as/{token}/{phase}", s.seatPhaseOrMap)
	s.mux.HandleFunc("GET /players/{id}", s.page(s.player))
	s.mux.HandleFunc("GET /static/{file}", s.static)
	s.mux.HandleFunc("GET /favicon.ico", s.favicon)
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /metrics", s.metrics)
}

// ServeHTTP answers one request: rate limited, with the security
// headers, GET and HEAD only.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header())
	if s.limit != nil && !s.limit.allow(clientOf(r, s.cfg.TrustedProxies)) {
		w.Header().Set("Retry-After", "1")
		s.errorPage(w, r, http.StatusTooManyRequests, "Too many requests", "Slow down a little: try again in a second.")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.errorPage(w, r, http.StatusMethodNotAllowed, "Read only", "These pages are read-only: play by mail.")
		return
	}
	if _, pattern := s.mux.Handler(r); pattern == "" {
		s.errorPage(w, r, http.StatusNotFound, "Not found", "There is no such page on this judge.")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Serve serves h on ln until ctx ends, then lets the requests under way
// finish for a few seconds. It serves maxConns connections at once, at
// most maxConnsPerClient of one client (conns.go); when h is a *Server,
// its trusted proxies are not held to the latter.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger) error {
	var trusted []netip.Prefix
	if s, ok := h.(*Server); ok {
		trusted = s.cfg.TrustedProxies
	}
	table := newConnTable(headersListener{ln}, maxConns, maxConnsPerClient, trusted)
	// A request has 10 seconds to send its head (no page takes a body),
	// an answer a minute to be read; a connection kept alive is closed
	// after idleTimeout without a request.
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeadBytes - headerSlop,
		// "OPTIONS *" reaches ServeHTTP, which answers it as any other
		// method it does not serve, with the security headers; net/http's
		// own answer to it has none.
		DisableGeneralOptionsHandler: true,
		ConnState:                    table.state,
	}
	ln = table
	if log != nil {
		srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-done
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	return err
}
