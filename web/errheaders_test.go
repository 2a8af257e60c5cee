package web

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
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
