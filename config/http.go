package config

import (
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// HTTP is the judge's read-only web pages (package web), served by gmd
// run when judge.conf has an http block.
type HTTP struct {
	// Listen is the host:port the pages are served on, in plain HTTP:
	// meant to be behind a reverse proxy that adds TLS.
	Listen string
	// BaseURL is the public address of the pages, as readers reach them
	// through the proxy, ending in "/": the links of the Atom feeds,
	// which must be absolute. Empty: the address each request came to.
	BaseURL string
	// Rate and Burst bound the requests of one client: Rate a second on
	// average, Burst at once.
	Rate  float64
	Burst int
	// TrustedProxies are the addresses whose X-Forwarded-For is believed:
	// a request from one of them is counted against the client the
	// header names, not against the proxy.
	TrustedProxies []netip.Prefix
	// MetricsFrom are the clients that may read /metrics; nil: the
	// loopback addresses only.
	MetricsFrom []netip.Prefix
}

// The defaults of the http block. A game page with its style sheet and
// map is three requests; 40 at once lets a reader open a dozen tabs.
const (
	DefaultHTTPRate  = 5
	DefaultHTTPBurst = 40
)

var httpSpecs = map[string]spec[*HTTP]{
	"listen": {apply: func(p *parser, d *Directive, h *HTTP) {
		v, ok := p.one(d)
		if !ok {
			return
		}
		_, port, err := net.SplitHostPort(v)
		if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
			p.bad(d, "%q is not host:port (like 127.0.0.1:8080, or :8080 for every address)", v)
			return
		}
		h.Listen = v
	}},
	"base-url": {apply: func(p *parser, d *Directive, h *HTTP) {
		v, ok := p.one(d)
		if !ok {
			return
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			p.bad(d, "%q is not an http or https URL without query (like https://judge.example.org/)", v)
			return
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		h.BaseURL = u.String()
	}},
	"rate-limit": {apply: func(p *parser, d *Directive, h *HTTP) {
		if len(d.Params) != 2 {
			p.bad(d, "needs 2 parameters, requests a second and burst, got %d", len(d.Params))
			return
		}
		r, err1 := strconv.ParseFloat(d.Params[0], 64)
		b, err2 := strconv.Atoi(d.Params[1])
		if err1 != nil || err2 != nil || r <= 0 || r > 1e6 || b < 1 || b > 1e6 {
			p.bad(d, "%q %q: needs requests a second (more than 0) and a burst (at least 1), like 5 40", d.Params[0], d.Params[1])
			return
		}
		h.Rate, h.Burst = r, b
	}},
	"trusted-proxy": {repeat: true, apply: func(p *parser, d *Directive, h *HTTP) {
		h.TrustedProxies = append(h.TrustedProxies, prefixes(p, d)...)
	}},
	"metrics-from": {repeat: true, apply: func(p *parser, d *Directive, h *HTTP) {
		h.MetricsFrom = append(h.MetricsFrom, prefixes(p, d)...)
	}},
}

// prefixes reads d's parameters, each an IP address or prefix.
func prefixes(p *parser, d *Directive) []netip.Prefix {
	if len(d.Params) == 0 {
		p.bad(d, "needs at least one address or prefix (127.0.0.1, ::1, 10.0.0.0/8)")
	}
	var out []netip.Prefix
	for _, v := range d.Params {
		pf, err := netip.ParsePrefix(v)
		if err != nil {
			a, aerr := netip.ParseAddr(v)
			if aerr != nil {
				p.bad(d, "%q is not an IP address or prefix", v)
				continue
			}
			pf = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, pf.Masked())
	}
	return out
}

// httpBlock reads the http block into c.
func httpBlock(p *parser, d *Directive, c *Config) {
	h := &HTTP{Rate: DefaultHTTPRate, Burst: DefaultHTTPBurst}
	n := len(p.errs)
	directives(p, d.Children, "http", httpSpecs, h)
	if len(p.errs) > n {
		return
	}
	if h.Listen == "" {
		p.errorf(d.Line, "http: listen is required (host:port, like 127.0.0.1:8080)")
		return
	}
	c.HTTP = h
}
