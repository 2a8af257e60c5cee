package web

import (
	"context"
	"encoding/xml"

	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/config"
	"github.com/gmdjudge/gmd/state"
	"github.com/gmdjudge/gmd/view"
)

// The tests of what a hostile reader may try: each holds one fix of the
// pages' audit (docs/security.md, "Web requests").

// from asks the fixture's server for path as the peer remote, with
// headers.
func (f *fixture) from(t testing.TB, remote, method, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	req.RemoteAddr = remote
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	f.srv.ServeHTTP(w, req)
	return w
}

// TestMetricsAccess: /metrics answers the loopback addresses by default
// and the configured ones, each as the rate limit tells clients apart,
// and 403 to anyone else, a client behind a trusted proxy included.
func TestMetricsAccess(t *testing.T) {
	f := newFixture(t, 1, Config{HTTP: config.HTTP{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}})
	for _, tc := range []struct {
		remote string
		xff    string
		want   int
	}{
		{"127.0.0.1:5000", "", 200},
		{"[::1]:5000", "", 200},
		{"127.0.0.2:5000", "", 200},
		{"192.0.2.1:5000", "", http.StatusForbidden},
		{"192.0.2.1:5000", "127.0.0.1", http.StatusForbidden}, // not from a trusted proxy: not believed
		{"127.0.0.1:5000", "198.51.100.7", http.StatusForbidden},
		{"127.0.0.1:5000", "198.51.100.7, 127.0.0.1", http.StatusForbidden},
		{"[::ffff:192.0.2.1]:5000", "", http.StatusForbidden},
	} {
		var h []string
		if tc.xff != "" {
			h = []string{"X-Forwarded-For", tc.xff}
		}
		w := f.from(t, tc.remote, "GET", "/metrics", h...)
		if w.Code != tc.want {
			t.Errorf("%s (X-Forwarded-For %q): %d, want %d", tc.remote, tc.xff, w.Code, tc.want)
		}
		if w.Code == http.StatusForbidden && strings.Contains(w.Body.String(), "gmd_") {
			t.Errorf("%s: a refusal shows the counters", tc.remote)
		}
	}
	f.srv.cfg.MetricsFrom = []netip.Prefix{netip.MustParsePrefix("198.51.100.0/24")}
	if w := f.from(t, "127.0.0.1:5000", "GET", "/metrics", "X-Forwarded-For", "198.51.100.7"); w.Code != 200 {
		t.Errorf("a configured client behind the proxy: %d", w.Code)
	}
	if w := f.from(t, "127.0.0.1:5000", "GET", "/metrics", "X-Forwarded-For", "203.0.113.1"); w.Code != http.StatusForbidden {
		t.Errorf("loopback is no longer allowed once configured: %d", w.Code)
	}
}

// TestGate: a gate holds its slots, lets a bounded queue wait, turns
// the rest away at once, and lets a waiter go when its wait runs out or
// its client does.
func TestGate(t *testing.T) {
	g := newGate(1, 1, time.Hour)
	if !g.enter(context.Background()) {
		t.Fatal("a free slot was refused")
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan bool)
	go func() { got <- g.enter(ctx) }()
	// The waiter is in the queue once the queue reads full.
	for len(g.queue) < 2 {
		time.Sleep(time.Millisecond)
	}
	if g.enter(context.Background()) {
		t.Error("entered past a full queue")
	}
	cancel()
	if <-got {
		t.Error("a waiter whose client went took the slot")
	}
	g.leave()
	if len(g.queue) != 0 || len(g.slots) != 0 {
		t.Errorf("places kept: queue %d, slots %d", len(g.queue), len(g.slots))
	}
	short := newGate(1, 4, time.Millisecond)
	short.enter(context.Background())
	if short.enter(context.Background()) {
		t.Error("a waiter took a held slot")
	}
	short.leave()
	if !short.enter(context.Background()) {
		t.Error("a freed slot was refused")
	}
}

