package parser_test

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// tinyMap is a small map with the names that trap a careless parser: words
// that are also keywords or begin like them ("Army"/"Armenia",
// "S"/"Smyrna", "F"/"Finland", "C"/"Clyde", "to"/"Tobruk", "m"/"mun",
// "North Sea"/"north coast"), multi-word names, and split coasts. Austria's
// letter is "A", France's is "F", like the unit types.
func tinyMap(t testing.TB) *judge.Map {
	t.Helper()
	b := judge.NewMapBuilder("tiny", "Tiny")
	aus := b.AddPower("Austria", "Austrian", 'A')
	eng := b.AddPower("England", "English", 'E')
	fra := b.AddPower("France", "French", 'F')
	ger := b.AddPower("Germany", "German", 'G')
	rus := b.AddPower("Russia", "Russian", 'R')
	tur := b.AddPower("Turkey", "Turkish", 'T')
	n := judge.NoPower
	b.AddProvince("lon", "London", judge.Coast, true, eng)
	b.AddProvince("lvp", "Liverpool", judge.Coast, true, eng)
	b.AddProvince("cly", "Clyde", judge.Coast, false, eng)
	b.AddProvince("eng", "English Channel", judge.Sea, false, n, "Channel")
	b.AddProvince("nth", "North Sea", judge.Sea, false, n)
	b.AddProvince("nat", "North Atlantic Ocean", judge.Sea, false, n, "North Atlantic")
	b.AddProvince("nwg", "Norwegian Sea", judge.Sea, false, n, "nrg")
	b.AddProvince("mao", "Mid-Atlantic Ocean", judge.Sea, false, n, "Mid-Atlantic", "mid")
	b.AddProvince("gol", "Gulf of Lyon", judge.Sea, false, n, "lyo", "Gulf of Lyons")
	b.AddProvince("nwy", "Norway", judge.Coast, true, n)
	b.AddProvince("par", "Paris", judge.Land, true, fra)
	b.AddProvince("bur", "Burgundy", judge.Land, false, fra)
	b.AddProvince("bre", "Brest", judge.Coast, true, fra)
	b.AddProvince("mar", "Marseilles", judge.Coast, true, fra)
	b.AddProvince("mun", "Munich", judge.Land, true, ger)
	b.AddProvince("ber", "Berlin", judge.Coast, true, ger)
	b.AddProvince("sil", "Silesia", judge.Land, false, ger)
	b.AddProvince("fin", "Finland", judge.Coast, false, rus)
	stp := b.AddProvince("stp", "St Petersburg", judge.Coast, true, rus, "St. Petersburg")
	b.AddCoast(stp, "nc", "St Petersburg (north coast)")
	b.AddCoast(stp, "sc", "St Petersburg (south coast)")
	spa := b.AddProvince("spa", "Spain", judge.Coast, true, n)
	b.AddCoast(spa, "nc", "Spain (north coast)")
	b.AddCoast(spa, "sc", "Spain (south coast)")
	b.AddProvince("smy", "Smyrna", judge.Coast, true, tur)
	b.AddProvince("arm", "Armenia", judge.Coast, false, tur)
	b.AddProvince("tob", "Tobruk", judge.Coast, false, n)
	b.AddProvince("tri", "Trieste", judge.Coast, true, aus)
	b.AddProvince("adr", "Adriatic Sea", judge.Sea, false, n)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// render writes orders and errors the way "gmd orders" does: one line each,
// in the order of the text.
func render(m *judge.Map, orders []parser.ParsedOrder, errs parser.ErrorList) string {
	type item struct {
		line, col int
		s         string
	}
	var items []item
	for _, o := range orders {
		s := o.Canonical(m)
		if o.Power != judge.NoPower {
			s = o.CanonicalWithPower(m)
		}
		if o.Bare {
			s += " (bare)"
		}
		items = append(items, item{o.Line, o.Col, s})
	}
	for _, e := range errs {
		items = append(items, item{e.Line, e.Col, e.Error()})
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].line != items[j].line {
			return items[i].line < items[j].line
		}
		return items[i].col < items[j].col
	})
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.s)
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

type parseCase struct {
	in    string
	phase judge.PhaseType
	want  string // render output; "line ..." lines are errors
}

func runCases(t *testing.T, m *judge.Map, power judge.Power, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		orders, errs := parser.ParseOrders(c.in, parser.Options{Map: m, Phase: c.phase, Power: power})
		if got := render(m, orders, errs); got != c.want {
			t.Errorf("%v %q:\ngot:\n%s\nwant:\n%s", c.phase, c.in, got, c.want)
		}
	}
}

const (
	mv  = judge.Movement
	ret = judge.Retreat
	adj = judge.Adjustment
)

