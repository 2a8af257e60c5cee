package integration

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSoak is the soak run of issue 6. Order mails for four games (2,000
// by default; 20,000 with GMD_SOAK=full, any number with GMD_SOAK_MAILS)
// go into the judge's mailbox in
// bursts of 1 to 500, each burst either by SMTP through Postfix or by
// LMTP straight into Dovecot. Meanwhile, at random moments, the daemon is
// killed with SIGKILL and started again, stopped with SIGTERM and
// started again, and both mail servers are stopped and started again
// (outages, some with a restart of the daemon while they are down), with
// mail in flight everywhere: in Postfix's queue, in the judge's mailbox,
// being handled, in the outbox, being sent. The judge moves the mail it
// handled to the folder Done (processed-mailbox, as judge.conf.example
// has it), so that its INBOX holds only what is still to be done: with
// all 20,000 left in the INBOX, Dovecot's work for each delivery and each
// poll grows with it, and the run took 5.7 to 7.3 minutes instead of 4.
//
// The short run of the default suite has the same interruptions as the
// full one (see schedule), only closer together: the mail count is what
// makes the full run long, not the events.
//
// Hostile mails ride in the same stream, at random places, with the same
// interruptions (newHostileMix: 57 for each 2,000 mails): a From of
// 33,000 characters, dates in the year 10000, mails for a fifth game
// whose record the test damages before the daemon starts, presses over
// the size limits, OBSERVE from forged addresses. Each must be answered,
// held or ignored as the judge's rules say (hostileMix.check), while the
// normal mails' checks stay as they are.
//
// Everything must be answered within a time bound (GMD_SOAK_BOUND; by
// default 2 minutes and 18 ms a mail: 8 minutes for 20,000 mails, which
// take about 4 on a 2-core machine). Then: every mail is in the ledger; each has
// replies with exactly one Message-ID (more copies of it are resends,
// counted); the outbox is empty; the INBOX is empty, every mail moved
// to Done; and the daemon never exited but when the test stopped it.
//
// The schedule of bursts and events comes from a seed, which is logged;
// GMD_SOAK_SEED=n draws the same one again (the machine's timing, and so
// what each event interrupts, is not replayed). The sender holds back
// while more than maxInFlight mails are unanswered, so that a slow
// machine takes longer rather than piling up an ever larger backlog.
func TestSoak(t *testing.T) {
	n := soakShort
	switch v := os.Getenv("GMD_SOAK"); v {
	case "":
	case "full":
		n = soakFull
	default:
		t.Fatalf("GMD_SOAK=%q: the only value is full (%d mails; %d without it)", v, soakFull, soakShort)
	}
	if v, err := strconv.Atoi(os.Getenv("GMD_SOAK_MAILS")); err == nil && v > 0 {
		n = v
	}
	bound := soakBound(n)
	if v := os.Getenv("GMD_SOAK_BOUND"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("GMD_SOAK_BOUND: %v", err)
		}
		bound = d
	}
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("GMD_SOAK_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("GMD_SOAK_SEED=%d GMD_SOAK_MAILS=%d, time bound %v", seed, n, bound)

	j := newJudge(t, judgeOptions{processed: soakDone})
	if err := deleteFolder(judgeUser, soakDone); err != nil {
		t.Fatalf("deleting the judge's %s: %v", soakDone, err)
	}
	const games = 4
	perGame := make([][]*letter, min(games, n))
	var names []string
	for g := range perGame {
		game := "soak" + token(2)
		j.seedGame(game)
		names = append(names, game)
		perGame[g] = orderLetters(game, game, (n+len(perGame)-1-g)/len(perGame))
	}
	// A fifth game, damaged before the daemon starts: its mails must be
	// held, the others' handled.
	damaged := "soakdmg" + token(2)
	j.seedGame(damaged)
	j.damage(damaged)
	// A sixth for the attacks of issue 18.
	ab := seedAbandoned(j)
	// Interleaved: each game gets mail all along.
	letters := make([]*letter, 0, n)
	for i := 0; len(letters) < n; i++ {
		for _, ls := range perGame {
			if i < len(ls) {
				letters = append(letters, ls[i])
			}
		}
	}
	hostile := newHostileMix(rand.New(rand.NewPCG(seed, 3)), max(1, n/soakShort), names, damaged, ab)
	stream := hostile.mixInto(letters, rand.New(rand.NewPCG(seed, 4)))
	// Everyone who reads an answer: the players, and the master of the
	// hostile mails. The forged addresses have no mailbox.
	players := senders(append(slices.Clone(letters), hostile.answered()...))
	emptyMailboxes(t, players...)

	c := &chaos{t: t, j: j, rng: rand.New(rand.NewPCG(seed, 1)), box: newMailbox(judgeUser), done: newMailbox(judgeUser)}
	c.done.folder = soakDone
	defer c.box.close()
	defer c.done.close()
	// Last registered, so first run: the servers up again if the test
	// stopped during an outage, and no mailbox of thousands of mails
	// left for the tests after this one.
	t.Cleanup(func() {
		if c.serversDown {
			if out, err := mailservers("start", env.servers); err != nil {
				t.Errorf("starting the servers again: %v\n%s", err, out)
			}
		}
		for _, u := range append([]string{judgeUser}, players...) {
			if err := empty(u); err != nil {
				t.Errorf("emptying %s's INBOX: %v", u, err)
			}
		}
		if err := deleteFolder(judgeUser, soakDone); err != nil {
			t.Errorf("deleting the judge's %s: %v", soakDone, err)
		}
	})
	events := c.schedule(n)

	start := time.Now()
	deadline := start.Add(bound)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	f := newFeeder(stream, players, rand.New(rand.NewPCG(seed, 2)))
	f.fallback, f.via = map[*letter]bool{}, map[*letter]string{}
	for _, m := range hostile.mails {
		f.fallback[m.l] = true
		f.via[m.l] = m.via
	}
	fed := make(chan struct{})
	defer func() {
		cancel()
		<-fed
	}()
	j.start()
	go func() {
		defer close(fed)
		f.err = f.run(ctx)
	}()

	// watch fails the test if the daemon is not running (the test
	// starts it again after each stop), the feeder failed, or the time
	// is up; it reports whether the feeder is done.
	watch := func(what string) (fedAll bool) {
		t.Helper()
		if !j.running() {
			t.Fatalf("the judge exited on its own (%s): %v", what, j.err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("time bound of %v exceeded (%s): %d of %d mails sent (GMD_SOAK_BOUND sets the bound)", bound, what, f.sent.Load(), len(stream))
		}
		select {
		case <-fed:
			if f.err != nil {
				t.Fatalf("sending the mails: %v", f.err)
			}
			return true
		default:
			return false
		}
	}
	c.watch = watch

	for k, e := range events {
		for f.sent.Load() < int64(e.at) {
			watch("waiting for event " + strconv.Itoa(k+1))
			time.Sleep(20 * time.Millisecond)
		}
		c.sleep(e.delay, false)
		c.run(k+1, e, f.sent.Load(), time.Since(start))
	}
	for !watch("sending the last mails") {
		time.Sleep(20 * time.Millisecond)
	}
	sentAll := time.Since(start)
	t.Logf("all %d mails sent after %v (%d normal, %d hostile): %d by SMTP, %d by LMTP, in %d bursts; %d sends failed and were made again",
		len(stream), sentAll.Round(100*time.Millisecond), n, len(hostile.mails), f.bySMTP, f.byLMTP, f.bursts, f.retried.Load())

	lastLog := time.Now()
	awaitAnswers(t, letters, deadline, fmt.Sprintf("within the time bound of %v (GMD_SOAK_BOUND)", bound), func(answered int) error {
		if !j.running() {
			return fmt.Errorf("the judge exited on its own (waiting for the replies): %v", j.err)
		}
		if time.Since(lastLog) > 15*time.Second {
			lastLog = time.Now()
			t.Logf("%v: %d of %d mails answered", time.Since(start).Round(time.Second), answered, n)
		}
		return nil
	})
	wall := time.Since(start)
	awaitAnswers(t, hostile.answered(), deadline, fmt.Sprintf("within the time bound of %v (GMD_SOAK_BOUND)", bound), func(int) error {
		if !j.running() {
			return fmt.Errorf("the judge exited on its own (waiting for the answers to the hostile mails): %v", j.err)
		}
		return nil
	})
	hostile.awaitForgedRefused(t, j, deadline)
	c.notePeak()
	j.stop()

	j.handled(letters)
	outcome, out := hostile.check(t, j, c.done, f.refusedBySMTP)
	if len(out) != 0 {
		t.Errorf("%d replies never sent: still in the outbox after the judge answered everything (the answers to forged addresses aside)", len(out))
	}
	resent := exactlyOnce(t, letters)
	left, _, err := c.box.counts()
	if err != nil {
		t.Fatalf("the judge's INBOX: %v", err)
	}
	if left != 0 {
		t.Errorf("%d mails left in the judge's INBOX after it answered everything and stopped: handled but never moved to %s", left, soakDone)
	}
	total, _, err := c.done.counts()
	if err != nil {
		t.Fatalf("the judge's %s: %v", soakDone, err)
	}
	if t.Failed() {
		return
	}
	t.Logf("%d mails over %d games and %d hostile mails, %d by SMTP through Postfix and %d by LMTP, in %d bursts; %d copies delivered twice (a delivery retried after a server went away in the middle of it: %d mails in %s), %d sends made again",
		n, len(perGame), len(hostile.mails), f.bySMTP, f.byLMTP, f.bursts, total-len(stream), total, soakDone, f.retried.Load())
	t.Logf("%d SIGKILLs, %d SIGTERMs (stops took %s), %d outages (servers down %s), %d daemon starts in all",
		c.kills, c.terms, durations(c.stops, time.Millisecond), len(c.outages), durations(c.outages, 100*time.Millisecond), j.starts)
	t.Logf("every mail applied exactly once and answered: %v in all (all sent after %v), %.0f mails/s; %d replies sent twice (same Message-ID); peak RSS of the daemon %s",
		wall.Round(100*time.Millisecond), sentAll.Round(100*time.Millisecond), float64(n)/wall.Seconds(), resent, c.peakString())
	hostile.log(t, outcome, hostile.normalAfter(stream))
}

// The soak's mail counts: the default suite's short run, and the full run
// of GMD_SOAK=full.
const (
	soakShort = 2000
	soakFull  = 20000
)

// soakDone is where the judge of the soak moves the mail it handled.
const soakDone = "Done"

// soakBound is the default time bound of a soak run of n mails: 8
// minutes for 20,000; 5 minutes at least, for the events of a short run
// (some 16 restarts and outages of up to 6 seconds each, besides the
// servers' own stop and start).
func soakBound(n int) time.Duration {
	return max(5*time.Minute, 2*time.Minute+time.Duration(n)*18*time.Millisecond)
}

// maxInFlight is how many mails the feeder lets be unanswered before it
// waits.
const maxInFlight = 5000

// event is something done to the judge or the servers during the soak.
type event struct {
	at    int           // done once this many mails are sent
	delay time.Duration // and after this
	kind  string        // "kill", "term" or "outage"
	pause time.Duration // how long the judge or the servers stay down
	// restart, for an outage: "kill" or "term" to stop the judge
	// and start it again while the servers are down; "" not to.
	restart string
}

// chaos does the events of the soak, in the test's goroutine (the
// judge's methods may fail the test), and keeps their figures.
type chaos struct {
	t     *testing.T
	j     *judge
	rng   *rand.Rand
	box   *mailbox // the judge's INBOX, for the log
	done  *mailbox // and its folder soakDone
	watch func(what string) bool

	serversDown bool
	kills       int
	terms       int
	stops       []time.Duration // how long each SIGTERM took
	outages     []time.Duration // from stopping the servers to their start
	peak        int64           // the largest peak RSS of the daemon's runs
	peakErr     error
}

// schedule draws the events of a run of n mails: a kill every 2,500
// mails, a SIGTERM and an outage every 5,000, and never fewer than the
// full run's 8 kills, 4 SIGTERMs and 4 outages, at random points from 3%
// to 92% of the mails sent, in random order.
func (c *chaos) schedule(n int) []event {
	var events []event
	add := func(kind string, count int) {
		for range count {
			e := event{
				at:    n*3/100 + c.rng.IntN(n*89/100+1),
				delay: time.Duration(c.rng.IntN(1000)) * time.Millisecond,
				kind:  kind,
				pause: time.Duration(c.rng.IntN(1500)) * time.Millisecond,
			}
			if kind == "outage" {
				e.pause = time.Duration(1000+c.rng.IntN(5000)) * time.Millisecond
				e.restart = []string{"", "", "kill", "term"}[c.rng.IntN(4)]
			}
			events = append(events, e)
		}
	}
	add("kill", max(soakFull/2500, n/2500))
	add("term", max(soakFull/5000, n/5000))
	add("outage", max(soakFull/5000, n/5000))
	slices.SortStableFunc(events, func(a, b event) int { return a.at - b.at })
	return events
}

// run does event number k.
func (c *chaos) run(k int, e event, sent int64, since time.Duration) {
	c.t.Helper()
	j := c.j
	at := fmt.Sprintf("event %d at %v, %d mails sent", k, since.Round(100*time.Millisecond), sent)
	switch e.kind {
	case "kill":
		c.kill()
		c.t.Logf("%s: SIGKILL (%s); started again %v later", at, c.inbox(), e.pause)
		c.sleep(e.pause, true)
		j.start()
	case "term":
		took := c.term()
		c.t.Logf("%s: SIGTERM, stopped in %v (%s); started again %v later", at, took.Round(time.Millisecond), c.inbox(), e.pause)
		c.sleep(e.pause, true)
		j.start()
	case "outage":
		t0 := time.Now()
		c.serversDown = true
		if out, err := mailservers("stop", env.servers); err != nil {
			c.t.Fatalf("%s: stopping the servers: %v\n%s", at, err, out)
		}
		stopped := time.Since(t0)
		restart := ""
		for time.Since(t0) < stopped+e.pause {
			if e.restart != "" && restart == "" && time.Since(t0) > stopped+e.pause/2 {
				if e.restart == "kill" {
					c.kill()
					restart = ", the judge killed and started again while they were down"
				} else {
					c.term()
					restart = ", the judge stopped with SIGTERM and started again while they were down"
				}
				j.start()
			}
			c.watch(at + ": servers down")
			time.Sleep(50 * time.Millisecond)
		}
		if out, err := mailservers("start", env.servers); err != nil {
			c.t.Fatalf("%s: starting the servers again: %v\n%s", at, err, out)
		}
		c.serversDown = false
		down := time.Since(t0)
		c.outages = append(c.outages, down)
		c.t.Logf("%s: outage, servers down for %v (stop took %v)%s", at, down.Round(100*time.Millisecond), stopped.Round(100*time.Millisecond), restart)
	}
}

// kill kills the judge.
func (c *chaos) kill() {
	c.notePeak()
	c.j.kill()
	c.kills++
}

// term stops the judge with SIGTERM and returns how long it took.
func (c *chaos) term() time.Duration {
	c.notePeak()
	t0 := time.Now()
	c.j.stop()
	took := time.Since(t0)
	c.stops = append(c.stops, took)
	c.terms++
	return took
}

// sleep waits d, watching the judge all the while unless it is down.
func (c *chaos) sleep(d time.Duration, down bool) {
	c.t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); {
		if !down {
			c.watch("between events")
		}
		time.Sleep(min(20*time.Millisecond, time.Until(end)))
	}
}

// inbox describes the judge's INBOX and processed folder for the log.
func (c *chaos) inbox() string {
	total, seen, err := c.box.counts()
	if err != nil {
		return "the judge's INBOX unreadable: " + err.Error()
	}
	done, _, err := c.done.counts()
	if err != nil {
		return fmt.Sprintf("%d mails in the judge's INBOX (%d flagged done), %s unreadable: %v", total, seen, soakDone, err)
	}
	return fmt.Sprintf("%d mails in the judge's INBOX (%d flagged done), %d in %s", total, seen, done, soakDone)
}

// notePeak reads the running daemon's peak RSS and keeps the largest.
func (c *chaos) notePeak() {
	rss, err := c.j.peakRSS()
	if err != nil {
		c.peakErr = err
		return
	}
	c.peak = max(c.peak, rss)
}

// peakString writes the largest peak RSS for the log.
func (c *chaos) peakString() string {
	switch {
	case c.peak > 0:
		s := fmt.Sprintf("%.1f MB (the largest of its runs)", float64(c.peak)/(1<<20))
		if raceEnabled() {
			s += " with the race detector"
		}
		return s
	case c.peakErr != nil:
		return "unknown: " + c.peakErr.Error()
	}
	return "unknown"
}

// durations writes a list of durations, rounded to unit, for the log.
func durations(ds []time.Duration, unit time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Round(unit).String()
	}
	return strings.Join(out, ", ")
}

