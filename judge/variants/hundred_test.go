package variants_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestHundred checks the map against its published figures: 17 supply
// centres, 9 to win, 13 of them owned at the start (England 5, Burgundy 4,
// France 4) and 14 units, France's fifth in Provence (Andy Schwarz's
// rules); 41 provinces (10 seas, 12 inland, 19 coastal) with 4 split
// coasts, 61 army and 68 fleet borders, counted on godip's graph
// (variants/hundred).
func TestHundred(t *testing.T) {
	m, err := variants.Load("hundred")
	if err != nil {
		t.Fatal(err)
	}
	// The Pale (Ireland) has no army neighbour.
	checkMap(t, m, mapQuirks{islands: []string{"thp"}})
	checkFigures(t, m, mapFigures{
		Provinces: 41, Inland: 12, Seas: 10, Coastal: 19, SplitCoasts: 4,
		Centres: 17, HomeCentres: 13,
		ArmyEdges: 61, FleetEdges: 68,
		Powers: 3, Victory: 9, StartUnits: 14,
	})
	checkPowers(t, m, "Burgundy Burgundian B", "England English E", "France French F")
	checkStart(t, m,
		"Burgundy F hol", "Burgundy A dij", "Burgundy A fla", "Burgundy A lux",
		"England F dev", "England F lon", "England A cal", "England A guy", "England A nom",
		"France A dau", "France A orl", "France A par", "France A pro", "France A tou")
	if m.Title != "Hundred" || m.StartYear != 1425 || m.Builds != judge.BuildAny {
		t.Errorf("title %q, start %d, builds %s; want Hundred, 1425, any", m.Title, m.StartYear, m.Builds)
	}
	pos := judge.StartPosition(m)
	if pos.Phase.String() != "S1425M" {
		t.Errorf("starts in %s, want S1425M", pos.Phase)
	}
	if got := pos.CenterCount(); !slices.Equal(got, []int{4, 5, 4}) {
		t.Errorf("centres at the start %v, want Burgundy 4, England 5, France 4", got)
	}
	if got := pos.UnitCount(); !slices.Equal(got, []int{4, 5, 5}) {
		t.Errorf("units at the start %v, want Burgundy 4, England 5, France 5", got)
	}

	for _, c := range []struct {
		t    judge.UnitType
		at   string
		want string
	}{
		{judge.Army, "lon", "ang cal dev"}, // the London - Calais bridge
		{judge.Fleet, "lon", "ang cal dev eng str"},
		{judge.Fleet, "cal", "fla lon nom str"},
		{judge.Fleet, "cas", "ara/nc ara/sc atl bis med"}, // one coast on both seas
		{judge.Fleet, "ara/nc", "bis cas guy"},
		{judge.Fleet, "ara/sc", "cas med tou"},
		{judge.Army, "ara", "cas guy tou"},
		{judge.Fleet, "not/wc", "iri sco wal"},
		{judge.Fleet, "not/ec", "ang nos sco"},
		{judge.Army, "not", "ang dev sco wal"},
		{judge.Fleet, "thp", "atl iri min"},
		{judge.Army, "thp", ""},
	} {
		got := names(m, m.Neighbours(nil, c.t, locOf(t, m, c.at)))
		if want := strings.Fields(c.want); !slices.Equal(got, want) {
			t.Errorf("%s %s neighbours %v, want %v", c.t, c.at, got, want)
		}
	}
	for _, c := range []struct{ id, names string }{
		{"brs", "bch|Bristol Channel"}, {"eng", "ech|English Channel"}, {"nom", "nmd|Normandy"},
		{"not", "num|Northumbria"}, {"nos", "nth|North Sea"}, {"str", "dov|Strait of Dover"},
		{"thw", "was|The Wash"}, {"thp", "pal|The Pale"}, {"cal", "art|Artois|Calais"},
	} {
		for _, n := range strings.Split(c.names, "|") {
			if l, ok := m.Lookup(n); !ok || m.LocName(l) != c.id {
				t.Errorf("Lookup(%q) = %s, %v; want %s", n, m.LocName(l), ok, c.id)
			}
		}
	}
}
