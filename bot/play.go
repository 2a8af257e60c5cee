package bot

import (
	"fmt"
	"strings"

	"github.com/gmdjudge/gmd/judge"
)

// Game is how one game between players ended.
type Game struct {
	// Seats names each power's player, indexed by Power.
	Seats []string
	// Centres is each power's supply centres at the end, indexed by Power.
	Centres []int
	// Winner is the power that won, or judge.NoPower.
	Winner judge.Power
	// Year is the last year played.
	Year   int
	Phases int
}

// PlayGame plays one game on m between players (one per power, in Power
// order) from the start until a power wins or the year lastYear has been
// played. An order of a player that the adjudicator rules void is an
// error: it names the phase, the power and the order.
func PlayGame(m *judge.Map, rules judge.Rules, players []Player, lastYear int) (Game, error) {
	if len(players) != len(m.Powers) {
		return Game{}, fmt.Errorf("%d players for %d powers", len(players), len(m.Powers))
	}
	g := Game{Winner: judge.NoPower}
	for _, p := range players {
		g.Seats = append(g.Seats, p.Name())
	}
	pos := judge.StartPosition(m)
	for pos.Phase.Year <= lastYear {
		var orders []judge.Order
		for q, p := range players {
			orders = append(orders, p.Orders(pos, judge.Power(q))...)
		}
		res := judge.Adjudicate(pos, orders, rules)
		for _, r := range res.Results {
			if r.Outcome == judge.Void && !r.Default {
				return g, fmt.Errorf("%s, %s (%s player): illegal order %q: %s", pos.Phase, m.PowerName(r.Order.Power),
					players[r.Order.Power].Name(), r.Order.Canonical(m), r.Reason)
			}
		}
		g.Phases++
		g.Year = pos.Phase.Year
		pos = res.Next
		if len(res.Winners) > 0 {
			g.Winner = res.Winners[0]
			break
		}
	}
	g.Centres = pos.CenterCount()
	return g, nil
}

// Lead reports whether power ended the game with more centres than every
// other power (a winner always does).
func (g Game) Lead(power judge.Power) bool {
	for q, c := range g.Centres {
		if judge.Power(q) != power && c >= g.Centres[power] {
			return false
		}
	}
	return true
}

// Seating returns the players' kinds for game number i of a series on a
// board of n powers: kinds in turn from seat i mod n on, the last kind
// filling the seats the list does not reach, so that over n games each
// kind given once sits at every power once.
func Seating(kinds []string, n, i int) []string {
	seats := make([]string, n)
	for s := range seats {
		seats[s] = kinds[len(kinds)-1]
	}
	for k, kind := range kinds {
		if k < n {
			seats[(i+k)%n] = kind
		}
	}
	return seats
}

// Series plays games on m with the seats rotated (Seating), each
// player's seed drawn from seed, the game's number and its seat, and
// tallies them by kind. Budget is the search player's.
func Series(m *judge.Map, rules judge.Rules, kinds []string, games, lastYear int, seed uint64, budget int) (*Table, error) {
	t := &Table{Board: m.Title, Powers: len(m.Powers)}
	for i := range games {
		seats := Seating(kinds, len(m.Powers), i)
		players := make([]Player, len(seats))
		for s, kind := range seats {
			p, err := New(kind, Config{Rules: rules, Seed: seed ^ uint64(i)<<16 ^ uint64(s), Budget: budget})
			if err != nil {
				return nil, err
			}
			players[s] = p
		}
		g, err := PlayGame(m, rules, players, lastYear)
		if err != nil {
			return t, fmt.Errorf("game %d: %w", i+1, err)
		}
		t.Add(g)
	}
	return t, nil
}

// Table tallies games by the kind of player.
type Table struct {
	Board  string
	Powers int
	Games  int
	Rows   []Row
}

// Row is one kind of player's record over a series.
type Row struct {
	Kind string
	// Seats counts the seats it held, over all games.
	Seats int
	// Solos counts its wins; Leads the games it ended alone at the top,
	// wins included.
	Solos, Leads int
	// Centres is the sum of its centres at the end of each game.
	Centres int
}

// Add tallies one game.
func (t *Table) Add(g Game) {
	t.Games++
	for q, kind := range g.Seats {
		r := t.row(kind)
		r.Seats++
		r.Centres += g.Centres[q]
		if g.Winner == judge.Power(q) {
			r.Solos++
		}
		if g.Lead(judge.Power(q)) {
			r.Leads++
		}
	}
}

func (t *Table) row(kind string) *Row {
	for i := range t.Rows {
		if t.Rows[i].Kind == kind {
			return &t.Rows[i]
		}
	}
	t.Rows = append(t.Rows, Row{Kind: kind})
	return &t.Rows[len(t.Rows)-1]
}

// String writes the table as plain text (and valid Markdown): per kind,
// seats, solos, leads (alone at the top, wins included) as a share of its
// seats, and its mean centres at the end.
func (t *Table) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d games on %s\n\n", t.Games, t.Board)
	b.WriteString("| player | seats | solos | leads | leads % | mean centres |\n|---|---:|---:|---:|---:|---:|\n")
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f | %.2f |\n", r.Kind, r.Seats, r.Solos, r.Leads,
			100*float64(r.Leads)/float64(max(1, r.Seats)), float64(r.Centres)/float64(max(1, r.Seats)))
	}
	return b.String()
}