func TestMovementOrders(t *testing.T) {
	m := tinyMap(t)
	runCases(t, m, judge.NoPower, []parseCase{
		// Holds.
		{"A Par H", mv, "A par H"},
		{"a par hold", mv, "A par H"},
		{"Army Paris holds.", mv, "A par H"},
		{"A Par stand", mv, "A par H"},
		{"par stands", mv, "par H"},
		{"F. Lon H.", mv, "F lon H"},
		// Moves, every spelling.
		{"A Par - Bur", mv, "A par - bur"},
		{"A Par-Bur", mv, "A par - bur"},
		{"A Par -> Bur", mv, "A par - bur"},
		{"A Par => Bur", mv, "A par - bur"},
		{"A Par -- Bur", mv, "A par - bur"},
		{"A Par m Bur", mv, "A par - bur"},
		{"A Par move Bur", mv, "A par - bur"},
		{"A Par moves to Bur", mv, "A par - bur"},
		{"A Par move to Bur", mv, "A par - bur"},
		{"A Par to Bur", mv, "A par - bur"},
		{"Army Paris moves to Burgundy", mv, "A par - bur"},
		{"A Par – Bur", mv, "A par - bur"}, // en dash from a mail program
		{"A Par → Bur", mv, "A par - bur"},
		{"A\u00a0Par\u00a0-\u00a0Bur", mv, "A par - bur"}, // no-break spaces
		// Keyword-like names.
		{"A Mun m Ber", mv, "A mun - ber"},
		{"A Arm - Smy", mv, "A arm - smy"},
		{"Army Armenia - Smyrna", mv, "A arm - smy"},
		{"F Fin - Tob", mv, "F fin - tob"},
		{"F Fin to Tobruk", mv, "F fin - tob"},
		{"A Smy S A Arm", mv, "A smy S A arm"},
		{"F Cly H", mv, "F cly H"},
		{"Smy S Arm", mv, "smy S arm"},
		// Multi-word names.
		{"F North Sea - Norway", mv, "F nth - nwy"},
		{"F Lon - North Sea", mv, "F lon - nth"},
		{"F North Atlantic Ocean - Norwegian Sea", mv, "F nat - nwg"},
		{"F North Atlantic - nrg", mv, "F nat - nwg"},
		{"F Bre - Mid-Atlantic Ocean", mv, "F bre - mao"},
		{"F Bre - Mid - Atlantic Ocean", mv, "line 1 col 15: unknown province \"Atlantic Ocean\" (did you mean Mid-Atlantic Ocean or North Atlantic Ocean?)"},
		{"F Mid-Atlantic - Bre", mv, "F mao - bre"},
		{"F Mid-Bre", mv, "F mao - bre"},
		{"F Gulf of Lyon - Mar", mv, "F gol - mar"},
		{"F Gulf of Lyons - Mar", mv, "F gol - mar"},
		{"F lyo-mar", mv, "F gol - mar"},
		{"F St. Petersburg/sc - Fin", mv, "F stp/sc - fin"},
		{"F St.Petersburg(sc) - Fin", mv, "F stp/sc - fin"},
		{"F StPetersburg sc - Fin", mv, "F stp/sc - fin"},
		{"F English Channel - Bre", mv, "F eng - bre"},
		// Coasts.
		{"F Mao - Spa/nc", mv, "F mao - spa/nc"},
		{"F Mao - Spa(nc)", mv, "F mao - spa/nc"},
		{"F Mao - Spa (nc)", mv, "F mao - spa/nc"},
		{"F Mao - Spa/north coast", mv, "F mao - spa/nc"},
		{"F Mao - Spa (north coast)", mv, "F mao - spa/nc"},
		{"F Mao - Spa (North)", mv, "F mao - spa/nc"},
		{"F Mao - Spa/n", mv, "F mao - spa/nc"},
		{"F Mao - Spa nc", mv, "F mao - spa/nc"},
		{"F Mao - Spa n.c.", mv, "F mao - spa/nc"},
		{"F Mao - Spa north coast", mv, "F mao - spa/nc"},
		{"F Mao - Spa/SC", mv, "F mao - spa/sc"},
		{"F Mao - Spa", mv, "F mao - spa"},
		// A bare "north" is not a coast: it may begin a name.
		{"F Mao - Spa north", mv, `line 1 col 13: expected end of order after "F Mao - Spa", found "north"`},
		{"F Nwy - North Sea", mv, "F nwy - nth"},
		{"F Stp North Coast - Nwy", mv, "F stp/nc - nwy"},
		{"F Spa/sc - Mar", mv, "F spa/sc - mar"},
		// Supports.
		{"A Mun S A Ber", mv, "A mun S A ber"},
		{"A Mun S Ber", mv, "A mun S ber"},
		{"A Mun S A Ber H", mv, "A mun S A ber"},
		{"A Mun supports A Ber holds", mv, "A mun S A ber"},
		{"A Mun S German A Ber", mv, "A mun S A ber"},
		{"A Mun S Germany A Ber", mv, "A mun S A ber"},
		{"A Mun S A Ber - Sil", mv, "A mun S A ber - sil"},
		{"A Mun S Ber - Sil", mv, "A mun S ber - sil"},
		{"A Mun support Ber move to Sil", mv, "A mun S ber - sil"},
		{"F Mao S F Bre - Spa/nc", mv, "F mao S F bre - spa/nc"},
		{"F Eng S English Channel", mv, "F eng S eng"},
		{"F Eng S English F Lon", mv, "F eng S F lon"},
		// Convoys.
		{"F Nth C A Lon - Nwy", mv, "F nth C A lon - nwy"},
		{"F Nth convoys A Lon to Nwy", mv, "F nth C A lon - nwy"},
		{"F Nth T A Lon - Nwy", mv, "F nth C A lon - nwy"},
		{"F Nth transports Lon - Nwy", mv, "F nth C lon - nwy"},
		{"North Sea C London - Norway", mv, "nth C lon - nwy"},
		{"A Lon-Nth-Nwy", mv, "A lon - nth - nwy"},
		{"A Lon - Nth - Nwg - Nwy", mv, "A lon - nth - nwg - nwy"},
		{"A Lon - Nwy via convoy", mv, "A lon - nwy via convoy"},
		{"A Lon - Nwy by convoy", mv, "A lon - nwy via convoy"},
		{"A Lon - Nth - Nwy via convoy", mv, "A lon - nth - nwy"},
		// Several orders on a line; commas that only pause.
		{"A Par - Bur, A Mar H; F Bre - Mao", mv, "A par - bur\nA mar H\nF bre - mao"},
		{"A Par - Bur, Mar H", mv, "A par - bur\nmar H"},
		{"A Par - Bur,A Mar H;", mv, "A par - bur\nA mar H"},
		{";A Par H;;", mv, "A par H"},
		{"A Lon - Nwy, via convoy", mv, "A lon - nwy via convoy"},
		{"A Mun S A Ber, H", mv, "A mun S A ber"},
		{"A Mun S A Ber, - Sil", mv, "A mun S A ber - sil"},
		{"F Nth C, A Lon - Nwy", mv, "F nth C A lon - nwy"},
		{"A Mun S, A Ber", mv, "A mun S A ber"},
		{"A Mun S A Ber, A Kie - Ber", mv, "A mun S A ber\nline 1 col 18: unknown province \"Kie\""},
	})
}

