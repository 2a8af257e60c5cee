package view

import (
	"container/list"
	"sync"
)

// PictureCache keeps the last pictures drawn, least recently used first
// out, for the mails (engine.MapRenderer: a phase mailed to seven players is
// drawn once) and the web pages alike. A picture is kept with the error
// that stopped its drawing, if any, so that a picture that failed once
// is not tried again for every recipient. Its methods may be called from
// several goroutines.
type PictureCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // of *picture, most recent first
	byKey map[string]*list.Element
}

type picture struct {
	key string
	png []byte
	err error
}

// NewPictureCache returns a cache of at most size pictures.
func NewPictureCache(size int) *PictureCache {
	return &PictureCache{size: size, order: list.New(), byKey: map[string]*list.Element{}}
}

// Get returns the picture kept under key, whether there is one, and why
// it could not be drawn if it could not.
func (c *PictureCache) Get(key string) (png []byte, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false, nil
	}
	c.order.MoveToFront(e)
	p := e.Value.(*picture)
	return p.png, true, p.err
}

// Put keeps the picture drawn for key, or the error its drawing ended
// in, dropping the least recently used past the cache's size. A key
// kept already keeps its first picture: the same key is the same
// drawing.
func (c *PictureCache) Put(key string, png []byte, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.byKey[key] = c.order.PushFront(&picture{key, png, err})
	for c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*picture).key)
	}
}

// Len returns how many pictures are kept.
func (c *PictureCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
