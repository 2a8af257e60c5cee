package judge_test

import (
	"testing"

	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/parser"
)

// youngstownOpening orders all 44 units of Youngstown Redux, the largest
// board, in a plausible first Spring: moves into neutral centres,
// supports, holds, and the bounces that openings make (Galicia, the Black
// Sea, the Gulf of Aden, the East China Sea).
const youngstownOpening = `
Austria: A vnn - gal
Austria: A bud - ser
Austria: F sar - alb
Austria: A tes H
Britain: F lon - not
Britain: F edi - noi
Britain: F lie - iri
Britain: F ade - goa
Britain: F sig - tha/ec
China: A pek - man
China: A gua - vit
China: A wuh - yun
China: F sha - ecs
France: A par - bug
France: A mar S A par - bug
France: F bre - mid
France: F sai - cam
Germany: A mun - swi
Germany: A col - hol
Germany: F kie - den
Germany: A ber - pru
Germany: F tsi - yel
India: A del - kas
India: A cal - bum
India: F bom - ars
India: F mad - bay
Italy: A rom - ven
Italy: A mil S A rom - ven
Italy: F nap - ion
Italy: F mog - goa
Japan: F tok - spo
Japan: F osa - ecs
Japan: F sap - soj
Japan: A kyo H
Russia: A war - gal
Russia: A mos - ukr
Russia: A oms - sib
Russia: F sev - bla
Russia: F stp/sc - gob
Russia: F vla - kor
Turkey: F ank - bla
Turkey: A con - bul
Turkey: A bag - per
Turkey: A mec - ara
`

func youngstownOrders(tb testing.TB, m *judge.Map) []judge.Order {
	parsed, errs := parser.ParseOrders(youngstownOpening, parser.Options{Map: m, Phase: judge.Movement, Power: judge.NoPower})
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	orders := make([]judge.Order, len(parsed))
	for i := range parsed {
		orders[i] = parsed[i].Order
	}
	if len(orders) != len(m.StartUnits) {
		tb.Fatalf("%d orders for %d units", len(orders), len(m.StartUnits))
	}
	return orders
}

// TestYoungstownOpening pins the outcome of the benchmark's orders, so
// that the benchmark measures a phase that is adjudicated right: every
// order is legal, the supported moves succeed and the contested places
// bounce.
func TestYoungstownOpening(t *testing.T) {
	m, err := variants.Load("youngstown-redux")
	if err != nil {
		t.Fatal(err)
	}
	res := judge.Adjudicate(judge.StartPosition(m), youngstownOrders(t, m), judge.DefaultRules)
	bounced := map[string]bool{
		"Austria: A vnn - gal": true, "Russia: A war - gal": true,
		"Russia: F sev - bla": true, "Turkey: F ank - bla": true,
		"Britain: F ade - goa": true, "Italy: F mog - goa": true,
		"China: F sha - ecs": true, "Japan: F osa - ecs": true,
	}
	if len(res.Results) != 44 {
		t.Errorf("%d rulings, want 44", len(res.Results))
	}
	for _, r := range res.Results {
		o := r.Order.CanonicalWithPower(m)
		want := judge.Succeeds
		if bounced[o] {
			want = judge.Bounced
		}
		if r.Outcome != want {
			t.Errorf("%s: %v %s, want %v", o, r.Outcome, r.Reason, want)
		}
	}
	if res.Next.Phase.String() != "F1901M" || len(res.Next.Dislodged) != 0 {
		t.Errorf("next phase %s, %d dislodged", res.Next.Phase, len(res.Next.Dislodged))
	}
}

// BenchmarkYoungstownSpring1901 resolves a full movement phase on the
// largest board, every unit ordered. Issue 13 asks for 100 µs or less.
func BenchmarkYoungstownSpring1901(b *testing.B) {
	m, err := variants.Load("youngstown-redux")
	if err != nil {
		b.Fatal(err)
	}
	pos := judge.StartPosition(m)
	orders := youngstownOrders(b, m)
	b.ReportAllocs()
	for b.Loop() {
		judge.Adjudicate(pos, orders, judge.DefaultRules)
	}
}

// BenchmarkYoungstownLongConvoy resolves the hardest convoy search of
// TestConvoyAmongFleetsInEverySea: seven fleets carry an army from London
// round Africa to Kenya, and every other sea of the board holds a fleet.
func BenchmarkYoungstownLongConvoy(b *testing.B) {
	m, err := variants.Load("youngstown-redux")
	if err != nil {
		b.Fatal(err)
	}
	pos := judge.NewPosition(m, judge.Phase{Season: judge.Spring, Year: 1901, Type: judge.Movement})
	britain, _ := m.PowerByName("Britain")
	france, _ := m.PowerByName("France")
	route := map[string]bool{"eng": true, "mid": true, "sao": true, "bxc": true, "bxg": true, "wio": true, "hor": true}
	text := "Britain: A lon - ken\n"
	for _, p := range m.Provinces() {
		n := m.LocName(p)
		switch {
		case route[n]:
			text += "Britain: F " + n + " C A lon - ken\n"
			if err := pos.Place(judge.Unit{Type: judge.Fleet, Power: britain, Loc: p}); err != nil {
				b.Fatal(err)
			}
		case m.Locs[p].Kind == judge.Sea:
			if err := pos.Place(judge.Unit{Type: judge.Fleet, Power: france, Loc: p}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := pos.Place(judge.Unit{Type: judge.Army, Power: britain, Loc: mustLoc(b, m, "lon")}); err != nil {
		b.Fatal(err)
	}
	parsed, errs := parser.ParseOrders(text, parser.Options{Map: m, Phase: judge.Movement, Power: judge.NoPower})
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	orders := make([]judge.Order, len(parsed))
	for i := range parsed {
		orders[i] = parsed[i].Order
	}
	if res := judge.Adjudicate(pos, orders, judge.DefaultRules); res.Results[0].Outcome != judge.Succeeds {
		b.Fatalf("the convoy failed: %+v", res.Results[0])
	}
	b.ReportAllocs()
	for b.Loop() {
		judge.Adjudicate(pos, orders, judge.DefaultRules)
	}
}
