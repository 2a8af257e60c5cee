package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// t0 is the tests' fixed "now".
var t0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// openTemp opens a new database in a temporary directory, closed when
// the test ends.
func openTemp(tb testing.TB) *DB {
	tb.Helper()
	db, err := Open(filepath.Join(tb.TempDir(), "gmd.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// reopen closes db and opens its file again.
func reopen(tb testing.TB, db *DB) *DB {
	tb.Helper()
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	db, err := Open(db.Path())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// update runs fn in an Update and fails the test on error.
func update(tb testing.TB, db *DB, fn func(*Tx) error) {
	tb.Helper()
	if err := db.Update(fn); err != nil {
		tb.Fatal(err)
	}
}

// view runs fn in a View and fails the test on error.
func view(tb testing.TB, db *DB, fn func(*Tx) error) {
	tb.Helper()
	if err := db.View(fn); err != nil {
		tb.Fatal(err)
	}
}

// position returns the standard opening position, compact as JSON
// encoding writes a RawMessage back.
func position(tb testing.TB) json.RawMessage {
	tb.Helper()
	data, err := os.ReadFile("../testdata/s1901/position.json")
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// sampleGame returns a typical running 7-player game, every field set.
func sampleGame(tb testing.TB, name string) *Game {
	tb.Helper()
	powers := []string{"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"}
	hash := []byte("$2a$10$abcdefghijklmnopqrstuuKq0gCZ5Jq5Cz0Z0N5bPQJfVb3b9z6e6")
	g := &Game{
		Name:    name,
		Variant: "standard",
		Rules:   "datc-3.0",
		Status:  Active,
		Created: t0.Add(-30 * 24 * time.Hour),
		Settings: GameSettings{
			Press: "white", Partial: true, Zone: "Europe/Paris",
			Movement:   Duration(72 * time.Hour),
			Retreat:    Duration(24 * time.Hour),
			Adjustment: Duration(24 * time.Hour),
			Grace:      Duration(48 * time.Hour),
			Reminder:   Duration(24 * time.Hour),
		},
		MasterAddr:  "master@example.org",
		MasterHash:  hash,
		Observers:   []Observer{{Addr: "watcher@example.org", PassHash: hash}},
		Position:    position(tb),
		Turn:        4,
		Orders:      map[string][]string{},
		Deadline:    t0.Add(72 * time.Hour),
		Reminded:    true,
		LateNoticed: t0.Add(-time.Hour),
		Wake:        t0.Add(48 * time.Hour),
		Result:      "",
	}
	for i, p := range powers {
		g.Players = append(g.Players, Player{
			Power:      p,
			Addr:       strings.ToLower(p) + "@example.org",
			PassHash:   hash,
			Status:     Playing,
			Preference: "EFGIRTA",
			Wait:       i == 2,
			Draw:       i == 3,
			Absences:   []Absence{{From: t0.Add(24 * time.Hour), To: t0.Add(96 * time.Hour)}},
			Late:       i,
			Joined:     t0.Add(-29 * 24 * time.Hour),
		})
		g.Orders[p] = []string{"A Vie - Gal", "F Tri - Alb", "A Bud S A Vie - Gal"}
		if i < 2 {
			if g.Written == nil {
				g.Written = map[string]map[string]string{}
			}
			g.Written[p] = map[string]string{"A Vie - Gal": "army vienna -> galicia", "F Tri - Alb": "f tri-alb"}
		}
	}
	g.PressSent = map[string]int64{"Austria": 120, "observer@example.org": 60}
	return g
}

func TestGameRoundTrip(t *testing.T) {
	db := openTemp(t)
	want := sampleGame(t, "dt")
	update(t, db, func(tx *Tx) error { return tx.PutGame(want) })
	for i := range 2 {
		if i == 1 {
			db = reopen(t, db)
		}
		view(t, db, func(tx *Tx) error {
			for _, name := range []string{"dt", "DT"} {
				got, err := tx.Game(name)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("Game(%q) =\n%+v\nwant\n%+v", name, got, want)
				}
			}
			return nil
		})
	}
}

func TestGameErrors(t *testing.T) {
	db := openTemp(t)
	view(t, db, func(tx *Tx) error {
		if _, err := tx.Game("nosuch"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Game(nosuch) error = %v, want ErrNotFound", err)
		}
		return nil
	})
	err := db.Update(func(tx *Tx) error { return tx.PutGame(&Game{}) })
	if err == nil {
		t.Error("PutGame of a game without a name succeeded")
	}
	err = db.Update(func(tx *Tx) error { return tx.DeleteGame("nosuch") })
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("DeleteGame(nosuch) error = %v, want ErrNotFound", err)
	}
	if err := db.View(func(tx *Tx) error { return tx.PutGame(&Game{Name: "x"}) }); err == nil {
		t.Error("PutGame in a View succeeded")
	}
}

// gameNames returns the names ForEachGame visits.
func gameNames(t *testing.T, tx *Tx) []string {
	t.Helper()
	var names []string
	if err := tx.ForEachGame(func(g *Game) error {
		names = append(names, g.Name)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return names
}

func TestForEachGame(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for _, name := range []string{"gamma", "alpha", "beta", "delta"} {
			if err := tx.PutGame(&Game{Name: name}); err != nil {
				return err
			}
		}
		return nil
	})
	want := []string{"alpha", "beta", "delta", "gamma"}
	view(t, db, func(tx *Tx) error {
		if got := gameNames(t, tx); !slices.Equal(got, want) {
			t.Errorf("ForEachGame visits %v, want %v", got, want)
		}
		stop := errors.New("stop")
		n := 0
		err := tx.ForEachGame(func(*Game) error {
			n++
			if n == 2 {
				return stop
			}
			return nil
		})
		if err != stop || n != 2 {
			t.Errorf("ForEachGame with fn failing at 2: err %v after %d calls", err, n)
		}
		return nil
	})

	// Writing every game while walking them visits each once.
	update(t, db, func(tx *Tx) error {
		var seen []string
		err := tx.ForEachGame(func(g *Game) error {
			seen = append(seen, g.Name)
			g.Turn++
			g.Result = strings.Repeat("x", 5000) // grow: splits pages
			g.Wake = t0
			return tx.PutGame(g)
		})
		if !slices.Equal(seen, want) {
			t.Errorf("ForEachGame writing games visits %v, want %v", seen, want)
		}
		return err
	})
	// Adding games before the current one neither revisits it nor
	// visits them.
	update(t, db, func(tx *Tx) error {
		// Rewrite a game first, so that the walk runs over bbolt's
		// in-memory nodes rather than the file's pages.
		beta, err := tx.Game("beta")
		if err != nil {
			return err
		}
		if err := tx.PutGame(beta); err != nil {
			return err
		}
		var seen []string
		err = tx.ForEachGame(func(g *Game) error {
			seen = append(seen, g.Name)
			if len(seen) > 10 {
				return errors.New("runaway walk")
			}
			return tx.PutGame(&Game{Name: "a" + g.Name})
		})
		if !slices.Equal(seen, want) {
			t.Errorf("ForEachGame adding games visits %v, want %v", seen, want)
		}
		return err
	})
	view(t, db, func(tx *Tx) error {
		return tx.ForEachGame(func(g *Game) error {
			if g.Name[0] == 'a' && g.Name != "alpha" {
				return nil
			}
			if g.Turn != 1 {
				t.Errorf("game %s turn %d after one update, want 1", g.Name, g.Turn)
			}
			return nil
		})
	})
}

func TestDeleteGame(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for _, name := range []string{"one", "two"} {
			if err := tx.PutGame(&Game{Name: name, Wake: t0}); err != nil {
				return err
			}
			if err := tx.PutPhase(name, &PhaseRecord{Phase: "S1901M"}); err != nil {
				return err
			}
		}
		return tx.DeleteGame("ONE")
	})
	view(t, db, func(tx *Tx) error {
		if _, err := tx.Game("one"); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted game: Game error %v, want ErrNotFound", err)
		}
		if recs, _ := tx.Phases("one"); len(recs) != 0 {
			t.Errorf("deleted game keeps %d phases", len(recs))
		}
		if recs, _ := tx.Phases("two"); len(recs) != 1 {
			t.Errorf("other game has %d phases, want 1", len(recs))
		}
		if due, _ := tx.Due(t0); !slices.Equal(due, []string{"two"}) {
			t.Errorf("Due after delete = %v, want [two]", due)
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

func TestUserRoundTrip(t *testing.T) {
	db := openTemp(t)
	want := &User{Addr: "Player@Example.ORG", Created: t0, Games: []string{"dt", "ww"}}
	update(t, db, func(tx *Tx) error { return tx.PutUser(want) })
	db = reopen(t, db)
	view(t, db, func(tx *Tx) error {
		got, err := tx.User("player@example.org")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("User = %+v, want %+v", got, want)
		}
		if _, err := tx.User("other@example.org"); !errors.Is(err, ErrNotFound) {
			t.Errorf("User(other) error = %v, want ErrNotFound", err)
		}
		return nil
	})
	if err := db.Update(func(tx *Tx) error { return tx.PutUser(&User{}) }); err == nil {
		t.Error("PutUser without an address succeeded")
	}
}

func TestSettings(t *testing.T) {
	db := openTemp(t)
	view(t, db, func(tx *Tx) error {
		s, err := tx.Settings()
		if err != nil {
			return err
		}
		if s.SchemaVersion != SchemaVersion {
			t.Errorf("Settings().SchemaVersion = %d, want %d", s.SchemaVersion, SchemaVersion)
		}
		if time.Since(s.Created) > time.Minute || s.Created.After(time.Now()) {
			t.Errorf("Settings().Created = %v, want about now", s.Created)
		}
		return nil
	})
}

func phase(turn int) *PhaseRecord {
	return &PhaseRecord{
		Phase:     fmt.Sprintf("P%d", turn),
		Turn:      turn,
		Processed: t0.Add(time.Duration(turn) * time.Hour),
		Position:  json.RawMessage(`{"phase":"S1901M"}`),
		Orders:    map[string][]string{"England": {"F Lon - Nth"}, "France": {"A Par - Bur"}},
		Written:   map[string][]string{"England": {"fleet london -> north sea"}},
		Results:   fmt.Sprintf("Results of turn %d\n", turn),
	}
}

func phaseTurns(t *testing.T, db *DB, game string) []int {
	t.Helper()
	var turns []int
	view(t, db, func(tx *Tx) error {
		recs, err := tx.Phases(game)
		for _, r := range recs {
			turns = append(turns, r.Turn)
		}
		return err
	})
	return turns
}

func TestPhases(t *testing.T) {
	db := openTemp(t)
	// 256 would sort before 2 as text, or as a little-endian key.
	turns := []int{2, 0, 256, 1, 10}
	update(t, db, func(tx *Tx) error {
		for _, turn := range turns {
			if err := tx.PutPhase("DT", phase(turn)); err != nil {
				return err
			}
		}
		return tx.PutPhase("other", phase(0))
	})
	if got, want := phaseTurns(t, db, "dt"), []int{0, 1, 2, 10, 256}; !slices.Equal(got, want) {
		t.Fatalf("Phases turns = %v, want %v", got, want)
	}
	view(t, db, func(tx *Tx) error {
		recs, err := tx.Phases("dt")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(recs[3], phase(10)) {
			t.Errorf("turn 10 = %+v, want %+v", recs[3], phase(10))
		}
		if recs, err := tx.Phases("nosuch"); err != nil || len(recs) != 0 {
			t.Errorf("Phases(nosuch) = %v, %v; want none", recs, err)
		}
		for game, want := range map[string]int{"dt": 5, "Other": 1, "nosuch": 0} {
			if n, err := tx.CountPhases(game); n != want || err != nil {
				t.Errorf("CountPhases(%s) = %d, %v; want %d", game, n, err, want)
			}
		}
		return nil
	})

	// Storing a turn again replaces it.
	update(t, db, func(tx *Tx) error {
		rec := phase(1)
		rec.Results = "again"
		return tx.PutPhase("dt", rec)
	})
	view(t, db, func(tx *Tx) error {
		recs, _ := tx.Phases("dt")
		if len(recs) != 5 || recs[1].Results != "again" {
			t.Errorf("after rewriting turn 1: %d records, turn 1 results %q", len(recs), recs[1].Results)
		}
		return nil
	})

	update(t, db, func(tx *Tx) error { return tx.DeletePhasesFrom("dt", 2) })
	if got, want := phaseTurns(t, db, "dt"), []int{0, 1}; !slices.Equal(got, want) {
		t.Errorf("after DeletePhasesFrom(2): turns %v, want %v", got, want)
	}
	update(t, db, func(tx *Tx) error { return tx.DeletePhasesFrom("dt", 0) })
	if got := phaseTurns(t, db, "dt"); len(got) != 0 {
		t.Errorf("after DeletePhasesFrom(0): turns %v, want none", got)
	}
	if got := phaseTurns(t, db, "other"); !slices.Equal(got, []int{0}) {
		t.Errorf("other game's turns %v, want [0]", got)
	}
	update(t, db, func(tx *Tx) error { return tx.DeletePhasesFrom("nosuch", 0) })

	if err := db.Update(func(tx *Tx) error { return tx.PutPhase("dt", phase(-1)) }); err == nil {
		t.Error("PutPhase with a negative turn succeeded")
	}
}

// due returns Due(now) in a View.
func due(t *testing.T, db *DB, now time.Time) []string {
	t.Helper()
	var names []string
	view(t, db, func(tx *Tx) error {
		var err error
		names, err = tx.Due(now)
		return err
	})
	return names
}

// setWake stores game name with the given Wake, keeping the rest.
func setWake(t *testing.T, db *DB, name string, wake time.Time) {
	t.Helper()
	update(t, db, func(tx *Tx) error {
		g, err := tx.Game(name)
		if errors.Is(err, ErrNotFound) {
			g, err = &Game{Name: name}, nil
		}
		if err != nil {
			return err
		}
		g.Wake = wake
		return tx.PutGame(g)
	})
}

func TestWakeIndex(t *testing.T) {
	db := openTemp(t)
	h := time.Hour
	setWake(t, db, "late", t0.Add(3*h))
	setWake(t, db, "early", t0.Add(1*h))
	setWake(t, db, "never", time.Time{})
	setWake(t, db, "mid", t0.Add(2*h))
	setWake(t, db, "alsomid", t0.Add(2*h)) // same time: name order
	setWake(t, db, "past", time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC))

	tests := []struct {
		now  time.Time
		want []string
	}{
		{time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC), nil},
		{t0, []string{"past"}},
		{t0.Add(h - 1), []string{"past"}},
		{t0.Add(h), []string{"past", "early"}}, // Wake == now is due
		{t0.Add(2 * h), []string{"past", "early", "alsomid", "mid"}},
		{t0.Add(100 * h), []string{"past", "early", "alsomid", "mid", "late"}},
	}
	for _, tt := range tests {
		if got := due(t, db, tt.now); !slices.Equal(got, tt.want) {
			t.Errorf("Due(%v) = %v, want %v", tt.now, got, tt.want)
		}
	}

	// Moving a wake time moves the entry; clearing it removes it.
	setWake(t, db, "early", t0.Add(10*h))
	setWake(t, db, "mid", time.Time{})
	setWake(t, db, "never", t0.Add(h))
	if got, want := due(t, db, t0.Add(2*h)), []string{"past", "never", "alsomid"}; !slices.Equal(got, want) {
		t.Errorf("after moving: Due(+2h) = %v, want %v", got, want)
	}
	if got, want := due(t, db, t0.Add(100*h)), []string{"past", "never", "alsomid", "late", "early"}; !slices.Equal(got, want) {
		t.Errorf("after moving: Due(+100h) = %v, want %v", got, want)
	}
	// Storing the same wake again leaves one entry.
	setWake(t, db, "late", t0.Add(3*h))
	if got := due(t, db, t0.Add(100*h)); len(got) != 5 {
		t.Errorf("after rewriting: Due = %v, want 5 games", got)
	}
	view(t, db, func(tx *Tx) error {
		if n := tx.tx.Bucket(bucketWake).Stats().KeyN; n != 5 {
			t.Errorf("wake index holds %d keys, want 5", n)
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

func TestWakeIndexExtremeTimes(t *testing.T) {
	db := openTemp(t)
	// Both outside what UnixNano can hold.
	setWake(t, db, "far", time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC))
	setWake(t, db, "old", time.Date(1000, 1, 2, 0, 0, 0, 0, time.UTC))
	if got, want := due(t, db, t0), []string{"old"}; !slices.Equal(got, want) {
		t.Errorf("Due(now) = %v, want %v", got, want)
	}
	if got, want := due(t, db, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)), []string{"old", "far"}; !slices.Equal(got, want) {
		t.Errorf("Due(9999) = %v, want %v", got, want)
	}
	setWake(t, db, "far", time.Time{})
	if got, want := due(t, db, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)), []string{"old"}; !slices.Equal(got, want) {
		t.Errorf("after clearing: Due(9999) = %v, want %v", got, want)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

func TestEncodeTimeOrder(t *testing.T) {
	times := []time.Time{
		time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC), // clamped
		time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Unix(0, 0),
		time.Unix(0, 1),
		t0,
		t0.Add(1),
		time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	for i := 1; i < len(times); i++ {
		a, b := encodeTime(times[i-1]), encodeTime(times[i])
		if bytes.Compare(a[:], b[:]) >= 0 {
			t.Errorf("encodeTime(%v) >= encodeTime(%v)", times[i-1], times[i])
		}
	}
	for _, tm := range times[1:] {
		b := encodeTime(tm)
		if got := decodeTime(b[:]); !got.Equal(tm) {
			t.Errorf("decodeTime(encodeTime(%v)) = %v", tm, got)
		}
	}
	// Beyond the range, times clamp to its ends rather than wrap around.
	for _, tm := range []time.Time{time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if b, lo := encodeTime(tm), encodeTime(minTime); b != lo {
			t.Errorf("encodeTime(%v) = %x, want the minimum %x", tm, b, lo)
		}
	}
	for _, tm := range []time.Time{time.Date(2263, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if b, hi := encodeTime(tm), encodeTime(maxTime); b != hi {
			t.Errorf("encodeTime(%v) = %x, want the maximum %x", tm, b, hi)
		}
	}
}

// Due copes with an index damaged behind gmd's back: a short key, two
// entries for one game.
func TestDueDamagedIndex(t *testing.T) {
	db := openTemp(t)
	setWake(t, db, "dt", t0)
	setWake(t, db, "ww", t0.Add(time.Minute))
	err := db.bolt.Update(func(tx *bbolt.Tx) error {
		wake := tx.Bucket(bucketWake)
		if err := wake.Put([]byte{0}, []byte{}); err != nil {
			return err
		}
		return wake.Put(wakeKey(t0.Add(2*time.Minute), []byte("dt")), []byte{})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := due(t, db, t0.Add(time.Hour)), []string{"dt", "ww"}; !slices.Equal(got, want) {
		t.Errorf("Due = %v, want %v", got, want)
	}
	if db.Check() == nil {
		t.Error("Check finds nothing wrong with a damaged index")
	}
}

// A damaged game record must not stop PutGame from replacing it, nor
// leave its old wake entry behind.
func TestPutGameRepairsDamagedRecord(t *testing.T) {
	db := openTemp(t)
	setWake(t, db, "dt", t0)
	if err := db.bolt.Update(func(btx *bbolt.Tx) error {
		return btx.Bucket(bucketGames).Put([]byte("dt"), []byte("{damaged"))
	}); err != nil {
		t.Fatal(err)
	}
	update(t, db, func(tx *Tx) error { return tx.PutGame(&Game{Name: "dt", Wake: t0.Add(time.Hour)}) })
	if got := due(t, db, t0); len(got) != 0 {
		t.Errorf("Due(t0) after repair = %v, want none", got)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

func TestOutbox(t *testing.T) {
	db := openTemp(t)
	var ids []uint64
	update(t, db, func(tx *Tx) error {
		for i := range 3 {
			m := &OutMail{
				MessageID: fmt.Sprintf("<gmd.%d@localhost>", i),
				To:        []string{"a@example.org", "b@example.org"},
				Subject:   fmt.Sprintf("GMD:dt - S1901M Results %d", i),
				Body:      "body\n",
				InReplyTo: "<in@example.org>",
				Created:   t0,
			}
			if err := tx.Enqueue(m); err != nil {
				return err
			}
			ids = append(ids, m.ID)
		}
		return nil
	})
	if !slices.IsSorted(ids) || ids[0] == 0 || ids[0] == ids[1] || ids[1] == ids[2] {
		t.Fatalf("Enqueue IDs %v, want increasing from 1", ids)
	}

	view(t, db, func(tx *Tx) error {
		all, err := tx.Outbox(0)
		if err != nil {
			return err
		}
		if len(all) != 3 {
			t.Fatalf("Outbox(0) has %d mails, want 3", len(all))
		}
		for i, m := range all {
			if m.ID != ids[i] || m.Subject != fmt.Sprintf("GMD:dt - S1901M Results %d", i) {
				t.Errorf("Outbox[%d] = ID %d %q, want ID %d", i, m.ID, m.Subject, ids[i])
			}
		}
		want := &OutMail{ID: ids[0], MessageID: "<gmd.0@localhost>", To: []string{"a@example.org", "b@example.org"},
			Subject: "GMD:dt - S1901M Results 0", Body: "body\n", InReplyTo: "<in@example.org>", Created: t0}
		if !reflect.DeepEqual(all[0], want) {
			t.Errorf("Outbox[0] = %+v, want %+v", all[0], want)
		}
		two, err := tx.Outbox(2)
		if err != nil {
			return err
		}
		if len(two) != 2 || two[1].ID != ids[1] {
			t.Errorf("Outbox(2) = %d mails, want the first 2", len(two))
		}
		return nil
	})

	// The sender's rewrite and delete.
	update(t, db, func(tx *Tx) error {
		all, _ := tx.Outbox(0)
		m := all[1]
		m.Attempts, m.NextTry, m.Failed = 3, t0.Add(time.Hour), "550 no such user"
		if err := tx.PutOutMail(m); err != nil {
			return err
		}
		if err := tx.DeleteOutMail(ids[0]); err != nil {
			return err
		}
		return tx.DeleteOutMail(ids[0]) // again: not an error
	})
	view(t, db, func(tx *Tx) error {
		all, _ := tx.Outbox(0)
		if len(all) != 2 || all[0].ID != ids[1] || all[0].Attempts != 3 || all[0].Failed != "550 no such user" ||
			!all[0].NextTry.Equal(t0.Add(time.Hour)) {
			t.Errorf("after rewrite and delete: %+v", all)
		}
		return nil
	})
	err := db.Update(func(tx *Tx) error { return tx.PutOutMail(&OutMail{ID: ids[0], Subject: "back"}) })
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("PutOutMail of a deleted mail: error %v, want ErrNotFound", err)
	}

	// Empty the outbox; IDs still grow after reopening.
	update(t, db, func(tx *Tx) error {
		for _, id := range ids {
			if err := tx.DeleteOutMail(id); err != nil {
				return err
			}
		}
		return nil
	})
	db = reopen(t, db)
	update(t, db, func(tx *Tx) error {
		m := &OutMail{Subject: "after reopen"}
		if err := tx.Enqueue(m); err != nil {
			return err
		}
		if m.ID <= ids[2] {
			t.Errorf("ID after reopen %d, want > %d", m.ID, ids[2])
		}
		return nil
	})
}

func TestNextID(t *testing.T) {
	db := openTemp(t)
	var last uint64
	next := func() uint64 {
		var id uint64
		update(t, db, func(tx *Tx) error {
			var err error
			id, err = tx.NextID()
			return err
		})
		return id
	}
	for range 3 {
		id := next()
		if id <= last {
			t.Errorf("NextID = %d after %d", id, last)
		}
		last = id
	}
	db = reopen(t, db)
	if id := next(); id <= last {
		t.Errorf("NextID after reopen = %d after %d", id, last)
	}
	if err := db.View(func(tx *Tx) error { _, err := tx.NextID(); return err }); err == nil {
		t.Error("NextID in a View succeeded")
	}
}

func TestLedger(t *testing.T) {
	db := openTemp(t)
	long1 := "<" + strings.Repeat("a", 40000) + "1@x>" // longer than bbolt allows a key
	long2 := "<" + strings.Repeat("a", 40000) + "2@x>"
	update(t, db, func(tx *Tx) error {
		if seen, err := tx.Seen("<m1@x>"); err != nil || seen {
			t.Errorf("Seen before MarkSeen = %v, %v", seen, err)
		}
		for i, key := range []string{"<m1@x>", "imap/1/7", long1} {
			if err := tx.MarkSeen(key, t0.Add(time.Duration(i)*time.Hour)); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, db, func(tx *Tx) error {
		for key, want := range map[string]bool{"<m1@x>": true, "imap/1/7": true, long1: true, long2: false, "<m2@x>": false, "": false} {
			if seen, err := tx.Seen(key); err != nil || seen != want {
				t.Errorf("Seen(%.20q) = %v, %v; want %v", key, seen, err, want)
			}
		}
		return nil
	})
	if err := db.Update(func(tx *Tx) error { return tx.MarkSeen("", t0) }); err == nil {
		t.Error("MarkSeen(\"\") succeeded")
	}

	// Keys marked at t0, t0+1h, t0+2h: pruning before t0+1h removes one.
	var n int
	update(t, db, func(tx *Tx) error {
		var err error
		n, _, err = tx.PruneLedger(t0.Add(time.Hour), "", 0)
		return err
	})
	if n != 1 {
		t.Errorf("PruneLedger removed %d, want 1", n)
	}
	view(t, db, func(tx *Tx) error {
		for key, want := range map[string]bool{"<m1@x>": false, "imap/1/7": true, long1: true} {
			if seen, _ := tx.Seen(key); seen != want {
				t.Errorf("after prune: Seen(%.20q) = %v, want %v", key, seen, want)
			}
		}
		return nil
	})
	update(t, db, func(tx *Tx) error {
		var err error
		n, _, err = tx.PruneLedger(t0.Add(100*time.Hour), "", 0)
		return err
	})
	if n != 2 {
		t.Errorf("second PruneLedger removed %d, want 2", n)
	}
}

func TestMeta(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		if v, err := tx.Meta("imap/uidvalidity"); err != nil || v != nil {
			t.Errorf("Meta of an unset key = %q, %v; want nil", v, err)
		}
		// Enough values that the bucket has pages of its own: bbolt
		// copies the values of small (inline) buckets anyway.
		for i := range 10 {
			if err := tx.PutMeta(fmt.Sprint("filler", i), bytes.Repeat([]byte{'z'}, 1000)); err != nil {
				return err
			}
		}
		return tx.PutMeta("imap/uidvalidity", []byte("12345"))
	})
	var got []byte
	view(t, db, func(tx *Tx) error {
		var err error
		got, err = tx.Meta("imap/uidvalidity")
		return err
	})
	// The value must outlive the transaction, and the database: bbolt's
	// slices point into the file's memory map, which Close unmaps (a
	// copy that fails that crashes here).
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if string(got) != "12345" {
		t.Errorf("Meta = %q after the transaction, want 12345", got)
	}
	db, err := Open(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	update(t, db, func(tx *Tx) error {
		if v, _ := tx.Meta("imap/uidvalidity"); string(v) != "12345" {
			t.Errorf("Meta after reopen = %q", v)
		}
		if err := tx.PutMeta("imap/uidvalidity", nil); err != nil {
			return err
		}
		if v, _ := tx.Meta("imap/uidvalidity"); v != nil {
			t.Errorf("Meta after PutMeta(nil) = %q, want nil", v)
		}
		if err := tx.PutMeta("gmd.schema", []byte("99")); err == nil {
			t.Error("PutMeta(gmd.schema) succeeded")
		}
		return nil
	})
}

// A failed Update writes nothing: not the game, not the outbox, not the
// ledger, not the sequences.
func TestUpdateRollback(t *testing.T) {
	db := openTemp(t)
	var firstID, firstMail uint64
	update(t, db, func(tx *Tx) error {
		firstID, _ = tx.NextID()
		m := &OutMail{Subject: "kept"}
		err := tx.Enqueue(m)
		firstMail = m.ID
		return err
	})

	fail := errors.New("bad mail")
	write := func(tx *Tx) error {
		steps := []error{
			tx.PutGame(&Game{Name: "dt", Wake: t0}),
			tx.PutUser(&User{Addr: "a@example.org"}),
			tx.PutPhase("dt", phase(0)),
			tx.MarkSeen("<m@x>", t0),
			tx.PutMeta("k", []byte("v")),
			tx.Enqueue(&OutMail{Subject: "lost"}),
			tx.DeleteOutMail(firstMail),
		}
		if _, err := tx.NextID(); err != nil {
			return err
		}
		return errors.Join(steps...)
	}
	err := db.Update(func(tx *Tx) error {
		if err := write(tx); err != nil {
			return err
		}
		return fail
	})
	if err != fail {
		t.Fatalf("Update returned %v, want the function's error", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a panic in Update did not reach the caller")
			}
		}()
		db.Update(func(tx *Tx) error {
			write(tx)
			panic("boom")
		})
	}()

	for i := range 2 {
		if i == 1 {
			db = reopen(t, db)
		}
		update(t, db, func(tx *Tx) error {
			if _, err := tx.Game("dt"); !errors.Is(err, ErrNotFound) {
				t.Errorf("game written by a failed Update: %v", err)
			}
			if _, err := tx.User("a@example.org"); !errors.Is(err, ErrNotFound) {
				t.Errorf("user written by a failed Update: %v", err)
			}
			if recs, _ := tx.Phases("dt"); len(recs) != 0 {
				t.Errorf("phases written by a failed Update: %d", len(recs))
			}
			if seen, _ := tx.Seen("<m@x>"); seen {
				t.Error("ledger written by a failed Update")
			}
			if v, _ := tx.Meta("k"); v != nil {
				t.Error("meta written by a failed Update")
			}
			if due, _ := tx.Due(t0); len(due) != 0 {
				t.Errorf("wake index written by a failed Update: %v", due)
			}
			out, _ := tx.Outbox(0)
			if len(out) != 1 || out[0].Subject != "kept" {
				t.Errorf("outbox after failed Updates: %+v, want only the kept mail", out)
			}
			return nil
		})
	}
	update(t, db, func(tx *Tx) error {
		if id, _ := tx.NextID(); id != firstID+1 {
			t.Errorf("NextID after failed Updates = %d, want %d", id, firstID+1)
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

// Backups taken while a writer commits open as gmd databases, pass
// Check, and hold at least what was committed before they began.
func TestBackupWhileWriting(t *testing.T) {
	db := openTemp(t)
	dir := t.TempDir()

	var committed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writeErr error
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			err := db.Update(func(tx *Tx) error {
				g := &Game{Name: fmt.Sprintf("g%05d", i), Wake: t0.Add(time.Duration(i) * time.Minute)}
				if err := tx.PutGame(g); err != nil {
					return err
				}
				if err := tx.AddPress(g.Name, 0, &Press{Text: strings.Repeat("press ", 200)}); err != nil {
					return err
				}
				if err := tx.PutPhase(g.Name, phase(0)); err != nil {
					return err
				}
				return tx.Enqueue(&OutMail{Subject: g.Name, Body: strings.Repeat("body ", 500)})
			})
			if err != nil {
				writeErr = err
				return
			}
			committed.Store(int64(i + 1))
		}
	})
	// Let the writer get going.
	for committed.Load() < 20 {
		time.Sleep(time.Millisecond)
	}

	type backup struct {
		path   string
		before int64
	}
	var backups []backup
	for i := range 5 {
		b := backup{path: filepath.Join(dir, fmt.Sprintf("backup%d.db", i)), before: committed.Load()}
		if i%2 == 0 {
			if err := db.BackupFile(b.path); err != nil {
				t.Fatal(err)
			}
		} else {
			var buf bytes.Buffer
			n, err := db.Backup(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(buf.Len()) {
				t.Errorf("Backup returned %d, wrote %d bytes", n, buf.Len())
			}
			if err := os.WriteFile(b.path, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		backups = append(backups, b)
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if writeErr != nil {
		t.Fatal(writeErr)
	}
	if _, err := os.Stat(backups[0].path + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("BackupFile left its temporary file: %v", err)
	}

	for _, b := range backups {
		bdb, err := Open(b.path)
		if err != nil {
			t.Fatalf("open backup: %v", err)
		}
		if err := bdb.Check(); err != nil {
			t.Errorf("backup %s: %v", b.path, err)
		}
		view(t, bdb, func(tx *Tx) error {
			n := int64(len(gameNames(t, tx)))
			out, _ := tx.Outbox(0)
			if n < b.before || int64(len(out)) != n {
				t.Errorf("backup %s: %d games, %d mails; want the same number, at least %d", filepath.Base(b.path), n, len(out), b.before)
			}
			return nil
		})
		bdb.Close()
	}
}

func TestBackupFileRefusesTheDatabase(t *testing.T) {
	db := openTemp(t)
	setWake(t, db, "dt", t0)
	if err := db.BackupFile(db.Path()); err == nil {
		t.Fatal("BackupFile over the database itself succeeded")
	}
	if got := due(t, db, t0); !slices.Equal(got, []string{"dt"}) {
		t.Errorf("database after refused backup: Due = %v", got)
	}
	if err := db.BackupFile(filepath.Join(t.TempDir(), "no", "such", "dir", "b.db")); err == nil {
		t.Error("BackupFile into a missing directory succeeded")
	}
}

// TestOnCommit checks OnCommit's function runs after a committed Update,
// and never after one rolled back or in a View.
func TestOnCommit(t *testing.T) {
	db := openTemp(t)
	var ran []string
	if err := db.Update(func(tx *Tx) error {
		tx.OnCommit(func() { ran = append(ran, "committed") })
		return tx.PutGame(&Game{Name: "g", Status: Active})
	}); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("roll back")
	if err := db.Update(func(tx *Tx) error {
		tx.OnCommit(func() { ran = append(ran, "rolled back") })
		return failed
	}); !errors.Is(err, failed) {
		t.Fatalf("Update: %v", err)
	}
	if err := db.View(func(tx *Tx) error {
		tx.OnCommit(func() { ran = append(ran, "view") })
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ran, []string{"committed"}) {
		t.Errorf("ran %q, want only the committed one", ran)
	}
}
