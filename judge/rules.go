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
	// Builds is where a power may build when the game chose it (njudge's
	// SET BUILD); BuildsOfMap, the zero value, keeps the map's rule.
	Builds BuildRule
	// Victory is the number of supply centres a power needs to win when
	// the game chose it (njudge's SET CENTERS, gmd's SET VICTORY); 0
	// keeps the map's count (Position.VictoryCenters).
	Victory int
}

// VictoryIn returns the number of supply centres a power needs to win in
// pos under r: the game's count if it chose one, else the map's.
func (r Rules) VictoryIn(pos *Position) int {
	if r.Victory > 0 {
		return r.Victory
	}
	return pos.VictoryCenters()
}

// BuildRule says in which supply centres a power may build: njudge's HOME,
// ONE and ANY CENTRES. A build always goes in a vacant centre the power
// owns.
type BuildRule uint8

// The build rules.
const (
	// BuildsOfMap, in Rules, leaves the choice to the map.
	BuildsOfMap BuildRule = iota
	// BuildHome allows builds in the power's home centres only (the
	// standard rule).
	BuildHome
	// BuildOne allows builds in any owned centre while the power holds at
	// least one of its home centres.
	BuildOne
	// BuildAny allows builds in any owned centre (Chaos).
	BuildAny
	// BuildCaptured allows builds in any owned centre that is a home
	// centre of some power, the builder's own or one it took from
	// another, but never in a centre that was neutral (Twenty Twenty:
	// godip's AnyHomeCenter).
	BuildCaptured
)

var buildRuleNames = [...]string{BuildsOfMap: "map", BuildHome: "home", BuildOne: "one", BuildAny: "any", BuildCaptured: "captured"}

// String returns the rule's word in map files, JSON and SET BUILD, in
// lower case: "home", "one", "any", "captured" ("map" for BuildsOfMap).
func (r BuildRule) String() string {
	if int(r) < len(buildRuleNames) {
		return buildRuleNames[r]
	}
	return fmt.Sprintf("BuildRule(%d)", r)
}

// Describe says where the rule lets a power build, for players:
// "in its vacant home centres".
func (r BuildRule) Describe() string {
	switch r {
	case BuildOne:
		return "in any vacant owned centre while it holds one of its home centres"
	case BuildAny:
		return "in any vacant owned centre"
	case BuildCaptured:
		return "in any vacant owned home centre, its own or one taken from another power"
	}
	return "in its vacant owned home centres"
}

// ParseBuildRule reads "home", "one", "any" or "captured", in any case.
func ParseBuildRule(s string) (BuildRule, error) {
	for r := BuildHome; r <= BuildCaptured; r++ {
		if strings.EqualFold(s, r.String()) {
			return r, nil
		}
	}
	return BuildsOfMap, fmt.Errorf("unknown build rule %q (want %s)", s, BuildRuleWords)
}

// BuildRuleWords lists the words ParseBuildRule reads, for messages.
const BuildRuleWords = "home, one, any or captured"

// BuildsOn returns the build rule in force for a game on m: the game's own
// choice, or the map's.
func (r Rules) BuildsOn(m *Map) BuildRule {
	if r.Builds != BuildsOfMap {
		return r.Builds
	}
	if m.Builds == BuildsOfMap {
		return BuildHome // a map made without a builder's defaults
	}
	return m.Builds
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
