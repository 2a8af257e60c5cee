package judge

// Scratch adjudicates many sets of orders from one position, as a bot's
// search does, reusing its working state and its Resolution from one call
// to the next instead of allocating them each time. Its rulings are those
// of Adjudicate for the same position, orders and rules; only the memory
// differs: the Resolution a call returns, with its Next position, belongs
// to the Scratch and is overwritten by the next call (Clone what must be
// kept). A Scratch is not safe for concurrent use; it is cheap to make one
// per goroutine.
type Scratch struct {
	pos   *Position
	rules Rules
	// occupied is pos's provinces with a unit, found once at Reset
	// rather than on every call (the map's provinces are mostly empty).
	occupied []Loc
	s        mover
	res      Resolution
	next     Position
}

// NewScratch returns a Scratch for adjudicating phases that start at pos
// under rules. pos must not change while the Scratch uses it.
func NewScratch(pos *Position, rules Rules) *Scratch {
	sc := &Scratch{rules: rules}
	sc.Reset(pos)
	return sc
}

// Reset points the Scratch at another position, keeping its buffers.
func (sc *Scratch) Reset(pos *Position) {
	sc.pos = pos
	sc.occupied = sc.occupied[:0]
	for _, p := range pos.Map.provinces {
		if pos.Units[p].Type != NoUnit {
			sc.occupied = append(sc.occupied, p)
		}
	}
}

// Position returns the position the Scratch adjudicates from.
func (sc *Scratch) Position() *Position { return sc.pos }

// Adjudicate rules on orders from the Scratch's position, as Adjudicate
// does. The Resolution is valid until the next call. Retreat and
// adjustment phases, which a search meets seldom, are handed to
// Adjudicate as they are.
func (sc *Scratch) Adjudicate(orders []Order) *Resolution {
	return sc.adjudicate(orders, false)
}

// Next rules on orders from the Scratch's position and returns the
// position that follows, as Adjudicate's Resolution.Next, without the
// rulings of the orders: what a search weighs, at less cost. The
// position is valid until the next call.
func (sc *Scratch) Next(orders []Order) *Position {
	return sc.adjudicate(orders, true).Next
}

func (sc *Scratch) adjudicate(orders []Order, nextOnly bool) *Resolution {
	pos := sc.pos
	if pos.Phase.Type != Movement {
		return Adjudicate(pos, orders, sc.rules)
	}
	sc.s.nextOnly = nextOnly
	res, next := &sc.res, &sc.next
	*res = Resolution{
		Phase:     pos.Phase,
		Results:   res.Results[:0],
		Retreats:  res.Retreats[:0],
		Destroyed: res.Destroyed[:0],
	}
	*next = Position{
		Map:            pos.Map,
		Phase:          pos.Phase,
		Units:          append(next.Units[:0], pos.Units...),
		Centers:        append(next.Centers[:0], pos.Centers...),
		Dislodged:      next.Dislodged[:0],
		Bounced:        sc.s.bounced[:0],
		BuiltCenters:   append(next.BuiltCenters[:0], pos.BuiltCenters...),
		PendingCenters: append(next.PendingCenters[:0], pos.PendingCenters...),
	}
	sc.s.occupied = sc.occupied
	sc.s.movement(pos, orders, sc.rules, res, next)
	if next.Bounced != nil {
		sc.s.bounced = next.Bounced
	}
	res.Builds = sc.rules.BuildsOn(pos.Map)
	return res
}
