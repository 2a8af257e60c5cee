package judge_test

// Tests of the "34, 35, 36" variant (../../shared/seeds/variant-34-35-36.txt):
// one or more per numbered rule of the rule text, played through Adjudicate
// on the variant's map with orders as players write them.

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// board is a position under test on one map.
type board struct {
	t   *testing.T
	m   *judge.Map
	pos *judge.Position
}

// newBoard returns an empty position at phase on the variant's map, with
// the units ("England A lvp", "Russia F stp/sc") placed.
func newBoard(t *testing.T, variant, phase string, units ...string) *board {
	t.Helper()
	m, err := variants.Load(variant)
	if err != nil {
		t.Fatal(err)
	}
	ph, err := judge.ParsePhase(phase)
	if err != nil {
		t.Fatal(err)
	}
	b := &board{t: t, m: m, pos: judge.NewPosition(m, ph)}
	for _, s := range units {
		w := strings.Fields(s)
		typ := judge.Army
		if w[1] == "F" {
			typ = judge.Fleet
		}
		if err := b.pos.Place(judge.Unit{Type: typ, Power: b.power(w[0]), Loc: b.loc(w[2])}); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return b
}

func (b *board) loc(name string) judge.Loc {
	b.t.Helper()
	l, ok := b.m.Lookup(name)
	if !ok {
		b.t.Fatalf("no place %q", name)
	}
	return l
}

func (b *board) power(name string) judge.Power {
	b.t.Helper()
	p, ok := b.m.PowerByName(name)
	if !ok {
		b.t.Fatalf("no power %q", name)
	}
	return p
}

// own gives the centres to the power.
func (b *board) own(power string, centers ...string) *board {
	for _, c := range centers {
		b.pos.Centers[b.loc(c)] = b.power(power)
	}
	return b
}

// pending adds a construction ordered in the Winter before the position's
// year.
func (b *board) pending(power, at string) *board {
	b.pos.PendingCenters = append(b.pos.PendingCenters, judge.PendingCenter{Power: b.power(power), Loc: b.loc(at),
		Ordered: judge.Phase{Season: judge.Winter, Year: b.pos.Phase.Year - 1, Type: judge.Adjustment}})
	return b
}

// play adjudicates the orders ("England: A lvp - yor" lines) of the
// position's phase, checks that the input was left alone, and moves the
// board on to the next position.
func (b *board) play(orders string) *judge.Resolution {
	b.t.Helper()
	parsed, errs := parser.ParseOrders(orders, parser.Options{Map: b.m, Phase: b.pos.Phase.Type, Power: judge.NoPower})
	if len(errs) > 0 {
		b.t.Fatalf("%s: %v", orders, errs)
	}
	var os []judge.Order
	for _, o := range parsed {
		os = append(os, o.Order)
	}
	before := b.pos.Clone()
	res := judge.Adjudicate(b.pos, os, judge.DefaultRules)
	if !reflect.DeepEqual(before, b.pos) {
		b.t.Fatal("Adjudicate changed its input position")
	}
	if len(res.Results) < len(os) {
		b.t.Fatalf("%d rulings for %d orders", len(res.Results), len(os))
	}
	b.pos = res.Next
	return res
}

// ruling returns the ruling on the order whose canonical text with power
// is want ("England: build sc yor").
func (b *board) ruling(res *judge.Resolution, want string) judge.OrderResult {
	b.t.Helper()
	var all []string
	for _, r := range res.Results {
		got := r.Order.CanonicalWithPower(b.m)
		if got == want {
			return r
		}
		all = append(all, got)
	}
	b.t.Fatalf("no ruling on %q among %q", want, all)
	return judge.OrderResult{}
}

// expect checks the outcome, and the reason of a void order.
func (b *board) expect(res *judge.Resolution, order string, out judge.Outcome, reason string) {
	b.t.Helper()
	r := b.ruling(res, order)
	if r.Outcome != out || r.Reason != reason {
		b.t.Errorf("%s: %v %q, want %v %q", order, r.Outcome, r.Reason, out, reason)
	}
}

// pendingList writes the constructions of the position as "England yor
// W1901A", with "spoiled by Germany in S1902M" when spoiled.
func (b *board) pendingList() string {
	var s []string
	for _, pc := range b.pos.PendingCenters {
		s = append(s, describe(b.m, pc))
	}
	return strings.Join(s, "; ")
}

func describe(m *judge.Map, pc judge.PendingCenter) string {
	s := m.PowerName(pc.Power) + " " + m.LocName(pc.Loc) + " " + pc.Ordered.String()
	if pc.Spoiled {
		s += " spoiled by " + m.PowerName(pc.SpoiledBy) + " in " + pc.SpoiledIn.String()
	}
	return s
}

func (b *board) builtList() []string {
	var s []string
	for _, l := range b.pos.BuiltCenters {
		s = append(s, b.m.LocName(l))
	}
	return s
}

// englandWinter is a Winter 1901 in which England owns five centres and
// has three units, none at home: two builds, and Liverpool, London and
// Edinburgh free to build in. Turkey has as many units as centres.
func englandWinter(t *testing.T) *board {
	return newBoard(t, "34-35-36", "W1901A", "England F nth", "England F nwg", "England A nwy",
		"Turkey A arm", "Turkey F ank", "Turkey A con").
		own("England", "lon", "edi", "lvp", "nwy", "den").own("Turkey", "ank", "con", "smy")
}

// TestRule3 orders a construction instead of a build, in the rule book's
// own notation, beside an army build: both take a build, the construction
// is pending in the next position, and the canonical order reads back.
func TestRule3(t *testing.T) {
	b := englandWinter(t)
	res := b.play("England: A Lvp, s.c. Yor")
	b.expect(res, "England: build A lvp", judge.Built, "")
	b.expect(res, "England: build sc yor", judge.Built, "")
	if got := b.pendingList(); got != "England yor W1901A" {
		t.Errorf("pending %q, want England yor W1901A", got)
	}
	if b.pos.Phase.String() != "S1902M" || len(b.builtList()) != 0 || b.pos.IsCenter(b.loc("yor")) {
		t.Errorf("next %s, built %v, yor a centre %v", b.pos.Phase, b.builtList(), b.pos.IsCenter(b.loc("yor")))
	}
	if u, ok := b.pos.UnitAt(b.loc("lvp")); !ok || u.Type != judge.Army {
		t.Errorf("no army built in Liverpool: %+v", u)
	}
	// A construction waives nothing else: Turkey, with no builds, is not
	// touched, and England has no build left to waive.
	if len(res.Results) != 2 {
		t.Errorf("%d rulings, want 2", len(res.Results))
	}
}

// TestRule4a: a construction needs a build to spare, after the unit builds
// and waives ordered before it.
func TestRule4a(t *testing.T) {
	b := englandWinter(t)
	res := b.play("England: A Lvp, A Lon, s.c. Yor")
	b.expect(res, "England: build sc yor", judge.Void, "rule 4a: England has no build to spare")
	if len(b.pos.PendingCenters) != 0 {
		t.Errorf("pending %q", b.pendingList())
	}

	b = englandWinter(t)
	res = b.play("England: waive, s.c. Wal, s.c. Yor")
	b.expect(res, "England: build sc wal", judge.Built, "")
	b.expect(res, "England: build sc yor", judge.Void, "rule 4a: England has no build to spare")

	// A power with no builds at all, and one that must remove.
	b = englandWinter(t)
	res = b.play("Turkey: s.c. Syr")
	b.expect(res, "Turkey: build sc syr", judge.Void, "rule 4a: Turkey has no build to spare")
	b = newBoard(t, "34-35-36", "W1901A", "England F nth", "England F nwg", "England A yor").own("England", "lon", "edi")
	res = b.play("England: s.c. Wal")
	b.expect(res, "England: build sc wal", judge.Void, "rule 4a: England has no build to spare")
}

// TestRule4b: only in the power's home country, but anywhere in it.
func TestRule4b(t *testing.T) {
	b := englandWinter(t)
	res := b.play("England: s.c. Alb, s.c. Pic")
	b.expect(res, "England: build sc alb", judge.Void, "rule 4b: Albania is not in England's home country")
	b.expect(res, "England: build sc pic", judge.Void, "rule 4b: Picardy is not in England's home country")
	b = englandWinter(t)
	res = b.play("England: s.c. Clyde")
	b.expect(res, "England: build sc cly", judge.Built, "")
	// A sea is nobody's home country.
	b = englandWinter(t)
	res = b.play("England: s.c. nth")
	b.expect(res, "England: build sc nth", judge.Void, "rule 4b: North Sea is not in England's home country")
}

// TestRule4c: not on a supply centre, whether of the map, built in the
// game, or under construction.
func TestRule4c(t *testing.T) {
	b := englandWinter(t)
	res := b.play("England: s.c. Lon")
	b.expect(res, "England: build sc lon", judge.Void, "rule 4c: London is already a supply centre")

	b = englandWinter(t)
	b.pos.BuiltCenters = []judge.Loc{b.loc("yor")}
	b.pos.Centers[b.loc("yor")] = b.power("England")
	res = b.play("England: s.c. Yor")
	b.expect(res, "England: build sc yor", judge.Void, "rule 4c: Yorkshire is already a supply centre")

	// A construction still pending (which a position made by the judge
	// never holds in a Winter; a hand-made one may).
	b = englandWinter(t)
	b.pos.PendingCenters = []judge.PendingCenter{{Power: b.power("England"), Loc: b.loc("yor"),
		Ordered: judge.Phase{Season: judge.Winter, Year: 1900, Type: judge.Adjustment}}}
	res = b.play("England: s.c. Yor")
	b.expect(res, "England: build sc yor", judge.Void, "rule 4c: Yorkshire is already a supply centre under construction")
}

// TestRule8: one construction a year, even with builds to spare.
func TestRule8(t *testing.T) {
	b := englandWinter(t)
	res := b.play("England: s.c. Yor, s.c. Wal")
	b.expect(res, "England: build sc yor", judge.Built, "")
	b.expect(res, "England: build sc wal", judge.Void, "rule 8: England already builds a supply centre this year, in Yorkshire")
	if got := b.pendingList(); got != "England yor W1901A" {
		t.Errorf("pending %q", got)
	}
	// The void construction used no build: England's second build is
	// still there for a unit.
	b = englandWinter(t)
	res = b.play("England: s.c. Yor, s.c. Wal, F Lon")
	b.expect(res, "England: build F lon", judge.Built, "")
}

// TestConstructionNotInStandard: the standard map has no constructions.
func TestConstructionNotInStandard(t *testing.T) {
	b := newBoard(t, "standard", "W1901A", "England F nth", "England F nwg", "England A nwy").
		own("England", "lon", "edi", "lvp", "nwy")
	res := b.play("England: s.c. Yor")
	b.expect(res, "England: build sc yor", judge.Void, "supply centre construction is not allowed in this variant")
	if len(b.pos.PendingCenters) != 0 {
		t.Errorf("pending %q", b.pendingList())
	}
}

// yearWithConstruction is Spring 1902 with England's construction in
// Yorkshire pending, English units around it, and foreign ones in reach.
func yearWithConstruction(t *testing.T, units ...string) *board {
	b := newBoard(t, "34-35-36", "S1902M", units...).
		own("England", "lon", "edi", "lvp").own("Germany", "ber", "kie", "mun", "hol", "den").
		pending("England", "yor")
	return b
}

// endYear plays the rest of the year with every unit holding, and
// returns the Resolution that ended the Fall.
func (b *board) endYear() *judge.Resolution {
	b.t.Helper()
	for {
		phase := b.pos.Phase
		res := b.play("")
		if phase.Season == judge.Fall && b.pos.Phase.Season != judge.Fall {
			return res
		}
	}
}

// TestRule5 checks what spoils a construction: any legal order of another
// power's unit into the province during the year, whatever became of it.
func TestRule5(t *testing.T) {
	for _, tc := range []struct {
		name    string
		units   []string
		orders  string
		spoiled string // "Germany in S1902M", or "" for not spoiled
	}{
		{"failed move", []string{"England A yor", "Germany F nth"},
			"England: A yor H\nGermany: F nth - yor", "Germany in S1902M"},
		{"successful move", []string{"Germany F nth"},
			"Germany: F nth - yor", "Germany in S1902M"},
		{"bounce", []string{"Germany F nth", "France A wal"},
			"Germany: F nth - yor\nFrance: A wal - yor", "Germany in S1902M"}, // the North Sea is first in map order
		{"self-standoff", []string{"Germany F nth", "Germany A wal"},
			"Germany: F nth - yor\nGermany: A wal - yor", "Germany in S1902M"},
		{"convoy", []string{"Germany A hol", "Germany F nth"},
			"Germany: A hol - yor\nGermany: F nth C A hol - yor", "Germany in S1902M"},
		{"convoy dislodged", []string{"Germany A hol", "Germany F nth", "England F edi", "England F lon"},
			"Germany: A hol - yor\nGermany: F nth C A hol - yor\nEngland: F edi - nth\nEngland: F lon S F edi - nth", "Germany in S1902M"},
		// DATC 6.D.8: a fleet that could convoy but was not ordered to:
		// the move is legal and fails.
		{"convoy not ordered", []string{"Germany A hol", "Germany F nth"},
			"Germany: A hol - yor\nGermany: F nth H", "Germany in S1902M"},
		// No orders into it: a unit of another power standing there, a
		// support into it, the builder's own moves, and orders that are
		// void (not adjacent; DATC 6.D.32, no fleet to convoy at all).
		{"standing there", []string{"Germany A yor"}, "Germany: A yor H", ""},
		{"support", []string{"Germany F nth", "England A lon"},
			"Germany: F nth S A lon - yor\nEngland: A lon - yor", ""},
		{"own standoff", []string{"England F edi", "England A lon"},
			"England: F edi - yor\nEngland: A lon - yor", ""},
		{"void move", []string{"Germany F nwg"}, "Germany: F nwg - yor", ""},
		{"void convoy", []string{"Germany A hol"}, "Germany: A hol - yor", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := yearWithConstruction(t, tc.units...)
			res := b.play(tc.orders)
			want := "England yor W1901A"
			if tc.spoiled != "" {
				want += " spoiled by " + tc.spoiled
			}
			if got := b.pendingList(); got != want {
				t.Errorf("after the Spring: %q, want %q", got, want)
			}
			if res.Constructions != nil {
				t.Errorf("a Spring ended a construction: %v", res.Constructions)
			}
			res = b.endYear()
			if len(res.Constructions) != 1 || describe(b.m, res.Constructions[0]) != want {
				t.Fatalf("constructions ended: %v, want %q", res.Constructions, want)
			}
			if len(b.pos.PendingCenters) != 0 {
				t.Errorf("still pending: %q", b.pendingList())
			}
			yor := b.loc("yor")
			if tc.spoiled != "" {
				if b.pos.IsCenter(yor) || len(b.builtList()) != 0 || b.pos.Centers[yor] != judge.NoPower {
					t.Errorf("spoiled, yet built %v, owner %v", b.builtList(), b.pos.Centers[yor])
				}
				return
			}
			if !b.pos.IsCenter(yor) || !slices.Equal(b.builtList(), []string{"yor"}) {
				t.Errorf("not built: built %v", b.builtList())
			}
		})
	}
}

