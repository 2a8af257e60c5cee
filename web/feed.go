package web

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"time"

	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// The Atom feed of a game (RFC 4287): one entry per processed phase, the
// newest first, with the results as mailed. Links in a feed must be
// absolute, hence the base URL.

// feedEntries bounds a feed: readers poll it, and the game page links
// the whole history.
const feedEntries = 40

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Author  atomPerson  `xml:"author"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomEntry struct {
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Link    atomLink    `xml:"link"`
	Content atomContent `xml:"content"`
}

type atomContent struct {
	Type string `xml:"type,attr"`
	Text string `xml:",chardata"`
}

// baseURL returns the public address of the pages, ending in "/": the
// configured one, or the one r came to.
func (s *Server) baseURL(r *http.Request) string {
	if s.cfg.BaseURL != "" {
		return s.cfg.BaseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + "/"
}

// feed answers a game's Atom feed.
func (s *Server) feed(w http.ResponseWriter, r *http.Request) {
	if !s.pages.enter(r.Context()) {
		s.busy(w, r)
		return
	}
	defer s.pages.leave()
	base := s.baseURL(r)
	var f *atomFeed
	err := s.cfg.DB.View(func(tx *state.Tx) error {
		name := r.PathValue("game")
		g, err := s.findGame(tx, name)
		if err != nil {
			return err
		}
		if err := canonical(name, "", g, "", "games/"+g.Name+"/atom.xml"); err != nil {
			return err
		}
		recs, err := tx.Phases(g.Name)
		if err != nil {
			return err
		}
		if view.Fogged(g) {
			recs = nil // fog of war: the results are each power's own until the end
		}
		f = gameFeed(s.cfg.JudgeName, base, g, recs)
		return nil
	})
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	if err := xml.NewEncoder(&b).Encode(f); err != nil {
		s.failed(w, r, err)
		return
	}
	s.respond(w, r, "application/atom+xml; charset=utf-8", b.Bytes())
}

// gameFeed is the feed of g with its history recs, at base.
func gameFeed(judgeName, base string, g *state.Game, recs []*state.PhaseRecord) *atomFeed {
	page := base + "games/" + g.Name
	f := &atomFeed{
		Title:  fmt.Sprintf("%s: game %s", judgeName, g.Name),
		ID:     page,
		Author: atomPerson{Name: judgeName},
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: page + "/atom.xml"},
			{Rel: "alternate", Type: "text/html", Href: page},
		},
	}
	updated := g.Created
	for i := len(recs) - 1; i >= 0 && len(f.Entries) < feedEntries; i-- {
		r := recs[i]
		if r.Processed.After(updated) {
			updated = r.Processed
		}
		f.Entries = append(f.Entries, atomEntry{
			Title: fmt.Sprintf("%s results: %s", r.Phase, view.PhaseTitleOf(r.Phase)),
			// The processing time is in the ID: a phase played again
			// after a rollback is a new entry.
			ID:      fmt.Sprintf("%s/%s#%d", page, r.Phase, r.Processed.UnixNano()),
			Updated: r.Processed.UTC().Format(time.RFC3339),
			Link:    atomLink{Rel: "alternate", Type: "text/html", Href: page + "/" + r.Phase},
			Content: atomContent{Type: "text", Text: r.Results},
		})
	}
	f.Updated = updated.UTC().Format(time.RFC3339)
	return f
}
