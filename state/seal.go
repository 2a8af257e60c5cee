package state

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
)

// Each record of the judge's own (a game, a phase of the history, a
// user, a queued, held or press mail, a ledger entry, the settings) is
// stored sealed: its bytes, then a checksum of them. bbolt checks its
// meta pages and nothing else: a bit flipped in a leaf page reads back
// as a record that may still decode, as another game's position, say.
// A record is checked each time it is read; one whose checksum does not
// match is damaged (ErrDamaged), like one that does not decode.
//
// The migration rule: a record written before checksums (by gmd before
// issue 18) has no seal, and is read as it is, on its word as before;
// it gets its seal the next time it is written. Nothing is rewritten
// at once, so a database of either kind opens at the same speed, and an
// older gmd cannot read a sealed record (the schema version says so).

// sealSize is the seal's length: a NUL, which no JSON text holds, and
// 0xC5, which mark it, then the CRC-32C of the record, big-endian.
const sealSize = 6

// castagnoli is CRC-32C, which the CPU computes (SSE 4.2, ARMv8):
// gigabytes a second, nothing beside a record's JSON.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errChecksum is the error of a record whose seal does not match it.
var errChecksum = errors.New("its checksum does not match: a bit of it changed on disk")

// seal returns data with its seal appended. It may append to data.
func seal(data []byte) []byte {
	sum := crc32.Checksum(data, castagnoli)
	return binary.BigEndian.AppendUint32(append(data, 0, 0xC5), sum)
}

// unseal returns the record of a stored value: the value without its
// seal when it has one that matches, the value as it is when it has no
// seal (written before checksums), and errChecksum, wrapped as damage,
// when the seal does not match. A flipped bit in the mark itself leaves
// a NUL or a stray byte after the JSON text, which does not decode.
func unseal(v []byte) ([]byte, error) {
	n := len(v) - sealSize
	if n < 0 || v[n] != 0 || v[n+1] != 0xC5 {
		return v, nil
	}
	if crc32.Checksum(v[:n], castagnoli) != binary.BigEndian.Uint32(v[n+2:]) {
		return nil, damaged(errChecksum)
	}
	return v[:n], nil
}

// encode is json.Marshal, sealed.
func encode(x any) ([]byte, error) {
	data, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return seal(data), nil
}

// decode unseals a stored value and decodes it into x.
func decode(v []byte, x any) error {
	data, err := unseal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, x)
}
