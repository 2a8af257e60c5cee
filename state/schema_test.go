package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// rawBolt opens path with bbolt directly, for building and inspecting
// files by hand, and runs fn in a write transaction.
func rawBolt(t *testing.T, path string, fn func(*bbolt.Tx) error) {
	t.Helper()
	bdb, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	if err := bdb.Update(fn); err != nil {
		t.Fatal(err)
	}
}

// metaValue reads a meta key of the file at path with bbolt directly.
func metaValue(t *testing.T, path string, key []byte) string {
	t.Helper()
	var v string
	rawBolt(t, path, func(tx *bbolt.Tx) error {
		v = string(tx.Bucket(bucketMeta).Get(key))
		return nil
	})
	return v
}

// wantOpenError opens path and checks that it fails with a message
// containing every one of parts.
func wantOpenError(t *testing.T, path string, parts ...string) {
	t.Helper()
	db, err := Open(path)
	if err == nil {
		db.Close()
		t.Fatalf("Open(%s) succeeded", filepath.Base(path))
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("Open error %q does not contain %q", err, p)
		}
	}
}

func TestSchemaVersionMatchesMigrations(t *testing.T) {
	if len(migrations) != SchemaVersion {
		t.Fatalf("%d migrations for schema %d: each schema after 0 needs exactly one", len(migrations), SchemaVersion)
	}
	for v, m := range migrations {
		if m == nil {
			t.Errorf("migration from schema %d is nil", v)
		}
	}
}

func TestNewDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	var created time.Time
	view(t, db, func(tx *Tx) error {
		s, err := tx.Settings()
		created = s.Created
		return err
	})
	db.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("database file mode %v, %v; want 0600 (it holds password hashes)", fi.Mode(), err)
	}

	if got := metaValue(t, path, metaFormat); got != "gmd" {
		t.Errorf("format marker %q, want gmd", got)
	}
	if got := metaValue(t, path, metaSchema); got != strconv.Itoa(SchemaVersion) {
		t.Errorf("schema %q, want %d", got, SchemaVersion)
	}
	rawBolt(t, path, func(tx *bbolt.Tx) error {
		for _, name := range allBuckets {
			if tx.Bucket(name) == nil {
				t.Errorf("new database has no %s bucket", name)
			}
		}
		return nil
	})

	// Reopening migrates nothing and keeps the creation time.
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	view(t, db, func(tx *Tx) error {
		s, err := tx.Settings()
		if err == nil && !s.Created.Equal(created) {
			t.Errorf("Created after reopen %v, want %v", s.Created, created)
		}
		return err
	})
}

// An empty file, as an admin might create with touch, becomes a database.
func TestEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	update(t, db, func(tx *Tx) error { return tx.PutGame(&Game{Name: "dt"}) })
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

func TestNewerSchemaRejected(t *testing.T) {
	path := filepath.Join(t.TempDir(), "newer.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	rawBolt(t, path, func(tx *bbolt.Tx) error { return tx.Bucket(bucketMeta).Put(metaSchema, []byte("7")) })
	wantOpenError(t, path, path, fmt.Sprintf("database schema 7 is newer than this gmd (%d)", SchemaVersion))
	if got := metaValue(t, path, metaSchema); got != "7" {
		t.Errorf("the refused file was changed: schema %q", got)
	}
}

func TestBadSchemaRejected(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	rawBolt(t, path, func(tx *bbolt.Tx) error { return tx.Bucket(bucketMeta).Put(metaSchema, []byte("one")) })
	wantOpenError(t, path, path, `bad schema version "one"`)
}

func TestForeignBoltRejected(t *testing.T) {
	dir := t.TempDir()
	// Another program's bbolt file.
	foreign := filepath.Join(dir, "foreign.db")
	rawBolt(t, foreign, func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucket([]byte("widgets"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), []byte("v"))
	})
	wantOpenError(t, foreign, foreign+" is not a gmd database")
	rawBolt(t, foreign, func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketMeta) != nil || tx.Bucket(bucketGames) != nil {
			t.Error("Open wrote gmd buckets into a foreign file")
		}
		return nil
	})

	// One that happens to have a meta bucket, without the marker.
	meta := filepath.Join(dir, "meta.db")
	rawBolt(t, meta, func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucket(bucketMeta)
		if err != nil {
			return err
		}
		return b.Put([]byte("owner"), []byte("someone else"))
	})
	wantOpenError(t, meta, meta+" is not a gmd database")
}

