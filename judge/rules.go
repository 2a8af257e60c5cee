package judge

import (
	"fmt"
	"strings"
)

// An army ordered to an adjacent province goes by convoy when its order
// says "via convoy" (or names a route) or when a fleet of its own power is
// ordered to convoy it there (DATC 4.A.3, the rulebooks' "intent"); the
// rule sets differ only in what happens when such an explicit convoy is
// not there at all (DATC 6.G.8): see Rules.ConvoyFallback.

// DisorderDistance is the civil-disorder removal rule: which centres the
// distance of each unit is measured to.
type DisorderDistance uint8

// The civil-disorder rules.
const (
	// DistanceToHome measures to the power's home supply centres (2000
	// rulebook, DATC 2.4).
	DistanceToHome DisorderDistance = iota + 1
	// DistanceToOwned measures to the power's owned supply centres (2023
	// rulebook, DATC 3.0).
	DistanceToOwned
)

// Rules are the rule choices of a game. Every choice is a field here, held
// by the game, never a global.
type Rules struct {
	Name string
	// ConvoyFallback lets an army that asked for a convoy to an adjacent
	// province move over land when no fleet was ordered to convoy it
	// (DATC 2.4 preference for 6.G.8). DATC 3.0 prefers no fallback: the
	// move fails.
	ConvoyFallback bool
	CivilDisorder  DisorderDistance
}

// The named rule sets.
var (
	DATC30 = Rules{Name: "datc-3.0", ConvoyFallback: false, CivilDisorder: DistanceToOwned}
	DATC24 = Rules{Name: "datc-2.4", ConvoyFallback: true, CivilDisorder: DistanceToHome}
)

// DefaultRules is the rule set of a new game.
var DefaultRules = DATC30

// RulesByName returns a named rule set; the empty name means DefaultRules.
func RulesByName(name string) (Rules, error) {
	switch strings.ToLower(name) {
	case "", "datc-3.0", "datc3", "3.0":
		return DATC30, nil
	case "datc-2.4", "datc2", "2.4":
		return DATC24, nil
	}
	return Rules{}, fmt.Errorf("unknown rule set %q (want datc-3.0 or datc-2.4)", name)
}
