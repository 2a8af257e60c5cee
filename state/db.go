package state

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// ErrNotFound is returned for a game, phase or record that is not there.
var ErrNotFound = errors.New("not found")

// lockTimeout is how long Open waits for another process to let go of
// the database. bbolt would wait forever by default, and a second gmd
// started by mistake should say so rather than hang. A variable so that
// tests need not wait a full second.
var lockTimeout = time.Second

// DB is an open gmd database.
type DB struct {
	bolt *bbolt.DB
	path string

	// wedged is set, and broken closed, once a damaged page made bbolt
	// panic where it cannot recover its own locks; unwritable, once it
	// panicked committing a write (see DB.guard).
	wedged     atomic.Pointer[DamageError]
	unwritable atomic.Pointer[DamageError]
	broken     chan struct{}
	brokenOnce sync.Once
}

// Tx is a transaction on the database. It is valid only inside the
// function given to DB.Update or DB.View.
type Tx struct {
	tx *bbolt.Tx

	queued int // recipient addresses of the mails Enqueue queued
}

// Open opens (creating if needed) the database at path. A missing file
// becomes a new gmd database; one written by an older gmd is migrated to
// the current schema. Open fails on a file that is not a gmd database, on
// one written by a newer gmd, on one found damaged (empty, cut short, or
// a bad page among those it reads: the meta pages, the freelist, the
// first pages of the tree; DB.Check reads the rest), and, after waiting a
// second, on one another process has open.
//
// An empty file is damage, not a new database: bbolt writes a new file's
// pages as it creates it, so an empty one is a copy or a restore that
// went wrong, and taking it for a new judge would lose the games.
func Open(path string) (*DB, error) { return open(path, false) }

// OpenExisting is Open for a database that must be there already: a
// missing file is an error wrapping fs.ErrNotExist, not a new database.
// Commands that are not meant to create a judge use it, so that a
// mistyped path or a lost file is not taken for a new judge.
func OpenExisting(path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open database: %w (gmd init creates a new one)", err)
	}
	return open(path, false)
}

// Create makes a new, empty gmd database at path, which must not exist
// yet, and returns it open.
func Create(path string) (*DB, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create database: %w", err)
	}
	f.Close()
	// bbolt makes a database of an empty file it creates, not of one it
	// finds: let it create this one.
	if err := os.Remove(path); err != nil {
		return nil, fmt.Errorf("create database: %w", err)
	}
	return open(path, false)
}

// OpenReadOnly opens an existing database without changing it, for
// inspection (gmd check). It fails on a database whose schema is not the
// current one rather than read it wrongly. Other processes may open the
// same file read-only at the same time, but not read-write.
func OpenReadOnly(path string) (*DB, error) { return open(path, true) }

func open(path string, readOnly bool) (*DB, error) {
	// bbolt takes an empty file for a new database and writes its first
	// pages, which a read-only file refuses: "bad file descriptor" would
	// tell the admin nothing.
	if err := empty(path); err != nil {
		return nil, err
	}
	if !readOnly {
		if err := precheck(path); err != nil {
			return nil, err
		}
	}
	bdb, err := boltOpen(path, readOnly, false)
	if err != nil {
		return nil, err
	}
	if readOnly {
		if err := truncated(path, bdb); err != nil {
			bdb.Close()
			return nil, err
		}
	}
	db := &DB{bolt: bdb, path: path, broken: make(chan struct{})}
	if err := db.prepareOrDamage(readOnly); err != nil {
		bdb.Close()
		return nil, err
	}
	return db, nil
}

// precheck looks at an existing file read-only before it is opened
// read-write. A read-write bbolt reads the freelist page as it opens the
// file, before anyone can check that the file holds that page (see
// truncated), and panics if the page is damaged; a panic inside
// bbolt.Open leaves the file open, with its lock. Here that is a shared
// lock, taken for a file the caller gives up on. A missing file is left
// to Open, which makes it a database; an empty one open has refused.
func precheck(path string) error {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	bdb, err := boltOpen(path, true, false)
	if err != nil {
		return err
	}
	err = truncated(path, bdb)
	bdb.Close()
	if err != nil {
		return err
	}
	if bdb, err = boltOpen(path, true, true); err != nil {
		return err
	}
	return bdb.Close()
}

