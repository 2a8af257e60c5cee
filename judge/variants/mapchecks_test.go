package variants_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// The checks every variant's map passes, whatever its board: each test of
// a variant calls checkMap on its map.

// mapQuirks names the places where a board is stranger than the standard
// one, which the checks then allow.
type mapQuirks struct {
	// islands are coastal provinces with no army neighbour: armies reach
	// them by convoy only.
	islands []string
	// rivers are coastal provinces that touch no sea: fleets sail in from
	// another coastal province, up a river.
	rivers []string
}

// checkMap runs the checks below on m.
func checkMap(t *testing.T, m *judge.Map, q mapQuirks) {
	t.Helper()
	checkSymmetry(t, m)
	checkEdgesFitUnits(t, m)
	checkReachable(t, m, q)
}

// checkSymmetry checks that every army and fleet edge goes both ways,
// unless the map declares it one-way, and that a declared one-way edge has
// no way back.
func checkSymmetry(t *testing.T, m *judge.Map) {
	t.Helper()
	for a := range m.Locs {
		for b := range m.Locs {
			la, lb := judge.Loc(a), judge.Loc(b)
			for _, ut := range []judge.UnitType{judge.Army, judge.Fleet} {
				adj := m.FleetAdjacent
				if ut == judge.Army {
					adj = m.ArmyAdjacent
				}
				switch there, back, oneWay := adj(la, lb), adj(lb, la), m.OneWay(ut, la, lb); {
				case oneWay && (!there || back):
					t.Errorf("%s %s-%s is declared one-way, but goes %v there and %v back", ut, m.LocName(la), m.LocName(lb), there, back)
				case there && !back && !oneWay:
					t.Errorf("%s %s-%s is one-way", ut, m.LocName(la), m.LocName(lb))
				}
			}
		}
	}
}

// checkEdgesFitUnits checks that armies move between provinces that are
// not sea, and fleets between places where a fleet can stand.
func checkEdgesFitUnits(t *testing.T, m *judge.Map) {
	t.Helper()
	for _, p := range m.Provinces() {
		for _, q := range m.Neighbours(nil, judge.Army, p) {
			if m.Locs[p].Kind == judge.Sea || m.Locs[q].Kind == judge.Sea {
				t.Errorf("army edge %s-%s touches a sea", m.LocName(p), m.LocName(q))
			}
			if m.Province(q) != q {
				t.Errorf("army edge %s-%s names a coast", m.LocName(p), m.LocName(q))
			}
			if p == q {
				t.Errorf("army edge %s-%s is a loop", m.LocName(p), m.LocName(q))
			}
		}
	}
	for a := range m.Locs {
		for _, b := range m.Neighbours(nil, judge.Fleet, judge.Loc(a)) {
			for _, l := range []judge.Loc{judge.Loc(a), b} {
				li := m.Locs[l]
				if li.Kind == judge.Land {
					t.Errorf("fleet edge %s-%s touches inland %s", m.LocName(judge.Loc(a)), m.LocName(b), li.Name)
				}
				if len(li.Coasts) > 0 {
					t.Errorf("fleet edge %s-%s names the split province %s", m.LocName(judge.Loc(a)), m.LocName(b), li.Name)
				}
				if !m.CanHold(judge.Fleet, l) {
					t.Errorf("fleet edge %s-%s: no fleet can stand at %s", m.LocName(judge.Loc(a)), m.LocName(b), li.Name)
				}
			}
			if m.Province(judge.Loc(a)) == m.Province(b) {
				t.Errorf("fleet edge %s-%s stays in one province", m.LocName(judge.Loc(a)), m.LocName(b))
			}
		}
	}
}

// checkReachable checks that every place has a neighbour for the units
// that may stand there (islands excepted for armies), and that every
// coastal province touches a sea.
func checkReachable(t *testing.T, m *judge.Map, q mapQuirks) {
	t.Helper()
	for l := range m.Locs {
		loc := judge.Loc(l)
		li := m.Locs[l]
		fleetPlace := li.Province != loc || (li.Kind != judge.Land && len(li.Coasts) == 0)
		if fleetPlace && len(m.Neighbours(nil, judge.Fleet, loc)) == 0 {
			t.Errorf("%s has no fleet neighbour", li.Name)
		}
		// An impassable province (Loeb9's Switzerland) has no neighbour
		// by definition.
		if li.Province == loc && li.Kind != judge.Sea && len(m.Neighbours(nil, judge.Army, loc)) == 0 &&
			!(li.Kind == judge.Coast && slices.Contains(q.islands, li.Name)) && !li.Impassable {
			t.Errorf("%s has no army neighbour", li.Name)
		}
		// Every coastal province touches the sea somewhere, on some coast.
		if li.Province == loc && li.Kind == judge.Coast {
			touches := false
			for _, q := range m.Provinces() {
				if m.Locs[q].Kind == judge.Sea && m.FleetReaches(q, loc) {
					touches = true
				}
			}
			switch river := slices.Contains(q.rivers, li.Name); {
			case !touches && !river:
				t.Errorf("coastal %s touches no sea", li.Name)
			case touches && river:
				t.Errorf("river province %s touches a sea", li.Name)
			case river && !fleetFromSea(m, loc):
				t.Errorf("no fleet can sail from a sea to the river province %s", li.Name)
			}
		}
	}
}

