package web

import (
	"encoding/base64"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
)

// get asks the fixture's server for path, with headers, and returns the
// answer.
func (f *fixture) get(t testing.TB, method, path string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	req.RemoteAddr = "192.0.2.1:4321"
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	f.srv.ServeHTTP(w, req)
	return w.Result()
}

func body(t testing.TB, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// links are the href and src attributes of a page.
var links = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

// crawl walks every page the server links from /, following the links
// of each page (a link is relative, so it is resolved against the
// page), and returns the bodies by path. Every page must answer 200.
func (f *fixture) crawl(t *testing.T) map[string]string {
	t.Helper()
	pages := map[string]string{}
	queue := []string{"/"}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if _, ok := pages[path]; ok {
			continue
		}
		res := f.get(t, "GET", path)
		b := body(t, res)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %s", path, res.Status)
		}
		pages[path] = b
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			continue
		}
		base, _ := url.Parse("http://judge.test" + path)
		for _, m := range links.FindAllStringSubmatch(b, -1) {
			u, err := base.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
			if err != nil || u.Host != "judge.test" {
				t.Errorf("%s: link %q leaves the site", path, m[1])
				continue
			}
			queue = append(queue, u.Path)
		}
	}
	return pages
}

// TestNoSecretOnAnyPage walks every page of a judge with a game in
// progress holding pending orders, private, partial and grey press,
// passwords, a confirmation key and addresses, and looks for each
// secret on each page, map and feed.
func TestNoSecretOnAnyPage(t *testing.T) {
	f := newFixture(t, 3, Config{})
	pages := f.crawl(t)
	for _, want := range []string{
		"/", "/games/secrets", "/games/secrets/press", "/games/secrets/atom.xml",
		"/games/secrets/S1901M", "/games/secrets/S1901M.png", "/games/secrets/S1904M", "/games/secrets/S1904M.png",
		"/games/newgame", "/static/style.css",
	} {
		if _, ok := pages[want]; !ok {
			t.Errorf("no link leads to %s", want)
		}
	}
	// What a crawler would not find by links but may ask for.
	for _, p := range []string{"/metrics", "/healthz", "/games/secrets/S1904M.png"} {
		pages[p] = body(t, f.get(t, "GET", p))
	}
	hash := ""
	f.db.View(func(tx *state.Tx) error {
		g, err := tx.Game("secrets")
		if err == nil {
			hash = string(g.Players[0].PassHash)
		}
		return err
	})
	all := append(slices.Clone(secrets), hash, base64.StdEncoding.EncodeToString([]byte(hash)),
		base64.StdEncoding.EncodeToString([]byte("secret-confirm-key")))
	for path, b := range pages {
		for _, s := range all {
			if strings.Contains(b, s) {
				t.Errorf("%s shows the secret %q", path, s)
			}
		}
	}
	// The maps were drawn from the history's orders, never the pending
	// ones.
	for _, o := range f.draw.seen {
		if strings.Contains(o, "Sil") || strings.Contains(o, "Hol") {
			t.Errorf("a map was drawn with the pending order %q", o)
		}
	}
	if f.draw.calls == 0 {
		t.Error("no map was drawn")
	}

	press := pages["/games/secrets/press"]
	for _, s := range []string{whiteBroadcast, greyBroadcast, masterBroadcast} {
		if !strings.Contains(press, s) {
			t.Errorf("the press page lacks the broadcast %q", s)
		}
	}
	// The grey broadcast's article names nobody.
	i := strings.Index(press, greyBroadcast)
	art := press[strings.LastIndex(press[:i], "<article"):i]
	if !strings.Contains(art, "From someone") || strings.Contains(art, "England") {
		t.Errorf("the grey broadcast shows its sender:\n%s", art)
	}
	game := pages["/games/secrets"]
	for _, s := range []string{"civil disorder", "Supply centres by year", "<svg", "Austria", "Spring 1904, movement", "being played"} {
		if !strings.Contains(game, s) {
			t.Errorf("the game page lacks %q", s)
		}
	}
	if ph := pages["/games/secrets/S1901M"]; !strings.Contains(ph, "a vie - gal") || !strings.Contains(ph, "Movement results for Spring of 1901") {
		t.Errorf("S1901M lacks its orders or results:\n%s", ph)
	}
	if cur := pages["/games/secrets/S1904M"]; !strings.Contains(cur, "The orders are shown once the phase is processed") {
		t.Errorf("the phase being played:\n%s", cur)
	}
}

