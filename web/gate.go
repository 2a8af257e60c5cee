package web

import (
	"context"
	"time"
)

// gate lets a few requests at once do one kind of costly work (build a
// page, draw a map), and a bounded number wait for their turn, each for a
// bounded time; the others are turned away at once. So a flood of
// requests, from however many clients, neither takes more cores than the
// gate has slots nor piles up goroutines waiting: past the queue it gets
// 503 and Retry-After, and the mail keeps the rest of the machine.
type gate struct {
	slots chan struct{} // held while working
	queue chan struct{} // held while working or waiting: slots + waiting
	wait  time.Duration
}

// newGate returns a gate of n slots with room for waiting more requests
// waiting, each at most wait.
func newGate(n, waiting int, wait time.Duration) *gate {
	return &gate{slots: make(chan struct{}, n), queue: make(chan struct{}, n+waiting), wait: wait}
}

// enter takes a slot, waiting for one if there is room in the queue. It
// reports false, holding nothing, when the queue is full, the wait ran
// out or ctx ended; after true, leave must follow.
func (g *gate) enter(ctx context.Context) bool {
	select {
	case g.queue <- struct{}{}:
	default:
		return false
	}
	select {
	case g.slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	<-g.queue
	return false
}

// leave gives back the slot that enter took.
func (g *gate) leave() {
	<-g.slots
	<-g.queue
}