// TestBusy: when the pages' or the maps' gate is full, a request gets
// 503 with Retry-After at once, rather than waiting without bound; the
// style sheet, which costs nothing, is still served.
func TestBusy(t *testing.T) {
	f := newFixture(t, 1, Config{})
	f.srv.pages = newGate(1, 0, time.Millisecond)
	f.srv.drawing = newGate(1, 0, time.Millisecond)
	f.srv.pages.enter(context.Background())
	f.srv.drawing.enter(context.Background())
	for _, path := range []string{"/", "/games/secrets", "/games/secrets/S1901M", "/games/secrets/press", "/games/secrets/atom.xml", "/games/secrets/S1901M.png"} {
		w := f.from(t, "192.0.2.1:1", "GET", path)
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
			t.Errorf("%s with the gates full: %d, Retry-After %q", path, w.Code, w.Header().Get("Retry-After"))
		}
	}
	if w := f.from(t, "192.0.2.1:1", "GET", "/static/style.css"); w.Code != 200 {
		t.Errorf("the style sheet: %d", w.Code)
	}
	f.srv.pages.leave()
	f.srv.drawing.leave()
	if w := f.from(t, "192.0.2.1:1", "GET", "/games/secrets/S1901M.png"); w.Code != 200 {
		t.Errorf("the map once the gate is free: %d", w.Code)
	}
}

// TestLimiterBounded: a flood from a great many addresses keeps the
// table of buckets bounded; the clients past its size share one bucket;
// the buckets that filled up make room again.
func TestLimiterBounded(t *testing.T) {
	now := time.Unix(1e9, 0)
	l := newLimiter(1, 2, func() time.Time { return now })
	l.max = 100
	base := netip.MustParseAddr("2001:db8::")
	for i := range 10000 {
		a := base.As16()
		a[4], a[5] = byte(i>>8), byte(i)
		l.allow(netip.AddrFrom16(a))
	}
	if n := len(l.buckets); n > l.max+1 {
		t.Errorf("%d buckets for a table of %d", n, l.max)
	}
	// The flood shares one bucket, long empty.
	if l.allow(netip.MustParseAddr("203.0.113.1")) {
		t.Error("a client past the table's size escaped the shared bucket")
	}
	// Once the buckets have filled up again, a new client has its own.
	now = now.Add(3 * time.Second)
	if !l.allow(netip.MustParseAddr("203.0.113.1")) {
		t.Error("a new client after the sweep was refused")
	}
	if n := len(l.buckets); n != 1 {
		t.Errorf("%d buckets after the sweep", n)
	}
}

// TestClientOf: how a request's client is told, behind a trusted proxy
// or not, with the forms of X-Forwarded-For proxies write.
func TestClientOf(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	for _, tc := range []struct {
		remote string
		xff    []string
		want   string
	}{
		{"192.0.2.1:5", nil, "192.0.2.1"},
		{"192.0.2.1:5", []string{"198.51.100.1"}, "192.0.2.1"}, // no proxy: no belief
		{"10.0.0.1:5", nil, "10.0.0.1"},
		{"10.0.0.1:5", []string{"198.51.100.1"}, "198.51.100.1"},
		{"10.0.0.1:5", []string{"203.0.113.5, 198.51.100.1"}, "198.51.100.1"}, // what the client wrote is not believed
		{"10.0.0.1:5", []string{"203.0.113.5", "198.51.100.1, 10.0.0.2"}, "198.51.100.1"},
		{"10.0.0.1:5", []string{"198.51.100.1:4711"}, "198.51.100.1"},
		{"10.0.0.1:5", []string{"[2001:db8:1:2:3::4]:80"}, "2001:db8:1:2::"},
		{"10.0.0.1:5", []string{"[2001:db8:1:2:3::4]"}, "2001:db8:1:2::"},
		{"10.0.0.1:5", []string{"::ffff:198.51.100.1"}, "198.51.100.1"},
		{"10.0.0.1:5", []string{"198.51.100.1, unknown"}, "10.0.0.1"}, // no address: the proxy's own
		{"[2001:db8::1]:5", nil, "2001:db8::"},
		{"[fe80::1%eth0]:5", nil, "fe80::"},
		{"nonsense", nil, "invalid IP"},
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = tc.remote
		for _, x := range tc.xff {
			req.Header.Add("X-Forwarded-For", x)
		}
		if got := clientOf(req, trusted).String(); got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.remote, tc.xff, got, tc.want)
		}
	}
}

