package view

import (
	"errors"
	"testing"
)

// The cache drops the least recently used picture past its size, keeps
// a failure with its error, and keeps a key's first picture.
func TestPictureCache(t *testing.T) {
	c := NewPictureCache(2)
	failed := errors.New("too big")
	c.Put("a", []byte("a"), nil)
	c.Put("b", nil, failed)
	if _, ok, err := c.Get("b"); !ok || err != failed {
		t.Errorf("a failure kept as ok %v, err %v; want it with its error", ok, err)
	}
	c.Get("a")
	c.Put("c", []byte("c"), nil)
	if _, ok, _ := c.Get("b"); ok {
		t.Error("the least recently used picture was kept")
	}
	if png, ok, err := c.Get("a"); !ok || string(png) != "a" || err != nil {
		t.Errorf("a recently used picture: %q, %v, %v", png, ok, err)
	}
	c.Put("a", []byte("other"), nil)
	if png, _, _ := c.Get("a"); string(png) != "a" {
		t.Errorf("a key's picture replaced by %q", png)
	}
	if c.Len() != 2 {
		t.Errorf("%d pictures kept, want 2", c.Len())
	}
}
