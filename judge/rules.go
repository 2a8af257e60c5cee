package judge

import (
	"fmt"
	"strings"
)

// ConvoyChoice is how an army that could reach its destination both over
// land and by convoy decides which route it takes.
type ConvoyChoice uint8

// The convoy-route rules.
const (
	// ConvoyIntent follows the 2000 rulebook and DATC 2.4 (6.G): the army
	// goes by convoy when it says "via convoy", or when a fleet of its own
	// power convoys it as ordered.
	ConvoyIntent ConvoyChoice = iota + 1
	// ConvoyExplicit follows the 2023 rulebook and DATC 3.0: the army goes
	// by convoy only when its order says so ("via convoy" or a route).
	ConvoyExplicit
)

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
	Name          string
	Convoy        ConvoyChoice
	CivilDisorder DisorderDistance
}

// The named rule sets.
var (
	DATC30 = Rules{Name: "datc-3.0", Convoy: ConvoyExplicit, CivilDisorder: DistanceToOwned}
	DATC24 = Rules{Name: "datc-2.4", Convoy: ConvoyIntent, CivilDisorder: DistanceToHome}
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
