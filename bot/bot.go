// Package bot plays Diplomacy: it writes the orders of one power for any
// phase of any board, from the map data alone, and plays whole games
// between such players.
//
// Every player is deterministic for its seed: the same position, power
// and seed give the same orders (the search player's wall-time cap is a
// safety net that a normal budget never reaches). Every order a player
// writes is legal, so that the adjudicator never rules it void; an
// illegal order is a bug, and PlayGame reports one as an error.
//
// The players, weakest first:
//   - Hold: civil disorder; every unit holds, a dislodged unit disbands,
//     no builds, and the judge's rule chooses the removals.
//   - Random: a random legal order for every unit, random builds and
//     removals.
//   - Heuristic: a DumbBot-style player. Each province gets a value from
//     the centres in and near it (an enemy centre is worth its owner's
//     size, an own centre the size of the strongest neighbour that
//     threatens it), spread over the board in a few rounds; each unit
//     then goes, greedily and with a little noise, to the best place it
//     can reach that no other unit of its power has taken, and units that
//     stay support a move of their own side into a place an enemy holds
//     or threatens, or a threatened neighbour.
//   - Search: the heuristic's orders and samples around them for itself
//     and for its neighbours, each of its own candidates scored against
//     several of its neighbours' with the real adjudicator (judge.Scratch)
//     and an evaluation of the position that follows; it plays the best
//     on average. Its budget is a number of adjudications.
package bot

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gmdjudge/gmd/judge"
)

// Player writes the orders of one power.
type Player interface {
	// Name is the player's kind: "hold", "random", "heuristic", "search".
	Name() string
	// Orders returns the orders of power for the phase that starts at
	// pos: one for each of its units in a movement phase, a retreat or
	// disband for each of its dislodged units, its builds or removals in
	// an adjustment phase. Every order is legal in pos.
	Orders(pos *judge.Position, power judge.Power) []judge.Order
}

// Kinds lists the players by name, weakest first.
var Kinds = []string{"hold", "random", "heuristic", "search"}

// DefaultBudget is the search player's number of adjudications a phase
// when the caller gives none.
const DefaultBudget = 2000

// Config is what a player is made with.
type Config struct {
	Rules judge.Rules
	Seed  uint64
	// Budget is the search player's number of adjudications a phase
	// (DefaultBudget when 0); others ignore it.
	Budget int
	// MaxTime caps the search player's time a phase, as a safety: when
	// it is reached the search stops early, and its orders then depend
	// on the machine. 0 means 500 ms.
	MaxTime time.Duration
}

// New returns a player of the named kind (see Kinds).
func New(kind string, c Config) (Player, error) {
	rng := rand.New(rand.NewPCG(c.Seed, 0x676d64626f74)) // "gmdbot"
	switch strings.ToLower(kind) {
	case "hold":
		return Hold{}, nil
	case "random":
		return &Random{rng: rng, rules: c.Rules}, nil
	case "heuristic":
		return &Heuristic{rng: rng, rules: c.Rules}, nil
	case "search":
		s := &Search{rng: rng, rules: c.Rules, Budget: c.Budget, MaxTime: c.MaxTime}
		if s.Budget <= 0 {
			s.Budget = DefaultBudget
		}
		if s.MaxTime <= 0 {
			s.MaxTime = 500 * time.Millisecond
		}
		return s, nil
	}
	return nil, fmt.Errorf("no player %q (players: %s)", kind, strings.Join(Kinds, ", "))
}

// Hold is the civil-disorder player.
type Hold struct{}

// Name implements Player.
func (Hold) Name() string { return "hold" }

// Orders implements Player: holds, disbands, and nothing in a winter.
func (Hold) Orders(pos *judge.Position, power judge.Power) []judge.Order {
	var out []judge.Order
	switch pos.Phase.Type {
	case judge.Movement:
		for _, p := range pos.Map.Provinces() {
			if u := pos.Units[p]; u.Type != judge.NoUnit && u.Power == power {
				out = append(out, judge.Order{Kind: judge.Hold, Power: power, Type: u.Type, Unit: u.Loc})
			}
		}
	case judge.Retreat:
		for _, d := range pos.Dislodged {
			if d.Power == power {
				out = append(out, judge.Order{Kind: judge.Disband, Power: power, Type: d.Type, Unit: d.Loc})
			}
		}
	}
	return out
}
