// Package variants holds the maps gmd plays on, as map files embedded in
// the binary (the format is described at judge.ParseMap), and loads them.
//
// A variant's name is its file name without ".map": the standard map is
// standard.map, played as "standard", and "34, 35, 36" is 34-35-36.map,
// played as "34-35-36". Names are not case sensitive, and spaces, commas,
// dots, hyphens and underscores in them may be left out or added: "343536"
// and "34, 35, 36" name 34-35-36 too.
package variants

import (
	"embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/gmdjudge/gmd/judge"
)

//go:embed *.map
var files embed.FS

// geoFiles are the drawn boards (package mapgeo reads them): a variant's
// <name>.geo.json beside its <name>.map.
//
//go:embed *.geo.json
var geoFiles embed.FS

// entry holds one variant's parsed map. The Once makes concurrent first
// loads parse the file once, and later loads share the result: a Map is
// immutable, so sharing it is safe.
type entry struct {
	file string // the embedded file's name, in its own case
	once sync.Once
	m    *judge.Map
	err  error
}

var (
	namesOnce sync.Once
	names     []string          // sorted variant names
	entries   map[string]*entry // by folded name (see fold), created with names
)

// fold reduces a variant name to its look-up key: lower case, without the
// punctuation that people write between the numbers of a name like "34,
// 35, 36". Slashes stay, so that no path ever names a variant.
func fold(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', ',', '.', '-', '_':
			return -1
		}
		return unicode.ToLower(r)
	}, name)
}

// index lists the embedded files once. Entries exist only for real
// variants, so looking up names from players' mail cannot grow the cache.
func index() {
	namesOnce.Do(func() {
		entries = map[string]*entry{}
		dir, err := files.ReadDir(".")
		if err != nil {
			// The embedded directory always exists: the go:embed pattern
			// would not compile without a match.
			panic("variants: " + err.Error())
		}
		for _, f := range dir {
			n, ok := strings.CutSuffix(f.Name(), ".map")
			if !ok || f.IsDir() {
				continue
			}
			n = strings.ToLower(n)
			if _, dup := entries[fold(n)]; dup {
				// Two files whose names fold alike: a mistake in this
				// package, which the tests would catch at once.
				panic("variants: two maps are named like " + n)
			}
			names = append(names, n)
			entries[fold(n)] = &entry{file: f.Name()}
		}
		slices.Sort(names)
	})
}

// Names returns the names of the embedded variants, sorted.
func Names() []string {
	index()
	return slices.Clone(names)
}

// Load returns the map of the named variant (see the package comment for
// the spellings it takes). Each map is parsed once and then shared; Load
// is safe for concurrent use.
func Load(name string) (*judge.Map, error) {
	index()
	e, ok := entries[fold(name)]
	if !ok {
		return nil, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(names, ", "))
	}
	e.once.Do(func() {
		key := strings.ToLower(strings.TrimSuffix(e.file, ".map"))
		src, err := files.ReadFile(e.file)
		if err != nil {
			e.err = fmt.Errorf("variant %s: %w", key, err)
			return
		}
		e.m, e.err = judge.ParseMapFrom(key, src, Source)
	})
	return e.m, e.err
}

// Source returns the file name and text of an embedded variant's map, for
// the base line of a map built on it ("base standard"); it is a
// judge.MapSource.
func Source(name string) (string, []byte, error) {
	index()
	e, ok := entries[fold(name)]
	if !ok {
		return "", nil, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(names, ", "))
	}
	src, err := files.ReadFile(e.file)
	return e.file, src, err
}

// Standard returns the standard map. It panics only if the embedded
// standard.map is broken, which the package tests rule out.
func Standard() *judge.Map {
	m, err := Load("standard")
	if err != nil {
		panic(err)
	}
	return m
}

// GeoJSON returns the text of the named variant's own drawn board, its
// .geo.json file (the format is package mapgeo's), if it has one. A map
// built on another ("base standard") has none of its own.
func GeoJSON(name string) ([]byte, bool) {
	index()
	e, ok := entries[fold(name)]
	if !ok {
		return nil, false
	}
	src, err := geoFiles.ReadFile(strings.TrimSuffix(e.file, ".map") + ".geo.json")
	return src, err == nil
}
