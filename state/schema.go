package state

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.etcd.io/bbolt"
)

// SchemaVersion is the layout of the database this gmd reads and writes.
// Open migrates a database written by an older gmd and refuses one written
// by a newer gmd.
const SchemaVersion = 5

// The top-level buckets.
var (
	bucketMeta     = []byte("meta")     // gmd's marker, the schema version, Meta values, the NextID sequence
	bucketSettings = []byte("settings") // settingsKey → JSON Settings
	bucketUsers    = []byte("users")    // lower-case address → JSON User
	bucketGames    = []byte("games")    // lower-case name → JSON Game
	bucketHistory  = []byte("history")  // lower-case name → bucket: big-endian turn → JSON PhaseRecord
	bucketWake     = []byte("wake")     // encodeTime(Wake) + name → empty
	bucketLedger   = []byte("ledger")   // mail key → encodeTime(handled)
	bucketOutbox   = []byte("outbox")   // big-endian ID → JSON OutMail
	bucketHeld     = []byte("held")     // big-endian ID → JSON HeldMail
	bucketPress    = []byte("press")    // lower-case name → bucket: pressKey(turn, seq) → JSON Press
	bucketRegistry = []byte("registry") // big-endian ID → JSON Registrant
	bucketRegIndex = []byte("regindex") // "n:" fold or "a:" lower-case address → sealed big-endian ID
	bucketSeatLog  = []byte("seatlog")  // lower-case address → bucket: big-endian seq → JSON SeatEvent
	bucketTally    = []byte("tally")    // lower-case address → JSON Tally of its seat log
	bucketSeatHold = []byte("seathold") // lower-case game → bucket: big-endian seq → JSON SeatEvent (gunboat, until the end)
)

// allBuckets lists the top-level buckets of the current schema.
var allBuckets = [][]byte{
	bucketMeta, bucketSettings, bucketUsers, bucketGames,
	bucketHistory, bucketWake, bucketLedger, bucketOutbox, bucketHeld, bucketPress,
	bucketRegistry, bucketRegIndex, bucketSeatLog, bucketTally, bucketSeatHold,
}

// The keys gmd keeps for itself in the meta bucket; PutMeta refuses
// every key with the reservedMeta prefix.
const reservedMeta = "gmd."

var (
	metaFormat  = []byte("gmd.format") // formatMarker: says the file is a gmd database
	metaSchema  = []byte("gmd.schema") // the schema version, in decimal
	settingsKey = []byte("judge")
)

// formatMarker is the value of metaFormat.
var formatMarker = []byte("gmd")

// migrations[v] changes a database of schema v into one of schema v+1.
// They run in order, all in the transaction that records the new version,
// so an upgrade happens completely or not at all. A new schema appends a
// function here (and raises SchemaVersion); never change one that has
// shipped.
var migrations = []func(*bbolt.Tx) error{
	0: migrateTo1,
	1: migrateHeld,
	2: migrateTo3,
	3: migrateSealed,
	4: migrateRegistry,
}

// migrateRegistry makes schema 5, which has the player registry and the
// seat log (registry.go): their buckets, empty. The seat log starts
// with the upgrade; the games played before it count for nobody's
// figures, as nothing recorded them seat by seat.
func migrateRegistry(tx *bbolt.Tx) error {
	for _, name := range [][]byte{bucketRegistry, bucketRegIndex, bucketSeatLog, bucketTally, bucketSeatHold} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

// migrateSealed makes schema 4, whose records carry a checksum (see
// seal.go). It changes no record: those of schema 3 have no seal, are
// read as they are, and get theirs when next written. The new version is
// what it is for: a gmd of schema 3 cannot read a sealed record, and so
// refuses the file rather than take its records for damage.
func migrateSealed(*bbolt.Tx) error { return nil }

// migrateTo1 makes the first release's layout. Schema 0 is a file that
// holds only the gmd marker (a new database, as Open first writes it) and
// whatever games it was given; so migrating from it creates every bucket
// and indexes the games' wake times.
func migrateTo1(tx *bbolt.Tx) error {
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	settings := tx.Bucket(bucketSettings)
	if settings.Get(settingsKey) == nil {
		data, err := encode(&Settings{Created: time.Now().UTC()})
		if err != nil {
			return err
		}
		if err := settings.Put(settingsKey, data); err != nil {
			return err
		}
	}
	wake := tx.Bucket(bucketWake)
	return tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		var g struct {
			Wake time.Time `json:"wake"`
		}
		if err := decode(v, &g); err != nil {
			return fmt.Errorf("game %s: %w", k, err)
		}
		if key := wakeKey(g.Wake, k); key != nil {
			return wake.Put(key, []byte{})
		}
		return nil
	})
}