// TestRule5LaterPhases: an order in the Fall or in a retreat spoils too,
// an earlier spoil is the one recorded, and a retreat by the builder's own
// unit does not spoil.
func TestRule5LaterPhases(t *testing.T) {
	// A German army dislodged from Wales in the Fall retreats to
	// Yorkshire.
	b := yearWithConstruction(t, "Germany A wal", "England F iri", "England F eng", "England A lvp")
	b.play("")
	b.play("England: F iri - wal\nEngland: F eng S F iri - wal\nEngland: A lvp S F iri - wal")
	if b.pos.Phase.String() != "F1902R" || b.pendingList() != "England yor W1901A" {
		t.Fatalf("after the Fall: %s, %q", b.pos.Phase, b.pendingList())
	}
	res := b.play("Germany: A wal - yor")
	b.expect(res, "Germany: A wal - yor", judge.Succeeds, "")
	if len(res.Constructions) != 1 || describe(b.m, res.Constructions[0]) != "England yor W1901A spoiled by Germany in F1902R" {
		t.Errorf("constructions %v", res.Constructions)
	}
	if b.pos.IsCenter(b.loc("yor")) {
		t.Error("Yorkshire was built")
	}

	// The builder's own retreat there spoils nothing.
	b = yearWithConstruction(t, "England A wal", "Germany F iri", "Germany F eng", "Germany A lvp")
	b.play("")
	b.play("Germany: F iri - wal\nGermany: F eng S F iri - wal\nGermany: A lvp S F iri - wal")
	res = b.play("England: A wal - yor")
	if len(res.Constructions) != 1 || res.Constructions[0].Spoiled || !b.pos.IsCenter(b.loc("yor")) {
		t.Errorf("constructions %v, built %v", res.Constructions, b.builtList())
	}

	// Spoiled in the Spring by Germany, ordered into again in the Fall by
	// France: the first stays on record.
	b = yearWithConstruction(t, "Germany F nth", "France A wal")
	b.play("Germany: F nth - yor")
	res = b.play("France: A wal - yor")
	if len(res.Constructions) != 1 || describe(b.m, res.Constructions[0]) != "England yor W1901A spoiled by Germany in S1902M" {
		t.Errorf("constructions %v", res.Constructions)
	}
}

