package integration

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// orderLetters returns n order mails for game, from the seven players in
// turn, each with a subject of its own (prefix and number) and one
// single-unit order, which leaves the power's orders incomplete so that
// the phase is never processed under the test's feet.
func orderLetters(game, prefix string, n int) []*letter {
	out := make([]*letter, n)
	for i := range out {
		s := seats[i%len(seats)]
		order := s.Partial[(i/len(seats))%len(s.Partial)]
		out[i] = newLetter(s.User, fmt.Sprintf("%s %03d", prefix, i),
			fmt.Sprintf("SIGNON %s%s %s\n%s", s.Letter, game, s.Pass, order))
	}
	return out
}

// senders returns the users who sent the letters.
func senders(letters []*letter) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range letters {
		if !seen[l.From] {
			seen[l.From] = true
			out = append(out, l.From)
		}
	}
	return out
}

// repliesTo lists the senders' INBOXes and returns the replies found to
// each letter, by the letter's Message-ID (the replies' In-Reply-To).
func repliesTo(letters []*letter, boxes map[string]*mailbox) (map[string][]*received, error) {
	want := map[string]bool{}
	for _, l := range letters {
		want[l.MessageID] = true
	}
	got := map[string][]*received{}
	for _, u := range senders(letters) {
		msgs, err := boxes[u].list()
		if err != nil {
			return nil, fmt.Errorf("%s's INBOX: %v", u, err)
		}
		for _, m := range msgs {
			if want[m.InReplyTo] {
				got[m.InReplyTo] = append(got[m.InReplyTo], m)
			}
		}
	}
	return got, nil
}

// openBoxes returns a reader of the replies in the INBOX of each sender
// of letters, which fetches only their header fields; they are closed
// when the test ends.
func openBoxes(t testing.TB, letters []*letter) map[string]*mailbox {
	boxes := map[string]*mailbox{}
	for _, u := range senders(letters) {
		m := newMailbox(u)
		m.headers = true
		boxes[u] = m
		t.Cleanup(m.close)
	}
	return boxes
}

// awaitReplies waits until every letter has at least one reply in its
// sender's INBOX, failing the test after timeout.
func awaitReplies(t testing.TB, letters []*letter, timeout time.Duration) {
	t.Helper()
	awaitAnswers(t, letters, time.Now().Add(timeout), fmt.Sprintf("after %v", timeout), nil)
}

