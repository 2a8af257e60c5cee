package judge

// Adjudicate rules on one phase: pos is the position at the start of the
// phase, orders are the orders as written (any number per unit; the last
// order for a unit counts, illegal ones are void and the unit holds). The
// result has a ruling for every order and for every unit that had none,
// and the position of the next phase that has something to do.
func Adjudicate(pos *Position, orders []Order, rules Rules) *Resolution {
	panic("not yet")
}