// fleetFromSea reports whether a fleet can sail from some sea to province
// p, through coastal provinces.
func fleetFromSea(m *judge.Map, p judge.Loc) bool {
	seen := map[judge.Loc]bool{}
	var queue []judge.Loc
	for l := range m.Locs {
		if m.Locs[l].Kind == judge.Sea {
			queue = append(queue, judge.Loc(l))
			seen[judge.Loc(l)] = true
		}
	}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		if m.Province(l) == p {
			return true
		}
		for _, n := range m.Neighbours(nil, judge.Fleet, l) {
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return false
}

// mapFigures are the counts a variant's published map can be checked
// against. Edges are counted once for each pair of places, whichever way
// they are written.
type mapFigures struct {
	Provinces, Inland, Seas, Coastal int
	SplitCoasts                      int // coast Locs of split provinces
	Centres, HomeCentres             int
	ArmyEdges, FleetEdges            int
	Powers, Victory, StartUnits      int
}

func figuresOf(m *judge.Map) mapFigures {
	f := mapFigures{Provinces: len(m.Provinces()), Centres: len(m.Centers()), Powers: len(m.Powers),
		Victory: m.VictoryCenters, StartUnits: len(m.StartUnits)}
	for _, p := range m.Provinces() {
		li := m.Locs[p]
		switch li.Kind {
		case judge.Land:
			f.Inland++
		case judge.Sea:
			f.Seas++
		case judge.Coast:
			f.Coastal++
		}
		f.SplitCoasts += len(li.Coasts)
		if li.Center && li.Home != judge.NoPower {
			f.HomeCentres++
		}
	}
	for a := range m.Locs {
		for b := a + 1; b < len(m.Locs); b++ {
			la, lb := judge.Loc(a), judge.Loc(b)
			if m.Province(la) == la && m.Province(lb) == lb && m.ArmyAdjacent(la, lb) {
				f.ArmyEdges++
			}
			if m.FleetAdjacent(la, lb) {
				f.FleetEdges++
			}
		}
	}
	return f
}

// checkFigures compares m's figures with the published ones.
func checkFigures(t *testing.T, m *judge.Map, want mapFigures) {
	t.Helper()
	if got := figuresOf(m); got != want {
		t.Errorf("%s figures\n got %+v\nwant %+v", m.Name, got, want)
	}
}

// checkStart compares the starting units with want ("Rome F nea", one a
// power) and checks that each power starts owning its home centres.
func checkStart(t *testing.T, m *judge.Map, want ...string) {
	t.Helper()
	pos := judge.StartPosition(m)
	var got []string
	for _, p := range m.Provinces() {
		if u, ok := pos.UnitAt(p); ok {
			got = append(got, m.UnitOwner(u.Power)+" "+u.Type.String()+" "+m.LocName(u.Loc))
		}
	}
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s starting units\n got %q\nwant %q", m.Name, got, want)
	}
	for _, c := range m.Centers() {
		if pos.Centers[c] != m.Locs[c].Home {
			t.Errorf("%s: %s is owned by %s at the start, want %s", m.Name, m.LocName(c),
				m.PowerName(pos.Centers[c]), m.PowerName(m.Locs[c].Home))
		}
	}
}

// checkPowers compares the powers, in report order, with want ("Rome
// Roman R").
func checkPowers(t *testing.T, m *judge.Map, want ...string) {
	t.Helper()
	var got []string
	for _, p := range m.Powers {
		got = append(got, p.Name+" "+p.Adjective+" "+string(p.Letter))
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s powers\n got %q\nwant %q", m.Name, got, want)
	}
	for _, p := range m.Powers {
		if p.Letter == 'M' || p.Letter == 'O' {
			t.Errorf("%s: %s has the letter %c, which means master or observer", m.Name, p.Name, p.Letter)
		}
	}
}
