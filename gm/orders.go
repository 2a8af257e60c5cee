package gm

import (
	"github.com/gmdjudge/gmd/judge"
	"github.com/gmdjudge/gmd/state"
)

// complete reports whether power has complete orders for the phase of pos,
// or nothing to do in it.
func (m *Master) complete(g *state.Game, pos *judge.Position, power string) bool {
	panic("TODO(G1)")
}

// pendingOrders returns every power's pending orders as judge orders.
func (m *Master) pendingOrders(g *state.Game, pos *judge.Position) []judge.Order {
	panic("TODO(G1)")
}
