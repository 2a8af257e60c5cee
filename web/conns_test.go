package web

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveLoopback serves a page saying "ok" on a loopback port with Serve,
// until the test ends, and returns its address.
func serveLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "ok")
		}), nil)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return ln.Addr().String()
}

// keepAlive opens a connection from the loopback address from, asks for
// a page on it and reads the answer, leaving the connection open and
// idle, as a browser keeps it for its next request.
func keepAlive(t *testing.T, addr, from string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", from, err)
	}
	c.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: judge\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		c.Close()
		t.Fatalf("request from %s: %v", from, err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return c
}

// fetchPage fetches the page from the loopback address from on a connection
// of its own, as a client that is not the attacker: it must be served
// while the attacker holds its connections. Without the bounds it waited
// in the kernel's backlog until the attacker's idle connections timed
// out, a minute then; it is given half the idle timeout, so that it is
// served by the bounds, not by the timeout.
func fetchPage(t *testing.T, addr, from string) {
	t.Helper()
	c := &http.Client{Timeout: idleTimeout / 2, Transport: &http.Transport{
		DialContext:       (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}).DialContext,
		DisableKeepAlives: true,
	}}
	res, err := c.Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("a page for %s while the others hold their connections: %v", from, err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || string(b) != "ok" {
		t.Fatalf("a page for %s: %s %q", from, res.Status, b)
	}
}

// stillOpen counts the connections of conns the server has not closed:
// a read on a closed one ends at once (EOF, or a reset), on an open one
// it waits out its deadline.
func stillOpen(conns []net.Conn) int {
	var (
		mu sync.Mutex
		wg sync.WaitGroup
		n  int
	)
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(time.Now().Add(2 * time.Second))
			_, err := c.Read(make([]byte, 1))
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return n
}

// TestOneClientCannotHoldEveryConnection performs the attack on real
// loopback connections: one client opens as many keep-alive connections
// as the server serves at once, each kept idle after a request. Another
// client is still served, and the first holds no more than its share.
func TestOneClientCannotHoldEveryConnection(t *testing.T) {
	addr := serveLoopback(t)
	var attacker []net.Conn
	defer func() {
		for _, c := range attacker {
			c.Close()
		}
	}()
	for range maxConns {
		attacker = append(attacker, keepAlive(t, addr, "127.0.0.2"))
	}
	fetchPage(t, addr, "127.0.0.3")
	if n := stillOpen(attacker); n > maxConnsPerClient {
		t.Errorf("one client holds %d connections, want at most %d", n, maxConnsPerClient)
	}
}

// TestManyClientsCannotHoldEveryConnection: the same attack from many
// addresses, each within its share, takes every place with idle
// connections; a new client is still served, as the connection idle
// longest makes room for it.
func TestManyClientsCannotHoldEveryConnection(t *testing.T) {
	addr := serveLoopback(t)
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	per := maxConnsPerClient / 2
	for i := 0; len(held) < maxConns; i++ {
		from := fmt.Sprintf("127.0.1.%d", 10+i/per)
		held = append(held, keepAlive(t, addr, from))
	}
	for i := range 3 {
		fetchPage(t, addr, fmt.Sprintf("127.0.2.%d", i+1))
	}
	if n := stillOpen(held); n >= maxConns {
		t.Errorf("the idle connections still hold all %d places", n)
	}
}

// acceptBusy accepts ln's connections in a goroutine of its own, each
// busy with a request at once, and hands them over on the channel, which
// is closed once ln is.
func acceptBusy(ln *connTable) <-chan net.Conn {
	accepted := make(chan net.Conn, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			ln.state(c, http.StateActive)
			accepted <- c
		}
	}()
	return accepted
}

// TestConnTableBusyClient: a client whose connections are all busy with
// requests gets no more than its share; its next connection is closed at
// once, while another client's is served.
func TestConnTableBusyClient(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newConnTable(inner, 8, 2, nil)
	defer ln.Close()
	accepted := acceptBusy(ln)
	dial := func(from string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	for range 2 {
		dial("127.0.0.2")
		<-accepted
	}
	third := dial("127.0.0.2")
	other := dial("127.0.0.3")
	c := <-accepted
	if got := c.RemoteAddr().String(); !strings.HasPrefix(got, "127.0.0.3:") {
		t.Errorf("accepted a connection from %s, want the other client's", got)
	}
	third.SetReadDeadline(time.Now().Add(10 * time.Second))
	var ne net.Error
	if _, err := third.Read(make([]byte, 1)); err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("the client's third connection was not closed: %v", err)
	}
	_ = other
}

// TestConnTableTrustedProxy: a trusted proxy speaks for many clients,
// so its connections are not held to one client's share.
func TestConnTableTrustedProxy(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newConnTable(inner, 8, 1, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")})
	defer ln.Close()
	accepted := acceptBusy(ln)
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	for i := range 3 {
		select {
		case c := <-accepted:
			if c == nil {
				t.Fatalf("the proxy's connection %d was not accepted", i+1)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the proxy's connection %d was not accepted: held to one client's share", i+1)
		}
	}
}
