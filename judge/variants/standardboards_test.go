package variants_test

// The variants played on the standard board (base standard): fleet-rome,
// france-austria, italy-germany, chaos, classical-crowded, 1898 and
// shift-around. Their figures
// come from the sources each map file names: godip's variants and njudge's
// info files.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// boardFigures are a board's counts.
type boardFigures struct {
	provinces, locs, centres int
	armyEdges, fleetEdges    int // one per direction
}

// standardFigures are the standard map's: 75 provinces and 34 centres as
// published; 81 places with the six split coasts; the edges as counted from
// standard.map, which standard_test.go checks edge by edge.
var standardFigures = boardFigures{provinces: 75, locs: 81, centres: 34, armyEdges: 222, fleetEdges: 282}

func boardFiguresOf(m *judge.Map) boardFigures {
	f := boardFigures{provinces: len(m.Provinces()), locs: m.NumLocs(), centres: len(m.Centers())}
	for a := range m.Locs {
		for b := range m.Locs {
			la, lb := judge.Loc(a), judge.Loc(b)
			if m.FleetAdjacent(la, lb) {
				f.fleetEdges++
			}
			if m.Province(la) == la && m.Province(lb) == lb && m.ArmyAdjacent(la, lb) {
				f.armyEdges++
			}
		}
	}
	return f
}

// startOf writes the starting units as "Italy F rom", sorted, and the
// centre owners as "rom Italy", sorted.
func startOf(m *judge.Map) (units, owners []string) {
	pos := judge.StartPosition(m)
	for _, p := range m.Provinces() {
		if u, ok := pos.UnitAt(p); ok {
			units = append(units, fmt.Sprintf("%s %s %s", m.PowerName(u.Power), u.Type, m.LocName(u.Loc)))
		}
	}
	for _, c := range m.Centers() {
		if pos.Centers[c] != judge.NoPower {
			owners = append(owners, m.LocName(c)+" "+m.PowerName(pos.Centers[c]))
		}
	}
	slices.Sort(units)
	slices.Sort(owners)
	return units, owners
}

