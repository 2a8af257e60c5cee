package session

// The scripted game by mail that every variant plays: whatever its map,
// a game is created, every power joins, and a year is played with orders
// computed from the map so that one power takes a centre and builds in
// the Winter (where no power owns a home centre to build in, Shift
// Around, so that a power loses a centre and removes a unit). A variant
// that starts with a Winter plays it first.

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gmdjudge/gmd/internal/racetest"
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/judge/variants"
	"github.com/gmdjudge/gmd/state"
)

// variantSeat is the player of one power in startAnyVariant's games.
type variantSeat struct{ Addr, Pass string }

// startAnyVariant creates a game of the variant, with the master's setup
// lines after the CREATE, and has one player per power join it without
// preferences, confirming each address. It returns the seats by power
// name, as the judge gave out the powers.
func (h *harness) startAnyVariant(game, variant, setup string) map[string]variantSeat {
	h.t.Helper()
	mp, err := variants.Load(variant)
	if err != nil {
		h.t.Fatal(err)
	}
	// The reply, beside the notice of the settings the setup changed.
	r := replyTo(h.t, h.confirm(testMaster, "new game", "CREATE ?"+game+" "+testMasterPass+" "+variant+"\n"+setup), testMaster)
	if !strings.Contains(r.Body, "created") || strings.Contains(r.Body, "Error") {
		h.t.Fatalf("CREATE reply:\n%s", r.Body)
	}
	for i := range mp.Powers {
		h.join(fmt.Sprintf("p%d@example.org", i), game, fmt.Sprintf("pw-%d", i), "", "")
	}
	g := h.game(game)
	if g.Status != state.Active {
		h.t.Fatalf("game %s is %s after %d sign-ons", game, g.Status, len(mp.Powers))
	}
	seats := map[string]variantSeat{}
	for _, p := range g.Players {
		var i int
		if _, err := fmt.Sscanf(p.Addr, "p%d@example.org", &i); err != nil {
			h.t.Fatalf("player %s", p.Addr)
		}
		seats[p.Power] = variantSeat{p.Addr, fmt.Sprintf("pw-%d", i)}
	}
	if len(seats) != len(mp.Powers) {
		h.t.Fatalf("%d powers given out, want %d", len(seats), len(mp.Powers))
	}
	return seats
}

// sendAll has every power that has orders in it send them, signing on
// with its letter: orders[power] if given, else a hold for each unit in
// a movement phase. Every reply must be free of errors.
func (h *harness) sendAll(game string, mp *judge.Map, pos *judge.Position, seats map[string]variantSeat, orders map[judge.Power]string) {
	h.t.Helper()
	for p := range mp.Powers {
		pw := judge.Power(p)
		body, ok := orders[pw]
		if !ok && pos.Phase.Type == judge.Movement {
			var lines []string
			for _, u := range pos.Units {
				if u.Type != judge.NoUnit && u.Power == pw {
					lines = append(lines, u.Type.String()+" "+mp.LocName(u.Loc)+" H")
				}
			}
			body = strings.Join(lines, "\n")
		}
		if body == "" {
			continue
		}
		s := seats[mp.Powers[p].Name]
		got := h.mail(s.Addr, "orders", fmt.Sprintf("SIGNON %c%s %s\n%s", mp.Powers[p].Letter, game, s.Pass, body))
		if r := replyTo(h.t, got, s.Addr).Body; strings.Contains(r, "Error") {
			h.t.Fatalf("%s's orders:\n%s\nreply:\n%s", mp.Powers[p].Name, body, r)
		}
	}
}

// playPhase sends the orders, ticks, and returns the results mail of the
// phase as the master got it and the position that follows.
func (h *harness) playPhase(game string, mp *judge.Map, seats map[string]variantSeat, orders map[judge.Power]string) (string, *judge.Position) {
	h.t.Helper()
	pos, _, err := h.m.Position(h.game(game))
	if err != nil {
		h.t.Fatal(err)
	}
	h.sendAll(game, mp, pos, seats, orders)
	body := h.results(game, pos.Phase.String())
	next, _, err := h.m.Position(h.game(game))
	if err != nil {
		h.t.Fatal(err)
	}
	return body, next
}

