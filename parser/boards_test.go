package parser_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// shippedMaps loads every map of judge/variants, so that a new map gets
// the tests below for free.
func shippedMaps(t testing.TB) map[string]*judge.Map {
	t.Helper()
	out := map[string]*judge.Map{}
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = m
	}
	if len(out) < 16 {
		t.Fatalf("only %d shipped maps", len(out))
	}
	return out
}

// spellings are the ways a player writes the same line: lower case, upper
// case, and each word capitalised.
var spellings = []struct {
	name string
	f    func(string) string
}{
	{"lower", strings.ToLower},
	{"upper", strings.ToUpper},
	{"title", func(s string) string {
		b := []byte(strings.ToLower(s))
		for i := range b {
			if i == 0 || !unicode.IsLetter(rune(b[i-1])) && !unicode.IsDigit(rune(b[i-1])) {
				b[i] = byte(unicode.ToUpper(rune(b[i])))
			}
		}
		return string(b)
	}},
}

// orderForm is one kind of order line of the property test: its text for
// a unit type t at p and the provinces q and r, the phase it is written
// in, and the order it must read as.
type orderForm struct {
	name  string
	phase judge.PhaseType
	text  func(t, p, q, r, dash string) string
	want  func(typ judge.UnitType, p, q, r judge.Loc) judge.Order
	first bool // the unit comes first, so a power's name may stand before it without a colon
}

// A move and a retreat are written alike.
func moveText(t, p, q, r, d string) string { return t + " " + p + d + q }

func moveOrder(typ judge.UnitType, p, q, r judge.Loc) judge.Order {
	return judge.Order{Kind: judge.Move, Type: typ, Unit: p, Target: q, Dest: judge.NoLoc}
}

var orderForms = []orderForm{
	{"hold", judge.Movement, func(t, p, q, r, d string) string { return t + " " + p + " H" },
		func(typ judge.UnitType, p, q, r judge.Loc) judge.Order {
			return judge.Order{Kind: judge.Hold, Type: typ, Unit: p, Target: judge.NoLoc, Dest: judge.NoLoc}
		}, true},
	{"move", judge.Movement, moveText, moveOrder, true},
	{"support hold", judge.Movement, func(t, p, q, r, d string) string { return t + " " + p + " S " + t + " " + q },
		func(typ judge.UnitType, p, q, r judge.Loc) judge.Order {
			return judge.Order{Kind: judge.SupportHold, Type: typ, Unit: p, TargetType: typ, Target: q, Dest: judge.NoLoc}
		}, true},
	{"support move", judge.Movement, func(t, p, q, r, d string) string { return t + " " + p + " S " + t + " " + q + d + r },
		func(typ judge.UnitType, p, q, r judge.Loc) judge.Order {
			return judge.Order{Kind: judge.SupportMove, Type: typ, Unit: p, TargetType: typ, Target: q, Dest: r}
		}, true},
	{"convoy", judge.Movement, func(t, p, q, r, d string) string { return t + " " + p + " C A " + q + d + r },
		func(typ judge.UnitType, p, q, r judge.Loc) judge.Order {
			return judge.Order{Kind: judge.Convoy, Type: typ, Unit: p, TargetType: judge.Army, Target: q, Dest: r}
		}, true},
	{"build", judge.Adjustment, func(t, p, q, r, d string) string { return "Build " + t + " " + p },
		func(typ judge.UnitType, p, q, r judge.Loc) judge.Order {
			return judge.Order{Kind: judge.Build, Type: typ, Unit: p, Target: judge.NoLoc, Dest: judge.NoLoc}
		}, false},
	{"remove", judge.Adjustment, func(t, p, q, r, d string) string { return "Remove " + t + " " + p },
		func(typ judge.UnitType, p, q, r judge.Loc) judge.Order {
			return judge.Order{Kind: judge.Remove, Type: typ, Unit: p, Target: judge.NoLoc, Dest: judge.NoLoc}
		}, false},
	{"disband", judge.Retreat, func(t, p, q, r, d string) string { return t + " " + p + " disband" },
		func(typ judge.UnitType, p, q, r judge.Loc) judge.Order {
			return judge.Order{Kind: judge.Disband, Type: typ, Unit: p, Target: judge.NoLoc, Dest: judge.NoLoc}
		}, true},
	{"retreat", judge.Retreat, moveText, moveOrder, true},
}

