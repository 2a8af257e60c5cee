package variants_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestAncientMediterranean checks the map against its published figures:
// 34 supply centres, 15 of them home centres (3 a power), 18 to win, and
// 15 starting units (Don Hessong's rules); 79 provinces (20 seas, 14
// inland, 45 coastal), 112 army borders and 155 fleet borders, counted on
// the DAIDE engine's maps/ancmed.map (godip's graph has the same).
func TestAncientMediterranean(t *testing.T) {
	m, err := variants.Load("ancient-mediterranean")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Ancient Mediterranean", "ancientmediterranean", "ANCIENT_MEDITERRANEAN"} {
		if m2, err := variants.Load(n); err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want %p", n, m2, err, m)
		}
	}
	// Baleares is reached by convoy only; Crete and Cyprus are islands;
	// Memphis and Bayuda lie up the Nile.
	checkMap(t, m, mapQuirks{islands: []string{"bal", "cre", "cyp"}, rivers: []string{"bay", "mem"}})
	checkFigures(t, m, mapFigures{
		Provinces: 79, Inland: 14, Seas: 20, Coastal: 45,
		Centres: 34, HomeCentres: 15,
		ArmyEdges: 112, FleetEdges: 155,
		Powers: 5, Victory: 18, StartUnits: 15,
	})
	checkPowers(t, m, "Carthage Carthaginian C", "Egypt Egyptian E", "Greece Greek G", "Persia Persian P", "Rome Roman R")
	checkStart(t, m,
		"Carthage F tha", "Carthage A car", "Carthage A cir",
		"Egypt F ale", "Egypt A mem", "Egypt A thb",
		"Greece F spa", "Greece A ath", "Greece A mac",
		"Persia F sid", "Persia A ant", "Persia A dam",
		"Rome F nea", "Rome A rom", "Rome A rav")
	if m.Title != "Ancient Mediterranean" || m.StartYear != 1 {
		t.Errorf("title %q, start %d", m.Title, m.StartYear)
	}

	var neutral []string
	for _, c := range m.Centers() {
		if m.Locs[c].Home == judge.NoPower {
			neutral = append(neutral, m.LocName(c))
		}
	}
	slices.Sort(neutral)
	want := strings.Fields("bal byz che cre cyp cyr dal jer lep mas mil num pet sad sag sic sip tye vin")
	if !slices.Equal(neutral, want) {
		t.Errorf("neutral centres %v, want %v", neutral, want)
	}

	// The special places of the rules.
	for _, c := range []struct {
		t    judge.UnitType
		at   string
		want string
	}{
		{judge.Army, "bal", ""}, // Baleares: by convoy only
		{judge.Fleet, "bal", "ber lig sag tar"},
		{judge.Army, "tar", "gau lus mas sag"},
		{judge.Fleet, "ath", "aeg epi ion mac spa"}, // the canal: one coast on two seas
		{judge.Army, "ath", "epi mac spa"},
		{judge.Fleet, "byz", "aeg bit bla dac mac mil"},
		{judge.Army, "sic", "nea"}, // the Sicilian Straits
		{judge.Fleet, "sic", "aus nea pun tyn"},
		{judge.Fleet, "bay", "mem thb"}, // up the Nile
		{judge.Fleet, "mem", "ale bay thb"},
		{judge.Army, "mem", "ale bay cyr mar thb"},
		{judge.Fleet, "ale", "cyr egy gop lib mem sin thb"},
		{judge.Fleet, "aus", "got ion lib mes nea pun sic tyn"}, // a four-way corner
		{judge.Fleet, "gop", "ale egy jer sin syr thb"},
		{judge.Army, "cor", "sad"},
		{judge.Fleet, "cre", "aeg egy lib mes min"},
		{judge.Army, "cre", ""},
		{judge.Fleet, "rom", "etr lig nea tyn"}, // Apulia and Ravenna by land only
		{judge.Army, "rom", "apu etr nea rav"},
	} {
		got := names(m, m.Neighbours(nil, c.t, locOf(t, m, c.at)))
		if want := strings.Fields(c.want); !slices.Equal(got, want) {
			t.Errorf("%s %s neighbours %v, want %v", c.t, c.at, got, want)
		}
	}
	for _, c := range []struct {
		place   string
		convoys bool
	}{{"bal", true}, {"lig", true}, {"sic", false}, {"cre", false}, {"byz", false}} {
		if got := m.Convoys(locOf(t, m, c.place)); got != c.convoys {
			t.Errorf("Convoys(%s) = %v, want %v", c.place, got, c.convoys)
		}
	}
	for _, c := range []struct{ id, names string }{
		{"tyn", "tys|Tyrrhenian Sea|Tyrrhenean Sea"}, {"sin", "sii|Sinai"}, {"thb", "Thebes"},
		{"car", "Carthago|Carthage"}, {"sic", "Sicilia|Sicily"}, {"rom", "Roma"}, {"bal", "Baleares"},
	} {
		for _, n := range strings.Split(c.names, "|") {
			if l, ok := m.Lookup(n); !ok || m.LocName(l) != c.id {
				t.Errorf("Lookup(%q) = %s, %v; want %s", n, m.LocName(l), ok, c.id)
			}
		}
	}
}
