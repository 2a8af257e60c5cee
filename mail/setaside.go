package mail

import (
	"errors"
	"math"
	"time"

	"github.com/emersion/go-imap/v2"
)

// setAsideMax is the longest a message set aside waits between two tries.
const setAsideMax = time.Hour

// ErrSetAside is wrapped by a Handler's error for a message that failed
// for a reason of its own and that the judge could not deal with now
// (not even record as held, in the database, for its admin): the poller
// leaves it new in the mailbox and tries it again later, while the
// messages after it are handled. The judge decides which errors are
// such (see session.Master.Take); the poller only obeys.
var ErrSetAside = errors.New("mail: message set aside for a later try")

// setAside is a message set aside (see ErrSetAside): it stays new in the
// mailbox and is tried again after a wait that doubles from the poll
// interval up to setAsideMax, while the messages after it are handled.
// ("Held", elsewhere, is a mail kept in the database for the admin.)
type setAside struct {
	tries int
	next  time.Time
}

// ownFault reports whether a handler's error belongs to the message
// handled rather than to the judge as a whole: the handler said so
// (ErrSetAside; gmd's handler says so of a panic, a bug this message
// trips). The next
// message may well go through, and holding it up behind this one would
// stop the judge for everyone. Any other error is the judge's (a full
// disk, a database that cannot be written) and would fail the next
// message too: the messages wait in order, as the Handler's doc says.
func ownFault(err error) bool {
	return errors.Is(err, ErrSetAside)
}

// resetSetAside forgets the set-aside and done messages when the mailbox's
// UIDVALIDITY is not the one they were noted under: their UIDs mean
// nothing any more.
func (p *Poller) resetSetAside(validity uint32) {
	if p.setAside != nil && p.setAsideValidity == validity {
		return
	}
	p.setAside = map[imap.UID]*setAside{}
	p.doneAbove = map[imap.UID]bool{}
	p.senders = map[imap.UID]string{}
	p.setAsideValidity = validity
}

// hold notes that the message uid failed for a reason of its own at
// now, and returns when it is to be tried again.
func (p *Poller) hold(uid imap.UID, now time.Time) time.Duration {
	h := p.setAside[uid]
	if h == nil {
		h = new(setAside)
		p.setAside[uid] = h
	}
	h.tries++
	wait := p.cfg.PollInterval
	for i := 1; i < h.tries && wait < setAsideMax; i++ {
		wait *= 2
	}
	wait = min(wait, max(setAsideMax, p.cfg.PollInterval))
	h.next = now.Add(wait)
	return wait
}

// pending returns the UIDs of uids to offer now: neither handled already
// nor set aside and waiting for their next try.
func (p *Poller) pending(uids []imap.UID, now time.Time) []imap.UID {
	out := uids[:0]
	for _, uid := range uids {
		if p.doneAbove[uid] {
			continue
		}
		if h := p.setAside[uid]; h != nil && now.Before(h.next) {
			continue
		}
		out = append(out, uid)
	}
	return out
}

// settle returns the last UID to store after a batch: the highest such
// that every message up to it is done (handled, gone, or too old). last
// is the highest the batch reached, done lists what it did, and failed
// is the lowest message of the poll not yet reached (0 if none): one a
// failure of the judge's stopped at, or one the fair order (fair.go) has
// not come to yet. The place must stay below every message set aside and
// below failed, or that message would not be offered again; it may move past messages
// done in earlier batches above one set aside that is now done too. Those
// done above the place are noted in doneAbove, so that they are not
// offered again meanwhile; those the place covers are forgotten there.
func (p *Poller) settle(last imap.UID, done []imap.UID, failed imap.UID) imap.UID {
	limit := imap.UID(math.MaxUint32)
	for uid := range p.setAside {
		limit = min(limit, uid)
	}
	if failed != 0 {
		limit = min(limit, failed)
	}
	// Every message above the place not done is set aside, or in the poll
	// under way, at failed or above it: below limit, all are done.
	for uid := range p.doneAbove {
		if uid < limit {
			last = max(last, uid)
		}
	}
	if last >= limit {
		last = limit - 1
	}
	for _, uid := range done {
		if uid > last {
			p.doneAbove[uid] = true
		}
	}
	for uid := range p.doneAbove {
		if uid <= last {
			delete(p.doneAbove, uid)
		}
	}
	return last
}
