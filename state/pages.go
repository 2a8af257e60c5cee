package state

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
)

// The page check. bbolt's own (Tx.Check) reads the pages through its
// memory map in a goroutine of its own, where a page that points outside
// the file is a fault no recover can catch: gmd check died of SIGSEGV on
// a damaged leaf page. This one reads the file with ReadAt, page by
// page, into slices whose every index is checked: a page out of the
// file is an error of ReadAt, a length out of the page is a test that
// fails, and nothing can fault. It checks what bbolt's check does (every
// page reachable once, or free, never both; keys in order) and what
// bbolt has no check for: both meta pages, so that a database that fell
// back to the older one says so.

// The layout of a bbolt 1.x file (go.etcd.io/bbolt/internal/common).
const (
	pageHeaderSize = 16 // id u64, flags u16, count u16, overflow u32
	elemSize       = 16 // a branch or leaf page element
	metaSize       = 64 // the meta, after the page header
	boltMagic      = 0xED0CDAED
	boltVersion    = 2

	branchPage   = 0x01
	leafPage     = 0x02
	metaPage     = 0x04
	freelistPage = 0x10

	bucketLeaf = 0x01 // a leaf element that is a bucket

	noFreelist = 0xFFFFFFFFFFFFFFFF
)

// boltMeta is one meta page, read.
type boltMeta struct {
	freelist, txid uint64
	fault          string // why it is not sound, or ""
}

// readMeta reads meta page n (0 or 1) of f and says whether it is sound,
// as bbolt's Meta.Validate does.
func readMeta(f io.ReaderAt, n int, pageSize int) boltMeta {
	var m boltMeta
	buf := make([]byte, pageHeaderSize+metaSize)
	if _, err := f.ReadAt(buf, int64(n)*int64(pageSize)); err != nil {
		m.fault = err.Error()
		return m
	}
	le := binary.LittleEndian
	body := buf[pageHeaderSize:]
	magic, version := le.Uint32(body), le.Uint32(body[4:])
	m.freelist, m.txid = le.Uint64(body[32:]), le.Uint64(body[48:])
	h := fnv.New64a()
	h.Write(body[:56])
	switch {
	case magic != boltMagic:
		m.fault = "no bbolt marker"
	case version != boltVersion:
		m.fault = fmt.Sprintf("version %d", version)
	case le.Uint64(body[56:]) != h.Sum64():
		m.fault = "its checksum does not match"
	case le.Uint16(buf[8:]) != metaPage:
		m.fault = "not marked a meta page"
	}
	return m
}

// pageWalk is the state of one page check.
type pageWalk struct {
	c        *checker
	f        io.ReaderAt
	size     int64 // of the file
	pageSize int
	high     uint64            // the page count of the meta in use
	owner    map[uint64]string // reachable pages: what reaches them
}

