package state

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"go.etcd.io/bbolt"
)

// Records written before gmd kept the orders as written (Game.Written,
// PhaseRecord.Written) have no "written" field. They must decode as they
// are, with no schema change: the field is optional, and its absence
// means that no text was kept.
func TestRecordsWithoutWrittenDecode(t *testing.T) {
	db := openTemp(t)
	oldGame := `{"name":"dt","variant":"standard","rules":"datc-3.0","status":"active",` +
		`"created":"2026-01-01T00:00:00Z","settings":{"press":"white","partial":true,"nmr":false,"zone":"UTC",` +
		`"movement":"72h0m0s","retreat":"24h0m0s","adjustment":"24h0m0s","grace":"48h0m0s","reminder":"24h0m0s"},` +
		`"master_addr":"m@example.org","master_hash":null,"players":[],"turn":1,` +
		`"orders":{"France":["A par - bur","F bre - mao"]},"deadline":"2026-01-08T12:00:00Z"}`
	oldPhase := `{"phase":"S1901M","turn":1,"processed":"2026-01-05T12:00:00Z","position":{"phase":"S1901M"},` +
		`"orders":{"England":["F lon - nth"]},"results":"Movement results for Spring of 1901.\n"}`
	if err := db.bolt.Update(func(btx *bbolt.Tx) error {
		if err := btx.Bucket(bucketGames).Put([]byte("dt"), []byte(oldGame)); err != nil {
			return err
		}
		hist, err := btx.Bucket(bucketHistory).CreateBucket([]byte("dt"))
		if err != nil {
			return err
		}
		return hist.Put(turnKey(1), []byte(oldPhase))
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Check(); err != nil {
		t.Fatalf("Check of records without the field: %v", err)
	}
	view(t, db, func(tx *Tx) error {
		g, err := tx.Game("dt")
		if err != nil {
			return err
		}
		if g.Written != nil || !slices.Equal(g.Orders["France"], []string{"A par - bur", "F bre - mao"}) {
			t.Errorf("old game decoded with orders %q, written %q", g.Orders, g.Written)
		}
		recs, err := tx.Phases("dt")
		if err != nil {
			return err
		}
		if len(recs) != 1 || recs[0].Written != nil || !slices.Equal(recs[0].Orders["England"], []string{"F lon - nth"}) {
			t.Errorf("old phase record decoded as %+v", recs)
		}
		return nil
	})
	// Written back without texts, the records still have no such field:
	// an older gmd reads them exactly as before.
	update(t, db, func(tx *Tx) error {
		g, err := tx.Game("dt")
		if err != nil {
			return err
		}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		recs, err := tx.Phases("dt")
		if err != nil {
			return err
		}
		return tx.PutPhase("dt", recs[0])
	})
	if err := db.bolt.View(func(btx *bbolt.Tx) error {
		for what, v := range map[string][]byte{
			"game":  btx.Bucket(bucketGames).Get([]byte("dt")),
			"phase": btx.Bucket(bucketHistory).Bucket([]byte("dt")).Get(turnKey(1)),
		} {
			if bytes.Contains(v, []byte(`"written"`)) {
				t.Errorf("%s record without texts stored with a written field: %s", what, v)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// The texts as written survive a store and a reopen, on the game and in
// the history.
func TestWrittenRoundTrip(t *testing.T) {
	db := openTemp(t)
	g := sampleGame(t, "dt")
	rec := phase(3)
	update(t, db, func(tx *Tx) error {
		if err := tx.PutGame(g); err != nil {
			return err
		}
		return tx.PutPhase("dt", rec)
	})
	db = reopen(t, db)
	view(t, db, func(tx *Tx) error {
		got, err := tx.Game("dt")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got.Written, g.Written) || len(got.Written) == 0 {
			t.Errorf("game texts %q, want %q", got.Written, g.Written)
		}
		recs, err := tx.Phases("dt")
		if err != nil {
			return err
		}
		if len(recs) != 1 || !reflect.DeepEqual(recs[0].Written, rec.Written) || len(rec.Written) == 0 {
			t.Errorf("phase texts %+v, want %q", recs, rec.Written)
		}
		return nil
	})
}
