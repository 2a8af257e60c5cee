package web

import (
	"bytes"
	"net"
	"net/http"
)

// net/http answers a request it cannot read (a malformed request line,
// a head over the limit: 400, 431) itself, before any handler runs, and
// writes that answer straight to the connection with two headers of its
// own. Those answers must carry the security headers too, like every
// other: headersListener's connections add them as the answer goes by.

// maxHeadBytes is the most a request's head (its request line and
// header fields) may take. net/http reads MaxHeaderBytes plus 4,096
// bytes of slop before it gives up, so the server's MaxHeaderBytes is
// set that much lower for the bound to be this one.
const (
	maxHeadBytes = 16 << 10
	headerSlop   = 4096
)

// goErrorHeaders is how net/http's own error answer ends its header
// (server.go): an answer with it, and without the Content-Security-Policy
// that every answer of this package's handlers has, is one of them.
var goErrorHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

// securityBlock is the security headers as header lines, each ending in
// CRLF, for an answer net/http writes itself.
var securityBlock = func() []byte {
	h := http.Header{}
	securityHeaders(h)
	var b bytes.Buffer
	h.Write(&b)
	return b.Bytes()
}()

// headersListener is a listener whose connections add the security
// headers to net/http's own error answers.
type headersListener struct{ net.Listener }

// Accept wraps the next connection.
func (l headersListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return headersConn{c}, nil
}

// headersConn is a connection of headersListener.
type headersConn struct{ net.Conn }

// Write writes b, with the security headers after its status line when
// b is net/http's own error answer: it writes one in a single Write, to
// the connection itself, and no handler's answer looks like it.
func (c headersConn) Write(b []byte) (int, error) {
	if !bytes.HasPrefix(b, []byte("HTTP/1.1 ")) || !bytes.Contains(b, goErrorHeaders) ||
		bytes.Contains(b, []byte("Content-Security-Policy:")) {
		return c.Conn.Write(b)
	}
	eol := bytes.Index(b, []byte("\r\n"))
	out := make([]byte, 0, len(b)+len(securityBlock))
	out = append(out, b[:eol+2]...)
	out = append(out, securityBlock...)
	out = append(out, b[eol+2:]...)
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}