// currentSchema is the schema this gmd writes: the number of migrations,
// which is SchemaVersion (a test checks). Tests add migrations to try the
// mechanism, hence a function of the table rather than the constant.
func currentSchema() int { return len(migrations) }

// errFresh says a bbolt file holds nothing at all yet.
var errFresh = errors.New("empty database")

// schemaOf returns the schema version of the database, errFresh if the
// file is still empty, or an error if it is not a gmd database.
func schemaOf(tx *bbolt.Tx, path string) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		if k, _ := tx.Cursor().First(); k == nil {
			return 0, errFresh
		}
		return 0, fmt.Errorf("%s is not a gmd database", path)
	}
	if string(meta.Get(metaFormat)) != string(formatMarker) {
		return 0, fmt.Errorf("%s is not a gmd database", path)
	}
	s := meta.Get(metaSchema)
	v, err := strconv.Atoi(string(s))
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%s: bad schema version %q", path, s)
	}
	return v, nil
}

// prepare checks the schema of a freshly opened database, and brings it
// to the current one: a new file gets the gmd marker and every bucket, an
// old one its migrations.
func (db *DB) prepare(readOnly bool) error {
	var v int
	err := db.bolt.View(func(tx *bbolt.Tx) error {
		var err error
		v, err = schemaOf(tx, db.path)
		return err
	})
	fresh := errors.Is(err, errFresh)
	switch cur := currentSchema(); {
	case err != nil && !fresh:
		return err
	case v > cur:
		return fmt.Errorf("%s: database schema %d is newer than this gmd (%d)", db.path, v, cur)
	case v == cur && !fresh:
		return nil
	case readOnly && fresh:
		return fmt.Errorf("%s is empty, not yet a gmd database", db.path)
	case readOnly:
		return fmt.Errorf("%s: database schema %d is older than this gmd (%d); open it read-write once to migrate it", db.path, v, cur)
	}
	return db.bolt.Update(func(tx *bbolt.Tx) error {
		if fresh {
			meta, err := tx.CreateBucket(bucketMeta)
			if err != nil {
				return err
			}
			if err := meta.Put(metaFormat, formatMarker); err != nil {
				return err
			}
			if err := meta.Put(metaSchema, []byte("0")); err != nil {
				return err
			}
		}
		v, err := schemaOf(tx, db.path)
		if err != nil {
			return err
		}
		for ; v < currentSchema(); v++ {
			if err := migrations[v](tx); err != nil {
				return fmt.Errorf("%s: migrate from schema %d: %w", db.path, v, err)
			}
			if err := setSchema(tx, v+1); err != nil {
				return err
			}
		}
		return nil
	})
}

// setSchema records the schema version in the meta bucket, where Open
// reads it, and in the settings record (once there is one), where the
// rest of gmd does.
func setSchema(tx *bbolt.Tx, v int) error {
	if err := tx.Bucket(bucketMeta).Put(metaSchema, []byte(strconv.Itoa(v))); err != nil {
		return err
	}
	b := tx.Bucket(bucketSettings)
	if b == nil {
		return nil
	}
	var s Settings
	if data := b.Get(settingsKey); data != nil {
		if err := decode(data, &s); err != nil {
			return fmt.Errorf("settings: %w", err)
		}
	}
	s.SchemaVersion = v
	data, err := encode(&s)
	if err != nil {
		return err
	}
	return b.Put(settingsKey, data)
}