// TestCanonicalAddress: a game or phase spelt in another case is
// redirected, by a relative Location, to its one address; a name that
// is no game's name (too long, not letters and digits, a Kelvin sign
// that folds to k) is not found.
func TestCanonicalAddress(t *testing.T) {
	f := newFixture(t, 1, Config{})
	err := f.db.Update(func(tx *state.Tx) error {
		return tx.PutGame(&state.Game{Name: "kit", Variant: "standard", Status: state.Forming, Created: fixtureStart})
	})
	if err != nil {
		t.Fatal(err)
	}
	if w := f.from(t, "192.0.2.1:1", "GET", "/games/kit"); w.Code != 200 {
		t.Fatalf("/games/kit: %d", w.Code)
	}
	for _, tc := range []struct{ path, want string }{
		{"/games/SECRETS", "../games/secrets"},
		{"/games/Secrets/press", "../../games/secrets/press"},
		{"/games/SECRETS/atom.xml", "../../games/secrets/atom.xml"},
		{"/games/secrets/s1901m", "../../games/secrets/S1901M"},
		{"/games/SECRETS/S1901M", "../../games/secrets/S1901M"},
		{"/games/secrets/s1902m", "../../games/secrets/S1902M"}, // the phase being played
		{"/games/secrets/s1901m.png", "../../games/secrets/S1901M.png"},
		{"/games/secrets/s1902m.png", "../../games/secrets/S1902M.png"},
	} {
		w := f.from(t, "192.0.2.1:1", "GET", tc.path)
		if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != tc.want {
			t.Errorf("%s: %d to %q, want 301 to %q", tc.path, w.Code, w.Header().Get("Location"), tc.want)
		}
	}
	for _, path := range []string{"/games/\u212Ait", "/games/%E2%84%AAit", "/games/newgame1234567", "/games/new%20game", "/games/new-game", "/games/secrets/s1950m"} {
		if w := f.from(t, "192.0.2.1:1", "GET", path); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d", path, w.Code)
		}
	}
	// One address, one entry in the log of changes.
	if n := len(f.srv.changes.paths); n != 1 {
		t.Errorf("%d paths remembered, from redirects", n-1)
	}
}

// TestConditional: If-None-Match as a list, over several lines, weak or
// strong, and "*".
func TestConditional(t *testing.T) {
	f := newFixture(t, 1, Config{})
	etag := f.from(t, "192.0.2.1:1", "GET", "/games/secrets").Header().Get("ETag")
	for _, tc := range []struct {
		inm  []string
		want int
	}{
		{[]string{`"a", ` + etag}, http.StatusNotModified},
		{[]string{`"a"`, etag}, http.StatusNotModified},
		{[]string{"W/" + etag}, http.StatusNotModified},
		{[]string{"*"}, http.StatusNotModified},
		{[]string{`"a", "b"`}, 200},
		{[]string{strings.Trim(etag, `"`)}, 200},
	} {
		var h []string
		for _, v := range tc.inm {
			h = append(h, "If-None-Match", v)
		}
		w := f.from(t, "192.0.2.1:1", "GET", "/games/secrets", h...)
		if w.Code != tc.want {
			t.Errorf("If-None-Match %q: %d, want %d", tc.inm, w.Code, tc.want)
		}
		if w.Code == http.StatusNotModified && (w.Body.Len() != 0 || w.Header().Get("ETag") != etag) {
			t.Errorf("304 with a body or without its ETag")
		}
	}
}

