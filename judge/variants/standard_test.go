package variants_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

func standard(t *testing.T) *judge.Map {
	t.Helper()
	m, err := variants.Load("standard")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// locOf resolves a name or fails the test.
func locOf(t *testing.T, m *judge.Map, name string) judge.Loc {
	t.Helper()
	l, ok := m.Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q) failed", name)
	}
	return l
}

func names(m *judge.Map, ls []judge.Loc) []string {
	var s []string
	for _, l := range ls {
		s = append(s, m.LocName(l))
	}
	slices.Sort(s)
	return s
}

func TestLoad(t *testing.T) {
	m := standard(t)
	for _, n := range []string{"Standard", "STANDARD", "standard"} {
		m2, err := variants.Load(n)
		if err != nil || m2 != m {
			t.Errorf("Load(%q) = %p, %v; want the cached map %p", n, m2, err, m)
		}
	}
	if variants.Standard() != m {
		t.Error("Standard() is not the map Load returns")
	}
	if _, err := variants.Load("nosuch"); err == nil || !strings.Contains(err.Error(), `unknown variant "nosuch"`) {
		t.Errorf("Load(nosuch) error %v", err)
	}
	if _, err := variants.Load("../standard"); err == nil {
		t.Error("Load(../standard) did not fail")
	}
	if got := variants.Names(); !slices.Contains(got, "standard") || !slices.IsSorted(got) {
		t.Errorf("Names() = %v", got)
	}
	// Names returns a copy: changing it changes nothing inside.
	n := variants.Names()
	n[0] = "x"
	if variants.Names()[0] == "x" {
		t.Error("Names() returns the package's own slice")
	}
	if m.Name != "standard" || m.Title != "Standard" || m.VictoryCenters != 18 || m.StartYear != 1901 {
		t.Errorf("name %q title %q victory %d start %d", m.Name, m.Title, m.VictoryCenters, m.StartYear)
	}
}

func TestLoadConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	maps := make([]*judge.Map, 16)
	for i := range maps {
		wg.Go(func() {
			m, err := variants.Load("Standard")
			if err != nil {
				t.Error(err)
			}
			maps[i] = m
		})
	}
	wg.Wait()
	for _, m := range maps {
		if m == nil || m != maps[0] {
			t.Fatal("concurrent loads returned different maps")
		}
	}
}

func TestStandardCounts(t *testing.T) {
	m := standard(t)
	var sea, land, coast, centres, homeCentres, coasts int
	for _, p := range m.Provinces() {
		li := m.Locs[p]
		switch li.Kind {
		case judge.Sea:
			sea++
		case judge.Land:
			land++
		case judge.Coast:
			coast++
		}
		if li.Center {
			centres++
			if li.Home != judge.NoPower {
				homeCentres++
			}
		}
		coasts += len(li.Coasts)
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"provinces", len(m.Provinces()), 75},
		{"seas", sea, 19},
		{"inland provinces", land, 14},
		{"coastal provinces", coast, 42},
		{"split coasts", coasts, 6},
		{"Locs", m.NumLocs(), 81},
		{"supply centres", centres, 34},
		{"Centers()", len(m.Centers()), 34},
		{"home centres", homeCentres, 22},
		{"starting units", len(m.StartUnits), 22},
		{"powers", len(m.Powers), 7},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.what, c.got, c.want)
		}
	}

	var inland []string
	for _, p := range m.Provinces() {
		if m.Locs[p].Kind == judge.Land {
			inland = append(inland, m.LocName(p))
		}
	}
	slices.Sort(inland)
	want := []string{"boh", "bud", "bur", "gal", "mos", "mun", "par", "ruh", "ser", "sil", "tyr", "ukr", "vie", "war"}
	if !slices.Equal(inland, want) {
		t.Errorf("inland provinces %v, want %v", inland, want)
	}

	var split []string
	for l := range m.Locs {
		if m.Province(judge.Loc(l)) != judge.Loc(l) {
			split = append(split, m.LocName(judge.Loc(l)))
		}
	}
	slices.Sort(split)
	if want := []string{"bul/ec", "bul/sc", "spa/nc", "spa/sc", "stp/nc", "stp/sc"}; !slices.Equal(split, want) {
		t.Errorf("split coasts %v, want %v", split, want)
	}
}