// TestEndedConstructions: the Winter position after a Fall that ended
// constructions keeps them, built or spoiled, for the Winter's results;
// the Spring after it has none, and a Fall that goes straight to the
// Spring hands none on.
func TestEndedConstructions(t *testing.T) {
	b := yearWithConstruction(t, "Germany F nth")
	b.pending("Turkey", "jor")
	b.play("Germany: F nth - yor")
	res := b.endYear()
	if b.pos.Phase.String() != "W1902A" {
		t.Fatalf("next phase %s, want W1902A", b.pos.Phase)
	}
	var ended []string
	for _, pc := range b.pos.EndedConstructions {
		ended = append(ended, describe(b.m, pc))
	}
	if got := strings.Join(ended, "; "); got != "England yor W1901A spoiled by Germany in S1902M; Turkey jor W1901A" ||
		!reflect.DeepEqual(b.pos.EndedConstructions, res.Constructions) {
		t.Errorf("ended in the Winter position: %q; the Fall ended %v", got, res.Constructions)
	}
	b.play("Turkey: A Jor")
	if b.pos.Phase.String() != "S1903M" || b.pos.EndedConstructions != nil {
		t.Errorf("%s keeps ended constructions %v", b.pos.Phase, b.pos.EndedConstructions)
	}

	// Nobody has anything to adjust: the Fall goes to the Spring, and its
	// own results were the only place to say it.
	b = newBoard(t, "34-35-36", "S1902M", "England A lon", "England A edi", "England A lvp", "Germany F nth").
		own("England", "lon", "edi", "lvp").own("Germany", "kie").pending("England", "yor")
	b.play("Germany: F nth - yor")
	res = b.endYear()
	if b.pos.Phase.String() != "S1903M" || len(res.Constructions) != 1 || b.pos.EndedConstructions != nil {
		t.Errorf("next %s, ended %v, kept %v", b.pos.Phase, res.Constructions, b.pos.EndedConstructions)
	}
}

