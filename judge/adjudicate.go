package judge

// Adjudicate rules on one phase: pos is the position at the start of the
// phase, orders are the orders as written (the last order for a unit
// counts; illegal ones are void and the unit holds, or in a retreat phase
// disbands). The result has a ruling for every order and for every unit
// that had none, and the position of the next phase that has something to
// do. pos is not changed.
func Adjudicate(pos *Position, orders []Order, rules Rules) *Resolution {
	var res *Resolution
	switch pos.Phase.Type {
	case Retreat:
		res = adjudicateRetreat(pos, orders, rules)
	case Adjustment:
		res = adjudicateAdjustment(pos, orders, rules)
	default:
		res = adjudicateMovement(pos, orders, rules)
	}
	res.Builds = rules.BuildsOn(pos.Map)
	return res
}
