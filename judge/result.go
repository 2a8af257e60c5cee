package judge

import "fmt"

// Outcome is what became of one order.
type Outcome uint8

// The outcomes, as named in results (see String).
const (
	Succeeds  Outcome = iota + 1
	Bounced           // a move or retreat that did not happen
	Cut               // a support that was cut
	Dislodged         // the unit was dislodged (whatever its order)
	Void              // the order was illegal for the position and counted as a hold
	NoConvoy          // a convoyed move with no matching convoy, or a convoy with no matching army
	Disrupted         // a convoyed move whose route was broken: a convoying fleet dislodged, or a paradox rule
	NoSupport         // a support for a unit that did not do what was supported
	Built
	Waived
	Removed
	Disbanded
)

var outcomeNames = [...]string{Succeeds: "succeeds", Bounced: "bounce", Cut: "cut", Dislodged: "dislodged",
	Void: "void", NoConvoy: "no convoy", Disrupted: "disrupted", NoSupport: "no support", Built: "build",
	Waived: "waived", Removed: "removed", Disbanded: "disbanded"}

// String returns the outcome's name in the gmd adjudicate JSON contract.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) && outcomeNames[o] != "" {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", o)
}

// OrderResult is the ruling on one order.
type OrderResult struct {
	Order   Order
	Outcome Outcome
	// Dislodged is set when the ordered unit was dislodged; Outcome then says
	// Dislodged, and Failed keeps what the order itself came to (Bounced for
	// a move that failed, Cut for a cut support), for "(*bounce, dislodged*)".
	Dislodged bool
	Failed    Outcome
	// Default marks an order the judge supplied: a hold for a unit without
	// orders, a disband for a dislodged unit without one, a civil-disorder
	// removal.
	Default bool
	// Reason says why a Void order was void, for acknowledgements.
	Reason string
	// Route is, for an army moving by convoy whose order named no route,
	// the seas of the fleets ordered to convoy it, from the army to its
	// destination, as the results print them ("Army London -> North Sea
	// -> Norway"): the shortest such chain, the first in map order, whether
	// or not the convoy got through. It is nil for every other order; an
	// order that names its route has it in Order.Route.
	Route []Loc
}

// RetreatOptions lists where a dislodged unit may retreat.
type RetreatOptions struct {
	Unit DislodgedUnit
	To   []Loc
}

// Resolution is the outcome of one phase.
type Resolution struct {
	Phase   Phase
	Results []OrderResult
	// Retreats lists the dislodged units that may retreat, with their
	// options (movement phases only).
	Retreats []RetreatOptions
	// Destroyed lists the dislodged units that had no retreat and left the
	// board (movement phases only).
	Destroyed []Unit
	// Next is the position of the next phase that has something to do.
	Next *Position
	// OwnershipChanged is set when this phase ended a year's Fall, so that
	// supply-centre ownership was updated (results then show the table).
	OwnershipChanged bool
	// Winners lists the powers that reached the victory count (at most one
	// in standard rules).
	Winners []Power
	// Constructions lists the supply centres under construction whose year
	// ended with this phase (the end of a Fall), in the order they were
	// ordered: each was built unless Spoiled, and Next shows the centres
	// built among its centres and who owns them. When Next is a Winter
	// adjustment, it keeps the same list as its EndedConstructions.
	Constructions []PendingCenter
	// Builds is the build rule the phase was ruled under (see
	// Rules.BuildsOn), for reports that say where builds could go.
	Builds BuildRule
}
