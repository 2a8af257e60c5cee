package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"go.etcd.io/bbolt"
)

// CheckError lists the problems DB.Check found.
type CheckError struct {
	Path     string
	Problems []string
}

// Error lists the problems one to a line, after a line naming the file.
func (e *CheckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problem", e.Path, len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteByte('s')
	}
	for _, p := range e.Problems {
		b.WriteString("\n\t")
		b.WriteString(p)
	}
	return b.String()
}

// maxProblems bounds the list in a CheckError: past that, the file is
// damaged enough that more lines would not help.
const maxProblems = 100

// checker collects problems.
type checker struct {
	problems []string
	more     int // problems not listed
}

func (c *checker) addf(format string, args ...any) {
	if len(c.problems) >= maxProblems {
		c.more++
		return
	}
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// Check reads the whole database and returns a *CheckError listing what
// is wrong, or nil: the page check (CheckPages), then every record decoded,
// every key agreeing with its record, the wake index agreeing with the
// games, and history only for games that exist. A page so damaged that
// bbolt panics on it is a problem of the part that reads it, and the
// other parts are still checked. It runs in a read transaction and
// changes nothing.
func (db *DB) Check() error {
	var c checker
	err := db.bolt.View(func(tx *bbolt.Tx) error {
		c.pagesOf(db, tx)
		// A damaged page may point outside the file; the guards of
		// c.check catch the fault too.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		c.check(tx)
		return nil
	})
	if err != nil {
		return err
	}
	return c.result(db.path)
}

// CheckPages is the part of Check that reads the pages of the file
// rather than the records: both meta pages, every page of the tree
// reachable once, the freelist, keys in order (see pages.go). It reads
// each page once, without decoding a record, and reads the file with
// ReadAt, so that a damaged page is an error and never a fault. gmd run
// calls it before it takes any mail, and refuses a file it finds
// damaged. It returns a *CheckError, or nil.
func (db *DB) CheckPages() error {
	var c checker
	err := db.bolt.View(func(tx *bbolt.Tx) error {
		c.pagesOf(db, tx)
		return nil
	})
	if err != nil {
		return err
	}
	return c.result(db.path)
}

// pagesOf runs the page check of db as tx sees it.
func (c *checker) pagesOf(db *DB, tx *bbolt.Tx) {
	size := db.bolt.Info().PageSize
	c.checkPages(db.path, size, uint64(tx.ID()), uint64(tx.Cursor().Bucket().Root()), uint64(tx.Size())/uint64(size))
}

// result is the *CheckError of what c found, or nil.
func (c *checker) result(path string) error {
	if c.more > 0 {
		c.problems = append(c.problems, fmt.Sprintf("and %d more", c.more))
	}
	if len(c.problems) > 0 {
		return &CheckError{Path: path, Problems: c.problems}
	}
	return nil
}

// guard runs one part of the check, turning bbolt's panic on a damaged
// page (or the fault, with SetPanicOnFault) into a problem, so that the
// other parts are still checked.
func (c *checker) guard(part string, fn func()) {
	defer func() {
		if v := recover(); v != nil {
			c.addf("%s: cannot be read: %v", part, v)
		}
	}()
	fn()
}

func (c *checker) check(tx *bbolt.Tx) {
	known := make(map[string]bool)
	for _, name := range allBuckets {
		known[string(name)] = true
	}
	c.guard("buckets", func() {
		for _, name := range allBuckets {
			if tx.Bucket(name) == nil {
				c.addf("bucket %s missing", name)
			}
		}
		_ = tx.ForEach(func(name []byte, _ *bbolt.Bucket) error {
			if !known[string(name)] {
				c.addf("unknown bucket %q", name)
			}
			return nil
		})
	})

	schema := -1
	c.guard("meta", func() {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			return
		}
		if !bytes.Equal(meta.Get(metaFormat), formatMarker) {
			c.addf("meta: no gmd marker")
		}
		if v, err := schemaOf(tx, ""); err == nil {
			schema = v
			if v != currentSchema() {
				c.addf("meta: schema %d, want %d", v, currentSchema())
			}
		} else {
			c.addf("meta: %v", err)
		}
	})
	c.guard("settings", func() {
		b := tx.Bucket(bucketSettings)
		if b == nil {
			return
		}
		var s Settings
		if v := b.Get(settingsKey); v == nil {
			c.addf("settings: record missing")
		} else if err := decode(v, &s); err != nil {
			c.addf("settings: %v", err)
		} else if schema >= 0 && s.SchemaVersion != schema {
			c.addf("settings: schema %d, meta says %d", s.SchemaVersion, schema)
		}
	})

	var wakes map[string][]byte
	c.guard("users", func() { c.checkUsers(tx.Bucket(bucketUsers)) })
	c.guard("games", func() { wakes = c.checkGames(tx.Bucket(bucketGames)) })
	if wakes != nil {
		// Without the games, the index and the history cannot be
		// checked against them.
		c.guard("wake", func() { c.checkWake(tx.Bucket(bucketWake), wakes) })
		c.guard("history", func() { c.checkHistory(tx.Bucket(bucketHistory), wakes) })
		c.guard("press", func() { c.checkPress(tx.Bucket(bucketPress), wakes) })
	}
	c.guard("outbox", func() { c.checkOutbox(tx.Bucket(bucketOutbox)) })
	c.guard("ledger", func() { c.checkLedger(tx.Bucket(bucketLedger)) })
	c.guard("held", func() { c.checkHeld(tx.Bucket(bucketHeld)) })
	c.guard("registry", func() { c.checkRegistry(tx.Bucket(bucketRegistry), tx.Bucket(bucketRegIndex)) })
	c.guard("seat log", func() { c.checkSeatLog(tx.Bucket(bucketSeatLog), tx.Bucket(bucketTally)) })
}