// boardFailures runs the order property on map m and returns the lines
// that did not read as meant, each with what it read as; at most limit
// of them (all counted in n).
func boardFailures(m *judge.Map, limit int) (fails []string, n, lines int) {
	provs := m.Provinces()
	types := []struct {
		t   judge.UnitType
		txt string
	}{{judge.Army, "A"}, {judge.Fleet, "F"}}
	for i, p := range provs {
		q, r := provs[(i+1)%len(provs)], provs[(i+2)%len(provs)]
		pw := judge.Power(i % len(m.Powers))
		pi := m.Powers[pw]
		for _, form := range orderForms {
			prefixes := []string{"", pi.Name + ": "}
			if form.first {
				prefixes = append(prefixes, pi.Name+" ", pi.Adjective+" ")
			}
			for _, ty := range types {
				if form.name == "convoy" && ty.t == judge.Army {
					continue // only a fleet convoys: the parser says so
				}
				want := form.want(ty.t, p, q, r)
				for _, dash := range []string{" - ", "-"} {
					if dash == "-" && !strings.Contains(form.text("", "", "", "", "\x00"), "\x00") {
						continue // no dash in this form
					}
					base := form.text(ty.txt, m.LocName(p), m.LocName(q), m.LocName(r), dash)
					for _, pre := range prefixes {
						for _, sp := range spellings {
							line := sp.f(pre + base)
							lines++
							w := want
							w.Power = judge.NoPower
							if pre != "" {
								w.Power = pw
							}
							orders, errs := parser.ParseOrders(line, parser.Options{Map: m, Phase: form.phase, Power: judge.NoPower})
							got := ""
							switch {
							case len(errs) > 0:
								got = errs[0].Error()
							case len(orders) != 1:
								got = fmt.Sprintf("%d orders", len(orders))
							case !sameOrder(orders[0].Order, w):
								got = orders[0].Canonical(m)
							default:
								continue
							}
							n++
							if len(fails) < limit {
								fails = append(fails, fmt.Sprintf("%s %q: read as %s", form.name, line, got))
							}
						}
					}
				}
			}
		}
	}
	return fails, n, lines
}

// sameOrder compares what the property checks: the kind, the power, the
// unit (its province: "F stp H" names the province) and the places named.
func sameOrder(got, want judge.Order) bool {
	return got.Kind == want.Kind && got.Power == want.Power && got.Type == want.Type &&
		got.Unit == want.Unit && got.TargetType == want.TargetType &&
		got.Target == want.Target && got.Dest == want.Dest && len(got.Route) == 0 && !got.ViaConvoy
}

// TestEveryBoardReadsOrdersAsWritten is the property of issue 19: on every
// shipped map, for every province p and both unit types, in every
// spelling, with and without spaces around "-", with a power's name before
// it or none, each order form names the unit at p and the places written,
// and nothing else ("A Den - Swe" is never Aden's move, "A Lao S A Sia" is
// never refused as "Laos S ...").
func TestEveryBoardReadsOrdersAsWritten(t *testing.T) {
	maps := shippedMaps(t)
	// Every third board under the race detector (package racetest).
	for _, name := range racetest.Spread(variants.Names(), 3) {
		m := maps[name]
		fails, n, lines := boardFailures(m, 10)
		if n > 0 {
			t.Errorf("%s: %d of %d lines misread:\n%s", name, n, lines, strings.Join(fails, "\n"))
		}
	}
}

// TestOrderWordsStayOrderWords runs the lines of issue 19, on the boards
// where they were misread: each order word keeps its role where that
// reading is an order.
func TestOrderWordsStayOrderWords(t *testing.T) {
	maps := shippedMaps(t)
	cases := []struct {
		board string
		phase judge.PhaseType
		in    string
		want  string
	}{
		{"youngstown-redux", mv, "Germany: A Den - Swe", "Germany: A den - swe"},
		{"youngstown-redux", mv, "Germany: A Den-Swe", "Germany: A den - swe"},
		{"youngstown-redux", mv, "A den H", "A den H"},
		{"youngstown-redux", adj, "Remove A den", "remove A den"},
		{"youngstown-redux", mv, "A Lao S A Tha", "A lao S A tha"},
		{"canton", mv, "A Lao S A Sia", "A lao S A sia"},
		{"vietnam-war", mv, "F vin H", "F vin H"},
		{"youngstown-redux", mv, "F mec C A ade - yem", "F mec C A ade - yem"},
		{"youngstown-redux", mv, "F kyo to Osa", "F kyo - osa"},
		{"canton", mv, "F sia m Lao", "F sia - lao"},
		{"cold-war", ret, "F eme D", "F eme disband"},
		{"north-sea-wars", ret, "F woo D", "F woo disband"},
		// Where the order word's reading is no order, the name is read.
		{"youngstown-redux", mv, "Aden - Yem", "ade - yem"},
		{"youngstown-redux", mv, "A Aden - Yem", "A ade - yem"},
		{"canton", mv, "Laos S A Sia", "lao S A sia"},
		{"cold-war", mv, "F E. Med H", "F eme H"},
	}
	for _, c := range cases {
		m := maps[c.board]
		orders, errs := parser.ParseOrders(c.in, parser.Options{Map: m, Phase: c.phase, Power: judge.NoPower})
		if got := render(m, orders, errs); got != c.want {
			t.Errorf("%s %v %q:\ngot  %s\nwant %s", c.board, c.phase, c.in, got, c.want)
		}
	}
}