func TestGarbageRejected(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{1, 100, 4096, 64 << 10} {
		path := filepath.Join(dir, "garbage.db")
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		wantOpenError(t, path, path, "not a gmd database")
		if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
			t.Errorf("Open changed a garbage file of %d bytes", size)
		}
	}
	// Text, such as a config file given by mistake.
	path := filepath.Join(dir, "judge.conf")
	os.WriteFile(path, bytes.Repeat([]byte("judge_name = GMD\n"), 1000), 0o600)
	wantOpenError(t, path, path, "not a gmd database")
}

func TestOpenMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "gmd.db")
	wantOpenError(t, path, path)
}

func TestLocked(t *testing.T) {
	defer func(d time.Duration) { lockTimeout = d }(lockTimeout)
	lockTimeout = 100 * time.Millisecond

	db := openTemp(t)
	start := time.Now()
	wantOpenError(t, db.Path(), db.Path(), "locked by another gmd process")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Open of a locked database took %v", d)
	}
	// Read-only opens share a lock with each other, not with a writer.
	if ro, err := OpenReadOnly(db.Path()); err == nil {
		ro.Close()
		t.Error("OpenReadOnly of a database open read-write succeeded")
	}
}

func TestOpenReadOnly(t *testing.T) {
	db := openTemp(t)
	setWake(t, db, "dt", t0)
	path := db.Path()
	db.Close()

	ro1, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro1.Close()
	ro2, err := OpenReadOnly(path)
	if err != nil {
		t.Fatalf("second read-only open: %v", err)
	}
	defer ro2.Close()
	if got := due(t, ro2, t0); !slices.Equal(got, []string{"dt"}) {
		t.Errorf("read-only Due = %v", got)
	}
	if err := ro1.Check(); err != nil {
		t.Error(err)
	}
	if err := ro1.Update(func(tx *Tx) error { return tx.PutGame(&Game{Name: "x"}) }); err == nil {
		t.Error("Update on a read-only database succeeded")
	}

	if _, err := OpenReadOnly(filepath.Join(t.TempDir(), "missing.db")); err == nil {
		t.Error("OpenReadOnly of a missing file succeeded")
	}
	v0 := makeV0(t)
	if ro, err := OpenReadOnly(v0); err == nil || !strings.Contains(err.Error(), "older than this gmd") {
		if err == nil {
			ro.Close()
		}
		t.Errorf("OpenReadOnly of a schema 0 file: %v, want an error about migration", err)
	}
}

// makeV0 builds, by hand, a schema 0 file: the gmd marker, and games
// (one waiting for a deadline, one not) in a games bucket, but none of
// the other buckets and no wake index.
func makeV0(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "v0.db")
	rawBolt(t, path, func(tx *bbolt.Tx) error {
		meta, err := tx.CreateBucket(bucketMeta)
		if err != nil {
			return err
		}
		meta.Put(metaFormat, []byte("gmd"))
		meta.Put(metaSchema, []byte("0"))
		meta.Put([]byte("imap/uidvalidity"), []byte("42"))
		games, err := tx.CreateBucket(bucketGames)
		if err != nil {
			return err
		}
		for _, g := range []*Game{{Name: "dt", Status: Active, Wake: t0}, {Name: "ww", Status: Forming}} {
			data, err := json.Marshal(g)
			if err != nil {
				return err
			}
			if err := games.Put([]byte(g.Name), data); err != nil {
				return err
			}
		}
		return nil
	})
	return path
}

