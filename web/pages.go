package web

import (
	"bytes"
	"embed"
	"errors"
	"html/template"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gmdjudge/gmd/state"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// pages are the templates, one set per page, each with the layout.
var pages = func() map[string]*template.Template {
	funcs := template.FuncMap{
		"add": func(a, b int) int { return a + b },
		"sub": func(a, b int) int { return a - b },
	}
	out := map[string]*template.Template{}
	for _, name := range []string{"index", "game", "phase", "press", "player", "error"} {
		out[name] = template.Must(template.New(name).Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", "templates/"+name+".html"))
	}
	return out
}()

// errorData is the data of an error page.
type errorData struct {
	page
	Status int
	Text   string
}

// render writes the page name with data.
func (s *Server) render(w io.Writer, name string, data any) error {
	return pages[name].ExecuteTemplate(w, "layout", data)
}

// loader reads a page's data in a read transaction, and names its
// template.
type loader func(tx *state.Tx, r *http.Request, now time.Time) (tmpl string, data any, err error)

// page answers with the page that load reads. The transaction ends
// before the page is rendered and sent, so that a slow reader never
// keeps one open.
func (s *Server) page(load loader) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.pages.enter(r.Context()) {
			s.busy(w, r)
			return
		}
		defer s.pages.leave()
		now := s.cfg.Now()
		var (
			tmpl string
			data any
		)
		err := s.cfg.DB.View(func(tx *state.Tx) (err error) {
			tmpl, data, err = load(tx, r, now)
			return err
		})
		if err != nil {
			s.pageError(w, r, err)
			return
		}
		var b bytes.Buffer
		if err := s.render(&b, tmpl, data); err != nil {
			s.failed(w, r, err)
			return
		}
		s.respond(w, r, "text/html; charset=utf-8", b.Bytes())
	}
}

// pageError answers a page that could not be read: 404 for a game or
// phase that is not there, or a replay or export of a game not over
// (replay.go), 500 otherwise.
func (s *Server) pageError(w http.ResponseWriter, r *http.Request, err error) {
	if m, ok := errors.AsType[moved](err); ok {
		s.redirect(w, r, m.path)
		return
	}
	if errors.Is(err, errNotOver) {
		s.notOver(w, r)
		return
	}
	if errors.Is(err, errNoGame) {
		s.notFound(w, r)
		return
	}
	s.failed(w, r, err)
}

// redirect answers r with a permanent redirect to path, the page's own
// path below the root. The Location is relative to r's path, as the
// pages' links are, so that it is right under whatever path a reverse
// proxy serves the site; path is made of a stored game name and phase,
// never of what the request said.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, path string) {
	root := s.base("", strings.TrimPrefix(r.URL.Path, "/")).Root
	w.Header().Set("Location", root+path)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusMovedPermanently)
}

// busy answers a request that found its gate full: 503, to be tried
// again in a few seconds.
func (s *Server) busy(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "5")
	s.errorPage(w, r, http.StatusServiceUnavailable, "Busy", "The judge has many readers just now: try again in a few seconds.")
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.errorPage(w, r, http.StatusNotFound, "Not found", "There is no such game or phase on this judge.")
}

// frontPage is the list of games as last rendered, and the version of
// the database it was read from. It is the one page whose cost grows
// with the judge (half a second for 5,000 games), and a function of the
// database alone: while no write has committed it is served again as it
// is.
type frontPage struct {
	mu      sync.Mutex
	version uint64
	body    []byte
}

// index answers the list of games, from frontPage while the database has
// not changed.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	if !s.pages.enter(r.Context()) {
		s.busy(w, r)
		return
	}
	defer s.pages.leave()
	var (
		version uint64
		body    []byte
		d       *indexData
	)
	err := s.cfg.DB.View(func(tx *state.Tx) (err error) {
		version = tx.Version()
		s.front.mu.Lock()
		if s.front.body != nil && s.front.version == version {
			body = s.front.body
		}
		s.front.mu.Unlock()
		if body == nil {
			d, err = s.loadIndex(tx, s.cfg.Now())
		}
		return err
	})
	if err != nil {
		s.failed(w, r, err)
		return
	}
	if body == nil {
		var b bytes.Buffer
		if err := s.render(&b, "index", d); err != nil {
			s.failed(w, r, err)
			return
		}
		body = b.Bytes()
		s.front.mu.Lock()
		s.front.version, s.front.body = version, body
		s.front.mu.Unlock()
	}
	s.respond(w, r, "text/html; charset=utf-8", body)
}

func (s *Server) game(tx *state.Tx, r *http.Request, now time.Time) (string, any, error) {
	d, err := s.loadGame(tx, r.PathValue("game"), now)
	return "game", d, err
}

func (s *Server) press(tx *state.Tx, r *http.Request, now time.Time) (string, any, error) {
	d, err := s.loadPress(tx, r.PathValue("game"))
	return "press", d, err
}

// phaseOrMap answers /games/{game}/{phase}: the phase's page, or its map
// for a name ending in ".png" ("-after.png": the board the phase left).
func (s *Server) phaseOrMap(w http.ResponseWriter, r *http.Request) {
	game, phase := r.PathValue("game"), r.PathValue("phase")
	if ph, ok := strings.CutSuffix(phase, ".png"); ok {
		ph, after := strings.CutSuffix(ph, "-after")
		s.mapPNG(w, r, game, ph, after, nil)
		return
	}
	s.page(func(tx *state.Tx, r *http.Request, now time.Time) (string, any, error) {
		d, err := s.loadPhase(tx, game, phase, now, nil)
		return "phase", d, err
	})(w, r)
}

// static answers the style sheet and the icon.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	body, err := staticFiles.ReadFile("static/" + name)
	if err != nil || strings.Contains(name, "/") {
		s.notFound(w, r)
		return
	}
	ctype := "application/octet-stream"
	switch {
	case strings.HasSuffix(name, ".css"):
		ctype = "text/css; charset=utf-8"
	case strings.HasSuffix(name, ".svg"):
		ctype = "image/svg+xml"
	}
	s.respond(w, r, ctype, body)
}

// favicon answers browsers that ask for /favicon.ico whatever the page
// says: the icon, which they read as SVG by its type.
func (s *Server) favicon(w http.ResponseWriter, r *http.Request) {
	body, _ := staticFiles.ReadFile("static/icon.svg")
	s.respond(w, r, "image/svg+xml", body)
}

// healthz says whether the pages can read the database.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	err := s.cfg.DB.View(func(tx *state.Tx) error {
		_, err := tx.Settings()
		return err
	})
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		s.cfg.Log.Error("web: healthz: the database cannot be read", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "database unreadable\n")
		return
	}
	io.WriteString(w, "ok\n")
}