// checkRegistry checks the registrations and that each index entry
// names one that is there.
func (c *checker) checkRegistry(reg, idx *bbolt.Bucket) {
	if reg == nil || idx == nil {
		return
	}
	_ = reg.ForEach(func(k, v []byte) error {
		var r Registrant
		if v == nil {
			c.addf("registry: %x is a bucket", k)
		} else if err := decode(v, &r); err != nil {
			c.addf("registration %s: %v", idName(k), err)
		} else if !bytes.Equal(k, idKey(r.ID)) {
			c.addf("registration %s: stored under the wrong key (ID %d)", idName(k), r.ID)
		}
		return nil
	})
	_ = idx.ForEach(func(k, v []byte) error {
		if id, err := indexID(k, v); err != nil {
			c.addf("%v", err)
		} else if reg.Get(idKey(id)) == nil {
			c.addf("registry index %q: names registration %d, which is not there", k, id)
		}
		return nil
	})
}

// checkSeatLog checks the seat logs, and that each address's running
// tally is the one its log makes (CountEvents).
func (c *checker) checkSeatLog(log, tally *bbolt.Bucket) {
	if log == nil || tally == nil {
		return
	}
	_ = log.ForEach(func(k, v []byte) error {
		if v != nil {
			c.addf("seat log: %q is not a bucket", k)
			return nil
		}
		evs, err := events(log, k)
		if err != nil {
			c.addf("%v", err)
			return nil
		}
		var got Tally
		if tv := tally.Get(k); tv == nil {
			c.addf("tally %s: missing", k)
		} else if err := decode(tv, &got); err != nil {
			c.addf("tally %s: %v", k, err)
		} else if want := CountEvents(evs); got != want {
			c.addf("tally %s: %+v, its seat log makes %+v", k, got, want)
		}
		return nil
	})
}

func (c *checker) checkHeld(b *bbolt.Bucket) {
	if b == nil {
		return
	}
	seq := b.Sequence()
	_ = b.ForEach(func(k, v []byte) error {
		var h HeldMail
		if v == nil {
			c.addf("held: %q is a bucket", k)
		} else if err := decode(v, &h); err != nil {
			c.addf("held mail %s: %v", idName(k), err)
		} else if !bytes.Equal(k, idKey(h.ID)) {
			c.addf("held mail %d stored under key %x", h.ID, k)
		} else if h.ID > seq {
			c.addf("held mail %d is beyond the sequence (%d)", h.ID, seq)
		}
		return nil
	})
}

func (c *checker) checkUsers(b *bbolt.Bucket) {
	if b == nil {
		return
	}
	_ = b.ForEach(func(k, v []byte) error {
		var u User
		if v == nil {
			c.addf("users: %q is a bucket", k)
		} else if err := decode(v, &u); err != nil {
			c.addf("user %s: %v", k, err)
		} else if !bytes.Equal(k, nameKey(u.Addr)) {
			c.addf("user %s: stored under the wrong key (address %q)", k, u.Addr)
		}
		return nil
	})
}

