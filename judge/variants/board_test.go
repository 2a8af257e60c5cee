package variants_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestEveryVariantBoard loads every embedded variant, those added later
// included, and checks what holds for any playable board: edges both ways
// (or declared one-way) and fit for their units, every place reachable,
// every coast on a sea, powers with home centres that they own at the
// start, and a victory count within reach.
func TestEveryVariantBoard(t *testing.T) {
	for _, name := range variants.Names() {
		t.Run(name, func(t *testing.T) {
			m, err := variants.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			checkBoard(t, m)
		})
	}
}

// checkBoard checks m as TestEveryVariantBoard says.
func checkBoard(t *testing.T, m *judge.Map) {
	t.Helper()
	for a := range m.Locs {
		la := judge.Loc(a)
		for b := range m.Locs {
			lb := judge.Loc(b)
			if m.FleetAdjacent(la, lb) && !m.FleetAdjacent(lb, la) && !m.OneWay(judge.Fleet, la, lb) ||
				m.ArmyAdjacent(la, lb) && !m.ArmyAdjacent(lb, la) && !m.OneWay(judge.Army, la, lb) {
				t.Errorf("%s-%s is one-way, and not declared so", m.LocName(la), m.LocName(lb))
			}
		}
		for _, b := range m.Neighbours(nil, judge.Fleet, la) {
			if !m.CanHold(judge.Fleet, la) || !m.CanHold(judge.Fleet, b) {
				t.Errorf("fleet edge %s-%s: a fleet cannot stand at both ends", m.LocName(la), m.LocName(b))
			}
		}
		if m.Province(la) == la {
			for _, b := range m.Neighbours(nil, judge.Army, la) {
				if !m.CanHold(judge.Army, la) || !m.CanHold(judge.Army, b) {
					t.Errorf("army edge %s-%s: an army cannot stand at both ends", m.LocName(la), m.LocName(b))
				}
			}
		}
		li := m.Locs[a]
		if m.CanHold(judge.Fleet, la) && len(m.Neighbours(nil, judge.Fleet, la)) == 0 {
			t.Errorf("a fleet at %s can go nowhere", li.Name)
		}
		if m.CanHold(judge.Army, la) && len(m.Neighbours(nil, judge.Army, la)) == 0 && li.Kind == judge.Land {
			t.Errorf("an army in inland %s can go nowhere", li.Name)
		}
		if m.CanHold(judge.Fleet, la) && li.Kind == judge.Coast && !reachesSea(m, la) && !fleetFromSea(m, m.Province(la)) {
			t.Errorf("coast %s reaches no sea, and no fleet sails to it from one", li.Name)
		}
	}
	start := judge.StartPosition(m)
	owned := start.CenterCount()
	for p := range m.Powers {
		if len(m.HomeCenters(nil, judge.Power(p))) == 0 {
			t.Errorf("%s has no home centre", m.Powers[p].Name)
		}
		if owned[p] == 0 {
			t.Errorf("%s owns no centre at the start", m.Powers[p].Name)
		}
		if l := m.Powers[p].Letter | 0x20; l == 'm' || l == 'o' {
			t.Errorf("%s has the letter %c", m.Powers[p].Name, m.Powers[p].Letter)
		}
	}
	if v := m.VictoryCenters; v <= 0 || v > len(m.Centers()) {
		t.Errorf("victory %d of %d centres", v, len(m.Centers()))
	}
	if ph := start.Phase; ph != m.StartPhase() || (ph.Type != judge.Movement && ph.Type != judge.Adjustment) {
		t.Errorf("start phase %v", ph)
	}
}

// reachesSea reports whether a fleet at l can sail to a sea: at once, or
// up a river by way of other coasts (Memphis on the Nile in the Ancient
// Mediterranean).
func reachesSea(m *judge.Map, l judge.Loc) bool {
	seen := map[judge.Loc]bool{l: true}
	queue := []judge.Loc{l}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		for _, b := range m.Neighbours(nil, judge.Fleet, a) {
			if m.Locs[b].Kind == judge.Sea {
				return true
			}
			if !seen[b] {
				seen[b] = true
				queue = append(queue, b)
			}
		}
	}
	return false
}
