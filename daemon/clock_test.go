package daemon

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// tickCounter is a Ticker that fails every other run.
type tickCounter struct{ at []time.Time }

func (c *tickCounter) Tick(now time.Time) error {
	c.at = append(c.at, now)
	if len(c.at)%2 == 1 {
		return errors.New("game dt: a bad day")
	}
	return nil
}

// The clock runs at once and then every interval, on UTC time, until
// its context ends; a failing run is logged and the next one comes all
// the same; after each run it counts the run and kicks the sender. In a
// synctest bubble, on the bubble's clock, the number of runs is exact.
func TestClockRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			m          tickCounter
			log        bytes.Buffer
			ran, kicks int
		)
		c := Clock{Master: &m, Log: slog.New(slog.NewTextHandler(&log, nil)),
			Ran: func(time.Duration) { ran++ }, Kick: func() { kicks++ }}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- Together(ctx, c.Runner(time.Minute)) }()
		time.Sleep(150 * time.Second) // runs at 0, 1 and 2 minutes
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the clock returned %v", err)
		}
		if len(m.at) != 3 || ran != 3 || kicks != 3 {
			t.Errorf("%d runs, %d counted, %d kicks in 150 s; want 3 of each", len(m.at), ran, kicks)
		}
		for _, at := range m.at {
			if at.Location() != time.UTC {
				t.Errorf("a run at %v, not UTC", at)
			}
		}
		if n := strings.Count(log.String(), "clock: some games could not be run"); n != 2 {
			t.Errorf("%d failures logged, want 2:\n%s", n, log.String())
		}
	})
}

// Together ends every part at the first error and returns it; the
// others' context ends with it.
func TestTogetherStopsAtTheFirstError(t *testing.T) {
	boom := errors.New("the control socket failed")
	stoppedToo := false
	err := Together(context.Background(),
		func(context.Context) error { return boom },
		func(ctx context.Context) error { <-ctx.Done(); stoppedToo = true; return nil },
	)
	if !errors.Is(err, boom) || !stoppedToo {
		t.Errorf("Together returned %v, the other part stopped %v", err, stoppedToo)
	}
}
