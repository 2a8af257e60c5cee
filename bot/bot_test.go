package bot_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gmdjudge/gmd/bot"
	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
)

// boards loads every shipped board: about one in three under the race detector
// (package racetest).
func boards(tb testing.TB) []*judge.Map {
	var out []*judge.Map
	for _, name := range racetest.Spread(variants.Names(), 3) {
		m, err := variants.Load(name)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// newPlayer makes a player of kind with a small search budget.
func newPlayer(tb testing.TB, kind string, seed uint64) bot.Player {
	p, err := bot.New(kind, bot.Config{Rules: judge.DATC30, Seed: seed, Budget: 60})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// randomPosition plays phases phases of random players from the start of
// m: a position of any form (movement, retreat, adjustment) a game can
// reach.
func randomPosition(tb testing.TB, m *judge.Map, seed uint64, phases int) *judge.Position {
	pos := judge.StartPosition(m)
	players := make([]bot.Player, len(m.Powers))
	for q := range players {
		kind := "random"
		if (seed+uint64(q))%3 == 0 {
			kind = "heuristic" // some powers grow, so that others shrink
		}
		players[q] = newPlayer(tb, kind, seed*31+uint64(q))
	}
	for range phases {
		var orders []judge.Order
		for q, p := range players {
			orders = append(orders, p.Orders(pos, judge.Power(q))...)
		}
		res := judge.Adjudicate(pos, orders, judge.DATC30)
		if len(res.Winners) > 0 {
			break
		}
		pos = res.Next
	}
	return pos
}

// checkOrders rules power's orders alone on pos and fails on a void one,
// on a unit ordered twice or not at all in a movement phase, a dislodged
// unit without an order, or an adjustment the power could not make.
func checkOrders(pos *judge.Position, power judge.Power, kind string, orders []judge.Order) error {
	m := pos.Map
	res := judge.Adjudicate(pos, orders, judge.DATC30)
	for _, r := range res.Results {
		if r.Outcome == judge.Void {
			return fmt.Errorf("%s, %s (%s): void order %q: %s", pos.Phase, m.PowerName(power), kind, r.Order.Canonical(m), r.Reason)
		}
	}
	seen := map[judge.Loc]bool{}
	for _, o := range orders {
		if o.Power != power {
			return fmt.Errorf("%s: order %q for %s, not %s", pos.Phase, o.Canonical(m), m.PowerName(o.Power), m.PowerName(power))
		}
		p := m.Province(o.Unit)
		if seen[p] {
			return fmt.Errorf("%s, %s (%s): two orders in %s", pos.Phase, m.PowerName(power), kind, m.LocName(p))
		}
		seen[p] = true
	}
	want := 0
	switch pos.Phase.Type {
	case judge.Movement:
		want = pos.UnitCount()[power]
		if kind == "hold" || kind == "random" || kind == "heuristic" || kind == "search" {
			if len(orders) != want {
				return fmt.Errorf("%s, %s (%s): %d orders for %d units", pos.Phase, m.PowerName(power), kind, len(orders), want)
			}
		}
	case judge.Retreat:
		for _, d := range pos.Dislodged {
			if d.Power == power {
				want++
			}
		}
		if len(orders) != want {
			return fmt.Errorf("%s, %s (%s): %d orders for %d dislodged units", pos.Phase, m.PowerName(power), kind, len(orders), want)
		}
	case judge.Adjustment:
		n := pos.CenterCount()[power] - pos.UnitCount()[power]
		if n < 0 && kind != "hold" && len(orders) != -n {
			return fmt.Errorf("%s, %s (%s): %d removals, want %d", pos.Phase, m.PowerName(power), kind, len(orders), -n)
		}
		if len(orders) > max(n, -n) {
			return fmt.Errorf("%s, %s (%s): %d orders for %d adjustments", pos.Phase, m.PowerName(power), kind, len(orders), n)
		}
	}
	return nil
}

// TestOrdersLegalEveryBoard asks every kind of player, for every power of
// every board, for its orders in positions of every form reached by play:
// each order must be legal, and every unit that needs one must get one.
func TestOrdersLegalEveryBoard(t *testing.T) {
	depths := []int{0, 3, 5, 9, 14}
	if testing.Short() {
		depths = []int{0, 5}
	}
	for _, m := range boards(t) {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			forms := map[judge.PhaseType]int{}
			for i, d := range depths {
				pos := randomPosition(t, m, uint64(i), d)
				forms[pos.Phase.Type]++
				for q := range m.Powers {
					for _, kind := range bot.Kinds {
						p := newPlayer(t, kind, uint64(q))
						if err := checkOrders(pos, judge.Power(q), kind, p.Orders(pos, judge.Power(q))); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			if forms[judge.Movement] == 0 {
				t.Errorf("no movement position was tried")
			}
		})
	}
}

// TestOrdersLegalEveryForm makes sure the positions tried include
// retreats and adjustments, the forms a short game meets least, on the
// standard board.
func TestOrdersLegalEveryForm(t *testing.T) {
	m := variants.Standard()
	forms := map[judge.PhaseType]int{}
	for seed := uint64(0); seed < 40 && (forms[judge.Retreat] < 3 || forms[judge.Adjustment] < 3); seed++ {
		pos := randomPosition(t, m, seed, 4+int(seed%9))
		if pos.Phase.Type == judge.Movement || forms[pos.Phase.Type] >= 3 {
			continue
		}
		forms[pos.Phase.Type]++
		for q := range m.Powers {
			for _, kind := range bot.Kinds {
				p := newPlayer(t, kind, seed)
				if err := checkOrders(pos, judge.Power(q), kind, p.Orders(pos, judge.Power(q))); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if forms[judge.Retreat] < 3 || forms[judge.Adjustment] < 3 {
		t.Fatalf("positions tried: %v, want 3 retreats and 3 adjustments", forms)
	}
}

// FuzzOrdersLegal: any board, any position reached by play, any power, any
// seed, any player: every order is legal.
func FuzzOrdersLegal(f *testing.F) {
	f.Add(uint8(0), uint64(1), uint8(0), uint8(2), uint8(5))
	f.Add(uint8(3), uint64(7), uint8(2), uint8(3), uint8(12))
	f.Add(uint8(9), uint64(99), uint8(5), uint8(1), uint8(30))
	ms := boards(f)
	f.Fuzz(func(t *testing.T, board uint8, seed uint64, power uint8, kind uint8, phases uint8) {
		m := ms[int(board)%len(ms)]
		pos := randomPosition(t, m, seed, int(phases%40))
		q := judge.Power(int(power) % len(m.Powers))
		k := bot.Kinds[int(kind)%len(bot.Kinds)]
		p := newPlayer(t, k, seed)
		if err := checkOrders(pos, q, k, p.Orders(pos, q)); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
	})
}

// TestDeterministic: the same position, power and seed give the same
// orders, for every kind of player; the search's budget is counted in
// adjudications, not time.
func TestDeterministic(t *testing.T) {
	m := variants.Standard()
	for i, d := range []int{0, 4, 9} {
		pos := randomPosition(t, m, uint64(i), d)
		for _, kind := range bot.Kinds {
			for q := range m.Powers {
				a := newPlayer(t, kind, 5).Orders(pos, judge.Power(q))
				b := newPlayer(t, kind, 5).Orders(pos, judge.Power(q))
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s, %s, %s: two runs with one seed differ:\n%v\n%v", pos.Phase, m.PowerName(judge.Power(q)), kind, a, b)
				}
			}
		}
	}
}

// TestSearchBudget: the search uses its budget of adjudications and no
// more.
func TestSearchBudget(t *testing.T) {
	m := variants.Standard()
	pos := judge.StartPosition(m)
	for _, budget := range []int{1, 50, 300} {
		p, err := bot.New("search", bot.Config{Rules: judge.DATC30, Seed: 1, Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		p.Orders(pos, 0)
		used := p.(*bot.Search).Used
		if used > max(budget, 2) || used < budget/2 {
			t.Errorf("budget %d: %d adjudications", budget, used)
		}
	}
}

// TestNewRejectsUnknown: an unknown player's name is an error that lists
// the known ones.
func TestNewRejectsUnknown(t *testing.T) {
	_, err := bot.New("dumbbot", bot.Config{})
	if err == nil || err.Error() != `no player "dumbbot" (players: hold, random, heuristic, search)` {
		t.Fatalf("got %v", err)
	}
}

// TestSelfPlayEveryBoard plays 20 games on every shipped board between
// cheap players (the heuristic, the random player and civil disorder),
// rotating the seats: PlayGame fails on any illegal order, and a panic
// fails the test. The games are short (two years, one in short mode), to
// keep the suite quick under the race detector; BenchmarkSelfPlay plays
// long ones, with the search.
func TestSelfPlayEveryBoard(t *testing.T) {
	selfPlay(t, []string{"heuristic", "hold", "random"}, 2-btoi(testing.Short()))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// selfPlay plays 20 games of years years on every board.
func selfPlay(t *testing.T, kinds []string, years int) {
	for _, m := range boards(t) {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			selfPlayBoard(t, m, kinds, years, 25)
		})
	}
}

func selfPlayBoard(tb testing.TB, m *judge.Map, kinds []string, years int, seed uint64) {
	t, err := bot.Series(m, judge.DATC30, kinds, 20, m.StartYear+years-1, seed, 8)
	if err != nil {
		tb.Fatalf("%s: %v", m.Name, err)
	}
	if t.Games != 20 {
		tb.Fatalf("%s: %d games played", m.Name, t.Games)
	}
}

// BenchmarkSelfPlay is the long self-play, opt-in: 20 games of ten years
// on every board, a small search among the players, new games (seeds)
// each round, so that -benchtime Nx is a soak of N×20 games a board:
//
//	go test -run '^$' -bench SelfPlay -benchtime 1x ./bot
func BenchmarkSelfPlay(b *testing.B) {
	round := uint64(0)
	for b.Loop() {
		round++
		for _, m := range boards(b) {
			selfPlayBoard(b, m, []string{"search", "heuristic", "hold", "random"}, 10, 1000+round)
		}
	}
	b.ReportMetric(float64(20*len(variants.Names())), "games/op")
}

// TestSeating: over n games each kind named once sits at every power
// once, and the last kind fills the rest.
func TestSeating(t *testing.T) {
	n := 7
	count := map[string][]int{}
	for i := range n {
		seats := bot.Seating([]string{"search", "random", "heuristic"}, n, i)
		for s, k := range seats {
			if count[k] == nil {
				count[k] = make([]int, n)
			}
			count[k][s]++
		}
	}
	for _, k := range []string{"search", "random"} {
		for s, c := range count[k] {
			if c != 1 {
				t.Errorf("%s sat at seat %d %d times", k, s, c)
			}
		}
	}
	for s, c := range count["heuristic"] {
		if c != n-2 {
			t.Errorf("heuristic sat at seat %d %d times, want %d", s, c, n-2)
		}
	}
}

// TestTable checks the tally and its text on a made-up game.
func TestTable(t *testing.T) {
	var tb bot.Table
	tb.Board = "Standard"
	tb.Add(bot.Game{Seats: []string{"a", "b", "b"}, Centres: []int{18, 10, 6}, Winner: 0})
	tb.Add(bot.Game{Seats: []string{"b", "a", "b"}, Centres: []int{5, 5, 3}, Winner: judge.NoPower})
	want := "2 games on Standard\n\n| player | seats | solos | leads | leads % | mean centres |\n|---|---:|---:|---:|---:|---:|\n" +
		"| a | 2 | 1 | 1 | 50.0 | 11.50 |\n| b | 4 | 0 | 0 | 0.0 | 6.00 |\n"
	if got := tb.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