// feeder sends the letters of the soak in bursts, each all by SMTP
// through Postfix (two connections) or all by LMTP into Dovecot (four),
// with pauses between bursts. A send that fails (the servers are down) is
// made again every quarter of a second until ctx ends. If the server
// had the mail before the connection broke, it is delivered twice, with
// the same Message-ID, which the judge's ledger turns away.
type feeder struct {
	letters []*letter
	rng     *rand.Rand // used by run's goroutine only
	smtp    []*smtpSender
	lmtp    []*smtpSender
	players map[string]*mailbox // the letters' senders' INBOXes, to count the replies

	sent    atomic.Int64 // letters a server has taken
	retried atomic.Int64 // sends made again after a failure

	// fallback holds the letters that Postfix may refuse for good: they
	// go by LMTP instead, and refusedBySMTP has Postfix's refusal.
	// via holds letters that go by "smtp" or "lmtp" whatever their
	// burst's way.
	fallback      map[*letter]bool
	via           map[*letter]string
	mu            sync.Mutex
	refusedBySMTP map[*letter]error

	// Written by run, to be read once it has returned.
	bursts, bySMTP, byLMTP int
	err                    error
}

// newFeeder returns a feeder of letters that counts the answers in the
// players' INBOXes.
func newFeeder(letters []*letter, players []string, rng *rand.Rand) *feeder {
	f := &feeder{letters: letters, rng: rng, players: map[string]*mailbox{}, refusedBySMTP: map[*letter]error{}}
	for range 2 {
		f.smtp = append(f.smtp, &smtpSender{})
	}
	for range 4 {
		f.lmtp = append(f.lmtp, &smtpSender{lmtp: true})
	}
	for _, u := range players {
		f.players[u] = newMailbox(u)
	}
	return f
}

