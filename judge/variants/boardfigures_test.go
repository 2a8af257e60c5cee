package variants_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// publishedFigures are the counts a variant's published definition fixes.
// Moves count each direction: a border that armies cross both ways is two
// army moves.
type publishedFigures struct {
	provinces, seas, inland, coastal int
	splitProvinces, coasts           int
	centres, homeCentres             int
	armyMoves, fleetMoves            int
	powers, units, victory, start    int
}

// figuresOf counts m's board.
func publishedFiguresOf(m *judge.Map) publishedFigures {
	f := publishedFigures{
		provinces: len(m.Provinces()),
		centres:   len(m.Centers()),
		powers:    len(m.Powers),
		units:     len(m.StartUnits),
		victory:   m.VictoryCenters,
		start:     m.StartYear,
	}
	for _, p := range m.Provinces() {
		li := m.Locs[p]
		switch li.Kind {
		case judge.Sea:
			f.seas++
		case judge.Land:
			f.inland++
		case judge.Coast:
			f.coastal++
		}
		if len(li.Coasts) > 0 {
			f.splitProvinces++
			f.coasts += len(li.Coasts)
		}
		if li.Center && li.Home != judge.NoPower {
			f.homeCentres++
		}
		f.armyMoves += len(m.Neighbours(nil, judge.Army, p))
	}
	for l := range m.Locs {
		f.fleetMoves += len(m.Neighbours(nil, judge.Fleet, judge.Loc(l)))
	}
	return f
}