// TestCanonicalNames checks the 75 canonical ids, so that no province is
// missing, misspelt or doubled.
func TestCanonicalNames(t *testing.T) {
	m := standard(t)
	want := strings.Fields(`adr aeg alb ank apu arm bal bar bel ber bla boh bot bre bud bul bur
		cly con den eas edi eng fin gal gas gre hel hol ion iri kie lon lvn lvp gol mao mar mos
		mun naf nao nap nth nwg nwy par pic pie por pru rom ruh rum ser sev sil ska smy spa stp
		swe syr tri tun tus tyr tys ukr ven vie wal war wes yor`)
	slices.Sort(want)
	if got := names(m, m.Provinces()); !slices.Equal(got, want) {
		t.Errorf("provinces\n got %v\nwant %v", got, want)
	}
	for _, id := range want {
		if l := locOf(t, m, id); m.LocName(l) != id {
			t.Errorf("Lookup(%q) gives %s", id, m.LocName(l))
		}
	}
}

func TestPowers(t *testing.T) {
	m := standard(t)
	want := []judge.PowerInfo{
		{Name: "Austria", Adjective: "Austrian", Letter: 'A'},
		{Name: "England", Adjective: "English", Letter: 'E'},
		{Name: "France", Adjective: "French", Letter: 'F'},
		{Name: "Germany", Adjective: "German", Letter: 'G'},
		{Name: "Italy", Adjective: "Italian", Letter: 'I'},
		{Name: "Russia", Adjective: "Russian", Letter: 'R'},
		{Name: "Turkey", Adjective: "Turkish", Letter: 'T'},
	}
	if !slices.Equal(m.Powers, want) {
		t.Errorf("powers %v, want %v", m.Powers, want)
	}
}

func TestSymmetry(t *testing.T) { checkSymmetry(t, standard(t)) }

// checkSymmetry fails for every move of m that has no move back, but for
// the fleet moves listed in oneWay ("cns-woo": from cns to woo only), which
// must have none.
func checkSymmetry(t *testing.T, m *judge.Map, oneWay ...string) {
	t.Helper()
	allowed := map[[2]judge.Loc]bool{}
	for _, s := range oneWay {
		a, b, _ := strings.Cut(s, "-")
		la, lb := locOf(t, m, a), locOf(t, m, b)
		if !m.FleetAdjacent(la, lb) || m.FleetAdjacent(lb, la) {
			t.Errorf("fleet %s is not a one-way move", s)
		}
		allowed[[2]judge.Loc{la, lb}] = true
	}
	for a := range m.Locs {
		for b := range m.Locs {
			la, lb := judge.Loc(a), judge.Loc(b)
			if m.FleetAdjacent(la, lb) != m.FleetAdjacent(lb, la) && !allowed[[2]judge.Loc{la, lb}] && !allowed[[2]judge.Loc{lb, la}] {
				t.Errorf("fleet %s-%s is one-way", m.LocName(la), m.LocName(lb))
			}
			if m.ArmyAdjacent(la, lb) != m.ArmyAdjacent(lb, la) {
				t.Errorf("army %s-%s is one-way", m.LocName(la), m.LocName(lb))
			}
		}
	}
}

func TestEdgesFitUnits(t *testing.T) { checkEdgesFitUnits(t, standard(t)) }

// checkEdgesFitUnits fails for every move of m that its unit could not
// make: an army to or from a sea or a coast, a fleet to or from an inland
// province or a province with split coasts, or a move that stays put.
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

func TestReachable(t *testing.T) {
	m := standard(t)
	checkReachable(t, m)
	if got := islands(m); len(got) > 0 {
		t.Errorf("islands %v, want none", got)
	}
}

