package web

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gmdjudge/gmd/state"
)

// /metrics in the Prometheus text format (version 0.0.4), written here:
// a few counters and gauges do not need the client library and its
// dependencies. The counters are the daemon's since it started; the
// gauges are read from the database at each scrape.

// Stats are the daemon's counters, kept by gmd run and read by /metrics.
// The zero value is ready to use, and a nil *Stats counts nothing; its
// methods may be called at once from any goroutine.
type Stats struct {
	mailsIn atomic.Uint64
	handle  histogram // seconds to take one mail in: ledger, commands, replies
	clock   histogram // seconds of one run of the games' clocks
	// Sent returns how many mails the SMTP server has taken since the
	// daemon started (mail.Sender.Sent); nil for none.
	Sent func() uint64
}

// MailHandled counts one incoming mail, handled in d.
func (st *Stats) MailHandled(d time.Duration) {
	if st == nil {
		return
	}
	st.mailsIn.Add(1)
	st.handle.observe(d.Seconds())
}

// ClockRan counts one run of the games' clocks, which took d.
func (st *Stats) ClockRan(d time.Duration) {
	if st != nil {
		st.clock.observe(d.Seconds())
	}
}

// buckets are the histograms' upper bounds in seconds: a mail takes a
// few milliseconds, a phase with a map a few hundred.
var buckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// histogram is a Prometheus histogram: counts per bucket, sum, count.
type histogram struct {
	mu     sync.Mutex
	counts [14]uint64 // per bucket, the last for +Inf
	sum    float64
	n      uint64
}

func (h *histogram) observe(v float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	i := 0
	for i < len(buckets) && v > buckets[i] {
		i++
	}
	h.counts[i]++
	h.sum += v
	h.n++
}

// write writes the histogram name in the text format.
func (h *histogram) write(b *bytes.Buffer, name, help string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name)
	var cum uint64
	for i, le := range buckets {
		cum += h.counts[i]
		fmt.Fprintf(b, "%s_bucket{le=\"%s\"} %d\n", name, strconv.FormatFloat(le, 'g', -1, 64), cum)
	}
	cum += h.counts[len(buckets)]
	fmt.Fprintf(b, "%s_bucket{le=\"+Inf\"} %d\n", name, cum)
	fmt.Fprintf(b, "%s_sum %s\n%s_count %d\n", name, strconv.FormatFloat(h.sum, 'g', -1, 64), name, h.n)
}

// dbGauges are what /metrics reads from the database.
type dbGauges struct {
	waiting, failed int // outbox mails, to be sent or tried again, and given up on
	held            int
	games           map[state.GameStatus]int
	history         int // processed phases of all games
}

func readGauges(tx *state.Tx) (*dbGauges, error) {
	g := &dbGauges{games: map[state.GameStatus]int{}}
	out, err := tx.Outbox(0)
	if err != nil {
		return nil, err
	}
	for _, m := range out {
		if m.Failed != "" {
			g.failed++
		} else {
			g.waiting++
		}
	}
	held, err := tx.HeldMails()
	if err != nil {
		return nil, err
	}
	g.held = len(held)
	err = tx.ForEachGame(func(game *state.Game) error {
		g.games[game.Status]++
		n, err := tx.CountPhases(game.Name)
		g.history += n
		return err
	})
	return g, err
}

// metrics answers /metrics to the clients of Config.MetricsFrom. It is
// never cached, and not rate limited differently: a scraper asks every
// few seconds at most.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	if !isTrusted(clientAddr(r, s.cfg.TrustedProxies), s.cfg.MetricsFrom) {
		s.errorPage(w, r, http.StatusForbidden, "Forbidden", "The judge's counters are for its operator.")
		return
	}
	var g *dbGauges
	err := s.cfg.DB.View(func(tx *state.Tx) (err error) {
		g, err = readGauges(tx)
		return err
	})
	if err != nil {
		s.failed(w, r, err)
		return
	}
	var b bytes.Buffer
	gauge := func(name, help string) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name)
	}
	gauge("gmd_outbox_mails", "Mails in the outbox: waiting to be sent, or failed for good and waiting for the admin.")
	fmt.Fprintf(&b, "gmd_outbox_mails{state=\"waiting\"} %d\n", g.waiting)
	fmt.Fprintf(&b, "gmd_outbox_mails{state=\"failed\"} %d\n", g.failed)
	gauge("gmd_held_mails", "Incoming mails held for the admin (gmd held).")
	fmt.Fprintf(&b, "gmd_held_mails %d\n", g.held)
	gauge("gmd_games", "Games by status.")
	for _, st := range []state.GameStatus{state.Forming, state.Active, state.Paused, state.Finished} {
		fmt.Fprintf(&b, "gmd_games{status=%q} %d\n", st, g.games[st])
	}
	gauge("gmd_phases_processed", "Processed phases in the history of all games.")
	fmt.Fprintf(&b, "gmd_phases_processed %d\n", g.history)
	if st := s.cfg.Stats; st != nil {
		fmt.Fprintf(&b, "# HELP gmd_mails_in_total Incoming mails handled since the daemon started.\n# TYPE gmd_mails_in_total counter\n")
		fmt.Fprintf(&b, "gmd_mails_in_total %d\n", st.mailsIn.Load())
		if st.Sent != nil {
			fmt.Fprintf(&b, "# HELP gmd_mails_out_total Mails the SMTP server took since the daemon started.\n# TYPE gmd_mails_out_total counter\n")
			fmt.Fprintf(&b, "gmd_mails_out_total %d\n", st.Sent())
		}
		st.handle.write(&b, "gmd_mail_handle_seconds", "Time to handle one incoming mail: its commands, orders and replies, in one transaction.")
		st.clock.write(&b, "gmd_clock_run_seconds", "Time of one run of the games' clocks: reminders, deadlines and the phases processed.")
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}