// TestRule6 builds a centre and uses it that same Winter, and gives a new
// centre to the power whose unit stands in it when it is built.
func TestRule6(t *testing.T) {
	b := yearWithConstruction(t, "England F nth", "England F nwg", "England A nwy")
	b.own("England", "nwy")
	res := b.endYear()
	if !res.OwnershipChanged || len(res.Constructions) != 1 || res.Constructions[0].Spoiled {
		t.Fatalf("ownership changed %v, constructions %v", res.OwnershipChanged, res.Constructions)
	}
	yor := b.loc("yor")
	if b.pos.Centers[yor] != b.power("England") || b.pos.CenterCount()[b.power("England")] != 5 {
		t.Errorf("Yorkshire owned by %v; England has %d centres", b.pos.Centers[yor], b.pos.CenterCount()[b.power("England")])
	}
	if b.pos.Phase.String() != "W1902A" {
		t.Fatalf("next phase %s, want W1902A", b.pos.Phase)
	}
	if sites := b.pos.BuildSites(b.power("England"), judge.BuildHome); !slices.Contains(sites, yor) {
		t.Errorf("England cannot build in Yorkshire: sites %v", sites)
	}
	res = b.play("England: F Yor, A Lon")
	b.expect(res, "England: build F yor", judge.Built, "")
	b.expect(res, "England: build A lon", judge.Built, "")
	// A centre like any other: kept, with nobody else in it, from one
	// year to the next.
	b.play("")
	b.play("")
	if b.pos.Centers[yor] != b.power("England") {
		t.Error("England lost Yorkshire to nobody")
	}

	// A Russian army that stood in Yorkshire all year, never ordered in:
	// the centre is built, and is Russia's.
	b = yearWithConstruction(t, "Russia A yor")
	res = b.endYear()
	if len(res.Constructions) != 1 || res.Constructions[0].Spoiled {
		t.Fatalf("constructions %v", res.Constructions)
	}
	if b.pos.Centers[yor] != b.power("Russia") || !b.pos.IsCenter(yor) {
		t.Errorf("Yorkshire owned by %v, centre %v; want Russia's", b.pos.Centers[yor], b.pos.IsCenter(yor))
	}
}