// checkPages checks the pages of the file at path as the read
// transaction txid sees them: its root bucket's page root, its count of
// pages high. A writer may commit while it runs: the pages reachable from
// root do not change under the read transaction, but the meta pages and
// the freelist may, so once neither meta page is txid's any more only
// the tree is checked.
func (c *checker) checkPages(path string, pageSize int, txid, root, high uint64) {
	f, err := os.Open(path)
	if err != nil {
		c.addf("pages: %v", err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		c.addf("pages: %v", err)
		return
	}
	w := &pageWalk{c: c, f: f, size: fi.Size(), pageSize: pageSize, owner: make(map[uint64]string)}
	metas := [2]boltMeta{readMeta(f, 0, pageSize), readMeta(f, 1, pageSize)}
	var use *boltMeta
	for i := range metas {
		if metas[i].fault == "" && metas[i].txid == txid {
			use = &metas[i]
		}
	}
	for i, m := range metas {
		if m.fault == "" {
			continue
		}
		other := metas[1-i]
		if other.fault != "" {
			c.addf("meta page %d is damaged (%s)", i, m.fault)
			continue
		}
		// bbolt reads the sound meta page with the higher transaction
		// and writes the next one over the other. With one damaged, it
		// reads the sound one; the damaged one held the transaction
		// before it (nothing lost) or the one after (lost), and the
		// damage hides which.
		c.addf("meta page %d is damaged (%s): bbolt fell back to meta page %d, transaction %d; "+
			"the transaction after it (%d), if it was written, is lost: its mails may be offered again and its replies sent again",
			i, m.fault, 1-i, other.txid, other.txid+1)
	}
	w.high = high
	if int64(w.high)*int64(pageSize) > w.size {
		c.addf("pages: the meta page counts %d pages, but the file holds %d", w.high, w.size/int64(pageSize))
	}
	w.owner[0], w.owner[1] = "meta", "meta"
	if use == nil {
		// A writer committed twice since the transaction began: the
		// file's meta pages and freelist are newer than its tree.
		w.tree(root, "the root bucket", 0)
		return
	}
	if use.freelist != noFreelist {
		w.reach(use.freelist, "the freelist")
	}
	w.tree(root, "the root bucket", 0)
	if use.freelist == noFreelist {
		// Written without a freelist (bbolt's NoFreelistSync, which gmd
		// does not use): which pages are free is not on disk.
		return
	}
	free := w.freelist(use.freelist)
	for id := uint64(2); id < w.high; id++ {
		if _, ok := w.owner[id]; !ok && !free[id] {
			c.addf("page %d: neither reachable nor free (lost)", id)
		}
	}
}

// page reads page id with its overflow pages and checks its header: its
// own number, one of the flags in want. It returns nil after adding the
// problem.
func (w *pageWalk) page(id uint64, what string, want ...uint16) []byte {
	if id < 2 || id >= w.high {
		w.c.addf("%s: page %d is outside the database (pages 2 to %d)", what, id, w.high-1)
		return nil
	}
	head := make([]byte, pageHeaderSize)
	if _, err := w.f.ReadAt(head, int64(id)*int64(w.pageSize)); err != nil {
		w.c.addf("%s: page %d: %v", what, id, err)
		return nil
	}
	le := binary.LittleEndian
	if got := le.Uint64(head); got != id {
		w.c.addf("%s: page %d says it is page %d", what, id, got)
		return nil
	}
	if flags := le.Uint16(head[8:]); !slices.Contains(want, flags) {
		w.c.addf("%s: page %d has type %#x, want %s", what, id, flags, flagNames(want))
		return nil
	}
	over := uint64(le.Uint32(head[12:]))
	if over >= w.high || id+over >= w.high {
		w.c.addf("%s: page %d runs %d pages past the end of the database", what, id, over)
		return nil
	}
	buf := make([]byte, (1+over)*uint64(w.pageSize))
	if _, err := w.f.ReadAt(buf, int64(id)*int64(w.pageSize)); err != nil {
		w.c.addf("%s: page %d: %v", what, id, err)
		return nil
	}
	return buf
}

func flagNames(want []uint16) string {
	names := map[uint16]string{branchPage: "branch", leafPage: "leaf", freelistPage: "freelist"}
	s := ""
	for i, f := range want {
		if i > 0 {
			s += " or "
		}
		s += names[f]
	}
	return s
}

// reach marks page id and its overflow pages reached by what, and
// returns them; a page reached before is a problem (two owners would
// overwrite each other), and then it returns nil.
func (w *pageWalk) reach(id uint64, what string) []uint64 {
	if id < 2 || id >= w.high {
		return nil // page reports it
	}
	var over uint64
	head := make([]byte, pageHeaderSize)
	if _, err := w.f.ReadAt(head, int64(id)*int64(w.pageSize)); err == nil {
		over = uint64(binary.LittleEndian.Uint32(head[12:]))
	}
	if over >= w.high-id {
		over = 0 // page reports it
	}
	ids := make([]uint64, 0, over+1)
	for p := id; p <= id+over; p++ {
		if prev, ok := w.owner[p]; ok {
			w.c.addf("page %d: reached from %s and from %s", p, prev, what)
			return nil
		}
		w.owner[p] = what
		ids = append(ids, p)
	}
	return ids
}

// maxTreeDepth bounds the tree: a damaged branch that points back up would
// otherwise be followed for ever (reach stops that too).
const maxTreeDepth = 64

// tree checks the bucket whose root page is id, and every page and
// bucket below it.
func (w *pageWalk) tree(id uint64, what string, depth int) {
	if depth > maxTreeDepth {
		w.c.addf("%s: the tree is more than %d levels deep", what, maxTreeDepth)
		return
	}
	if w.reach(id, what) == nil {
		return
	}
	buf := w.page(id, what, branchPage, leafPage)
	if buf == nil {
		return
	}
	w.elements(buf, id, what, depth)
}

// elements checks the elements of a branch or leaf page held in buf
// (page id, or 0 for a bucket inline in its parent's leaf), following
// each branch to its child and each bucket to its root.
func (w *pageWalk) elements(buf []byte, id uint64, what string, depth int) {
	le := binary.LittleEndian
	flags, count := le.Uint16(buf[8:]), int(le.Uint16(buf[10:]))
	if pageHeaderSize+count*elemSize > len(buf) {
		w.c.addf("%s: page %d has %d elements, more than it can hold", what, id, count)
		return
	}
	var prev []byte
	for i := range count {
		at := pageHeaderSize + i*elemSize
		e := buf[at : at+elemSize]
		var pos, ksize, vsize uint64
		if flags == branchPage {
			pos, ksize = uint64(le.Uint32(e)), uint64(le.Uint32(e[4:]))
		} else {
			pos, ksize, vsize = uint64(le.Uint32(e[4:])), uint64(le.Uint32(e[8:])), uint64(le.Uint32(e[12:]))
		}
		start := uint64(at) + pos
		if start+ksize+vsize > uint64(len(buf)) {
			w.c.addf("%s: page %d element %d lies outside the page", what, id, i)
			return
		}
		key := buf[start : start+ksize]
		if i > 0 && bytes.Compare(prev, key) >= 0 {
			w.c.addf("%s: page %d: key %q is out of order after %q", what, id, key, prev)
		}
		prev = key
		if flags == branchPage {
			w.tree(le.Uint64(e[8:]), what, depth+1)
			continue
		}
		if le.Uint32(e)&bucketLeaf == 0 {
			continue
		}
		val := buf[start+ksize : start+ksize+vsize]
		name := fmt.Sprintf("bucket %q", key)
		if len(val) < 16 {
			w.c.addf("%s: page %d: %s has no bucket header", what, id, name)
			continue
		}
		if root := le.Uint64(val); root != 0 {
			w.tree(root, name, depth+1)
			continue
		}
		// An inline bucket: its one leaf page follows the header.
		inline := val[16:]
		if len(inline) < pageHeaderSize || le.Uint16(inline[8:]) != leafPage {
			w.c.addf("%s: page %d: %s is inline but holds no leaf", what, id, name)
			continue
		}
		w.elements(inline, 0, name, depth+1)
	}
}

// freelist reads the freelist page id (taking its pages, reached
// already) and checks its page numbers: inside the database, listed
// once, and not reachable, which would have bbolt hand out a page in
// use. It returns the free pages.
func (w *pageWalk) freelist(id uint64) map[uint64]bool {
	free := make(map[uint64]bool)
	buf := w.page(id, "the freelist", freelistPage)
	if buf == nil {
		return free
	}
	le := binary.LittleEndian
	count, at := uint64(le.Uint16(buf[10:])), uint64(pageHeaderSize)
	if count == 0xFFFF {
		count, at = le.Uint64(buf[pageHeaderSize:]), at+8
	}
	if count > (uint64(len(buf))-at)/8 {
		w.c.addf("the freelist: page %d lists %d pages, more than it can hold", id, count)
		return free
	}
	for i := range count {
		p := le.Uint64(buf[at+8*i:])
		switch {
		case p < 2 || p >= w.high:
			w.c.addf("the freelist lists page %d, outside the database (pages 2 to %d)", p, w.high-1)
		case free[p]:
			w.c.addf("the freelist lists page %d twice", p)
		case w.owner[p] != "":
			w.c.addf("the freelist lists page %d, which %s uses: bbolt would hand it out and overwrite it", p, w.owner[p])
		}
		free[p] = true
	}
	return free
}