// checkReachable fails for every place of m that a unit could never leave
// or reach: a fleet place with no fleet move, a province with neither an
// army move nor a sea to convoy an army there (an island, see islands), a
// coastal province that touches no sea. The coastal provinces in rivers
// touch no sea but lie on a river: they must have none, and a fleet there
// must be able to sail to a sea.
func checkReachable(t *testing.T, m *judge.Map, rivers ...string) {
	t.Helper()
	onRiver := map[judge.Loc]bool{}
	for _, r := range rivers {
		onRiver[locOf(t, m, r)] = true
	}
	for l := range m.Locs {
		loc := judge.Loc(l)
		li := m.Locs[l]
		fleetPlace := li.Province != loc || (li.Kind != judge.Land && len(li.Coasts) == 0)
		if fleetPlace && len(m.Neighbours(nil, judge.Fleet, loc)) == 0 {
			t.Errorf("%s has no fleet neighbour", li.Name)
		}
		if li.Province == loc && li.Kind != judge.Sea && len(m.Neighbours(nil, judge.Army, loc)) == 0 &&
			(li.Kind != judge.Coast || !touchesSea(m, loc)) {
			t.Errorf("%s has no army neighbour, and no sea to convoy an army there", li.Name)
		}
		// Every coastal province touches the sea somewhere, on some coast,
		// but those on a river.
		if li.Province == loc && li.Kind == judge.Coast {
			switch {
			case !onRiver[loc] && !touchesSea(m, loc):
				t.Errorf("coastal %s touches no sea", li.Name)
			case onRiver[loc] && touchesSea(m, loc):
				t.Errorf("%s touches a sea: it is not only on a river", li.Name)
			case onRiver[loc] && !sailsToSea(m, loc):
				t.Errorf("no fleet sails from %s to a sea", li.Name)
			}
		}
	}
}

// touchesSea reports whether a sea borders some coast of the province p.
func touchesSea(m *judge.Map, p judge.Loc) bool {
	for _, q := range m.Provinces() {
		if m.Locs[q].Kind == judge.Sea && m.FleetReaches(q, p) {
			return true
		}
	}
	return false
}

// sailsToSea reports whether a fleet in the province p (on any of its
// coasts) can reach a sea in some number of moves.
func sailsToSea(m *judge.Map, p judge.Loc) bool {
	queue := []judge.Loc{p}
	queue = append(queue, m.Locs[p].Coasts...)
	seen := map[judge.Loc]bool{}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		if seen[l] {
			continue
		}
		seen[l] = true
		if m.Locs[l].Kind == judge.Sea {
			return true
		}
		queue = append(queue, m.Neighbours(nil, judge.Fleet, l)...)
	}
	return false
}

// islands lists the provinces of m that no army can walk to, sorted.
func islands(m *judge.Map) []string {
	var s []string
	for _, p := range m.Provinces() {
		if m.Locs[p].Kind != judge.Sea && len(m.Neighbours(nil, judge.Army, p)) == 0 {
			s = append(s, m.LocName(p))
		}
	}
	slices.Sort(s)
	return s
}

// TestFleetEdgesAreLandBorders checks that two coastal provinces that a
// fleet sails between also share a land border (true all over the
// standard map, split coasts included).
func TestFleetEdgesAreLandBorders(t *testing.T) { checkFleetEdgesAreLandBorders(t, standard(t)) }

// checkFleetEdgesAreLandBorders fails for every fleet move of m between
// two coastal provinces that are not also an army move apart.
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