// TestRule7 checks the victory count at 34, 35 and 36 centres: 18, 18 and
// 19, counted after the year's constructions are built.
func TestRule7(t *testing.T) {
	french := []string{"par", "bre", "mar", "bel", "hol", "spa", "por", "mun", "kie", "ber",
		"den", "swe", "nwy", "lon", "edi", "lvp", "rom", "nap", "ven"}
	for _, tc := range []struct {
		name    string
		built   []string // centres built before
		pending bool     // France builds one more in Gascony this year
		owned   int      // France's centres (Gascony aside)
		centres int
		win     bool
	}{
		{"34, 17", nil, false, 17, 34, false},
		{"34, 18", nil, false, 18, 34, true},
		{"35, 18", []string{"bur"}, false, 17, 35, true}, // Burgundy is the 18th
		{"36, 18", []string{"bur", "pic"}, false, 16, 36, false},
		{"36, 19", []string{"bur", "pic"}, false, 17, 36, true},
		// Gascony, built as this Fall ends, makes 36 centres and France's
		// 18th: not enough any more.
		{"35 to 36, 18", []string{"bur"}, true, 16, 36, false},
		{"35 to 36, 19", []string{"bur"}, true, 17, 36, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBoard(t, "34-35-36", "F1905M", "France A par").own("France", french[:tc.owned]...)
			for _, c := range tc.built {
				b.pos.BuiltCenters = append(b.pos.BuiltCenters, b.loc(c))
				b.pos.Centers[b.loc(c)] = b.power("France")
			}
			slices.Sort(b.pos.BuiltCenters)
			if tc.pending {
				b.pending("France", "gas")
			}
			res := b.play("")
			if n := len(b.pos.CenterList()); n != tc.centres {
				t.Errorf("%d centres, want %d", n, tc.centres)
			}
			need := map[int]int{34: 18, 35: 18, 36: 19}[tc.centres]
			if got := b.pos.VictoryCenters(); got != need {
				t.Errorf("victory needs %d, want %d", got, need)
			}
			if got := len(res.Winners) == 1 && res.Winners[0] == b.power("France"); got != tc.win {
				t.Errorf("France (%d centres) wins: %v, want %v", b.pos.CenterCount()[b.power("France")], got, tc.win)
			}
		})
	}
	// The standard map keeps its fixed count.
	b := newBoard(t, "standard", "F1905M")
	b.pos.BuiltCenters = []judge.Loc{b.loc("bur"), b.loc("pic")}
	if got := b.pos.VictoryCenters(); got != 18 {
		t.Errorf("standard victory %d, want 18", got)
	}
}

