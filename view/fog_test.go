package view

import (
	"slices"
	"testing"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// TestSightStandard pins the definition on the standard board's first
// phase: France sees its three home provinces and every province one
// move away from them, by army or by fleet, and nothing further.
func TestSightStandard(t *testing.T) {
	m := variants.Standard()
	pos := judge.StartPosition(m)
	france, _ := m.PowerByName("France")
	seen := Sight(pos, france)
	var got []string
	for _, p := range m.Provinces() {
		if seen[p] {
			got = append(got, m.LocName(p))
		}
	}
	want := []string{"bre", "bur", "eng", "gas", "gol", "mao", "mar", "par", "pic", "pie", "spa"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("France sees %v, want %v", got, want)
	}
}

// TestFogEveryBoard plays random games on every board, three years
// each, and checks at every phase, for every power, what view.Fog keeps:
// its own units, dislodged units and centres all; another power's unit
// only in a province in sight; an order only its own or one whose every
// province is in sight; retreats, destroyed units and constructions
// only in sight; the board after the phase as Sight of it shows. Across
// the boards the games must have had retreats, builds and units hidden,
// so that the test is not passed by games where nothing happens.
func TestFogEveryBoard(t *testing.T) {
	var retreats, builds, hidden int
	for _, name := range variants.Names() {
		m, err := variants.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		rules := judge.Rules{}
		players := make([]bot.Player, len(m.Powers))
		for k := range m.Powers {
			kind := "random"
			if k%2 == 0 {
				kind = "heuristic" // it attacks, and so dislodges
			}
			players[k], _ = bot.New(kind, bot.Config{Rules: rules, Seed: uint64(k) + 27})
		}
		pos := judge.StartPosition(m)
		for range 12 {
			var orders []judge.Order
			for k, pl := range players {
				orders = append(orders, pl.Orders(pos, judge.Power(k))...)
			}
			res := judge.Adjudicate(pos, orders, rules)
			switch pos.Phase.Type {
			case judge.Retreat:
				retreats++
			case judge.Adjustment:
				builds += len(res.Results)
			}
			for k := range m.Powers {
				hidden += checkFog(t, name, pos, res, judge.Power(k))
			}
			if res.Next == nil || len(res.Winners) > 0 {
				break
			}
			pos = res.Next
		}
	}
	t.Logf("%d boards: %d retreat phases, %d adjustment orders, %d units hidden", len(variants.Names()), retreats, builds, hidden)
	if retreats == 0 || builds == 0 || hidden == 0 {
		t.Errorf("the games had %d retreat phases, %d adjustment orders and %d units hidden: the test proves nothing", retreats, builds, hidden)
	}
}

// checkFog checks Fog(pos, res, p) and returns how many units it hid.
func checkFog(t *testing.T, board string, pos *judge.Position, res *judge.Resolution, p judge.Power) int {
	t.Helper()
	m := pos.Map
	seen := Sight(pos, p)
	in := func(l judge.Loc) bool { q := m.Province(l); return int(q) < len(seen) && seen[q] }
	fpos, fres := Fog(pos, res, p)
	who := board + " " + pos.Phase.String() + " " + m.PowerName(p)
	hidden := checkPosition(t, who, pos, fpos, seen, p)
	for _, r := range fres.Results {
		if orderPower(pos, &r.Order) != p && !orderSeen(&r.Order, in) {
			t.Errorf("%s: the order %s is shown, naming a province out of sight", who, r.Order.Canonical(m))
		}
		if !allSeen(r.Route, in) {
			t.Errorf("%s: a convoy route through the dark is shown: %v", who, r.Route)
		}
	}
	for _, r := range res.Results {
		if orderPower(pos, &r.Order) == p && !slices.ContainsFunc(fres.Results, func(x judge.OrderResult) bool {
			return x.Order.Kind == r.Order.Kind && x.Order.Unit == r.Order.Unit && x.Outcome == r.Outcome
		}) {
			t.Errorf("%s: its own order %s is missing", who, r.Order.Canonical(m))
		}
	}
	for _, ro := range fres.Retreats {
		if !in(ro.Unit.Loc) || ro.Unit.Power != p && !allSeen(ro.To, in) ||
			ro.Unit.AttackerFrom != judge.NoLoc && !in(ro.Unit.AttackerFrom) {
			t.Errorf("%s: a retreat out of sight is shown: %s", who, m.LocName(ro.Unit.Loc))
		}
	}
	for _, u := range fres.Destroyed {
		if !in(u.Loc) {
			t.Errorf("%s: a unit destroyed out of sight is shown: %s", who, m.LocName(u.Loc))
		}
	}
	for _, pc := range fres.Constructions {
		if !in(pc.Loc) {
			t.Errorf("%s: a construction out of sight is shown: %s", who, m.LocName(pc.Loc))
		}
	}
	if res.Next != nil {
		hidden += checkPosition(t, who+" (after)", res.Next, fres.Next, Sight(res.Next, p), p)
	}
	return hidden
}

// checkPosition checks that fpos is pos as seen through seen by p, and
// returns how many units it hid.
func checkPosition(t *testing.T, who string, pos, fpos *judge.Position, seen []bool, p judge.Power) int {
	t.Helper()
	m := pos.Map
	hidden := 0
	for _, prov := range m.Provinces() {
		u, fu := pos.Units[prov], fpos.Units[prov]
		switch {
		case u.Power == p && u.Type != judge.NoUnit && !seen[prov]:
			t.Errorf("%s: its own unit in %s is out of its sight", who, m.LocName(prov))
		case seen[prov] && fu != u:
			t.Errorf("%s: %s is in sight but shows %v, not %v", who, m.LocName(prov), fu, u)
		case !seen[prov] && fu.Type != judge.NoUnit:
			t.Errorf("%s: a unit out of sight is shown in %s", who, m.LocName(prov))
		case !seen[prov] && u.Type != judge.NoUnit:
			hidden++
		}
		if owner := pos.Centers[prov]; owner == p && fpos.Centers[prov] != p {
			t.Errorf("%s: its own centre %s is not shown", who, m.LocName(prov))
		} else if !seen[prov] && fpos.Centers[prov] != judge.NoPower {
			t.Errorf("%s: the owner of %s, out of sight, is shown", who, m.LocName(prov))
		}
	}
	for _, d := range fpos.Dislodged {
		if !seen[m.Province(d.Loc)] || d.AttackerFrom != judge.NoLoc && !seen[m.Province(d.AttackerFrom)] {
			t.Errorf("%s: a dislodged unit or its attacker out of sight is shown: %s", who, m.LocName(d.Loc))
		}
	}
	for _, d := range pos.Dislodged {
		if d.Power == p && !slices.ContainsFunc(fpos.Dislodged, func(x judge.DislodgedUnit) bool { return x.Loc == d.Loc }) {
			t.Errorf("%s: its own dislodged unit in %s is not shown", who, m.LocName(d.Loc))
		}
	}
	return hidden
}

// BenchmarkFog is the cost of one power's view of a phase (view.Fog),
// which a fogged game pays once per power for its results and once per
// picture drawn: a Spring of random orders on the standard board and on
// Chaos, the board with the most powers and provinces.
func BenchmarkFog(b *testing.B) {
	for _, name := range []string{"standard", "chaos"} {
		b.Run(name, func(b *testing.B) {
			m, err := variants.Load(name)
			if err != nil {
				b.Fatal(err)
			}
			pos := judge.StartPosition(m)
			for pos.Phase.Type != judge.Movement {
				// Chaos starts with builds: every power builds.
				var orders []judge.Order
				for k := range m.Powers {
					pl, _ := bot.New("random", bot.Config{Seed: uint64(k)})
					orders = append(orders, pl.Orders(pos, judge.Power(k))...)
				}
				pos = judge.Adjudicate(pos, orders, judge.Rules{}).Next
			}
			var orders []judge.Order
			for k := range m.Powers {
				pl, _ := bot.New("random", bot.Config{Seed: uint64(k)})
				orders = append(orders, pl.Orders(pos, judge.Power(k))...)
			}
			res := judge.Adjudicate(pos, orders, judge.Rules{})
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				Fog(pos, res, judge.Power(i%len(m.Powers)))
			}
		})
	}
}

// TestFogNoPowerNoOrders: a viewer of no power is shown no ruling, the
// holds the judge gives the neutral armies of Western World 901 (which
// are no power's either) included.
func TestFogNoPowerNoOrders(t *testing.T) {
	m, err := variants.Load("western-world-901")
	if err != nil {
		t.Fatal(err)
	}
	pos := judge.StartPosition(m)
	res := judge.Adjudicate(pos, nil, judge.Rules{})
	if _, fres := Fog(pos, res, judge.NoPower); len(fres.Results) != 0 {
		t.Errorf("no power is shown %d rulings, the first %s", len(fres.Results), fres.Results[0].Order.Canonical(m))
	}
}
