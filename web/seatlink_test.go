package web

import (
	"html"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gmdjudge/gmd/engine"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// lastDrawn keeps the position each map was last drawn from.
type lastDrawn struct {
	mu  sync.Mutex
	pos *judge.Position
}

func (d *lastDrawn) draw(w io.Writer, pos *judge.Position, _ *judge.Resolution) error {
	d.mu.Lock()
	d.pos = pos
	d.mu.Unlock()
	_, err := w.Write([]byte("\x89PNG"))
	return err
}

// fogLinked is the fixture with its played game under fog of war and a
// secret for its links.
func fogLinked(t *testing.T, cfg Config) (*fixture, *state.Game) {
	f := newFixture(t, 2, cfg)
	f.setGame(t, "secrets", func(g *state.Game) {
		g.Settings.Fog = true
		g.ConfirmKey = []byte("0123456789abcdef0123456789abcdef")
	})
	var g *state.Game
	if err := f.db.View(func(tx *state.Tx) (err error) {
		g, err = tx.Game("secrets")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return f, g
}

// hiddenWords returns how a page may name the units of pos that power p
// cannot see in pos nor in after: "Munich", "A mun" (found by names).
// The provinces its own orders (lines) name
// are its to name, and a province's name that is a power's too (Chaos's
// "Naples") is looked for only in its short form.
func hiddenWords(pos, after *judge.Position, p judge.Power, lines []string) (words, allowed []string) {
	m := pos.Map
	seen, seenAfter := view.Sight(pos, p), view.Sight(after, p)
	named := map[judge.Loc]bool{}
	for _, o := range engine.StoredOrders(pos, p, lines) {
		for _, l := range append([]judge.Loc{o.Unit, o.Target, o.Dest}, o.Route...) {
			named[m.Province(l)] = true
		}
	}
	powerName := map[string]bool{}
	for _, pw := range m.Powers {
		powerName[pw.Name], powerName[pw.Adjective] = true, true
	}
	var out []string
	for l := range m.Locs {
		if q := m.Province(judge.Loc(l)); seen[q] || seenAfter[q] || named[q] {
			allowed = append(allowed, m.FullName(judge.Loc(l)))
		}
	}
	for n := range powerName {
		allowed = append(allowed, n)
	}
	// Longest first, so that "Gulf of Siam" goes before "Siam" would.
	slices.SortFunc(allowed, func(a, b string) int { return len(b) - len(a) })
	for _, ps := range []*judge.Position{pos, after} {
		for _, u := range ps.Units {
			q := m.Province(u.Loc)
			if u.Type == judge.NoUnit || u.Power == p || seen[q] || seenAfter[q] || named[q] {
				continue
			}
			if !powerName[m.FullName(q)] {
				out = append(out, m.FullName(q))
			}
			out = append(out, u.Type.String()+" "+m.LocName(q))
		}
	}
	return out, allowed
}

// scrub takes the allowed names out of text, so that a hidden
// province's name inside one of them ("Siam" in "Gulf of Siam") is not
// counted.
func scrub(text string, allowed []string) string {
	for _, n := range allowed {
		text = strings.ReplaceAll(text, n, "#")
	}
	return text
}

// TestFogLinksShowEachPowerItsView walks every phase page and map of the
// fixture's fogged game under each power's private link (walkLinks);
// the master's link shows the whole results.
func TestFogLinksShowEachPowerItsView(t *testing.T) {
	d := &lastDrawn{}
	f, g := fogLinked(t, Config{Draw: d.draw, FogResults: engine.PhaseResultsFor})
	recs, hid := walkLinks(t, f, d, g)
	if hid == 0 {
		t.Fatal("no unit was out of any power's sight: the test proves nothing")
	}
	page := html.UnescapeString(body(t, f.get(t, "GET", "/games/"+g.Name+"/as/"+view.MasterLink(g)+"/"+recs[0].Phase)))
	if !strings.Contains(page, strings.TrimRight(recs[0].Results, "\n")) {
		t.Errorf("the master's link does not show the whole results:\n%s", page)
	}
}

// walkLinks walks every phase page and map of fogged game g under each
// power's private link: each page is 200 and shows the power's results
// as its mail did (engine.PhaseResultsFor), its own orders, and no name
// of a province where a unit stands that it could not see; each map is
// drawn from its view (every unit of another power drawn stands in
// sight). It returns g's phase records and how many names of hidden
// units it looked for.
func walkLinks(t *testing.T, f *fixture, d *lastDrawn, g *state.Game) (recs []*state.PhaseRecord, hid int) {
	t.Helper()
	if err := f.db.View(func(tx *state.Tx) (err error) {
		recs, err = tx.Phases(g.Name)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	cur, _, err := view.Position(g)
	if err != nil {
		t.Fatal(err)
	}
	m := cur.Map
	checkMap := func(path string, real *judge.Position, p judge.Power) {
		t.Helper()
		if res := f.get(t, "GET", path); res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		d.mu.Lock()
		drawn := d.pos
		d.mu.Unlock()
		seen := view.Sight(real, p)
		for _, u := range drawn.Units {
			if u.Type != judge.NoUnit && u.Power != p && !seen[m.Province(u.Loc)] {
				t.Errorf("%s draws %s %s %s, out of %s's sight", path, m.PowerName(u.Power), u.Type.Word(), m.FullName(u.Loc), m.Powers[p].Name)
			}
		}
	}
	type replayed struct {
		pos *judge.Position
		res *judge.Resolution
	}
	boards := make([]replayed, len(recs))
	for i, r := range recs {
		if boards[i].pos, boards[i].res, err = engine.Replay(g, r); err != nil {
			t.Fatal(err)
		}
	}
	pages := 0
	for k, pw := range m.Powers {
		p := judge.Power(k)
		tok := view.PowerLink(g, pw.Name)
		if tok == "" {
			continue
		}
		base := "/games/" + g.Name + "/as/" + tok + "/"
		for i, r := range recs {
			pos, res := boards[i].pos, boards[i].res
			page := html.UnescapeString(body(t, f.get(t, "GET", base+r.Phase)))
			pages++
			want, err := engine.PhaseResultsFor(g, r, pw.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(page, strings.TrimRight(want, "\n")) {
				t.Fatalf("%s as %s: not its results:\n%s", r.Phase, pw.Name, page)
			}
			rest := strings.ReplaceAll(page, strings.TrimRight(want, "\n"), "")
			words, allowed := hiddenWords(pos, res.Next, p, r.Orders[pw.Name])
			rest = scrub(rest, allowed)
			for _, w := range words {
				hid++
				if names(rest, w) {
					t.Errorf("%s as %s names %q, out of its sight:\n%s", r.Phase, pw.Name, w, rest)
					break
				}
			}
			checkMap(base+r.Phase+".png", pos, p)
			checkMap(base+r.Phase+"-after.png", res.Next, p)
		}
		ph := cur.Phase.String()
		page := html.UnescapeString(body(t, f.get(t, "GET", base+ph)))
		pages++
		words, allowed := hiddenWords(cur, cur, p, nil)
		page = scrub(page, allowed)
		for _, w := range words {
			hid++
			if names(page, w) {
				t.Errorf("%s as %s names %q, out of its sight", ph, pw.Name, w)
			}
		}
		checkMap(base+ph+".png", cur, p)
	}
	if pages < 2*len(m.Powers) {
		t.Fatalf("%d pages walked: the test proves nothing", pages)
	}
	t.Logf("%s: %d pages walked under the powers' links, %d hidden names checked", m.Name, pages, hid)
	return recs, hid
}

// TestFogLinksRefused: a made-up token, a power's token once its seat
// changed hands (a takeover), and another game's token are 404; the
// public pages hold no token; and past linkMissBurst wrong tokens a
// client's right one is not even looked up.
func TestFogLinksRefused(t *testing.T) {
	f, g := fogLinked(t, Config{FogResults: engine.PhaseResultsFor})
	france := view.PowerLink(g, "France")
	path := "/games/secrets/as/" + france + "/S1901M"
	if res := f.get(t, "GET", path); res.StatusCode != http.StatusOK {
		t.Fatalf("France's link: %d", res.StatusCode)
	} else if res.Header.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(res.Header.Get("Cache-Control"), "private") {
		t.Errorf("France's link is sent with %v", res.Header)
	}
	for _, tok := range view.PowerLinks(g) {
		for p, text := range f.crawl(t) {
			if strings.Contains(text, tok) {
				t.Errorf("the public page %s holds a private token", p)
			}
		}
	}
	if res := f.get(t, "GET", "/games/newgame/as/"+france+"/S1901M"); res.StatusCode != http.StatusNotFound {
		t.Errorf("France's token for another game: %d", res.StatusCode)
	}
	f.setGame(t, "secrets", func(g *state.Game) {
		i := engine.PlayerByPower(g, "France")
		g.Players[i].Addr, g.Players[i].PassHash = "newcomer@players.test", []byte("another hash")
	})
	if res := f.get(t, "GET", path); res.StatusCode != http.StatusNotFound {
		t.Errorf("France's token after a takeover: %d, want 404", res.StatusCode)
	}
	var now *state.Game
	_ = f.db.View(func(tx *state.Tx) (err error) { now, err = tx.Game("secrets"); return err })
	fresh := "/games/secrets/as/" + view.PowerLink(now, "France") + "/S1901M"
	if res := f.get(t, "GET", fresh); res.StatusCode != http.StatusOK {
		t.Fatalf("the new holder's link: %d", res.StatusCode)
	}
	for range linkMissBurst {
		if res := f.get(t, "GET", "/games/secrets/as/AAAAAAAAAAAAAAAAAAAAAA/S1901M"); res.StatusCode != http.StatusNotFound {
			t.Fatalf("a made-up token: %d", res.StatusCode)
		}
	}
	if res := f.get(t, "GET", fresh); res.StatusCode != http.StatusNotFound {
		t.Errorf("a right token past %d wrong ones: %d, want 404", linkMissBurst, res.StatusCode)
	}
}

// names reports whether text holds w as words of its own: "A mun" not
// in "A munition", "Rome" not in "Romeo".
func names(text, w string) bool {
	return regexp.MustCompile(`(^|[^\pL])` + regexp.QuoteMeta(w) + `($|[^\pL/])`).MatchString(text)
}