func TestMigrateFromV0(t *testing.T) {
	path := makeV0(t)
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	view(t, db, func(tx *Tx) error {
		if got := gameNames(t, tx); !slices.Equal(got, []string{"dt", "ww"}) {
			t.Errorf("games after migration %v", got)
		}
		if got, _ := tx.Due(t0); !slices.Equal(got, []string{"dt"}) {
			t.Errorf("Due after migration = %v, want [dt]: the migration indexes wake times", got)
		}
		if v, _ := tx.Meta("imap/uidvalidity"); string(v) != "42" {
			t.Errorf("meta value after migration %q, want 42", v)
		}
		s, err := tx.Settings()
		if err != nil {
			return err
		}
		if s.SchemaVersion != SchemaVersion {
			t.Errorf("settings schema %d after migration, want %d", s.SchemaVersion, SchemaVersion)
		}
		return nil
	})
	// The migrated database works like a new one.
	update(t, db, func(tx *Tx) error { return tx.Enqueue(&OutMail{Subject: "hello"}) })
}

// The mechanism: migrations run in order from the file's version, each
// recorded, all in one transaction.
func TestMigrationsRunInOrder(t *testing.T) {
	defer func(m []func(*bbolt.Tx) error) { migrations = m }(migrations)

	db := openTemp(t)
	setWake(t, db, "dt", t0)
	path := db.Path()
	db.Close()

	var ran []int
	step := func(from int) func(*bbolt.Tx) error {
		return func(tx *bbolt.Tx) error {
			// Each migration sees the schema its predecessor recorded.
			if got := string(tx.Bucket(bucketMeta).Get(metaSchema)); got != strconv.Itoa(from) {
				t.Errorf("migration from %d sees schema %q", from, got)
			}
			ran = append(ran, from)
			_, err := tx.CreateBucketIfNotExists([]byte{'x', byte('0' + from)})
			return err
		}
	}
	v := SchemaVersion
	migrations = append(slices.Clip(migrations), step(v), step(v+1))
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	view(t, db, func(tx *Tx) error {
		s, _ := tx.Settings()
		if s.SchemaVersion != v+2 {
			t.Errorf("settings schema %d, want %d", s.SchemaVersion, v+2)
		}
		return nil
	})
	db.Close()
	if !slices.Equal(ran, []int{v, v + 1}) {
		t.Errorf("migrations ran from %v, want [%d %d]", ran, v, v+1)
	}
	if got := metaValue(t, path, metaSchema); got != strconv.Itoa(v+2) {
		t.Errorf("schema after migration %q, want %d", got, v+2)
	}

	// Opening again runs nothing.
	ran = nil
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if len(ran) != 0 {
		t.Errorf("reopening ran migrations %v", ran)
	}
}

func TestFailedMigrationChangesNothing(t *testing.T) {
	defer func(m []func(*bbolt.Tx) error) { migrations = m }(migrations)

	db := openTemp(t)
	path := db.Path()
	db.Close()

	migrations = append(slices.Clip(migrations),
		func(tx *bbolt.Tx) error {
			_, err := tx.CreateBucket([]byte("first"))
			return err
		},
		func(tx *bbolt.Tx) error { return errors.New("disk on fire") },
	)
	wantOpenError(t, path, path, fmt.Sprintf("migrate from schema %d", SchemaVersion+1), "disk on fire")
	if got := metaValue(t, path, metaSchema); got != strconv.Itoa(SchemaVersion) {
		t.Errorf("schema after a failed migration %q, want %d", got, SchemaVersion)
	}
	rawBolt(t, path, func(tx *bbolt.Tx) error {
		if tx.Bucket([]byte("first")) != nil {
			t.Error("the migration before the failed one was kept")
		}
		return nil
	})
}
