package web

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// The bounds on connections. Each holds a file descriptor and a
// goroutine: without a bound, a flood of connections could take all the
// daemon's descriptors, and with them the IMAP and SMTP connections the
// mail needs. But a bound alone lets one client hold every place with
// idle keep-alive connections, renewed by a request now and then, so
// that every other client waits in the kernel's backlog until it times
// out. So:
//
//   - a client address (an IPv6 /64, as the rate limit counts it; a
//     trusted proxy is not counted, as it speaks for many) holds at most
//     maxConnsPerClient connections: a new one past that closes the
//     client's own connection idle longest, or, when none of them is
//     idle, is closed at once;
//   - when all maxConns places are taken, a new connection closes the
//     one idle longest, whoever's it is (a connection that has not yet
//     sent a request counts as idle since it came), and waits for a
//     place only when every connection is busy with a request;
//   - a keep-alive connection is closed after idleTimeout without a
//     request, which a page's own requests (its map, its styles) come
//     well within.
//
// A connection being closed just as its next request arrives costs that
// request; browsers send an idempotent GET again on a new connection.
const (
	maxConns          = 256
	maxConnsPerClient = 16
	idleTimeout       = 15 * time.Second
)

// connTable is a listener that keeps those bounds. http.Server must
// report its connections' states to it (ConnState), so that it knows
// which are idle.
type connTable struct {
	net.Listener
	perClient int
	trusted   []netip.Prefix
	now       func() time.Time

	sem  chan struct{} // a place per open connection
	done chan struct{}
	once sync.Once

	mu   sync.Mutex
	open map[*trackedConn]struct{}
	per  map[netip.Addr]int // open connections by client, trusted proxies left out
}

// trackedConn is a connection the table counts. Its place comes back
// once, when it is closed.
type trackedConn struct {
	net.Conn
	t       *connTable
	client  netip.Addr
	counted bool      // held to perClient
	idle    time.Time // since when it has been idle; zero while serving a request
	closed  sync.Once
}

func newConnTable(ln net.Listener, max, perClient int, trusted []netip.Prefix) *connTable {
	return &connTable{
		Listener: ln, perClient: perClient, trusted: trusted, now: time.Now,
		sem: make(chan struct{}, max), done: make(chan struct{}),
		open: map[*trackedConn]struct{}{}, per: map[netip.Addr]int{},
	}
}

// Accept returns the next connection that may be served, after finding a
// place for it as the bounds say.
func (t *connTable) Accept() (net.Conn, error) {
	for {
		if err := t.place(); err != nil {
			return nil, err
		}
		c, err := t.Listener.Accept()
		if err != nil {
			<-t.sem
			return nil, err
		}
		if tc := t.admit(c); tc != nil {
			return tc, nil
		}
	}
}

// place takes a place for the next connection: a free one, or the one
// the connection idle longest gives back as it is closed; when every
// connection is busy, it waits.
func (t *connTable) place() error {
	for {
		select {
		case t.sem <- struct{}{}:
			return nil
		case <-t.done:
			return net.ErrClosed
		default:
		}
		if t.closeIdle(func(*trackedConn) bool { return true }) {
			continue
		}
		select {
		case t.sem <- struct{}{}:
			return nil
		case <-t.done:
			return net.ErrClosed
		}
	}
}

// admit counts c against its client, making room among the client's
// own idle connections; nil means the client holds its share of
// connections, all busy, and c was closed.
func (t *connTable) admit(c net.Conn) *trackedConn {
	tc := &trackedConn{Conn: c, t: t, idle: t.now()}
	if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
		tc.client = ap.Addr().Unmap().WithZone("")
		if tc.client.Is6() {
			p, _ := tc.client.Prefix(64)
			tc.client = p.Addr()
		}
		tc.counted = !isTrusted(tc.client, t.trusted)
	}
	if tc.counted {
		t.mu.Lock()
		full := t.per[tc.client] >= t.perClient
		t.mu.Unlock()
		if full && !t.closeIdle(func(o *trackedConn) bool { return o.counted && o.client == tc.client }) {
			c.Close()
			<-t.sem
			return nil
		}
	}
	t.mu.Lock()
	t.open[tc] = struct{}{}
	if tc.counted {
		t.per[tc.client]++
	}
	t.mu.Unlock()
	return tc
}

// closeIdle closes the connection idle longest of those which, and
// reports whether there was one.
func (t *connTable) closeIdle(which func(*trackedConn) bool) bool {
	t.mu.Lock()
	var oldest *trackedConn
	for c := range t.open {
		if !c.idle.IsZero() && which(c) && (oldest == nil || c.idle.Before(oldest.idle)) {
			oldest = c
		}
	}
	t.mu.Unlock()
	if oldest == nil {
		return false
	}
	oldest.Close()
	return true
}

// state is the http.Server's ConnState: it notes which connections are
// idle.
func (t *connTable) state(c net.Conn, s http.ConnState) {
	tc, ok := c.(*trackedConn)
	if !ok {
		return
	}
	switch s {
	case http.StateActive:
		t.mu.Lock()
		tc.idle = time.Time{}
		t.mu.Unlock()
	case http.StateIdle:
		t.mu.Lock()
		tc.idle = t.now()
		t.mu.Unlock()
	case http.StateHijacked, http.StateClosed:
		tc.forget()
	}
}

// Close closes the listener, and ends an Accept waiting for a place.
func (t *connTable) Close() error {
	t.once.Do(func() { close(t.done) })
	return t.Listener.Close()
}

// Close closes the connection and gives its place back.
func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	c.forget()
	return err
}

// forget takes c out of the table and gives its place back, once.
func (c *trackedConn) forget() {
	c.closed.Do(func() {
		t := c.t
		t.mu.Lock()
		if _, ok := t.open[c]; ok {
			delete(t.open, c)
			if c.counted {
				if t.per[c.client]--; t.per[c.client] <= 0 {
					delete(t.per, c.client)
				}
			}
		}
		t.mu.Unlock()
		<-t.sem
	})
}
