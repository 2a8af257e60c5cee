package main

import (
	"strings"
	"testing"
)

// A hostile From of 33,000 characters costs the log a few hundred bytes,
// not its own length, and the clipped text says how long it was.
func TestClipLongSender(t *testing.T) {
	long := strings.Repeat("x", 33000) + "@example.org"
	c := clip(long)
	if len(c) > 400 || !strings.HasSuffix(c, "... (33012 bytes)") {
		t.Errorf("clip gave %d bytes ending %q", len(c), c[max(0, len(c)-30):])
	}
	if c := clip("france@example.org"); c != "france@example.org" {
		t.Errorf("clip changed a plain address: %q", c)
	}
}