func TestSpotAdjacency(t *testing.T) {
	m := standard(t)
	pairs := func(s string) [][2]string {
		var r [][2]string
		for _, p := range strings.Fields(s) {
			a, b, _ := strings.Cut(p, "-")
			r = append(r, [2]string{a, b})
		}
		return r
	}
	check := func(kind string, adj func(a, b judge.Loc) bool, yes, no string) {
		for _, p := range pairs(yes) {
			a, b := locOf(t, m, p[0]), locOf(t, m, p[1])
			if !adj(a, b) || !adj(b, a) {
				t.Errorf("%s %s-%s should be adjacent", kind, p[0], p[1])
			}
		}
		for _, p := range pairs(no) {
			a, b := locOf(t, m, p[0]), locOf(t, m, p[1])
			if adj(a, b) || adj(b, a) {
				t.Errorf("%s %s-%s should not be adjacent", kind, p[0], p[1])
			}
		}
	}
	check("fleet", m.FleetAdjacent, `
		stp/nc-bar stp/nc-nwy stp/sc-bot stp/sc-fin stp/sc-lvn
		spa/nc-gas spa/nc-mao spa/nc-por spa/sc-gol spa/sc-mao spa/sc-mar spa/sc-por spa/sc-wes
		bul/ec-bla bul/ec-con bul/ec-rum bul/sc-aeg bul/sc-con bul/sc-gre
		apu-nap ven-tri den-kie den-swe ber-pru kie-hol con-ank con-smy smy-syr arm-sev
		swe-fin nwy-swe pic-bel bre-pic bre-gas pie-mar pie-tus tus-rom rom-nap alb-tri alb-gre
		rum-sev ank-arm cly-edi cly-lvp lvp-wal wal-lon lon-yor yor-edi hol-bel naf-tun
		kie-ber pru-lvn eng-lon nth-nwy mao-naf wes-naf nao-cly nwg-edi bla-ank ion-tun
		hel-den ska-den bal-kie bot-swe adr-alb aeg-eas tys-tun gol-tus iri-lvp eng-bel
		mao-iri nao-nwg nwg-bar nth-ska eas-ion lvp-nao nth-hel bal-bot bla-sev bla-rum`,
		`rom-ven edi-lvp arm-syr bul/ec-aeg bul/sc-bla bul/ec-gre bul/sc-rum stp/nc-bot
		stp/nc-fin stp/sc-bar stp/sc-nwy spa/nc-wes spa/nc-gol spa/nc-mar spa/sc-gas
		spa/nc-spa/sc bul/ec-bul/sc stp/nc-stp/sc nth-bal nth-iri eng-nao gol-ion mao-tys
		lon-edi ber-den kie-swe apu-tys pie-ven mar-tus nwy-fin alb-tus`)
	check("army", m.ArmyAdjacent, `
		kie-den swe-den con-bul con-ank con-smy ank-smy smy-syr arm-syr arm-smy ank-arm
		mos-stp mos-lvn mos-war mos-ukr mos-sev edi-lvp rom-ven apu-ven stp-fin stp-nwy
		bul-gre bul-ser bul-rum spa-por spa-gas spa-mar fin-nwy swe-fin lvp-yor wal-yor
		pie-tyr ven-tus bur-mar gas-mar bur-ruh mun-boh tyr-vie gal-sil gal-rum war-ukr
		gal-ukr bud-rum ser-tri alb-ser ser-gre rum-ukr sev-ukr naf-tun bel-ruh hol-ruh
		kie-ruh mun-kie pru-war sil-war par-pic bre-par gas-par pic-bel rom-apu tri-tyr`,
		`mos-gal mos-pru mun-vie ber-boh ruh-pic par-mar tyr-gal ser-vie bud-boh lon-lvp
		edi-wal cly-yor smy-bul con-gre arm-mos sev-war ukr-bud rom-pie ven-vie hol-bur
		nap-ven den-ber por-mar gas-pic tus-apu nwy-den fin-lvn pru-kie`)
	// Armies never go to sea, fleets never inland.
	check("army", m.ArmyAdjacent, "", "lon-nth bre-eng edi-nwg bla-sev nap-ion")
	check("fleet", m.FleetAdjacent, "", "mun-kie bur-mar par-bre ser-alb gal-rum vie-tri")
}