// empty refuses an existing regular file of 0 bytes, for every way of
// opening it: it is damage, not a new database (see Open).
func empty(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Size() == 0 && fi.Mode().IsRegular() {
		return fmt.Errorf("%s is empty (0 bytes), not a gmd database: it is damaged, or a copy that went wrong; "+
			"restore the latest backup gmd check finds sound, or remove the file and run gmd init for a new judge", path)
	}
	return nil
}

// boltOpen opens the bbolt file at path, reading its freelist page at
// once if preload is set. bbolt panics on a damaged freelist page, and a
// page that points outside the file makes it fault; both become an
// error.
func boltOpen(path string, readOnly, preload bool) (bdb *bbolt.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if v := recover(); v != nil {
			bdb, err = nil, fmt.Errorf("%s is damaged: %v", path, v)
		}
	}()
	bdb, err = bbolt.Open(path, 0o600, &bbolt.Options{Timeout: lockTimeout, ReadOnly: readOnly, PreLoadFreelist: preload})
	if err != nil {
		return nil, openError(path, err)
	}
	return bdb, nil
}

// prepareOrDamage is prepare, which reads the first pages past the meta
// pages, with bbolt's panic on a damaged page, or a fault on one that
// points outside the file, turned into an error. bbolt rolls its
// transaction back as the panic goes by, so the file can still be closed.
func (db *DB) prepareOrDamage(readOnly bool) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%s is damaged: %v", db.path, v)
		}
	}()
	return db.prepare(readOnly)
}

// truncated reports an error if the file of bdb is shorter than its
// pages say it is: a copy cut short, or a file cut by a full disk or a
// damaged file system. bbolt reads its pages through a memory map, and
// reading a page past the end of the file kills the process (SIGBUS)
// rather than return an error, so this must be known before any page
// beyond the two meta pages, which bbolt has checked, is read.
func truncated(path string, bdb *bbolt.DB) error {
	var want int64
	if err := bdb.View(func(tx *bbolt.Tx) error { want = tx.Size(); return nil }); err != nil {
		return openError(path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	if fi.Size() < want {
		return fmt.Errorf("%s is damaged: it is %d bytes long, but its pages need %d (cut short?)", path, fi.Size(), want)
	}
	return nil
}

// openError turns what bbolt.Open returns into a message that tells the
// admin what is wrong with which file.
func openError(path string, err error) error {
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return fmt.Errorf("open %s: database is locked by another gmd process? (%w after %v)", path, err, lockTimeout)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum),
		// bbolt has no error value for a file shorter than its two meta
		// pages, only this text.
		strings.HasPrefix(err.Error(), "file size too small"):
		return fmt.Errorf("%s is not a gmd database, or is damaged (%w)", path, err)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("open database: %w", err) // names the file already
	}
	return fmt.Errorf("open database %s: %w", path, err)
}

// Path returns the file the database was opened from.
func (db *DB) Path() string { return db.path }

// Close closes the database. A wedged database (see Broken) cannot be
// closed, as bbolt would wait for its lost locks for ever: Close returns
// an error at once, and the file is closed when the process exits.
func (db *DB) Close() error {
	if e := db.wedged.Load(); e != nil {
		return fmt.Errorf("%s is left open: %w", db.path, e)
	}
	return db.bolt.Close()
}

// Update runs fn in a read-write transaction, committed if fn returns nil.
// If fn returns an error or panics, nothing it did is written, sequence
// numbers included. Only one Update runs at a time.
//
// A damaged page that bbolt meets on the way, in fn or in the commit,
// makes Update return a *DamageError (wrapping ErrDamaged) rather than
// panic; any other panic reaches the caller. Once one was met in a
// commit, every Update returns it at once (see DB.Broken).
func (db *DB) Update(fn func(*Tx) error) (err error) {
	if e := db.Wedged(); e != nil {
		return e
	}
	defer db.guard(&err)
	// A page that points past the end of the file is a memory fault, not
	// a panic, unless the goroutine asks for one.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return db.bolt.Update(func(btx *bbolt.Tx) error { return fn(&Tx{tx: btx}) })
}

// OnCommit runs fn once tx is committed, and never if it is rolled back
// (or is a View): for what must follow only a change that is on disk,
// such as logging it.
func (tx *Tx) OnCommit(fn func()) { tx.tx.OnCommit(fn) }

