package config

import (
	"net/netip"
	"strings"
	"testing"
)

func TestHTTPBlock(t *testing.T) {
	c, err := Parse(strings.NewReader("db x.db\n"), "judge.conf")
	if err != nil || c.HTTP != nil {
		t.Fatalf("without a block: %v %+v", err, c.HTTP)
	}
	c, err = Parse(strings.NewReader(`http {
	listen 127.0.0.1:8080
	base-url https://judge.example.org/gmd
	rate-limit 2.5 10
	trusted-proxy 127.0.0.1 ::1
	trusted-proxy 10.0.0.0/8
	metrics-from 192.0.2.10 2001:db8::/32
}
`), "judge.conf")
	if err != nil {
		t.Fatal(err)
	}
	h := c.HTTP
	if h.Listen != "127.0.0.1:8080" || h.BaseURL != "https://judge.example.org/gmd/" || h.Rate != 2.5 || h.Burst != 10 {
		t.Errorf("%+v", h)
	}
	want := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("10.0.0.0/8")}
	if len(h.TrustedProxies) != len(want) {
		t.Fatalf("proxies %v", h.TrustedProxies)
	}
	for i := range want {
		if h.TrustedProxies[i] != want[i] {
			t.Errorf("proxy %d: %v", i, h.TrustedProxies[i])
		}
	}
	if len(h.MetricsFrom) != 2 || h.MetricsFrom[0] != netip.MustParsePrefix("192.0.2.10/32") || h.MetricsFrom[1] != netip.MustParsePrefix("2001:db8::/32") {
		t.Errorf("metrics-from %v", h.MetricsFrom)
	}
	c, err = Parse(strings.NewReader("http { listen :8080 }\n"), "judge.conf")
	if err != nil || c.HTTP.Rate != DefaultHTTPRate || c.HTTP.Burst != DefaultHTTPBurst || c.HTTP.BaseURL != "" {
		t.Errorf("defaults: %v %+v", err, c.HTTP)
	}
	for _, tc := range []struct{ in, want string }{
		{"http { base-url https://x/ }\n", "judge.conf:1: http: listen is required"},
		{"http { listen 8080 }\n", `judge.conf:1: http: listen: "8080" is not host:port`},
		{"http { listen :8080; base-url ftp://x/ }\n", `judge.conf:1: http: base-url: "ftp://x/" is not an http or https URL`},
		{"http { listen :8080; rate-limit 0 5 }\n", `judge.conf:1: http: rate-limit: "0" "5": needs requests a second`},
		{"http { listen :8080; rate-limit 5 }\n", "judge.conf:1: http: rate-limit: needs 2 parameters"},
		{"http { listen :8080; trusted-proxy nope }\n", `judge.conf:1: http: trusted-proxy: "nope" is not an IP address or prefix`},
		{"http { listen :8080; metrics-from }\n", `judge.conf:1: http: metrics-from: needs at least one address`},
		{"http { listen :8080; port 80 }\n", `judge.conf:1: http: unknown directive "port"`},
	} {
		_, err := Parse(strings.NewReader(tc.in), "judge.conf")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}
