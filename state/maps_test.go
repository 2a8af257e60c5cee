package state

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestPhase reads one turn of a game's history, and finds none where
// there is none.
func TestPhase(t *testing.T) {
	db := openTemp(t)
	update(t, db, func(tx *Tx) error {
		for _, turn := range []int{0, 1, 2} {
			if err := tx.PutPhase("dt", phase(turn)); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, db, func(tx *Tx) error {
		rec, err := tx.Phase("DT", 1)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(rec, phase(1)) {
			t.Errorf("Phase(DT, 1) = %+v, want %+v", rec, phase(1))
		}
		for _, c := range []struct {
			game string
			turn int
		}{{"dt", 3}, {"dt", -1}, {"nosuch", 0}} {
			if rec, err := tx.Phase(c.game, c.turn); !errors.Is(err, ErrNotFound) {
				t.Errorf("Phase(%s, %d) = %v, %v; want ErrNotFound", c.game, c.turn, rec, err)
			}
		}
		return nil
	})
}

// TestOutMailMaps keeps a mail's map references through the outbox, and
// reads a record written before they existed as a mail without maps.
func TestOutMailMaps(t *testing.T) {
	db := openTemp(t)
	ref := MapRef{Game: "dt", Turn: 1, Phase: "S1901M", Processed: t0}
	var id uint64
	update(t, db, func(tx *Tx) error {
		m := &OutMail{MessageID: "<gmd.1@localhost>", To: []string{"a@example.org"}, Subject: "s", Body: "b\n",
			Created: t0, Maps: []MapRef{ref}}
		err := tx.Enqueue(m)
		id = m.ID
		return err
	})
	view(t, db, func(tx *Tx) error {
		m, err := tx.OutMail(id)
		if err != nil {
			return err
		}
		if len(m.Maps) != 1 || !m.Maps[0].Processed.Equal(t0) || m.Maps[0].Game != "dt" || m.Maps[0].Turn != 1 || m.Maps[0].Phase != "S1901M" {
			t.Errorf("Maps = %+v, want [%+v]", m.Maps, ref)
		}
		return nil
	})

	var old OutMail
	if err := json.Unmarshal([]byte(`{"id":7,"message_id":"<a@b>","to":["a@b"],"subject":"s","body":"b","created":"2026-01-02T15:04:05Z"}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Maps != nil || old.ID != 7 {
		t.Errorf("old record read as %+v, want ID 7 and no maps", old)
	}
	// A mail without maps writes no "maps" field, as before.
	b, err := json.Marshal(&OutMail{ID: 1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"maps"`) {
		t.Errorf("a mail without maps marshals as %s", b)
	}
}

// TestPhaseDigest: a record's digest is the same before it is stored and
// after it is read back, even from a position spaced otherwise, and
// differs when the orders or the position do.
func TestPhaseDigest(t *testing.T) {
	db := openTemp(t)
	rec := phase(1)
	rec.Position = json.RawMessage(`{ "phase": "S1901M" }`)
	want := rec.Digest()
	if len(want) != 16 {
		t.Errorf("digest %q, want 16 hex digits", want)
	}
	update(t, db, func(tx *Tx) error { return tx.PutPhase("dt", rec) })
	view(t, db, func(tx *Tx) error {
		back, err := tx.Phase("dt", 1)
		if err != nil {
			return err
		}
		if got := back.Digest(); got != want {
			t.Errorf("digest after storing %q, before %q", got, want)
		}
		return nil
	})
	other := phase(1)
	other.Orders = map[string][]string{"England": {"F Lon H"}}
	moved := phase(1)
	moved.Position = json.RawMessage(`{"phase":"F1901M"}`)
	for _, r := range []*PhaseRecord{other, moved} {
		if r.Digest() == want {
			t.Errorf("record %+v has the digest of another", r)
		}
	}
	// A damaged position still gets a digest of its own.
	bad := phase(1)
	bad.Position = json.RawMessage(`{"phase":`)
	if d := bad.Digest(); d == want || len(d) != 16 {
		t.Errorf("damaged record's digest %q", d)
	}
}
