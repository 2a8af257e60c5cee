package judge

import (
	"errors"
	"fmt"
	"slices"
)

// Unit is a unit on the board.
type Unit struct {
	Type  UnitType
	Power Power // NoPower for a neutral unit
	Loc   Loc   // exact place: a coast Loc for a fleet on a split coast
}

// Neutral reports whether u is a neutral unit: one that belongs to no
// power (a unit line of power "-" in the map file). A neutral unit takes
// no orders and holds, may be supported to hold by any power, and when
// dislodged is destroyed without a retreat; no power counts it among its
// units.
func (u Unit) Neutral() bool { return u.Type != NoUnit && u.Power == NoPower }

// DislodgedUnit is a unit waiting to retreat.
type DislodgedUnit struct {
	Unit
	// AttackerFrom is the province the dislodging unit came from: the
	// dislodged unit may not retreat there. NoLoc if the attack came by
	// convoy (then that province is open to retreat).
	AttackerFrom Loc
}

// PendingCenter is a supply centre under construction (the "34, 35, 36"
// variant): the power gave up a build in the Winter named by Ordered to
// raise a new centre in the province Loc. The centre is built when the
// next year's Fall ends, unless a unit of another power was ordered into
// the province during that year (rule 5); the first such order spoils the
// construction, and Spoiled, SpoiledBy and SpoiledIn record it, so that a
// position handed on between phases holds all the rule needs.
type PendingCenter struct {
	Power   Power
	Loc     Loc // a base province
	Ordered Phase

	Spoiled   bool
	SpoiledBy Power // the power whose unit was ordered in
	SpoiledIn Phase // the movement or retreat phase of that order
}

// Position is the state of a game at the start of a phase.
type Position struct {
	Map   *Map
	Phase Phase
	// Units holds one entry per province, indexed by the base province's Loc;
	// an empty province has Type NoUnit.
	Units []Unit
	// Dislodged lists the units that must retreat (retreat phases only).
	Dislodged []DislodgedUnit
	// Bounced lists the provinces left empty by a stand-off in the movement
	// just played: no retreat may go there.
	Bounced []Loc
	// Centers holds the owner of each supply centre, indexed by Loc; NoPower
	// for unowned centres and for every other Loc.
	Centers []Power
	// BuiltCenters lists the provinces that became supply centres during
	// the game, in Loc order (the "34, 35, 36" variant). The map's centre
	// list is fixed data, so the centres a game adds live here; IsCenter
	// and CenterList see both.
	BuiltCenters []Loc
	// PendingCenters lists centres under construction (the "34, 35, 36"
	// variant), in the order they were ordered.
	PendingCenters []PendingCenter
	// EndedConstructions lists, in a Winter adjustment position only, the
	// constructions whose year ended with the Fall just played, in the
	// order they were ordered: each was built unless Spoiled (the Fall's
	// Resolution.Constructions). The adjudicator does not use it; it is
	// there so that the Winter's results can say what became of them, and
	// every other phase's position has none.
	EndedConstructions []PendingCenter
}

// NewPosition returns an empty position on m at phase p, with no units and
// no owned centres.
func NewPosition(m *Map, p Phase) *Position {
	pos := &Position{Map: m, Phase: p, Units: make([]Unit, len(m.Locs)), Centers: make([]Power, len(m.Locs))}
	for i := range pos.Units {
		pos.Units[i].Loc = NoLoc
	}
	for i := range pos.Centers {
		pos.Centers[i] = NoPower
	}
	return pos
}

// StartPosition returns the map's position at its first phase (see
// Map.StartPhase).
func StartPosition(m *Map) *Position {
	pos := NewPosition(m, m.StartPhase())
	for _, u := range m.StartUnits {
		pos.Units[m.Province(u.Loc)] = Unit{Type: u.Type, Power: u.Power, Loc: u.Loc}
	}
	copy(pos.Centers, m.StartCenters)
	return pos
}

// Clone returns a deep copy of pos.
func (pos *Position) Clone() *Position {
	c := *pos
	c.Units = append([]Unit(nil), pos.Units...)
	c.Centers = append([]Power(nil), pos.Centers...)
	c.Dislodged = append([]DislodgedUnit(nil), pos.Dislodged...)
	c.Bounced = append([]Loc(nil), pos.Bounced...)
	c.BuiltCenters = append([]Loc(nil), pos.BuiltCenters...)
	c.PendingCenters = append([]PendingCenter(nil), pos.PendingCenters...)
	c.EndedConstructions = append([]PendingCenter(nil), pos.EndedConstructions...)
	return &c
}

// IsCenter reports whether l's province is a supply centre in pos: one of
// the map's, or one built during the game.
func (pos *Position) IsCenter(l Loc) bool {
	m := pos.Map
	if int(l) >= len(m.Locs) {
		return false
	}
	p := m.Locs[l].Province
	if m.Locs[p].Center {
		return true
	}
	for _, b := range pos.BuiltCenters {
		if b == p {
			return true
		}
	}
	return false
}

// CenterList returns the supply centres of pos in Loc order: the map's,
// and those built during the game. With none built it is the map's own
// list, which the caller must not change.
func (pos *Position) CenterList() []Loc {
	if len(pos.BuiltCenters) == 0 {
		return pos.Map.centers
	}
	out := make([]Loc, 0, len(pos.Map.centers)+len(pos.BuiltCenters))
	out = append(out, pos.Map.centers...)
	out = append(out, pos.BuiltCenters...)
	slices.Sort(out)
	return out
}