// TestErrorPageSize: a path of many levels gets an error page of the
// usual size, not one that grows with the path.
func TestErrorPageSize(t *testing.T) {
	f := newFixture(t, 1, Config{})
	small := f.from(t, "192.0.2.1:1", "GET", "/a/b/c").Body.Len()
	deep := f.from(t, "192.0.2.1:1", "GET", "/"+strings.Repeat("a/", 4000)).Body.Len()
	if deep != small {
		t.Errorf("the error page of a deep path has %d bytes, of a short one %d", deep, small)
	}
}

// TestHostileText: text a player chose (press, written orders) and
// results with characters XML forbids come out escaped on the pages
// and well-formed in the feed.
func TestHostileText(t *testing.T) {
	f := newFixture(t, 1, Config{})
	const evil = "</pre><script>alert(1)</script>]]><![CDATA[\x00\x01\x0b\ufffe&amp;"
	err := f.db.Update(func(tx *state.Tx) error {
		recs, err := tx.Phases("secrets")
		if err != nil {
			return err
		}
		r := recs[0]
		r.Results += evil
		r.Written["France"][0] = evil
		if err := tx.PutPhase("secrets", r); err != nil {
			return err
		}
		return tx.AddPress("secrets", 1, &state.Press{Phase: "S1902M", From: "France", Text: evil})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/games/secrets/S1901M", "/games/secrets/press"} {
		b := f.from(t, "192.0.2.1:1", "GET", path).Body.String()
		if !strings.Contains(b, "&lt;/pre&gt;&lt;script&gt;") || strings.Contains(b, "<script") {
			t.Errorf("%s does not escape the text:\n%s", path, b)
		}
	}
	b := f.from(t, "192.0.2.1:1", "GET", "/games/secrets/atom.xml").Body.Bytes()
	d := xml.NewDecoder(strings.NewReader(string(b)))
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Errorf("the feed is not well-formed: %v", err)
			}
			break
		}
	}
	var feed atomFeed
	if err := xml.Unmarshal(b, &feed); err != nil {
		t.Fatal(err)
	}
	last := feed.Entries[len(feed.Entries)-1].Content.Text
	if !strings.Contains(last, "</pre><script>alert(1)</script>]]><![CDATA[") {
		t.Errorf("the feed lost the text: %q", last)
	}
}

// TestConnTableBusy: past its connections, the table accepts no more
// while every connection is busy with a request, until one is closed;
// a connection gives its place back once, however often it is closed.
func TestConnTableBusy(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newConnTable(inner, 1, 2, nil)
	defer ln.Close()
	accepted := acceptBusy(ln)
	for range 2 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first := <-accepted
	select {
	case <-accepted:
		t.Fatal("a second connection was accepted while the first was busy")
	case <-time.After(50 * time.Millisecond):
	}
	first.Close()
	first.Close() // gives its place back once
	second := <-accepted
	if second == nil {
		t.Fatal("the second connection was never accepted")
	}
	if len(ln.sem) != 1 {
		t.Errorf("%d places held by one connection", len(ln.sem))
	}
	// Close ends the Accept that waits for the place second holds.
	ln.Close()
	if _, ok := <-accepted; ok {
		t.Error("accepted after Close")
	}
	second.Close()
}

// fuzzSecrets are what no answer of the fuzzed router may show: the
// fixture's secrets, and what marks a mail address.
var fuzzSecrets = append(secrets[:len(secrets):len(secrets)], "players.test")