// winterOrders are the adjustments of pos: each power builds where it may,
// an army where one can stand, else a fleet (on the first coast), and
// removes the units it must, the first in map order.
func winterOrders(pos *judge.Position, rule judge.BuildRule) map[judge.Power]string {
	mp := pos.Map
	centres, units := pos.CenterCount(), pos.UnitCount()
	out := map[judge.Power]string{}
	for p := range mp.Powers {
		pw := judge.Power(p)
		var lines []string
		due := centres[p] - units[p]
		for _, l := range pos.BuildSites(pw, rule) {
			if len(lines) == due {
				break
			}
			switch {
			case mp.CanHold(judge.Army, l):
				lines = append(lines, "Build A "+mp.LocName(l))
			case mp.CanHold(judge.Fleet, l):
				lines = append(lines, "Build F "+mp.LocName(l))
			case len(mp.Locs[l].Coasts) > 0:
				lines = append(lines, "Build F "+mp.LocName(mp.Locs[l].Coasts[0]))
			}
		}
		for _, u := range pos.Units {
			if due >= 0 {
				break
			}
			if u.Type != judge.NoUnit && u.Power == pw {
				lines = append(lines, "Remove "+u.Type.String()+" "+mp.LocName(u.Loc))
				due++
			}
		}
		if len(lines) > 0 {
			out[pw] = strings.Join(lines, "\n")
		}
	}
	return out
}

// capturePlan is a year's orders that give one power a centre and a
// build (or, on a board where no power can build in its first year, that
// make the centre's owner remove a unit): in Spring, the mover's move (into an empty centre, or out of the
// centre to be taken); in Fall, the taker's move into it, if the Spring
// did not already take it.
type capturePlan struct {
	taker                    judge.Power
	removes                  bool        // the Winter is the loser's removal, not the taker's build
	loser                    judge.Power // the centre's owner at the start, who removes a unit (if removes)
	centre                   judge.Loc
	springOrders, fallOrders []judge.Order
	springText, fallText     string // the moves, for the log
}

// noHomeOwned reports whether no power owns any of its home centres at
// pos: then nobody may build (Shift Around's first year).
func noHomeOwned(pos *judge.Position) bool {
	for _, c := range pos.CenterList() {
		if h := pos.Map.Locs[c].Home; h != judge.NoPower && pos.Centers[c] == h {
			return false
		}
	}
	return true
}

// moveText writes a move as an order line.
func moveText(mp *judge.Map, u judge.Unit, to judge.Loc) string {
	return u.Type.String() + " " + mp.LocName(u.Loc) + " - " + mp.LocName(to)
}

// targets lists where unit u may move into province p: the province
// itself, or the coasts of it a fleet reaches.
func targets(mp *judge.Map, u judge.Unit, p judge.Loc) []judge.Loc {
	if u.Type == judge.Army {
		if mp.ArmyAdjacent(u.Loc, p) && mp.CanHold(judge.Army, p) {
			return []judge.Loc{p}
		}
		return nil
	}
	return mp.FleetTargets(nil, u.Loc, p)
}

