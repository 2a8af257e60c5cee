package state

// TODO(S): the bbolt implementation. The API below is the contract the
// rest of gmd codes against.

import (
	"errors"
	"io"
	"time"
)

// ErrNotFound is returned for a game, phase or record that is not there.
var ErrNotFound = errors.New("not found")

// DB is an open gmd database.
type DB struct{}

// Tx is a transaction on the database.
type Tx struct{}

// Open opens (creating if needed) the database at path.
func Open(path string) (*DB, error) { panic("TODO(S)") }

// Close closes the database.
func (db *DB) Close() error { panic("TODO(S)") }

// Update runs fn in a read-write transaction, committed if fn returns nil.
func (db *DB) Update(fn func(*Tx) error) error { panic("TODO(S)") }

// View runs fn in a read-only transaction.
func (db *DB) View(fn func(*Tx) error) error { panic("TODO(S)") }

// Backup writes a consistent copy of the database to w.
func (db *DB) Backup(w io.Writer) (int64, error) { panic("TODO(S)") }

// Game returns the game named name (lower case), or ErrNotFound.
func (tx *Tx) Game(name string) (*Game, error) { panic("TODO(S)") }

// PutGame stores g (and keeps the wake index).
func (tx *Tx) PutGame(g *Game) error { panic("TODO(S)") }

// ForEachGame calls fn for every game in name order.
func (tx *Tx) ForEachGame(fn func(*Game) error) error { panic("TODO(S)") }

// Due returns the names of the games whose Wake is set and not after now.
func (tx *Tx) Due(now time.Time) ([]string, error) { panic("TODO(S)") }

// PutPhase stores a processed phase of game.
func (tx *Tx) PutPhase(game string, rec *PhaseRecord) error { panic("TODO(S)") }

// Phases returns the processed phases of game in turn order.
func (tx *Tx) Phases(game string) ([]*PhaseRecord, error) { panic("TODO(S)") }

// DeletePhasesFrom removes the history records of game from turn on.
func (tx *Tx) DeletePhasesFrom(game string, turn int) error { panic("TODO(S)") }

// User returns the user with this address, or ErrNotFound.
func (tx *Tx) User(addr string) (*User, error) { panic("TODO(S)") }

// PutUser stores u.
func (tx *Tx) PutUser(u *User) error { panic("TODO(S)") }

// Seen reports whether a mail ledger key is recorded.
func (tx *Tx) Seen(key string) (bool, error) { panic("TODO(S)") }

// MarkSeen records a mail ledger key.
func (tx *Tx) MarkSeen(key string, at time.Time) error { panic("TODO(S)") }

// NextID returns a new number from the judge-wide sequence.
func (tx *Tx) NextID() (uint64, error) { panic("TODO(S)") }

// Enqueue adds m to the outbox, setting m.ID.
func (tx *Tx) Enqueue(m *OutMail) error { panic("TODO(S)") }

// Outbox returns up to limit queued mails in ID order (all if limit <= 0).
func (tx *Tx) Outbox(limit int) ([]*OutMail, error) { panic("TODO(S)") }

// PutOutMail rewrites a queued mail (its attempts, next try, failure).
func (tx *Tx) PutOutMail(m *OutMail) error { panic("TODO(S)") }

// DeleteOutMail removes a mail from the outbox once the server took it.
func (tx *Tx) DeleteOutMail(id uint64) error { panic("TODO(S)") }

// Meta returns a judge-wide value (nil if unset), such as the IMAP
// UIDVALIDITY and last UID.
func (tx *Tx) Meta(key string) ([]byte, error) { panic("TODO(S)") }

// PutMeta sets a judge-wide value.
func (tx *Tx) PutMeta(key string, value []byte) error { panic("TODO(S)") }
