package state

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// ErrDamaged is wrapped by every error that comes from a damaged part of
// the database: a record that does not decode, a bucket that is missing,
// or a page bbolt could not read. Such an error belongs to what was
// being read, not to the database as a whole: the other games, mails and
// records may well be sound, and a caller can go on with them. gmd check
// says what is damaged; the cure is the latest backup it finds sound.
var ErrDamaged = errors.New("the database is damaged: run gmd check, and restore the latest backup it finds sound")

// DamageError is a panic raised while bbolt read a damaged page, or a
// memory fault on a page that points outside the file, turned into an
// error by DB.Update or DB.View. It wraps ErrDamaged.
type DamageError struct {
	Path  string // the database file
	Value any    // what was raised: bbolt's message, or the runtime's fault
	Stack []byte // where, for the log
	// Wedged says that bbolt raised it while it held locks it had no
	// way left to release: the database is of no more use to this
	// process (see DB.Broken).
	Wedged bool
	// Unwritable says that bbolt raised it while it committed a write:
	// in its freelist or page allocation, or a page it rebalanced or
	// wrote back. That is no record's damage but the writing's, met by
	// every write from then on, and a freelist that is wrong may hand
	// out a page still in use: no write may be risked any more (see
	// DB.Broken). Reads still work.
	Unwritable bool
}

// Error names the file and what bbolt or the runtime said. The stack is
// left out: it is for whoever fixes gmd, and the log has it apart.
func (e *DamageError) Error() string {
	msg := fmt.Sprintf("%s: bbolt could not read a page (%v); %v", e.Path, e.Value, ErrDamaged)
	switch {
	case e.Wedged:
		msg += "; bbolt lost its locks with it: this process can no longer use the database"
	case e.Unwritable:
		msg += "; it was met while committing a write, so no write can be trusted: this process writes no more to the database"
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrDamaged) true.
func (e *DamageError) Unwrap() error { return ErrDamaged }

// guard is deferred by Update and View with the address of their error:
// it turns a panic that comes from a damaged page into a *DamageError,
// and lets every other panic go on. A bug in the function given to
// Update must still crash the caller as before; but bbolt trusts every
// page it reads and panics on one it cannot make sense of (or the
// process faults, reading through a pointer to nowhere), and that must
// cost the judge one mail or one game, not the daemon.
//
// bbolt's own deferred rollback has run by then, and with it the
// transaction's locks are released, so the database goes on working.
// (For what cannot be recovered this way, see docs/reliability.md,
// "A damaged page read late".)
//
// A panic raised while bbolt began a transaction or rolled one back is
// worse: bbolt does not release its locks on the way out of those, so
// every later transaction would wait for ever. It happens when both
// meta pages are damaged (read as each transaction begins; one damaged
// meta page bbolt survives), or when the freelist page is (read again to
// roll back a write transaction that failed in its commit). The database
// is then marked wedged: Update, View, Backup and Close return the error
// at once rather than wait, and Broken is closed, so that the daemon can
// stop and let its service manager start it again, which Open refuses
// with the damage named until a backup is restored.
func (db *DB) guard(err *error) {
	v := recover()
	if v == nil {
		return
	}
	origin, locked, committing := panicOrigin()
	if !damagePanic(v, origin) {
		panic(v)
	}
	e := &DamageError{Path: db.path, Value: v, Stack: debug.Stack(), Wedged: locked, Unwritable: committing && !locked}
	switch {
	case locked && db.wedged.CompareAndSwap(nil, e):
		db.brokenOnce.Do(func() { close(db.broken) })
	case e.Unwritable && db.unwritable.CompareAndSwap(nil, e):
		db.brokenOnce.Do(func() { close(db.broken) })
	}
	*err = e
}

// Broken returns a channel closed once the database is wedged (a damaged
// page made bbolt panic while it held locks it cannot release, so that
// no transaction can run in this process any more; every call then
// returns the *DamageError that wedged it) or unwritable (bbolt met the
// damage committing a write; every Update then returns that error at
// once, and reads still work). Either way the daemon must stop: it can
// record no mail.
func (db *DB) Broken() <-chan struct{} { return db.broken }

// Wedged returns the *DamageError that wedged the database or made it
// unwritable (see Broken), or nil.
func (db *DB) Wedged() error {
	if e := db.wedged.Load(); e != nil {
		return e
	}
	if e := db.unwritable.Load(); e != nil {
		return e
	}
	return nil
}

// commitFrame is bbolt's commit of a write transaction: a damaged page
// met below it makes the database unwritable (DamageError.Unwritable).
const commitFrame = "go.etcd.io/bbolt.(*Tx).Commit"

// lockingFrames are the bbolt functions that hold its locks across code
// that may panic on a damaged page without releasing them: a panic with
// one of them on its stack leaves the database wedged.
var lockingFrames = []string{
	"go.etcd.io/bbolt.(*DB).beginTx",
	"go.etcd.io/bbolt.(*DB).beginRWTx",
	"go.etcd.io/bbolt.(*Tx).rollback",
}

// damagePanic reports whether a panic whose value is v, raised in the
// function origin, comes from a damaged page: it was raised inside bbolt
// (its checks of a page, or an index out of range in its page code), or
// it is a memory fault at an address no nil pointer gives, which with
// debug.SetPanicOnFault is a read past the end of the mapped file.
func damagePanic(v any, origin string) bool {
	if e, ok := v.(interface{ Addr() uintptr }); ok && e.Addr() >= 4096 {
		return true
	}
	return strings.HasPrefix(origin, "go.etcd.io/bbolt")
}

// panicOrigin returns the function the panic being recovered was raised
// in: the first frame below runtime.gopanic that is not the runtime's
// own (an index check, a fault handler). locked reports whether one of
// lockingFrames is on the stack: a function that is still there when
// the panic is recovered did not finish, and its locks stay held.
// committing reports whether commitFrame is. It must be called from the
// deferred function that recovers the panic, whose stack still holds
// the frames of the panic.
func panicOrigin() (origin string, locked, committing bool) {
	pcs := make([]uintptr, 256)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && origin == "" && !strings.HasPrefix(f.Function, "runtime."):
			origin = f.Function
		}
		if slices.Contains(lockingFrames, f.Function) {
			locked = true
		}
		if f.Function == commitFrame {
			committing = true
		}
		if !more {
			return origin, locked, committing
		}
	}
}

// damaged wraps err, an error of decoding what the database holds, so
// that it says the database is damaged.
func damaged(err error) error { return fmt.Errorf("%w; %w", err, ErrDamaged) }