// VictoryCenters returns the number of centres a power needs to win in
// pos: the map's count, or, on a map with a dynamic victory count, a
// majority of the centres on the board (rule 7 of "34, 35, 36": 18 of 34
// or 35, 19 of 36).
func (pos *Position) VictoryCenters() int {
	if pos.Map.DynamicVictory {
		return majority(len(pos.Map.centers) + len(pos.BuiltCenters))
	}
	return pos.Map.VictoryCenters
}

// PendingAt returns the index in PendingCenters of the construction in l's
// province, or -1.
func (pos *Position) PendingAt(l Loc) int {
	if int(l) >= len(pos.Map.Locs) {
		return -1
	}
	p := pos.Map.Province(l)
	for i := range pos.PendingCenters {
		if pos.PendingCenters[i].Loc == p {
			return i
		}
	}
	return -1
}

// addBuiltCenter makes province p a supply centre, keeping BuiltCenters
// in Loc order.
func (pos *Position) addBuiltCenter(p Loc) {
	i, found := slices.BinarySearch(pos.BuiltCenters, p)
	if !found {
		pos.BuiltCenters = slices.Insert(pos.BuiltCenters, i, p)
	}
}

// UnitAt returns the unit in l's province, if any.
func (pos *Position) UnitAt(l Loc) (Unit, bool) {
	if int(l) >= len(pos.Units) {
		return Unit{}, false
	}
	u := pos.Units[pos.Map.Province(l)]
	return u, u.Type != NoUnit
}

// Place puts a unit on the board, checking that the place suits the unit
// and is free.
func (pos *Position) Place(u Unit) error {
	m := pos.Map
	if int(u.Loc) >= len(m.Locs) {
		return errors.New("no such place")
	}
	if !m.CanHold(u.Type, u.Loc) {
		switch {
		case m.Locs[u.Loc].Impassable:
			return fmt.Errorf("%s is impassable: no unit may stand there", m.Locs[u.Loc].FullName)
		case u.Type == Fleet && len(m.Locs[u.Loc].Coasts) > 0:
			return fmt.Errorf("a fleet in %s needs a coast (%s)", m.Locs[u.Loc].FullName, coastList(m, u.Loc))
		case u.Type == Fleet:
			return fmt.Errorf("a fleet cannot stand in %s, which is inland", m.Locs[u.Loc].FullName)
		case u.Type == Army && m.Locs[u.Loc].Kind == Sea:
			return fmt.Errorf("an army cannot stand in %s, which is sea", m.Locs[u.Loc].FullName)
		case u.Type == Army:
			return fmt.Errorf("an army stands in a province, not on a coast (%s)", m.LocName(u.Loc))
		}
		return fmt.Errorf("no unit type given for %s", m.LocName(u.Loc))
	}
	p := m.Province(u.Loc)
	if pos.Units[p].Type != NoUnit {
		return fmt.Errorf("two units in %s", m.Locs[p].FullName)
	}
	pos.Units[p] = u
	return nil
}

func coastList(m *Map, p Loc) string {
	s := ""
	for i, c := range m.Locs[p].Coasts {
		if i > 0 {
			s += " or "
		}
		s += m.LocName(c)
	}
	return s
}

// CenterCount returns the number of centres each power owns, indexed by
// Power.
func (pos *Position) CenterCount() []int {
	return pos.centerCountInto(nil)
}

// centerCountInto is CenterCount into dst's memory, when it is big
// enough: the adjudicator's own counts then allocate nothing.
func (pos *Position) centerCountInto(dst []int) []int {
	n := slices.Grow(dst[:0], len(pos.Map.Powers))[:len(pos.Map.Powers)]
	clear(n)
	for _, c := range pos.Map.centers {
		if p := pos.Centers[c]; int(p) < len(n) {
			n[p]++
		}
	}
	for _, c := range pos.BuiltCenters {
		if p := pos.Centers[c]; int(p) < len(n) {
			n[p]++
		}
	}
	return n
}

// UnitCount returns the number of units each power has, indexed by Power.
func (pos *Position) UnitCount() []int {
	return pos.unitCountInto(nil)
}

// unitCountInto is UnitCount into dst's memory, as centerCountInto.
func (pos *Position) unitCountInto(dst []int) []int {
	n := slices.Grow(dst[:0], len(pos.Map.Powers))[:len(pos.Map.Powers)]
	clear(n)
	for _, u := range pos.Units {
		if u.Type != NoUnit && int(u.Power) < len(n) {
			n[u.Power]++
		}
	}
	return n
}

// ResolveOrder returns the order with the ordered unit's type and exact place
// filled in from pos, where the order left the type out or named the
// province without the coast ("stp" for a fleet on stp/sc), together with
// that unit. An order for a unit that is not there, or whose type does not
// match, is returned as written, with ok false: the canonical text then
// shows what the player asked for. Builds, waives and constructions are
// returned as written; a build's unit is the one it would raise.
func (pos *Position) ResolveOrder(o *Order) (out Order, u Unit, ok bool) {
	out = *o
	m := pos.Map
	if int(o.Unit) >= len(m.Locs) {
		return out, Unit{}, false
	}
	switch o.Kind {
	case Waive, Construct:
		return out, Unit{}, false
	case Build:
		return out, Unit{Type: o.Type, Power: o.Power, Loc: o.Unit}, o.Type != NoUnit
	}
	prov := m.Province(o.Unit)
	if pos.Phase.Type == Retreat && o.Kind != Remove {
		for _, d := range pos.Dislodged {
			if m.Province(d.Loc) == prov {
				u, ok = d.Unit, true
				break
			}
		}
	} else {
		u = pos.Units[prov]
		ok = u.Type != NoUnit
	}
	if !ok || (o.Type != NoUnit && o.Type != u.Type) || (o.Unit != prov && o.Unit != u.Loc) {
		return out, Unit{}, false
	}
	out.Type, out.Unit = u.Type, u.Loc
	return out, u, true
}