func TestPowers(t *testing.T) {
	m := tinyMap(t)
	runCases(t, m, judge.NoPower, []parseCase{
		{"England: F Lon - Nth", mv, "England: F lon - nth"},
		{"England F Lon - Nth", mv, "England: F lon - nth"},
		{"E: F Lon-Nth", mv, "England: F lon - nth"},
		{"E F Lon-Nth", mv, "England: F lon - nth"},
		{"E Lon-Nth", mv, "England: lon - nth"},
		{"English F Lon - Nth", mv, "England: F lon - nth"},
		{"english: f lon - nth", mv, "England: F lon - nth"},
		{"F A Par - Bur", mv, "France: A par - bur"},
		{"A F Tri - Adr", mv, "Austria: F tri - adr"},
		{"A: A Tri - Adr", mv, "Austria: A tri - adr"},
		{"F: F Bre - Mao", mv, "France: F bre - mao"},
		{"F Fin - Tob", mv, "F fin - tob"},
		{"A Arm - Smy", mv, "A arm - smy"},
		{"T F Smy - Arm", mv, "Turkey: F smy - arm"},
		{"R A Fin H", mv, "Russia: A fin H"},
		// "English Channel" is a place, not England's.
		{"English Channel - Bre", mv, "eng - bre"},
		{"English: English Channel - Bre", mv, "England: eng - bre"},
		// Blocks.
		{"England\nF Lon - Nth\nA Lvp H\nFrance:\nA Par - Bur", mv,
			"England: F lon - nth\nEngland: A lvp H\nFrance: A par - bur"},
		{"England:\nF Lon - Nth\nFrance: A Par - Bur\nA Lvp H", mv,
			"England: F lon - nth\nFrance: A par - bur\nEngland: A lvp H"},
		{"E:\nF Lon H", mv, "England: F lon H"},
		// A prefix holds for the rest of its line.
		{"France: A Par - Bur, A Mar H; England: F Lon H, F Bre H", mv,
			"France: A par - bur\nFrance: A mar H\nEngland: F lon H\nEngland: F bre H"},
		// Unknown powers.
		{"Engl: F Lon - Nth", mv, `line 1 col 1: unknown power "Engl" (did you mean England?)`},
		{"Engl F Lon - Nth", mv, `line 1 col 1: unknown power "Engl" (did you mean England?)`},
		{"Engl:", mv, `line 1 col 1: unknown power "Engl" (did you mean England?)`},
		{"Italy: A Ven H", mv, `line 1 col 1: unknown power "Italy"`},
	})
	// The default power applies to orders without a prefix.
	runCases(t, m, 1, []parseCase{
		{"F Lon - Nth\nFrance: A Par H\nA Mar H\nFrance\nA Bre H", mv,
			"England: F lon - nth\nFrance: A par H\nEngland: A mar H\nFrance: A bre H"},
	})
}

// TestPowerDigits checks power letters that are digits, as in Chaos.
func TestPowerDigits(t *testing.T) {
	b := judge.NewMapBuilder("digits", "Digits")
	b.AddPower("One", "Onish", '1')
	b.AddPower("Bee", "Beeish", 'B')
	b.AddProvince("lon", "London", judge.Coast, true, 0)
	b.AddProvince("par", "Paris", judge.Land, true, 1)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	runCases(t, m, judge.NoPower, []parseCase{
		{"1: F Lon H", mv, "One: F lon H"},
		{"1 A Par H", mv, "One: A par H"},
		{"B A Par H", mv, "Bee: A par H"},
		{"B A Par", adj, "build A par"},
		{"B: A Par", adj, "Bee: build A par (bare)"},
		{"2: A Par H", mv, `line 1 col 1: unknown power "2"`},
	})
}

func TestRetreatOrders(t *testing.T) {
	m := tinyMap(t)
	runCases(t, m, judge.NoPower, []parseCase{
		{"A Par - Bur", ret, "A par - bur"},
		{"A Par disband", ret, "A par disband"},
		{"A Par D", ret, "A par disband"},
		{"Paris disbands", ret, "par disband"},
		{"Disband A Par", ret, "A par disband"},
		{"F Mao - Spa (sc)", ret, "F mao - spa/sc"},
		{"A Par H", ret, `line 1 col 7: expected "-" or "disband" after "A Par", found "H" (this is a retreat phase: a dislodged unit retreats or disbands)`},
		{"A Par S A Mar", ret, `line 1 col 7: expected "-" or "disband" after "A Par", found "S" (this is a retreat phase: a dislodged unit retreats or disbands)`},
		{"A Lon - Nth - Nwy", ret, `line 1 col 9: a retreat cannot go by convoy`},
		{"A Par - Bur via convoy", ret, `line 1 col 9: a retreat cannot go by convoy`},
		{"Build A Par", ret, `line 1 col 1: "Build": builds and removals are orders of an adjustment phase, not of a retreat phase`},
	})
}

