package judge

import "strings"

// OrderKind says what an order asks a unit (or a power) to do.
type OrderKind uint8

// The order kinds.
const (
	Hold        OrderKind = iota + 1
	Move                  // also a retreat, in a retreat phase
	SupportHold           // support a unit that holds (or convoys, or supports)
	SupportMove           // support a move
	Convoy                // a fleet convoys an army
	Disband               // retreat phase: the dislodged unit leaves the board
	Build                 // adjustment phase
	Remove                // adjustment phase
	Waive                 // adjustment phase: give up one build
	// Construct gives up one build to raise a supply centre in the
	// province Unit (adjustment phase, "34, 35, 36" variant).
	Construct
)

var kindNames = [...]string{Hold: "hold", Move: "move", SupportHold: "support", SupportMove: "support",
	Convoy: "convoy", Disband: "disband", Build: "build", Remove: "remove", Waive: "waive", Construct: "construct"}

// String names the kind in lower case.
func (k OrderKind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "?"
}

// Order is one order as a player wrote it, with names resolved to Locs but
// nothing checked against the position: whether the unit exists, belongs to
// the power and can do it is the adjudicator's business (see Validate).
type Order struct {
	Kind  OrderKind
	Power Power    // who gave the order; NoPower when the text did not say
	Type  UnitType // type of the ordered unit as written; NoUnit if omitted
	Unit  Loc      // where the ordered unit is (for Build, where to build; for Construct, the province)

	// Target is the destination of a Move, the supported or convoyed unit's
	// place for SupportHold, SupportMove and Convoy.
	Target     Loc
	TargetType UnitType // type written for the supported or convoyed unit
	// Dest is the destination of the supported or convoyed move.
	Dest Loc

	// Route is an explicit convoy route written by the army ("A lon - nth -
	// nwy" has Route [nth]). ViaConvoy says the army asked to go by convoy,
	// by route or by the words "via convoy".
	Route     []Loc
	ViaConvoy bool

	// Bare marks an adjustment order written without "build" or "remove"
	// ("A par"): it is a build for a power with builds to make and a removal
	// for a power that must remove. The parser sets Kind to Build.
	Bare bool
}

// Canonical returns the order in the one form that gmd writes and that the
// parser reads back: "F nth C A lon - nwy", "A mun S A ber - sil",
// "build F stp/nc", "build sc yor". The power is not included; see
// CanonicalWithPower.
func (o *Order) Canonical(m *Map) string {
	var b strings.Builder
	unit := func(t UnitType, l Loc) {
		if t != NoUnit {
			b.WriteString(t.String())
			b.WriteByte(' ')
		}
		b.WriteString(m.LocName(l))
	}
	switch o.Kind {
	case Hold:
		unit(o.Type, o.Unit)
		b.WriteString(" H")
	case Move:
		unit(o.Type, o.Unit)
		for _, r := range o.Route {
			b.WriteString(" - ")
			b.WriteString(m.LocName(r))
		}
		b.WriteString(" - ")
		b.WriteString(m.LocName(o.Target))
		if o.ViaConvoy && len(o.Route) == 0 {
			b.WriteString(" via convoy")
		}
	case SupportHold:
		unit(o.Type, o.Unit)
		b.WriteString(" S ")
		unit(o.TargetType, o.Target)
	case SupportMove, Convoy:
		unit(o.Type, o.Unit)
		if o.Kind == Convoy {
			b.WriteString(" C ")
		} else {
			b.WriteString(" S ")
		}
		unit(o.TargetType, o.Target)
		b.WriteString(" - ")
		b.WriteString(m.LocName(o.Dest))
	case Disband:
		unit(o.Type, o.Unit)
		b.WriteString(" disband")
	case Build:
		b.WriteString("build ")
		unit(o.Type, o.Unit)
	case Remove:
		b.WriteString("remove ")
		unit(o.Type, o.Unit)
	case Waive:
		b.WriteString("waive")
	case Construct:
		b.WriteString("build sc ")
		b.WriteString(m.LocName(o.Unit))
	default:
		b.WriteString("?")
	}
	return b.String()
}

// CanonicalWithPower returns "England: F lon - nth".
func (o *Order) CanonicalWithPower(m *Map) string {
	return m.PowerName(o.Power) + ": " + o.Canonical(m)
}
