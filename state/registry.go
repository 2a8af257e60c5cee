package state

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/bbolt"
)

// The player registry (issue 23) keeps what the judge knows of a player
// across games: the registrations (a public name, a profile, the
// addresses), and the seat log, one record of each thing a seat's
// holder did that the judge counts for reliability (orders on time or
// late, civil disorder, abandonment, resignation, takeover, the end of a
// game). The seat log is kept by address, as the games are: every seat
// has an address, registered or not, and a registration's figures are
// those of its addresses. Each address's running tally is kept beside
// its log and changed in the same transaction; RebuildTallies makes them
// again from the logs, which are the source of truth.

// Registrant is a registered player.
type Registrant struct {
	ID   uint64 `json:"id"`
	Name string `json:"name"` // the public name, as given
	// Fold is the name folded for comparison (players.Fold): two names
	// of one fold are taken for one, so that nobody can register a name
	// that looks like another's.
	Fold    string `json:"fold"`
	Country string `json:"country,omitempty"`
	Zone    string `json:"zone,omitempty"`  // IANA time zone
	Level   string `json:"level,omitempty"` // the player's own word: novice, intermediate, expert
	// Addr is the address the registration answers at, lower case.
	Addr string `json:"addr"`
	// Former are the addresses it answered at before SET ADDRESS moved
	// it: their seat logs still count for it, and nobody else may
	// register them, so that a history cannot be shed or taken over by
	// moving. Never shown.
	Former []string `json:"former,omitempty"`
	// ShowAddr is the player's opt-in (SET SHOW ADDRESS) to show Addr
	// to other players; off by default.
	ShowAddr   bool      `json:"show_addr,omitempty"`
	Registered time.Time `json:"registered"`
}

// Addrs returns every address whose seat log counts for r: Addr first,
// then the former ones.
func (r *Registrant) Addrs() []string { return append([]string{r.Addr}, r.Former...) }

// SeatKind is what a seat's holder did, as the seat log records it.
type SeatKind string

// The seat events. Each is written where the game master already logs
// the event of the same name (gm's events), in the same transaction.
const (
	SeatJoined    SeatKind = "joined"    // held a seat when the game started
	SeatTakeover  SeatKind = "takeover"  // took over an abandoned seat or one in civil disorder
	SeatOnTime    SeatKind = "ontime"    // the seat's orders were in by the deadline
	SeatLate      SeatKind = "late"      // the seat was named late in a phase
	SeatAbandoned SeatKind = "abandoned" // the grace ran out in a game without NMR: the seat was freed
	SeatDisorder  SeatKind = "cd"        // the grace ran out: the seat went into civil disorder
	SeatResigned  SeatKind = "resigned"  // the player gave the seat up (RESIGN)
	SeatEjected   SeatKind = "ejected"   // the master took the seat away (EJECT)
	SeatFinished  SeatKind = "finished"  // held the seat when the game ended
)

// SeatKinds lists every seat event kind, in the order above.
var SeatKinds = []SeatKind{
	SeatJoined, SeatTakeover, SeatOnTime, SeatLate, SeatAbandoned,
	SeatDisorder, SeatResigned, SeatEjected, SeatFinished,
}

// SeatEvent is one entry of the seat log.
type SeatEvent struct {
	Addr  string    `json:"addr"` // the seat's holder then, lower case
	Game  string    `json:"game"`
	Power string    `json:"power"`
	Phase string    `json:"phase,omitempty"` // "S1901M"
	Kind  SeatKind  `json:"kind"`
	At    time.Time `json:"at"`
	// Gunboat marks an event of a gunboat game. Such events wait apart,
	// by game, until the game ends (ReleaseSeatEvents): a figure that
	// moved while the game ran would tell who holds which power.
	Gunboat bool `json:"gunboat,omitempty"`
}

// Tally counts an address's seat events by kind: the figures' inputs.
type Tally struct {
	Games     int `json:"games,omitempty"` // seats held: joined or taken over
	Finished  int `json:"finished,omitempty"`
	OnTime    int `json:"ontime,omitempty"`
	Late      int `json:"late,omitempty"`
	Abandoned int `json:"abandoned,omitempty"`
	Disorder  int `json:"cd,omitempty"`
	Resigned  int `json:"resigned,omitempty"`
	Ejected   int `json:"ejected,omitempty"`
}

