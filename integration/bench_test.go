package integration

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Speed targets of the daemon, end to end against Dovecot on loopback.
const (
	targetRate = 200       // order mails a second, fetched, applied and acknowledged into the outbox
	targetRSS  = 100 << 20 // bytes of peak resident memory
)

// TestThroughput measures how fast the daemon handles a full mailbox:
// GMD_BENCH_MAILS order mails (default 1000) are put into the judge's
// INBOX by LMTP before it starts, and the time runs from its start until
// Dovecot shows every one flagged \Seen, which the judge does after the
// transaction that applied the mail and queued its reply. The replies
// stay in the outbox (the judge's SMTP server is a closed port), so that
// the measure is of reading and applying, and the outbox can be counted.
//
// The peak memory (VmHWM) is checked against the target always; the rate
// only with GMD_BENCH=1, as a loaded machine may be slow: without it, it
// is only logged. Neither is checked with GMD_MAILTEST_RACE=1, as the
// race detector makes the judge several times slower and bigger.
func TestThroughput(t *testing.T) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("GMD_BENCH_MAILS")); err == nil && v > 0 {
		n = v
	}
	// A port nobody listens on: taken from the kernel, then let go.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	j := newJudge(t, judgeOptions{smtp: fmt.Sprintf("\n\taddress %s\n\ttls none", dead)})
	game := "bench" + token(2)
	j.seedGame(game)
	seeded := len(j.outbox())

	letters := orderLetters(game, "bench", n)
	t0 := time.Now()
	deliverLMTP(t, letters)
	t.Logf("%d mails put into the judge's INBOX by LMTP in %v", n, time.Since(t0).Round(time.Millisecond))

	box := newMailbox(judgeUser)
	defer box.close()
	if total, _, err := box.counts(); err != nil || total != n {
		t.Fatalf("the judge's INBOX holds %d mails (%v), want %d", total, err, n)
	}

	start := time.Now()
	j.start()
	var first time.Duration // until the first mail was done
	for {
		_, seen, err := box.counts()
		if err != nil {
			t.Fatal(err)
		}
		if seen > 0 && first == 0 {
			first = time.Since(start)
		}
		if seen == n {
			break
		}
		if !j.running() {
			t.Fatalf("the judge exited: %v", j.err)
		}
		if time.Since(start) > 2*time.Minute {
			t.Fatalf("only %d of %d mails handled after 2 minutes", seen, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	elapsed := time.Since(start)
	rss, rssErr := j.peakRSS()
	j.stop()

	// Every mail is in the ledger and has its one reply in the outbox.
	j.handled(letters)
	out := j.outbox()
	replies := map[string]int{}
	refused := 0
	for _, m := range out {
		replies[m.InReplyTo]++
		if strings.Contains(m.Body, "Error") {
			refused++
		}
	}
	if refused > 0 {
		t.Errorf("%d replies report errors: the orders were not all accepted", refused)
	}
	for _, l := range letters {
		if replies[l.MessageID] != 1 {
			t.Errorf("%q has %d replies in the outbox, want 1", l.Subject, replies[l.MessageID])
		}
	}
	if len(out) != seeded+n {
		t.Errorf("%d mails in the outbox, want %d (the game's set-up) + %d", len(out), seeded, n)
	}

	rate := float64(n) / elapsed.Seconds()
	steady := float64(n-1) / (elapsed - first).Seconds()
	t.Logf("%d order mails handled in %v from the judge's start: %.0f mails/s (%.0f/s after the first, at %v); peak RSS %.1f MB",
		n, elapsed.Round(time.Millisecond), rate, steady, first.Round(time.Millisecond), float64(rss)/(1<<20))
	switch {
	case raceEnabled():
		t.Log("the judge was built with the race detector: speed and memory are not checked")
	case rssErr != nil:
		t.Logf("peak memory not measured: %v", rssErr)
	case rss >= targetRSS:
		t.Errorf("peak RSS %.1f MB, want under %d MB", float64(rss)/(1<<20), targetRSS>>20)
	}
	if os.Getenv("GMD_BENCH") == "1" && !raceEnabled() && rate < targetRate {
		t.Errorf("%.0f mails/s, want at least %d", rate, targetRate)
	}
}
