package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"
)

// Press is kept apart from the game record, in the press bucket: one
// nested bucket per game, and in it one record per message under its
// phase's turn and a sequence number. The game record is read and
// written by every mail for the game, so press kept there made every
// later mail pay for all the press of the phase (60 messages of 950 KB
// made each mail cost 2 s and 380 MB); here a mail pays only for the
// press it sends.

// pressKey is the key of a press record: the big-endian turn (the game's
// Turn when it was sent, so that a phase's press sorts together), then
// the big-endian sequence number within the game.
func pressKey(turn int, seq uint64) []byte {
	return append(turnKey(turn), idKey(seq)...)
}

// AddPress records one press message of game, sent during the phase
// played at turn (the game's Turn then: the phases processed before it).
func (tx *Tx) AddPress(game string, turn int, p *Press) error {
	key := nameKey(game)
	if len(key) == 0 {
		return errors.New("state: press of a game without a name")
	}
	if turn < 0 {
		return fmt.Errorf("game %s: press at negative turn %d", game, turn)
	}
	press, err := tx.bucket(bucketPress)
	if err != nil {
		return err
	}
	return addPress(press, key, turn, p)
}

// addPress is AddPress on the press bucket, for the migration too.
func addPress(press *bbolt.Bucket, game []byte, turn int, p *Press) error {
	b, err := press.CreateBucketIfNotExists(game)
	if err != nil {
		return fmt.Errorf("game %s press: %w", game, err)
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	data, err := encode(p)
	if err != nil {
		return fmt.Errorf("game %s press: %w", game, err)
	}
	return b.Put(pressKey(turn, seq), data)
}

// Press returns the press of game sent during the phase played at turn,
// in the order it was sent; none if there was none.
func (tx *Tx) Press(game string, turn int) ([]*Press, error) {
	press, err := tx.bucket(bucketPress)
	if err != nil {
		return nil, err
	}
	b := press.Bucket(nameKey(game))
	if b == nil {
		return nil, nil
	}
	var out []*Press
	prefix := turnKey(turn)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		p := new(Press)
		if err := decode(v, p); err != nil {
			return nil, fmt.Errorf("game %s press %x: %w", game, k, damaged(err))
		}
		out = append(out, p)
	}
	return out, nil
}

// deletePress removes all press of the game with the given key.
func deletePress(press *bbolt.Bucket, key []byte) error {
	if press.Bucket(key) == nil {
		return nil
	}
	return press.DeleteBucket(key)
}

// migrateTo3 moves press out of the game and history records into the
// press bucket: a game's pending press (its "press" field) under its
// current turn, a history record's under the turn its phase was played
// at (the record's Turn less one). The records are rewritten without the
// field, every other field as it was.
func migrateTo3(tx *bbolt.Tx) error {
	press, err := tx.CreateBucketIfNotExists(bucketPress)
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketPress, err)
	}
	if err := movePress(tx.Bucket(bucketGames), nil, press, 0); err != nil {
		return err
	}
	hist := tx.Bucket(bucketHistory)
	var names [][]byte
	err = hist.ForEach(func(name, v []byte) error {
		if v == nil {
			names = append(names, bytes.Clone(name))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := movePress(hist.Bucket(name), name, press, -1); err != nil {
			return err
		}
	}
	return nil
}

// movePress moves the press of every JSON record in b to the press
// bucket, and rewrites the record without it. game names the game of
// all the records, or is nil when each record's key is its game's name
// (the games bucket). A record's press goes under its "turn" plus
// offset.
func movePress(b *bbolt.Bucket, game []byte, press *bbolt.Bucket, offset int) error {
	type move struct{ key, game, data []byte }
	var moves []move
	err := b.ForEach(func(k, v []byte) error {
		if v == nil {
			return nil // a nested bucket: not a record
		}
		var rec map[string]json.RawMessage
		if err := decode(v, &rec); err != nil {
			return fmt.Errorf("record %q: %w", k, err)
		}
		raw, ok := rec["press"]
		if !ok {
			return nil
		}
		var msgs []Press
		if err := json.Unmarshal(raw, &msgs); err != nil {
			return fmt.Errorf("record %q: press: %w", k, err)
		}
		var turn int
		if t, ok := rec["turn"]; ok {
			if err := json.Unmarshal(t, &turn); err != nil {
				return fmt.Errorf("record %q: turn: %w", k, err)
			}
		}
		g := game
		if g == nil {
			g = k
		}
		for i := range msgs {
			if err := addPress(press, g, max(turn+offset, 0), &msgs[i]); err != nil {
				return err
			}
		}
		delete(rec, "press")
		data, err := encode(rec)
		if err != nil {
			return err
		}
		moves = append(moves, move{bytes.Clone(k), g, data})
		return nil
	})
	if err != nil {
		return err
	}
	// Rewritten after the walk: a Put under a bbolt cursor can skip keys.
	for _, m := range moves {
		if err := b.Put(m.key, m.data); err != nil {
			return fmt.Errorf("game %s: %w", m.game, err)
		}
	}
	return nil
}
