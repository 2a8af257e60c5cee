package daemon

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// ClockEvery is how often the daemon runs the games' clocks. Deadlines
// are to the minute, so half a minute late at most is on time.
const ClockEvery = 30 * time.Second

// Ticker runs the games' clocks at now: session.Master.
type Ticker interface {
	Tick(now time.Time) error
}

// Clock is the daemon's clock: what it runs, where it logs, and whom it
// tells after each run.
type Clock struct {
	Master Ticker
	Log    *slog.Logger
	// Ran counts a run and how long it took (the counters of /metrics);
	// nil counts nothing.
	Ran func(took time.Duration)
	// Kick has the sender look at the outbox at once, so that whatever
	// the games queued goes out now rather than at the sender's next
	// look; nil does nothing.
	Kick func()
}

// Run runs the games' clocks now and every interval until ctx ends:
// reminders, deadlines, grace, and the phases whose orders are all in.
// A failing game is logged and tried again at the next run; the others
// go on. It always returns nil: a clock's failure never stops the judge.
func (c Clock) Run(ctx context.Context, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		start := time.Now()
		if err := c.Master.Tick(start.UTC()); err != nil {
			c.Log.Error("clock: some games could not be run; trying again at the next tick", "err", err)
		}
		if c.Ran != nil {
			c.Ran(time.Since(start))
		}
		if c.Kick != nil {
			c.Kick()
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Runner is Run every interval, as one of the parts Together runs.
func (c Clock) Runner(every time.Duration) func(context.Context) error {
	return func(ctx context.Context) error { return c.Run(ctx, every) }
}

// Together runs every fn in a goroutine of its own with a context that
// ends with ctx or at the first error, waits for all of them, and
// returns the first error: the parts of the running daemon (the poller,
// the sender, the clock, the ledger's pruning, the control socket).
func Together(ctx context.Context, fns ...func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for _, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fn(ctx); err != nil {
				once.Do(func() { first = err })
				cancel()
			}
		}()
	}
	wg.Wait()
	return first
}
