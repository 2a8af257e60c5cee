package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// limiter is a token bucket per client: each holds up to burst tokens,
// refilled at rate a second, and a request takes one.
type limiter struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[netip.Addr]*bucket
	swept   time.Time
	max     int // clients with a bucket of their own (limiterClients)
}

type bucket struct {
	tokens float64
	last   time.Time
}

// limiterSweep is how often full buckets are forgotten, so that the map
// holds only the clients of the last minutes.
const limiterSweep = time.Minute

// limiterClients bounds the clients with a bucket of their own, a
// hundred bytes each. Past it (a flood from a great many addresses, an
// IPv6 block's /64s say), the buckets are swept at once, at most once a
// second, and the new clients that still find no room share one bucket,
// that of the zero address: the table stays bounded, and the flood is
// held to one client's rate.
const limiterClients = 1 << 16

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), now: now, buckets: map[netip.Addr]*bucket{}, max: limiterClients}
}

// allow takes a token from client's bucket, reporting whether there was
// one.
func (l *limiter) allow(client netip.Addr) bool {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > limiterSweep {
		l.sweep(now)
	}
	b := l.buckets[client]
	if b == nil && len(l.buckets) >= l.max {
		if now.Sub(l.swept) >= time.Second {
			l.sweep(now)
		}
		if len(l.buckets) >= l.max {
			client = netip.Addr{}
			b = l.buckets[client]
		}
	}
	if b == nil {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[client] = b
	}
	if d := now.Sub(b.last); d > 0 {
		b.tokens = min(l.burst, b.tokens+d.Seconds()*l.rate)
		b.last = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// has reports whether client's bucket holds a token, taking none.
func (l *limiter) has(client netip.Addr) bool {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[client]
	if b == nil {
		if len(l.buckets) < l.max {
			return true // a full bucket, as allow would make it
		}
		b = l.buckets[netip.Addr{}] // the shared bucket of a flood
		if b == nil {
			return true
		}
	}
	return b.tokens+max(0, now.Sub(b.last).Seconds())*l.rate >= 1
}

// sweep forgets the buckets that have filled up again: a new one would
// be the same.
func (l *limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
	l.swept = now
}

// clientOf returns the address a request is counted against: its peer,
// or, when the peer is a trusted proxy, the last address in
// X-Forwarded-For that is not one (what a proxy appends cannot be
// forged by the client; what comes before it can). A hop may carry a
// port, as some proxies write it ("192.0.2.1:4711", "[2001:db8::1]:80");
// one that is no address at all ("unknown") ends the walk at the last
// address read. An IPv6 client is counted by its /64, which one host
// usually holds whole.
func clientOf(r *http.Request, trusted []netip.Prefix) netip.Addr {
	addr := clientAddr(r, trusted)
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		addr = p.Addr()
	}
	return addr
}

// clientAddr returns the address of the client of r, as clientOf finds
// it, whole; the zero Addr when there is none.
func clientAddr(r *http.Request, trusted []netip.Prefix) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	addr = addr.Unmap().WithZone("")
	if isTrusted(addr, trusted) {
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			a, ok := parseHop(strings.TrimSpace(hops[i]))
			if !ok {
				break
			}
			addr = a.Unmap().WithZone("")
			if !isTrusted(addr, trusted) {
				break
			}
		}
	}
	return addr
}

// parseHop reads one address of X-Forwarded-For, with or without a
// port.
func parseHop(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a, true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr(), true
	}
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil && strings.HasPrefix(s, "[") {
		return a, true
	}
	return netip.Addr{}, false
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