func load(t *testing.T, name string) *judge.Map {
	t.Helper()
	m, err := variants.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestStandardBoards checks each variant's board, powers, victory count,
// first phase, build rule and starting position.
func TestStandardBoards(t *testing.T) {
	std := load(t, "standard")
	stdUnits, stdOwners := startOf(std)
	without := func(list []string, powers ...string) []string {
		return slices.DeleteFunc(slices.Clone(list), func(s string) bool {
			for _, p := range powers {
				if strings.HasPrefix(s, p+" ") || strings.HasSuffix(s, " "+p) {
					return true
				}
			}
			return false
		})
	}
	replace := func(list []string, old, new string) []string {
		out := slices.Clone(list)
		out[slices.Index(out, old)] = new
		slices.Sort(out)
		return out
	}
	standardPowers := "Austria:A England:E France:F Germany:G Italy:I Russia:R Turkey:T"
	// shifted gives each unit or centre of a home country to the power
	// whose units start there: njudge's info.shift_around writes "A -> B"
	// for "A's units start in country B".
	shifted := func(list []string, arrows string) []string {
		to := map[string]string{} // country -> the power that starts in it
		for _, a := range strings.Split(arrows, ",") {
			from, country, _ := strings.Cut(a, "->")
			to[strings.TrimSpace(country)] = strings.TrimSpace(from)
		}
		out := slices.Clone(list)
		for i, s := range out {
			f := strings.Fields(s)
			if n := len(f) - 1; to[f[n]] != "" { // "rom Italy"
				f[n] = to[f[n]]
			} else { // "Italy A rom"
				f[0] = to[f[0]]
			}
			out[i] = strings.Join(f, " ")
		}
		return out
	}
	shiftAround := "Germany -> Turkey, Turkey -> Germany, England -> Russia, Italy -> England, Russia -> Italy, France -> Austria, Austria -> France"
	for _, tc := range []struct {
		name, title, powers string
		victory             int
		start               judge.Phase
		builds              judge.BuildRule
		figures             boardFigures
		units, owners       []string
	}{
		// godip fleetrome, njudge info.fleet_rome: Italy's army in Rome is
		// a fleet; all else is standard.
		{"fleet-rome", "Fleet Rome", standardPowers, 18, judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement}, judge.BuildHome,
			standardFigures, replace(stdUnits, "Italy A rom", "Italy F rom"), stdOwners},
		// godip franceaustria and italygermany: two powers, the others'
		// centres neutral and empty, victory at 18.
		{"france-austria", "France vs Austria", "Austria:A France:F", 18, judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement}, judge.BuildHome,
			standardFigures, without(stdUnits, "England", "Germany", "Italy", "Russia", "Turkey"),
			without(stdOwners, "England", "Germany", "Italy", "Russia", "Turkey")},
		{"italy-germany", "Italy vs Germany", "Germany:G Italy:I", 18, judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement}, judge.BuildHome,
			standardFigures, without(stdUnits, "Austria", "England", "France", "Russia", "Turkey"),
			without(stdOwners, "Austria", "England", "France", "Russia", "Turkey")},
		// njudge info.crowded, godip classicalcrowded: Ruhr a centre (35),
		// eleven powers owning all of them, victory at 18.
		{"classical-crowded", "Classical - Crowded",
			"Austria:A Balkans:B Benelux:L England:E France:F Germany:G Iberia:S Italy:I Russia:R Scandinavia:N Turkey:T",
			18, judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement}, judge.BuildHome,
			boardFigures{provinces: 75, locs: 81, centres: 35, armyEdges: 222, fleetEdges: 282},
			append(slices.Clone(stdUnits), "Balkans F gre", "Balkans F rum", "Balkans A ser", "Balkans A bul",
				"Benelux F bel", "Benelux A hol", "Benelux A ruh", "Iberia F por", "Iberia A spa", "Iberia F tun",
				"Scandinavia F nwy", "Scandinavia F den", "Scandinavia A swe"),
			append(slices.Clone(stdOwners), "gre Balkans", "rum Balkans", "ser Balkans", "bul Balkans",
				"bel Benelux", "hol Benelux", "ruh Benelux", "por Iberia", "spa Iberia", "tun Iberia",
				"nwy Scandinavia", "den Scandinavia", "swe Scandinavia")},
		// 1898 (UKDP about_1898, DipWiki "1898"), as the Ken Lowe judges
		// play it: one unit and one owned centre each, the other home
		// centres owned by nobody, Spring 1899 first.
		{"1898", "1898", standardPowers, 18, judge.Phase{Season: judge.Spring, Year: 1899, Type: judge.Movement}, judge.BuildHome,
			standardFigures,
			[]string{"Austria A tri", "England F edi", "France A bre", "Germany A kie", "Italy A nap", "Russia A stp", "Turkey A smy"},
			[]string{"tri Austria", "edi England", "bre France", "kie Germany", "nap Italy", "stp Russia", "smy Turkey"}},
		// njudge info.shift_around and seed.shift_around: each power's
		// units start in another's home country, owning its centres.
		{"shift-around", "Shift Around", standardPowers, 18, judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement}, judge.BuildHome,
			standardFigures, shifted(stdUnits, shiftAround), shifted(stdOwners, shiftAround)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := load(t, tc.name)
			if m.Title != tc.title || m.VictoryCenters != tc.victory || m.StartPhase() != tc.start || m.Builds != tc.builds || m.Base != "standard" {
				t.Errorf("title %q victory %d start %v builds %v base %q", m.Title, m.VictoryCenters, m.StartPhase(), m.Builds, m.Base)
			}
			var powers []string
			for _, p := range m.Powers {
				powers = append(powers, fmt.Sprintf("%s:%c", p.Name, p.Letter))
			}
			if got := strings.Join(powers, " "); got != tc.powers {
				t.Errorf("powers %s, want %s", got, tc.powers)
			}
			if got := boardFiguresOf(m); got != tc.figures {
				t.Errorf("figures %+v, want %+v", got, tc.figures)
			}
			slices.Sort(tc.units)
			slices.Sort(tc.owners)
			units, owners := startOf(m)
			if !slices.Equal(units, tc.units) {
				t.Errorf("units\n got %v\nwant %v", units, tc.units)
			}
			if !slices.Equal(owners, tc.owners) {
				t.Errorf("owners\n got %v\nwant %v", owners, tc.owners)
			}
			sameBoard(t, m, std)
		})
	}
}

