package mapgeo

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// loaded is one variant's parsed geometry. The Once makes concurrent first
// calls parse the file once; later calls share the result.
type loaded struct {
	once sync.Once
	g    *Geometry
	ok   bool
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*loaded{} // by variant name; only names of real maps reach it
)

// For returns the drawn board of m: the geometry of the map's own variant,
// or, for a map built on another ("base standard": Fleet Rome, Chaos...),
// that map's. It reports false when neither has geometry; such a map is
// drawn as a schematic. The Geometry is parsed once and shared: callers
// must not change it.
func For(m *judge.Map) (*Geometry, bool) {
	if g, ok := load(m.Name); ok {
		return g, true
	}
	if m.Base != "" {
		return load(m.Base)
	}
	return nil, false
}

func load(name string) (*Geometry, bool) {
	cacheMu.Lock()
	e, ok := cache[name]
	if !ok {
		e = &loaded{}
		cache[name] = e
	}
	cacheMu.Unlock()
	e.once.Do(func() {
		src, ok := variants.GeoJSON(name)
		if !ok {
			return
		}
		g, err := Parse(src)
		if err != nil {
			// The embedded files are checked by this package's tests, so
			// a broken one is a defect of the build, as with the maps.
			panic(fmt.Sprintf("mapgeo: %s: %v", name, err))
		}
		e.g, e.ok = g, true
	})
	return e.g, e.ok
}

// Parse reads geometry in the file format (see the package comment) and
// checks that its numbers make whole points.
func Parse(src []byte) (*Geometry, error) {
	var g Geometry
	if err := json.Unmarshal(src, &g); err != nil {
		return nil, err
	}
	if g.Width <= 0 || g.Height <= 0 {
		return nil, fmt.Errorf("box %d × %d", g.Width, g.Height)
	}
	if g.Pixels < 0 || g.Pixels > 4000 {
		return nil, fmt.Errorf("pictures %d pixels wide", g.Pixels)
	}
	for name, p := range g.Provinces {
		for _, r := range p.Rings {
			if len(r)%2 != 0 {
				return nil, fmt.Errorf("province %s: a ring has an odd count of numbers", name)
			}
		}
	}
	for _, r := range g.Impassable {
		for _, ring := range r.Rings {
			if len(ring)%2 != 0 {
				return nil, fmt.Errorf("impassable %s: a ring has an odd count of numbers", r.Name)
			}
		}
	}
	return &g, nil
}
