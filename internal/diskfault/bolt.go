package diskfault

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// BoltFreelist returns the page size of the bbolt file at path and the
// number of its freelist page, as its newer meta page says: the page a
// test damages to see what happens when bbolt must read it again. It
// reads the file as bbolt 1.x lays it out: two meta pages, each a 16
// byte page header, then magic, version and page size (4 bytes each),
// flags (4), the root bucket (16), the freelist page, the page count and
// the transaction ID (8 each), little-endian.
func BoltFreelist(path string) (freelist int64, pageSize int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("diskfault: %w", err)
	}
	defer f.Close()
	var head [16 + 56]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return 0, 0, fmt.Errorf("diskfault: %s: %w", path, err)
	}
	const magic = 0xED0CDAED
	meta := head[16:]
	if binary.LittleEndian.Uint32(meta[0:]) != magic {
		return 0, 0, errors.New("diskfault: " + path + " is not a bbolt file")
	}
	pageSize = int(binary.LittleEndian.Uint32(meta[8:]))
	var txid uint64
	for p := range 2 {
		m := make([]byte, 56)
		if _, err := f.ReadAt(m, int64(p*pageSize+16)); err != nil {
			return 0, 0, fmt.Errorf("diskfault: %s: %w", path, err)
		}
		if binary.LittleEndian.Uint32(m) != magic {
			continue
		}
		if t := binary.LittleEndian.Uint64(m[48:]); p == 0 || t > txid {
			txid = t
			freelist = int64(binary.LittleEndian.Uint64(m[32:]))
		}
	}
	return freelist, pageSize, nil
}

// DamagePage zeroes page number page, of pageSize bytes, of the file at
// path, and returns the damage, to mend with Mend.
func DamagePage(path string, pageSize int, page int64) (*Rot, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("diskfault: %w", err)
	}
	defer f.Close()
	old := make([]byte, pageSize)
	if _, err := f.ReadAt(old, page*int64(pageSize)); err != nil {
		return nil, fmt.Errorf("diskfault: %w", err)
	}
	if _, err := f.WriteAt(make([]byte, pageSize), page*int64(pageSize)); err != nil {
		return nil, fmt.Errorf("diskfault: %w", err)
	}
	return &Rot{path: path, size: int64(pageSize), saved: map[int64][]byte{page: old}}, nil
}
