package judge

// Adjudicate rules on one phase: pos is the position at the start of the
// phase, orders are the orders as written (the last order for a unit
// counts; illegal ones are void and the unit holds, or in a retreat phase
// disbands). The result has a ruling for every order and for every unit
// that had none, and the position of the next phase that has something to
// do. pos is not changed.
func Adjudicate(pos *Position, orders []Order, rules Rules) *Resolution {
	switch pos.Phase.Type {
	case Retreat:
		return adjudicateRetreat(pos, orders)
	case Adjustment:
		return adjudicateAdjustment(pos, orders, rules)
	}
	return adjudicateMovement(pos, orders, rules)
}