// TestConstructionKeepsWinter: a power with a build but no free home
// centre still gets its Winter where it may start a centre instead.
func TestConstructionKeepsWinter(t *testing.T) {
	for _, tc := range []struct {
		variant, want string
	}{{"34-35-36", "W1901A"}, {"standard", "S1902M"}} {
		b := newBoard(t, tc.variant, "F1901M", "England F lon", "England F edi", "England A lvp").
			own("England", "lon", "edi", "lvp", "nwy")
		b.play("")
		if b.pos.Phase.String() != tc.want {
			t.Errorf("%s: next phase %s, want %s", tc.variant, b.pos.Phase, tc.want)
		}
	}
}

// TestConstructionInOtherPhases: a construction given outside a Winter is
// void, and does not take the place of the order of the unit standing in
// the province.
func TestConstructionInOtherPhases(t *testing.T) {
	b := newBoard(t, "34-35-36", "S1902M", "England A yor", "Germany F nth")
	sc := judge.Order{Kind: judge.Construct, Power: b.power("England"), Unit: b.loc("yor"), Target: judge.NoLoc, Dest: judge.NoLoc}
	mv := judge.Order{Kind: judge.Move, Power: b.power("England"), Type: judge.Army, Unit: b.loc("yor"), Target: b.loc("lon"), Dest: judge.NoLoc}
	res := judge.Adjudicate(b.pos, []judge.Order{mv, sc}, judge.DefaultRules)
	b.expect(res, "England: build sc yor", judge.Void, "construct orders belong to other phases")
	b.expect(res, "England: A yor - lon", judge.Succeeds, "")

	b = newBoard(t, "34-35-36", "F1902R", "Germany F nth")
	b.pos.Dislodged = []judge.DislodgedUnit{{Unit: judge.Unit{Type: judge.Army, Power: b.power("England"), Loc: b.loc("yor")},
		AttackerFrom: b.loc("edi")}}
	mv.Target = b.loc("wal")
	res = judge.Adjudicate(b.pos, []judge.Order{mv, sc}, judge.DefaultRules)
	b.expect(res, "England: build sc yor", judge.Void, "construct orders belong to other phases")
	b.expect(res, "England: A yor - wal", judge.Succeeds, "")
}
