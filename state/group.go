package state

import (
	"errors"
	"fmt"
	"runtime/debug"

	"go.etcd.io/bbolt"
)

// A Group is a group commit: changes made one after another by one
// goroutine (the mail intake), each atomic on its own as with
// DB.Update, that share one write transaction and so one fsync. A mail
// costs one fsync when it has a transaction of its own; a burst of
// mails in groups costs what the CPU needs.
//
// Group.Update runs a change in the group's open transaction; the change
// is on disk only once Commit returns nil. Until then nothing that
// depends on it may be done (the mail flagged \Seen): a crash, or a
// Commit that fails, loses every change of the group since the last
// Commit, and each is done again when its mail is offered again.
//
// A change that fails (returns an error or panics) is undone alone,
// like bbolt's Batch: the transaction is rolled back, the changes made
// before it in the group are made again in a new one, which is
// committed at once, and the change's error is returned. So one mail's
// fault neither rolls back another's nor holds it; and no transaction
// stays open after a failure, so that what a caller does about it
// (bcrypt work, say) holds no lock. Every change given to Update must
// therefore give the same result when run again on the same database,
// as a change given to DB.Update does when its caller retries it.
//
// The open transaction holds the database's write lock: the other
// writers (the clock, the outbox) wait until Commit. A Group is for one
// goroutine; it is not safe for concurrent use.
//
// The transaction is bbolt's own DB.Update, run by a goroutine of the
// group's that takes the changes one by one: so a change that panics,
// or a commit that does, is rolled back as bbolt does it (reading the
// freelist again), and a damaged page is a *DamageError, the database
// wedged when bbolt lost its locks, exactly as with DB.Update.
type Group struct {
	db   *DB
	tx   *groupTx          // the open transaction; nil between commits
	done []func(*Tx) error // the changes made in tx, in order
	lost error             // why the changes since the last Commit are gone
}

// groupTx is the goroutine that holds a group's open transaction: it
// runs each change sent on calls, answering on made, until a nil change
// (commit) or one that fails; then it ends with the transaction's
// outcome on ended.
type groupTx struct {
	calls chan func(*Tx) error
	made  chan struct{}
	ended chan groupEnd
}

// groupEnd is how a group's transaction ended: err is the error of the
// change that failed or of the commit, raised a panic that was not a
// damaged page's.
type groupEnd struct {
	err      error
	raised   any
	panicked bool
}

// GroupPanic is what Group.Update and Commit raise for a panic of a
// change, which ran in the group's own goroutine: the value raised, and
// the stack where it was raised, for whoever fixes the bug.
type GroupPanic struct {
	Value any
	Stack []byte
}

// Error says what was raised, and where.
func (p *GroupPanic) Error() string {
	return fmt.Sprintf("%v (raised in a group commit's transaction at:\n%s)", p.Value, p.Stack)
}

// NewGroup returns an empty group commit on db.
func (db *DB) NewGroup() *Group { return &Group{db: db} }

// errGroupReplay is the error of a Commit after a change that had
// succeeded in the group failed when it was made again: the group's
// changes since the last Commit are lost, and must be offered again.
var errGroupReplay = errors.New("state: a change of the group commit failed when made again; the group was rolled back")

// errGroupEnd ends a group's transaction without committing it.
var errGroupEnd = errors.New("state: group transaction abandoned")

// Pending returns how many changes wait for Commit.
func (g *Group) Pending() int { return len(g.done) }

// Update runs fn as a change of the group, in the group's open
// transaction (beginning one if needed). If fn fails it is undone alone
// (see Group), and its error is returned; a damaged page is a
// *DamageError as with DB.Update, and any other panic is raised again,
// as a *GroupPanic, once the group is made whole. A nil error means fn
// is made, not yet committed.
func (g *Group) Update(fn func(*Tx) error) error {
	if e := g.db.wedged.Load(); e != nil {
		return e
	}
	end, ok := g.make(fn)
	if ok {
		g.done = append(g.done, fn)
		return nil
	}
	if rerr := g.replay(); rerr != nil && end.err == nil && !end.panicked {
		end.err = rerr
	}
	if end.panicked {
		panic(end.raised)
	}
	return end.err
}

// make runs fn in the open transaction, beginning one if needed. ok
// says it was made; if not, the transaction has ended, rolled back, as
// end says.
func (g *Group) make(fn func(*Tx) error) (end groupEnd, ok bool) {
	if g.tx == nil {
		g.tx = g.db.beginGroupTx()
	}
	t := g.tx
	t.calls <- fn
	select {
	case <-t.made:
		return groupEnd{}, true
	case end = <-t.ended:
		g.tx = nil
		if end.err == nil && !end.panicked {
			// A change cannot end a transaction well.
			end.err = errGroupEnd
		}
		return end, false
	}
}

// beginGroupTx starts the goroutine of a group's transaction.
func (db *DB) beginGroupTx() *groupTx {
	t := &groupTx{calls: make(chan func(*Tx) error), made: make(chan struct{}), ended: make(chan groupEnd, 1)}
	go func() {
		var end groupEnd
		func() {
			defer func() {
				// What guard let through is no damaged page's: the
				// caller raises it again, with the stack it came
				// from, which is this goroutine's.
				if v := recover(); v != nil {
					end.raised, end.panicked = &GroupPanic{Value: v, Stack: debug.Stack()}, true
				}
			}()
			defer db.guard(&end.err)
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			end.err = db.bolt.Update(func(btx *bbolt.Tx) error {
				for fn := range t.calls {
					if fn == nil {
						return nil // commit
					}
					if err := fn(&Tx{tx: btx}); err != nil {
						return err
					}
					t.made <- struct{}{}
				}
				return errGroupEnd
			})
		}()
		t.ended <- end
	}()
	return t
}

// replay makes the group's earlier changes again in a new transaction,
// after the one they were in was rolled back, and commits it. Its error
// is that of the new transaction; the changes are then lost, and Commit
// says so.
func (g *Group) replay() error {
	done := g.done
	g.done = nil
	for _, fn := range done {
		if _, ok := g.make(fn); !ok {
			g.lost = errGroupReplay
			return g.lost
		}
	}
	g.done = done
	return g.Commit()
}

// Commit writes the group's changes to disk in one transaction. An error
// means none of the changes since the last Commit were written (or a
// change failed to be made again, see Group), whichever Update returned.
func (g *Group) Commit() error {
	if g.lost != nil {
		err := g.lost
		g.lost = nil
		return err
	}
	t := g.tx
	if t == nil {
		return nil
	}
	g.tx, g.done = nil, nil
	t.calls <- nil
	end := <-t.ended
	if end.panicked {
		panic(end.raised)
	}
	return end.err
}
