package variants_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

func load343536(t *testing.T) *judge.Map {
	t.Helper()
	m, err := variants.Load("34-35-36")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLoad343536 checks the names the variant answers to and the two rules
// its map line sets.
func TestLoad343536(t *testing.T) {
	m := load343536(t)
	for _, n := range []string{"343536", "34, 35, 36", "34 35 36", "34_35_36", "34.35.36", "34-35-36"} {
		if m2, err := variants.Load(n); err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want the cached map %p", n, m2, err, m)
		}
	}
	for _, n := range []string{"3435", "34/35/36", "34-35-37"} {
		if _, err := variants.Load(n); err == nil {
			t.Errorf("Load(%q) succeeded", n)
		}
	}
	if got := variants.Names(); !slices.Contains(got, "34-35-36") || !slices.Contains(got, "standard") || !slices.IsSorted(got) {
		t.Errorf("Names() = %v", got)
	}
	if m.Name != "34-35-36" || m.Title != "34, 35, 36" || m.StartYear != 1901 {
		t.Errorf("name %q title %q start %d", m.Name, m.Title, m.StartYear)
	}
	if !m.DynamicVictory || !m.Construction || m.VictoryCenters != 18 {
		t.Errorf("dynamic victory %v, construction %v, victory %d; want true, true, 18",
			m.DynamicVictory, m.Construction, m.VictoryCenters)
	}
	if s := standard(t); s.DynamicVictory || s.Construction {
		t.Error("the standard map has a rule of 34-35-36")
	}
}

// TestJordan checks the split of Syria: Jordan is a new coastal province of
// Turkey's home country next to Syria and the Eastern Mediterranean only,
// and no other part of the board changed.
func TestJordan(t *testing.T) {
	m, std := load343536(t), standard(t)
	jor, syr := locOf(t, m, "jor"), locOf(t, m, "syr")
	if li := m.Locs[jor]; li.Name != "jor" || li.FullName != "Jordan" || li.Kind != judge.Coast ||
		li.Center || m.PowerName(li.Home) != "Turkey" {
		t.Errorf("Jordan: %+v", li)
	}
	if li := m.Locs[syr]; li.Kind != judge.Coast || li.Center || m.PowerName(li.Home) != "Turkey" {
		t.Errorf("Syria: %+v", li)
	}
	for _, c := range []struct {
		t    judge.UnitType
		at   string
		want string
	}{
		{judge.Army, "syr", "arm jor smy"},
		{judge.Army, "jor", "syr"},
		{judge.Fleet, "syr", "eas jor smy"},
		{judge.Fleet, "jor", "eas syr"},
		{judge.Fleet, "eas", "aeg ion jor smy syr"},
		{judge.Army, "arm", "ank sev smy syr"},
		{judge.Army, "smy", "ank arm con syr"},
	} {
		got := names(m, m.Neighbours(nil, c.t, locOf(t, m, c.at)))
		if want := strings.Fields(c.want); !slices.Equal(got, want) {
			t.Errorf("%s %s neighbours %v, want %v", c.t, c.at, got, want)
		}
	}

	// Everything else is the standard map: the same places, centres, homes
	// and adjacency, compared by name since the numbering differs.
	var provinces []string
	for _, p := range m.Provinces() {
		provinces = append(provinces, m.LocName(p))
	}
	slices.Sort(provinces)
	want := append(names(std, std.Provinces()), "jor")
	slices.Sort(want)
	if !slices.Equal(provinces, want) {
		t.Errorf("provinces %v, want the standard ones and jor", provinces)
	}
	if m.NumLocs() != std.NumLocs()+1 || len(m.Centers()) != 34 || !slices.Equal(names(m, m.Centers()), names(std, std.Centers())) {
		t.Errorf("%d places, centres %v", m.NumLocs(), names(m, m.Centers()))
	}
	// Syria keeps all its standard neighbours; only Jordan is new.
	for a := range std.Locs {
		la := judge.Loc(a)
		an := std.LocName(la)
		ma := locOf(t, m, an)
		if m.Locs[ma].Home != std.Locs[la].Home || m.Locs[ma].Center != std.Locs[la].Center ||
			m.Locs[ma].FullName != std.Locs[la].FullName || !slices.Equal(m.Locs[ma].Aliases, std.Locs[la].Aliases) {
			t.Errorf("%s differs from the standard map", an)
		}
		for b := range std.Locs {
			lb := judge.Loc(b)
			mb := locOf(t, m, std.LocName(lb))
			if m.ArmyAdjacent(ma, mb) != std.ArmyAdjacent(la, lb) || m.FleetAdjacent(ma, mb) != std.FleetAdjacent(la, lb) {
				t.Errorf("%s-%s: adjacency differs from the standard map", an, std.LocName(lb))
			}
		}
	}
	for a := range m.Locs {
		for b := range m.Locs {
			la, lb := judge.Loc(a), judge.Loc(b)
			if m.FleetAdjacent(la, lb) != m.FleetAdjacent(lb, la) || m.ArmyAdjacent(la, lb) != m.ArmyAdjacent(lb, la) {
				t.Errorf("%s-%s is one-way", m.LocName(la), m.LocName(lb))
			}
		}
	}

	// The game starts as a standard game does.
	start, stdStart := judge.StartPosition(m), judge.StartPosition(std)
	if !slices.Equal(start.CenterCount(), stdStart.CenterCount()) || !slices.Equal(start.UnitCount(), stdStart.UnitCount()) {
		t.Errorf("start: centres %v units %v", start.CenterCount(), start.UnitCount())
	}
	for _, u := range std.StartUnits {
		got, ok := start.UnitAt(locOf(t, m, std.LocName(u.Loc)))
		if !ok || got.Type != u.Type || m.PowerName(got.Power) != std.PowerName(u.Power) || m.LocName(got.Loc) != std.LocName(u.Loc) {
			t.Errorf("start unit in %s: %+v", std.LocName(u.Loc), got)
		}
	}
	if start.VictoryCenters() != 18 || len(start.ConstructionSites(0)) != 3 {
		t.Errorf("victory %d; Austria may build centres in %v", start.VictoryCenters(), names(m, start.ConstructionSites(0)))
	}
	turkey, _ := m.PowerByName("Turkey")
	if got := names(m, start.ConstructionSites(turkey)); !slices.Equal(got, []string{"arm", "jor", "syr"}) {
		t.Errorf("Turkey may build centres in %v, want arm jor syr", got)
	}
}