// TestNeighbourLists checks whole neighbour lists where the board is
// crowded or split.
func TestNeighbourLists(t *testing.T) {
	m := standard(t)
	for _, c := range []struct {
		t    judge.UnitType
		at   string
		want string
	}{
		{judge.Fleet, "mao", "bre eng gas iri naf nao por spa/nc spa/sc wes"},
		{judge.Fleet, "nth", "bel den edi eng hel hol lon nwg nwy ska yor"},
		{judge.Fleet, "ion", "adr aeg alb apu eas gre nap tun tys"},
		{judge.Fleet, "con", "aeg ank bla bul/ec bul/sc smy"},
		{judge.Fleet, "nwy", "bar nth nwg ska stp/nc swe"},
		{judge.Fleet, "den", "bal hel kie nth ska swe"},
		{judge.Fleet, "bla", "ank arm bul/ec con rum sev"},
		{judge.Army, "mun", "ber boh bur kie ruh sil tyr"},
		{judge.Army, "bur", "bel gas mar mun par pic ruh"},
		{judge.Army, "gal", "boh bud rum sil ukr vie war"},
		{judge.Army, "ser", "alb bud bul gre rum tri"},
		{judge.Army, "stp", "fin lvn mos nwy"},
		{judge.Army, "spa", "gas mar por"},
		{judge.Army, "bul", "con gre rum ser"},
		// An army order from a coast Loc moves from the province.
		{judge.Army, "stp/nc", "fin lvn mos nwy"},
	} {
		got := names(m, m.Neighbours(nil, c.t, locOf(t, m, c.at)))
		if want := strings.Fields(c.want); !slices.Equal(got, want) {
			t.Errorf("%s %s neighbours %v, want %v", c.t, c.at, got, want)
		}
	}
}

func TestAliases(t *testing.T) {
	m := standard(t)
	for _, c := range []struct{ id, names string }{
		{"stp", "St. Petersburg|St Petersburg|Saint Petersburg|st petersburg|STP"},
		{"mao", "mid|mat|Mid-Atlantic Ocean|Mid Atlantic|mid-atlantic"},
		{"gol", "lyo|gulf of lions|Gulf of Lyon|Gulf of Lyons"},
		{"nao", "nat|North Atlantic Ocean|North Atlantic"},
		{"nwg", "nrg|nwg|Norwegian Sea"},
		{"eng", "English Channel|ech|Channel"},
		{"bot", "Gulf of Bothnia|gob"},
		{"tys", "Tyrrhenian Sea|tyn"},
		{"hel", "Heligoland Bight|Helgoland Bight"},
		{"ska", "Skagerrak|Skagerak"},
		{"eas", "Eastern Mediterranean|East Mediterranean"},
		{"wes", "Western Mediterranean|West Mediterranean"},
		{"nth", "North Sea"},
		{"iri", "Irish Sea"},
		{"bla", "Black Sea"},
		{"bal", "Baltic Sea"},
		{"bar", "Barents Sea"},
		{"ion", "Ionian Sea"},
		{"adr", "Adriatic Sea"},
		{"aeg", "Aegean Sea"},
		{"naf", "North Africa"},
		{"mar", "Marseille|Marseilles"},
		{"sev", "Sevastopol|Sevastapol"},
		{"rum", "Rumania|Romania"},
		{"tyr", "Tyrolia|Tyrol"},
		{"tun", "Tunis|Tunisia"},
		{"hol", "Holland"},
		{"mun", "Munich"}, {"nap", "Naples"}, {"rom", "Rome"}, {"ven", "Venice"},
		{"vie", "Vienna"}, {"war", "Warsaw"}, {"con", "Constantinople"}, {"ank", "Ankara"},
		{"smy", "Smyrna"}, {"bul", "Bulgaria"}, {"gas", "Gascony"}, {"pic", "Picardy"},
		{"tus", "Tuscany"}, {"boh", "Bohemia"}, {"gal", "Galicia"}, {"sil", "Silesia"},
		{"pru", "Prussia"}, {"lvn", "Livonia"}, {"fin", "Finland"}, {"ukr", "Ukraine"},
		{"arm", "Armenia"}, {"syr", "Syria"}, {"alb", "Albania"}, {"ser", "Serbia"},
		{"gre", "Greece"}, {"tri", "Trieste"}, {"bud", "Budapest"}, {"bur", "Burgundy"},
		{"ruh", "Ruhr"}, {"kie", "Kiel"}, {"ber", "Berlin"}, {"den", "Denmark"},
		{"swe", "Sweden"}, {"nwy", "Norway"}, {"bel", "Belgium"}, {"yor", "Yorkshire"},
		{"wal", "Wales"}, {"cly", "Clyde"}, {"edi", "Edinburgh"}, {"lvp", "Liverpool"},
		{"lon", "London"}, {"bre", "Brest"}, {"par", "Paris"}, {"por", "Portugal"},
		{"spa", "Spain"}, {"pie", "Piedmont"}, {"apu", "Apulia"}, {"mos", "Moscow"},
	} {
		for _, n := range strings.Split(c.names, "|") {
			l, ok := m.Lookup(n)
			if !ok {
				t.Errorf("Lookup(%q) failed; want %s", n, c.id)
			} else if m.LocName(l) != c.id {
				t.Errorf("Lookup(%q) = %s, want %s", n, m.LocName(l), c.id)
			}
		}
	}
	// No single-letter names: they would read as powers or unit types.
	for k := range m.Names() {
		if len(k) < 3 {
			t.Errorf("name %q is shorter than three letters", k)
		}
	}
	for _, n := range []string{"nts", "a", "f", "s", "c", "h"} {
		if _, ok := m.Lookup(n); ok {
			t.Errorf("Lookup(%q) succeeded", n)
		}
	}
	for _, c := range []struct{ loc, full string }{
		{"stp", "St Petersburg"}, {"stp/nc", "St Petersburg (north coast)"},
		{"spa/sc", "Spain (south coast)"}, {"bul/ec", "Bulgaria (east coast)"},
		{"mao", "Mid-Atlantic Ocean"}, {"gol", "Gulf of Lyon"}, {"nwg", "Norwegian Sea"},
		{"hel", "Heligoland Bight"}, {"naf", "North Africa"}, {"mar", "Marseilles"},
	} {
		if got := m.FullName(locOf(t, m, c.loc)); got != c.full {
			t.Errorf("FullName(%s) = %q, want %q", c.loc, got, c.full)
		}
	}
}

