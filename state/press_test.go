package state

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.etcd.io/bbolt"
)

// pressTexts returns the texts of game's press at turn.
func pressTexts(t *testing.T, db *DB, game string, turn int) []string {
	t.Helper()
	var out []string
	view(t, db, func(tx *Tx) error {
		ps, err := tx.Press(game, turn)
		for _, p := range ps {
			out = append(out, p.Text)
		}
		return err
	})
	return out
}

// Press is kept per game and phase, in the order sent, and goes with
// its game.
func TestPress(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for _, name := range []string{"dt", "ww"} {
			if err := tx.PutGame(&Game{Name: name}); err != nil {
				return err
			}
		}
		for i, turn := range []int{1, 0, 1, 2, 1} {
			if err := tx.AddPress("DT", turn, &Press{From: "France", Text: fmt.Sprintf("dt %d/%d", turn, i)}); err != nil {
				return err
			}
		}
		return tx.AddPress("ww", 1, &Press{Text: "ww"})
	})
	db = reopen(t, db)
	if got := pressTexts(t, db, "dt", 1); !slices.Equal(got, []string{"dt 1/0", "dt 1/2", "dt 1/4"}) {
		t.Errorf("dt turn 1: %q", got)
	}
	if got := pressTexts(t, db, "dt", 3); got != nil {
		t.Errorf("dt turn 3: %q", got)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	update(t, db, func(tx *Tx) error { return tx.DeleteGame("dt") })
	if got := pressTexts(t, db, "dt", 1); got != nil {
		t.Errorf("press of a deleted game: %q", got)
	}
	if got := pressTexts(t, db, "ww", 1); !slices.Equal(got, []string{"ww"}) {
		t.Errorf("the other game's press: %q", got)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

// A database of schema 1 or 2 kept press in the game record (the current
// phase's) and in the history records (each phase's); the migration moves
// both to the press bucket and leaves the records without it.
func TestMigrateTo3MovesPress(t *testing.T) {
	db := openTemp(t)
	path := db.Path()
	db.Close()
	press := func(text string) string {
		return fmt.Sprintf(`{"phase":"S1901M","from":"France","to":["England"],"text":%q,"sent":"2026-01-02T15:04:05Z"}`, text)
	}
	rawBolt(t, path, func(tx *bbolt.Tx) error {
		if err := tx.DeleteBucket(bucketPress); err != nil {
			return err
		}
		if err := setSchema(tx, 1); err != nil {
			return err
		}
		games := tx.Bucket(bucketGames)
		if err := games.Put([]byte("dt"), []byte(`{"name":"dt","status":"active","turn":2,"press":[`+press("now 1")+`,`+press("now 2")+`]}`)); err != nil {
			return err
		}
		if err := games.Put([]byte("quiet"), []byte(`{"name":"quiet","status":"forming","turn":0}`)); err != nil {
			return err
		}
		hist, err := tx.Bucket(bucketHistory).CreateBucket([]byte("dt"))
		if err != nil {
			return err
		}
		if err := hist.Put(turnKey(1), []byte(`{"phase":"S1901M","turn":1,"results":"r1","press":[`+press("then")+`]}`)); err != nil {
			return err
		}
		return hist.Put(turnKey(2), []byte(`{"phase":"F1901M","turn":2,"results":"r2"}`))
	})
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	if got := pressTexts(t, db, "dt", 2); !slices.Equal(got, []string{"now 1", "now 2"}) {
		t.Errorf("the current phase's press after migration: %q", got)
	}
	if got := pressTexts(t, db, "dt", 0); !slices.Equal(got, []string{"then"}) {
		t.Errorf("S1901M's press after migration: %q", got)
	}
	view(t, db, func(tx *Tx) error {
		raw := tx.tx.Bucket(bucketGames).Get([]byte("dt"))
		if strings.Contains(string(raw), `"press"`) {
			t.Errorf("the game record still holds press: %s", raw)
		}
		var g map[string]json.RawMessage
		if err := decode(raw, &g); err != nil || string(g["turn"]) != "2" || string(g["status"]) != `"active"` {
			t.Errorf("the game record lost fields: %s (%v)", raw, err)
		}
		recs, err := tx.Phases("dt")
		if err != nil {
			return err
		}
		for _, k := range [][]byte{turnKey(1), turnKey(2)} {
			if raw := tx.tx.Bucket(bucketHistory).Bucket([]byte("dt")).Get(k); strings.Contains(string(raw), `"press"`) {
				t.Errorf("the history record still holds press: %s", raw)
			}
		}
		if len(recs) != 2 || recs[0].Results != "r1" || recs[1].Results != "r2" {
			t.Errorf("history after migration: %+v", recs)
		}
		return nil
	})
}

// Queued counts the recipients of the mails a transaction queued, and
// nothing of earlier transactions.
func TestQueued(t *testing.T) {
	db := openTemp(t)
	for range 2 {
		update(t, db, func(tx *Tx) error {
			if n := tx.Queued(); n != 0 {
				t.Errorf("Queued at the start = %d", n)
			}
			if err := tx.Enqueue(&OutMail{To: []string{"a@x", "b@x"}}); err != nil {
				return err
			}
			if err := tx.Enqueue(&OutMail{To: []string{"c@x"}}); err != nil {
				return err
			}
			if n := tx.Queued(); n != 3 {
				t.Errorf("Queued after 3 recipients = %d", n)
			}
			return nil
		})
	}
}