func TestAdjustmentOrders(t *testing.T) {
	m := tinyMap(t)
	runCases(t, m, judge.NoPower, []parseCase{
		{"Build A Par", adj, "build A par"},
		{"build army paris", adj, "build A par"},
		{"B F stp/nc", adj, "build F stp/nc"},
		{"b f St. Petersburg (north coast)", adj, "build F stp/nc"},
		{"builds F Lon", adj, "build F lon"},
		{"A Par", adj, "build A par (bare)"},
		{"F Stp/sc", adj, "build F stp/sc (bare)"},
		{"Remove A Par", adj, "remove A par"},
		{"remove par", adj, "remove par"},
		{"R A Par", adj, "remove A par"},
		{"disband A Par", adj, "remove A par"},
		{"D A Par", adj, "remove A par"},
		{"debuild F Bre", adj, "remove F bre"},
		{"A Par remove", adj, "remove A par"},
		{"A Par disband", adj, "remove A par"},
		{"A Par D", adj, "remove A par"},
		{"A Par build", adj, "build A par"},
		{"Waive", adj, "waive"},
		{"W", adj, "waive"},
		{"build waive", adj, "waive"},
		{"R: A Mos", adj, "line 1 col 6: unknown province \"Mos\""},
		{"R: A Stp", adj, "Russia: build A stp (bare)"},
		{"France: Build A Par, Build F Bre; waive", adj, "France: build A par\nFrance: build F bre\nFrance: waive"},
		{"Build A Par, A Mar", adj, "build A par\nbuild A mar (bare)"},
		{"Build Par", adj, "line 1 col 7: build needs a unit type (A or F)"},
		{"Par build", adj, "line 1 col 1: build needs a unit type (A or F)"},
		{"Par", adj, `line 1 col 1: expected "build", "remove" or a unit type (A or F) before "Par"`},
		{"A Par - Bur", adj, `line 1 col 7: expected end of order after "A Par", found "-" (this is an adjustment phase)`},
		{"A Par H", adj, `line 1 col 7: expected end of order after "A Par", found "H" (this is an adjustment phase)`},
		{"Waive A Par", adj, `line 1 col 7: expected end of order after "Waive", found "A" (this is an adjustment phase)`},
		{"Build A Par", mv, `line 1 col 1: "Build": builds and removals are orders of an adjustment phase, not of a movement phase`},
		{"Waive", mv, `line 1 col 1: "Waive": builds and removals are orders of an adjustment phase, not of a movement phase`},
		{"D A Par", mv, `line 1 col 1: "D": disbanding is for dislodged units, in a retreat phase`},
		{"Remove A Par", ret, `line 1 col 1: "Remove": builds and removals are orders of an adjustment phase, not of a retreat phase`},
	})
}

func TestErrors(t *testing.T) {
	m := tinyMap(t)
	runCases(t, m, judge.NoPower, []parseCase{
		{"A Par - Burg", mv, `line 1 col 9: unknown province "Burg" (did you mean Burgundy?)`},
		{"\n\n  A Par - Burg", mv, `line 3 col 11: unknown province "Burg" (did you mean Burgundy?)`},
		{"A Par - Brugundy", mv, `line 1 col 9: unknown province "Brugundy" (did you mean Burgundy?)`},
		{"A Par - Nor", mv, `line 1 col 9: unknown province "Nor" (did you mean North Atlantic Ocean, North Sea, Norway or Norwegian Sea?)`},
		{"A Par - Xyzzy", mv, `line 1 col 9: unknown province "Xyzzy"`},
		{"A Par xyz", mv, `line 1 col 7: expected "-", "S", "C" or "H" after "A Par", found "xyz"`},
		{"A Par", mv, `line 1 col 6: expected "-", "S", "C" or "H" after "A Par", found end of line`},
		{"A Par disband", mv, `line 1 col 7: expected "-", "S", "C" or "H" after "A Par", found "disband" (disbanding is for dislodged units, in a retreat phase)`},
		{"A Par -", mv, `line 1 col 8: expected a province after "A Par -", found end of line`},
		{"A Par - Bur Mar", mv, `line 1 col 13: expected end of order after "A Par - Bur", found "Mar"`},
		{"A Par - Bur !", mv, `line 1 col 13: expected end of order after "A Par - Bur", found "!"`},
		{"A", mv, `line 1 col 2: expected a province after "A", found end of line`},
		{"S A Par", mv, `line 1 col 1: expected a unit, found "S"`},
		{"- Bur", mv, `line 1 col 1: expected a unit, found "-"`},
		{"A Par S", mv, `line 1 col 8: expected a unit after "A Par S", found end of line`},
		{"F Nth C A Lon", mv, `line 1 col 14: expected "-" and the army's destination after "F Nth C A Lon", found end of line`},
		{"F Nth C F Lon - Nwy", mv, `line 1 col 9: only an army can be convoyed`},
		{"A Nth C A Lon - Nwy", mv, `line 1 col 1: only a fleet can convoy`},
		{"F Lon - Nwy via convoy", mv, `line 1 col 1: only an army can move by convoy`},
		{"F Lon - Nth - Nwy", mv, `line 1 col 1: only an army can move by convoy`},
		{"A Par/nc - Bur", mv, `line 1 col 7: Paris has no coasts`},
		{"A Par - Bur (nc)", mv, `line 1 col 14: Burgundy has no coasts`},
		{"F Mao - Spa/ec", mv, `line 1 col 13: Spain has no east coast (it has north coast and south coast)`},
		{"F Mao - Spa/xx", mv, `line 1 col 13: expected a coast (nc, sc, ec or wc) after "F Mao - Spa/", found "xx"`},
		{"F Mao - Spa(nc", mv, `line 1 col 15: expected ")" after "F Mao - Spa(nc", found end of line`},
		// A bad order does not hide the good ones.
		{"A Par - Burg, A Mar H\nF Bre - Mao\nF xyz H; F Lon H", mv,
			"line 1 col 9: unknown province \"Burg\" (did you mean Burgundy?)\nA mar H\nF bre - mao\n" +
				"line 3 col 3: unknown province \"xyz\"\nF lon H"},
		// Columns count characters, not bytes.
		{"A Par – Burg", mv, `line 1 col 9: unknown province "Burg" (did you mean Burgundy?)`},
		{"A Pär - Bur", mv, `line 1 col 3: unknown province "Pär" (did you mean Paris?)`},
		{"A Par - Bur\r\nA Mar - Burg\r\n", mv, "A par - bur\nline 2 col 9: unknown province \"Burg\" (did you mean Burgundy?)"},
	})
}

func TestParsedOrderPlace(t *testing.T) {
	m := tinyMap(t)
	src := "England:\n  F Lon - Nth ,  A Lvp H.  \n\tFrance: A Par - Bur"
	orders, errs := parser.ParseOrders(src, parser.Options{Map: m, Power: judge.NoPower})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []struct {
		line, col int
		text      string
	}{{2, 3, "F Lon - Nth"}, {2, 18, "A Lvp H"}, {3, 2, "France: A Par - Bur"}}
	if len(orders) != len(want) {
		t.Fatalf("got %d orders, want %d", len(orders), len(want))
	}
	for i, w := range want {
		o := orders[i]
		if o.Line != w.line || o.Col != w.col || o.Text != w.text {
			t.Errorf("order %d: got %d:%d %q, want %d:%d %q", i, o.Line, o.Col, o.Text, w.line, w.col, w.text)
		}
	}
}