// planCapture finds, from the Spring position pos, a capture that the
// judge itself rules to end in a Winter where the taker has a build: it
// tries every unit and every centre its power does not own, by one move
// into an empty centre, or by a move of the centre's occupant to an empty
// province in Spring and the taker's move in Fall, and failing those by
// two moves, one each season, into an empty centre; everyone else holds.
//
// With removal set, it looks instead for a capture that leaves the
// centre's owner with more units than centres, for a board where no
// power can build in its first year (Shift Around, where every power
// starts away from its home centres, the only ones it builds in).
func planCapture(t *testing.T, pos *judge.Position, rules judge.Rules, removal bool) *capturePlan {
	t.Helper()
	mp := pos.Map
	rule := rules.BuildsOn(mp)
	try := func(spring, fall []judge.Order, taker judge.Power, centre judge.Loc) bool {
		s := judge.Adjudicate(pos, spring, rules)
		if s.Next.Phase.Type != judge.Movement || s.Next.Phase.Season != judge.Fall {
			return false
		}
		f := judge.Adjudicate(s.Next, fall, rules)
		w := f.Next
		if w.Phase.Type != judge.Adjustment || w.Centers[centre] != taker || len(f.Winners) > 0 {
			return false
		}
		if removal {
			loser := pos.Centers[centre]
			return loser != judge.NoPower && w.UnitCount()[loser] > w.CenterCount()[loser]
		}
		due := w.CenterCount()[taker] - w.UnitCount()[taker]
		return due > 0 && len(w.BuildSites(taker, rule)) > 0
	}
	for _, y := range pos.Units {
		if y.Type == judge.NoUnit {
			continue
		}
		for _, c := range pos.CenterList() {
			if pos.Centers[c] == y.Power {
				continue
			}
			for _, to := range targets(mp, y, c) {
				move := judge.Order{Kind: judge.Move, Power: y.Power, Type: y.Type, Unit: y.Loc, Target: to}
				if _, occupied := pos.UnitAt(c); !occupied {
					if try([]judge.Order{move}, nil, y.Power, c) {
						return &capturePlan{taker: y.Power, centre: c,
							springOrders: []judge.Order{move}, springText: moveText(mp, y, to)}
					}
					continue
				}
				x, _ := pos.UnitAt(c)
				if x.Power == y.Power {
					continue
				}
				// A supported attack in the Fall, where every centre is
				// someone's home (Pure).
				for _, z := range pos.Units {
					if z.Type == judge.NoUnit || z.Loc == y.Loc || z.Loc == x.Loc || z.Power == x.Power {
						continue
					}
					sup := judge.Order{Kind: judge.SupportMove, Power: z.Power, Type: z.Type, Unit: z.Loc,
						Target: y.Loc, TargetType: y.Type, Dest: mp.Province(to)}
					if try(nil, []judge.Order{move, sup}, y.Power, c) {
						return &capturePlan{taker: y.Power, centre: c, fallOrders: []judge.Order{move, sup},
							fallText: moveText(mp, y, to) + ", supported from " + mp.LocName(z.Loc)}
					}
				}
				for _, d := range mp.Provinces() {
					if _, full := pos.UnitAt(d); full || d == c {
						continue
					}
					for _, dt := range targets(mp, x, d) {
						out := judge.Order{Kind: judge.Move, Power: x.Power, Type: x.Type, Unit: x.Loc, Target: dt}
						if try([]judge.Order{out}, []judge.Order{move}, y.Power, c) {
							return &capturePlan{taker: y.Power, centre: c,
								springOrders: []judge.Order{out}, fallOrders: []judge.Order{move},
								springText: moveText(mp, x, dt), fallText: moveText(mp, y, to)}
						}
					}
				}
			}
		}
	}
	// A board whose centres all lie two moves from every start (Sail Ho):
	// a Spring move to an empty province next to an empty centre, and the
	// move in during the Fall.
	for _, y := range pos.Units {
		if y.Type == judge.NoUnit {
			continue
		}
		for _, c := range pos.CenterList() {
			if _, occupied := pos.UnitAt(c); occupied || pos.Centers[c] == y.Power {
				continue
			}
			for _, s := range mp.Provinces() {
				if _, full := pos.UnitAt(s); full || s == c {
					continue
				}
				for _, st := range targets(mp, y, s) {
					there := judge.Unit{Type: y.Type, Power: y.Power, Loc: st}
					for _, to := range targets(mp, there, c) {
						step := judge.Order{Kind: judge.Move, Power: y.Power, Type: y.Type, Unit: y.Loc, Target: st}
						move := judge.Order{Kind: judge.Move, Power: y.Power, Type: y.Type, Unit: st, Target: to}
						if try([]judge.Order{step}, []judge.Order{move}, y.Power, c) {
							return &capturePlan{taker: y.Power, centre: c,
								springOrders: []judge.Order{step}, fallOrders: []judge.Order{move},
								springText: moveText(mp, y, st), fallText: moveText(mp, there, to)}
						}
					}
				}
			}
		}
	}
	return nil
}

// ordersFor writes the plan's orders of one phase as each power's mail:
// the planned moves, and holds for the power's other units.
func ordersFor(pos *judge.Position, planned []judge.Order) map[judge.Power]string {
	mp := pos.Map
	out := map[judge.Power]string{}
	moved := map[judge.Loc]judge.Loc{}
	supports := map[judge.Loc]judge.Order{}
	for _, o := range planned {
		if o.Kind == judge.SupportMove {
			supports[mp.Province(o.Unit)] = o
			continue
		}
		moved[mp.Province(o.Unit)] = o.Target
	}
	for _, u := range pos.Units {
		if u.Type == judge.NoUnit {
			continue
		}
		line := u.Type.String() + " " + mp.LocName(u.Loc) + " H"
		if to, ok := moved[mp.Province(u.Loc)]; ok {
			line = moveText(mp, u, to)
		}
		if o, ok := supports[mp.Province(u.Loc)]; ok {
			line = u.Type.String() + " " + mp.LocName(u.Loc) + " S " + o.TargetType.String() + " " +
				mp.LocName(o.Target) + " - " + mp.LocName(o.Dest)
		}
		if out[u.Power] != "" {
			out[u.Power] += "\n"
		}
		out[u.Power] += line
	}
	return out
}

// TestEveryVariantByMail plays a year of every variant by mail, variants
// added later included.
func TestEveryVariantByMail(t *testing.T) {
	for _, variant := range racetest.Spread(variants.Names(), 6) { // about one in six under -race (package racetest)
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			playVariantYear(t, variant)
		})
	}
}

