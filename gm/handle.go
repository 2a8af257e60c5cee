package gm

import "time"

// Handle processes one incoming mail at time now: every command and order
// in it, in one transaction with the ledger entry and the replies. A mail
// already recorded in the ledger is ignored.
func (m *Master) Handle(in *Mail, now time.Time) error {
	panic("TODO(G1)")
}
