package state

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Digest names what the board of a processed phase is drawn from: the
// record's position and orders, hashed. Two records of the same turn
// are told apart by it even when they were processed at the same instant
// (one mail of the master's may PROCESS, ROLLBACK and PROCESS again), so
// that a picture is never taken for another's. It is 16 hex digits:
// enough against chance, and small in every outbox record that holds it.
func (r *PhaseRecord) Digest() string {
	// Marshal writes the raw position compacted and the map's keys
	// sorted, so the same record gives the same bytes before it is
	// stored and after it is read back.
	b, err := json.Marshal(struct {
		Position json.RawMessage     `json:"position"`
		Orders   map[string][]string `json:"orders"`
	}{r.Position, r.Orders})
	if err != nil {
		// A position that is no JSON (a damaged record) is hashed as it
		// is: the digest still differs from every valid record's.
		b = append([]byte(r.Position), 0)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
