package mail

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"sync"
	"syscall"
)

// pipeNet is an in-memory network of loopback addresses for the tests
// that run in a synctest bubble: there a goroutine blocked on a real
// socket is never durably blocked, so the bubble's fake clock would never
// move, while one blocked on a net.Pipe made in the bubble is. Servers
// listen on it and the Poller and Sender dial it (their dialContext).
// Every address is 127.0.0.1, so that the clients' loopback check for
// plain-text connections holds.
type pipeNet struct {
	mu        sync.Mutex
	listeners map[string]*pipeListener
	lastPort  int
}

func newPipeNet() *pipeNet { return &pipeNet{listeners: map[string]*pipeListener{}, lastPort: 10000} }

// listen listens on addr, or on a new port when addr is "".
func (n *pipeNet) listen(addr string) net.Listener {
	n.mu.Lock()
	defer n.mu.Unlock()
	if addr == "" || addr == "127.0.0.1:0" {
		n.lastPort++
		addr = "127.0.0.1:" + strconv.Itoa(n.lastPort)
	}
	l := &pipeListener{net: n, addr: loopback(addr), conns: make(chan net.Conn), done: make(chan struct{})}
	n.listeners[addr] = l
	return l
}

// DialContext connects to the listener on address, or is refused as TCP
// is when nobody listens there.
func (n *pipeNet) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	n.mu.Lock()
	l := n.listeners[address]
	n.mu.Unlock()
	if l == nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	}
	client, server := net.Pipe()
	select {
	case l.conns <- &pipeConn{Conn: server, local: l.addr, remote: loopback("127.0.0.1:1")}:
		return &pipeConn{Conn: client, local: loopback("127.0.0.1:1"), remote: l.addr}, nil
	case <-l.done:
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// loopback returns the TCP address of "127.0.0.1:port".
func loopback(addr string) *net.TCPAddr {
	a, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		panic(fmt.Sprintf("pipeNet address %q: %v", addr, err))
	}
	return a
}

// pipeListener is a listener of a pipeNet.
type pipeListener struct {
	net   *pipeNet
	addr  *net.TCPAddr
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops listening; connections already made stay open.
func (l *pipeListener) Close() error {
	l.once.Do(func() {
		close(l.done)
		l.net.mu.Lock()
		if l.net.listeners[l.addr.String()] == l {
			delete(l.net.listeners, l.addr.String())
		}
		l.net.mu.Unlock()
	})
	return nil
}

func (l *pipeListener) Addr() net.Addr { return l.addr }

// pipeConn is one end of a net.Pipe with TCP addresses.
type pipeConn struct {
	net.Conn
	local, remote *net.TCPAddr
}

func (c *pipeConn) LocalAddr() net.Addr  { return c.local }
func (c *pipeConn) RemoteAddr() net.Addr { return c.remote }
