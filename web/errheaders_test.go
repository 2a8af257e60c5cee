package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/internal/textsafe"
	"github.com/gmdjudge/gmd/state"
)

// serveRaw serves f's pages on a loopback port through Serve, as gmd run
// does, and returns the address.
func serveRaw(t *testing.T, f *fixture) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, f.srv, nil) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// rawRequest sends req as it is and reads the answer's head.
func rawRequest(t *testing.T, addr, req string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	go io.WriteString(c, req) // a large head may not be read to its end
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%.40q: %v", req, err)
	}
	res.Body.Close()
	return res
}

// withHead returns a GET of / whose head (request line, fields and the
// blank line) is n bytes long.
func withHead(n int) string {
	const start, end = "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ", "\r\n\r\n"
	return start + strings.Repeat("a", n-len(start)-len(end)) + end
}

// Every answer carries the security headers, those net/http writes on
// its own included: "OPTIONS *", which it used to answer itself; a
// request it cannot read (400); a head over the documented 16 KB (431),
// which it used to take up to 20 KB of. A head of exactly 16 KB is
// served.
func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	addr := serveRaw(t, newFixture(t, 1, Config{}))
	for _, c := range []struct {
		name, req string
		status    int
	}{
		{"OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusMethodNotAllowed},
		{"bad request line", "GET\r\n\r\n", http.StatusBadRequest},
		{"bad header field", "GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", http.StatusBadRequest},
		{"two hosts", "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", http.StatusBadRequest},
		{"bad version", "GET / HTTP/9.9\r\nHost: x\r\n\r\n", http.StatusHTTPVersionNotSupported},
		{"head of 17 KB", withHead(17 << 10), http.StatusRequestHeaderFieldsTooLarge},
		{"head of 16 KB and a byte", withHead(maxHeadBytes + 1), http.StatusRequestHeaderFieldsTooLarge},
		{"head of 16 KB", withHead(maxHeadBytes), http.StatusOK},
		{"page", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusOK},
	} {
		res := rawRequest(t, addr, c.req)
		if res.StatusCode != c.status {
			t.Errorf("%s: %s, want %d", c.name, res.Status, c.status)
		}
		want := http.Header{}
		securityHeaders(want)
		for k := range want {
			if res.Header.Get(k) != want.Get(k) {
				t.Errorf("%s (%s): %s is %q", c.name, res.Status, k, res.Header.Get(k))
			}
		}
	}
}

// Every page, the feed and the charts, with a player's text holding
// control and bidi characters where the pages show a player's text:
// public press, and the orders as written on a phase's page. None of
// them reaches a page; what is left of the text does.
func TestNoControlCharactersOnPages(t *testing.T) {
	f := newFixture(t, 2, Config{})
	const x = "\x00\x07\x0b\x0c\x1b[2J\x7f\u0085\u202e\u2066\u200b\ufeff"
	err := f.db.Update(func(tx *state.Tx) error {
		g, err := tx.Game("secrets")
		if err != nil {
			return err
		}
		if err := tx.AddPress("secrets", g.Turn, &state.Press{Phase: "S1903M", From: "France", Text: "loud" + x + "press", Sent: f.now}); err != nil {
			return err
		}
		recs, err := tx.Phases("secrets")
		if err != nil || len(recs) == 0 {
			return fmt.Errorf("no history: %v", err)
		}
		rec := recs[0]
		for p, lines := range rec.Orders {
			rec.Written[p] = make([]string, len(lines))
			for i := range lines {
				rec.Written[p][i] = "written" + x + "order"
			}
		}
		return tx.PutPhase("secrets", rec)
	})
	if err != nil {
		t.Fatal(err)
	}
	pages := f.crawl(t)
	for _, extra := range []string{"/games/secrets/atom.xml"} {
		pages[extra] = body(t, f.get(t, "GET", extra))
	}
	shown := map[string]bool{}
	for path, b := range pages {
		if strings.HasSuffix(path, ".png") {
			continue
		}
		if clean := textsafe.Clean(b); clean != b {
			i := 0
			for i < len(clean) && b[i] == clean[i] {
				i++
			}
			t.Errorf("%s holds %q", path, b[max(0, i-10):min(len(b), i+10)])
		}
		shown["press"] = shown["press"] || strings.Contains(b, "[2Jpress")
		shown["orders"] = shown["orders"] || strings.Contains(b, "[2Jorder")
	}
	if !shown["press"] || !shown["orders"] {
		t.Fatalf("the text never reached a page (%v): the test did not reach the echo paths", shown)
	}
}