// TestHeaders checks the security headers, ETag, Last-Modified and 304
// on pages and maps, HEAD, and the answers to what is not there.
func TestHeaders(t *testing.T) {
	f := newFixture(t, 1, Config{})
	for _, path := range []string{"/", "/games/secrets", "/games/secrets/S1901M", "/games/secrets/S1901M.png", "/games/secrets/press", "/games/secrets/atom.xml", "/static/style.css"} {
		res := f.get(t, "GET", path)
		b := body(t, res)
		if res.StatusCode != 200 || len(b) == 0 {
			t.Fatalf("GET %s: %s", path, res.Status)
		}
		h := res.Header
		for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "ETag", "Last-Modified"} {
			if h.Get(k) == "" {
				t.Errorf("%s: no %s", path, k)
			}
		}
		if csp := h.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if strings.Contains(b, "<script") || strings.Contains(b, " style=") || strings.Contains(b, "<style") {
			t.Errorf("%s has script or inline style", path)
		}
		etag, lm := h.Get("ETag"), h.Get("Last-Modified")
		if r := f.get(t, "GET", path, "If-None-Match", etag); r.StatusCode != http.StatusNotModified || body(t, r) != "" {
			t.Errorf("%s with If-None-Match: %s", path, r.Status)
		}
		if r := f.get(t, "GET", path, "If-Modified-Since", lm); r.StatusCode != http.StatusNotModified {
			t.Errorf("%s with If-Modified-Since: %s", path, r.Status)
		}
		if r := f.get(t, "GET", path, "If-None-Match", `"other"`, "If-Modified-Since", lm); r.StatusCode != http.StatusOK {
			t.Errorf("%s with another ETag: %s (If-None-Match must win)", path, r.Status)
		}
		if r := f.get(t, "HEAD", path); r.StatusCode != http.StatusOK || body(t, r) != "" || r.Header.Get("ETag") != etag {
			t.Errorf("HEAD %s: %s", path, r.Status)
		}
	}
	for _, path := range []string{"/nope", "/games/nope", "/games/nope/press", "/games/nope/atom.xml", "/games/secrets/S1950M",
		"/games/secrets/F1902M", "/games/secrets/S1950M.png", "/games/newgame/S1901M", "/static/nope.css", "/games/secrets/S1901M/more"} {
		res := f.get(t, "GET", path)
		b := body(t, res)
		if res.StatusCode != http.StatusNotFound || !strings.Contains(b, "Not found") {
			t.Errorf("GET %s: %s", path, res.Status)
		}
		if res.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: a 404 without CSP", path)
		}
	}
	if res := f.get(t, "POST", "/games/secrets"); res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %s", res.Status)
	}
}

// TestLastModifiedFollowsChanges: a page keeps its Last-Modified while
// it stays the same, and gets a new one, and a new ETag, when the game
// changes.
func TestLastModifiedFollowsChanges(t *testing.T) {
	f := newFixture(t, 1, Config{})
	first := f.get(t, "GET", "/games/secrets")
	f.advance(time.Hour)
	same := f.get(t, "GET", "/games/secrets")
	if same.Header.Get("Last-Modified") != first.Header.Get("Last-Modified") || same.Header.Get("ETag") != first.Header.Get("ETag") {
		t.Errorf("an unchanged page changed its validators")
	}
	err := f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("secrets")
		if err != nil {
			return err
		}
		g.Players[0].Status = state.Abandoned
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	changed := f.get(t, "GET", "/games/secrets", "If-Modified-Since", first.Header.Get("Last-Modified"))
	if changed.StatusCode != 200 || changed.Header.Get("ETag") == first.Header.Get("ETag") || changed.Header.Get("Last-Modified") == first.Header.Get("Last-Modified") {
		t.Errorf("a changed page: %s, ETag %s, Last-Modified %s", changed.Status, changed.Header.Get("ETag"), changed.Header.Get("Last-Modified"))
	}
	if !strings.Contains(body(t, changed), "abandoned") {
		t.Error("the change is not shown")
	}
}