func TestOrderFields(t *testing.T) {
	m := tinyMap(t)
	loc := func(s string) judge.Loc {
		l, ok := m.Lookup(s)
		if !ok {
			t.Fatalf("no place %q", s)
		}
		return l
	}
	no := judge.NoLoc
	cases := []struct {
		in    string
		phase judge.PhaseType
		want  judge.Order
	}{
		{"A Par H", mv, judge.Order{Kind: judge.Hold, Power: 2, Type: judge.Army, Unit: loc("par"), Target: no, Dest: no}},
		{"A Par - Bur", mv, judge.Order{Kind: judge.Move, Power: 2, Type: judge.Army, Unit: loc("par"), Target: loc("bur"), Dest: no}},
		{"A Par - Bur", ret, judge.Order{Kind: judge.Move, Power: 2, Type: judge.Army, Unit: loc("par"), Target: loc("bur"), Dest: no}},
		{"A Lon - Nth - Nwg - Nwy", mv, judge.Order{Kind: judge.Move, Power: 2, Type: judge.Army, Unit: loc("lon"), Target: loc("nwy"), Dest: no,
			Route: []judge.Loc{loc("nth"), loc("nwg")}, ViaConvoy: true}},
		{"A Lon - Nwy via convoy", mv, judge.Order{Kind: judge.Move, Power: 2, Type: judge.Army, Unit: loc("lon"), Target: loc("nwy"), Dest: no, ViaConvoy: true}},
		{"F Mao S Bre - Spa/nc", mv, judge.Order{Kind: judge.SupportMove, Power: 2, Type: judge.Fleet, Unit: loc("mao"), Target: loc("bre"), Dest: loc("spa/nc")}},
		{"Mun S A Ber", mv, judge.Order{Kind: judge.SupportHold, Power: 2, Unit: loc("mun"), TargetType: judge.Army, Target: loc("ber"), Dest: no}},
		{"F Nth C A Lon - Nwy", mv, judge.Order{Kind: judge.Convoy, Power: 2, Type: judge.Fleet, Unit: loc("nth"), TargetType: judge.Army, Target: loc("lon"), Dest: loc("nwy")}},
		{"A Par D", ret, judge.Order{Kind: judge.Disband, Power: 2, Type: judge.Army, Unit: loc("par"), Target: no, Dest: no}},
		{"England: B F stp/nc", adj, judge.Order{Kind: judge.Build, Power: 1, Type: judge.Fleet, Unit: loc("stp/nc"), Target: no, Dest: no}},
		{"A Par", adj, judge.Order{Kind: judge.Build, Power: 2, Type: judge.Army, Unit: loc("par"), Target: no, Dest: no, Bare: true}},
		{"remove par", adj, judge.Order{Kind: judge.Remove, Power: 2, Unit: loc("par"), Target: no, Dest: no}},
		{"waive", adj, judge.Order{Kind: judge.Waive, Power: 2, Unit: no, Target: no, Dest: no}},
	}
	for _, c := range cases {
		got, err := parser.ParseOrder(c.in, parser.Options{Map: m, Phase: c.phase, Power: 2})
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\ngot  %+v\nwant %+v", c.in, got, c.want)
		}
	}
}

func TestParseOrderOne(t *testing.T) {
	m := tinyMap(t)
	opt := parser.Options{Map: m, Power: judge.NoPower}
	for in, want := range map[string]string{
		"":                        "line 1 col 1: expected an order, found none",
		"England":                 "line 1 col 1: expected an order, found none",
		"A Par H, A Mar H":        `line 1 col 10: expected one order, found a second: "A Mar H"`,
		"A Par H\nA Mar H":        `line 2 col 1: expected one order, found a second: "A Mar H"`,
		"A Par - Burg":            `line 1 col 9: unknown province "Burg" (did you mean Burgundy?)`,
		"A Par - Burg, A Mar - X": `line 1 col 9: unknown province "Burg" (did you mean Burgundy?)`,
	} {
		_, err := parser.ParseOrder(in, opt)
		if err == nil || err.Error() != want {
			t.Errorf("%q: got error %v, want %s", in, err, want)
		}
		var pe *parser.Error
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("%q: error %T is not a *parser.Error", in, err)
		}
	}
	if _, err := parser.ParseOrder("A Par H", parser.Options{}); err == nil {
		t.Error("no map: want an error")
	}
}

func TestParseLoc(t *testing.T) {
	m := tinyMap(t)
	for in, want := range map[string]string{
		"lon": "lon", "London": "lon", "LONDON": "lon", "North Sea": "nth", "north  sea": "nth",
		"Mid-Atlantic Ocean": "mao", "mid": "mao", "St. Petersburg": "stp", "stp/nc": "stp/nc",
		"St Petersburg (south coast)": "stp/sc", "stp sc": "stp/sc", "Spa(nc)": "spa/nc", " spa ": "spa",
	} {
		l, err := parser.ParseLoc(m, in)
		if err != nil || m.LocName(l) != want {
			t.Errorf("ParseLoc(%q) = %s, %v; want %s", in, m.LocName(l), err, want)
		}
	}
	for in, want := range map[string]string{
		"Burg":       `unknown province "Burg" (did you mean Burgundy?)`,
		"":           "expected a province, found nothing",
		"lon nth":    `expected end of name after "lon", found "nth"`,
		"par/nc":     "Paris has no coasts",
		"spa/wc":     "Spain has no west coast (it has north coast and south coast)",
		"lon\nnth":   `expected end of name after "lon", found end of line`,
		"A":          `unknown province "A"`,
		"S":          `expected a province, found "S"`,
		"Gulf of X":  `unknown province "Gulf of X" (did you mean Gulf of Lyon?)`,
		"North Seas": `unknown province "North Seas" (did you mean North Sea?)`,
	} {
		l, err := parser.ParseLoc(m, in)
		if err == nil || err.Error() != want {
			t.Errorf("ParseLoc(%q) = %s, %v; want error %s", in, m.LocName(l), err, want)
		}
		if l != judge.NoLoc {
			t.Errorf("ParseLoc(%q) returned %s with its error", in, m.LocName(l))
		}
	}
	if _, err := parser.ParseLoc(nil, "lon"); err == nil {
		t.Error("nil map: want an error")
	}
}

