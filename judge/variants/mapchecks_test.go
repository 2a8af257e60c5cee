package variants_test

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/judge"
)

// The checks every variant's map passes, whatever its board: each test of
// a variant calls checkMap on its map.

// checkMap runs the checks below on m. Islands are the coastal provinces
// that an army reaches only by convoy, so that they have no army
// neighbour.
func checkMap(t *testing.T, m *judge.Map, islands ...string) {
	t.Helper()
	checkSymmetry(t, m)
	checkEdgesFitUnits(t, m)
	checkReachable(t, m, islands...)
}

// checkSymmetry checks that every army and fleet edge goes both ways.
func checkSymmetry(t *testing.T, m *judge.Map) {
	t.Helper()
	for a := range m.Locs {
		for b := range m.Locs {
			la, lb := judge.Loc(a), judge.Loc(b)
			if m.FleetAdjacent(la, lb) != m.FleetAdjacent(lb, la) {
				t.Errorf("fleet %s-%s is one-way", m.LocName(la), m.LocName(lb))
			}
			if m.ArmyAdjacent(la, lb) != m.ArmyAdjacent(lb, la) {
				t.Errorf("army %s-%s is one-way", m.LocName(la), m.LocName(lb))
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
func checkReachable(t *testing.T, m *judge.Map, islands ...string) {
	t.Helper()
	for l := range m.Locs {
		loc := judge.Loc(l)
		li := m.Locs[l]
		fleetPlace := li.Province != loc || (li.Kind != judge.Land && len(li.Coasts) == 0)
		if fleetPlace && len(m.Neighbours(nil, judge.Fleet, loc)) == 0 {
			t.Errorf("%s has no fleet neighbour", li.Name)
		}
		if li.Province == loc && li.Kind != judge.Sea && len(m.Neighbours(nil, judge.Army, loc)) == 0 &&
			!(li.Kind == judge.Coast && slices.Contains(islands, li.Name)) {
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
			if !touches {
				t.Errorf("coastal %s touches no sea", li.Name)
			}
		}
	}
}