func TestHomeCountries(t *testing.T) {
	m := standard(t)
	homes := map[string]struct{ centres, others string }{
		"Austria": {"bud tri vie", "boh gal tyr"},
		"England": {"edi lon lvp", "cly wal yor"},
		"France":  {"bre mar par", "bur gas pic"},
		"Germany": {"ber kie mun", "pru ruh sil"},
		"Italy":   {"nap rom ven", "apu pie tus"},
		"Russia":  {"mos sev stp war", "fin lvn ukr"},
		"Turkey":  {"ank con smy", "arm syr"},
	}
	for name, h := range homes {
		p, ok := m.PowerByName(name)
		if !ok {
			t.Fatalf("no power %s", name)
		}
		if got := names(m, m.HomeCenters(nil, p)); !slices.Equal(got, strings.Fields(h.centres)) {
			t.Errorf("%s home centres %v, want %s", name, got, h.centres)
		}
		var all []string
		for _, l := range m.Provinces() {
			if m.Locs[l].Home == p {
				all = append(all, m.LocName(l))
			}
		}
		slices.Sort(all)
		want := strings.Fields(h.centres + " " + h.others)
		slices.Sort(want)
		if !slices.Equal(all, want) {
			t.Errorf("%s home country %v, want %v", name, all, want)
		}
	}
	// Coasts share their province's home; neutral centres have none.
	if m.Locs[locOf(t, m, "stp/sc")].Home != m.Locs[locOf(t, m, "stp")].Home {
		t.Error("stp/sc has another home than stp")
	}
	for _, n := range strings.Fields("bel bul den gre hol nwy por rum ser spa swe tun") {
		if li := m.Locs[locOf(t, m, n)]; !li.Center || li.Home != judge.NoPower {
			t.Errorf("%s: centre %v home %d; want a neutral centre", n, li.Center, li.Home)
		}
	}
}