// Add counts one event.
func (t *Tally) Add(k SeatKind) {
	switch k {
	case SeatJoined, SeatTakeover:
		t.Games++
	case SeatFinished:
		t.Finished++
	case SeatOnTime:
		t.OnTime++
	case SeatLate:
		t.Late++
	case SeatAbandoned:
		t.Abandoned++
	case SeatDisorder:
		t.Disorder++
	case SeatResigned:
		t.Resigned++
	case SeatEjected:
		t.Ejected++
	}
}

// Plus returns the sum of two tallies: a registration's over its
// addresses.
func (t Tally) Plus(u Tally) Tally {
	return Tally{
		Games: t.Games + u.Games, Finished: t.Finished + u.Finished,
		OnTime: t.OnTime + u.OnTime, Late: t.Late + u.Late,
		Abandoned: t.Abandoned + u.Abandoned, Disorder: t.Disorder + u.Disorder,
		Resigned: t.Resigned + u.Resigned, Ejected: t.Ejected + u.Ejected,
	}
}

// CountEvents returns the tally of a seat log: each event counted by
// Tally.Add, from nothing. It is the replay the running tallies must
// always agree with.
func CountEvents(evs []*SeatEvent) Tally {
	var t Tally
	for _, ev := range evs {
		t.Add(ev.Kind)
	}
	return t
}

// ErrTaken is returned by PutRegistrant for a name whose fold, or an
// address, that another registration holds.
var ErrTaken = errors.New("taken by another registration")

// The index keys of the registry: a folded name, an address.
func foldIndexKey(fold string) []byte { return append([]byte("n:"), fold...) }
func addrIndexKey(addr string) []byte { return append([]byte("a:"), nameKey(addr)...) }

// sealedID is an index value: the registration's ID, with a seal over
// the key and the ID, as a ledger entry's (a flipped bit in either
// would send a name or an address to another player).
func sealedID(key []byte, id uint64) []byte {
	v := binary.BigEndian.AppendUint64(nil, id)
	sealed := seal(append(bytes.Clone(key), v...))
	return append(v, sealed[len(sealed)-sealSize:]...)
}

// indexID reads an index value written by sealedID.
func indexID(key, v []byte) (uint64, error) {
	if len(v) != 8+sealSize || !bytes.Equal(sealedID(key, binary.BigEndian.Uint64(v)), v) {
		return 0, damaged(fmt.Errorf("registry index %q: %w", key, errChecksum))
	}
	return binary.BigEndian.Uint64(v), nil
}

// NewRegistrantID returns an ID no registration has had.
func (tx *Tx) NewRegistrantID() (uint64, error) {
	b, err := tx.bucket(bucketRegistry)
	if err != nil {
		return 0, err
	}
	return b.NextSequence()
}

// Registrant returns the registration with this ID, or an error wrapping
// ErrNotFound.
func (tx *Tx) Registrant(id uint64) (*Registrant, error) {
	b, err := tx.bucket(bucketRegistry)
	if err != nil {
		return nil, err
	}
	v := b.Get(idKey(id))
	if v == nil {
		return nil, fmt.Errorf("registration %d: %w", id, ErrNotFound)
	}
	r := new(Registrant)
	if err := decode(v, r); err != nil {
		return nil, fmt.Errorf("registration %d: %w", id, damaged(err))
	}
	return r, nil
}

// lookup returns the registration an index key names, or an error
// wrapping ErrNotFound.
func (tx *Tx) lookup(key []byte) (*Registrant, error) {
	idx, err := tx.bucket(bucketRegIndex)
	if err != nil {
		return nil, err
	}
	v := idx.Get(key)
	if v == nil {
		return nil, fmt.Errorf("registration %q: %w", key, ErrNotFound)
	}
	id, err := indexID(key, v)
	if err != nil {
		return nil, err
	}
	return tx.Registrant(id)
}

// RegistrantByAddr returns the registration that answers at addr (in
// any case), or answered there before it moved (the address is then
// among its Former), or an error wrapping ErrNotFound.
func (tx *Tx) RegistrantByAddr(addr string) (*Registrant, error) {
	return tx.lookup(addrIndexKey(addr))
}

// RegistrantByFold returns the registration whose name folds to fold,
// or an error wrapping ErrNotFound.
func (tx *Tx) RegistrantByFold(fold string) (*Registrant, error) {
	return tx.lookup(foldIndexKey(fold))
}

