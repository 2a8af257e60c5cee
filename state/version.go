package state

// Version returns the number of the last write committed before tx began
// (for a write, its own once committed): two read transactions of the
// same Version see the same database, so that what was read from one
// may stand for what the other would read (the web pages' list of games).
func (tx *Tx) Version() uint64 { return uint64(tx.tx.ID()) }