// run sends every letter, in order, and returns nil, or an error if ctx
// ended first.
func (f *feeder) run(ctx context.Context) error {
	defer func() {
		for _, s := range append(f.smtp, f.lmtp...) {
			s.close()
		}
		for _, m := range f.players {
			m.close()
		}
	}()
	for i := 0; i < len(f.letters); {
		if err := f.throttle(ctx); err != nil {
			return err
		}
		size := 1 + f.rng.IntN(50)
		if f.rng.IntN(4) == 0 {
			size = 50 + f.rng.IntN(451)
		}
		burst := f.letters[i:min(i+size, len(f.letters))]
		senders := f.smtp
		if f.rng.IntN(2) == 0 {
			senders = f.lmtp
			f.byLMTP += len(burst)
		} else {
			f.bySMTP += len(burst)
		}
		if err := f.burst(ctx, burst, senders); err != nil {
			return err
		}
		i += len(burst)
		f.bursts++
		if err := sleepCtx(ctx, time.Duration(f.rng.IntN(250))*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// burst sends letters over the senders' connections side by side.
func (f *feeder) burst(ctx context.Context, letters []*letter, senders []*smtpSender) error {
	errs := make(chan error, len(senders))
	for c, s := range senders {
		go func() {
			for i := c; i < len(letters); i += len(senders) {
				if err := f.send(ctx, s, letters[i]); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	var err error
	for range senders {
		err = errors.Join(err, <-errs)
	}
	return err
}

// send sends l, again and again until a server takes it or ctx ends.
func (f *feeder) send(ctx context.Context, s *smtpSender, l *letter) error {
	for {
		via := s
		if way := f.via[l]; way != "" && s.lmtp != (way == "lmtp") {
			via = &smtpSender{lmtp: way == "lmtp"} // a connection of its own, for this mail
		}
		err := via.send(l)
		if via != s {
			via.close()
		}
		if err != nil && !via.lmtp && f.fallback[l] && permanentRefusal(err) {
			f.mu.Lock()
			f.refusedBySMTP[l] = err
			f.mu.Unlock()
			lmtp := &smtpSender{lmtp: true}
			err = lmtp.send(l)
			lmtp.close()
		}
		if err == nil {
			f.sent.Add(1)
			return nil
		}
		f.retried.Add(1)
		if stop := sleepCtx(ctx, 250*time.Millisecond); stop != nil {
			return fmt.Errorf("%w; the last try: %v", stop, err)
		}
	}
}

// throttle waits while more than maxInFlight of the mails sent are not
// answered yet, going by the number of mails in the players' INBOXes. If
// the INBOXes cannot be read (the servers are down), it does not wait.
func (f *feeder) throttle(ctx context.Context) error {
	for {
		answered := 0
		for _, m := range f.players {
			total, _, err := m.counts()
			if err != nil {
				return nil
			}
			answered += total
		}
		if int(f.sent.Load())-answered <= maxInFlight {
			return nil
		}
		if err := sleepCtx(ctx, 200*time.Millisecond); err != nil {
			return err
		}
	}
}

// sleepCtx sleeps d, or until ctx ends, returning then its error.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("sending stopped: %w", context.Cause(ctx))
	case <-t.C:
		return nil
	}
}