func TestErrorList(t *testing.T) {
	var l parser.ErrorList
	if l.Err() != nil {
		t.Error("empty list: Err() != nil")
	}
	l = append(l, &parser.Error{Line: 1, Col: 2, Msg: "a"})
	if l.Err() == nil || l.Error() != "line 1 col 2: a" {
		t.Errorf("one error: %v", l.Err())
	}
	l = append(l, &parser.Error{Line: 3, Col: 4, Msg: "b"})
	if got := l.Error(); got != "line 1 col 2: a (and 1 more error)" {
		t.Errorf("two errors: %s", got)
	}
	l = append(l, &parser.Error{Line: 5, Col: 6, Msg: "c"})
	if got := l.Error(); got != "line 1 col 2: a (and 2 more errors)" {
		t.Errorf("three errors: %s", got)
	}
	if got := (&parser.Error{Msg: "x"}).Error(); got != "x" {
		t.Errorf("error without place: %q", got)
	}
}

// canonicalCases are the canonical forms of judge.Order.Canonical, each in
// its phase: they must read back as the same order.
var canonicalCases = []struct {
	text  string
	phase judge.PhaseType
}{
	{"A lon - nth - nwy", mv}, {"A lon - nwy via convoy", mv}, {"F nth C A lon - nwy", mv},
	{"A mun S A ber", mv}, {"A mun S A ber - sil", mv}, {"A par H", mv}, {"par - bur", mv},
	{"F nth C lon - nwy", mv}, {"F mao S F bre - spa/nc", mv}, {"mun S ber", mv},
	{"A par disband", ret}, {"A par - bur", ret}, {"F stp/sc - fin", ret},
	{"build F stp/nc", adj}, {"remove A par", adj}, {"remove par", adj}, {"waive", adj}, {"build A par", adj},
	{"build sc lon", adj},
}

func TestCanonicalRoundTrip(t *testing.T) {
	for _, m := range []*judge.Map{tinyMap(t), variants.Standard()} {
		for _, c := range canonicalCases {
			opt := parser.Options{Map: m, Phase: c.phase, Power: 1}
			o, err := parser.ParseOrder(c.text, opt)
			if err != nil {
				t.Errorf("%s: %q: %v", m.Name, c.text, err)
				continue
			}
			if got := o.Canonical(m); got != c.text {
				t.Errorf("%s: %q reads back as %q", m.Name, c.text, got)
			}
			if got := o.CanonicalWithPower(m); got != "England: "+c.text {
				t.Errorf("%s: %q with power: %q", m.Name, c.text, got)
			}
			o2, err := parser.ParseOrder(o.CanonicalWithPower(m), parser.Options{Map: m, Phase: c.phase, Power: judge.NoPower})
			if err != nil || !reflect.DeepEqual(o, o2) {
				t.Errorf("%s: %q with power reads back as %+v, %v", m.Name, c.text, o2, err)
			}
		}
	}
}

// TestConstructionOrders reads the supply-centre constructions of the "34,
// 35, 36" variant in every spelling, alone and on one line with a build.
func TestConstructionOrders(t *testing.T) {
	m := tinyMap(t)
	runCases(t, m, judge.NoPower, []parseCase{
		{"s.c. Cly", adj, "build sc cly"},
		{"S.C. Clyde", adj, "build sc cly"},
		{"sc Cly", adj, "build sc cly"},
		{"SC cly", adj, "build sc cly"},
		{"s. c. Cly", adj, "build sc cly"},
		{"build sc Clyde", adj, "build sc cly"},
		{"Build s.c. Clyde", adj, "build sc cly"},
		{"B SC Cly", adj, "build sc cly"},
		{"supply centre Clyde", adj, "build sc cly"},
		{"Build supply center Cly", adj, "build sc cly"},
		{"England: s.c. Cly", adj, "England: build sc cly"},
		{"E: sc Cly", adj, "England: build sc cly"},
		// The construction is of a province: a coast is the province.
		{"s.c. StP/nc", adj, "build sc stp"},
		// The rule book's own example: a build and a construction on one
		// line, separated by a comma; the comma may be left out.
		{"A Lvp, s.c. Cly", adj, "build A lvp (bare)\nbuild sc cly"},
		{"England: A Lvp, s.c. Cly", adj, "England: build A lvp (bare)\nEngland: build sc cly"},
		{"Build A Lvp, s.c. Cly", adj, "build A lvp\nbuild sc cly"},
		{"s.c. Cly, A Lvp", adj, "build sc cly\nbuild A lvp (bare)"},
		{"A Lvp s.c. Cly", adj, "build A lvp (bare)\nbuild sc cly"},
		{"A Lvp sc Cly", adj, "build A lvp (bare)\nbuild sc cly"},
		{"Build A Lvp; sc Cly", adj, "build A lvp\nbuild sc cly"},
		// After a place with coasts, "sc" is still its south coast.
		{"F Spa sc", adj, "build F spa/sc (bare)"},
		{"F Spa sc, sc Cly", adj, "build F spa/sc (bare)\nbuild sc cly"},
		{"s.c.", adj, `line 1 col 5: expected a province after "s.c", found end of line`},
		{"s.c. A Cly", adj, `line 1 col 6: a construction names a province, not a unit: write "s.c." and the province, as in "s.c. Yor"`},
		{"s.c. Clide", adj, `line 1 col 6: unknown province "Clide" (did you mean Clyde?)`},
		{"s.c. Cly - Lon", adj, `line 1 col 10: expected end of order after "s.c. Cly", found "-" (this is an adjustment phase)`},
		// Outside the Winter: a clear error, and the comma still separates.
		{"s.c. Cly", mv, `line 1 col 1: "s.c": supply centre construction is an order of an adjustment phase, not of a movement phase`},
		{"s. c. Cly", ret, `line 1 col 1: "s. c": supply centre construction is an order of an adjustment phase, not of a retreat phase`},
		{"A Lvp - Cly, sc Cly", mv, "A lvp - cly\n" +
			`line 1 col 14: "sc": supply centre construction is an order of an adjustment phase, not of a movement phase`},
		{"A Lvp H, build sc Cly", mv, "A lvp H\n" +
			`line 1 col 10: "build": builds and removals are orders of an adjustment phase, not of a movement phase`},
	})
	m = load343536(t)
	runCases(t, m, judge.NoPower, []parseCase{
		{"s.c. Yor", adj, "build sc yor"},
		{"sc Yor", adj, "build sc yor"},
		{"build sc Yorkshire", adj, "build sc yor"},
		{"Build s.c. Yorkshire", adj, "build sc yor"},
		{"A Lvp, s.c. Yor", adj, "build A lvp (bare)\nbuild sc yor"},
		{"Turkey: s.c. Jordan", adj, "Turkey: build sc jor"},
		{"F Smy - Jordan", mv, "F smy - jor"},
	})
}