// checkGames checks the game records and returns the wake index key each
// game should have (nil for none), by game key.
func (c *checker) checkGames(b *bbolt.Bucket) map[string][]byte {
	wakes := make(map[string][]byte)
	if b == nil {
		return wakes
	}
	_ = b.ForEach(func(k, v []byte) error {
		var g Game
		if v == nil {
			c.addf("games: %q is a bucket", k)
			return nil
		}
		wakes[string(k)] = nil
		if err := decode(v, &g); err != nil {
			c.addf("game %s: %v", k, err)
			return nil
		}
		if !bytes.Equal(k, nameKey(g.Name)) {
			c.addf("game %s: stored under the wrong key (name %q)", k, g.Name)
		}
		if len(g.Position) > 0 && !json.Valid(g.Position) {
			c.addf("game %s: position is not valid JSON", k)
		}
		wakes[string(k)] = wakeKey(g.Wake, k)
		return nil
	})
	return wakes
}

func (c *checker) checkWake(b *bbolt.Bucket, wakes map[string][]byte) {
	if b == nil {
		return
	}
	indexed := make(map[string]bool)
	_ = b.ForEach(func(k, _ []byte) error {
		if len(k) <= 8 {
			c.addf("wake: key %x too short", k)
			return nil
		}
		name := string(k[8:])
		when := decodeTime(k[:8]).Format(time.RFC3339Nano)
		want, ok := wakes[name]
		switch {
		case !ok:
			c.addf("wake: %s at %s: no such game", name, when)
		case !bytes.Equal(k, want):
			c.addf("wake: %s at %s: the game does not wake then", name, when)
		default:
			indexed[name] = true
		}
		return nil
	})
	for name, want := range wakes {
		if want != nil && !indexed[name] {
			c.addf("wake: game %s wakes at %s but is not in the index", name, decodeTime(want[:8]).Format(time.RFC3339Nano))
		}
	}
}

func (c *checker) checkHistory(b *bbolt.Bucket, games map[string][]byte) {
	if b == nil {
		return
	}
	_ = b.ForEach(func(name, v []byte) error {
		if v != nil {
			c.addf("history: %q is not a bucket", name)
			return nil
		}
		if _, ok := games[string(name)]; !ok {
			c.addf("history: %s: no such game", name)
		}
		return b.Bucket(name).ForEach(func(k, v []byte) error {
			var rec PhaseRecord
			if len(k) != 8 {
				c.addf("history %s: key %x is not a turn", name, k)
			} else if v == nil {
				c.addf("history %s: turn %x is a bucket", name, k)
			} else if err := decode(v, &rec); err != nil {
				c.addf("history %s turn %x: %v", name, k, err)
			} else if rec.Turn < 0 || !bytes.Equal(k, turnKey(rec.Turn)) {
				c.addf("history %s: turn %d stored under key %x", name, rec.Turn, k)
			}
			return nil
		})
	})
}

func (c *checker) checkPress(b *bbolt.Bucket, games map[string][]byte) {
	if b == nil {
		return
	}
	_ = b.ForEach(func(name, v []byte) error {
		if v != nil {
			c.addf("press: %q is not a bucket", name)
			return nil
		}
		if _, ok := games[string(name)]; !ok {
			c.addf("press: %s: no such game", name)
		}
		return b.Bucket(name).ForEach(func(k, v []byte) error {
			var p Press
			if len(k) != 16 {
				c.addf("press %s: key %x is not a turn and a number", name, k)
			} else if v == nil {
				c.addf("press %s: %x is a bucket", name, k)
			} else if err := decode(v, &p); err != nil {
				c.addf("press %s %x: %v", name, k, err)
			}
			return nil
		})
	})
}

func (c *checker) checkOutbox(b *bbolt.Bucket) {
	if b == nil {
		return
	}
	seq := b.Sequence()
	_ = b.ForEach(func(k, v []byte) error {
		var m OutMail
		if v == nil {
			c.addf("outbox: %q is a bucket", k)
		} else if err := decode(v, &m); err != nil {
			c.addf("outbox mail %x: %v", k, err)
		} else if !bytes.Equal(k, idKey(m.ID)) {
			c.addf("outbox mail %d stored under key %x", m.ID, k)
		} else if m.ID > seq {
			// Enqueue would hand out this ID again and overwrite it.
			c.addf("outbox mail %d is beyond the sequence (%d)", m.ID, seq)
		}
		return nil
	})
}

func (c *checker) checkLedger(b *bbolt.Bucket) {
	if b == nil {
		return
	}
	_ = b.ForEach(func(k, v []byte) error {
		if _, err := ledgerTime(k, v); err != nil {
			c.addf("ledger %q: %v", k, err)
		}
		return nil
	})
}