// PutRegistrant stores r and keeps the index: its fold and each of its
// addresses name it, and those of the stored record that r no longer
// has go. A fold or address another registration holds is refused with
// ErrTaken, and nothing is changed.
func (tx *Tx) PutRegistrant(r *Registrant) error {
	if r.ID == 0 || r.Fold == "" || r.Addr == "" {
		return errors.New("state: registration without an ID, a name or an address")
	}
	b, err := tx.bucket(bucketRegistry)
	if err != nil {
		return err
	}
	idx, err := tx.bucket(bucketRegIndex)
	if err != nil {
		return err
	}
	want := [][]byte{foldIndexKey(r.Fold)}
	for _, a := range r.Addrs() {
		want = append(want, addrIndexKey(a))
	}
	for _, k := range want {
		if v := idx.Get(k); v != nil {
			if id, err := indexID(k, v); err == nil && id != r.ID {
				return fmt.Errorf("%s: %w", k[2:], ErrTaken)
			}
		}
	}
	if old, err := tx.Registrant(r.ID); err == nil {
		if err := unindex(idx, old, want); err != nil {
			return err
		}
	}
	for _, k := range want {
		if err := idx.Put(k, sealedID(k, r.ID)); err != nil {
			return err
		}
	}
	data, err := encode(r)
	if err != nil {
		return fmt.Errorf("registration %d: %w", r.ID, err)
	}
	return b.Put(idKey(r.ID), data)
}

// unindex removes the index keys of old that are not in keep.
func unindex(idx *bbolt.Bucket, old *Registrant, keep [][]byte) error {
	drop := [][]byte{foldIndexKey(old.Fold)}
	for _, a := range old.Addrs() {
		drop = append(drop, addrIndexKey(a))
	}
	for _, k := range drop {
		kept := false
		for _, w := range keep {
			kept = kept || bytes.Equal(k, w)
		}
		if !kept {
			if err := idx.Delete(k); err != nil {
				return err
			}
		}
	}
	return nil
}

// DeleteRegistrant removes the registration with this ID and its index
// entries (FORGET ME). The seat logs of its addresses stay: they are the
// judge's record of the games, as the games' own records are.
func (tx *Tx) DeleteRegistrant(id uint64) error {
	r, err := tx.Registrant(id)
	if err != nil {
		return err
	}
	idx, err := tx.bucket(bucketRegIndex)
	if err != nil {
		return err
	}
	if err := unindex(idx, r, nil); err != nil {
		return err
	}
	b, err := tx.bucket(bucketRegistry)
	if err != nil {
		return err
	}
	return b.Delete(idKey(id))
}

// RegistrantsByFold returns the registrations whose folded name starts
// with prefix, in fold order, at most limit of them (limit > 0), and
// whether there were more: WHOIS's answer is bounded, whatever the
// prefix. It reads at most limit+1 index entries.
func (tx *Tx) RegistrantsByFold(prefix string, limit int) ([]*Registrant, bool, error) {
	idx, err := tx.bucket(bucketRegIndex)
	if err != nil {
		return nil, false, err
	}
	var out []*Registrant
	start := foldIndexKey(prefix)
	c := idx.Cursor()
	for k, v := c.Seek(start); k != nil && bytes.HasPrefix(k, start); k, v = c.Next() {
		if len(out) == limit {
			return out, true, nil
		}
		id, err := indexID(k, v)
		if err != nil {
			return nil, false, err
		}
		r, err := tx.Registrant(id)
		if err != nil {
			return nil, false, err
		}
		out = append(out, r)
	}
	return out, false, nil
}

// CountRegistrants returns how many registrations there are, reading
// every key (not the records): for gmd games and the tests.
func (tx *Tx) CountRegistrants() (int, error) {
	b, err := tx.bucket(bucketRegistry)
	if err != nil {
		return 0, err
	}
	n := 0
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	return n, nil
}

// AddSeatEvent records ev: in its address's seat log, with the address's
// tally, or, for a gunboat game's event, apart until the game ends.
func (tx *Tx) AddSeatEvent(ev *SeatEvent) error {
	if ev.Addr == "" || ev.Game == "" {
		return errors.New("state: seat event without an address or a game")
	}
	if ev.Gunboat {
		hold, err := tx.bucket(bucketSeatHold)
		if err != nil {
			return err
		}
		return appendEvent(hold, nameKey(ev.Game), ev)
	}
	return tx.logEvent(ev)
}

