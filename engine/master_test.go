package engine

import (
	"strings"
	"testing"
)

// RFC 5321's limits: a local part of 64 octets, a domain of 255, a path
// of 256 with its angle brackets.
func TestWithinRFC5321(t *testing.T) {
	label := strings.Repeat("d", 63)
	domain := label + "." + label + "." + label + "." + label[:59] // 251 octets
	for _, c := range []struct {
		addr string
		ok   bool
	}{
		{"a@b.c", true},
		{strings.Repeat("l", 64) + "@example.org", true},
		{strings.Repeat("l", 65) + "@example.org", false},
		{"a@" + domain, true},                           // a path of 2+251+2 = 255
		{"ab@" + domain, true},                          // 256
		{"abc@" + domain, false},                        // 257
		{"a@" + domain + strings.Repeat("x", 5), false}, // a domain of 256
	} {
		if got := withinRFC5321(c.addr); got != c.ok {
			t.Errorf("withinRFC5321(%d octets, local %d) = %v, want %v", len(c.addr), strings.LastIndexByte(c.addr, '@'), got, c.ok)
		}
	}
}

func TestHeaderText(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "",
		"plain":                    "plain",
		"  a \r\n b\t":             "a b",
		"x\x00y\x1b\x7fz":          "x y z",
		"nel\u0085csi\u009bend":    "nel csi end",
		"bad \xff utf-8":           "bad \uFFFD utf-8",
		"Résultats – été":          "Résultats – été",
		"GMD:dt - S1901M\u2028Bcc": "GMD:dt - S1901M Bcc",
	} {
		if got := headerText(in); got != want {
			t.Errorf("headerText(%q) = %q, want %q", in, got, want)
		}
	}
}