func TestStartPosition(t *testing.T) {
	m := standard(t)
	pos := judge.StartPosition(m)
	if pos.Phase.Year != 1901 || pos.Phase.Season != judge.Spring || pos.Phase.Type != judge.Movement {
		t.Errorf("phase %+v", pos.Phase)
	}
	want := map[string]string{
		"vie": "Austria A", "bud": "Austria A", "tri": "Austria F",
		"lon": "England F", "edi": "England F", "lvp": "England A",
		"bre": "France F", "par": "France A", "mar": "France A",
		"kie": "Germany F", "ber": "Germany A", "mun": "Germany A",
		"nap": "Italy F", "rom": "Italy A", "ven": "Italy A",
		"war": "Russia A", "mos": "Russia A", "sev": "Russia F", "stp/sc": "Russia F",
		"ank": "Turkey F", "con": "Turkey A", "smy": "Turkey A",
	}
	n := 0
	for _, p := range m.Provinces() {
		u, ok := pos.UnitAt(p)
		if !ok {
			continue
		}
		n++
		got := m.PowerName(u.Power) + " " + u.Type.String()
		if w := want[m.LocName(u.Loc)]; got != w {
			t.Errorf("unit at %s: %s, want %q", m.LocName(u.Loc), got, w)
		}
	}
	if n != len(want) {
		t.Errorf("%d units, want %d", n, len(want))
	}
	if got := pos.UnitCount(); !slices.Equal(got, []int{3, 3, 3, 3, 3, 4, 3}) {
		t.Errorf("unit counts %v", got)
	}
	if got := pos.CenterCount(); !slices.Equal(got, []int{3, 3, 3, 3, 3, 4, 3}) {
		t.Errorf("centre counts %v", got)
	}
	for _, c := range m.Centers() {
		if pos.Centers[c] != m.Locs[c].Home {
			t.Errorf("%s owned by %s at the start, want %s", m.LocName(c),
				m.PowerName(pos.Centers[c]), m.PowerName(m.Locs[c].Home))
		}
	}
}

// TestDATCNames checks that every province named in the DATC test files
// resolves, so that the adjudicator tests can read them unchanged.
func TestDATCNames(t *testing.T) {
	dir := os.Getenv("GMD_DATC_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "datc")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) == 0 {
		if os.Getenv("CI") != "true" {
			t.Skipf("no DATC files in %s (set GMD_DATC_DIR)", dir)
		}
		t.Fatalf("no DATC files in %s", dir)
	}
	m := standard(t)
	// Words of a data line that are not places.
	keywords := map[string]bool{}
	for _, w := range strings.Fields(`a f s c h hold support supports convoy convoys via
		build remove disband success: failure:`) {
		keywords[w] = true
	}
	seen := map[string]bool{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for n := 1; sc.Scan(); n++ {
			line, _, _ := strings.Cut(sc.Text(), "#")
			fields := strings.Fields(line)
			if len(fields) < 2 {
				continue // a section keyword, END, or blank
			}
			if k := fields[0]; k == "CASE" || k == "VARIANT_ALL" || k == "PRESTATE_SETPHASE" {
				continue
			}
			// A data line: [SUCCESS:|FAILURE:] <Power>[:] <order words>.
			i := 0
			if keywords[strings.ToLower(fields[0])] {
				i++
			}
			i++ // the power
			for _, w := range fields[i:] {
				for p := range strings.SplitSeq(w, "-") {
					if p == "" || keywords[strings.ToLower(p)] {
						continue
					}
					seen[p] = true
					if _, ok := m.Lookup(p); !ok {
						t.Errorf("%s:%d: %q does not resolve", filepath.Base(f), n, p)
					}
				}
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		fh.Close()
	}
	// The files do use godip's own ids; make sure they were read.
	for _, id := range []string{"mid", "nat", "nrg", "gol", "stp/sc", "spa/nc", "bul/ec"} {
		if !seen[id] {
			t.Errorf("DATC files never name %s: was anything read?", id)
		}
	}
}