// logEvent appends ev to its address's seat log and counts it in the
// address's tally.
func (tx *Tx) logEvent(ev *SeatEvent) error {
	log, err := tx.bucket(bucketSeatLog)
	if err != nil {
		return err
	}
	key := nameKey(ev.Addr)
	if err := appendEvent(log, key, ev); err != nil {
		return err
	}
	t, err := tx.Tally(ev.Addr)
	if err != nil {
		return err
	}
	t.Add(ev.Kind)
	return tx.putTally(key, t)
}

// appendEvent appends ev to the nested bucket key of b.
func appendEvent(b *bbolt.Bucket, key []byte, ev *SeatEvent) error {
	nb, err := b.CreateBucketIfNotExists(key)
	if err != nil {
		return fmt.Errorf("seat log %s: %w", key, err)
	}
	seq, err := nb.NextSequence()
	if err != nil {
		return err
	}
	data, err := encode(ev)
	if err != nil {
		return err
	}
	return nb.Put(idKey(seq), data)
}

// ReleaseSeatEvents moves the held events of a gunboat game into their
// addresses' logs, in the order they happened; the game has ended.
func (tx *Tx) ReleaseSeatEvents(game string) error {
	hold, err := tx.bucket(bucketSeatHold)
	if err != nil {
		return err
	}
	key := nameKey(game)
	evs, err := events(hold, key)
	if err != nil || evs == nil {
		return err
	}
	for _, ev := range evs {
		if err := tx.logEvent(ev); err != nil {
			return err
		}
	}
	return hold.DeleteBucket(key)
}

// events reads the events of the nested bucket key of b, in order.
func events(b *bbolt.Bucket, key []byte) ([]*SeatEvent, error) {
	nb := b.Bucket(key)
	if nb == nil {
		return nil, nil
	}
	var out []*SeatEvent
	err := nb.ForEach(func(k, v []byte) error {
		ev := new(SeatEvent)
		if err := decode(v, ev); err != nil {
			return fmt.Errorf("seat log %s %x: %w", key, k, damaged(err))
		}
		out = append(out, ev)
		return nil
	})
	return out, err
}

// SeatEvents returns the seat log of addr (in any case), oldest first.
func (tx *Tx) SeatEvents(addr string) ([]*SeatEvent, error) {
	log, err := tx.bucket(bucketSeatLog)
	if err != nil {
		return nil, err
	}
	return events(log, nameKey(addr))
}

// HeldSeatEvents returns the events of a gunboat game still held until
// it ends.
func (tx *Tx) HeldSeatEvents(game string) ([]*SeatEvent, error) {
	hold, err := tx.bucket(bucketSeatHold)
	if err != nil {
		return nil, err
	}
	return events(hold, nameKey(game))
}

// Tally returns the running tally of addr's seat log: zero for an
// address without one.
func (tx *Tx) Tally(addr string) (Tally, error) {
	var t Tally
	b, err := tx.bucket(bucketTally)
	if err != nil {
		return t, err
	}
	if v := b.Get(nameKey(addr)); v != nil {
		if err := decode(v, &t); err != nil {
			return t, fmt.Errorf("tally %s: %w", addr, damaged(err))
		}
	}
	return t, nil
}

func (tx *Tx) putTally(key []byte, t Tally) error {
	b, err := tx.bucket(bucketTally)
	if err != nil {
		return err
	}
	data, err := encode(&t)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

// RebuildTallies makes every address's tally again from its seat log,
// and returns the addresses whose stored tally differed: the figures are
// never edited by hand, and can always be made again from the log.
func (tx *Tx) RebuildTallies() ([]string, error) {
	log, err := tx.bucket(bucketSeatLog)
	if err != nil {
		return nil, err
	}
	var keys [][]byte
	if err := log.ForEach(func(k, v []byte) error {
		if v == nil {
			keys = append(keys, bytes.Clone(k))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	var changed []string
	for _, k := range keys {
		evs, err := events(log, k)
		if err != nil {
			return nil, err
		}
		want := CountEvents(evs)
		if got, err := tx.Tally(string(k)); err != nil || got != want {
			changed = append(changed, string(k))
		}
		if err := tx.putTally(k, want); err != nil {
			return nil, err
		}
	}
	return changed, nil
}
