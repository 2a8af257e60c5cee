package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gmdjudge/gmd/internal/textsafe"
)

// csp allows the pages nothing but their own style sheet and images: no
// script at all, no frames, no forms, no other origin. The inline SVG of
// the centre chart is markup, which no directive governs.
const csp = "default-src 'none'; style-src 'self'; img-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// securityHeaders sets the headers every answer carries.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()")
}

// respond writes body, of type ctype, as the answer to r, or 304 Not
// Modified when the client's copy is current. The ETag is a hash of the
// body, so that it changes exactly when the page does; Last-Modified is
// when this server first served this body at this path (changeLog).
//
// A page in text (HTML, the feed, SVG) goes through textsafe.Clean, as
// every echo of a player's text does: what the pages show of press,
// orders as written and names holds no control or bidi character.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, ctype string, body []byte) {
	if strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "xml") {
		body = textsafe.CleanBytes(body)
	}
	sum := sha256.Sum256(body)
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
	since := s.changes.since(r.URL.Path, etag, s.cfg.Now())
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Last-Modified", since.UTC().Format(http.TimeFormat))
	// Readers may keep a copy, and must ask whether it is still good:
	// a game page changes with each mail. A private link's page says
	// its own (seatlink.go).
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache")
	}
	if notModified(r, etag, since) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// notModified reports whether the client's copy, as its conditional
// headers describe it, is current: If-None-Match wins over
// If-Modified-Since when both are there (RFC 9110, 13.2.2).
func notModified(r *http.Request, etag string, since time.Time) bool {
	// The header may come as several lines, which make one list.
	if inm := strings.Join(r.Header.Values("If-None-Match"), ","); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == etag || t == "*" {
				return true
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" {
		t, err := http.ParseTime(ims)
		return err == nil && !since.Truncate(time.Second).After(t)
	}
	return false
}

// changeLog remembers, for each path served, the ETag of its last body
// and since when the path has served it: the page's Last-Modified. The
// database keeps no time of change for all a page shows (a seat that
// went into civil disorder, a deadline the master moved), so the time a
// body was first seen is the honest one. After a restart every page
// looks new, which costs a full answer at worst, never a stale one.
type changeLog struct {
	mu    sync.Mutex
	paths map[string]change
}

type change struct {
	etag  string
	since time.Time
}

// changeLogSize bounds the paths remembered: past it the log starts over
// rather than grow with a crawler's made-up paths (which 404 anyway).
const changeLogSize = 20000

func newChangeLog() *changeLog { return &changeLog{paths: map[string]change{}} }

// since returns when path started serving etag, now if it just did.
func (c *changeLog) since(path, etag string, now time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.paths[path]; ok && ch.etag == etag {
		return ch.since
	}
	if len(c.paths) >= changeLogSize {
		clear(c.paths)
	}
	now = now.Truncate(time.Second) // as Last-Modified can say it
	c.paths[path] = change{etag, now}
	return now
}

// maxDepth is how many levels below the root the deepest page is
// ("games/dt/S1901M").
const maxDepth = 2

// errorPage answers r with status and a small page saying what went
// wrong, never cached.
func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, status int, title, text string) {
	// The way back to the root goes up as many levels as the path has,
	// up to the deepest page's: a path of a thousand slashes gets no
	// page of a thousand "../" in each of its links.
	path := strings.TrimPrefix(r.URL.Path, "/")
	if strings.Count(path, "/") > maxDepth {
		path = strings.Repeat("x/", maxDepth)
	}
	var b bytes.Buffer
	err := s.render(&b, "error", errorData{page: s.base(title, path), Status: status, Text: text})
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if err != nil {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		w.Write([]byte(title + "\n"))
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}

// failed answers r after err, a failure of the judge's own (a damaged
// record, say): logged, and told to the reader without the details.
func (s *Server) failed(w http.ResponseWriter, r *http.Request, err error) {
	s.cfg.Log.Error("web: a page failed", "path", r.URL.Path, "err", err)
	s.errorPage(w, r, http.StatusInternalServerError, "Something went wrong",
		"The judge could not show this page. Its operator can find out why in the log.")
}