// sameBoard checks that m has the standard map's places and adjacency.
func sameBoard(t *testing.T, m, std *judge.Map) {
	t.Helper()
	for a := range std.Locs {
		for b := range std.Locs {
			la, lb := judge.Loc(a), judge.Loc(b)
			ma, mb := locOf(t, m, std.LocName(la)), locOf(t, m, std.LocName(lb))
			if m.ArmyAdjacent(ma, mb) != std.ArmyAdjacent(la, lb) || m.FleetAdjacent(ma, mb) != std.FleetAdjacent(la, lb) {
				t.Fatalf("%s-%s differs from the standard map", std.LocName(la), std.LocName(lb))
			}
		}
	}
}

// TestChaos checks Chaos against njudge's info.chaos: 34 powers with its
// letters (A to Z without M and O, then 0 to 9), each owning one centre,
// which is its home; no units; Winter 1900 adjustments first; builds in any
// owned centre; victory at 18.
func TestChaos(t *testing.T) {
	m := load(t, "chaos")
	if m.Title != "Chaos" || m.VictoryCenters != 18 || m.Builds != judge.BuildAny || len(m.StartUnits) != 0 ||
		m.StartPhase() != (judge.Phase{Season: judge.Winter, Year: 1900, Type: judge.Adjustment}) {
		t.Errorf("title %q victory %d builds %v units %d start %v", m.Title, m.VictoryCenters, m.Builds, len(m.StartUnits), m.StartPhase())
	}
	if got := boardFiguresOf(m); got != standardFigures {
		t.Errorf("figures %+v", got)
	}
	sameBoard(t, m, load(t, "standard"))
	// info.chaos: "A-Ank, B-Bel, ... 9-War".
	want := strings.Fields(`A-ank B-bel C-ber D-bre E-bud F-bul G-con H-den I-edi J-gre K-hol L-kie
		N-lvp P-lon Q-mar R-mos S-mun T-nap U-nwy V-par W-por X-rom Y-rum Z-ser 0-sev 1-smy 2-spa
		3-stp 4-swe 5-tri 6-tun 7-ven 8-vie 9-war`)
	if len(m.Powers) != 34 || len(want) != 34 {
		t.Fatalf("%d powers", len(m.Powers))
	}
	pos := judge.StartPosition(m)
	for i, w := range want {
		p := judge.Power(i)
		home := m.HomeCenters(nil, p)
		got := fmt.Sprintf("%c-", m.Powers[i].Letter)
		if len(home) == 1 {
			got += m.LocName(home[0])
			if pos.Centers[home[0]] != p || m.FullName(home[0]) != strings.Replace(m.Powers[i].Name, "StP", "St P", 1) {
				t.Errorf("%s: owner %s, centre %s", m.Powers[i].Name, m.PowerName(pos.Centers[home[0]]), m.FullName(home[0]))
			}
		}
		if got != w {
			t.Errorf("power %d: %s (%s), want %s", i, got, m.Powers[i].Name, w)
		}
		if sites := pos.BuildSites(p, m.Builds); len(sites) != 1 {
			t.Errorf("%s may build in %d places", m.Powers[i].Name, len(sites))
		}
	}
	for _, l := range m.Provinces() {
		if li := m.Locs[l]; !li.Center && li.Home != judge.NoPower {
			t.Errorf("%s is in %s's home country", li.Name, m.PowerName(li.Home))
		}
	}
}

// TestShiftAroundHomes: in Shift Around every centre stays the home
// centre of the power it is on the standard board, though another power
// owns it at the start (njudge info.shift_around: "Austria's home
// centers are still Austria's home centers").
func TestShiftAroundHomes(t *testing.T) {
	std, m := load(t, "standard"), load(t, "shift-around")
	pos := judge.StartPosition(m)
	for _, c := range std.Centers() {
		home := std.Locs[c].Home
		at := locOf(t, m, std.LocName(c))
		if got := m.Locs[at].Home; m.PowerName(got) != std.PowerName(home) {
			t.Errorf("%s is a home centre of %s, want %s", std.LocName(c), m.PowerName(got), std.PowerName(home))
		}
		if home != judge.NoPower && pos.Centers[at] == m.Locs[at].Home {
			t.Errorf("%s is owned by its home power %s at the start", std.LocName(c), m.PowerName(pos.Centers[at]))
		}
	}
}