// FuzzPath drives the router with arbitrary methods, paths and headers
// against a database holding every kind of secret: no panic, a status
// in the expected set, no secret in any answer, no redirect off the
// site, and the security headers on every answer.
func FuzzPath(f *testing.F) {
	for _, seed := range []string{
		"/", "/games/secrets", "/games/SECRETS/s1901m", "/games/secrets/S1901M.png", "/games/secrets/press",
		"/games/secrets/atom.xml", "/games/newgame", "/static/style.css", "/favicon.ico", "/healthz", "/metrics",
		"/games/secrets/../newgame", "/games/a%2Fb", "/static/..%2F..%2Fgo.mod", "//evil.example/", "/./\\evil",
		"/games/secrets/S1904M", "/games/%E2%84%AAewgame", "/games/secrets/F1901M?x=<b>",
	} {
		f.Add("GET", seed, "", "")
	}
	f.Add("HEAD", "/games/secrets", "If-None-Match", "*")
	f.Add("POST", "/games/secrets", "Content-Type", "text/plain")
	f.Add("GET", "/metrics", "X-Forwarded-For", "127.0.0.1")
	f.Add("GET", "/games/secrets/atom.xml", "Host", "evil\".example")
	fx := newFixture(f, 3, Config{HTTP: config.HTTP{Rate: 1000, Burst: 1000}})
	ok := map[int]bool{200: true, 301: true, 304: true, 307: true, 403: true, 404: true, 405: true, 429: true, 503: true}
	f.Fuzz(func(t *testing.T, method, path, hname, hvalue string) {
		if method == "" || strings.ContainsAny(method, " \t\r\n") || !strings.HasPrefix(path, "/") ||
			strings.ContainsAny(path, " \t\r\n#") {
			return // not a request the HTTP server would read
		}
		req, err := http.NewRequest(method, "http://judge.test"+path, nil)
		if err != nil {
			return
		}
		req.RemoteAddr = "192.0.2.1:1234"
		if hname != "" && !strings.ContainsAny(hname, ": \t\r\n") && !strings.ContainsAny(hvalue, "\r\n\x00") {
			if strings.EqualFold(hname, "Host") {
				req.Host = hvalue
			} else {
				req.Header.Add(hname, hvalue)
			}
		}
		w := httptest.NewRecorder()
		fx.srv.ServeHTTP(w, req)
		if !ok[w.Code] {
			t.Fatalf("%s %q (%s: %q): status %d", method, path, hname, hvalue, w.Code)
		}
		b := w.Body.String()
		for _, s := range fuzzSecrets {
			if strings.Contains(b, s) {
				t.Fatalf("%s %q (%s: %q) shows %q", method, path, hname, hvalue, s)
			}
		}
		if loc := w.Header().Get("Location"); loc != "" && (strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, "/\\") || strings.Contains(loc, ":")) {
			t.Fatalf("%s %q: a redirect off the site: %q", method, path, loc)
		}
		if w.Header().Get("Content-Security-Policy") != csp || w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("%s %q: %d without the security headers", method, path, w.Code)
		}
		if (method == "HEAD" || w.Code == 304) && w.Body.Len() != 0 {
			t.Fatalf("%s %q: %d with a body", method, path, w.Code)
		}
		if w.Code == 200 && method != "HEAD" && path == "/games/secrets/atom.xml" {
			if err := xml.Unmarshal(w.Body.Bytes(), new(atomFeed)); err != nil {
				t.Fatalf("the feed for Host %q: %v", req.Host, err)
			}
		}
	})
}

// TestFrontPageKept: the list of games is read once while the database
// does not change, and again as soon as it does.
func TestFrontPageKept(t *testing.T) {
	var reads int
	f := newFixture(t, 1, Config{})
	overview := f.srv.cfg.Overview
	f.srv.cfg.Overview = func(g *state.Game, now time.Time) view.GameOverview {
		reads++
		return overview(g, now)
	}
	first := f.from(t, "192.0.2.1:1", "GET", "/").Body.String()
	second := f.from(t, "192.0.2.1:1", "GET", "/").Body.String()
	if reads != 2 || first != second {
		t.Errorf("%d games read for two lists of two games", reads)
	}
	err := f.db.Update(func(tx *state.Tx) error {
		return tx.PutGame(&state.Game{Name: "kit", Variant: "standard", Status: state.Forming, Created: fixtureStart})
	})
	if err != nil {
		t.Fatal(err)
	}
	if b := f.from(t, "192.0.2.1:1", "GET", "/").Body.String(); !strings.Contains(b, `href="games/kit"`) || reads != 5 {
		t.Errorf("after a change, %d games read; the list:\n%s", reads, b)
	}
}
