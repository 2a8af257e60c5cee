package web

import (
	"html"
	"io"
	"net/http"
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
// cannot see in pos nor in after: "Munich", "A mun" (pages are read in
// small letters for these).
func hiddenWords(pos, after *judge.Position, p judge.Power) []string {
	m := pos.Map
	seen, seenAfter := view.Sight(pos, p), view.Sight(after, p)
	var out []string
	for _, ps := range []*judge.Position{pos, after} {
		for _, u := range ps.Units {
			q := m.Province(u.Loc)
			if u.Type == judge.NoUnit || u.Power == p || seen[q] || seenAfter[q] {
				continue
			}
			out = append(out, m.FullName(q), u.Type.String()+" "+m.LocName(q))
		}
	}
	return out
}

// TestFogLinksShowEachPowerItsView walks every phase page and map of the
// fogged game under each power's private link: each page is 200 and
// shows the power's results as its mail did (engine.PhaseResultsFor),
// its own orders only, and no name of a province where a unit stands
// that it could not see; each map is drawn from its view (every unit of
// another power drawn stands in sight). The master's link shows the
// whole results and board.
func TestFogLinksShowEachPowerItsView(t *testing.T) {
	d := &lastDrawn{}
	f, g := fogLinked(t, Config{Draw: d.draw, FogResults: engine.PhaseResultsFor})
	var recs []*state.PhaseRecord
	if err := f.db.View(func(tx *state.Tx) (err error) {
		recs, err = tx.Phases("secrets")
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
	pages, hid := 0, 0
	for k, pw := range m.Powers {
		p := judge.Power(k)
		tok := view.PowerLink(g, pw.Name)
		if tok == "" {
			continue
		}
		base := "/games/secrets/as/" + tok + "/"
		for _, r := range recs {
			pos, res, err := engine.Replay(g, r)
			if err != nil {
				t.Fatal(err)
			}
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
			for _, l := range r.Orders[pw.Name] {
				rest = strings.ReplaceAll(rest, l, "")
			}
			for _, w := range hiddenWords(pos, res.Next, p) {
				hid++
				if strings.Contains(strings.ToLower(rest), strings.ToLower(w)) {
					t.Errorf("%s as %s names %q, out of its sight", r.Phase, pw.Name, w)
				}
			}
			checkMap(base+r.Phase+".png", pos, p)
			checkMap(base+r.Phase+"-after.png", res.Next, p)
		}
		ph := cur.Phase.String()
		page := html.UnescapeString(body(t, f.get(t, "GET", base+ph)))
		pages++
		for _, w := range hiddenWords(cur, cur, p) {
			if strings.Contains(strings.ToLower(page), strings.ToLower(w)) {
				t.Errorf("%s as %s names %q, out of its sight", ph, pw.Name, w)
			}
		}
		checkMap(base+ph+".png", cur, p)
	}
	if pages < 2*len(m.Powers) || hid == 0 {
		t.Fatalf("%d pages walked, %d hidden names checked: the test proves nothing", pages, hid)
	}
	t.Logf("%d pages walked under the powers' links, %d hidden names checked", pages, hid)
	page := html.UnescapeString(body(t, f.get(t, "GET", "/games/secrets/as/"+view.MasterLink(g)+"/"+recs[0].Phase)))
	if !strings.Contains(page, strings.TrimRight(recs[0].Results, "\n")) {
		t.Errorf("the master's link does not show the whole results:\n%s", page)
	}
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