// playVariantYear is TestEveryVariantByMail for one variant.
func playVariantYear(t *testing.T, variant string) {
	h := newHarness(t)
	mp, err := variants.Load(variant)
	if err != nil {
		t.Fatal(err)
	}
	const game = "vg"
	seats := h.startAnyVariant(game, variant, "")
	pos, rules, err := h.m.Position(h.game(game))
	if err != nil {
		t.Fatal(err)
	}
	if pos.Phase != mp.StartPhase() {
		t.Fatalf("the game starts at %v, want %v", pos.Phase, mp.StartPhase())
	}
	if pos.Phase.Type == judge.Adjustment {
		// A game that starts with builds (Chaos) plays them first.
		body, next := h.playPhase(game, mp, seats, winterOrders(pos, rules.BuildsOn(mp)))
		mustContain(t, body, "Adjustment results for Winter of "+fmt.Sprint(mp.StartYear))
		if next.Phase != (judge.Phase{Season: judge.Spring, Year: mp.StartYear + 1, Type: judge.Movement}) {
			t.Fatalf("after the first Winter: %v", next.Phase)
		}
		for p, n := range next.UnitCount() {
			if n == 0 || n != next.CenterCount()[p] {
				t.Errorf("%s has %d units for %d centres after the first Winter", mp.Powers[p].Name, n, next.CenterCount()[p])
			}
		}
		pos = next
	}
	plan := planCapture(t, pos, rules, false)
	if plan == nil && noHomeOwned(pos) {
		// No power owns a home centre to build in (Shift Around): the
		// year's Winter is a removal instead.
		if plan = planCapture(t, pos, rules, true); plan != nil {
			plan.removes, plan.loser = true, pos.Centers[plan.centre]
		}
	}
	if plan == nil {
		t.Fatalf("no power of %s can take a centre and build (or make its owner remove) in its first year", variant)
	}
	taker, centre := mp.Powers[plan.taker].Name, mp.FullName(plan.centre)
	t.Logf("%s takes %s: Spring %s; Fall %q (empty: all hold)", taker, centre, plan.springText, plan.fallText)

	body, fall := h.playPhase(game, mp, seats, ordersFor(pos, plan.springOrders))
	mustContain(t, body, fmt.Sprintf("Movement results for Spring of %d", pos.Phase.Year))
	if fall.Phase.Season != judge.Fall {
		t.Fatalf("after Spring: %v", fall.Phase)
	}
	body, winter := h.playPhase(game, mp, seats, ordersFor(fall, plan.fallOrders))
	mustContain(t, body, fmt.Sprintf("Movement results for Fall of %d", pos.Phase.Year))
	if winter.Phase.Type != judge.Adjustment || winter.Centers[plan.centre] != plan.taker {
		t.Fatalf("after Fall: %v, %s owned by %s; want %s's", winter.Phase, centre, mp.PowerName(winter.Centers[plan.centre]), taker)
	}
	orders := winterOrders(winter, rules.BuildsOn(mp))
	body, spring := h.playPhase(game, mp, seats, orders)
	mustContain(t, body, "Adjustment results for Winter of "+fmt.Sprint(pos.Phase.Year), taker+": ")
	if plan.removes {
		loser := mp.Powers[plan.loser].Name
		if !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(loser)+`: +Removes `).MatchString(body) || spring.UnitCount()[plan.loser] >= winter.UnitCount()[plan.loser] {
			t.Errorf("%s removed nothing (%d units, %d before):\n%s", loser, spring.UnitCount()[plan.loser], winter.UnitCount()[plan.loser], body)
		}
		if spring.Phase != (judge.Phase{Season: judge.Spring, Year: pos.Phase.Year + 1, Type: judge.Movement}) {
			t.Errorf("after Winter: %v", spring.Phase)
		}
		return
	}
	built := strings.Count(body, taker+": ") - strings.Count(body, taker+": Build waived")
	if !strings.Contains(body, "Builds ") || built == 0 {
		t.Errorf("%s built nothing:\n%s", taker, body)
	}
	if spring.Phase != (judge.Phase{Season: judge.Spring, Year: pos.Phase.Year + 1, Type: judge.Movement}) ||
		spring.UnitCount()[plan.taker] <= winter.UnitCount()[plan.taker] {
		t.Errorf("after Winter: %v, %s has %d units (%d before)", spring.Phase, taker,
			spring.UnitCount()[plan.taker], winter.UnitCount()[plan.taker])
	}
}