// TestHyphenatedAbbreviations reads the abbreviations players write with
// hyphens: as the one place they abbreviate, or as an error that names
// every place they could abbreviate.
func TestHyphenatedAbbreviations(t *testing.T) {
	m := variants.Standard()
	runCases(t, m, judge.NoPower, []parseCase{
		{"F Mid-Atl - Portugal", mv, "F mao - por"},
		{"F Mid-Atlantic - Por", mv, "F mao - por"},
		{"F N-Atl - Nrg", mv, "F nao - nwg"},
		{"F Bot - St-Pete/sc", mv, "F bot - stp/sc"},
		{"F St-Pete (sc) - Bot", mv, "F stp/sc - bot"},
		{"F Gulf-of-Lyon - Tys", mv, "F gol - tys"},
		{"F Gulf-of-Ly - Tys", mv, "F gol - tys"},
		// Still a move where both ends are places.
		{"A Par-Bur", mv, "A par - bur"},
		{"F Nth-Nwy", mv, "F nth - nwy"},
		// "N-S" could be North Sea or North Africa (and more).
		{"F N-S - Nwy", mv, `line 1 col 3: ambiguous province "N-S" (did you mean North Sea or Norwegian Sea?)`},
		{"F Nor-Atl - Nwy", mv, "F nao - nwy"},
		{"F Mid-Xyz - Nwy", mv, `line 1 col 7: unknown province "Xyz"`},
	})
}

// TestAmbiguousOrder is a line that two readings, neither with each word
// in its role, read as different orders: the parser says so and asks.
func TestAmbiguousOrder(t *testing.T) {
	b := judge.NewMapBuilder("amb", "Amb")
	b.AddPower("England", "English", 'E')
	n := judge.NoPower
	b.AddProvince("ads", "Adenswe", judge.Land, false, n)
	b.AddProvince("dsw", "Denswe", judge.Land, false, n)
	b.AddProvince("swe", "Swe", judge.Land, false, n)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	runCases(t, m, judge.NoPower, []parseCase{
		{"A den-swe H", mv, `line 1 col 1: "A den-swe H" can be read as "A dsw H" or as "ads H": write it again as one of them`},
		{"A dsw H", mv, "A dsw H"},
		{"Adenswe H", mv, "ads H"},
	})
}

// TestBoardPropertyCatchesNamesFirst is the mutation test of the property:
// with the parser reading the longest name first, as it did before issue
// 19 ("A Den" as Aden), the property must fail, and on the boards where
// the misreadings were found.
func TestBoardPropertyCatchesNamesFirst(t *testing.T) {
	defer parser.SetNamesFirst(true)()
	maps := shippedMaps(t)
	for _, name := range []string{"youngstown-redux", "canton", "vietnam-war"} {
		fails, n, _ := boardFailures(maps[name], 3)
		if n == 0 {
			t.Errorf("%s: the names-first parser passes the property", name)
		}
		t.Logf("%s: %d misread, as %s", name, n, strings.Join(fails, "; "))
	}
}

// TestEveryNameReadsBack checks, on every shipped map, that every
// province's id, full name and alias reads as that province, alone
// (ParseLoc) and in an order, whatever its spelling; and that no name of
// one province spells another's once folded as the parser folds words
// (the map loader refuses such a map: judge's TestNameCollisions).
func TestEveryNameReadsBack(t *testing.T) {
	for board, m := range shippedMaps(t) {
		for _, p := range m.Provinces() {
			li := &m.Locs[p]
			other := m.Provinces()[0]
			if other == p {
				other = m.Provinces()[1]
			}
			for _, name := range append([]string{li.Name, li.FullName}, li.Aliases...) {
				if l, err := parser.ParseLoc(m, name); err != nil || m.Province(l) != p {
					t.Errorf("%s: ParseLoc(%q) = %v, %v; want %s", board, name, l, err, li.Name)
				}
				for _, sp := range spellings {
					for k, line := range []string{"A " + name + " H", name + " - " + m.LocName(other),
						"F " + m.LocName(other) + " S A " + name + " - " + m.LocName(other)} {
						line = sp.f(line)
						o, err := parser.ParseOrder(line, parser.Options{Map: m, Power: judge.NoPower})
						at := o.Unit
						if k == 2 {
							at = o.Target // the supported unit
						}
						switch {
						case err != nil:
							t.Errorf("%s: %q: %v", board, line, err)
						case m.Province(at) != p:
							t.Errorf("%s: %q reads as %s, not of %s", board, line, o.Canonical(m), li.Name)
						}
					}
				}
			}
		}
	}
}