// TestRateLimit: a client past its burst gets 429 until its bucket
// fills again; another client is not held to it; a trusted proxy's
// clients are told apart by X-Forwarded-For.
func TestRateLimit(t *testing.T) {
	f := newFixture(t, 1, Config{HTTP: config.HTTP{Rate: 1, Burst: 3, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.1/32")}}})
	ask := func(remote string, xff ...string) int {
		req := httptest.NewRequest("GET", "/static/style.css", nil)
		req.RemoteAddr = remote
		for _, x := range xff {
			req.Header.Add("X-Forwarded-For", x)
		}
		w := httptest.NewRecorder()
		f.srv.ServeHTTP(w, req)
		if w.Code == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
		return w.Code
	}
	for i := range 3 {
		if c := ask("192.0.2.1:1"); c != 200 {
			t.Fatalf("request %d: %d", i, c)
		}
	}
	if c := ask("192.0.2.1:2"); c != http.StatusTooManyRequests {
		t.Errorf("past the burst: %d", c)
	}
	if c := ask("192.0.2.2:1"); c != 200 {
		t.Errorf("another client: %d", c)
	}
	f.advance(time.Second)
	if c := ask("192.0.2.1:1"); c != 200 {
		t.Errorf("a second later: %d", c)
	}
	if c := ask("192.0.2.1:1"); c != http.StatusTooManyRequests {
		t.Errorf("one token a second: %d", c)
	}
	// Behind the trusted proxy: the client the proxy names, whatever the
	// client itself wrote before it.
	for range 3 {
		ask("10.0.0.1:5", "203.0.113.9, 198.51.100.7")
	}
	if c := ask("10.0.0.1:5", "203.0.113.10, 198.51.100.7"); c != http.StatusTooManyRequests {
		t.Errorf("a client forging X-Forwarded-For escaped: %d", c)
	}
	if c := ask("10.0.0.1:5", "198.51.100.8"); c != 200 {
		t.Errorf("another client behind the proxy: %d", c)
	}
	// An untrusted peer's X-Forwarded-For is ignored.
	if c := ask("192.0.2.1:1", "198.51.100.99"); c != http.StatusTooManyRequests {
		t.Errorf("an untrusted X-Forwarded-For was believed: %d", c)
	}
}

// TestMetrics checks /metrics against what the database and the
// counters hold.
func TestMetrics(t *testing.T) {
	st := &Stats{Sent: func() uint64 { return 7 }}
	f := newFixture(t, 1, Config{Stats: st, HTTP: config.HTTP{MetricsFrom: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}}})
	st.MailHandled(3 * time.Millisecond)
	st.MailHandled(2 * time.Second)
	st.ClockRan(time.Millisecond)
	err := f.db.Update(func(tx *state.Tx) error {
		if err := tx.Enqueue(&state.OutMail{To: []string{"a@players.test"}, Subject: "x"}); err != nil {
			return err
		}
		return tx.Enqueue(&state.OutMail{To: []string{"b@players.test"}, Subject: "y", Failed: "550 no"})
	})
	if err != nil {
		t.Fatal(err)
	}
	res := f.get(t, "GET", "/metrics")
	b := body(t, res)
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Errorf("type %q", res.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		`gmd_outbox_mails{state="waiting"} 1`, `gmd_outbox_mails{state="failed"} 1`,
		"gmd_held_mails 0", `gmd_games{status="active"} 1`, `gmd_games{status="forming"} 1`,
		`gmd_games{status="finished"} 0`, "gmd_mails_in_total 2", "gmd_mails_out_total 7",
		`gmd_mail_handle_seconds_bucket{le="0.005"} 1`, `gmd_mail_handle_seconds_bucket{le="2.5"} 2`,
		`gmd_mail_handle_seconds_bucket{le="+Inf"} 2`, "gmd_mail_handle_seconds_count 2",
		"gmd_clock_run_seconds_count 1", "# TYPE gmd_mails_in_total counter",
	} {
		if !strings.Contains(b, want+"\n") {
			t.Errorf("no %q in\n%s", want, b)
		}
	}
	if strings.Contains(b, "players.test") {
		t.Error("/metrics shows an address")
	}
	if r := f.get(t, "GET", "/healthz"); r.StatusCode != 200 || body(t, r) != "ok\n" {
		t.Errorf("healthz: %s", r.Status)
	}
}

// TestNoMaps: without a Drawer the pages show no map, and the map
// paths are not found.
func TestNoMaps(t *testing.T) {
	f := newFixture(t, 1, Config{})
	f.srv.cfg.Draw = nil
	if b := body(t, f.get(t, "GET", "/games/secrets")); strings.Contains(b, "<img") {
		t.Error("a map without a Drawer")
	}
	if r := f.get(t, "GET", "/games/secrets/S1901M.png"); r.StatusCode != http.StatusNotFound {
		t.Errorf("map without a Drawer: %s", r.Status)
	}
}

// TestMapCache: a map is drawn once, then served from the cache
// (view.PictureCache, whose order of eviction view's tests check).
func TestMapCache(t *testing.T) {
	f := newFixture(t, 1, Config{})
	for range 3 {
		if r := f.get(t, "GET", "/games/secrets/S1901M.png"); r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("map: %s", r.Status)
		}
	}
	if f.draw.calls != 1 {
		t.Errorf("drawn %d times", f.draw.calls)
	}
}

// BenchmarkGamePage serves the page of a game with a 20-year history,
// the map excluded (it is another request, and cached).
func BenchmarkGamePage(b *testing.B) {
	f := newFixture(b, 20, Config{})
	var n int
	f.db.View(func(tx *state.Tx) (err error) {
		n, err = tx.CountPhases("secrets")
		return err
	})
	for b.Loop() {
		req := httptest.NewRequest("GET", "/games/secrets", nil)
		w := httptest.NewRecorder()
		f.srv.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
	b.ReportMetric(float64(n), "phases")
}

// TestFeed reads a game's Atom feed: one entry per processed phase, the
// newest first, with absolute links at the base URL.
func TestFeed(t *testing.T) {
	f := newFixture(t, 2, Config{HTTP: config.HTTP{BaseURL: "https://judge.example.org/gmd/"}})
	res := f.get(t, "GET", "/games/secrets/atom.xml")
	b := body(t, res)
	if res.Header.Get("Content-Type") != "application/atom+xml; charset=utf-8" {
		t.Errorf("type %q", res.Header.Get("Content-Type"))
	}
	var feed atomFeed
	if err := xml.Unmarshal([]byte(b), &feed); err != nil {
		t.Fatal(err)
	}
	if len(feed.Entries) != 6 || feed.Entries[0].Title != "W1902A results: Winter 1902, adjustment" ||
		feed.Entries[5].Link.Href != "https://judge.example.org/gmd/games/secrets/S1901M" {
		t.Errorf("entries %+v", feed.Entries)
	}
	if !strings.Contains(feed.Entries[5].Content.Text, "Movement results for Spring of 1901") {
		t.Errorf("S1901M content %q", feed.Entries[5].Content.Text)
	}
	if feed.Links[0].Href != "https://judge.example.org/gmd/games/secrets/atom.xml" || feed.Updated != feed.Entries[0].Updated {
		t.Errorf("feed %+v", feed)
	}
	// Without a base URL, the address the request came to.
	f.srv.cfg.BaseURL = ""
	if b := body(t, f.get(t, "GET", "/games/secrets/atom.xml")); !strings.Contains(b, `href="http://example.com/games/secrets"`) {
		t.Errorf("without a base URL:\n%s", b)
	}
}

// TestFormingAndFinished: a forming game says how to join; a finished
// game shows its result and its last position's map, and offers no
// phase being played.
func TestFormingAndFinished(t *testing.T) {
	f := newFixture(t, 1, Config{})
	b := body(t, f.get(t, "GET", "/games/newgame"))
	for _, want := range []string{"forming, 1 of 7 players have joined", "SIGNON ?newgame password"} {
		if !strings.Contains(b, want) {
			t.Errorf("the forming game lacks %q:\n%s", want, b)
		}
	}
	if b := body(t, f.get(t, "GET", "/")); !strings.Contains(b, "<td>6 of 7</td>") || !strings.Contains(b, "SIGNON ?game password") {
		t.Errorf("the list of games:\n%s", b)
	}
	err := f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("secrets")
		if err != nil {
			return err
		}
		g.Status, g.Result = state.Finished, "draw Austria England"
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	b = body(t, f.get(t, "GET", "/games/secrets"))
	if !strings.Contains(b, "finished, draw Austria England.") || strings.Contains(b, "being played") || !strings.Contains(b, `src="secrets/S1902M.png"`) {
		t.Errorf("the finished game:\n%s", b)
	}
	if r := f.get(t, "GET", "/games/secrets/S1902M"); r.StatusCode != http.StatusNotFound {
		t.Errorf("the phase after the end: %s", r.Status)
	}
	if r := f.get(t, "GET", "/games/secrets/S1902M.png"); r.StatusCode != 200 {
		t.Errorf("the last position's map: %s", r.Status)
	}
	if b := body(t, f.get(t, "GET", "/")); !strings.Contains(b, "draw Austria England") {
		t.Errorf("the list of games lacks the result")
	}
}

// TestLateSeats: a seat shows late only once the judge has mailed the
// late notice to the whole game; before that, who still owes orders is
// not public.
func TestLateSeats(t *testing.T) {
	f := newFixture(t, 1, Config{})
	f.advance(24 * 365 * time.Hour) // well past the deadline
	if b := body(t, f.get(t, "GET", "/games/secrets")); strings.Contains(b, ">late<") {
		t.Errorf("late before the late notice:\n%s", b)
	}
	err := f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("secrets")
		if err != nil {
			return err
		}
		g.LateNoticed = g.Deadline.Add(time.Minute)
		g.LateNamed = []string{"France", "Germany"}
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	b := body(t, f.get(t, "GET", "/games/secrets"))
	if !strings.Contains(b, `<th scope="row">France</th><td class="state-late">late</td>`) {
		t.Errorf("France is not late:\n%s", b)
	}
	// Who of those named has sent orders since is not public: France
	// stays late until the next notice. Italy, which the notice did not
	// name, is not late, whatever its orders.
	err = f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("secrets")
		if err != nil {
			return err
		}
		g.Orders["France"] = []string{"A Par H"}
		delete(g.Orders, "Italy")
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	b = body(t, f.get(t, "GET", "/games/secrets"))
	if !strings.Contains(b, `<th scope="row">France</th><td class="state-late">late</td>`) ||
		!strings.Contains(b, `<th scope="row">Italy</th><td class="state-playing">playing</td>`) {
		t.Errorf("the seats follow the orders sent since the notice:\n%s", b)
	}
	if !strings.Contains(b, `<th scope="row">Turkey</th><td class="state-cd">in civil disorder</td>`) {
		t.Error("a seat in civil disorder shows as late")
	}
}

// TestAfterMap: a processed phase's page shows the board the phase left
// beside the phase with its orders, as the results mail does: the next
// position, without orders; the phase being played has no such board.
func TestAfterMap(t *testing.T) {
	f := newFixture(t, 1, Config{})
	b := body(t, f.get(t, "GET", "/games/secrets/S1901M"))
	for _, want := range []string{`src="S1901M.png"`, `src="S1901M-after.png"`, "The board after Spring 1901, movement", "units where they now stand"} {
		if !strings.Contains(b, want) {
			t.Errorf("the phase page lacks %q", want)
		}
	}
	if r := f.get(t, "GET", "/games/secrets/S1901M-after.png"); r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("the board after S1901M: %s", r.Status)
	}
	if r := f.get(t, "GET", "/games/secrets/S1901M.png"); r.StatusCode != 200 {
		t.Fatalf("the map of S1901M: %s", r.Status)
	}
	f.draw.mu.Lock()
	drawn := slices.Clone(f.draw.drawn)
	f.draw.mu.Unlock()
	if !slices.Equal(drawn, []string{"F1901M", "S1901M+"}) {
		t.Errorf("drew %q, want the board after (F1901M, no orders), then S1901M with its orders", drawn)
	}
	// The phase being played has left no board yet; its page shows none.
	cur := body(t, f.get(t, "GET", "/games/secrets/S1902M"))
	if strings.Contains(cur, "-after.png") {
		t.Error("the phase being played shows a board after it")
	}
	if r := f.get(t, "GET", "/games/secrets/S1902M-after.png"); r.StatusCode != http.StatusNotFound {
		t.Errorf("the board after the phase being played: %s, want 404", r.Status)
	}
}