// awaitAnswers waits until every letter has at least one reply in its
// sender's INBOX, failing the test at deadline, which bound describes
// for the failure message. Each time it looks, it calls watch, if not
// nil, with the number of letters answered, or -1 if the mailboxes could
// not be read (the servers are down); an error from watch fails the test
// at once.
func awaitAnswers(t testing.TB, letters []*letter, deadline time.Time, bound string, watch func(answered int) error) {
	t.Helper()
	boxes := openBoxes(t, letters)
	for {
		got, err := repliesTo(letters, boxes)
		var missing []string
		if err == nil {
			for _, l := range letters {
				if len(got[l.MessageID]) == 0 {
					missing = append(missing, l.Subject)
				}
			}
			if len(missing) == 0 {
				return
			}
		}
		if watch != nil {
			answered := -1
			if err == nil {
				answered = len(letters) - len(missing)
			}
			if err := watch(answered); err != nil {
				t.Fatal(err)
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				t.Fatal(err)
			}
			const shown = 20
			list := strings.Join(missing[:min(len(missing), shown)], ", ")
			if len(missing) > shown {
				list += ", ..."
			}
			t.Fatalf("%d of %d mails unanswered %s: %s", len(missing), len(letters), bound, list)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// exactlyOnce checks that each letter was applied exactly once: all the
// replies to it in its sender's INBOX are copies of one mail, with one
// Message-ID. Two Message-IDs would mean the judge handled the letter
// twice; more copies of one are a resend (delivery is at least once: a
// kill between the server's 250 and the outbox's commit sends the mail
// again), which is allowed and counted. Each reply must also answer its
// own letter (the letter's subject ends the reply's) and report no error.
// Call it with the daemon stopped, so that nothing more comes. Only the
// first few failures of each kind are listed, then their number.
func exactlyOnce(t testing.TB, letters []*letter) (resent int) {
	t.Helper()
	// Let Postfix deliver what the judge sent last (40 to 130 ms).
	time.Sleep(time.Second)
	boxes := openBoxes(t, letters)
	for u, m := range boxes {
		// The header fields are fetched for all, the bodies only of
		// the replies the server finds "error" in.
		if _, err := m.list(); err != nil {
			t.Fatalf("%s's INBOX: %v", u, err)
		}
		if err := m.withBodies("Error"); err != nil {
			t.Fatalf("%s's INBOX: %v", u, err)
		}
	}
	got, err := repliesTo(letters, boxes)
	if err != nil {
		t.Fatal(err)
	}
	const shown = 10
	failures := map[string]int{}
	fail := func(kind, format string, args ...any) {
		t.Helper()
		if failures[kind]++; failures[kind] <= shown {
			t.Errorf(format, args...)
		}
	}
	for _, l := range letters {
		replies := got[l.MessageID]
		ids := map[string]bool{}
		for _, r := range replies {
			ids[r.MessageID] = true
			if !strings.HasSuffix(r.Subject, " "+l.Subject) {
				fail("subject", "the reply to %q has the subject %q", l.Subject, r.Subject)
			}
			if strings.Contains(r.Body, "Error") {
				fail("error", "the reply to %q reports an error:\n%s", l.Subject, r.Body)
			}
		}
		switch {
		case len(ids) == 0:
			fail("lost", "%q (%s) was never answered", l.Subject, l.MessageID)
		case len(ids) > 1:
			fail("twice", "%q (%s) was applied %d times: replies with the Message-IDs %v", l.Subject, l.MessageID, len(ids), keys(ids))
		}
		resent += len(replies) - len(ids)
	}
	for kind, what := range map[string]string{
		"subject": "replies with the subject of another mail",
		"error":   "replies reporting errors",
		"lost":    "mails never answered",
		"twice":   "mails applied more than once",
	} {
		if n := failures[kind]; n > 0 {
			t.Errorf("%d %s (of %d mails; the first %d listed above)", n, what, len(letters), min(n, shown))
		}
	}
	return resent
}

// keys returns the keys of a set.
func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestCrashSafety streams 200 order mails to the judge while killing it
// with SIGKILL at random moments and starting it again: in the end every
// mail was applied exactly once and every reply sent at least once.
//
// 104 of the mails come by SMTP through Postfix, one every 70 ms; the
// other 96 are put into the judge's mailbox by LMTP, 16 at each kill,
// while the judge is down, so that it starts again on a backlog and
// handles it in one batch: a kill in the middle of a batch leaves mails
// applied but not yet flagged \Seen, which a judge without its ledger
// would apply again. GMD_CRASH_SEED=n replays the kills of a failed run
// (the seed is logged).
func TestCrashSafety(t *testing.T) {
	j := newJudge(t)
	game := "crash" + token(2)
	j.seedGame(game)
	letters := orderLetters(game, "crash", 200)
	emptyMailboxes(t, senders(letters)...)
	const kills = 6
	streamed, backlogs := letters[:104], letters[104:]
	perKill := len(backlogs) / kills

	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("GMD_CRASH_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("GMD_CRASH_SEED=%d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	j.start()
	sent := make(chan error, 1)
	go func() {
		var s smtpSender
		defer s.close()
		for _, l := range streamed {
			if err := s.send(l); err != nil {
				sent <- err
				return
			}
			time.Sleep(70 * time.Millisecond)
		}
		sent <- nil
	}()

	box := newMailbox(judgeUser)
	defer box.close()
	for k := range kills {
		// A random moment of the judge's work: starting, logging in,
		// checking the first passwords (bcrypt), handling the backlog,
		// flagging it \Seen, waiting for more.
		time.Sleep(time.Duration(100+rng.IntN(2400)) * time.Millisecond)
		j.kill()
		total, seen, err := box.counts()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("kill %d: %d of the %d mails in the judge's mailbox done", k+1, seen, total)
		deliverLMTP(t, backlogs[k*perKill:(k+1)*perKill])
		time.Sleep(time.Duration(rng.IntN(200)) * time.Millisecond)
		j.start()
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}

	awaitReplies(t, letters, 90*time.Second)
	j.stop()
	j.handled(letters)
	if out := j.outbox(); len(out) != 0 {
		t.Errorf("%d replies never sent: still in the outbox after the judge answered everything", len(out))
	}
	resent := exactlyOnce(t, letters)
	if !t.Failed() {
		t.Logf("%d mails, %d kills: every mail applied once; %d replies sent twice (at-least-once delivery)", len(letters), kills, resent)
	}
}

// TestOutage stops Dovecot and Postfix under the running judge, with
// mail on its way, and starts them again: every mail, sent before or
// after the outage, is answered exactly once, and the judge never stops.
func TestOutage(t *testing.T) {
	j := newJudge(t)
	game := "outage" + token(2)
	j.seedGame(game)
	before := orderLetters(game, "before", 14)
	after := orderLetters(game, "after", 14)
	all := append(append([]*letter(nil), before...), after...)
	emptyMailboxes(t, senders(all)...)
	j.start()

	// The judge works...
	sendAll(t, before[:7]...)
	awaitReplies(t, before[:7], roundTrip)

	// ... when the servers go down with mail in flight: some of these
	// are still in Postfix's queue, some in the judge's mailbox, some
	// being handled, their replies queued or being sent.
	sendAll(t, before[7:]...)
	stopped := time.Now()
	if out, err := mailservers("stop", env.servers); err != nil {
		t.Fatalf("stopping the servers: %v\n%s", err, out)
	}
	down := true
	t.Cleanup(func() {
		if down {
			mailservers("start", env.servers)
		}
	})
	time.Sleep(3 * time.Second)
	if !j.running() {
		t.Fatalf("the judge exited during the outage: %v", j.err)
	}
	if out, err := mailservers("start", env.servers); err != nil {
		t.Fatalf("starting the servers again: %v\n%s", err, out)
	}
	down = false
	t.Logf("servers down for %v", time.Since(stopped).Round(100*time.Millisecond))

	sendAll(t, after...)
	// The judge reconnects to IMAP within its backoff (1 s doubling) and
	// retries the replies it could not send after 30 s.
	awaitReplies(t, all, 120*time.Second)
	t.Logf("everything answered %v after the servers went down", time.Since(stopped).Round(100*time.Millisecond))
	j.stop()
	j.handled(all)
	if out := j.outbox(); len(out) != 0 {
		t.Errorf("%d replies never sent", len(out))
	}
	if resent := exactlyOnce(t, all); resent > 0 {
		t.Logf("%d replies sent twice", resent)
	}
}