// loadVariant loads a variant or fails the test.
func loadVariant(t *testing.T, name string) *judge.Map {
	t.Helper()
	m, err := variants.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkFigures compares m's board with the published figures.
func checkPublishedFigures(t *testing.T, m *judge.Map, want publishedFigures) {
	t.Helper()
	if got := publishedFiguresOf(m); got != want {
		t.Errorf("%s: board figures\n got %+v\nwant %+v", m.Name, got, want)
	}
	if got := m.NumLocs(); got != want.provinces+want.coasts {
		t.Errorf("%s: %d places, want %d provinces and %d coasts", m.Name, got, want.provinces, want.coasts)
	}
}

// checkPowers compares m's powers with want, "Name Adjective Letter" each
// (names with spaces in them are written with underscores).
func checkPowerList(t *testing.T, m *judge.Map, want ...string) {
	t.Helper()
	var got []string
	for _, p := range m.Powers {
		got = append(got, strings.ReplaceAll(p.Name, " ", "_")+" "+strings.ReplaceAll(p.Adjective, " ", "_")+" "+string(p.Letter))
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: powers %q, want %q", m.Name, got, want)
	}
}

// checkStart compares the starting position of m with want, which maps a
// power's name to its units ("A mos F len/sc"). The game starts in the
// Spring of the map's first year, every centre owned by its home power.
func checkStartUnits(t *testing.T, m *judge.Map, want map[string]string) {
	t.Helper()
	pos := judge.StartPosition(m)
	if want := (judge.Phase{Season: judge.Spring, Year: m.StartYear, Type: judge.Movement}); pos.Phase != want {
		t.Errorf("%s: starts in %s, want %s", m.Name, pos.Phase, want)
	}
	got := map[string][]string{}
	for _, p := range m.Provinces() {
		if u, ok := pos.UnitAt(p); ok {
			name := m.PowerName(u.Power)
			got[name] = append(got[name], u.Type.String()+" "+m.LocName(u.Loc))
		}
	}
	for name, units := range want {
		w := strings.Fields(units)
		var pairs []string
		for i := 0; i+1 < len(w); i += 2 {
			pairs = append(pairs, w[i]+" "+w[i+1])
		}
		slices.Sort(pairs)
		g := got[name]
		slices.Sort(g)
		if !slices.Equal(g, pairs) {
			t.Errorf("%s: %s starts with %q, want %q", m.Name, name, g, pairs)
		}
		delete(got, name)
	}
	for name, units := range got {
		t.Errorf("%s: %s starts with %q, want none", m.Name, name, units)
	}
	for _, c := range m.Centers() {
		if pos.Centers[c] != m.Locs[c].Home {
			t.Errorf("%s: %s owned by %s at the start, want %s", m.Name, m.LocName(c),
				m.PowerName(pos.Centers[c]), m.PowerName(m.Locs[c].Home))
		}
	}
}

// checkHomeCentres compares the home centres of each power of m and the
// neutral centres with want, which maps a power's name ("" for neutral) to the ids
// of its centres.
func checkHomeCentres(t *testing.T, m *judge.Map, want map[string]string) {
	t.Helper()
	got := map[string][]string{}
	for _, c := range m.Centers() {
		owner := ""
		if h := m.Locs[c].Home; h != judge.NoPower {
			owner = m.PowerName(h)
		}
		got[owner] = append(got[owner], m.LocName(c))
	}
	for owner, ids := range want {
		w := strings.Fields(ids)
		slices.Sort(w)
		g := got[owner]
		slices.Sort(g)
		if !slices.Equal(g, w) {
			t.Errorf("%s: centres of %q %v, want %v", m.Name, owner, g, w)
		}
		delete(got, owner)
	}
	for owner, ids := range got {
		t.Errorf("%s: centres of %q %v, want none", m.Name, owner, ids)
	}
}

// checkMoves checks that each pair in yes ("a-b") is a move of kind t both
// ways, each pair in no is one neither way, and each pair in oneWay is a
// move from a to b only.
func checkMoves(t *testing.T, m *judge.Map, ut judge.UnitType, yes, no, oneWay string) {
	t.Helper()
	adj := m.FleetAdjacent
	if ut == judge.Army {
		adj = m.ArmyAdjacent
	}
	for _, c := range []struct {
		pairs       string
		there, back bool
	}{{yes, true, true}, {no, false, false}, {oneWay, true, false}} {
		for _, pair := range strings.Fields(c.pairs) {
			a, b, _ := strings.Cut(pair, "-")
			la, lb := locOf(t, m, a), locOf(t, m, b)
			if adj(la, lb) != c.there || adj(lb, la) != c.back {
				t.Errorf("%s: %s %s: %s-%s %v and %s-%s %v, want %v and %v", m.Name, ut, pair,
					a, b, adj(la, lb), b, a, adj(lb, la), c.there, c.back)
			}
		}
	}
}

// checkNeighbourList is checkNeighbours with the places written as map
// keys: want maps "A mos" or "F len/sc" to the sorted ids a unit there may
// move to.
func checkNeighbourList(t *testing.T, m *judge.Map, want map[string]string) {
	t.Helper()
	var list []neighbours
	for at, ids := range want {
		kind, place, _ := strings.Cut(at, " ")
		ut := judge.Army
		if kind == "F" {
			ut = judge.Fleet
		}
		list = append(list, neighbours{t: ut, at: place, want: ids})
	}
	checkNeighbours(t, m, list)
}

// firstYearTargets lists, for each power of m, the neutral centres that one
// of its starting units can reach by the Fall of the first year: in one or
// two moves, convoys left out. A power that takes one has a build in the
// first Winter.
func firstYearTargets(m *judge.Map) map[string][]string {
	targets := map[string][]string{}
	for _, u := range m.StartUnits {
		reach := map[judge.Loc]bool{}
		first := m.Neighbours(nil, u.Type, u.Loc)
		for _, l := range first {
			reach[m.Province(l)] = true
			for _, l2 := range m.Neighbours(nil, u.Type, l) {
				reach[m.Province(l2)] = true
			}
		}
		name := m.PowerName(u.Power)
		for _, c := range m.Centers() {
			if reach[c] && m.Locs[c].Home == judge.NoPower && !slices.Contains(targets[name], m.LocName(c)) {
				targets[name] = append(targets[name], m.LocName(c))
			}
		}
	}
	for _, s := range targets {
		slices.Sort(s)
	}
	return targets
}

// checkFleetEdgesAreLandBorders checks that two coastal provinces that a
// fleet sails between also share a land border, as on every board drawn
// with coasts along the land.
func checkFleetEdgesAreLandBorders(t *testing.T, m *judge.Map) {
	t.Helper()
	for a := range m.Locs {
		for _, b := range m.Neighbours(nil, judge.Fleet, judge.Loc(a)) {
			pa, pb := m.Province(judge.Loc(a)), m.Province(b)
			if m.Locs[pa].Kind == judge.Coast && m.Locs[pb].Kind == judge.Coast && !m.ArmyAdjacent(pa, pb) {
				t.Errorf("fleet %s-%s but no army edge", m.LocName(judge.Loc(a)), m.LocName(b))
			}
		}
	}
}
