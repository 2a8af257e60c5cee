package mail

import (
	"fmt"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"

	"github.com/gmdjudge/gmd/state"
)

// Fairness. Anyone can send the judge a thousand mails, and each is
// answered: were mail handled in the order it arrived, a burst from one
// sender would hold up every other sender's mail until it was all done,
// and its replies would go before theirs. So the new mails of a poll are
// handled round-robin by sender (the From address, in any case): each
// sender's first mail, in the order they arrived, then each one's
// second, and so on; a sender's own mails keep their order, so that a
// later mail still corrects an earlier one. The outbox sends
// round-robin by recipient in the same way (Sender). Mails from
// different senders that arrive close together were in no dependable
// order anyway: a judge that polls sees them together. A reply queued
// while a burst is being sent waits for at most yieldAfter mails of the
// pass under way, then one mail to each address ahead of it.
//
// A burst does not delay what comes in after it either: between two
// batches the poller looks for new mail as soon as the server says some
// came (the untagged EXISTS that follows any command), and orders it
// with the rest of the burst. So another sender's mail waits for at
// most one batch (batchCount mails) and then one mail of each sender
// ahead of it.

// fairOrder returns uids (in UID order) round-robin by sender, as
// sender names them: the first of each sender, in UID order, then the
// second of each, and so on.
func fairOrder(uids []imap.UID, sender func(imap.UID) string) []imap.UID {
	return roundRobin(uids, sender)
}

// roundRobin returns items round-robin by key (in any case): the first
// item of each key, in the order given, then the second of each, and so
// on. Items of one key keep their order.
func roundRobin[T any](items []T, key func(T) string) []T {
	type ranked struct {
		item T
		rank int
	}
	seen := make(map[string]int, len(items))
	all := make([]ranked, len(items))
	for i, it := range items {
		k := strings.ToLower(key(it))
		all[i] = ranked{it, seen[k]}
		seen[k]++
	}
	slices.SortStableFunc(all, func(a, b ranked) int { return a.rank - b.rank })
	out := make([]T, len(all))
	for i, r := range all {
		out[i] = r.item
	}
	return out
}

// envelopeChunk is how many envelopes one FETCH asks for.
const envelopeChunk = 500

// fetchSenders learns the From address of each of uids not yet known
// (Poller.senders), from its envelope. A message without one, or gone,
// counts as the sender "".
func (s *session) fetchSenders(uids []imap.UID) error {
	var unknown []imap.UID
	for _, uid := range uids {
		if _, ok := s.p.senders[uid]; !ok {
			unknown = append(unknown, uid)
		}
	}
	for len(unknown) > 0 {
		n := min(len(unknown), envelopeChunk)
		chunk := unknown[:n]
		unknown = unknown[n:]
		done := s.guard()
		msgs, err := s.c.Fetch(imap.UIDSetNum(chunk...), &imap.FetchOptions{UID: true, Envelope: true}).Collect()
		done()
		if err != nil {
			return fmt.Errorf("imap: UID FETCH envelopes: %w", err)
		}
		for _, uid := range chunk {
			s.p.senders[uid] = ""
		}
		for _, m := range msgs {
			if m.Envelope != nil && len(m.Envelope.From) > 0 && slices.Contains(chunk, m.UID) {
				s.p.senders[m.UID] = m.Envelope.From[0].Addr()
			}
		}
	}
	return nil
}

// fairOutbox returns the mails due round-robin by recipient, as
// fairOrder orders new mail by sender: the first mail to each address
// (or set of addresses), in the order they were queued, then the second
// to each, and so on. A reply goes to its mail's sender, so a burst's
// thousand replies go one for one with everyone else's mail.
func fairOutbox(due []*state.OutMail) []*state.OutMail {
	return roundRobin(due, func(m *state.OutMail) string { return strings.Join(m.To, ",") })
}