func load343536(t *testing.T) *judge.Map {
	t.Helper()
	m, err := variants.Load("34-35-36")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestStandardMap runs the parser on the real map, with its aliases.
func TestStandardMap(t *testing.T) {
	m := variants.Standard()
	runCases(t, m, judge.NoPower, []parseCase{
		{"England: F Lon - Nth", mv, "England: F lon - nth"},
		{"E F Edi-Nrg", mv, "England: F edi - nwg"},
		{"English A Lvp -> Yor", mv, "England: A lvp - yor"},
		{"F Bre - Mid-Atlantic Ocean", mv, "F bre - mao"},
		{"F Bre - Mid-Atlantic", mv, "F bre - mao"},
		{"F Bre - mid", mv, "F bre - mao"},
		{"F Mar - Gulf of Lyons", mv, "F mar - gol"},
		{"F Mar - lyo", mv, "F mar - gol"},
		{"F nat - nrg", mv, "F nao - nwg"},
		{"F North Atlantic Ocean - Clyde", mv, "F nao - cly"},
		{"F Mao - St. Petersburg/nc", mv, "F mao - stp/nc"},
		{"F Bot - Saint Petersburg (south coast)", mv, "F bot - stp/sc"},
		{"F Con - Bul/ec", mv, "F con - bul/ec"},
		{"F Con - Bul/wc", mv, "line 1 col 13: Bulgaria has no west coast (it has east coast and south coast)"},
		{"Russia: A Mos S A Stp - Lvn", mv, "Russia: A mos S A stp - lvn"},
		{"Army Armenia - Smyrna", mv, "A arm - smy"},
		{"A F Tri - Adr", mv, "Austria: F tri - adr"},
		{"A Vie - Tri", mv, "A vie - tri"},
		{"F Fin - Swe", mv, "F fin - swe"},
		{"F Eng S English Channel", mv, "F eng S eng"},
		{"English Channel - Bre", mv, "eng - bre"},
		{"F English Channel C A Lon - Bre", mv, "F eng C A lon - bre"},
		{"A Lon - Eng - Bre", mv, "A lon - eng - bre"},
		{"A Mun S German A Ber", mv, "A mun S A ber"},
		{"Turkey: F Smy - Eastern Med", mv, "Turkey: F smy - eas"},
		{"T F Ank - Bla", mv, "Turkey: F ank - bla"},
		{"R: F Sev - Rum", mv, "Russia: F sev - rum"},
		{"A Par - Burg", mv, `line 1 col 9: unknown province "Burg" (did you mean Burgundy?)`},
		{"A Par - Nor", mv, `line 1 col 9: unknown province "Nor" (did you mean North Africa, North Atlantic Ocean, North Sea, Norway or Norwegian Sea?)`},
		{"A Par/nc - Bur", mv, `line 1 col 7: Paris has no coasts`},
		{"Engl: F Lon - Nth", mv, `line 1 col 1: unknown power "Engl" (did you mean England?)`},
		{"R A War", adj, "remove A war"},
		{"Russia: B F Stp/nc, waive", adj, "Russia: build F stp/nc\nRussia: waive"},
	})
}

func ExampleParseOrders() {
	m := variants.Standard()
	orders, errs := parser.ParseOrders("England:\nF Lon - Nth\nA Lvp - Burg\nF Edi - Nrg",
		parser.Options{Map: m, Power: judge.NoPower})
	for _, o := range orders {
		fmt.Println(o.CanonicalWithPower(m))
	}
	for _, e := range errs {
		fmt.Println(e)
	}
	// Output:
	// England: F lon - nth
	// England: F edi - nwg
	// line 3 col 9: unknown province "Burg" (did you mean Burgundy?)
}

// TestPowerNamesOfSeveralWords runs the parser on vietnam-war, whose
// powers "North Vietnam" and "South Vietnam" have names of two words, one
// of them also a province's, and whose Thailand's adjective "Thai" begins
// the province "Thai Nguyen".
func TestPowerNamesOfSeveralWords(t *testing.T) {
	m, err := variants.Load("vietnam-war")
	if err != nil {
		t.Fatal(err)
	}
	runCases(t, m, judge.NoPower, []parseCase{
		{"North Vietnam: A thn - nov", mv, "North Vietnam: A thn - nov"},
		{"north  vietnam : F han - son", mv, "North Vietnam: F han - son"},
		{"NORTH-VIETNAM: A thh H", mv, "North Vietnam: A thh H"},
		{"NorthVietnam: A thh H", mv, "North Vietnam: A thh H"},
		{"North Vietnam A thn - nov", mv, "North Vietnam: A thn - nov"},
		{"North Vietnam Thai Nguyen - North Vietnam", mv, "North Vietnam: thn - nov"},
		{"North Vietnamese: A thh - thn", mv, "North Vietnam: A thh - thn"},
		{"North Vietnamese A thh - thn", mv, "North Vietnam: A thh - thn"},
		{"South Vietnam: F eas - coa", mv, "South Vietnam: F eas - coa"},
		{"South Vietnam F cam S F eas - coa", mv, "South Vietnam: F cam S F eas - coa"},
		{"South Vietnamese A sag - tay", mv, "South Vietnam: A sag - tay"},
		{"N: A thh H", mv, "North Vietnam: A thh H"},
		{"S: A sag H", mv, "South Vietnam: A sag H"},
		{"Thai: A ban H", mv, "Thailand: A ban H"},
		// A prefix holds for the rest of its line; a name on a line of its
		// own for the lines below.
		{"North Vietnam: A thh H, South Vietnam: A sag H, F cam H", mv,
			"North Vietnam: A thh H\nSouth Vietnam: A sag H\nSouth Vietnam: F cam H"},
		{"North Vietnam\nA thh H\nSouth Vietnamese:\nA sag H", mv,
			"North Vietnam: A thh H\nSouth Vietnam: A sag H"},
		// The nationality of a supported unit.
		{"Thailand: A loe S North Vietnamese A thh - nov", mv, "Thailand: A loe S A thh - nov"},
		{"A loe S South Vietnam F eas", mv, "A loe S F eas"},
		// Without a prefix, the province North Vietnam and the others that
		// begin with a word of a power's name.
		{"North Vietnam - Thai Nguyen", mv, "nov - thn"},
		{"A North Vietnam - Thai Nguyen", mv, "A nov - thn"},
		{"Thai Nguyen - North Vietnam", mv, "thn - nov"},
		{"A thn S North Vietnam", mv, "A thn S nov"},
		{"A thn S North Vietnam - Dien Bien", mv, "A thn S nov - nol"},
		{"F stc - South Gulf of Thailand", mv, "F stc - soa"},
		{"South Thailand Coast - South China Sea", mv, "stc - scs"},
		{"North Vietnam: North Vietnam - Thai Nguyen", mv, "North Vietnam: nov - thn"},
		{"North Vietnam: A thh, s.c. North Vietnam", adj,
			"North Vietnam: build A thh (bare)\nNorth Vietnam: build sc nov"},
		{"North Vietnam: build A thh", adj, "North Vietnam: build A thh"},
		{"North Vietnam A thh", adj, "North Vietnam: build A thh (bare)"},
		// A word of a name is no name: no guessing.
		{"North: A thh H", mv, `line 1 col 1: unknown power "North" (did you mean North Vietnam?)`},
		{"North A thh H", mv, `line 1 col 1: unknown power "North" (did you mean North Vietnam?)`},
		{"Vietnam: A thh H", mv, `line 1 col 1: unknown power "Vietnam" (did you mean North Vietnam or South Vietnam?)`},
		{"Vietnam", mv, `line 1 col 1: unknown province "Vietnam" (did you mean Central Vietnam, Coast of Vietnam or North Vietnam?)`},
		{"Nort Vietnam: A thh H", mv, `line 1 col 1: unknown power "Nort Vietnam" (did you mean North Vietnam?)`},
		{"Nort Vietnam A thh H", mv, `line 1 col 1: unknown power "Nort Vietnam" (did you mean North Vietnam?)`},
		{"  South Vietnam Laos: A sag H", mv, `line 1 col 3: unknown power "South Vietnam Laos" (did you mean South Vietnam?)`},
		{"North Vietnam:", mv, ""},
		{"South:\nA sag H", mv, "line 1 col 1: unknown power \"South\" (did you mean South Vietnam?)\nA sag H"},
		// Words with a keyword before a colon are no power name.
		{"A thh H: A thn H", mv, `line 1 col 8: expected end of order after "A thh H", found ":"`},
		{"North Vietnam - Thai Nguyen Hanoi", mv, `line 1 col 29: expected end of order after "North Vietnam - Thai Nguyen", found "Hanoi"`},
	})
}

// TestPowerNameWrittenAsWords checks that a power name of one word may be
// written as several before a colon: Chaos's StPetersburg.
func TestPowerNameWrittenAsWords(t *testing.T) {
	m, err := variants.Load("chaos")
	if err != nil {
		t.Fatal(err)
	}
	runCases(t, m, judge.NoPower, []parseCase{
		{"St. Petersburg: A Stp H", mv, "StPetersburg: A stp H"},
		{"StPetersburg: F Stp/nc - Bar", mv, "StPetersburg: F stp/nc - bar"},
		{"St Petersburg:\nA Stp - Mos", mv, "StPetersburg: A stp - mos"},
		{"St. Petersburg - Moscow", mv, "stp - mos"},
		{"Berlin: A Ber - Kie", mv, "Berlin: A ber - kie"},
		{"Berlin - Kiel", mv, "ber - kie"},
	})
}

func TestMatchPower(t *testing.T) {
	m, err := variants.Load("vietnam-war")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in    string
		power string
		n     int
	}{
		{"North Vietnam", "North Vietnam", 2},
		{"NORTH VIETNAM AND LAOS", "North Vietnam", 2},
		{"north-vietnam", "North Vietnam", 1},
		{"South Vietnamese Thai", "South Vietnam", 2},
		{"Thai North Vietnam", "Thailand", 1},
		{"North", "", 0},
		{"Vietnam", "", 0},
		{"N", "", 0}, // letters are the caller's
		{"", "", 0},
	} {
		p, n := parser.MatchPower(m, strings.Fields(c.in))
		got := ""
		if p != judge.NoPower {
			got = m.PowerName(p)
		}
		if got != c.power || n != c.n {
			t.Errorf("MatchPower(%q) = %q, %d; want %q, %d", c.in, got, n, c.power, c.n)
		}
	}
}