// View runs fn in a read-only transaction. It sees the database as it was
// when it began, whatever Updates commit meanwhile. A damaged page is an
// error, as for Update.
func (db *DB) View(fn func(*Tx) error) (err error) {
	if e := db.wedged.Load(); e != nil {
		return e
	}
	defer db.guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return db.bolt.View(func(btx *bbolt.Tx) error { return fn(&Tx{tx: btx}) })
}

// Backup writes a consistent copy of the database to w. It runs in a read
// transaction, so the judge goes on working while it copies.
func (db *DB) Backup(w io.Writer) (int64, error) {
	if e := db.wedged.Load(); e != nil {
		return 0, e
	}
	var n int64
	err := db.bolt.View(func(btx *bbolt.Tx) error {
		var err error
		n, err = btx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a consistent copy of the database to the file path,
// replacing it only once the copy is complete and on disk: the copy goes
// to path.tmp first and is renamed, so a crash never leaves a half
// written backup under the real name.
func (db *DB) BackupFile(path string) error {
	// Renaming a copy over the live database would swap the file under
	// the open bbolt handle; refuse.
	if fi, err := os.Stat(path); err == nil {
		if self, err := os.Stat(db.path); err == nil && os.SameFile(fi, self) {
			return fmt.Errorf("backup to %s: that is the database itself", path)
		}
	}
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	_, err = db.Backup(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	// The rename is durable only once the directory is synced.
	if err := syncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return nil
}

// syncDir flushes a directory's entries to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// bucket returns a top-level bucket. Open guarantees they all exist; the
// error is for a file changed behind gmd's back, which should not panic
// the judge.
func (tx *Tx) bucket(name []byte) (*bbolt.Bucket, error) {
	if b := tx.tx.Bucket(name); b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("state: database has no %s bucket: %w", name, ErrDamaged)
}

// Game returns the game named name (in any case), or an error wrapping
// ErrNotFound.
func (tx *Tx) Game(name string) (*Game, error) {
	games, err := tx.bucket(bucketGames)
	if err != nil {
		return nil, err
	}
	v := games.Get(nameKey(name))
	if v == nil {
		return nil, fmt.Errorf("game %s: %w", name, ErrNotFound)
	}
	g := new(Game)
	if err := decode(v, g); err != nil {
		return nil, fmt.Errorf("game %s: %w", name, damaged(err))
	}
	return g, nil
}

// PutGame stores g under its name in lower case, and keeps the wake
// index: the entry for the stored game's Wake goes, one for g.Wake comes
// if it is set.
func (tx *Tx) PutGame(g *Game) error {
	key := nameKey(g.Name)
	if len(key) == 0 {
		return errors.New("state: game without a name")
	}
	games, err := tx.bucket(bucketGames)
	if err != nil {
		return err
	}
	wake, err := tx.bucket(bucketWake)
	if err != nil {
		return err
	}
	data, err := encode(g)
	if err != nil {
		return fmt.Errorf("game %s: %w", g.Name, err)
	}

	newKey := wakeKey(g.Wake, key)
	if old := games.Get(key); old != nil {
		var stored struct {
			Wake time.Time `json:"wake"`
		}
		if err := decode(old, &stored); err != nil {
			// The stored record is damaged; drop whatever the index
			// holds for the game so that the new record can repair it.
			if err := unindexWake(wake, key); err != nil {
				return err
			}
		} else if oldKey := wakeKey(stored.Wake, key); !bytes.Equal(oldKey, newKey) && oldKey != nil {
			if err := wake.Delete(oldKey); err != nil {
				return err
			}
		}
	}
	if newKey != nil {
		if err := wake.Put(newKey, []byte{}); err != nil {
			return err
		}
	}
	return games.Put(key, data)
}

// DeleteGame removes the game named name, its wake index entry, its
// history and its press. It returns an error wrapping ErrNotFound if there is no such
// game.
func (tx *Tx) DeleteGame(name string) error {
	key := nameKey(name)
	games, err := tx.bucket(bucketGames)
	if err != nil {
		return err
	}
	if games.Get(key) == nil {
		return fmt.Errorf("game %s: %w", name, ErrNotFound)
	}
	wake, err := tx.bucket(bucketWake)
	if err != nil {
		return err
	}
	if err := unindexWake(wake, key); err != nil {
		return err
	}
	hist, err := tx.bucket(bucketHistory)
	if err != nil {
		return err
	}
	if hist.Bucket(key) != nil {
		if err := hist.DeleteBucket(key); err != nil {
			return err
		}
	}
	press, err := tx.bucket(bucketPress)
	if err != nil {
		return err
	}
	if err := deletePress(press, key); err != nil {
		return err
	}
	return games.Delete(key)
}

// unindexWake removes every wake index entry of the game with the given
// key. It reads the whole index, which is one entry per waiting game.
func unindexWake(wake *bbolt.Bucket, key []byte) error {
	var found [][]byte
	c := wake.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) > 8 && bytes.Equal(k[8:], key) {
			found = append(found, bytes.Clone(k))
		}
	}
	for _, k := range found {
		if err := wake.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// ForEachGame calls fn for every game in name order, stopping at the
// first error, which it returns. fn may change the database, PutGame
// included; a game it adds is visited if its name sorts after the
// current one.
func (tx *Tx) ForEachGame(fn func(*Game) error) error {
	games, err := tx.bucket(bucketGames)
	if err != nil {
		return err
	}
	c := games.Cursor()
	for k, v := c.First(); k != nil; {
		if v == nil { // a nested bucket: not a game
			k, v = c.Next()
			continue
		}
		g := new(Game)
		if err := decode(v, g); err != nil {
			return fmt.Errorf("game %s: %w", k, damaged(err))
		}
		// fn may write to the bucket, which invalidates the cursor and
		// the memory k points to; find the place again afterwards.
		key := bytes.Clone(k)
		if err := fn(g); err != nil {
			return err
		}
		k, v = c.Seek(key)
		if bytes.Equal(k, key) {
			k, v = c.Next()
		}
	}
	return nil
}

// GameNames returns the keys of every stored game in name order,
// without decoding the records: a damaged record does not hide the
// others.
func (tx *Tx) GameNames() ([]string, error) {
	games, err := tx.bucket(bucketGames)
	if err != nil {
		return nil, err
	}
	var names []string
	c := games.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v != nil {
			names = append(names, string(k))
		}
	}
	return names, nil
}

// Due returns the names of the games whose Wake is set and not after now,
// the earliest first.
func (tx *Tx) Due(now time.Time) ([]string, error) {
	wake, err := tx.bucket(bucketWake)
	if err != nil {
		return nil, err
	}
	end := encodeTime(now)
	var names []string
	seen := make(map[string]bool)
	c := wake.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:min(len(k), 8)], end[:]) <= 0; k, _ = c.Next() {
		if len(k) <= 8 {
			continue // damaged; gmd check reports it
		}
		name := string(k[8:])
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return names, nil
}

// PutPhase stores a processed phase of game under rec.Turn, replacing any
// record of the same turn.
func (tx *Tx) PutPhase(game string, rec *PhaseRecord) error {
	key := nameKey(game)
	if len(key) == 0 {
		return errors.New("state: phase of a game without a name")
	}
	if rec.Turn < 0 {
		return fmt.Errorf("game %s: phase %s has negative turn %d", game, rec.Phase, rec.Turn)
	}
	hist, err := tx.bucket(bucketHistory)
	if err != nil {
		return err
	}
	b, err := hist.CreateBucketIfNotExists(key)
	if err != nil {
		return fmt.Errorf("game %s history: %w", game, err)
	}
	data, err := encode(rec)
	if err != nil {
		return fmt.Errorf("game %s phase %s: %w", game, rec.Phase, err)
	}
	return b.Put(turnKey(rec.Turn), data)
}

// Phases returns the processed phases of game in turn order; none for a
// game without history.
func (tx *Tx) Phases(game string) ([]*PhaseRecord, error) {
	hist, err := tx.bucket(bucketHistory)
	if err != nil {
		return nil, err
	}
	b := hist.Bucket(nameKey(game))
	if b == nil {
		return nil, nil
	}
	var recs []*PhaseRecord
	err = b.ForEach(func(k, v []byte) error {
		rec := new(PhaseRecord)
		if err := decode(v, rec); err != nil {
			return fmt.Errorf("game %s turn %x: %w", game, k, damaged(err))
		}
		recs = append(recs, rec)
		return nil
	})
	return recs, err
}

// Phase returns the processed phase of game at turn, or an error
// wrapping ErrNotFound when the history has none (a ROLLBACK removed it,
// or the game is gone).
func (tx *Tx) Phase(game string, turn int) (*PhaseRecord, error) {
	hist, err := tx.bucket(bucketHistory)
	if err != nil {
		return nil, err
	}
	var v []byte
	if b := hist.Bucket(nameKey(game)); b != nil && turn >= 0 {
		v = b.Get(turnKey(turn))
	}
	if v == nil {
		return nil, fmt.Errorf("game %s turn %d: %w", game, turn, ErrNotFound)
	}
	rec := new(PhaseRecord)
	if err := decode(v, rec); err != nil {
		return nil, fmt.Errorf("game %s turn %d: %w", game, turn, damaged(err))
	}
	return rec, nil
}

// CountPhases returns how many processed phases of game the history
// holds, without reading them.
func (tx *Tx) CountPhases(game string) (int, error) {
	hist, err := tx.bucket(bucketHistory)
	if err != nil {
		return 0, err
	}
	b := hist.Bucket(nameKey(game))
	if b == nil {
		return 0, nil
	}
	n := 0
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	return n, nil
}

// DeletePhasesFrom removes the history records of game from turn on.
func (tx *Tx) DeletePhasesFrom(game string, turn int) error {
	hist, err := tx.bucket(bucketHistory)
	if err != nil {
		return err
	}
	b := hist.Bucket(nameKey(game))
	if b == nil {
		return nil
	}
	// Collect first: deleting under a bbolt cursor can skip keys.
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(turnKey(max(turn, 0))); k != nil; k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// User returns the user with this address (in any case), or an error
// wrapping ErrNotFound.
func (tx *Tx) User(addr string) (*User, error) {
	users, err := tx.bucket(bucketUsers)
	if err != nil {
		return nil, err
	}
	v := users.Get(nameKey(addr))
	if v == nil {
		return nil, fmt.Errorf("user %s: %w", addr, ErrNotFound)
	}
	u := new(User)
	if err := decode(v, u); err != nil {
		return nil, fmt.Errorf("user %s: %w", addr, damaged(err))
	}
	return u, nil
}

// PutUser stores u under its address in lower case.
func (tx *Tx) PutUser(u *User) error {
	key := nameKey(u.Addr)
	if len(key) == 0 {
		return errors.New("state: user without an address")
	}
	users, err := tx.bucket(bucketUsers)
	if err != nil {
		return err
	}
	data, err := encode(u)
	if err != nil {
		return fmt.Errorf("user %s: %w", u.Addr, err)
	}
	return users.Put(key, data)
}

// NextID returns a new number from the judge-wide sequence: 1, 2, 3...,
// never the same twice in one database.
func (tx *Tx) NextID() (uint64, error) {
	meta, err := tx.bucket(bucketMeta)
	if err != nil {
		return 0, err
	}
	return meta.NextSequence()
}

// Enqueue adds m to the outbox, setting m.ID to a number higher than that
// of any mail queued before.
func (tx *Tx) Enqueue(m *OutMail) error {
	outbox, err := tx.bucket(bucketOutbox)
	if err != nil {
		return err
	}
	id, err := outbox.NextSequence()
	if err != nil {
		return err
	}
	m.ID = id
	data, err := encode(m)
	if err != nil {
		return fmt.Errorf("outbox mail %d: %w", id, err)
	}
	if err := outbox.Put(idKey(id), data); err != nil {
		return err
	}
	tx.queued += len(m.To)
	return nil
}

// Queued returns how many mails this transaction has queued so far,
// counting one per recipient address: what the game master holds to its
// limit on the mails one incoming mail may cause.
func (tx *Tx) Queued() int { return tx.queued }

// Outbox returns up to limit queued mails in ID order (all if limit <= 0).
func (tx *Tx) Outbox(limit int) ([]*OutMail, error) {
	outbox, err := tx.bucket(bucketOutbox)
	if err != nil {
		return nil, err
	}
	var mails []*OutMail
	c := outbox.Cursor()
	for k, v := c.First(); k != nil && (limit <= 0 || len(mails) < limit); k, v = c.Next() {
		m := new(OutMail)
		if err := decode(v, m); err != nil {
			return nil, fmt.Errorf("outbox mail %s: %w", idName(k), damaged(err))
		}
		mails = append(mails, m)
	}
	return mails, nil
}

// PutOutMail rewrites a queued mail (its attempts, next try, failure). It
// returns an error wrapping ErrNotFound if the mail is no longer queued,
// so that a late rewrite never brings back a mail already sent.
func (tx *Tx) PutOutMail(m *OutMail) error {
	outbox, err := tx.bucket(bucketOutbox)
	if err != nil {
		return err
	}
	key := idKey(m.ID)
	if outbox.Get(key) == nil {
		return fmt.Errorf("outbox mail %d: %w", m.ID, ErrNotFound)
	}
	data, err := encode(m)
	if err != nil {
		return fmt.Errorf("outbox mail %d: %w", m.ID, err)
	}
	return outbox.Put(key, data)
}

// DeleteOutMail removes a mail from the outbox once the server took it.
// Deleting a mail that is not there is not an error.
func (tx *Tx) DeleteOutMail(id uint64) error {
	outbox, err := tx.bucket(bucketOutbox)
	if err != nil {
		return err
	}
	return outbox.Delete(idKey(id))
}

// Meta returns a judge-wide value (nil if unset), such as the IMAP
// UIDVALIDITY and last UID.
func (tx *Tx) Meta(key string) ([]byte, error) {
	meta, err := tx.bucket(bucketMeta)
	if err != nil {
		return nil, err
	}
	// bbolt's slices point into the file and die with the transaction.
	return bytes.Clone(meta.Get([]byte(key))), nil
}

// PutMeta sets a judge-wide value; a nil value removes it. Keys starting
// with "gmd." are the database's own and are refused.
func (tx *Tx) PutMeta(key string, value []byte) error {
	if strings.HasPrefix(key, reservedMeta) {
		return fmt.Errorf("state: meta key %q is reserved", key)
	}
	meta, err := tx.bucket(bucketMeta)
	if err != nil {
		return err
	}
	if value == nil {
		return meta.Delete([]byte(key))
	}
	return meta.Put([]byte(key), value)
}

// Settings returns the judge-wide settings.
func (tx *Tx) Settings() (*Settings, error) {
	b, err := tx.bucket(bucketSettings)
	if err != nil {
		return nil, err
	}
	v := b.Get(settingsKey)
	if v == nil {
		return nil, fmt.Errorf("settings: %w", ErrNotFound)
	}
	s := new(Settings)
	if err := decode(v, s); err != nil {
		return nil, fmt.Errorf("settings: %w", damaged(err))
	}
	return s, nil
}

// nameKey returns the key of a game name or mail address: both are
// compared without regard to case.
func nameKey(name string) []byte { return []byte(strings.ToLower(name)) }

// turnKey returns the history key of a turn: big-endian, so that keys
// sort in turn order.
func turnKey(turn int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(turn)) }

// idKey returns the outbox key of a mail ID, big-endian for ID order.
func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// idName returns the mail ID an outbox key stands for, in decimal as gmd
// outbox shows IDs, or the key in hex if it is not one.
func idName(k []byte) string {
	if len(k) == 8 {
		return strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
	}
	return fmt.Sprintf("%x", k)
}

// wakeKey returns the wake index key of a game: its wake time, then its
// name, so that the index sorts by time. It returns nil for a zero time,
// which means the game needs no waking.
func wakeKey(t time.Time, name []byte) []byte {
	if t.IsZero() {
		return nil
	}
	k := encodeTime(t)
	return append(k[:], name...)
}

// The range of times UnixNano can represent; encodeTime clamps to it.
var (
	minTime = time.Unix(0, -1<<63)
	maxTime = time.Unix(0, 1<<63-1)
)

// encodeTime returns t as 8 bytes that sort as the times do: UnixNano,
// big-endian, with the sign bit flipped so that times before 1970 sort
// first. Times outside the years 1678 to 2262 are clamped, as UnixNano
// cannot hold them.
func encodeTime(t time.Time) [8]byte {
	if t.Before(minTime) {
		t = minTime
	} else if t.After(maxTime) {
		t = maxTime
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(t.UnixNano())^1<<63)
	return b
}

// decodeTime is the inverse of encodeTime.
func decodeTime(b []byte) time.Time {
	return time.Unix(0, int64(binary.BigEndian.Uint64(b)^1<<63)).UTC()
}
